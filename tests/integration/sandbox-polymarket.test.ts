// The sandbox's Polymarket public APIs (Gamma, Data API, real-time feed, geoblock) read over real HTTP and
// WebSocket: Polymarket's shapes and quirks, the same markets and prices as the aggregator and the CLOB's
// books, paging and bad parameters, and a real trade on the sandbox CLOB seen by every feed.
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import type { CatalogMarket } from '../../sandbox/market/catalog';
import { WsTestClient, type Msg } from '../helpers/ws-test-client';
import { limitOrder, postOrder, type ClobSandbox } from '../helpers/sandbox-clob';

let sandbox: RunningSandbox;
let base: string;
let sb: ClobSandbox;
let btc: CatalogMarket;
let taker: Wallet;
let maker: Wallet;
let bidder: Wallet;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whichever JSON the server answered
async function get(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${path}`);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function ok(path: string): Promise<Msg> {
  const { status, body } = await get(path);
  expect(status, `${path}: ${JSON.stringify(body)}`).toBe(200);
  return body;
}

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 }, simulate: 'off', seed: 9 });
  base = sandbox.profile.gammaUrl;
  // The trader helpers read the exchange's order version, chain id and contracts, and the CLOB's keys.
  sb = { chain: sandbox.deployment, server: sandbox.clob } as unknown as ClobSandbox;
  btc = sandbox.catalog.market('90021')!;
  const wallets = sandbox.profile.testWallets.map((w) => new Wallet(w.privateKey));
  [taker, maker, bidder] = wallets as [Wallet, Wallet, Wallet];
  // Resting orders: a YES ask at 0.40 (a NO bid at 0.60) and a YES bid at 0.30.
  await postOrder(sb, maker, limitOrder(btc.tokens[1].tokenId, 'BUY', 0.6, 20));
  await postOrder(sb, bidder, limitOrder(btc.tokens[0].tokenId, 'BUY', 0.3, 10));
}, 60_000);
afterAll(() => sandbox?.stop());

describe('the profile', () => {
  it('names Gamma, Data, the real-time feed and geoblock next to the other URLs, and no source by default', () => {
    const p = sandbox.profile;
    expect(p.source).toBeUndefined();
    expect(p.aggregatorUrl).toBe(sandbox.aggregator.url);
    expect(p.gammaUrl).toBe(sandbox.polymarket.url);
    expect(p.dataUrl).toBe(sandbox.polymarket.url);
    expect(p.geoblockUrl).toBe(`${sandbox.polymarket.url}/api/geoblock`);
    expect(p.rtdsUrl).toBe(`${sandbox.polymarket.url.replace(/^http/, 'ws')}/rtds`);
  });
});

describe('Gamma: events and markets', () => {
  it('serves every event with Gamma’s quirks: string ids, JSON-encoded outcomes, prices and token ids', async () => {
    const events = await ok('/events');
    expect(events.map((e: Msg) => e.id)).toEqual(['9001', '9002', '9003', '9004', '9005']);
    for (const event of events) {
      const spec = sandbox.catalog.events.find((e) => e.id === event.id)!;
      expect(event).toMatchObject({
        slug: spec.slug,
        title: spec.title,
        negRisk: spec.negRisk,
        commentCount: spec.comments.length,
        active: true,
        closed: false,
      });
      expect(event.tags.length).toBeGreaterThan(0);
      expect(typeof event.volume).toBe('number');
      for (const market of event.markets) {
        const catalogMarket = sandbox.catalog.market(market.id)!;
        expect(typeof market.outcomes).toBe('string');
        expect(typeof market.outcomePrices).toBe('string');
        expect(typeof market.clobTokenIds).toBe('string');
        expect(JSON.parse(market.outcomes)).toEqual(['Yes', 'No']);
        const tokenIds = JSON.parse(market.clobTokenIds);
        expect(tokenIds).toEqual(catalogMarket.tokens.map((t) => t.tokenId));
        expect(tokenIds).toEqual(
          sandbox.deployment.markets.find((m) => m.conditionId === market.conditionId)!.tokenIds,
        );
        expect(market).toMatchObject({
          conditionId: catalogMarket.conditionId,
          slug: catalogMarket.slug,
          orderPriceMinTickSize: Number(catalogMarket.tickSize),
          orderMinSize: catalogMarket.minOrderSize,
          negRisk: spec.negRisk,
          acceptingOrders: true,
          enableOrderBook: true,
          version: 'v1',
          feesEnabled: catalogMarket.fees !== undefined,
          takerBaseFee: catalogMarket.fees ? Math.round(catalogMarket.fees.rate * 10_000) : 0,
        });
        expect(market.questionID).toMatch(/^0x[0-9a-f]{64}$/);
        expect(typeof market.volume).toBe('string');
        expect(market.volumeNum).toBe(Number(market.volume));
        expect(typeof market.liquidity).toBe('string');
        expect(market.liquidityNum).toBe(Number(market.liquidity));
        expect(typeof market.volume24hr).toBe('number');
        expect(typeof market.oneDayPriceChange).toBe('number');
        expect(typeof market.groupItemThreshold).toBe('string');
      }
    }
  });

  it('marks the neg-risk event and its markets with one negRiskMarketID, and only that event', async () => {
    const [fed, bitcoin] = await ok('/events?id=9001,9002');
    expect(fed.negRiskMarketID).toMatch(/^0x[0-9a-f]{64}$/);
    expect(fed.markets.map((m: Msg) => m.negRiskMarketID)).toEqual([
      fed.negRiskMarketID,
      fed.negRiskMarketID,
      fed.negRiskMarketID,
    ]);
    expect(fed.markets.map((m: Msg) => [m.groupItemTitle, m.groupItemThreshold])).toEqual([
      ['No change', '0'],
      ['25 bps cut', '1'],
      ['50+ bps cut', '2'],
    ]);
    expect(bitcoin).not.toHaveProperty('negRiskMarketID');
    expect(bitcoin.markets[0]).not.toHaveProperty('negRiskMarketID');
  });

  it('shows the same markets and prices as the aggregator', async () => {
    for (const id of ['9001', '9002', '9003']) {
      const gamma = await ok(`/events/${id}`);
      const aggregator = (await (
        await fetch(`${sandbox.profile.aggregatorUrl}/v1/events/${id}?protocol=polymarket`)
      ).json()) as Msg;
      expect(gamma.markets.map((m: Msg) => m.id)).toEqual(aggregator.markets.map((m: Msg) => m.id));
      gamma.markets.forEach((m: Msg, i: number) => {
        const agg = aggregator.markets[i];
        expect(m.conditionId).toBe(agg.conditionId);
        expect(JSON.parse(m.clobTokenIds)).toEqual(agg.position_tokens.map((t: Msg) => t.token_id));
        expect(JSON.parse(m.outcomePrices)).toEqual(agg.position_tokens.map((t: Msg) => t.price));
      });
    }
  });

  it('takes bestBid, bestAsk, spread and lastTradePrice from the live book and fills', async () => {
    const market = await ok('/markets/90021');
    const book = sandbox.clob.book(btc.tokens[0].tokenId)!;
    const bids = book.bids.map((l) => Number(l.price));
    const asks = book.asks.map((l) => Number(l.price));
    expect(market.bestBid).toBe(Math.max(...bids));
    expect(market.bestAsk).toBe(Math.min(...asks));
    expect([market.bestBid, market.bestAsk, market.spread]).toEqual([0.3, 0.4, 0.1]);
    expect(market.lastTradePrice).toBe(sandbox.marketData.lastTradePrice(btc.tokens[0].tokenId));
    expect(JSON.parse(market.outcomePrices)).toEqual(['0.35', '0.65']);
    expect(market.events.map((e: Msg) => e.slug)).toEqual(['bitcoin-above-120k-on-december-31-2026']);
  });

  it('pages, orders and filters events', async () => {
    expect((await ok('/events?limit=2&offset=1')).map((e: Msg) => e.id)).toEqual(['9002', '9003']);
    expect(await ok('/events?offset=9')).toEqual([]);
    const busiest = await ok('/events?order=volume24hr&ascending=false');
    const volumes = busiest.map((e: Msg) => e.volume24hr);
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
    expect((await ok('/events?order=id&ascending=true')).map((e: Msg) => e.id)).toEqual([
      '9001',
      '9002',
      '9003',
      '9004',
      '9005',
    ]);
    expect((await ok('/events?order=id&ascending=false')).map((e: Msg) => e.id)).toEqual([
      '9005',
      '9004',
      '9003',
      '9002',
      '9001',
    ]);
    expect((await ok('/events?tag_slug=crypto')).map((e: Msg) => e.id)).toEqual(['9002']);
    expect(
      (await ok('/events?slug=white-christmas-in-london-2026,champions-league-winner-2026-27-real-madrid')).map(
        (e: Msg) => e.id,
      ),
    ).toEqual(['9003', '9005']);
    expect(await ok('/events?closed=true')).toEqual([]);
    expect(await ok('/events?active=true&closed=false&archived=false')).toHaveLength(5);
  });

  it('filters markets by id, slug, condition id and repeated clob_token_ids', async () => {
    expect((await ok('/markets?limit=3&offset=2')).map((m: Msg) => m.id)).toEqual(['90013', '90021', '90031']);
    expect((await ok('/markets?id=90031,90012')).map((m: Msg) => m.id)).toEqual(['90012', '90031']);
    const fedCut = sandbox.catalog.market('90012')!;
    expect((await ok(`/markets?condition_ids=${btc.conditionId},${fedCut.conditionId}`)).map((m: Msg) => m.id)).toEqual(
      ['90012', '90021'],
    );
    const both = await ok(
      `/markets?clob_token_ids=${btc.tokens[1].tokenId}&clob_token_ids=${fedCut.tokens[0].tokenId}`,
    );
    expect(both.map((m: Msg) => m.id)).toEqual(['90012', '90021']);
    // The list is a repeated key, not a comma list.
    expect(await ok(`/markets?clob_token_ids=${btc.tokens[1].tokenId},${fedCut.tokens[0].tokenId}`)).toEqual([]);
    expect((await ok('/markets?slug=fed-no-change-december-2026')).map((m: Msg) => m.id)).toEqual(['90011']);
    expect(await ok('/markets?closed=true')).toEqual([]);
  });

  it('finds one event or market by id or slug, and answers 404 {error} for an unknown one', async () => {
    expect((await ok('/events/slug/fed-decision-in-december-2026')).id).toBe('9001');
    expect((await ok('/markets/slug/white-christmas-in-london-2026')).id).toBe('90031');
    for (const path of ['/events/1234', '/events/slug/nope', '/markets/1234', '/markets/slug/nope', '/tags/999']) {
      expect(await get(path)).toEqual({ status: 404, body: { error: 'not found' } });
    }
  });

  it('refuses bad parameters with 400 {error}', async () => {
    for (const path of [
      '/events?limit=abc',
      '/events?offset=-1',
      '/markets?limit=1.5',
      '/events?ascending=maybe',
      '/events?order=nonsense',
      '/markets?closed=yes',
    ]) {
      const { status, body } = await get(path);
      expect(status, path).toBe(400);
      expect(typeof body.error).toBe('string');
    }
  });
});

describe('Gamma: search, comments, tags, profiles', () => {
  it('searches events, tags and profiles a page at a time', async () => {
    const fed = await ok('/public-search?q=fed%20rates');
    expect(fed.events[0].id).toBe('9001');
    expect(fed.events[0].markets).toHaveLength(3);
    expect(fed.tags.map((t: Msg) => t.slug)).toContain('fed-rates');
    expect(fed.pagination).toEqual({ hasMore: false, totalResults: fed.events.length });
    const all = await ok('/public-search?q=2026&limit_per_type=2');
    expect(all.events).toHaveLength(2);
    expect(all.pagination.hasMore).toBe(true);
    const second = await ok('/public-search?q=2026&limit_per_type=2&page=2');
    expect(second.events.map((e: Msg) => e.id)).not.toContain(all.events[0].id);
    expect(second.pagination.totalResults).toBe(all.pagination.totalResults);
    const people = await ok('/public-search?q=sandbox-trader');
    expect(people.profiles.map((p: Msg) => p.proxyWallet)).toContain(taker.address);
    expect((await get('/public-search')).status).toBe(400);
    expect((await get('/public-search?q=fed&page=0')).status).toBe(400);
  });

  it('lists an event’s comments newest first, with Gamma’s exact parent types', async () => {
    const comments = await ok('/comments?parent_entity_type=Event&parent_entity_id=9001');
    expect(comments.map((c: Msg) => c.body)).toEqual([
      '50+ is priced far too high after the last minutes.',
      'Labour data next week will move the 25 bps market a lot.',
      'Core inflation is still sticky; no change looks right to me.',
    ]);
    const [first] = comments;
    expect(first).toMatchObject({ parentEntityType: 'Event', parentEntityID: 9001, profile: { name: 'quiet-owl' } });
    expect(typeof first.id).toBe('string');
    expect(first).not.toHaveProperty('parentCommentID');
    expect(first.userAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect((await ok('/comments?parent_entity_type=Event&parent_entity_id=9001&limit=1&offset=1'))[0].body).toBe(
      comments[1].body,
    );
    expect(await ok('/comments?parent_entity_type=market&parent_entity_id=90011')).toEqual([]);
    for (const path of [
      '/comments?parent_entity_type=event&parent_entity_id=9001',
      '/comments?parent_entity_type=Event',
      '/comments?parent_entity_type=Event&parent_entity_id=abc',
    ]) {
      expect((await get(path)).status, path).toBe(400);
    }
  });

  it('lists tags, and the events carry them', async () => {
    const tags = await ok('/tags');
    expect(tags.map((t: Msg) => t.slug)).toContain('crypto');
    for (const t of tags) expect(typeof t.id).toBe('string');
    expect(await ok('/tags?limit=2&offset=1')).toEqual(tags.slice(1, 3));
    expect((await ok('/tags/slug/crypto')).label).toBe('Crypto');
  });

  it('gives a wallet’s public profile, a 404 for an address with none (as Gamma), and 400 for a bad one', async () => {
    const profile = await ok(`/public-profile?address=${taker.address}`);
    expect(profile).toMatchObject({ proxyWallet: taker.address, name: 'sandbox-trader-1', verifiedBadge: false });
    expect(profile.users[0]).toMatchObject({ creator: false, mod: false });
    expect(await get(`/public-profile?address=${Wallet.createRandom().address}`)).toEqual({
      status: 404,
      body: { error: 'profile not found' },
    });
    expect((await get('/public-profile?address=0x123')).status).toBe(400);
  });
});

describe('geoblock', () => {
  it('answers not blocked by default, and what the switch says after', async () => {
    expect(await ok('/api/geoblock')).toMatchObject({ blocked: false, ip: '127.0.0.1' });
    sandbox.polymarket.geoblock({ blocked: true, country: 'US', region: 'NY' });
    expect(await ok('/api/geoblock')).toEqual({ blocked: true, ip: '127.0.0.1', country: 'US', region: 'NY' });
    sandbox.polymarket.geoblock({ blocked: false, country: 'IE', region: 'L' });
    expect((await ok('/api/geoblock')).blocked).toBe(false);
  });
});

describe('a real trade on the sandbox CLOB', () => {
  let rtds: WsTestClient;
  let otherMarket: WsTestClient;
  let hash: string;

  beforeAll(async () => {
    rtds = await WsTestClient.open(sandbox.profile.rtdsUrl);
    otherMarket = await WsTestClient.open(sandbox.profile.rtdsUrl);
    rtds.send({
      action: 'subscribe',
      subscriptions: [
        {
          topic: 'activity',
          type: 'orders_matched',
          filters: JSON.stringify({ event_slug: 'bitcoin-above-120k-on-december-31-2026' }),
        },
      ],
    });
    otherMarket.send({
      action: 'subscribe',
      subscriptions: [
        {
          topic: 'activity',
          type: 'orders_matched',
          filters: JSON.stringify({ market_slug: 'white-christmas-in-london-2026' }),
        },
      ],
    });
    // ping → pong: each subscription is in place before the trade.
    for (const c of [rtds, otherMarket]) {
      c.send('ping');
      await c.next((m) => m === 'pong');
    }
    expect(await ok('/trades')).toEqual([]);
    // The taker buys 10 YES at 0.40: it crosses the maker's NO bid at 0.60.
    await postOrder(sb, taker, limitOrder(btc.tokens[0].tokenId, 'BUY', 0.4, 10));
  });
  afterAll(() => {
    rtds?.close();
    otherMarket?.close();
  });

  it('goes out on the real-time feed to the subscribers of its event, with the taker and its side', async () => {
    const message = await rtds.next((m) => m?.topic === 'activity');
    expect(message).toMatchObject({ topic: 'activity', type: 'orders_matched' });
    expect(typeof message.timestamp).toBe('number');
    expect(message.payload).toMatchObject({
      asset: btc.tokens[0].tokenId,
      conditionId: btc.conditionId,
      eventSlug: 'bitcoin-above-120k-on-december-31-2026',
      slug: btc.slug,
      outcome: 'Yes',
      outcomeIndex: 0,
      price: 0.4,
      side: 'BUY',
      size: 10,
      proxyWallet: taker.address,
      name: 'sandbox-trader-1',
    });
    expect(message.payload.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    hash = message.payload.transactionHash;
    otherMarket.send('ping');
    await otherMarket.next((m) => m === 'pong');
    expect(otherMarket.all.filter((m) => m?.topic === 'activity')).toEqual([]);
  });

  it('is in Data /trades as the taker’s row (takerOnly), and the maker’s with takerOnly=false', async () => {
    const [row, ...rest] = await ok(`/trades?market=${btc.conditionId}`);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      proxyWallet: taker.address,
      side: 'BUY',
      asset: btc.tokens[0].tokenId,
      conditionId: btc.conditionId,
      size: 10,
      price: 0.4,
      outcome: 'Yes',
      outcomeIndex: 0,
      eventSlug: 'bitcoin-above-120k-on-december-31-2026',
      name: 'sandbox-trader-1',
    });
    expect(row.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await ok(`/trades?user=${maker.address}`)).toEqual([]);
    const makerRows = await ok(`/trades?user=${maker.address}&takerOnly=false`);
    expect(makerRows.map((r: Msg) => [r.side, r.outcome, r.price, r.size, r.transactionHash])).toEqual([
      ['BUY', 'No', 0.6, 10, row.transactionHash],
    ]);
    expect(await ok('/trades?side=SELL')).toEqual([]);
    expect(await ok('/trades?filterType=CASH&filterAmount=5')).toEqual([]);
    expect(await ok('/trades?filterType=TOKENS&filterAmount=10')).toHaveLength(1);
    expect(await ok(`/trades?eventId=9001`)).toEqual([]);
  });

  it('is in the taker’s /activity as a TRADE with its cash size', async () => {
    const [row] = await ok(`/activity?user=${taker.address.toLowerCase()}`);
    expect(row).toMatchObject({
      type: 'TRADE',
      side: 'BUY',
      size: 10,
      price: 0.4,
      usdcSize: 4,
      proxyWallet: taker.address,
    });
    expect(await ok(`/activity?user=${taker.address}&type=SPLIT`)).toEqual([]);
    expect((await ok(`/activity?user=${maker.address}`))[0]).toMatchObject({
      type: 'TRADE',
      side: 'BUY',
      outcome: 'No',
      usdcSize: 6,
    });
  });

  it('shows up in /positions, /value and /holders from the chain balances', async () => {
    const [yes] = await ok(`/positions?user=${taker.address}`);
    expect(yes).toMatchObject({
      proxyWallet: taker.address,
      asset: btc.tokens[0].tokenId,
      conditionId: btc.conditionId,
      size: 10,
      avgPrice: 0.4,
      initialValue: 4,
      outcome: 'Yes',
      outcomeIndex: 0,
      oppositeOutcome: 'No',
      oppositeAsset: btc.tokens[1].tokenId,
      slug: btc.slug,
      eventSlug: 'bitcoin-above-120k-on-december-31-2026',
      endDate: btc.end,
      negativeRisk: false,
      redeemable: false,
      mergeable: false,
    });
    expect(yes.currentValue).toBeCloseTo(10 * yes.curPrice, 6);
    expect(yes.cashPnl).toBeCloseTo(yes.currentValue - 4, 6);
    const [no] = await ok(`/positions?user=${maker.address}`);
    expect(no).toMatchObject({ outcome: 'No', size: 10, avgPrice: 0.6 });
    expect(await ok(`/positions?user=${taker.address}&sizeThreshold=11`)).toEqual([]);
    const [value] = await ok(`/value?user=${taker.address}`);
    expect(value.user).toBe(taker.address.toLowerCase());
    expect(value.value).toBeCloseTo(yes.currentValue, 6);
    const holders = await ok(`/holders?market=${btc.conditionId}`);
    expect(holders.map((h: Msg) => h.token)).toEqual(btc.tokens.map((t) => t.tokenId));
    expect(holders[0].holders.map((h: Msg) => [h.proxyWallet, h.amount])).toEqual([[taker.address, 10]]);
    expect(holders[1].holders.map((h: Msg) => [h.proxyWallet, h.amount])).toEqual([[maker.address, 10]]);
    expect(hash).toBe((await ok('/trades'))[0].transactionHash);
  });

  it('never shows a match whose settlement failed, on any feed', async () => {
    sandbox.clob.exchangeFaults().nextSettlement({ retries: 1, fail: true });
    // The HTTP answer is the exchange's refusal: what matters here is what the public feeds show after.
    await postOrder(sb, taker, limitOrder(btc.tokens[0].tokenId, 'BUY', 0.4, 5)).catch(() => undefined);
    expect(sandbox.clob.failedTrades()).toHaveLength(1);
    expect((await ok('/trades')).map((r: Msg) => r.transactionHash)).toEqual([hash]);
    expect(sandbox.clob.publicTrades.trades().map((t) => t.transactionHash)).toEqual([hash]);
    expect((await ok(`/positions?user=${taker.address}`)).map((p: Msg) => p.size)).toEqual([10]);
    rtds.send('ping');
    await rtds.next((m) => m === 'pong');
    expect(rtds.all.filter((m) => m?.topic === 'activity')).toHaveLength(1);
  });

  it('validates Data API parameters like Polymarket, with 400 {error}', async () => {
    const u = taker.address;
    for (const path of [
      '/positions',
      '/positions?user=0xabc',
      `/positions?user=${u}&limit=501`,
      `/positions?user=${u}&offset=10001`,
      `/positions?user=${u}&sortBy=SIZE`,
      `/trades?limit=10001`,
      `/trades?offset=10001`,
      `/trades?user=nobody`,
      `/trades?market=${btc.conditionId}&eventId=9002`,
      `/trades?filterType=CASH`,
      `/trades?market=0x12`,
      `/activity?user=${u}&limit=501`,
      `/activity?user=${u}&type=BOGUS`,
      '/activity',
      '/value?user=1',
      '/holders',
      `/holders?market=${btc.conditionId}&limit=21`,
    ]) {
      const { status, body } = await get(path);
      expect(status, path).toBe(400);
      expect(typeof body.error, path).toBe('string');
    }
    expect(await ok('/')).toEqual({ data: 'OK' });
    expect(await get('/nowhere')).toMatchObject({ status: 404 });
  });
});

describe('real-time subscriptions', () => {
  it('sends every trade to a subscription without filters, nothing after an unsubscribe, and ignores junk frames', async () => {
    const everything = await WsTestClient.open(sandbox.profile.rtdsUrl);
    const leaving = await WsTestClient.open(sandbox.profile.rtdsUrl);
    try {
      const activity = { topic: 'activity', type: 'orders_matched' };
      const btcOnly = { ...activity, filters: JSON.stringify({ market_slug: btc.slug }) };
      everything.send('not json');
      everything.send({ action: 'subscribe', subscriptions: 'all' });
      everything.send({ action: 'subscribe', subscriptions: [activity] });
      leaving.send({ action: 'subscribe', subscriptions: [btcOnly] });
      leaving.send({ action: 'unsubscribe', subscriptions: [btcOnly] });
      for (const c of [everything, leaving]) {
        c.send('ping');
        await c.next((m) => m === 'pong');
      }
      await postOrder(sb, taker, limitOrder(btc.tokens[0].tokenId, 'BUY', 0.4, 5));
      const message = await everything.next((m) => m?.topic === 'activity');
      expect(message.payload).toMatchObject({ slug: btc.slug, size: 5, side: 'BUY', proxyWallet: taker.address });
      leaving.send('ping');
      await leaving.next((m) => m === 'pong');
      expect(leaving.all.filter((m) => m?.topic === 'activity')).toEqual([]);
    } finally {
      everything.close();
      leaving.close();
    }
  });
});

describe('the real-time feed’s fault switch', () => {
  it('refuses new connections and drops open ones while on, and lets them in again after', async () => {
    const open = await WsTestClient.open(sandbox.profile.rtdsUrl);
    sandbox.polymarket.rtdsFaults().refuse(true, true);
    expect((await open.closed).code).toBe(1012);
    const refused = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(sandbox.profile.rtdsUrl);
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => reject(new Error('connected while refused')));
      ws.once('error', () => undefined);
    });
    expect(refused).toBe(503);
    sandbox.polymarket.rtdsFaults().refuse(false);
    const again = await WsTestClient.open(sandbox.profile.rtdsUrl);
    again.send('ping');
    expect(await again.next((m) => m === 'pong')).toBe('pong');
    again.close();
  });
});
