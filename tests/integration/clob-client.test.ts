// The exchange client against a real HTTP server on loopback: every call's wire request (method, path,
// query as axios encodes it, exact body, auth headers), the docs/protocol.md#errors failure objects and thrown errors, paging, caches, API keys,
// server time, the geo-block token, and the order flow with its version-mismatch rebuild.
import { createHmac } from 'node:crypto';
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyTypedData, recoverAddress } from 'ethers';
import { PmDeskError } from '../../packages/toolkit/src/model/errors';
import {
  ClobClient,
  dropNotificationParams,
  orderScoringParams,
  type ClobClientOptions,
} from '../../packages/toolkit/src/clob/client';
import { POST_ONLY_MODE } from '../../packages/toolkit/src/clob/service';
import { POLYGON, type NetworkProfile } from '../../packages/toolkit/src/chain/networks';
import {
  CLOB_AUTH_MESSAGE,
  CLOB_AUTH_TYPES,
  CREDS_CREATION_WARNING,
  type ApiCredentials,
} from '../../packages/toolkit/src/clob/auth';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import type { Logger } from '../../packages/toolkit/src/base/logger';
import type { ApiNotice, RateLimitReading } from '../../packages/toolkit/src/http/answer-headers';
import { startFixtureServer, type FixtureServer, type RecordedRequest } from '../helpers/fixture-server';

const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const CREDS: ApiCredentials = {
  key: 'api-key-1',
  secret: 'c2VjcmV0LWJ5dGVzLWZvci10ZXN0cy0xMjM0NTY3OA==',
  passphrase: 'pass-phrase',
};
const TOKEN = '1234567890';
const signer = privateKeySigner(KEY);

let server: FixtureServer;
let logged: { level: string; message: string; data: unknown }[];
const logger: Logger = {
  debug: (message, data) => logged.push({ level: 'debug', message, data }),
  warn: (message, data) => logged.push({ level: 'warn', message, data }),
  error: (message, data) => logged.push({ level: 'error', message, data }),
};
const client = (options: Partial<ClobClientOptions> = {}) =>
  new ClobClient({ host: server.url, chainId: 137, signer, creds: CREDS, logger, ...options });

/** Recomputes the level 2 signature from what arrived, independently of the toolkit. */
function expectL2(request: RecordedRequest, method: string, path: string, body?: string) {
  const ts = request.headers.poly_timestamp as string;
  const expected = createHmac('sha256', Buffer.from(CREDS.secret, 'base64'))
    .update(`${ts}${method}${path}${body ?? ''}`)
    .digest('base64')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
  expect(request.headers.poly_signature).toBe(expected);
  expect(request.headers).toMatchObject({
    poly_address: ADDRESS,
    poly_api_key: CREDS.key,
    poly_passphrase: CREDS.passphrase,
  });
  expect(request.body).toBe(body ?? '');
}

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.stop());
beforeEach(() => {
  server.reset();
  server.fallback = (_req, reply) => reply.json(404, { message: 'no fixture for this route' });
  logged = [];
});

describe('public reads on the wire', () => {
  it("says once that an endpoint is deprecated, and reports each answer's Poly-RateLimit headers", async () => {
    server.on('GET', '/time', (_request, reply) =>
      reply.json(200, 1_700_000_000, {
        Sunset: 'Sat, 01 Aug 2026 00:00:00 GMT',
        'Poly-RateLimit-Remaining': '99',
        'Poly-RateLimit-Tier': 'standard',
      }),
    );
    const notices: ApiNotice[] = [];
    const readings: RateLimitReading[] = [];
    const c = client({ onNotice: (n) => notices.push(n), onRateLimit: (r) => readings.push(r) });
    await c.getServerTime();
    await c.getServerTime();
    expect(notices.map((n) => [n.kind, n.endpoint, n.message])).toEqual([
      ['deprecated', 'GET /time', 'CLOB GET /time is deprecated (sunset Sat, 01 Aug 2026 00:00:00 GMT).'],
    ]);
    expect(readings.map((r) => [r.endpoint, r.remaining, r.tier])).toEqual([
      ['GET /time', 99, 'standard'],
      ['GET /time', 99, 'standard'],
    ]);
  });

  it('sends each read to its path with its query and no auth headers', async () => {
    // Each read gets an answer of its own shape (the schemas refuse anything else) and hands it back as it came.
    const book = { market: '0xc', asset_id: TOKEN, bids: [], asks: [{ price: '0.6', size: '5' }], hash: 'h' };
    const answers: Record<string, unknown> = {
      '/': 'OK',
      '/ok': 'OK',
      '/time': 1_700_000_000,
      '/sampling-simplified-markets': { data: [], next_cursor: 'LTE=' },
      '/sampling-markets': { data: [], next_cursor: 'LTE=' },
      '/simplified-markets': { data: [], next_cursor: 'LTE=' },
      '/markets': { data: [{ condition_id: '0xc' }], next_cursor: 'LTE=' },
      '/markets/0xcond': { condition_id: '0xcond' },
      '/midpoint': { mid: '0.55' },
      '/price': { price: '0.6' },
      '/spread': { spread: '0.1' },
      '/last-trade-price': { price: '0.5', side: 'BUY' },
      '/prices-history': { history: [{ t: 1, p: 0.5 }] },
      '/books': [book],
      '/midpoints': { [TOKEN]: '0.55' },
      '/prices': { [TOKEN]: { BUY: '0.5' } },
      '/spreads': { [TOKEN]: '0.1' },
      '/last-trades-prices': [{ token_id: TOKEN, price: '0.5', side: 'SELL' }],
    };
    server.fallback = (req, reply) => reply.json(200, answers[req.path]);
    const c = client();
    const cases: [() => Promise<unknown>, string, string, string?][] = [
      [() => c.getHealth(), 'GET', '/'],
      [() => c.getOk(), 'GET', '/ok'],
      [() => c.getServerTime(), 'GET', '/time'],
      [() => c.getSamplingSimplifiedMarkets(), 'GET', '/sampling-simplified-markets?next_cursor=MA%3D%3D'],
      [() => c.getSamplingMarkets('abc'), 'GET', '/sampling-markets?next_cursor=abc'],
      [() => c.getSimplifiedMarkets(), 'GET', '/simplified-markets?next_cursor=MA%3D%3D'],
      [() => c.getMarkets(), 'GET', '/markets?next_cursor=MA%3D%3D'],
      [() => c.getMarket('0xcond'), 'GET', '/markets/0xcond'],
      [() => c.getMidpoint(TOKEN), 'GET', `/midpoint?token_id=${TOKEN}`],
      [() => c.getPrice(TOKEN, 'SELL'), 'GET', `/price?token_id=${TOKEN}&side=SELL`],
      [() => c.getSpread(TOKEN), 'GET', `/spread?token_id=${TOKEN}`],
      [() => c.getLastTradePrice(TOKEN), 'GET', `/last-trade-price?token_id=${TOKEN}`],
      [
        () => c.getPricesHistory({ market: TOKEN, interval: '1d', fidelity: 60 }),
        'GET',
        `/prices-history?market=${TOKEN}&interval=1d&fidelity=60`,
      ],
      [() => c.getOrderBooks([{ token_id: TOKEN }]), 'POST', '/books', `[{"token_id":"${TOKEN}"}]`],
      [() => c.getMidpoints([{ token_id: TOKEN }]), 'POST', '/midpoints', `[{"token_id":"${TOKEN}"}]`],
      [
        () => c.getPrices([{ token_id: TOKEN, side: 'BUY' }]),
        'POST',
        '/prices',
        `[{"token_id":"${TOKEN}","side":"BUY"}]`,
      ],
      [() => c.getSpreads([{ token_id: TOKEN }]), 'POST', '/spreads', `[{"token_id":"${TOKEN}"}]`],
      [() => c.getLastTradesPrices([{ token_id: TOKEN }]), 'POST', '/last-trades-prices', `[{"token_id":"${TOKEN}"}]`],
    ];
    for (const [call, method, url, body] of cases) {
      server.requests.length = 0;
      const r0 = await call();
      const r = server.last();
      expect(r0).toEqual(answers[r.path]);
      expect(`${r.method} ${r.url}`).toBe(`${method} ${url}`);
      expect(r.body).toBe(body ?? '');
      expect(r.headers.poly_signature).toBeUndefined();
    }
  });

  it('reads the version (2 when the server does not say) and compact market info into the caches', async () => {
    server.json('GET', '/version', {});
    expect(await client().getVersion()).toBe(2);
    server.json('GET', '/version', { version: 3 });
    expect(await client().getVersion()).toBe(3);
    server.json('GET', '/clob-markets/0xc', {
      c: '0xc',
      t: [
        { t: 'A', o: 'Yes' },
        { t: 'B', o: 'No' },
      ],
      mts: 0.005,
      nr: true,
    });
    const c = client();
    await c.getClobMarketInfo('0xc');
    expect(await c.getTickSize('B')).toBe('0.005');
    expect(await c.getNegRisk('A')).toBe(true);
    expect(server.to('/tick-size')).toHaveLength(0);
    expect(server.to('/neg-risk')).toHaveLength(0);
  });
});

describe('caches', () => {
  it('asks for a tick size once within its TTL, again after clearing, and every time with a TTL of 0', async () => {
    server.json('GET', '/tick-size', { minimum_tick_size: 0.01 });
    const c = client();
    expect(await c.getTickSize(TOKEN)).toBe('0.01');
    expect(await c.getTickSize(TOKEN)).toBe('0.01');
    expect(server.to('/tick-size')).toHaveLength(1);
    c.clearTickSizeCache(TOKEN);
    await c.getTickSize(TOKEN);
    expect(server.to('/tick-size')).toHaveLength(2);
    const expiring = client({ tickSizeTtlMs: 0 });
    await expiring.getTickSize(TOKEN);
    await expiring.getTickSize(TOKEN);
    expect(server.to('/tick-size')).toHaveLength(4);
  });

  it('seeds tick sizes from books, and keeps neg-risk flags and fee rates for good', async () => {
    server.json('GET', '/book', { asset_id: TOKEN, tick_size: '0.001', bids: [], asks: [] });
    server.json('GET', '/neg-risk', { neg_risk: false });
    server.json('GET', '/fee-rate', { base_fee: 100 });
    const c = client();
    await c.getOrderBook(TOKEN);
    expect(await c.getTickSize(TOKEN)).toBe('0.001');
    expect(await c.getNegRisk(TOKEN)).toBe(false);
    expect(await c.getNegRisk(TOKEN)).toBe(false);
    expect(await c.getFeeRateBps(TOKEN)).toBe(100);
    expect(await c.getFeeRateBps(TOKEN)).toBe(100);
    expect(server.to('/tick-size')).toHaveLength(0);
    expect(server.to('/neg-risk')).toHaveLength(1);
    expect(server.to('/fee-rate')).toHaveLength(1);
  });

  it('throws a catalogued error when a tick size cannot be read', async () => {
    server.json('GET', '/tick-size', { error: 'market not found' }, 404);
    const error = await client()
      .getTickSize(TOKEN)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PmDeskError);
    expect((error as PmDeskError).code).toBe('ERR_NOT_FOUND');
    server.json('GET', '/tick-size', { minimum_tick_size: 0.02 });
    const odd = (await client()
      .getTickSize(TOKEN)
      .catch((e: unknown) => e)) as PmDeskError;
    expect([odd.code, odd.detail]).toEqual(['ERR_VALIDATION', 'The server answered an unknown tick size (0.02).']);
  });
});

describe('failures (docs/protocol.md#errors)', () => {
  it('returns the body when it is a string, spreads a body with an error field, wraps any other body', async () => {
    server.on('GET', '/ok', (_r, reply) => reply.text(503, 'down for maintenance'));
    expect(await client().getOk()).toEqual({ error: 'down for maintenance', status: 503 });
    server.json('GET', '/ok', { error: 'bad token', code: 7 }, 400);
    expect(await client().getOk()).toEqual({ error: 'bad token', code: 7, status: 400 });
    server.json('GET', '/ok', { message: 'nope' }, 429);
    expect(await client().getOk()).toEqual({ error: { message: 'nope' }, status: 429 });
    expect(logged.filter((l) => l.level === 'error')).toHaveLength(3);
  });

  it('with no answer at all, returns the error message', async () => {
    const c = new ClobClient({ host: 'http://127.0.0.1:9', chainId: 137, logger });
    expect(await c.getOk()).toEqual({ error: 'Network error: No response received from the API server.' });
  });

  it('throws catalogued errors when asked to', async () => {
    server.json('GET', '/ok', { error: 'bad token' }, 400);
    const error = (await client({ throwOnError: true })
      .getOk()
      .catch((e: unknown) => e)) as PmDeskError;
    expect(error).toBeInstanceOf(PmDeskError);
    expect(error.code).toBe('ERR_INVALID_PARAM');
    expect(error.statusCode).toBe(400);
    expect(error.methodName).toBe('getOk');
  });

  it('keeps the API secret and passphrase out of inspection, JSON and errors', async () => {
    server.json('GET', '/auth/api-keys', { error: 'Unauthorized/Invalid api key' }, 401);
    const c = client({ throwOnError: true });
    const error = (await c.getApiKeys().catch((e: unknown) => e)) as PmDeskError;
    expect(error.code).toBe('ERR_UNAUTHORIZED');
    for (const text of [
      inspect(c, { depth: 10 }),
      JSON.stringify(c),
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
      JSON.stringify(logged),
    ]) {
      expect(text).not.toContain(CREDS.secret);
      expect(text).not.toContain(CREDS.passphrase);
      expect(text).not.toContain(KEY.slice(2));
    }
  });

  it('refuses level 1 and level 2 calls without a signer or credentials, before sending anything', async () => {
    await expect(new ClobClient({ host: server.url, chainId: 137 }).createApiKey()).rejects.toThrow(
      'Signer is needed to interact with this endpoint!',
    );
    await expect(client({ creds: undefined }).getApiKeys()).rejects.toThrow(
      'API Credentials are needed to interact with this endpoint!',
    );
    await expect(client({ signer: undefined }).cancelAll()).rejects.toThrow(
      'API Credentials are needed to interact with this endpoint!',
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('level 2 calls on the wire', () => {
  it('signs the path (never the query) and the exact body sent', async () => {
    // Each answer in its endpoint's shape: a wrong shape is refused (the fault suite shows it).
    const cancelled = { canceled: ['0xa'], not_canceled: {} };
    const wellFormed: Record<string, unknown> = {
      '/auth/api-keys': { apiKeys: ['key-1'] },
      '/data/order/0xabc': { id: '0xabc', status: 'LIVE' },
      '/order': cancelled,
      '/orders': cancelled,
      '/cancel-all': cancelled,
      '/cancel-market-orders': cancelled,
      '/balance-allowance': { balance: '0', allowances: {} },
    };
    const answerOf = (path: string, method: string) =>
      (method === 'POST' ? undefined : wellFormed[path]) ?? { ok: true };
    server.fallback = (req, reply) => reply.json(200, answerOf(req.url.split('?')[0]!, req.method));
    const c = client({ signatureType: 2, funder: '0x1234567890AbcdEF1234567890aBcdef12345678' });
    const cases: [() => Promise<unknown>, string, string, string, string?][] = [
      [() => c.getApiKeys(), 'GET', '/auth/api-keys', '/auth/api-keys'],
      [() => c.deleteApiKey(), 'DELETE', '/auth/api-key', '/auth/api-key'],
      [() => c.getClosedOnlyMode(), 'GET', '/auth/ban-status/closed-only', '/auth/ban-status/closed-only'],
      [() => c.getOrder('0xabc'), 'GET', '/data/order/0xabc', '/data/order/0xabc'],
      [() => c.cancelOrder('0xabc'), 'DELETE', '/order', '/order', '{"orderID":"0xabc"}'],
      [() => c.cancelOrders(['0xa', '0xb']), 'DELETE', '/orders', '/orders', '["0xa","0xb"]'],
      [() => c.cancelAll(), 'DELETE', '/cancel-all', '/cancel-all'],
      [
        () => c.cancelMarketOrders({ market: '0xm', asset_id: TOKEN }),
        'DELETE',
        '/cancel-market-orders',
        '/cancel-market-orders',
        `{"market":"0xm","asset_id":"${TOKEN}"}`,
      ],
      [() => c.isOrderScoring({ order_id: '0xa' }), 'GET', '/order-scoring', '/order-scoring?order_id=0xa'],
      [
        () => c.areOrdersScoring({ orderIds: ['0xa', '0xb'] }),
        'POST',
        '/orders-scoring',
        '/orders-scoring',
        '["0xa","0xb"]',
      ],
      [() => c.getNotifications(), 'GET', '/notifications', '/notifications?signature_type=2'],
      [() => c.dropNotifications({ ids: ['1', '2'] }), 'DELETE', '/notifications', '/notifications?ids=1,2'],
      [
        () => c.getBalanceAllowance({ asset_type: 'CONDITIONAL', token_id: TOKEN }),
        'GET',
        '/balance-allowance',
        `/balance-allowance?asset_type=CONDITIONAL&token_id=${TOKEN}&signature_type=2`,
      ],
      [
        () => c.updateBalanceAllowance({ asset_type: 'COLLATERAL' }),
        'GET',
        '/balance-allowance/update',
        '/balance-allowance/update?asset_type=COLLATERAL&signature_type=2',
      ],
      [
        () => c.getTotalEarningsForUserForDay('2026-11-01'),
        'GET',
        '/rewards/user/total',
        '/rewards/user/total?date=2026-11-01&signature_type=2',
      ],
      [
        () => c.getRewardPercentages(),
        'GET',
        '/rewards/user/percentages',
        '/rewards/user/percentages?signature_type=2',
      ],
      [() => c.postHeartbeat(), 'POST', '/v1/heartbeats', '/v1/heartbeats', '{"heartbeat_id":""}'],
      [() => c.postHeartbeat(null), 'POST', '/v1/heartbeats', '/v1/heartbeats', '{"heartbeat_id":null}'],
      [() => c.postHeartbeat('hb-1'), 'POST', '/v1/heartbeats', '/v1/heartbeats', '{"heartbeat_id":"hb-1"}'],
    ];
    for (const [call, method, path, url, body] of cases) {
      server.requests.length = 0;
      expect(await call()).toEqual(answerOf(path, method));
      const r = server.last();
      expect(`${r.method} ${r.url}`).toBe(`${method} ${url}`);
      expectL2(r, method, path, body);
    }
  });

  it('adds the geo-block token to every call, unsigned', async () => {
    server.fallback = (_req, reply) => reply.json(200, { ok: true });
    const c = client({ geoBlockToken: 'geo-1' });
    await c.getMidpoint(TOKEN);
    expect(server.last().url).toBe(`/midpoint?token_id=${TOKEN}&geo_block_token=geo-1`);
    await c.getNotifications();
    expect(server.last().url).toBe('/notifications?signature_type=0&geo_block_token=geo-1');
    expectL2(server.last(), 'GET', '/notifications');
  });

  it('takes the timestamp from the server when told to', async () => {
    server.json('GET', '/time', 1_700_000_123);
    server.json('GET', '/auth/api-keys', { apiKeys: [] });
    await client({ useServerTime: true }).getApiKeys();
    expect(server.requests.map((r) => r.path)).toEqual(['/time', '/auth/api-keys']);
    expect(server.last().headers.poly_timestamp).toBe('1700000123');
    expectL2(server.last(), 'GET', '/auth/api-keys');
  });
});

describe('paging', () => {
  const pages: Record<string, { data: number[]; next_cursor: string }> = {
    'MA==': { data: [1, 2], next_cursor: 'Mg==' },
    'Mg==': { data: [3], next_cursor: 'NA==' },
    'NA==': { data: [4], next_cursor: 'LTE=' },
  };
  beforeEach(() => {
    server.on('GET', '/data/trades', (req, reply) => reply.json(200, pages[req.query.get('next_cursor') ?? '']));
  });

  it('walks from MA== to LTE= with one signature for all pages', async () => {
    expect(await client().getTrades({ market: '0xm' })).toEqual([1, 2, 3, 4]);
    const trades = server.to('/data/trades');
    expect(trades.map((r) => r.url)).toEqual([
      '/data/trades?market=0xm&next_cursor=MA%3D%3D',
      '/data/trades?market=0xm&next_cursor=Mg%3D%3D',
      '/data/trades?market=0xm&next_cursor=NA%3D%3D',
    ]);
    expect(new Set(trades.map((r) => r.headers.poly_signature)).size).toBe(1);
    expectL2(trades[0]!, 'GET', '/data/trades');
  });

  it('reads one page on request, from the start or from a given cursor', async () => {
    expect(await client().getTrades({}, true)).toEqual([1, 2]);
    expect(await client().getTrades({}, true, 'Mg==')).toEqual([3]);
  });

  it('stops at an error object, and at a cursor the server repeats', async () => {
    server.on('GET', '/data/orders', (req, reply) =>
      req.query.get('next_cursor') === 'MA=='
        ? reply.json(200, { data: [1], next_cursor: 'Mg==' })
        : reply.json(500, { error: 'boom' }),
    );
    expect(await client().getOpenOrders()).toEqual({ error: 'boom', status: 500 });
    server.json('GET', '/rewards/markets/current', { data: [1], next_cursor: 'MA==' });
    expect(await client().getCurrentRewards()).toEqual({ error: 'The server repeated the page cursor MA==.' });
  });

  it('pages earnings with the date and signature type', async () => {
    server.json('GET', '/rewards/user', { data: [{ x: 1 }], next_cursor: 'LTE=' });
    expect(await client().getEarningsForUserForDay('2026-11-01')).toEqual([{ x: 1 }]);
    expect(server.last().url).toBe('/rewards/user?date=2026-11-01&signature_type=0&next_cursor=MA%3D%3D');
  });
});

describe('API keys', () => {
  const raw = { apiKey: 'k', secret: 's', passphrase: 'p' };

  it('signs level 1 headers that recover to the wallet, for the configured chain', async () => {
    server.json('GET', '/auth/derive-api-key', raw);
    expect(await client({ chainId: 80002 }).deriveApiKey(5)).toEqual({ key: 'k', secret: 's', passphrase: 'p' });
    const h = server.last().headers;
    expect(h.poly_nonce).toBe('5');
    const value = { address: ADDRESS, timestamp: h.poly_timestamp as string, nonce: 5, message: CLOB_AUTH_MESSAGE };
    expect(
      verifyTypedData(
        { name: 'ClobAuthDomain', version: '1', chainId: 80002 },
        CLOB_AUTH_TYPES,
        value,
        h.poly_signature as string,
      ),
    ).toBe(ADDRESS);
    expect(
      verifyTypedData(
        { name: 'ClobAuthDomain', version: '1', chainId: 1 },
        CLOB_AUTH_TYPES,
        value,
        h.poly_signature as string,
      ),
    ).not.toBe(ADDRESS);
  });

  it('derives first by default and creates only when no key results, warning that created keys cannot be recovered', async () => {
    server.json('GET', '/auth/derive-api-key', { error: 'no key' }, 400);
    server.json('POST', '/auth/api-key', raw);
    expect(await client().createOrDeriveApiKey()).toEqual({ key: 'k', secret: 's', passphrase: 'p' });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /auth/derive-api-key',
      'POST /auth/api-key',
    ]);
    expect(logged).toContainEqual({ level: 'warn', message: CREDS_CREATION_WARNING, data: undefined });

    server.reset();
    logged = [];
    server.json('GET', '/auth/derive-api-key', raw);
    expect(await client({ throwOnError: true }).createOrDeriveApiKey()).toEqual({
      key: 'k',
      secret: 's',
      passphrase: 'p',
    });
    expect(server.requests).toHaveLength(1);
    expect(logged.filter((l) => l.level === 'warn')).toHaveLength(0);
  });

  it('never creates after a derive that failed without a definite answer (server error or no response)', async () => {
    server.json('GET', '/auth/derive-api-key', { error: 'upstream timeout' }, 502);
    expect(await client().createOrDeriveApiKey()).toEqual({ error: 'upstream timeout', status: 502 });
    expect(server.to('/auth/api-key')).toHaveLength(0);
    const thrown = (await client({ throwOnError: true })
      .createOrDeriveApiKey()
      .catch((e: unknown) => e)) as PmDeskError;
    expect(thrown.code).toBe('ERR_SERVER');
    const offline = new ClobClient({ host: 'http://127.0.0.1:9', chainId: 137, signer, logger });
    expect(await offline.createOrDeriveApiKey()).toEqual({
      error: 'Network error: No response received from the API server.',
    });
    expect(server.to('/auth/api-key')).toHaveLength(0);
  });

  it('creates after a derive answered without a key', async () => {
    server.json('GET', '/auth/derive-api-key', {});
    server.json('POST', '/auth/api-key', raw);
    expect(await client().createOrDeriveApiKey()).toEqual({ key: 'k', secret: 's', passphrase: 'p' });
  });

  it('in the other order, creates first and derives when the server gives no key', async () => {
    server.json('POST', '/auth/api-key', { error: 'exists' }, 400);
    server.json('GET', '/auth/derive-api-key', raw);
    expect(await client({ throwOnError: true }).createOrDeriveApiKey(0, 'create-first')).toEqual({
      key: 'k',
      secret: 's',
      passphrase: 'p',
    });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /auth/api-key',
      'GET /auth/derive-api-key',
    ]);
    server.reset();
    server.json('POST', '/auth/api-key', { error: 'boom' }, 500);
    server.json('GET', '/auth/derive-api-key', raw);
    expect(await client().createOrDeriveApiKey(0, 'create-first')).toEqual({ key: 'k', secret: 's', passphrase: 'p' });
  });
});

describe('the order flow', () => {
  beforeEach(() => {
    server.json('GET', '/tick-size', { minimum_tick_size: 0.01 });
    server.json('GET', '/neg-risk', { neg_risk: true });
    server.json('GET', '/fee-rate', { base_fee: 0 });
    server.json('GET', '/version', { version: 2 });
  });

  it('a 425 to an order post is not re-sent: the matching engine is restarting, said in a sentence', async () => {
    server.json('POST', '/order', { error: 'matching engine restarting' }, 425);
    const c = client({ throwOnError: true });
    const order = await c.createOrder({ tokenId: TOKEN, side: 'BUY', price: 0.56, size: 10 });
    const error = await c.postOrder(order).then(
      () => undefined,
      (e: unknown) => e as PmDeskError,
    );
    expect(server.to('/order')).toHaveLength(1);
    expect(error?.statusCode).toBe(425);
    expect(error?.detail).toBe(
      "CLOB's matching engine is restarting (425): the request was not processed; try again in 3 s.",
    );
  });

  it('a 503 to an order post is post-only mode: a sentence that says only post-only orders go, and a notice', async () => {
    server.json('POST', '/order', { error: 'trading is in post only mode' }, 503);
    const notices: ApiNotice[] = [];
    const c = client({ onNotice: (n) => notices.push(n) });
    const order = await c.createOrder({ tokenId: TOKEN, side: 'BUY', price: 0.56, size: 10 });
    expect(await c.postOrder(order)).toEqual({ error: 'trading is in post only mode', status: 503 });
    const thrown = await client({ throwOnError: true })
      .postOrder(order)
      .then(
        () => undefined,
        (e: unknown) => e as PmDeskError,
      );
    expect(thrown?.detail).toBe(POST_ONLY_MODE);
    expect(POST_ONLY_MODE).toContain('only post-only orders');
    expect(notices.map((n) => [n.kind, n.endpoint, n.message])).toEqual([['post-only', 'POST /order', POST_ONLY_MODE]]);
  });

  it('after a post-only 503, only post-only orders go: another is refused before it is sent', async () => {
    let calls = 0;
    server.on('POST', '/order', (_request, reply) =>
      ++calls === 1
        ? reply.json(503, { error: 'trading is in post only mode' }, { 'Retry-After': '30' })
        : reply.json(200, { success: true, orderID: '0xid' }),
    );
    const c = client({ throwOnError: true });
    const order = await c.createOrder({ tokenId: TOKEN, side: 'BUY', price: 0.56, size: 10 });
    const fail = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (e: unknown) => e as PmDeskError,
      );
    expect((await fail(c.postOrder(order)))?.detail).toBe(POST_ONLY_MODE);
    const taker = await fail(c.postOrder(order, { orderType: 'GTC' }));
    expect(taker?.code).toBe('ERR_INVALID_PARAM');
    expect(taker?.statusCode).toBeUndefined();
    expect(taker?.detail).toMatch(
      /^The exchange is in post-only mode \(503\): .* Not sent: mark it post-only, or try again in \d+ s\.$/,
    );
    expect(await fail(c.postOrders([{ order }]))).toMatchObject({ code: 'ERR_INVALID_PARAM' });
    expect(server.to('/order')).toHaveLength(1);
    expect(await c.postOrder(order, { orderType: 'GTC', postOnly: true })).toEqual({ success: true, orderID: '0xid' });
    expect(server.to('/order')).toHaveLength(2);
  });

  it('clients given one exchange mode share the post-only hold: an order through another client is refused too', async () => {
    server.on('POST', '/order', (_request, reply) =>
      reply.json(503, { error: 'trading is in post only mode' }, { 'Retry-After': '30' }),
    );
    const mode = { postOnlyUntil: 0 };
    const first = client({ throwOnError: true, exchangeMode: mode });
    const order = await first.createOrder({ tokenId: TOKEN, side: 'BUY', price: 0.56, size: 10 });
    const fail = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (e: unknown) => e as PmDeskError,
      );
    expect((await fail(first.postOrder(order)))?.detail).toBe(POST_ONLY_MODE);
    // A client made for the next order (as the terminal makes one per order), the same mode: nothing is sent.
    const next = await fail(client({ throwOnError: true, exchangeMode: mode }).postOrder(order, { orderType: 'GTC' }));
    expect(next?.code).toBe('ERR_INVALID_PARAM');
    expect(server.to('/order')).toHaveLength(1);
    // A client of its own knows nothing of it (it asks the exchange).
    await fail(client({ throwOnError: true }).postOrder(order, { orderType: 'GTC' }));
    expect(server.to('/order')).toHaveLength(2);
  });

  it('asks for tick, version and neg-risk, signs for the neg-risk v2 exchange and posts the exact body', async () => {
    server.json('POST', '/order', { success: true, orderID: '0xid' });
    const c = client();
    const order = await c.createOrder({
      tokenId: TOKEN,
      side: 'BUY',
      price: 0.56,
      size: 21.04,
      salt: '42',
      timestamp: '1780000000000',
    });
    expect(order.version).toBe(2);
    expect(order.verifyingContract).toBe('0xe2222d279d744050d28e00520010520000310F59');
    expect(recoverAddress(order.orderHash, order.signedOrder.signature)).toBe(ADDRESS);
    expect(await c.postOrder(order, { orderType: 'GTD', postOnly: true })).toEqual({ success: true, orderID: '0xid' });
    const post = server.last();
    const body = JSON.parse(post.body) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['deferExec', 'postOnly', 'order', 'owner', 'orderType']);
    expect(body).toMatchObject({
      owner: CREDS.key,
      orderType: 'GTD',
      postOnly: true,
      order: { salt: 42, makerAmount: '11782400', takerAmount: '21040000' },
    });
    expectL2(post, 'POST', '/order', post.body);
  });

  it('refuses a price out of range and a tick finer than the market, before signing', async () => {
    const c = client();
    await expect(c.createOrder({ tokenId: TOKEN, side: 'BUY', price: 0.995, size: 1 })).rejects.toThrow(
      'invalid price (0.995), min: 0.01 - max: 0.99',
    );
    await expect(
      c.createOrder({ tokenId: TOKEN, side: 'BUY', price: 0.5, size: 1 }, { tickSize: '0.001' }),
    ).rejects.toThrow('invalid tick size (0.001), minimum for the market is 0.01');
  });

  it('checks a version 1 fee against the market and signs the market fee', async () => {
    server.json('GET', '/fee-rate', { base_fee: 100 });
    const c = client();
    await expect(
      c.createOrder({ tokenId: TOKEN, side: 'SELL', price: 0.5, size: 10, feeRateBps: 50 }, { version: 1 }),
    ).rejects.toThrow('invalid user provided fee rate: 50, fee rate for the market must be 100');
    const order = await c.createOrder({ tokenId: TOKEN, side: 'SELL', price: 0.5, size: 10 }, { version: 1 });
    expect(order.signedOrder).toMatchObject({ feeRateBps: '100', maker: ADDRESS });
    expect(order.verifyingContract).toBe('0xC5d563A36AE78145C45a50134d48A1215220f80a');
  });

  it('prices a market order from the book when no price is given', async () => {
    server.json('GET', '/book', {
      asset_id: TOKEN,
      asks: [
        { price: '0.6', size: '100' },
        { price: '0.5', size: '100' },
      ],
      bids: [],
    });
    const order = await client().createMarketOrder({ tokenId: TOKEN, side: 'BUY', amount: 60 }, { orderType: 'FOK' });
    expect(order.signedOrder).toMatchObject({ makerAmount: '60000000', takerAmount: '100000000', expiration: '0' });
    await expect(client().createMarketOrder({ tokenId: TOKEN, side: 'BUY', amount: 500 })).rejects.toThrow('no match');
  });

  it('refuses to price a market order from a book of the wrong shape', async () => {
    server.json('GET', '/book', { unexpected: true });
    await expect(
      client().createMarketOrder({ tokenId: TOKEN, side: 'BUY', amount: 60 }, { orderType: 'FOK' }),
    ).rejects.toMatchObject({ code: 'ERR_VALIDATION' });
  });

  it('rebuilds a post rejected for a version mismatch once, for the version the server now names', async () => {
    let posts = 0;
    server.on('POST', '/order', (req, reply) => {
      posts++;
      const body = JSON.parse(req.body) as { order: { timestamp?: string } };
      if (posts === 1) {
        server.json('GET', '/version', { version: 1 });
        reply.json(400, { error: 'order_version_mismatch' });
      } else reply.json(200, { success: true, orderID: '0xid', v1: body.order.timestamp === undefined });
    });
    const c = client();
    const { order, response } = await c.createAndPostOrder((version) =>
      c.createOrder({ tokenId: TOKEN, side: 'BUY', price: 0.5, size: 10 }, { version }),
    );
    expect(order.version).toBe(1);
    expect(response).toEqual({ success: true, orderID: '0xid', v1: true });
    expect(posts).toBe(2);
  });
});

describe('version mismatch', () => {
  beforeEach(() => {
    server.json('GET', '/tick-size', { minimum_tick_size: 0.01 });
    server.json('GET', '/neg-risk', { neg_risk: false });
    server.json('GET', '/fee-rate', { base_fee: 0 });
  });

  /** The first post is refused for its version and /version then names `next`. */
  function refuseFirstPost(next: number) {
    const versions: (string | undefined)[] = [];
    server.on('POST', '/order', (req, reply) => {
      const body = JSON.parse(req.body) as { order: { timestamp?: string; nonce?: string } };
      versions.push(body.order.nonce !== undefined ? 'v1' : 'v2/3');
      if (versions.length === 1) {
        server.json('GET', '/version', { version: next });
        reply.json(400, { error: 'order_version_mismatch' });
      } else reply.json(200, { success: true, orderID: '0xid' });
    });
    return versions;
  }

  it('rebuilds once even when the client throws on errors', async () => {
    server.json('GET', '/version', { version: 2 });
    const versions = refuseFirstPost(1);
    const c = client({ throwOnError: true });
    const { order, response } = await c.createAndPostOrder((v) =>
      c.createOrder({ tokenId: TOKEN, side: 'BUY', price: 0.5, size: 10 }, { version: v }),
    );
    expect([order.version, versions]).toEqual([1, ['v2/3', 'v1']]);
    expect(response).toEqual({ success: true, orderID: '0xid' });
  });

  it("lets the server's version overrule a profile that named the wrong one", async () => {
    const profile: NetworkProfile = { ...POLYGON, name: 'stale', orderVersion: 3 };
    const versions = refuseFirstPost(2);
    const c = client({ networks: [profile] });
    const { order } = await c.createAndPostOrder((v) =>
      c.createOrder({ tokenId: TOKEN, side: 'BUY', price: 0.5, size: 10 }, { version: v }),
    );
    expect(order.version).toBe(2);
    expect(order.verifyingContract).toBe(POLYGON.contracts.exchangeV2);
    expect(versions).toHaveLength(2);
  });

  it('does not retry when the caller fixed the version, and then throws the refusal', async () => {
    refuseFirstPost(1);
    const c = client({ throwOnError: true });
    const error = (await c
      .createAndPostOrder(
        (v) => c.createOrder({ tokenId: TOKEN, side: 'BUY', price: 0.5, size: 10 }, { version: v }),
        {},
        2,
      )
      .catch((e: unknown) => e)) as PmDeskError;
    expect(error).toBeInstanceOf(PmDeskError);
    expect([error.statusCode, error.detail]).toEqual([
      400,
      'API request failed with status 400. Server error: order_version_mismatch',
    ]);
    expect(server.to('/order')).toHaveLength(1);
  });
});

describe('the rest of the surface', () => {
  it('joins order_ids and ids with commas', () => {
    expect(orderScoringParams(['0xa', '0xb', '0xc'])).toEqual({ order_ids: '0xa,0xb,0xc' });
    expect(dropNotificationParams(['1', '2'])).toEqual({ ids: '1,2' });
  });

  it('posts several orders as one signed array of bodies', async () => {
    server.json('POST', '/orders', [
      { success: true, orderID: '0xa' },
      { success: true, orderID: '0xb' },
    ]);
    server.json('GET', '/tick-size', { minimum_tick_size: 0.01 });
    const c = client();
    const terms = { tickSize: '0.01', negRisk: false, version: 2 } as const;
    const a = await c.createOrder(
      { tokenId: TOKEN, side: 'BUY', price: 0.4, size: 10, salt: '1', timestamp: '1' },
      terms,
    );
    const b = await c.createOrder(
      { tokenId: TOKEN, side: 'SELL', price: 0.6, size: 10, salt: '2', timestamp: '1' },
      terms,
    );
    expect(
      await c.postOrders(
        [
          { order: a, orderType: 'GTC' },
          { order: b, orderType: 'GTD' },
        ],
        { postOnly: true },
      ),
    ).toEqual([
      { success: true, orderID: '0xa' },
      { success: true, orderID: '0xb' },
    ]);
    const post = server.last();
    expectL2(post, 'POST', '/orders', post.body);
    const bodies = JSON.parse(post.body) as { orderType: string; postOnly: boolean; order: { salt: number } }[];
    expect(bodies.map((x) => [x.orderType, x.postOnly, x.order.salt])).toEqual([
      ['GTC', true, 1],
      ['GTD', true, 2],
    ]);
  });

  it('pages rewards and reads market trade events at the path of the order version', async () => {
    server.json('GET', '/rewards/user/markets', { data: [{ m: 1 }], next_cursor: 'LTE=' });
    expect(await client().getUserEarningsAndMarketsConfig('2026-11-01', 'earnings', 'DESC', true)).toEqual([{ m: 1 }]);
    expect(server.last().url).toBe(
      '/rewards/user/markets?date=2026-11-01&signature_type=0&next_cursor=MA%3D%3D&order_by=earnings&position=DESC&no_competition=true',
    );
    expectL2(server.last(), 'GET', '/rewards/user/markets');
    server.json('GET', '/rewards/markets/0xc', { data: [{ r: 1 }], next_cursor: 'LTE=' });
    expect(await client().getRawRewardsForMarket('0xc')).toEqual([{ r: 1 }]);
    expect(server.last().headers.poly_signature).toBeUndefined();
    server.json('GET', '/version', { version: 1 });
    server.json('GET', '/live-activity/events/0xc', [{ e: 1 }]);
    expect(await client().getMarketTradesEvents('0xc')).toEqual([{ e: 1 }]);
    server.json('GET', '/version', { version: 2 });
    server.json('GET', '/markets/live-activity/0xc', [{ e: 2 }]);
    expect(await client().getMarketTradesEvents('0xc')).toEqual([{ e: 2 }]);
  });

  it('takes the order version and contracts from a custom network profile without asking the server', async () => {
    const sandbox: NetworkProfile = {
      name: 'sandbox',
      chainId: 31337,
      orderVersion: 3,
      contracts: { ...POLYGON.contracts, exchangeV3: '0x5FbDB2315678afecb367f032d93F642f64180aa3' },
    };
    server.json('GET', '/tick-size', { minimum_tick_size: '0.01' });
    server.json('GET', '/neg-risk', { neg_risk: false });
    const c = client({ chainId: 31337, networks: [sandbox] });
    const order = await c.createOrder({ tokenId: TOKEN, side: 'BUY', price: 0.5, size: 2 });
    expect(order.version).toBe(3);
    expect(order.verifyingContract).toBe('0x5FbDB2315678afecb367f032d93F642f64180aa3');
    expect(server.to('/version')).toHaveLength(0);
    await expect(
      client({ chainId: 31337 }).createOrder({ tokenId: TOKEN, side: 'BUY', price: 0.5, size: 2 }, { version: 2 }),
    ).rejects.toThrow('Invalid network');
  });
});
