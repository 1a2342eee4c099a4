// Polymarket's own TypeScript client (@polymarket/client 0.2.0, pinned) as the judge of the sandbox: pointed at
// the sandbox's Gamma, Data API, CLOB and market WebSocket, every public read it makes must parse with its own
// zod schemas and carry what the sandbox's chain and exchange say (token ids, books, trades, holdings), and PM
// Desk's direct source must read the same answers (issue 27).
import { Contract, Wallet, ZeroHash } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createPublicClient, forkEnvironmentConfig } from '@polymarket/client';
import {
  fetchBuilderFeeRates,
  fetchMarketInfo,
  fetchNegRisk,
  fetchTickSize,
  listCurrentRewards,
  listMarketRewards,
  resolveConditionByToken,
} from '@polymarket/client/actions';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { TX_OVERRIDES, conditionalTokensArtifact, sandboxProvider } from '../../sandbox/chain/index';
import { mined } from '../../sandbox/chain/deploy';
import type { CatalogMarket } from '../../sandbox/market/catalog';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import { ClobPublicReads } from '../../packages/toolkit/src/polymarket/clob-reads';
import { DataClient } from '../../packages/toolkit/src/polymarket/data';
import { GammaClient } from '../../packages/toolkit/src/polymarket/gamma';
import { toTraderActivity } from '../../packages/toolkit/src/polymarket/mapping';
import { buildPortfolio, ledgerEntries } from '../../packages/toolkit/src/portfolio/index';
import { limitOrder, postOrder, type ClobSandbox } from '../helpers/sandbox-clob';

let sandbox: RunningSandbox;
let client: ReturnType<typeof createPublicClient>;
let sb: ClobSandbox;
let btc: CatalogMarket;
let fed: CatalogMarket;
let taker: Wallet;
let maker: Wallet;
let bidder: Wallet;
let closer: Wallet;
let yes: string;
let no: string;

/** Waits (on the real clock: the sandbox's chain mines for real) until the Data API shows `count` trades of a wallet. */
async function settled(wallet: Wallet, count: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const rows = (await (await fetch(`${sandbox.profile.dataUrl}/trades?user=${wallet.address}`)).json()) as unknown[];
    if (rows.length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${wallet.address}: fewer than ${count} settled trades`);
}

/** What a rejected promise was rejected with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

const num = (v: unknown) => Number(v);

beforeAll(async () => {
  // The client opens sockets with the platform's WebSocket (Node 22+ has one); on Node 20, the ws package's.
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 }, simulate: 'off', seed: 9 });
  const p = sandbox.profile;
  // Every URL the client would otherwise take from its production environment points at the sandbox.
  const environment = forkEnvironmentConfig({
    name: 'sandbox',
    chainId: sandbox.deployment.chainId,
    rpc: p.rpcUrl,
    gamma: { rest: p.gammaUrl },
    data: { rest: p.dataUrl },
    clob: { rest: p.clobUrl, market: { ws: `${p.wsUrl}/market` }, user: { ws: `${p.wsUrl}/user` } },
    rtds: { ws: p.rtdsUrl },
  });
  client = createPublicClient({ environment });
  btc = sandbox.catalog.market('90021')!;
  fed = sandbox.catalog.events[0]!.markets[0]!;
  [yes, no] = btc.tokens.map((t) => t.tokenId) as [string, string];
  sb = { chain: sandbox.deployment, server: sandbox.clob } as unknown as ClobSandbox;
  [taker, maker, bidder, closer] = p.testWallets.map((w) => new Wallet(w.privateKey)) as [
    Wallet,
    Wallet,
    Wallet,
    Wallet,
  ];
  // A NO bid at 0.60 (a YES ask at 0.40) and a YES bid at 0.30. The taker buys 5 YES at 0.40 and keeps them; the
  // closer buys 5 YES at 0.40 and sells them to the YES bid at 0.30: a closed position, 0.50 lost.
  await postOrder(sb, maker, limitOrder(no, 'BUY', 0.6, 20));
  await postOrder(sb, bidder, limitOrder(yes, 'BUY', 0.3, 10));
  await postOrder(sb, taker, limitOrder(yes, 'BUY', 0.4, 5));
  await postOrder(sb, closer, limitOrder(yes, 'BUY', 0.4, 5));
  await settled(closer, 1);
  await postOrder(sb, closer, limitOrder(yes, 'SELL', 0.3, 5));
  await settled(closer, 2);
  await settled(taker, 1);
}, 120_000);
afterAll(() => sandbox?.stop());

describe('@polymarket/client 0.2.0 reads the sandbox’s Gamma', () => {
  it('events and markets by id, slug and URL, with the catalog’s token ids and Gamma’s prices', async () => {
    for (const read of [
      client.fetchMarket({ id: btc.id }),
      client.fetchMarket({ slug: btc.slug }),
      client.fetchMarket({ url: `https://polymarket.com/market/${btc.slug}` }),
    ]) {
      const market = await read;
      expect(market.id).toBe(btc.id);
      expect(market.conditionId).toBe(btc.conditionId);
      expect([market.outcomes.yes.tokenId, market.outcomes.no.tokenId]).toEqual([yes, no]);
      expect([market.outcomes.yes.label, market.outcomes.no.label]).toEqual(['Yes', 'No']);
      expect(market.state).toMatchObject({ active: true, closed: false, acceptingOrders: true, negRisk: false });
    }
    const raw = (await (await fetch(`${sandbox.profile.gammaUrl}/markets/${btc.id}`)).json()) as {
      outcomePrices: string;
    };
    expect([(await client.fetchMarket({ id: btc.id })).outcomes.yes.price]).toEqual([JSON.parse(raw.outcomePrices)[0]]);
    const eventSpec = sandbox.catalog.events[0]!;
    for (const read of [client.fetchEvent({ id: eventSpec.id }), client.fetchEvent({ slug: eventSpec.slug })]) {
      const event = await read;
      expect(event.id).toBe(eventSpec.id);
      expect(event.markets.map((m) => m.id)).toEqual(eventSpec.markets.map((m) => m.id));
      expect(event.markets.map((m) => m.outcomes.yes.tokenId)).toEqual(
        eventSpec.markets.map((m) => m.tokens[0].tokenId),
      );
    }
    expect(await rejection(client.fetchEvent({ id: '999999' }))).toMatchObject({ name: 'RequestRejectedError' });
  });

  it('lists events and markets through the keyset endpoints, page after page', async () => {
    const events: string[] = [];
    for await (const page of client.listEvents({ pageSize: 2 })) events.push(...page.items.map((e) => e.id));
    expect(events).toEqual(sandbox.catalog.events.map((e) => e.id));
    const markets: string[] = [];
    for await (const page of client.listMarkets({ pageSize: 3 })) markets.push(...page.items.map((m) => m.id));
    expect(markets).toEqual(sandbox.catalog.events.flatMap((e) => e.markets.map((m) => m.id)));
    const crypto = await client.listEvents({ tagIds: [103] }).firstPage();
    expect(crypto.items.map((e) => e.id)).toEqual(
      sandbox.catalog.events.filter((e) => e.tags?.includes('crypto')).map((e) => e.id),
    );
    expect(crypto.hasMore).toBe(false);
    const byToken = await client.listMarkets({ clobTokenIds: [no] }).firstPage();
    expect(byToken.items.map((m) => m.id)).toEqual([btc.id]);
    expect((await client.listEvents({ closed: true }).firstPage()).items).toEqual([]);
  });

  it('search, tags and related tags', async () => {
    const found = await client.search({ q: 'bitcoin' }).firstPage();
    expect(found.items.events.map((e) => e.id)).toContain(btc.eventId);
    expect(found.items.tags.map((t) => t.slug)).toContain('bitcoin');
    expect((await client.fetchEventTags({ id: btc.eventId })).map((t) => t.slug)).toEqual(['crypto', 'bitcoin']);
    expect((await client.fetchMarketTags({ id: btc.id })).map((t) => t.slug)).toEqual(['crypto', 'bitcoin']);
    expect((await client.listTags().firstPage()).items.map((t) => t.slug)).toContain('crypto');
    expect((await client.fetchTag({ id: '103' })).slug).toBe('crypto');
    expect((await client.fetchTag({ slug: 'crypto' })).id).toBe('103');
    // Crypto and Bitcoin are filed on the same event; Economy and Fed Rates on another.
    expect((await client.fetchRelatedTags({ id: '103' })).map((r) => [r.tagId, r.relatedTagId, r.rank])).toEqual([
      [103, 104, 1],
    ]);
    expect((await client.fetchRelatedTags({ slug: 'economy' })).map((r) => r.relatedTagId)).toEqual([102]);
    expect((await client.fetchRelatedTagResources({ id: '103' })).map((t) => t.slug)).toEqual(['bitcoin']);
    expect((await client.fetchRelatedTagResources({ slug: 'fed-rates' })).map((t) => t.slug)).toEqual(['economy']);
  });

  it('comments by event, by id and by author; public profiles, with no profile read as null (a 404)', async () => {
    const spec = sandbox.catalog.events.find((e) => e.id === btc.eventId)!;
    const comments = await client
      .listComments({ parentEntityType: 'Event' as never, parentEntityId: btc.eventId as never })
      .firstPage();
    expect(comments.items.map((c) => c.body).sort()).toEqual(spec.comments.map((c) => c.text).sort());
    const first = comments.items[0]!;
    expect((await client.fetchCommentsById({ id: first.id })).map((c) => c.id)).toEqual([first.id]);
    const byAuthor = await client.listCommentsByUserAddress({ address: first.profile!.wallet! }).firstPage();
    expect(byAuthor.items.map((c) => c.id)).toContain(first.id);
    expect(byAuthor.items.every((c) => c.profile?.name === first.profile?.name)).toBe(true);
    expect(await client.fetchPublicProfile({ address: taker.address })).toMatchObject({ name: 'sandbox-trader-1' });
    expect(await client.fetchPublicProfile({ address: Wallet.createRandom().address })).toBeNull();
  });

  it('sports, series, teams and clarifications: the honest empty answers', async () => {
    expect(await client.listSports()).toEqual([]);
    expect(await client.fetchSportsMarketTypes()).toEqual({ marketTypes: [] });
    expect((await client.listSeries().firstPage()).items).toEqual([]);
    expect((await client.listTeams().firstPage()).items).toEqual([]);
    expect((await client.listMarketClarifications({ marketId: btc.id } as never).firstPage()).items).toEqual([]);
    expect(await rejection(client.fetchSeries({ id: '1' }))).toMatchObject({ name: 'RequestRejectedError' });
  });
});

describe('@polymarket/client 0.2.0 reads the sandbox’s Data API', () => {
  it('positions, closed positions, activity, trades, value and markets traded, from the chain and the exchange', async () => {
    const positions = (await client.listPositions({ user: taker.address }).firstPage()).items;
    expect(positions.map((p) => [p.tokenId, num(p.size), num(p.avgPrice)])).toEqual([[yes, 5, 0.4]]);
    expect((await client.listPositions({ user: closer.address }).firstPage()).items).toEqual([]);
    const closed = (await client.listClosedPositions({ user: closer.address }).firstPage()).items;
    expect(
      closed.map((c) => [c.tokenId, c.conditionId, num(c.avgPrice), num(c.totalBought), num(c.realizedPnl)]),
    ).toEqual([[yes, btc.conditionId, 0.4, 5, -0.5]]);
    expect((await client.listClosedPositions({ user: taker.address }).firstPage()).items).toEqual([]);
    const activity = (await client.listActivity({ user: closer.address }).firstPage()).items;
    expect(
      activity.map((a) => (a.type === 'TRADE' ? [a.type, a.side, num(a.price), num(a.shares)] : [a.type])),
    ).toEqual([
      ['TRADE', 'SELL', 0.3, 5],
      ['TRADE', 'BUY', 0.4, 5],
    ]);
    const trades = (await client.listTrades({ user: taker.address }).firstPage()).items;
    expect(trades.map((t) => [t.side, t.tokenId, num(t.price), num(t.size)])).toEqual([['BUY', yes, 0.4, 5]]);
    const [value] = await client.fetchPortfolioValue({ user: taker.address });
    expect(num(value!.value)).toBeCloseTo(5 * num(positions[0]!.curPrice), 6);
    expect(await client.fetchTradedMarketCount({ user: closer.address })).toMatchObject({ traded: 1 });
  });

  it('holders, open interest, live volume, the leaderboard and market positions', async () => {
    const holders = await client.listMarketHolders({ market: [btc.conditionId] });
    const yesHolders = holders.find((h) => h.token === yes)!.holders!;
    expect(yesHolders.map((h) => [h.wallet, num(h.amount)]).sort()).toEqual(
      [
        [taker.address, 5],
        [bidder.address, 5],
      ].sort(),
    );
    // Open interest: the complete sets outstanding, 10 YES shares held (and 10 NO, the maker's).
    expect((await client.listOpenInterest({ market: [btc.conditionId] })).map((o) => [o.market, num(o.value)])).toEqual(
      [[btc.conditionId, 10]],
    );
    const gammaEvent = (await (await fetch(`${sandbox.profile.gammaUrl}/events/${btc.eventId}`)).json()) as {
      volume: number;
    };
    const [live] = await client.fetchEventLiveVolume({ id: btc.eventId });
    expect(num(live!.total)).toBe(gammaEvent.volume);
    expect(live!.markets!.map((m) => m.market)).toEqual([btc.conditionId]);
    const board = (await client.listTraderLeaderboard({ timePeriod: 'ALL', orderBy: 'VOL' }).firstPage()).items;
    expect(board.map((r) => r.wallet)).toEqual(
      expect.arrayContaining([taker.address, maker.address, bidder.address, closer.address]),
    );
    const closerRow = board.find((r) => r.wallet === closer.address)!;
    expect([num(closerRow.vol), num(closerRow.pnl)]).toEqual([3.5, -0.5]);
    expect(board.map((r) => r.rank)).toEqual(board.map((_, i) => String(i + 1)));
    const positions = (await client.listMarketPositions({ market: btc.conditionId }).firstPage()).items;
    expect(positions.map((p) => p.token)).toEqual([yes, no]);
    const closerPosition = positions[0]!.positions!.find((p) => p.wallet === closer.address)!;
    expect([num(closerPosition.size), num(closerPosition.realizedPnl)]).toEqual([0, -0.5]);
    expect(positions[1]!.positions!.map((p) => [p.wallet, num(p.size)])).toEqual([[maker.address, 10]]);
  });
});

describe('@polymarket/client 0.2.0 reads the sandbox’s CLOB', () => {
  it('books, prices, midpoints and spreads, equal to the exchange’s book', async () => {
    const book = await client.fetchOrderBook({ tokenId: yes });
    const exchange = sandbox.clob.book(yes)!;
    expect(book.bids.map((l) => [l.price, l.size])).toEqual(exchange.bids.map((l) => [l.price, l.size]));
    expect(book.asks.map((l) => [l.price, l.size])).toEqual(exchange.asks.map((l) => [l.price, l.size]));
    expect([book.bids.at(-1)?.price, book.asks.at(-1)?.price]).toEqual(['0.3', '0.4']);
    const books = await client.fetchOrderBooks([{ tokenId: yes }, { tokenId: no }]);
    expect(books.map((b) => b.tokenId)).toEqual([yes, no]);
    expect(num(await client.fetchMidpoint({ tokenId: yes }))).toBe(0.35);
    expect(Object.values(await client.fetchMidpoints([{ tokenId: yes }])).map(num)).toEqual([0.35]);
    expect(num(await client.fetchPrice({ tokenId: yes, side: 'BUY' as never }))).toBe(0.3);
    expect(Object.keys(await client.fetchPrices([{ tokenId: yes, side: 'SELL' as never }]))).toEqual([yes]);
    expect(num(await client.fetchSpread({ tokenId: yes }))).toBeCloseTo(0.1, 9);
    expect(Object.values(await client.fetchSpreads([{ tokenId: yes }])).map(num)).toEqual([expect.closeTo(0.1, 9)]);
  });

  it('the last trade with its side, price history and market terms', async () => {
    // The last trade sold YES at 0.30; seen from NO it was a buy at 0.70.
    expect(await client.fetchLastTradePrice({ tokenId: yes })).toEqual({ price: '0.3', side: 'SELL' });
    expect(await client.fetchLastTradePrices([{ tokenId: yes }, { tokenId: no }])).toEqual([
      { tokenId: yes, price: '0.3', side: 'SELL' },
      { tokenId: no, price: '0.7', side: 'BUY' },
    ]);
    // A market nobody traded on the exchange: its last generated fill, with the side the price move says.
    const untraded = await client.fetchLastTradePrice({ tokenId: fed.tokens[0].tokenId });
    expect(num(untraded.price)).toBe(sandbox.marketData.lastTradePrice(fed.tokens[0].tokenId));
    expect(['BUY', 'SELL']).toContain(untraded.side);
    const history = await client.fetchPriceHistory({ tokenId: yes, interval: '1d' as never });
    expect(history.length).toBeGreaterThan(0);
    expect(num(await fetchTickSize(client, { tokenId: yes }))).toBe(Number(btc.tickSize));
    expect(await fetchNegRisk(client, { tokenId: fed.tokens[0].tokenId })).toBe(true);
    const info = await fetchMarketInfo(client, { conditionId: btc.conditionId });
    expect(JSON.stringify(info)).toContain(yes);
    expect(JSON.stringify(await resolveConditionByToken(client, { tokenId: no }))).toContain(btc.conditionId);
    // The sandbox runs no rewards programme and no builder fees: empty, well-formed answers.
    expect((await listCurrentRewards(client).firstPage()).items).toEqual([]);
    expect((await listMarketRewards(client, { conditionId: btc.conditionId as never }).firstPage()).items).toEqual([]);
    await fetchBuilderFeeRates(client, { builderCode: `0x${'ab'.repeat(32)}` as never });
  });

  it('the market WebSocket: the book on subscribing, then a trade as it happens', async () => {
    const subscription = await client.subscribe([{ topic: 'market', tokenIds: [yes] }]);
    try {
      const events = subscription[Symbol.asyncIterator]();
      const first = (await events.next()).value as {
        type: string;
        payload: { tokenId: string; bids: { price: string }[] };
      };
      expect(first.type).toBe('book');
      expect(first.payload.tokenId).toBe(yes);
      expect(first.payload.bids.map((l) => l.price)).toEqual(sandbox.clob.book(yes)!.bids.map((l) => l.price));
      await postOrder(sb, taker, limitOrder(yes, 'BUY', 0.4, 5));
      const seen: string[] = [];
      for (let i = 0; i < 20 && !seen.includes('last_trade_price'); i++)
        seen.push(((await events.next()).value as { type: string }).type);
      expect(seen).toContain('last_trade_price');
    } finally {
      await subscription.close();
    }
  });
});

describe('PM Desk’s direct source reads the same answers', () => {
  it('Gamma: events, markets, search, comments and profiles', async () => {
    const gamma = new GammaClient({ baseUrl: sandbox.profile.gammaUrl });
    const ours = await gamma.getMarket(btc.id);
    const theirs = await client.fetchMarket({ id: btc.id });
    expect(ours.clobTokenIds).toEqual([theirs.outcomes.yes.tokenId, theirs.outcomes.no.tokenId]);
    expect(ours.conditionId).toBe(theirs.conditionId);
    expect((await gamma.getMarketBySlug(btc.slug)).id).toBe(theirs.id);
    const event = await gamma.getEvent(btc.eventId);
    expect(event.markets!.map((m) => m.id)).toEqual(
      (await client.fetchEvent({ id: btc.eventId })).markets.map((m) => m.id),
    );
    expect((await gamma.getEventBySlug(event.slug!)).id).toBe(btc.eventId);
    const search = await gamma.searchPage('bitcoin');
    expect(search.events?.map((e) => e.id)).toEqual(
      (await client.search({ q: 'bitcoin' }).firstPage()).items.events.map((e) => e.id),
    );
    const comments = await gamma.listEventComments(btc.eventId);
    expect(comments.map((c) => c.id)).toEqual(
      (
        await client
          .listComments({ parentEntityType: 'Event' as never, parentEntityId: btc.eventId as never })
          .firstPage()
      ).items.map((c) => c.id),
    );
    expect(await gamma.getPublicProfile(Wallet.createRandom().address)).toBeNull();
    expect((await gamma.getPublicProfile(taker.address))?.name).toBe('sandbox-trader-1');
  });

  it('Data API and CLOB: positions, trades, activity, value, books and the last trade', async () => {
    const data = new DataClient({ baseUrl: sandbox.profile.dataUrl });
    const positions = await data.getPositions(taker.address);
    const theirs = (await client.listPositions({ user: taker.address }).firstPage()).items;
    expect(positions.map((p) => [p.asset, Number(p.size)])).toEqual(theirs.map((p) => [p.tokenId, num(p.size)]));
    const trades = await data.getTrades({ user: closer.address });
    expect(trades.map((t) => [t.side, Number(t.price)])).toEqual(
      (await client.listTrades({ user: closer.address }).firstPage()).items.map((t) => [t.side, num(t.price)]),
    );
    expect((await data.getActivity(closer.address)).length).toBe(2);
    expect(await data.getValue(taker.address)).toBeCloseTo(
      num((await client.fetchPortfolioValue({ user: taker.address }))[0]!.value),
      6,
    );
    expect(await data.getMarketsTraded(closer.address)).toBe(1);
    const book = await new ClobPublicReads({ baseUrl: sandbox.profile.clobUrl }).getBook(yes);
    const official = await client.fetchOrderBook({ tokenId: yes });
    expect(book.bids.map((l) => [String(l.price), String(l.size)])).toEqual(
      official.bids.map((l) => [l.price, l.size]),
    );
    const exchange = new ClobClient({ host: sandbox.profile.clobUrl, chainId: sandbox.deployment.chainId });
    expect(await exchange.getLastTradePrice(yes)).toMatchObject(await client.fetchLastTradePrice({ tokenId: yes }));
  });
});

describe('@polymarket/client 0.2.0 reads a resolved market', () => {
  it('as closed and resolved, with the winner’s redeemed shares in the holder’s closed positions', async () => {
    const weather = sandbox.catalog.market('90051')!;
    const [wYes, wNo] = weather.tokens.map((t) => t.tokenId) as [string, string];
    const provider = sandboxProvider(sandbox.deployment.rpcUrl, sandbox.deployment.chainId);
    try {
      const [seller, winner] = [1, 4].map((i) => new Wallet(sandbox.profile.testWallets[i]!.privateKey, provider)) as [
        Wallet,
        Wallet,
      ];
      // The winner buys 10 Yes at 0.30 from a No bid at 0.70; Yes wins; the winner redeems on the chain.
      await postOrder(sb, seller, limitOrder(wNo, 'BUY', 0.7, 10));
      await postOrder(sb, winner, limitOrder(wYes, 'BUY', 0.3, 10));
      await settled(winner, 1);
      await sandbox.resolveMarket(weather.id, 0);
      const ctf = new Contract(sandbox.deployment.contracts.conditionalTokens, conditionalTokensArtifact().abi, winner);
      await mined(
        ctf.getFunction('redeemPositions')(
          sandbox.deployment.contracts.collateral,
          ZeroHash,
          weather.conditionId,
          [1, 2],
          TX_OVERRIDES,
        ),
      );

      const market = await client.fetchMarket({ id: weather.id });
      expect(market.state).toMatchObject({ closed: true, acceptingOrders: false });
      expect(market.resolution.umaResolutionStatus).toBe('resolved');
      expect([market.outcomes.yes.price, market.outcomes.no.price]).toEqual(['1', '0']);
      const closedEvents = await client.listEvents({ closed: true }).firstPage();
      expect(closedEvents.items.map((e) => e.id)).toEqual([weather.eventId]);
      expect((await client.listMarkets({ closed: true }).firstPage()).items.map((m) => m.id)).toEqual([weather.id]);

      expect((await client.listPositions({ user: winner.address }).firstPage()).items).toEqual([]);
      const closed = (await client.listClosedPositions({ user: winner.address }).firstPage()).items;
      expect(closed.map((c) => [c.tokenId, num(c.avgPrice), num(c.realizedPnl), num(c.curPrice)])).toEqual([
        [wYes, 0.3, 7, 1],
      ]);
      // The loser has not redeemed: a redeemable position worth nothing, not a closed one.
      const loser = (await client.listPositions({ user: seller.address, market: [weather.conditionId] }).firstPage())
        .items;
      expect(loser.map((p) => [p.tokenId, num(p.size), num(p.curPrice), p.redeemable])).toEqual([[wNo, 10, 0, true]]);
      expect(
        (await client.listClosedPositions({ user: seller.address, market: [weather.conditionId] }).firstPage()).items,
      ).toEqual([]);
      expect(await client.fetchLastTradePrice({ tokenId: wYes })).toEqual({ price: '0.3', side: 'BUY' });
      // The redemption is in the winner's activity with what the chain paid, beside the trade.
      const activity = (await client.listActivity({ user: winner.address }).firstPage()).items;
      expect(activity.map((a) => [a.type, num(a.amount)])).toEqual([
        ['REDEEM', 10],
        ['TRADE', 3],
      ]);
      const redeemOnly = (await client.listActivity({ user: winner.address, type: ['REDEEM' as never] }).firstPage())
        .items;
      expect(redeemOnly.map((a) => a.type)).toEqual(['REDEEM']);
    } finally {
      provider.destroy();
    }
  });
});

/** The files of a stored ZIP (what the sandbox's accounting snapshot is), read from its local headers. */
function unzipStored(zip: Buffer): Map<string, string> {
  const files = new Map<string, string>();
  for (let at = 0; zip.readUInt32LE(at) === 0x04034b50;) {
    const size = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const extra = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 30, at + 30 + nameLength);
    const start = at + 30 + nameLength + extra;
    files.set(name, zip.toString('utf8', start, start + size));
    at = start + size;
  }
  return files;
}

describe('@polymarket/client 0.2.0 reads splits, merges and the accounting snapshot', () => {
  it('activity of every type the chain records, filtered by type and time; merged outcomes as closed positions', async () => {
    const provider = sandboxProvider(sandbox.deployment.rpcUrl, sandbox.deployment.chainId);
    try {
      // The bidder (who bought Yes of the bitcoin market) splits and merges in another market.
      const splitter = new Wallet(sandbox.profile.testWallets[2]!.privateKey, provider);
      const market = sandbox.catalog.market('90031')!;
      const [mYes, mNo] = market.tokens.map((t) => t.tokenId) as [string, string];
      const ctf = new Contract(
        sandbox.deployment.contracts.conditionalTokens,
        conditionalTokensArtifact().abi,
        splitter,
      );
      const collateral = sandbox.deployment.contracts.collateral;
      await mined(
        ctf.getFunction('splitPosition')(collateral, ZeroHash, market.conditionId, [1, 2], 10_000_000n, TX_OVERRIDES),
      );
      await mined(
        ctf.getFunction('mergePositions')(collateral, ZeroHash, market.conditionId, [1, 2], 4_000_000n, TX_OVERRIDES),
      );

      const all = (
        await client.listActivity({ user: splitter.address, type: ['SPLIT', 'MERGE'] as never[] }).firstPage()
      ).items;
      expect(all.map((a) => [a.type, num(a.amount)])).toEqual([
        ['MERGE', 4],
        ['SPLIT', 10],
      ]);
      expect(all.every((a) => a.type !== 'TRADE' && 'conditionId' in a && a.conditionId === market.conditionId)).toBe(
        true,
      );
      const merges = (await client.listActivity({ user: splitter.address, type: ['MERGE' as never] }).firstPage())
        .items;
      expect(merges.map((a) => a.type)).toEqual(['MERGE']);
      // A side filter keeps trades only; a market filter keeps that market's rows.
      const buys = (await client.listActivity({ user: splitter.address, side: 'BUY' as never }).firstPage()).items;
      expect(buys.map((a) => a.type)).toEqual(['TRADE']);
      const inMarket = (await client.listActivity({ user: splitter.address, market: [market.conditionId] }).firstPage())
        .items;
      expect(inMarket.map((a) => a.type)).toEqual(['MERGE', 'SPLIT']);
      // The time filters, in the chain's block seconds.
      const splitAt = (await new DataClient({ baseUrl: sandbox.profile.dataUrl }).getActivity(splitter.address)).find(
        (a) => a.type === 'SPLIT',
      )!.timestamp;
      const kinds = ['SPLIT', 'MERGE'] as never[];
      expect(
        (await client.listActivity({ user: splitter.address, type: kinds, end: splitAt - 1 }).firstPage()).items,
      ).toEqual([]);
      expect(
        (await client.listActivity({ user: splitter.address, type: kinds, start: splitAt }).firstPage()).items,
      ).toHaveLength(2);
      const ours = await new DataClient({ baseUrl: sandbox.profile.dataUrl }).getActivity(splitter.address);
      expect(ours.filter((a) => a.type !== 'TRADE').map((a) => [a.type, a.usdcSize, a.size])).toEqual([
        ['MERGE', 4, 4],
        ['SPLIT', 10, 10],
      ]);

      // Merging the rest closes both outcomes: bought at 0.50 by the split, returned at 0.50 by the merges.
      await mined(
        ctf.getFunction('mergePositions')(collateral, ZeroHash, market.conditionId, [1, 2], 6_000_000n, TX_OVERRIDES),
      );
      const closed = (
        await client.listClosedPositions({ user: splitter.address, market: [market.conditionId] }).firstPage()
      ).items;
      expect(closed.map((c) => [c.tokenId, num(c.totalBought), num(c.avgPrice), num(c.realizedPnl)]).sort()).toEqual(
        [
          [mYes, 10, 0.5, 0],
          [mNo, 10, 0.5, 0],
        ].sort(),
      );
    } finally {
      provider.destroy();
    }
  });

  it('conversions on the neg-risk adapter as CONVERSION rows: the No given with the collateral, the Yes received', async () => {
    const provider = sandboxProvider(sandbox.deployment.rpcUrl, sandbox.deployment.chainId);
    try {
      const converter = new Wallet(sandbox.profile.testWallets[3]!.privateKey, provider);
      const questions = sandbox.catalog.events.find(
        (e) => e.markets.length > 2 && e.markets.every((m) => m.negRiskEvent),
      )!.markets;
      const adapter = new Contract(
        sandbox.deployment.contracts.negRiskAdapter,
        [
          'function splitPosition(address, bytes32, bytes32, uint256[], uint256)',
          'function convertPositions(bytes32 marketId, uint256 indexSet, uint256 amount)',
        ],
        converter,
      );
      const pusd = sandbox.deployment.contracts.collateral;
      for (const q of questions.slice(0, 2))
        await mined(
          adapter.getFunction('splitPosition')(pusd, ZeroHash, q.conditionId, [1, 2], 5_000_000n, TX_OVERRIDES),
        );
      // 2 No of the first two questions become 2 Yes of the third and (2 − 1) × 2 = $2 (the event charges no fee).
      await mined(
        adapter.getFunction('convertPositions')(questions[0]!.negRiskEvent!.marketId, 0b11n, 2_000_000n, TX_OVERRIDES),
      );

      const rows = (await client.listActivity({ user: converter.address, type: ['CONVERSION' as never] }).firstPage())
        .items;
      expect(rows.map((a) => (a.type === 'CONVERSION' ? [a.conditionId, num(a.amount)] : [a.type])).sort()).toEqual(
        [
          [questions[0]!.conditionId, 1],
          [questions[1]!.conditionId, 1],
          [questions[2]!.conditionId, 0],
        ].sort(),
      );
      const ours = (await new DataClient({ baseUrl: sandbox.profile.dataUrl }).getActivity(converter.address))
        .filter((a) => a.type === 'CONVERSION')
        .map((a) => [a.asset, a.side, a.size, a.usdcSize]);
      expect(ours.sort()).toEqual(
        [
          [questions[0]!.tokens[1].tokenId, 'SELL', 2, 1],
          [questions[1]!.tokens[1].tokenId, 'SELL', 2, 1],
          [questions[2]!.tokens[0].tokenId, 'BUY', 2, 0],
        ].sort(),
      );
      // The book: the No given leave their lots as converted, the Yes received enter at zero cost.
      const activity = (await new DataClient({ baseUrl: sandbox.profile.dataUrl }).getActivity(converter.address)).map(
        toTraderActivity,
      );
      const book = buildPortfolio(ledgerEntries(activity.filter((a) => a.conditionId !== btc.conditionId)).entries, {
        address: converter.address,
      });
      const held = (i: number, outcome: number) =>
        book.open.find((p) => p.conditionId === questions[i]!.conditionId && p.outcomeIndex === outcome);
      expect(held(0, 1)).toMatchObject({ shares: 3_000_000n, cost: 1_500_000n, realizedPnl: 0n });
      expect(held(2, 0)).toMatchObject({ shares: 2_000_000n, cost: 0n });
      expect(book.totals.realized).toBe(0n);
    } finally {
      provider.destroy();
    }
  });

  it('downloadAccountingSnapshot: a ZIP of positions.csv and equity.csv from the same positions and value', async () => {
    const blob = await client.downloadAccountingSnapshot({ user: taker.address });
    const files = unzipStored(Buffer.from(await blob.arrayBuffer()));
    expect([...files.keys()]).toEqual(['positions.csv', 'equity.csv']);
    const positions = files.get('positions.csv')!.trim().split('\r\n');
    expect(positions[0]).toBe(
      'status,conditionId,asset,title,outcome,size,avgPrice,curPrice,initialValue,currentValue,cashPnl,realizedPnl',
    );
    expect(positions.slice(1).map((l) => l.split(',').slice(0, 3))).toEqual([['OPEN', btc.conditionId, yes]]);
    const [value] = await client.fetchPortfolioValue({ user: taker.address });
    const equity = files.get('equity.csv')!.trim().split('\r\n');
    expect(num(equity[1]!.split(',')[1])).toBeCloseTo(num(value!.value), 6);
  });
});
