// tradingApprovalCalls refuses what is not a list of (token, spender) approvals with the catalogue's
// ERR_INVALID_PARAM before reading the chain; the reads themselves are covered on the sandbox
// (tests/integration/cli-trade-relayer.test.ts, terminal-money-relayer.test.ts).
import { describe, expect, it } from 'vitest';
import { tradingApprovalCalls, type TradingApproval } from '../../packages/toolkit/src/positions/approval-calls';

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const SPENDER = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512';
const ACCOUNT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
/** Never answers: every refusal here comes before the chain is asked. */
const unreachable = { call: () => Promise.reject(new Error('the chain was asked')) };

async function refusal(account: string, approvals: unknown): Promise<{ code: string; message: string }> {
  const error = (await tradingApprovalCalls(unreachable, account, approvals as TradingApproval[]).catch(
    (e: unknown) => e,
  )) as { code: string; message: string };
  return { code: error.code, message: error.message };
}

describe('tradingApprovalCalls refuses bad input before reading the chain', () => {
  it('an empty list, too many, a bad address or an unknown kind', async () => {
    const one: TradingApproval = { kind: 'collateral', token: TOKEN, spender: SPENDER };
    expect(await refusal(ACCOUNT, [])).toMatchObject({
      code: 'ERR_INVALID_PARAM',
      message: expect.stringContaining('Trading approvals are 1 to 16'),
    });
    expect(
      await refusal(
        ACCOUNT,
        Array.from({ length: 17 }, () => one),
      ),
    ).toMatchObject({ code: 'ERR_INVALID_PARAM' });
    expect(await refusal(ACCOUNT, [{ ...one, spender: '0x1234' }])).toMatchObject({ code: 'ERR_INVALID_PARAM' });
    expect(await refusal(ACCOUNT, [{ ...one, kind: 'everything' }])).toMatchObject({
      code: 'ERR_INVALID_PARAM',
      message: expect.stringContaining('collateral or the outcome tokens'),
    });
    expect(await refusal('not-an-account', [one])).toMatchObject({ code: 'ERR_INVALID_PARAM' });
  });
});
