// Polymarket direct (PolymarketSource) read against the sandbox's own Gamma, Data API, CLOB and real-time feed,
// every call of the MarketSource interface, and compared with the aggregator source over the same sandbox: the
// same markets, token ids, trading rules and books; a real trade on the sandbox exchange in the trader's
// activity, trades, positions and the market's fills; the live stream hears it through the real-time feed, and
// polls the Data API (saying so) while the feed refuses.
import type { ApiNotice } from '../../packages/toolkit/src/http/answer-headers';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import type { CatalogMarket } from '../../sandbox/market/catalog';
import { createMarketSource } from '../../packages/toolkit/src/sources/create';
import type { MarketSource } from '../../packages/toolkit/src/model/market-source';
import type { TradeRecord } from '../../packages/toolkit/src/model/market-model';
import { limitOrder, postOrder, type ClobSandbox } from '../helpers/sandbox-clob';
import { PolymarketSource } from '../../packages/toolkit/src/polymarket/source';

/** Waits on the real clock (the sources' own timers run for real here). */
async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let sandbox: RunningSandbox;
let direct: MarketSource;
let aggregator: MarketSource;
let sb: ClobSandbox;
let btc: CatalogMarket;
let taker: Wallet;
let maker: Wallet;
/** What the direct source was told about the APIs: nothing, while the sandbox serves the keyset lists. */
const heard: ApiNotice[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 }, simulate: 'off', seed: 11 });
  const p = sandbox.profile;
  direct = createMarketSource(
    { source: 'polymarket', gammaUrl: p.gammaUrl, dataUrl: p.dataUrl, clobUrl: p.clobUrl, rtdsUrl: p.rtdsUrl },
    { timeoutMs: 10_000, onNotice: (notice) => heard.push(notice) },
  );
  aggregator = createMarketSource(
    { source: 'aggregator', aggregatorUrl: p.aggregatorUrl, sseUrl: p.sseUrl },
    { timeoutMs: 10_000 },
  );
  sb = { chain: sandbox.deployment, server: sandbox.clob } as unknown as ClobSandbox;
  btc = sandbox.catalog.market('90021')!;
  [taker, maker] = p.testWallets.map((w) => new Wallet(w.privateKey)) as [Wallet, Wallet];
  // A resting YES ask at 0.40 (a NO bid at 0.60) for the trade the tests take.
  await postOrder(sb, maker, limitOrder(btc.tokens[1].tokenId, 'BUY', 0.6, 20));
}, 90_000);
afterAll(() => sandbox?.stop());

describe('Polymarket direct on the sandbox, next to the aggregator', () => {
  it('lists, finds and searches the same events and markets, with the same token ids and trading rules', async () => {
    const [mine, theirs] = await Promise.all([direct.listEvents({ limit: 50 }), aggregator.listEvents({ limit: 50 })]);
    expect(mine.map((e) => e.id).sort()).toEqual(theirs.map((e) => e.id).sort());
    const negRisk = mine.find((e) => e.neg_risk)!;
    expect(negRisk.markets.length).toBeGreaterThan(1);

    const [a, b] = await Promise.all([
      direct.getMarket('polymarket', btc.id),
      aggregator.getMarket('polymarket', btc.id),
    ]);
    for (const field of [
      'conditionId',
      'minimum_tick_size',
      'minimum_order_size',
      'neg_risk',
      'accepting_orders',
      'closed',
    ] as const)
      expect(a[field], field).toEqual(b[field]);
    expect(a.position_tokens.map((t) => [t.token_id, t.name])).toEqual(
      b.position_tokens.map((t) => [t.token_id, t.name]),
    );

    expect((await direct.getEvent('polymarket', negRisk.id)).markets.map((m) => m.id)).toEqual(
      negRisk.markets.map((m) => m.id),
    );
    expect((await direct.getEventsBySlug(negRisk.slug))[0]!.id).toBe(negRisk.id);
    expect((await direct.getMarketsBySlug(btc.slug))[0]!.id).toBe(btc.id);
    expect((await direct.listSlugs({ limit: 100 })).sort()).toEqual(mine.map((e) => e.slug).sort());
    const hits = await direct.search('bitcoin');
    expect(hits[0]!.event.markets.some((m) => m.id === btc.id)).toBe(true);
    expect((await direct.getEventComments('polymarket', negRisk.id)).length).toBe(
      sandbox.catalog.events.find((e) => e.id === negRisk.id)!.comments.length,
    );
    // Paging and sorting as Gamma does them: the second page continues the first.
    const [first, second] = [
      await direct.listEvents({ limit: 2, order: 'volume' }),
      await direct.listEvents({ limit: 2, offset: 2, order: 'volume' }),
    ];
    expect(new Set([...first, ...second].map((e) => e.id)).size).toBe(4);
    // Every list above went through /events/keyset: no fallback, no deprecated endpoint heard.
    expect(heard).toEqual([]);
  });

  it('falls back to the deprecated offset list when the keyset lists answer 404, and says so', async () => {
    const p = sandbox.profile;
    const notices: ApiNotice[] = [];
    const fallback = createMarketSource(
      { source: 'polymarket', gammaUrl: p.gammaUrl, dataUrl: p.dataUrl, clobUrl: p.clobUrl },
      { timeoutMs: 10_000, onNotice: (n) => notices.push(n) },
    );
    const keyset = await direct.listEvents({ limit: 3, offset: 1, order: 'volume' });
    sandbox.polymarket.keysetLists(false);
    try {
      const offset = await fallback.listEvents({ limit: 3, offset: 1, order: 'volume' });
      expect(offset.map((e) => e.id)).toEqual(keyset.map((e) => e.id));
    } finally {
      sandbox.polymarket.keysetLists(true);
    }
    expect(notices.map((n) => [n.kind, n.endpoint])).toEqual([
      ['fallback', 'GET /events/keyset'],
      ['deprecated', 'GET /events'],
    ]);
  });

  it('reads the same books as the exchange and a chart from the price history', async () => {
    const [mine, theirs] = await Promise.all([
      direct.getOrderBooks('polymarket', btc.id),
      aggregator.getOrderBooks('polymarket', btc.id),
    ]);
    expect(Object.keys(mine).sort()).toEqual(Object.keys(theirs).sort());
    const yes = mine[btc.tokens[0].tokenId]!;
    expect(yes.asks.some((l) => l.price === 0.4 && l.size === 20)).toBe(true);
    const candles = await direct.getCandles('polymarket', btc.id, 0, '1h');
    expect(candles.length).toBeGreaterThan(10);
    for (const c of candles)
      expect(c.low <= c.open && c.open <= c.high && c.low <= c.close && c.close <= c.high).toBe(true);
    expect(candles.every((c, i) => i === 0 || c.time > candles[i - 1]!.time)).toBe(true);
    // Minute candles too (the chart's 1H range): a fill two minutes ago is its minute's candle on both sources.
    const at = Math.floor(Date.now() / 1000) - 120;
    sandbox.marketData.recordFill(btc.tokens[0].tokenId, { price: 0.33, volumeBase: 4, timestamp: at });
    const minute = Math.floor(at / 60) * 60;
    for (const source of [direct, aggregator]) {
      const minutes = await source.getCandles('polymarket', btc.id, 0, '1m');
      expect(minutes.every((c, i) => c.time % 60 === 0 && (i === 0 || c.time > minutes[i - 1]!.time))).toBe(true);
      expect(minutes.find((c) => c.time === minute)).toMatchObject({ close: 0.33 });
    }
  });

  it("hears a real trade live, then finds it in the market's fills and the trader's activity, trades and positions", async () => {
    const fills: TradeRecord[] = [];
    const modes: string[] = [];
    const stream = direct.subscribeToFills('polymarket', btc.id, {
      onFill: (f) => fills.push(f),
      onMode: (m) => modes.push(m),
    });
    await until(() => stream.state === 'open', 10_000);
    // The taker buys 10 YES at 0.40 against the resting ask.
    await postOrder(sb, taker, limitOrder(btc.tokens[0].tokenId, 'BUY', 0.4, 10));
    await until(() => fills.length > 0, 15_000);
    stream.close();
    expect(modes[0]).toBe('live');
    expect(fills[0]).toMatchObject({ price: 0.4, volumeBase: 10, side: 'BUY', trader: taker.address });
    expect(fills[0]!.transactionHash).toMatch(/^0x[0-9a-f]{64}$/);

    const history = await direct.getFillHistory('polymarket', btc.id);
    expect(history[0]!.some((f) => f.price === 0.4 && f.volumeBase === 10 && f.trader === taker.address)).toBe(true);
    const activity = await direct.getTraderActivity(taker.address);
    expect(activity[0]).toMatchObject({
      type: 'TRADE',
      side: 'BUY',
      size: 10,
      price: 0.4,
      conditionId: btc.conditionId,
      tokenId: btc.tokens[0].tokenId,
    });
    const trades = await direct.getTraderTrades(taker.address);
    expect(trades[0]).toMatchObject({ trader: taker.address, side: 'BUY', size: 10, price: 0.4 });
    const positions = await direct.getTraderPositions('polymarket', taker.address);
    expect(positions.find((p) => p.tokenId === btc.tokens[0].tokenId)).toMatchObject({ size: 10, outcome: 'Yes' });
    const trader = await direct.getTrader('polymarket', taker.address);
    expect(trader.user.tradingWallet.toLowerCase()).toBe(taker.address.toLowerCase());
    expect(trader.stats.marketsTraded).toBe(1);
    // The aggregator has no trader activity: it says so rather than answering empty.
    await expect(aggregator.getTraderActivity(taker.address)).rejects.toMatchObject({ code: 'ERR_NOT_AVAILABLE' });
  });

  it('polls the Data API, and says so, while the real-time feed refuses; goes live again when it answers', async () => {
    const p = sandbox.profile;
    // Polling and the feed's retry made quick, so the test waits seconds, not Polymarket-friendly minutes.
    const fast = new PolymarketSource({
      gammaUrl: p.gammaUrl,
      dataUrl: p.dataUrl,
      clobUrl: p.clobUrl,
      rtdsUrl: p.rtdsUrl,
      timeoutMs: 10_000,
      timing: { pollMs: 300, rtdsRetryMs: 500, rtdsOpenTimeoutMs: 2_000 },
    });
    sandbox.polymarket.rtdsFaults().refuse(true);
    const modes: string[] = [];
    const fills: TradeRecord[] = [];
    const stream = fast.subscribeToFills('polymarket', btc.id, {
      onFill: (f) => fills.push(f),
      onMode: (m) => modes.push(m),
    });
    await until(() => modes.includes('polling'), 20_000);
    await postOrder(sb, maker, limitOrder(btc.tokens[1].tokenId, 'BUY', 0.6, 5));
    await postOrder(sb, taker, limitOrder(btc.tokens[0].tokenId, 'BUY', 0.4, 5));
    await until(() => fills.some((f) => f.volumeBase === 5), 20_000);
    sandbox.polymarket.rtdsFaults().refuse(false);
    await until(() => modes[modes.length - 1] === 'live', 30_000);
    stream.close();
  });
});
