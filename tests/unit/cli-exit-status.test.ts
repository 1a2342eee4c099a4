// The CLI's exit statuses as a script branches on them: 2 refused before sending, 3 an order that may be live
// (with its hash on the --json error line, even across a JSON copy of the error), 1 anything else.
import { describe, expect, it } from 'vitest';
import { EXIT_FAILURE, EXIT_INVALID_INPUT, EXIT_ORDER_IN_DOUBT, errorJson, exitStatusFor } from '../../src/cli/output';
import { isOrderInDoubt, orderInDoubt } from '../../packages/toolkit/src/clob/post-once';
import { ErrorCode, PmDeskError, invalidParameter } from '../../packages/toolkit/src/model/errors';

const HASH = `0x${'ab'.repeat(32)}`;

describe('exit statuses', () => {
  it('are distinct: 2 refused before sending, 3 may be live, 1 a clean failure', () => {
    expect(new Set([EXIT_FAILURE, EXIT_INVALID_INPUT, EXIT_ORDER_IN_DOUBT]).size).toBe(3);
    expect(exitStatusFor(invalidParameter('no'))).toBe(2);
    expect(exitStatusFor(new PmDeskError(ErrorCode.TIMEOUT_ERROR, 'API request timed out.'))).toBe(1);
    expect(exitStatusFor(orderInDoubt(HASH, 'placeOrder'))).toBe(3);
    // A method name filled in later (wrapOnce) keeps the doubt.
    expect(exitStatusFor(orderInDoubt(HASH, '').withMethod('trade'))).toBe(3);
  });

  it('says the hash and the command to check, and carries the hash on the --json line', () => {
    const error = orderInDoubt(HASH, 'placeOrder');
    expect(error.detail).toContain(`Order ${HASH} may be live`);
    expect(error.detail).toContain(`pmdesk order get ${HASH}`);
    expect(JSON.parse(errorJson(error))).toEqual({
      error: {
        code: ErrorCode.NETWORK_ERROR,
        message: error.detail,
        statusCode: null,
        methodName: 'placeOrder',
        orderHash: HASH,
      },
    });
    expect(JSON.parse(errorJson(invalidParameter('no'))).error).not.toHaveProperty('orderHash');
    // Its JSON copy (toJSON, what a log or another process gets) still tells a doubt from a failure.
    expect(isOrderInDoubt(JSON.parse(JSON.stringify(error)))).toBe(true);
    expect(isOrderInDoubt(JSON.parse(JSON.stringify(new PmDeskError(ErrorCode.NETWORK_ERROR, 'down'))))).toBe(false);
  });
});
