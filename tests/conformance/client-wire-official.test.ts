// The exchange client's requests against the official clients' for the same calls, captured by a real HTTP
// server on loopback with the clock pinned: method, path and query as sent, body bytes and every POLY_ header.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ClobClient as ClobClientV1 } from '@polymarket/clob-client';
import { AssetType, ClobClient as ClobClientV2, Side } from '@polymarket/clob-client-v2';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { AMOY } from '../../packages/toolkit/src/chain/networks';
import { startFixtureServer, type FixtureServer, type RecordedRequest } from '../helpers/fixture-server';
import { FUNDER, TEST_KEY, TOKEN_ID, pinClock, referenceSigner, unpinClock } from './reference';

const CREDS = { key: 'k-1', secret: 'c2VjcmV0LWJ5dGVzLWZvci10ZXN0cy0xMjM0NTY3OA==', passphrase: 'pp' };
let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
  server.fallback = (req, reply) =>
    req.query.has('next_cursor')
      ? reply.json(200, { data: [], next_cursor: 'LTE=' })
      : reply.json(200, { ok: true, apiKey: 'a', secret: 's', passphrase: 'p' });
});
afterAll(() => server.stop());
afterEach(unpinClock);

/** What reached the server, minus what transports differ in (user agent, encoding, connection headers). */
function wire(r: RecordedRequest) {
  const poly = Object.fromEntries(Object.entries(r.headers).filter(([k]) => k.startsWith('poly_')));
  return { method: r.method, url: r.url, body: r.body, poly };
}

async function capture(run: () => Promise<unknown>): Promise<ReturnType<typeof wire>[]> {
  server.requests.length = 0;
  pinClock(1_780_449_126_930, 0.5);
  await run();
  unpinClock();
  return server.requests.map(wire);
}

type Call = [string, (c: ClobClient) => Promise<unknown>, (official: ClobClientV2) => Promise<unknown>];

describe('requests on the wire against @polymarket/clob-client-v2@1.1.0', () => {
  it('match for public, level 1 and level 2 calls', async () => {
    const ours = new ClobClient({
      host: server.url,
      chainId: 137,
      signer: privateKeySigner(TEST_KEY),
      creds: CREDS,
      signatureType: 2,
      funder: FUNDER,
    });
    const official = new ClobClientV2({
      host: server.url,
      chain: 137 as never,
      signer: referenceSigner,
      creds: CREDS,
      signatureType: 2 as never,
      funderAddress: FUNDER,
    });
    const calls: Call[] = [
      ['ok', (c) => c.getOk(), (o) => o.getOk()],
      ['time', (c) => c.getServerTime(), (o) => o.getServerTime()],
      ['markets', (c) => c.getMarkets(), (o) => o.getMarkets()],
      ['sampling markets from a cursor', (c) => c.getSamplingMarkets('Mg=='), (o) => o.getSamplingMarkets('Mg==')],
      ['book', (c) => c.getOrderBook(TOKEN_ID), (o) => o.getOrderBook(TOKEN_ID)],
      [
        'books',
        (c) => c.getOrderBooks([{ token_id: TOKEN_ID, side: 'BUY' }]),
        (o) => o.getOrderBooks([{ token_id: TOKEN_ID, side: Side.BUY }]),
      ],
      ['price', (c) => c.getPrice(TOKEN_ID, 'SELL'), (o) => o.getPrice(TOKEN_ID, 'SELL')],
      [
        'midpoints',
        (c) => c.getMidpoints([{ token_id: TOKEN_ID }]),
        (o) => o.getMidpoints([{ token_id: TOKEN_ID }] as never),
      ],
      [
        'prices history',
        (c) => c.getPricesHistory({ market: TOKEN_ID, interval: '1d', fidelity: 5 }),
        (o) => o.getPricesHistory({ market: TOKEN_ID, interval: '1d' as never, fidelity: 5 }),
      ],
      ['derive api key', (c) => c.deriveApiKey(7), (o) => o.deriveApiKey(7)],
      ['create api key', (c) => c.createApiKey(), (o) => o.createApiKey()],
      ['api keys', (c) => c.getApiKeys(), (o) => o.getApiKeys()],
      ['delete api key', (c) => c.deleteApiKey(), (o) => o.deleteApiKey()],
      ['closed only', (c) => c.getClosedOnlyMode(), (o) => o.getClosedOnlyMode()],
      ['order', (c) => c.getOrder('0xabc'), (o) => o.getOrder('0xabc')],
      [
        'open orders',
        (c) => c.getOpenOrders({ market: '0xm', asset_id: TOKEN_ID }),
        (o) => o.getOpenOrders({ market: '0xm', asset_id: TOKEN_ID }),
      ],
      ['trades, first page', (c) => c.getTrades({ market: '0xm' }, true), (o) => o.getTrades({ market: '0xm' }, true)],
      ['cancel order', (c) => c.cancelOrder('0xabc'), (o) => o.cancelOrder({ orderID: '0xabc' })],
      ['cancel orders', (c) => c.cancelOrders(['0xa', '0xb']), (o) => o.cancelOrders(['0xa', '0xb'])],
      ['cancel all', (c) => c.cancelAll(), (o) => o.cancelAll()],
      [
        'cancel market',
        (c) => c.cancelMarketOrders({ market: '0xm', asset_id: TOKEN_ID }),
        (o) => o.cancelMarketOrders({ market: '0xm', asset_id: TOKEN_ID }),
      ],
      ['notifications', (c) => c.getNotifications(), (o) => o.getNotifications()],
      [
        'drop notifications',
        (c) => c.dropNotifications({ ids: ['1', '2'] }),
        (o) => o.dropNotifications({ ids: ['1', '2'] }),
      ],
      [
        'balance',
        (c) => c.getBalanceAllowance({ asset_type: 'CONDITIONAL', token_id: TOKEN_ID }),
        (o) => o.getBalanceAllowance({ asset_type: AssetType.CONDITIONAL, token_id: TOKEN_ID }),
      ],
      [
        'update balance',
        (c) => c.updateBalanceAllowance({ asset_type: 'COLLATERAL' }),
        (o) => o.updateBalanceAllowance({ asset_type: AssetType.COLLATERAL }),
      ],
      ['order scoring', (c) => c.isOrderScoring({ order_id: '0xa' }), (o) => o.isOrderScoring({ order_id: '0xa' })],
      [
        'orders scoring',
        (c) => c.areOrdersScoring({ orderIds: ['0xa', '0xb'] }),
        (o) => o.areOrdersScoring({ orderIds: ['0xa', '0xb'] }),
      ],
      ['earnings', (c) => c.getEarningsForUserForDay('2026-11-01'), (o) => o.getEarningsForUserForDay('2026-11-01')],
      [
        'total earnings',
        (c) => c.getTotalEarningsForUserForDay('2026-11-01'),
        (o) => o.getTotalEarningsForUserForDay('2026-11-01'),
      ],
      [
        'earnings and markets',
        (c) => c.getUserEarningsAndMarketsConfig('2026-11-01', 'x', 'DESC', true),
        (o) => o.getUserEarningsAndMarketsConfig('2026-11-01', 'x', 'DESC', true),
      ],
      ['reward percentages', (c) => c.getRewardPercentages(), (o) => o.getRewardPercentages()],
      ['current rewards', (c) => c.getCurrentRewards(), (o) => o.getCurrentRewards()],
      ['rewards for a market', (c) => c.getRawRewardsForMarket('0xc'), (o) => o.getRawRewardsForMarket('0xc')],
      ['heartbeat', (c) => c.postHeartbeat(), (o) => o.postHeartbeat()],
      ['heartbeat chained', (c) => c.postHeartbeat('hb-9'), (o) => o.postHeartbeat('hb-9')],
    ];
    for (const [name, ourCall, officialCall] of calls) {
      const theirs = await capture(() => officialCall(official));
      expect(await capture(() => ourCall(ours)), name).toEqual(theirs);
      expect(theirs.length, name).toBeGreaterThan(0);
    }
  });
});

describe('requests on the wire against @polymarket/clob-client@5.8.1', () => {
  it('match, including the geo-block token on every call', async () => {
    // A profile naming order version 1, so the client uses version 1's paths without asking /version.
    const networks = [{ ...AMOY, orderVersion: 1 as const }];
    const ours = new ClobClient({
      host: server.url,
      chainId: 80002,
      signer: privateKeySigner(TEST_KEY),
      creds: CREDS,
      geoBlockToken: 'geo-7',
      networks,
    });
    const official = new ClobClientV1(server.url, 80002, referenceSigner, CREDS, undefined, undefined, 'geo-7');
    const calls: [string, (c: ClobClient) => Promise<unknown>, (o: ClobClientV1) => Promise<unknown>][] = [
      ['health', (c) => c.getHealth(), (o) => o.getOk()],
      [
        'tick size',
        (c) => c.getTickSize(TOKEN_ID).catch(() => undefined),
        (o) => o.getTickSize(TOKEN_ID).catch(() => undefined),
      ],
      ['spread', (c) => c.getSpread(TOKEN_ID), (o) => o.getSpread(TOKEN_ID)],
      ['derive api key', (c) => c.deriveApiKey(), (o) => o.deriveApiKey()],
      ['open orders', (c) => c.getOpenOrders({ market: '0xm' }), (o) => o.getOpenOrders({ market: '0xm' })],
      ['cancel order', (c) => c.cancelOrder('0xabc'), (o) => o.cancelOrder({ orderID: '0xabc' })],
      ['heartbeat', (c) => c.postHeartbeat(null), (o) => o.postHeartbeat()],
      ['trade events', (c) => c.getMarketTradesEvents('0xc'), (o) => o.getMarketTradesEvents('0xc')],
    ];
    for (const [name, ourCall, officialCall] of calls) {
      const theirs = await capture(() => officialCall(official));
      expect(await capture(() => ourCall(ours)), name).toEqual(theirs);
      expect(
        theirs.every((r) => r.url.includes('geo_block_token=geo-7')),
        name,
      ).toBe(true);
    }
  });
});
