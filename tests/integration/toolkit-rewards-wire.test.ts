// The toolkit's reward reads judge what comes back: a wrong shape is ERR_VALIDATION naming the field, a refusal
// is an error with the exchange's status, never an empty list or zero earnings (a small server with fixed answers).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import {
  readOrdersScoring,
  readRewardEarningsForDay,
  readRewardMarkets,
} from '../../packages/toolkit/src/clob/rewards';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';

const signer = privateKeySigner('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const creds = { key: 'api-key-1', secret: 'c2VjcmV0LWJ5dGVzLWZvci10ZXN0cy0xMjM0NTY3OA==', passphrase: 'p' };
let server: FixtureServer;
const client = () => new ClobClient({ host: server.url, chainId: 137, signer, creds, throwOnError: true });

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.stop());
beforeEach(() => server.reset());

describe('reward reads validate the exchange’s answers', () => {
  it('a reward market without its condition id is ERR_VALIDATION; a market paying nothing is left out', async () => {
    server.json('GET', '/rewards/markets/current', {
      data: [{ rewards_max_spread: 3.5, total_daily_rate: 10 }],
      next_cursor: 'LTE=',
    });
    await expect(readRewardMarkets(client())).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
    server.json('GET', '/rewards/markets/current', {
      data: [
        { condition_id: `0x${'ab'.repeat(32)}`, rewards_max_spread: 2, rewards_min_size: 20, total_daily_rate: '0.5' },
        { condition_id: `0x${'cd'.repeat(32)}`, rewards_max_spread: 0, rewards_min_size: 0, total_daily_rate: 0 },
      ],
      next_cursor: 'LTE=',
    });
    expect(await readRewardMarkets(client())).toEqual([
      { conditionId: `0x${'ab'.repeat(32)}`, dailyRate: 500_000n, maxSpreadCents: 2, minSize: 20 },
    ]);
  });

  it('earnings written as a word, and a batch answer that is not a map, are refused', async () => {
    server.json('GET', '/rewards/user', {
      data: [{ date: '2026-11-28', condition_id: '0x1', maker_address: '0x2', asset_address: '0x3', earnings: 'lots' }],
      next_cursor: 'LTE=',
    });
    await expect(readRewardEarningsForDay(client(), '2026-11-28')).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
    server.json('POST', '/orders-scoring', ['0xa']);
    await expect(readOrdersScoring(client(), ['0xa'])).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
  });
});
