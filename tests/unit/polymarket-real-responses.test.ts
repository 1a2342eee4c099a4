// Real recorded Polymarket responses (tests/fixtures/polymarket-real, each with its source in SOURCES.md) through
// the direct source's schemas and mappers: every one parses, and the values a trader sees — prices, outcome
// order, token ids, state, timestamps, fees — come out as Polymarket wrote them. Nothing here was written by the
// people who wrote the schemas, so a schema that only agrees with the sandbox fails here.
import { EventEmitter } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { marketState } from '../../packages/toolkit/src/model/market-state';
import { ClobBookSchema, PriceHistorySchema } from '../../packages/toolkit/src/polymarket/clob-schemas';
import {
  DataActivitySchema,
  DataPositionSchema,
  DataTradeSchema,
} from '../../packages/toolkit/src/polymarket/data-schemas';
import {
  GammaCommentSchema,
  GammaEventSchema,
  GammaMarketSchema,
  GammaProfileSchema,
  GammaSearchSchema,
} from '../../packages/toolkit/src/polymarket/gamma-schemas';
import { parseAnswer } from '../../packages/toolkit/src/polymarket/http';
import {
  inFirstOutcome,
  toComment,
  toMarket,
  toMarketTrade,
  toPredictionEvent,
  toTradeRecord,
  toTrader,
  toTraderActivity,
  toTraderPosition,
} from '../../packages/toolkit/src/polymarket/mapping';
import { describeFeeTerms, feeTermsOfClobMarket } from '../../src/main/trading/order-fees';
import {
  MarketFeed,
  type FeedWarning,
  type LastTrade,
  type WebSocketConstructor,
} from '../../src/main/feeds/market-feed';
import { ManualScheduler } from '../../src/main/feeds/scheduler';
import {
  RtdsStream,
  type WebSocketConstructor as RtdsSocketConstructor,
} from '../../packages/toolkit/src/polymarket/rtds';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';

const DIR = join(__dirname, '..', 'fixtures', 'polymarket-real');
const load = (name: string): unknown => JSON.parse(readFileSync(join(DIR, name), 'utf8')) as unknown;

// Xi Jinping out before 2027? (Gamma market 559651): its condition and outcome tokens, as every read of it names them.
const XI_CONDITION = '0xa467b14d51f01b957109d9cbb1d6c124fab2a089d52ed8f471d23c2812e743b7';
const XI_YES = '32338220190071351435772801779725302244575775216413325951443816017994629993401';
const XI_NO = '25659310674993675562345759665114759892400026242514633218387667107987341231962';

describe('the recorded set', () => {
  it('names the source of every response in SOURCES.md', () => {
    const sources = readFileSync(join(DIR, 'SOURCES.md'), 'utf8');
    const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(18);
    for (const file of files) expect(sources, file).toContain(`\`${file}\``);
  });
});

describe('Gamma', () => {
  it("a market with both takerBaseFee and a feeSchedule: outcomes in order, token ids, prices, the schedule's fee, open", () => {
    const market = toMarket(parseAnswer(GammaMarketSchema, load('gamma-market-559651.json'), 'getMarket'));
    expect(market).toMatchObject({
      id: '559651',
      question: 'Xi Jinping out before 2027?',
      conditionId: XI_CONDITION,
      slug: 'xi-jinping-out-before-2027',
      end: '2026-12-31T00:00:00Z',
      version: 'v1',
      minimum_tick_size: '0.001',
      minimum_order_size: 5,
      neg_risk: false,
      accepting_orders: true,
      closed: false,
      bestBid: 0.045,
      bestAsk: 0.046,
      lastTradePrice: 0.045,
      spread: 0.001,
    });
    expect(market.position_tokens).toEqual([
      { token_id: XI_YES, name: 'Yes', price: '0.0455' },
      { token_id: XI_NO, name: 'No', price: '0.9545' },
    ]);
    // takerBaseFee 1000 sits beside the real rate: 4 %, not 10 %.
    expect(market.fees).toEqual({ rate: 0.04, exponent: 1, takerOnly: true });
    expect(marketState(market)).toEqual({ words: 'Open', tone: 'open' });
  });

  it("a multi-outcome neg-risk event: one event, its 17 markets in Gamma's order, each named by its outcome", () => {
    const event = toPredictionEvent(parseAnswer(GammaEventSchema, load('gamma-event-903193-negrisk.json'), 'getEvent'));
    expect(event).toMatchObject({
      id: '903193',
      slug: 'presidential-election-winner-2024',
      title: 'Presidential Election Winner 2024',
      neg_risk: true,
      closed: false,
    });
    expect(event.markets).toHaveLength(17);
    expect(event.markets.slice(0, 3).map((m) => m.name)).toEqual(['Donald Trump', 'Joe Biden', 'Nikki Haley']);
    const [trump] = event.markets;
    expect(trump).toMatchObject({
      id: '253591',
      question: 'Will Donald Trump win the 2024 US Presidential Election?',
      conditionId: '0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917',
      neg_risk: true,
      minimum_tick_size: '0.001',
      minimum_order_size: 5,
      end: '2024-11-05T12:00:00Z',
      bestBid: 0.654,
      bestAsk: 0.655,
    });
    expect(trump!.position_tokens).toEqual([
      {
        token_id: '21742633143463906290569050155826241533067272736897614950488156847949938836455',
        name: 'Yes',
        price: '0.6545',
      },
      {
        token_id: '48331043336612883890938759509493159234755048973500640148014422747788308965732',
        name: 'No',
        price: '0.3455',
      },
    ]);
    expect(event.markets.find((m) => m.name === 'Kamala Harris')?.position_tokens[0]).toMatchObject({
      price: '0.3465',
    });
    // Still trading when recorded: every market open; no fee terms stated, so none is guessed.
    expect(event.markets.every((m) => marketState(m).words === 'Open')).toBe(true);
    expect(trump!.fees).toBeUndefined();
  });

  it('the same event after the vote: every market resolved though Gamma still calls it active, the winner named', () => {
    const event = toPredictionEvent(
      parseAnswer(GammaEventSchema, load('gamma-event-903193-resolved.json'), 'getEvent'),
    );
    expect(event).toMatchObject({ id: '903193', neg_risk: true, closed: true, active: true });
    expect(event.markets).toHaveLength(17);
    const byName = (name: string) => event.markets.find((m) => m.name === name)!;
    expect(byName('Donald Trump')).toMatchObject({
      active: true,
      closed: true,
      accepting_orders: false,
      resolved: true,
      winnerTokenId: '21742633143463906290569050155826241533067272736897614950488156847949938836455',
    });
    expect(marketState(byName('Donald Trump'))).toEqual({ words: 'Resolved: Yes', tone: 'resolved' });
    expect(marketState(byName('Kamala Harris')).words).toBe('Resolved: No');
    expect(event.markets.every((m) => marketState(m).tone === 'resolved')).toBe(true);
  });

  it('a resolved market read on its own: "Resolved: Yes", its final prices 1 and 0, no fee guessed from takerBaseFee 0', () => {
    const market = toMarket(parseAnswer(GammaMarketSchema, load('gamma-market-253591-resolved.json'), 'getMarket'));
    expect(market).toMatchObject({
      id: '253591',
      active: true,
      closed: true,
      accepting_orders: false,
      neg_risk: true,
      lastTradePrice: 1,
    });
    expect(market.position_tokens.map((t) => [t.name, t.price])).toEqual([
      ['Yes', '1'],
      ['No', '0'],
    ]);
    expect(marketState(market).words).toBe('Resolved: Yes');
    expect(market.fees).toBeUndefined();
  });

  it('an event whose single market closed before UMA statuses existed: closed, fee-free, its long-decimal prices kept', () => {
    const event = toPredictionEvent(parseAnswer(GammaEventSchema, load('gamma-event-2890.json'), 'getEvent'));
    expect(event).toMatchObject({ id: '2890', closed: true, active: true, volume: 1335.05, liquidity: 0 });
    expect(event.markets).toHaveLength(1);
    const [market] = event.markets;
    expect(market).toMatchObject({
      id: '239826',
      conditionId: '0x064d33e3f5703792aafa92bfb0ee10e08f461b1b34c02c1f02671892ede1609a',
      closed: true,
      active: true,
    });
    expect(market!.position_tokens.map((t) => [t.name, t.token_id, t.price])).toEqual([
      [
        'Yes',
        '28182404005967940652495463228537840901055649726248190462854914416579180110833',
        '0.0000004113679809846114013590098187297978',
      ],
      [
        'No',
        '47044845753450022047436429968808601130811164131571549682541703866165095016290',
        '0.9999995886320190153885986409901813',
      ],
    ]);
    expect(market!.fees).toEqual({ rate: 0, exponent: 1, takerOnly: true });
    // Gamma still says active; the market is closed and names no resolution status, so it reads as closed.
    expect(marketState(market!).words).toBe('Closed — awaiting resolution');
  });

  it('a comment: its author by profile name and trading wallet, its text and time', () => {
    const comment = toComment(parseAnswer(GammaCommentSchema, load('gamma-comment-903193.json'), 'getEventComments'));
    expect(comment).toMatchObject({
      id: '3078242',
      content: 'Top holders - guy #1 who lost 1.2m$ will be dead already',
      pseudonym: 'Vibrant-Headache',
      baseAddress: '0xc8510cb479c8305212f519fd990fd160279ef470',
      createdAt: '2026-06-22T22:11:51.597936Z',
      parent_comment_id: null,
      reactionCount: 0,
    });
  });

  it('a search answer whose events list is empty still parses, with its profiles and pagination', () => {
    const search = parseAnswer(GammaSearchSchema, load('gamma-search.json'), 'search');
    expect(search.events).toEqual([]);
    expect(search.pagination).toMatchObject({ hasMore: true, totalResults: 3833 });
    expect(search.profiles?.[0]).toMatchObject({
      pseudonym: 'Unlucky-Lid',
      proxyWallet: '0x455d126afb13bcb59e386a0d59208ac83c35c04b',
    });
  });

  it('a search whose profiles hold a JSON null (as Polymarket sends it) parses; the null is skipped', () => {
    const search = parseAnswer(GammaSearchSchema, load('gamma-search-profiles-sports.json'), 'search');
    expect(search.pagination).toMatchObject({ hasMore: true, totalResults: 118968 });
    expect(search.profiles).toHaveLength(19);
    expect(search.profiles?.[12]).toMatchObject({
      name: 'Sports-Xr',
      proxyWallet: '0x9065bbeddc5f9de0a3e9561fe2ccd8fd81e53275',
    });
  });

  it("a reply with its author's holdings: thread parent, author wallet, positions by token, reactions counted", () => {
    const comment = toComment(
      parseAnswer(GammaCommentSchema, load('gamma-comment-reply-45915.json'), 'getEventComments'),
    );
    expect(comment).toMatchObject({
      id: '3218542',
      parent_comment_id: '3218360',
      name: 'h0ip0ll0i',
      pseudonym: '',
      baseAddress: '0x95bac246a983529e6a57feae41ecc028357d3a5c',
      createdAt: '2026-08-18T22:56:51.490062Z',
      reactionCount: 1,
    });
    expect(comment.content).toMatch(/^Marçal é arriscado demais/);
    expect(comment.positions).toEqual([
      {
        position: '30630994248667897740988010928640156931882346081873066002335460180076741328029',
        positionSize: '290001537',
        marketId: '',
      },
      {
        position: '70059117674007036240163073645113489994895807359788046023215512784288966325609',
        positionSize: '1666666666',
        marketId: '',
      },
    ]);
  });

  it("a public profile: the trader's wallet, name and since when", () => {
    const profile = parseAnswer(GammaProfileSchema, load('gamma-public-profile.json'), 'getPublicProfile');
    const trader = toTrader({
      address: '0x7c3db723f1d4d8cb9c550095203b686cb11e5c6b',
      profile,
      value: null,
      marketsTraded: null,
    });
    expect(trader.user).toMatchObject({
      tradingWallet: '0x7c3db723f1d4d8cb9c550095203b686cb11e5c6b',
      name: 'Car',
      pseudonym: 'Peppery-Capital',
      bio: 'what is your plan',
      createdAt: '2024-02-09T01:08:31.155094Z',
    });
  });
});

describe('Data API', () => {
  it('a position: token, outcome and index, size, average and current price, value and P&L', () => {
    const [row] = parseAnswer(z.array(DataPositionSchema), load('data-positions.json'), 'getTraderPositions');
    expect(toTraderPosition(row!)).toMatchObject({
      conditionId: '0x408a4dcb6a03314bb13a1889a90aeca5fbf31bc20ca165056c514ae575924bd2',
      tokenId: '99140635426353397249350183889599877135748112658097546731509034870452896140722',
      marketSlug: 'clf-tot-tsg-2026-08-16-team-total-home-0pt5',
      outcome: 'Over',
      outcomeIndex: 0,
      size: 162963.4451,
      averagePrice: 0.9979,
      currentPrice: 0.955,
      currentValue: 155630.09,
      initialValue: 162627.5391,
      cashPnl: -6997.4491,
      endsOn: '2026-08-16',
      redeemable: false,
    });
  });

  it('a trade with outcome index 999 ("not applicable"): no index passed on; side, price, size, time and trader kept', () => {
    const [row] = parseAnswer(z.array(DataTradeSchema), load('data-trades.json'), 'getTraderTrades');
    const trade = toMarketTrade(row!);
    expect(trade).toMatchObject({
      side: 'BUY',
      price: 0.16,
      size: 21,
      timestamp: 1786861350,
      outcome: 'Over',
      outcomeIndex: null,
      traderName: 'swisstony',
      tokenId: '26553519739569408724710754771025892539347464160962015583021583647211378793594',
      transactionHash: '0xdb79d27479869fbbea544110dc4120a945774825369b1a321ec507c4b15a034d',
    });
    expect(toTradeRecord(row!)).toMatchObject({ price: 0.16, volumeBase: 21, timestamp: 1786861350, side: 'BUY' });
  });

  it('a REDEEM row: no side and no price (its 0 is no price), its size, dollars and outcome', () => {
    const [row] = parseAnswer(z.array(DataActivitySchema), load('data-activity-redeem.json'), 'getTraderActivity');
    expect(toTraderActivity(row!)).toMatchObject({
      type: 'REDEEM',
      side: null,
      price: null,
      size: 20,
      usdcSize: 0,
      outcome: 'Under',
      outcomeIndex: 1,
      timestamp: 1786861677,
      conditionId: '0x2db661f1c7901e525b843cd94bccfb514e7a1570e456065f4eb0268311ca5d9f',
    });
  });
});

describe('a neg-risk market (JD Vance, one outcome of the 2028 presidential winner event)', () => {
  const VANCE_YES = '16040015440196279900485035793550429453516625694844857319147506590755961451627';
  const VANCE_NO = '94476829201604408463453426454480212459887267917122244941405244686637914508323';

  it('its book: neg-risk, best bid 0.005 and best ask 0.995 as the recording project parsed them too', () => {
    const book = parseAnswer(ClobBookSchema, load('clob-book-vance-2028-yes-negrisk.json'), 'getOrderBook');
    expect(book).toMatchObject({
      asset_id: VANCE_YES,
      neg_risk: true,
      tick_size: '0.001',
      last_trade_price: 0.152,
      timestamp: '1781289337944',
    });
    expect(Math.max(...book.bids.map((l) => l.price))).toBe(0.005);
    expect(Math.min(...book.asks.map((l) => l.price))).toBe(0.995);
  });

  it('its trades, numbers written as strings: outcome order kept, and a sale of No read in Yes on the tape', () => {
    const rows = parseAnswer(z.array(DataTradeSchema), load('data-trades-vance-2028.json'), 'getFillHistory');
    expect(
      rows.map((r) => [
        toMarketTrade(r).outcome,
        toMarketTrade(r).outcomeIndex,
        toMarketTrade(r).side,
        toMarketTrade(r).price,
        toMarketTrade(r).size,
      ]),
    ).toEqual([
      ['Yes', 0, 'BUY', 0.152, 256],
      ['No', 1, 'SELL', 0.848, 11.77],
      ['Yes', 0, 'BUY', 0.152, 368],
    ]);
    const tokens = [
      { token_id: VANCE_YES, name: 'Yes', price: '' },
      { token_id: VANCE_NO, name: 'No', price: '' },
    ];
    // Selling No at 0.848 is buying Yes at 0.152: the tape shows it in the first outcome.
    expect(inFirstOutcome(toTradeRecord(rows[1]!), tokens)).toMatchObject({
      tokenId: VANCE_YES,
      side: 'BUY',
      price: 0.152,
      volumeBase: 11.77,
      timestamp: 1781288635,
    });
  });
});

describe('CLOB', () => {
  it('a book: levels parsed from decimal strings, best bid and ask wherever the exchange lists them', () => {
    const book = parseAnswer(ClobBookSchema, load('clob-book-559651-yes.json'), 'getOrderBook');
    expect(book).toMatchObject({
      market: XI_CONDITION,
      asset_id: XI_YES,
      timestamp: '1786863545542',
      tick_size: '0.001',
      min_order_size: 5,
      last_trade_price: 0.045,
    });
    expect(book.bids).toEqual([
      { price: 0.001, size: 10607956.49 },
      { price: 0.002, size: 2301172.5 },
    ]);
    expect(Math.max(...book.bids.map((l) => l.price))).toBe(0.002);
    expect(Math.min(...book.asks.map((l) => l.price))).toBe(0.046);
  });

  it("the market's terms (/clob-markets): the fee the exchange charges, in words", () => {
    const terms = feeTermsOfClobMarket(load('clob-market-terms-559651.json'));
    expect(terms).toEqual({ rate: 0.04, exponent: 1, takerOnly: true });
    expect(describeFeeTerms(terms!)).toBe('taker fee 4 %·p(1−p)');
  });

  it('price history: points in Unix seconds with their prices', () => {
    expect(parseAnswer(PriceHistorySchema, load('clob-prices-history.json'), 'getPriceHistory').history).toEqual([
      { t: 1786860613, p: 0.0445 },
      { t: 1786861208, p: 0.0455 },
    ]);
  });
});

/** A socket the test speaks for: every frame is handed to the feed exactly as the exchange sent it. */
class ScriptedSocket extends EventEmitter {
  readyState = 1;
  readonly sent: string[] = [];
  send(data: string): void {
    this.sent.push(data);
  }
  terminate(): void {
    this.readyState = 3;
  }
}

/** PM Desk's market-channel feed, subscribed to `tokens`, over a socket that delivers the recorded frames. */
function marketFeedOver(tokens: string[]) {
  const sockets: ScriptedSocket[] = [];
  const trades: LastTrade[] = [];
  const warnings: FeedWarning[] = [];
  const Socket = class extends ScriptedSocket {
    constructor() {
      super();
      sockets.push(this);
    }
  } as unknown as WebSocketConstructor;
  const feed = new MarketFeed({
    wsUrl: 'ws://recorded.invalid/ws',
    WebSocket: Socket,
    scheduler: new ManualScheduler(),
    // No REST here: the book is the channel's alone (a GET /book would only complete the hash's fields).
    fetchBook: () => Promise.reject(new Error('no REST in this test')),
    handlers: { onTrade: (t) => trades.push(t), onWarning: (w) => warnings.push(w) },
  });
  feed.subscribe(tokens);
  feed.start();
  const socket = sockets[0]!;
  socket.emit('open');
  const deliver = (frame: unknown) => socket.emit('message', JSON.stringify(frame), false);
  return { feed, deliver, trades, warnings, close: () => feed.close() };
}

const best = (levels: { price: number; size: number }[]) => levels[0];

describe("the market WebSocket channel, through PM Desk's market feed", () => {
  it('a book snapshot (Trump 2024, No): its levels best first, best bid 0.511 and best ask 0.514', () => {
    const frame = load('ws-market-book-trump-2024-no.json') as { asset_id: string };
    const { feed, deliver, warnings, close } = marketFeedOver([frame.asset_id]);
    deliver(frame);
    const book = feed.book(frame.asset_id, 3)!;
    expect(book).toMatchObject({
      market: '0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917',
      timestamp: 1728799418260,
      hash: '655a38d4977427b086c25b985993691b753ed166',
    });
    expect(book.bids).toEqual([
      { price: 0.511, size: 1304.72 },
      { price: 0.51, size: 12848.17 },
      { price: 0.509, size: 27.88 },
    ]);
    expect(book.asks).toEqual([
      { price: 0.514, size: 20230.87 },
      { price: 0.515, size: 43551.96 },
      { price: 0.516, size: 28605.55 },
    ]);
    expect(feed.book(frame.asset_id, 1000)).toMatchObject({ bids: { length: 76 }, asks: { length: 86 } });
    // Nothing in it was doubted: no resync asked.
    expect(warnings.filter((w) => w.kind === 'resync')).toEqual([]);
    close();
  });

  it('a book and the price changes after it: each change lands on its level, the top matches what the exchange says', () => {
    const [book, ...changes] = load('ws-market-book-and-price-changes.json') as [
      { asset_id: string },
      ...{ timestamp: string; price_changes: { asset_id: string; best_bid: string; best_ask: string }[] }[],
    ];
    const token = book.asset_id;
    const { feed, deliver, warnings, close } = marketFeedOver([token]);
    deliver(book);
    expect(best(feed.book(token)!.bids)).toEqual({ price: 0.3, size: 5000 });
    expect(best(feed.book(token)!.asks)).toEqual({ price: 0.397, size: 100.09 });
    for (const change of changes) {
      deliver(change);
      const view = feed.book(token, 5)!;
      // The exchange states the top of the book after each change: PM Desk's book agrees.
      const ours = change.price_changes.find((c) => c.asset_id === token)!;
      expect([best(view.bids)?.price, best(view.asks)?.price], change.timestamp).toEqual([
        Number(ours.best_bid),
        Number(ours.best_ask),
      ]);
      expect(view.timestamp).toBe(Number(change.timestamp));
    }
    const view = feed.book(token, 4)!;
    // 0.301 and 0.311 bought in; the 0.399 ask removed (size 0); 4765 offered at 0.39.
    expect(view.bids).toEqual([
      { price: 0.311, size: 2000 },
      { price: 0.301, size: 1000 },
      { price: 0.3, size: 5000 },
      { price: 0.29, size: 2000 },
    ]);
    expect(view.asks).toEqual([
      { price: 0.39, size: 4765 },
      { price: 0.397, size: 100.09 },
      { price: 0.398, size: 3737.87 },
      { price: 0.4, size: 4765 },
    ]);
    // The other outcome's changes in the same messages are not this book's: untouched, and nothing resynced.
    expect(warnings.filter((w) => w.kind === 'resync')).toEqual([]);
    close();
  });

  it('a last trade (Trump 2024, Yes): its price, size, side and time as the tape shows them', () => {
    const frame = load('ws-market-last-trade-trump-2024-yes.json') as { asset_id: string };
    const { deliver, trades, close } = marketFeedOver([frame.asset_id]);
    deliver(frame);
    expect(trades).toEqual([
      {
        tokenId: '21742633143463906290569050155826241533067272736897614950488156847949938836455',
        market: '0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917',
        price: 0.491,
        size: 85.36,
        side: 'SELL',
        timestamp: 1724564136087,
      },
    ]);
    close();
  });

  it('a tick size change: the old and new tick said, for the ticket to follow', () => {
    const frame = load('ws-market-tick-size-change.json') as { asset_id: string };
    const { deliver, warnings, close } = marketFeedOver([frame.asset_id]);
    deliver(frame);
    expect(warnings).toEqual([
      {
        kind: 'tick_size_change',
        tokenId: '115474063863764126958837769719736461272619491980773624567012766320777398670353',
        market: '0xbacdf04bf7f22a670dc4fb408878ec56b76f9934599829455b9371693ba84b8b',
        oldTickSize: '0.01',
        newTickSize: '0.001',
      },
    ]);
    close();
  });
});

/** PM Desk's real-time (RTDS) stream over a socket that delivers recorded frames as text, as the service sends them. */
function rtdsStreamOver() {
  const listeners = new Map<string, ((event: { data?: unknown }) => void)[]>();
  const Socket = class {
    readyState = 1;
    send(): void {}
    close(): void {}
    addEventListener(type: string, listener: (event: { data?: unknown }) => void): void {
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    }
  } as unknown as RtdsSocketConstructor;
  const trades: unknown[] = [];
  const errors: PmDeskError[] = [];
  const stream = new RtdsStream({
    url: 'wss://recorded.invalid',
    subscriptions: [{ topic: 'activity', type: 'trades' }],
    handlers: { onTrade: (t) => trades.push(t), onError: (e) => errors.push(e) },
    logger: { debug() {}, warn() {}, error() {} },
    WebSocket: Socket,
  });
  const emit = (type: string, data?: string) => listeners.get(type)?.forEach((l) => l({ data }));
  emit('open');
  return { deliver: (text: string) => emit('message', text), trades, errors, close: () => stream.close() };
}

const raw = (name: string) => readFileSync(join(DIR, name), 'utf8');

describe("the real-time data service (RTDS), through PM Desk's stream", () => {
  it('frames of another topic (a crypto price tick and its backfill) and the empty greeting: no trade, no error', () => {
    const { deliver, trades, errors, close } = rtdsStreamOver();
    // The service's first frame is an empty text (polyoxide-rtds/src/fixtures.rs, EMPTY_GREETING).
    deliver('');
    deliver(raw('rtds-crypto-prices-snapshot.json'));
    deliver(raw('rtds-crypto-prices-update.json'));
    expect(trades).toEqual([]);
    expect(errors).toEqual([]);
    close();
  });

  it("the service's refusal of a subscription is reported in its own words, not as a malformed message", () => {
    const { deliver, trades, errors, close } = rtdsStreamOver();
    deliver(raw('rtds-rejected-subscription.json'));
    expect(trades).toEqual([]);
    expect(errors).toHaveLength(1);
    // Before: "Real-time message rejected: … topic: Invalid input: expected string" — the reason was lost.
    expect(errors[0]!.code).toBe('ERR_API_REQUEST');
    expect(errors[0]!.message).toContain('Real-time subscription refused: leger GetTopics error');
    expect(errors[0]!.message).toContain('topic: definitely_not_a_topic and type: update not found');
    close();
  });
});
