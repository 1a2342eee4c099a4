// The sandbox's aggregator server, driven by the toolkit's own aggregator client (and raw HTTP for what
// the client would refuse to send): shapes, paging, search relevance, the oracle, the SSE fill stream,
// and bad input that must never hurt it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'ethers';
import { AggregatorClient } from '../../packages/toolkit/src/aggregator/client';
import { silentLogger } from '../../packages/toolkit/src/base/logger';
import type { TradeRecord } from '../../packages/toolkit/src/model/aggregator';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { AggregatorServer } from '../../sandbox/aggregator/server';
import { SANDBOX_EVENTS, buildCatalog, type Catalog } from '../../sandbox/market/catalog';
import { generateHistory } from '../../sandbox/market/history';
import { MarketData } from '../../sandbox/market/market-data';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const TRADER = '0x00000000000000000000000000000000000000a1';

let catalog: Catalog;
let data: MarketData;
let server: AggregatorServer;
let client: AggregatorClient;

/** Fake on-chain ids for a chain-less test: stable per market. */
const fakeChain = (market: { id: string }) => ({
  conditionId: `0x${market.id.padStart(64, '0')}`,
  tokenIds: [`${market.id}1`, `${market.id}2`] as [string, string],
});

beforeAll(async () => {
  catalog = buildCatalog(SANDBOX_EVENTS, fakeChain);
  data = new MarketData(catalog, generateHistory(catalog, { seed: 7, now: NOW, days: 40 }));
  server = await new AggregatorServer({
    catalog,
    marketData: data,
    now: () => NOW,
    traders: {
      trader: async (address) =>
        address.toLowerCase() === TRADER
          ? {
              user: {
                tradingWallet: TRADER,
                proxyOwner: null,
                name: 'alice',
                pseudonym: 'Bright-Owl',
                bio: '',
                avatar: '',
                createdAt: '2026-10-01T00:00:00Z',
              },
              stats: { portfolioValue: 100, cumulativeVolume: 5, cumulativeProfit: null, totalTrades: 2 },
            }
          : undefined,
      positions: async (address) =>
        address.toLowerCase() === TRADER
          ? [
              {
                outcome: 'Yes',
                size: 10,
                currentPrice: 0.5,
                currentValue: 5,
                initialValue: 4,
                icon: '',
                endsOn: '2026-12-31T00:00:00Z',
              },
            ]
          : [],
    },
  }).start();
  client = new AggregatorClient({ apiUrl: server.url, logger: silentLogger, timeoutMs: 5000 });
});
afterAll(() => server.stop());

async function failure(promise: Promise<unknown>): Promise<PmDeskError> {
  try {
    await promise;
  } catch (error) {
    return error as PmDeskError;
  }
  throw new Error('expected a failure');
}

describe('sandbox aggregator: reads', () => {
  it('lists ongoing events a page at a time', async () => {
    const all = await client.listOngoingEvents('polymarket');
    expect(all.map((e) => e.id)).toEqual(['9001', '9002', '9003', '9004', '9005']);
    expect((await client.listOngoingEvents('polymarket', { page: 2, limit: 2 })).map((e) => e.id)).toEqual([
      '9003',
      '9004',
    ]);
    expect(await client.listOngoingEvents('polymarket', { page: 9, limit: 2 })).toEqual([]);
    expect(await client.listOngoingEvents('limitless')).toEqual([]);
  });

  it('serves an event with its markets, prices as strings on the tick grid', async () => {
    const event = await client.getEvent('polymarket', '9001');
    expect(event).toMatchObject({
      id: '9001',
      protocol: 'polymarket',
      region: 'global',
      slug: 'fed-decision-in-december-2026',
      neg_risk: true,
    });
    expect(event.markets.map((m) => m.groupItemTitle)).toEqual(['No change', '25 bps cut', '50+ bps cut']);
    const [yes, no] = event.markets[0]!.position_tokens;
    expect(yes).toMatchObject({ token_id: '900111', name: 'Yes' });
    expect(yes!.price).toMatch(/^0\.\d{2}$/);
    expect(Number(yes!.price) + Number(no!.price)).toBeCloseTo(1, 5);
    expect(event.volume).toBeGreaterThan(0);
  });

  it('serves a market with its condition, tick and minimum size', async () => {
    const market = await client.getMarket('polymarket', '90013');
    expect(market).toMatchObject({
      id: '90013',
      conditionId: `0x${'90013'.padStart(64, '0')}`,
      minimum_tick_size: '0.001',
      minimum_order_size: 5,
      neg_risk: true,
    });
    expect(market.position_tokens[0]!.price).toMatch(/^0\.\d{3}$/);
  });

  it('answers 404 with a message for an unknown event or market', async () => {
    const error = await failure(client.getEvent('polymarket', '404404'));
    expect(error.code).toBe('ERR_NOT_FOUND');
    expect(error.detail).toBe("API request failed with status 404. Server message: Event '404404' not found.");
    expect((await failure(client.getMarket('limitless', '90011'))).statusCode).toBe(404);
  });

  it('serves comments', async () => {
    const comments = await client.getEventComments('polymarket', '9002');
    expect(comments.map((c) => c.name)).toEqual(['sats-stacker', 'chartist']);
    expect(comments[1]!.createdAt).toBe(new Date(NOW - 7 * 3_600_000).toISOString());
  });

  it('serves one book per outcome token, empty until the CLOB sets one', async () => {
    const empty = await client.getOrderBooks('polymarket', '90021');
    expect(Object.keys(empty)).toEqual(['900211', '900212']);
    expect(empty['900211']).toMatchObject({ bids: [], asks: [], tick_size: '0.01', min_order_size: '5' });
    data.setBook('900211', {
      market: '0xc',
      asset_id: '900211',
      timestamp: String(NOW),
      hash: 'abc',
      bids: [{ price: '0.40', size: '100' }],
      asks: [{ price: '0.44', size: '50' }],
      min_order_size: '5',
      tick_size: '0.01',
      neg_risk: false,
      last_trade_price: '0.42',
    });
    const books = await client.getOrderBooks('polymarket', '90021');
    expect(books['900211']!.bids).toEqual([{ price: 0.4, size: 100 }]);
    const market = await client.getMarket('polymarket', '90021');
    expect(market.position_tokens[0]!.price).toBe('0.42'); // the midpoint once both sides quote
    expect(market.spread).toBe(0.04);
  });

  it('serves about a month of fills per outcome, oldest first, in seconds', async () => {
    const history = await client.getFillHistory('polymarket', '90041');
    expect(history).toHaveLength(2);
    const [yes, no] = history;
    expect(yes!.length).toBeGreaterThan(500);
    expect(yes!.length).toBe(no!.length);
    expect(yes![0]!.timestamp).toBeGreaterThanOrEqual(Math.floor(NOW / 1000) - 31 * 86_400);
    expect(yes!.at(-1)!.timestamp).toBeLessThan(NOW / 1000);
    expect([...yes!].sort((a, b) => a.timestamp - b.timestamp)).toEqual(yes);
    expect(yes![10]!.price + no![10]!.price).toBeCloseTo(1, 6);
    for (const f of yes!) expect(Math.round(f.price * 100) / 100).toBe(f.price);
  });

  it('serves traders and positions from its directory', async () => {
    expect((await client.getTrader('polymarket', TRADER)).user.name).toBe('alice');
    expect(await client.getTraderPositions('polymarket', TRADER)).toHaveLength(1);
    // Any case of the address finds the same trader.
    expect((await client.getTrader('polymarket', TRADER.toUpperCase().replace('0X', '0x'))).user.name).toBe('alice');
  });

  it('answers an unknown trader and a malformed address alike on the profile and the positions', async () => {
    const get = async (path: string) => {
      const response = await fetch(`${server.url}${path}`);
      return { status: response.status, body: (await response.json()) as unknown };
    };
    // Malformed: 400 with one message on both routes, before the protocol is looked at.
    for (const bad of ['0x1', 'alice', `0x${'g'.repeat(40)}`, `${TRADER}00`]) {
      for (const path of [
        `/v1/trader/${bad}?protocol=polymarket`,
        `/v1/trader/${bad}/positions?protocol=polymarket`,
        `/v1/trader/${bad}/positions`,
      ]) {
        expect(await get(path), path).toEqual({
          status: 400,
          body: { message: 'Invalid trader address: 0x and 40 hex digits.' },
        });
      }
    }
    const profileFailure = await failure(client.getTrader('polymarket', '0x1'));
    const positionsFailure = await failure(client.getTraderPositions('polymarket', '0x1'));
    expect(positionsFailure.code).toBe(profileFailure.code);
    expect(positionsFailure.code).not.toBe('ERR_NOT_FOUND');

    // Well-formed with no activity: an empty profile and no positions, on polymarket and on other protocols.
    const stranger = '0x00000000000000000000000000000000000000b2';
    for (const protocol of ['polymarket', 'limitless']) {
      const profile = await client.getTrader(protocol, stranger);
      expect(profile.user).toMatchObject({ tradingWallet: getAddress(stranger), name: '', createdAt: '' });
      expect(profile.user.pseudonym).toMatch(/^[A-Z][a-z]+-[A-Z][a-z]+$/);
      expect(profile.stats).toMatchObject({ portfolioValue: 0, cumulativeVolume: 0, totalTrades: 0 });
      expect(await client.getTraderPositions(protocol, stranger)).toEqual([]);
    }
    expect((await get(`/v1/trader/${stranger}?protocol=polymarket`)).status).toBe(200);
    expect(await get(`/v1/trader/${stranger}/positions?protocol=polymarket`)).toEqual({ status: 200, body: [] });
  });

  it('lists slugs and looks events and markets up by slug', async () => {
    expect(await client.listSlugs({ limit: 2 })).toEqual([
      'fed-decision-in-december-2026',
      'bitcoin-above-120k-on-december-31-2026',
    ]);
    expect((await client.getEventsBySlug('white-christmas-in-london-2026'))[0]!.id).toBe('9003');
    expect((await client.getMarketsBySlug('fed-25-bps-cut-december-2026'))[0]!.id).toBe('90012');
    expect((await failure(client.getEventsBySlug('no-such-thing'))).detail).toBe(
      "Market with slug 'no-such-thing' not found.",
    );
    expect((await failure(client.getMarketsBySlug('no-such-thing'))).detail).toBe(
      "Exchange with slug 'no-such-thing' not found.",
    );
  });
});

describe('sandbox aggregator: search', () => {
  it('ranks by relevance, best first, with scores in (0, 1]', async () => {
    const results = await client.search('fed rate cut december');
    expect(results[0]!.event.id).toBe('9001');
    for (const r of results) expect(r.cosineSimilarity).toBeGreaterThan(0);
    expect(results.map((r) => r.cosineSimilarity)).toEqual(
      [...results.map((r) => r.cosineSimilarity)].sort((a, b) => b - a),
    );
    expect((await client.search('snow london christmas'))[0]!.event.id).toBe('9003');
  });

  it('honours topK, threshold, protocols and comments', async () => {
    expect(await client.search('2026', { topK: 2 })).toHaveLength(2);
    const all = await client.search('2026');
    expect(all.length).toBeGreaterThan(2);
    expect(await client.search('bitcoin', { threshold: 0.99 })).toEqual([]);
    expect(await client.search('bitcoin', { protocols: ['limitless'] })).toEqual([]);
    expect(await client.search('bitcoin', { protocols: ['polymarket', 'limitless'] })).not.toEqual([]);
    // "hala" appears only in a comment
    expect(await client.search('hala')).toEqual([]);
    expect((await client.search('hala', { isIncludeComment: true }))[0]!.event.id).toBe('9005');
  });
});

describe('sandbox aggregator: price oracle', () => {
  const order = {
    salt: '1',
    maker: TRADER,
    signer: TRADER,
    taker: '0x0000000000000000000000000000000000000000',
    tokenId: '900111',
    makerAmount: '5500000',
    takerAmount: '10000000',
    expiration: '0',
    nonce: '0',
    feeRateBps: '0',
    side: 'BUY',
    signatureType: '0',
    signature: `0x${'11'.repeat(65)}`,
  };

  it('proposes, scans and verifies a price', async () => {
    expect(await client.scanPendingPriceData()).toBe(false);
    const proposed = (await client.proposePrice(order)) as {
      success: boolean;
      pending: { price: number; complement: string; complementPrice: number };
    };
    expect(proposed).toMatchObject({
      success: true,
      pending: { tokenId: '900111', price: 0.55, complement: '900112', complementPrice: 0.45 },
    });
    expect(await client.scanPendingPriceData()).toBe(true);
    expect(await client.verifyPrice()).toMatchObject({ verified: 1 });
    expect(await client.scanPendingPriceData()).toBe(false);
  });

  it('refuses an order below the minimum or for an unknown token (the client returns null)', async () => {
    expect(await client.proposePrice({ ...order, makerAmount: '500000' })).toBeNull();
    expect(await client.proposePrice({ ...order, tokenId: '42' })).toBeNull();
    const raw = await fetch(`${server.url}/v1/proposePrice`, {
      method: 'POST',
      body: JSON.stringify({ order: { ...order, tokenId: '42', side: '0' } }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ error: 'order.tokenId 42 is not a sandbox outcome token.' });
  });
});

describe('sandbox aggregator: fill stream', () => {
  it('streams each new fill of the market as an unnamed data frame, priced in its first outcome', async () => {
    const fills: TradeRecord[] = [];
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    let gotTwo!: () => void;
    const two = new Promise<void>((resolve) => (gotTwo = resolve));
    const sub = client.subscribeToFills('polymarket', '90021', {
      onOpen: opened,
      onFill: (f) => {
        fills.push(f);
        if (fills.length === 2) gotTwo();
      },
    });
    await open;
    data.recordFill('900211', { price: 0.43, volumeBase: 10, timestamp: 1_795_000_000 });
    // The same trade as the exchange also records it on the other outcome: the market's stream sends it once.
    data.recordFill('900212', { price: 0.57, volumeBase: 10, timestamp: 1_795_000_000 }, { mirror: true });
    data.recordFill('900212', { price: 0.6, volumeBase: 4, timestamp: 1_795_000_001 });
    data.recordFill('900111', { price: 0.5, volumeBase: 1, timestamp: 1_795_000_002 }); // another market
    await two;
    // Anything sent after the two would be a duplicate: give it a moment to arrive.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fills).toEqual([
      { price: 0.43, volumeBase: 10, timestamp: 1_795_000_000 },
      { price: 0.4, volumeBase: 4, timestamp: 1_795_000_001 },
    ]);
    sub.close();
  });

  it('streams one outcome token when the id is a token id', async () => {
    const fills: TradeRecord[] = [];
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    let got!: () => void;
    const one = new Promise<void>((resolve) => (got = resolve));
    const sub = client.subscribeToFills('polymarket', '900212', {
      onOpen: opened,
      onFill: (f) => {
        fills.push(f);
        got();
      },
    });
    await open;
    data.recordFill('900211', { price: 0.43, volumeBase: 10, timestamp: 1 });
    data.recordFill('900212', { price: 0.57, volumeBase: 3, timestamp: 2 });
    await one;
    expect(fills).toEqual([{ price: 0.57, volumeBase: 3, timestamp: 2 }]);
    sub.close();
  });

  it('refuses a stream for an unknown market', async () => {
    const error = await client.subscribeToFills('polymarket', 'nope').done;
    expect(error).toMatchObject({ code: 'ERR_SSE_CONNECT', statusCode: 404 });
  });
});

describe('sandbox aggregator: bad input never hurts it', () => {
  const raw = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);

  it('answers missing or bad parameters with 400 and a message', async () => {
    expect(await (await raw('/v1/events/9001')).json()).toEqual({ message: "Missing required parameter 'protocol'." });
    expect((await raw('/v1/events/9001?protocol=nasdaq')).status).toBe(400);
    const pageZero = await raw('/v1/ongoing-events?protocol=polymarket&page=0');
    expect(pageZero.status).toBe(400);
    expect(await pageZero.json()).toEqual({ message: "Parameter 'page' must be 1 or greater." });
    expect((await raw('/v1/agg/retrieve')).status).toBe(400);
    expect((await raw('/v1/agg/retrieve?query=x&threshold=2')).status).toBe(400);
    expect((await raw('/v1/events/%E0%A4%A?protocol=polymarket')).status).toBe(400);
  });

  it('answers unknown routes with 404, malformed and oversized bodies with 400 and 413', async () => {
    expect((await raw('/v2/nothing')).status).toBe(404);
    expect((await raw('/v1/events/9001', { method: 'DELETE' })).status).toBe(404);
    const bad = await raw('/v1/proposePrice', { method: 'POST', body: '{"order": ' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'Body must be JSON: {"order": {…}}.' });
    const big = await raw('/v1/proposePrice', { method: 'POST', body: 'x'.repeat(200_000) }).catch(() => undefined);
    expect(big === undefined || big.status === 413).toBe(true);
    // The refused body was not read to its end: the connection closes rather than wait, unread, for a reuse.
    if (big) expect(big.headers.get('connection')).toBe('close');
  });

  it('survives a flood of bad requests and still answers', async () => {
    const paths = [
      '/v1/events/x',
      '/v1/markets/%ZZ?protocol=polymarket',
      '/v1/agg?slug=',
      '/sse/fillevent?protocol=polymarket',
      '/v1/trader/?protocol=polymarket',
    ];
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => raw(paths[i % paths.length]!).then((r) => r.status)),
    );
    for (const status of answers) expect([400, 404]).toContain(status);
    expect((await client.listOngoingEvents('polymarket')).length).toBe(5);
  });
});

describe('generated history', () => {
  it('is the same for the same seed and differs for another', () => {
    const a = generateHistory(catalog, { seed: 1, now: NOW, days: 3 });
    const b = generateHistory(catalog, { seed: 1, now: NOW, days: 3 });
    const c = generateHistory(catalog, { seed: 2, now: NOW, days: 3 });
    expect(a.fills.get('900111')).toEqual(b.fills.get('900111'));
    expect(a.fills.get('900111')).not.toEqual(c.fills.get('900111'));
    expect(a.lastPrice.get('90011')).toBe(b.lastPrice.get('90011'));
  });
});

describe('generated history of a neg-risk event', () => {
  it('keeps the YES prices of its markets adding up to about 1', () => {
    const { lastPrice } = generateHistory(catalog, { seed: 11, now: NOW, days: 10 });
    const fed = catalog.events.find((e) => e.negRisk)!;
    const total = fed.markets.reduce((sum, m) => sum + lastPrice.get(m.id)!, 0);
    expect(total).toBeGreaterThan(0.9);
    expect(total).toBeLessThan(1.1);
  });
});
