// Which tokens the order flow asks the exchange to read again before a SELL: those a BUY of this session may have
// brought shares of; a matched BUY's once, a resting BUY's every time (it can fill after any refresh).
import { describe, expect, it } from 'vitest';
import { UnseenShares } from '../../src/main/trading/unseen-shares';
import type { Logger } from '../../packages/toolkit/src/base/logger';

const ACCOUNT = '0x00000000000000000000000000000000000000A1';
const warned: string[] = [];
const logger: Logger = { debug() {}, warn: (m) => warned.push(m), error() {} };

describe('UnseenShares', () => {
  it('asks before selling a token bought this session, once for a matched BUY, always while one rests', async () => {
    const views = new UnseenShares();
    const asked: string[] = [];
    const sell = (token: string, account = ACCOUNT) =>
      views.beforeSell(account, token, async () => asked.push(token), logger);

    await sell('1');
    expect(asked).toEqual([]);

    views.boughtShares(ACCOUNT, '1', false);
    await sell('1');
    await sell('1');
    expect(asked).toEqual(['1']);

    views.boughtShares(ACCOUNT.toLowerCase(), '2', true);
    views.boughtShares(ACCOUNT, '2', false);
    await sell('2');
    await sell('2');
    expect(asked).toEqual(['1', '2', '2']);
    // Another account's SELL of the token is not this one's.
    await sell('2', '0x00000000000000000000000000000000000000b2');
    expect(asked).toEqual(['1', '2', '2']);
  });

  it('keeps the mark and posts anyway when the refresh fails, saying so', async () => {
    const views = new UnseenShares();
    views.boughtShares(ACCOUNT, '3', false);
    await views.beforeSell(ACCOUNT, '3', () => Promise.reject(new Error('offline')), logger);
    expect(warned).toEqual(['GET /balance-allowance/update before a SELL failed; posting it anyway']);
    const asked: string[] = [];
    await views.beforeSell(ACCOUNT, '3', async () => asked.push('3'), logger);
    expect(asked).toEqual(['3']);
  });
});
