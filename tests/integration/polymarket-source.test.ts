// Polymarket direct against real HTTP servers on loopback with fixed answers (Gamma, Data API and CLOB each on
// its own): every read's wire request, the mapping of what comes back, paging that stops, not-found answers,
// malformed answers naming the field, throttled answers retried as Retry-After says, and request budgets.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { httpRequest } from '../../packages/toolkit/src/http/request';
import type { Logger } from '../../packages/toolkit/src/base/logger';
import { checkGeoblock } from '../../packages/toolkit/src/polymarket/geoblock';
import { GammaClient } from '../../packages/toolkit/src/polymarket/gamma';
import { HostLimiter } from '../../packages/toolkit/src/polymarket/limiter';
import { liveActivityToTradeRecord } from '../../packages/toolkit/src/polymarket/mapping';
import { PolymarketSource } from '../../packages/toolkit/src/polymarket/source';
import { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { until } from '../helpers/until';
import {
  CONDITION_ID,
  NO_TOKEN,
  OWNER,
  V2_POSITION_YES,
  WALLET,
  TX,
  YES_TOKEN,
  clobBook,
  liveActivityTrade,
  dataActivity,
  dataPosition,
  dataTrade,
  gammaComment,
  gammaMarket,
  negRiskEvent,
  profile,
  v2Market,
} from '../helpers/polymarket-fixtures';

let gamma: FixtureServer;
let data: FixtureServer;
let clob: FixtureServer;
const logger: Logger = { debug() {}, warn() {}, error() {} };
const source = () => new PolymarketSource({ gammaUrl: gamma.url, dataUrl: data.url, clobUrl: clob.url, logger });

async function failure(promise: Promise<unknown>): Promise<PmDeskError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PmDeskError);
    return error as PmDeskError;
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  [gamma, data, clob] = await Promise.all([startFixtureServer(), startFixtureServer(), startFixtureServer()]);
});
afterAll(() => Promise.all([gamma.stop(), data.stop(), clob.stop()]));
beforeEach(() => {
  for (const server of [gamma, data, clob]) server.reset();
});

describe('events and markets (Gamma)', () => {
  it('lists live events by 24 h volume through the keyset list, keeping a neg-risk event whole', async () => {
    gamma.json('GET', '/events/keyset', { events: [negRiskEvent()] });
    const events = await source().listEvents();
    expect(gamma.last().rawQuery).toBe('limit=50&order=volume24hr&ascending=false&active=true&closed=false');
    expect(events).toHaveLength(1);
    expect(events[0]!.protocol).toBe('polymarket');
    expect(events[0]!.markets.map((m) => m.name)).toEqual(['25 bps cut', 'No change', '50+ bps cut']);

    // On the deprecated offset list (the keyset list missing), the same filters and an offset.
    gamma.reset();
    gamma.json('GET', '/events', [negRiskEvent()]);
    await source().listEvents({ protocol: 'polymarket', page: 3, limit: 10, tag: 'economy', order: 'liquidity' });
    expect(gamma.last().rawQuery).toBe(
      'limit=10&offset=20&order=liquidity&ascending=false&tag_slug=economy&active=true&closed=false',
    );
  });

  it('refuses another protocol with a sentence, sending nothing', async () => {
    const error = await failure(source().getEvent('limitless', '1'));
    expect(error.code).toBe('ERR_INVALID_PARAM');
    expect(error.detail).toContain("only protocol 'polymarket'");
    expect((await failure(source().listEvents({ protocol: 'truemarket' }))).code).toBe('ERR_INVALID_PARAM');
    expect(gamma.requests).toHaveLength(0);
  });

  it('reads an event, a market and both slugs at their paths', async () => {
    gamma.json('GET', '/events/12483', negRiskEvent());
    gamma.json('GET', '/events/slug/fed-decision-in-december', negRiskEvent());
    gamma.json('GET', '/markets/506729', gammaMarket());
    gamma.json('GET', '/markets/slug/fed-cut-25-bps-december', gammaMarket());
    expect((await source().getEvent('polymarket', '12483')).markets).toHaveLength(3);
    expect((await source().getEventsBySlug('fed-decision-in-december')).map((e) => e.id)).toEqual(['12483']);
    expect((await source().getMarket('polymarket', '506729')).conditionId).toBe(CONDITION_ID);
    expect((await source().getMarketsBySlug('fed-cut-25-bps-december')).map((m) => m.position_tokens.length)).toEqual([
      2,
    ]);
  });

  it('reads a Protocol V2 market with its positionIds as tokens', async () => {
    gamma.json('GET', '/markets/700001', v2Market());
    const market = await source().getMarket('polymarket', '700001');
    expect(market.version).toBe('v2');
    expect(market.position_tokens[0]!.token_id).toBe(V2_POSITION_YES);
  });

  it('answers not found for a 404 and for a JSON null', async () => {
    gamma.json('GET', '/events/404', { error: 'not found' }, 404);
    gamma.json('GET', '/markets/nothing', null);
    const missing = await failure(source().getEvent('polymarket', '404'));
    expect(missing.code).toBe('ERR_NOT_FOUND');
    expect(missing.detail).toBe("Event '404' not found.");
    expect((await failure(source().getMarket('polymarket', 'nothing'))).code).toBe('ERR_NOT_FOUND');
    expect((await failure(source().getMarketsBySlug('gone'))).code).toBe('ERR_NOT_FOUND');
  });

  it('rejects a malformed market naming the field, and an answer of the wrong type', async () => {
    gamma.json('GET', '/markets/1', gammaMarket({ clobTokenIds: 'YES,NO' }));
    gamma.json('GET', '/markets/2', gammaMarket({ outcomes: '["Yes","No","Maybe"]' }));
    gamma.json('GET', '/events', { events: [] });
    const notJson = await failure(source().getMarket('polymarket', '1'));
    expect(notJson.code).toBe('ERR_VALIDATION');
    expect(notJson.detail).toContain('clobTokenIds');
    expect((await failure(source().getMarket('polymarket', '2'))).detail).toContain(
      ': clobTokenIds: 2 token ids for 3 outcomes',
    );
    expect((await failure(source().listEvents())).detail).toContain('(root)');
  });

  it('searches page by page while there is more, scoring by rank', async () => {
    const event = (id: string) => ({ ...negRiskEvent(), id, markets: [] });
    gamma.on('GET', '/public-search', (request, reply) => {
      const page = Number(request.query.get('page'));
      reply.json(200, {
        events: page === 1 ? [event('1'), event('2')] : [event('3')],
        tags: [],
        profiles: [],
        pagination: { hasMore: page === 1, totalResults: 3 },
      });
    });
    const matches = await source().search('fed cut', { topK: 10 });
    expect(matches.map((m) => [m.event.id, m.cosineSimilarity])).toEqual([
      ['1', 1],
      ['2', 0.5],
      ['3', 1 / 3],
    ]);
    expect(gamma.to('/public-search').map((r) => r.rawQuery)).toEqual(['q=fed+cut&page=1', 'q=fed+cut&page=2']);
    expect((await source().search('fed cut', { topK: 10, threshold: 0.5 })).map((m) => m.event.id)).toEqual(['1', '2']);
  });

  it('lists slugs and reads comments page by page until a short page', async () => {
    gamma.json('GET', '/events', [negRiskEvent()]);
    expect(await source().listSlugs({ page: 2, limit: 5 })).toEqual(['fed-decision-in-december']);
    expect(gamma.last().query.get('offset')).toBe('5');

    gamma.on('GET', '/comments', (request, reply) => {
      const offset = Number(request.query.get('offset'));
      reply.json(
        200,
        offset === 0
          ? Array.from({ length: 100 }, (_, i) => gammaComment({ id: `c${i}` }))
          : [gammaComment({ id: 'last' })],
      );
    });
    const comments = await source().getEventComments('polymarket', '12483');
    expect(comments).toHaveLength(101);
    expect(gamma.to('/comments').map((r) => r.rawQuery)).toEqual([
      'parent_entity_type=Event&parent_entity_id=12483&limit=100&offset=0&order=createdAt&ascending=false',
      'parent_entity_type=Event&parent_entity_id=12483&limit=100&offset=100&order=createdAt&ascending=false',
    ]);
  });
});

describe('books, fills and candles (CLOB and Data API)', () => {
  beforeEach(() => {
    gamma.json('GET', '/markets/506729', gammaMarket());
  });

  it('reads one book per outcome token, keyed by token id', async () => {
    clob.on('GET', '/book', (request, reply) => reply.json(200, clobBook(request.query.get('token_id')!)));
    const books = await source().getOrderBooks('polymarket', '506729');
    expect(Object.keys(books)).toEqual([YES_TOKEN, NO_TOKEN]);
    expect(books[YES_TOKEN]!.bids.at(-1)).toEqual({ price: 0.52, size: 40.5 });
    expect(books[NO_TOKEN]!.asset_id).toBe(NO_TOKEN);
    expect(
      clob
        .to('/book')
        .map((r) => r.query.get('token_id'))
        .sort(),
    ).toEqual([NO_TOKEN, YES_TOKEN].sort());
  });

  it('reads the taker tape once and returns it oldest first per token, with side, trader and transaction', async () => {
    data.json('GET', '/trades', [
      dataTrade({ timestamp: 300, asset: NO_TOKEN, side: 'SELL', transactionHash: '0x03' }),
      dataTrade({ timestamp: 200, transactionHash: '0x02' }),
      dataTrade({ timestamp: 100, transactionHash: '0x01' }),
      dataTrade({ timestamp: 150, asset: '999', transactionHash: '0x99' }),
    ]);
    const history = await source().getFillHistory('polymarket', '506729');
    expect(data.last().rawQuery).toBe(`market=${CONDITION_ID}&limit=500&offset=0&takerOnly=true`);
    expect(history.map((fills) => fills.map((f) => f.transactionHash))).toEqual([['0x01', '0x02'], ['0x03']]);
    expect(history[1]![0]).toMatchObject({
      side: 'SELL',
      tokenId: NO_TOKEN,
      trader: WALLET,
      traderName: 'alice',
      volumeBase: 25,
      price: 0.53,
    });
  });

  it('builds candles from the outcome token price history over a window, volume from the fills', async () => {
    const now = Math.floor(Date.now() / 1000);
    const hour = Math.floor(now / 3600) * 3600;
    clob.json('GET', '/prices-history', {
      history: [
        { t: hour - 3600 + 60, p: 0.5 },
        { t: hour - 3600 + 900, p: '0.56' },
        { t: hour + 10, p: 0.52 },
      ],
    });
    data.json('GET', '/trades', [
      dataTrade({ timestamp: hour + 20, size: 7, asset: NO_TOKEN }),
      dataTrade({ timestamp: hour + 5, size: 3 }),
    ]);
    const candles = await source().getCandles('polymarket', '506729', 0, '1h');
    const asked = clob.last().query;
    expect(asked.get('market')).toBe(YES_TOKEN);
    expect(asked.get('fidelity')).toBe('15');
    expect(Number(asked.get('endTs')) - Number(asked.get('startTs'))).toBeGreaterThanOrEqual(300 * 3600);
    expect(candles).toEqual([
      { time: hour - 3600, open: 0.5, high: 0.56, low: 0.5, close: 0.56, volume: 0 },
      { time: hour, open: 0.52, high: 0.52, low: 0.52, close: 0.52, volume: 3 },
    ]);
    expect((await failure(source().getCandles('polymarket', '506729', 2, '1h'))).code).toBe('ERR_INVALID_PARAM');
  });
});

describe("a market's live activity (CLOB)", () => {
  it('reads recent trades at the V2 path and maps them to fills', async () => {
    clob.json('GET', `/markets/live-activity/${CONDITION_ID}`, [
      liveActivityTrade(),
      liveActivityTrade({ side: 'SELL', user: null }),
    ]);
    const trades = await source().clob.getLiveActivity(CONDITION_ID);
    expect(trades.map(liveActivityToTradeRecord)).toEqual([
      {
        price: 0.54,
        volumeBase: 12.5,
        timestamp: 1_764_000_000,
        side: 'BUY',
        tokenId: YES_TOKEN,
        trader: WALLET,
        traderName: 'alice',
        transactionHash: TX,
      },
      {
        price: 0.54,
        volumeBase: 12.5,
        timestamp: 1_764_000_000,
        side: 'SELL',
        tokenId: YES_TOKEN,
        transactionHash: TX,
      },
    ]);
    clob.json('GET', `/markets/live-activity/${CONDITION_ID}`, [liveActivityTrade({ size: null })]);
    expect((await failure(source().clob.getLiveActivity(CONDITION_ID))).detail).toContain(': 0.size:');
  });
});

describe('traders (Gamma profile and Data API)', () => {
  it('builds a trader from the profile, the value and the markets traded of its trading wallet', async () => {
    gamma.json('GET', '/public-profile', profile);
    data.json('GET', '/value', [{ user: WALLET, value: '1234.56' }]);
    data.json('GET', '/traded', { user: WALLET, traded: 17 });
    const trader = await source().getTrader('polymarket', OWNER);
    expect(gamma.last().rawQuery).toBe(`address=${OWNER}`);
    expect(data.to('/value')[0]!.rawQuery).toBe(`user=${WALLET}`);
    expect(trader.user.tradingWallet).toBe(WALLET);
    expect(trader.stats).toEqual({
      portfolioValue: 1234.56,
      cumulativeVolume: null,
      cumulativeProfit: null,
      totalTrades: null,
      marketsTraded: 17,
    });
  });

  it('answers the profile wallet, or null for a 404 or a JSON null', async () => {
    gamma.json('GET', '/public-profile', profile);
    expect(await source().getProfileWallet(OWNER)).toBe(WALLET);
    gamma.json('GET', '/public-profile', null);
    expect(await source().getProfileWallet(OWNER)).toBeNull();
    gamma.json('GET', '/public-profile', { error: 'profile not found' }, 404);
    expect(await source().getProfileWallet(OWNER)).toBeNull();
  });

  it('reads every page of positions and stops at a short page', async () => {
    data.on('GET', '/positions', (request, reply) =>
      reply.json(
        200,
        request.query.get('offset') === '0'
          ? Array.from({ length: 500 }, () => dataPosition())
          : [dataPosition(), dataPosition()],
      ),
    );
    const positions = await source().getTraderPositions('polymarket', WALLET);
    expect(positions).toHaveLength(502);
    expect(data.to('/positions').map((r) => r.rawQuery)).toEqual([
      `user=${WALLET}&limit=500&offset=0`,
      `user=${WALLET}&limit=500&offset=500`,
    ]);
  });

  it('reads activity and the trader trades (maker and taker) one page at a time', async () => {
    data.json('GET', '/activity', [dataActivity(), dataActivity({ type: 'MERGE', side: null, price: null })]);
    data.json('GET', '/trades', [dataTrade()]);
    const activity = await source().getTraderActivity(WALLET, { limit: 20, offset: 40 });
    expect(data.last().rawQuery).toBe(`user=${WALLET}&limit=20&offset=40`);
    expect(activity.map((a) => [a.type, a.side])).toEqual([
      ['TRADE', 'BUY'],
      ['MERGE', null],
    ]);
    const trades = await source().getTraderTrades(WALLET);
    expect(data.last().rawQuery).toBe(`user=${WALLET}&limit=100&offset=0&takerOnly=false`);
    expect(trades[0]).toMatchObject({ trader: WALLET, side: 'BUY', tokenId: YES_TOKEN });
    expect((await failure(source().getTraderActivity(WALLET, { limit: 501 }))).code).toBe('ERR_INVALID_PARAM');
  });
});

describe('throttling and budgets', () => {
  it('retries a 429 after the Retry-After it names, then answers', async () => {
    let calls = 0;
    gamma.on('GET', '/events/1', (_request, reply) =>
      ++calls === 1 ? reply.json(429, { error: 'slow down' }, { 'Retry-After': '1' }) : reply.json(200, negRiskEvent()),
    );
    const waits: number[] = [];
    const client = new GammaClient({ baseUrl: gamma.url, logger, sleep: async (ms) => void waits.push(ms) });
    expect((await client.getEvent('1')).id).toBe('12483');
    expect(waits).toEqual([1000]);
    expect(gamma.requests).toHaveLength(2);
  });

  it('really waits before the retry (the second request arrives at least the named time after the first)', async () => {
    const arrivals: number[] = [];
    gamma.on('GET', '/events/1', (_request, reply) => {
      arrivals.push(performance.now());
      if (arrivals.length === 1) reply.json(503, { error: 'busy' }, { 'Retry-After': '1' });
      else reply.json(200, negRiskEvent());
    });
    await source().getEvent('polymarket', '1');
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(950);
  });

  it('gives up after two retries with ERR_RATE_LIMIT naming the wait, and never waits longer than 10 s', async () => {
    gamma.on('GET', '/events/1', (_request, reply) => reply.json(429, { error: 'slow down' }, { 'Retry-After': '2' }));
    const waits: number[] = [];
    const client = new GammaClient({ baseUrl: gamma.url, logger, sleep: async (ms) => void waits.push(ms) });
    const error = await failure(client.getEvent('1'));
    expect(error.code).toBe('ERR_RATE_LIMIT');
    expect(error.detail).toBe(
      'API request failed with status 429. Server error: slow down. Gamma is limiting requests; try again in 2 s.',
    );
    expect(waits).toEqual([2000, 2000]);
    expect(gamma.requests).toHaveLength(3);

    gamma.reset();
    gamma.on('GET', '/events/1', (_request, reply) =>
      reply.json(429, {}, { 'Retry-After': new Date(Date.now() + 60_000).toUTCString() }),
    );
    const long = await failure(client.getEvent('1'));
    expect(long.code).toBe('ERR_RATE_LIMIT');
    expect(long.detail).toMatch(/try again in (59|60) s/);
    expect(gamma.requests).toHaveLength(1);
  });

  it('does not retry an outage without Retry-After', async () => {
    gamma.json('GET', '/events/1', { error: 'down' }, 503);
    expect((await failure(source().getEvent('polymarket', '1'))).code).toBe('ERR_SERVER');
    expect(gamma.requests).toHaveLength(1);
  });

  it('keeps a host under its budget: requests over it wait until the window has passed on the budget clock', async () => {
    gamma.json('GET', '/events/1', negRiskEvent());
    let clock = 1_000;
    const client = new GammaClient({
      baseUrl: gamma.url,
      logger,
      limiter: new HostLimiter({ general: { limit: 3, windowMs: 300 } }, () => clock),
    });
    const all = Promise.all(Array.from({ length: 5 }, () => client.getEvent('1')));
    await until(() => gamma.requests.length === 3, 'three requests within the budget');
    // The budget's clock stands still: however long real time runs, the other two stay queued.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(gamma.requests).toHaveLength(3);
    clock += 300;
    await all;
    expect(gamma.requests).toHaveLength(5);
  });

  it('bounds an answer in size', async () => {
    gamma.on('GET', '/big', (_request, reply) =>
      reply.text(200, JSON.stringify({ blob: 'x'.repeat(5000) }), 'application/json'),
    );
    const error = await failure(
      httpRequest({
        method: 'GET',
        baseUrl: gamma.url,
        path: '/big',
        timeoutMs: 5000,
        methodName: 'big',
        maxBytes: 1000,
      }),
    );
    expect(error.code).toBe('ERR_API_REQUEST');
    expect(error.detail).toContain('larger than 1000 bytes');
  });
});

describe('geoblock', () => {
  it('reads blocked, allowed, and a failed check as unknown', async () => {
    gamma.json('GET', '/api/geoblock', { blocked: true, ip: '203.0.113.42', country: 'US', region: 'NY' });
    expect(await checkGeoblock(`${gamma.url}/api/geoblock`)).toEqual({
      allowed: false,
      state: 'blocked',
      reason: 'Polymarket does not allow trading from NY, US.',
      country: 'US',
      region: 'NY',
    });
    expect(gamma.last().path).toBe('/api/geoblock');
    gamma.json('GET', '/api/geoblock', { blocked: false, ip: '198.51.100.1', country: 'PT', region: '11' });
    expect(await checkGeoblock(`${gamma.url}/api/geoblock`)).toEqual({
      allowed: true,
      state: 'ok',
      reason: '',
      country: 'PT',
      region: '11',
    });
    gamma.on('GET', '/api/geoblock', (_request, reply) => reply.text(403, '<html>blocked</html>', 'text/html'));
    const forbidden = await checkGeoblock(`${gamma.url}/api/geoblock`);
    expect(forbidden.state).toBe('unknown');
    expect(forbidden.reason).toContain('status 403');
    gamma.json('GET', '/api/geoblock', { blocked: 'maybe' });
    expect((await checkGeoblock(`${gamma.url}/api/geoblock`)).reason).toContain('blocked');
  });
});
