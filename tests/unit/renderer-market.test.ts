// The market view's arithmetic: ladder rows (sorting, folding, cumulative sizes, depth, own orders), spread
// and midpoint, cent formatting, the tape (order, gap rows, the second outcome, sides from the data only,
// traders, notional, precision), the chart's price axis, and the link that opens a market (ranges and candles:
// renderer-chart.test.ts).
import { describe, expect, it } from 'vitest';
import { bookFromLevels } from '../../src/shared/book';
import type { TradeRecord } from '../../packages/toolkit/src/model/market-model';
import type { OpenOrder } from '../../src/shared/contract';
import {
  addToTape,
  bookAsOf,
  bookFeedWarning,
  bookUnknownWhy,
  cannotTradeLine,
  chartPriceRange,
  buildLadder,
  clockTime,
  ladderColumns,
  marketLinkFromHash,
  nextTapeSeq,
  tapeCells,
  tapeFill,
  tapeRows,
  historyInFirstOutcome,
  UNKNOWN_SIDE_TITLE,
  type TapeEntry,
} from '../../src/renderer/src/model/market';
import { centDecimals, formatCents, formatShares, sharesTextLength } from '../../src/renderer/src/format/numbers';

const TOKEN = '1111';
const order = (
  side: 'BUY' | 'SELL',
  price: number,
  originalSize: number,
  sizeMatched = 0,
  tokenId = TOKEN,
): OpenOrder => ({
  orderId: `0x${Math.random().toString(16).slice(2)}`,
  conditionId: '0xabc',
  tokenId,
  side,
  price,
  originalSize,
  sizeMatched,
  orderType: 'GTC',
  status: 'LIVE',
  createdAt: 0,
  expiresAt: 0,
});

describe('the ladder', () => {
  // As a source sends it (bids ascending as the CLOB lists them, asks unordered, a duplicate price, an empty
  // level), made the one Book shape by main before it leaves (src/shared/book.ts): the ladder only draws it.
  const book = bookFromLevels(TOKEN, {
    bids: [
      { price: 0.48, size: 30 },
      { price: 0.5, size: 10 },
      { price: 0.52, size: 100 },
      { price: 0.5, size: 5 },
    ],
    asks: [
      { price: 0.56, size: 40 },
      { price: 0.54, size: 200 },
      { price: 0.58, size: 0 },
      { price: 0.55, size: 60 },
    ],
  });

  it('puts asks above (worst first) and bids below (best first) with cumulative sizes from the best price', () => {
    const ladder = buildLadder(book);
    expect(ladder.asks.map((r) => [r.price, r.size, r.cumulative])).toEqual([
      [0.56, 40, 300],
      [0.55, 60, 260],
      [0.54, 200, 200],
    ]);
    expect(ladder.bids.map((r) => [r.price, r.size, r.cumulative])).toEqual([
      [0.52, 100, 100],
      [0.5, 15, 115],
      [0.48, 30, 145],
    ]);
    expect(ladder.bestAsk).toBe(0.54);
    expect(ladder.bestBid).toBe(0.52);
  });

  it('scales depth bars to the deeper side', () => {
    const ladder = buildLadder(book);
    expect(ladder.asks[0]!.depth).toBe(1);
    expect(ladder.asks[2]!.depth).toBeCloseTo(200 / 300);
    expect(ladder.bids[2]!.depth).toBeCloseTo(145 / 300);
  });

  it('counts the characters of a size as formatShares writes it, without formatting', () => {
    const sizes = [
      0, 0.004, 0.005, 0.01, 0.1, 0.5, 1, 9.99, 9.995, 10, 12.3, 99.99, 100, 999.99, 999.999, 1000, 1000.5, 1009.99,
      12345.6, 99999.99, 100000, 1234567.89, 20.05, 0.07, 1e-7, 2.5e-3,
    ];
    // And the sizes a book writes: two decimals at most, from 0.01 to a million shares.
    for (let i = 1; i < 2000; i++) sizes.push(Math.round(((i * 7919) % 100_000_000) + i / 100) / 100);
    for (const size of sizes) expect(sharesTextLength(size), String(size)).toBe(formatShares(size).length);
  });

  it('sizes its number columns by the longest number so far, and never narrows them for the same outcome', () => {
    const wide = buildLadder({
      bids: [
        { price: 0.5, size: 1234.5 },
        { price: 0.49, size: 10 },
      ],
      asks: [{ price: 0.52, size: 3 }],
    });
    // "1,234.5" and a total of "1,244.5"; a price as wide as "99¢" on a 1¢ tick, "99.9¢" on 0.1¢.
    expect(ladderColumns(wide, 0)).toEqual({ price: 3, size: 7, total: 7 });
    expect(ladderColumns(wide, 1).price).toBe(5);
    const narrow = buildLadder({ bids: [{ price: 0.5, size: 5 }], asks: [{ price: 0.52, size: 3 }] });
    expect(ladderColumns(narrow, 0)).toEqual({ price: 3, size: 1, total: 1 });
    // The 1,234.5 shares went: the columns stay as wide as they were; a longer total widens its column.
    const after = ladderColumns(narrow, 0, ladderColumns(wide, 0));
    expect(after).toEqual({ price: 3, size: 7, total: 7 });
    const deeper = buildLadder({
      bids: [
        { price: 0.5, size: 99_000 },
        { price: 0.49, size: 20_000.25 },
      ],
      asks: [],
    });
    // "99,000" is narrower than the column; the total "119,000.25" is wider.
    expect(ladderColumns(deeper, 0, after)).toEqual({ price: 3, size: 9, total: 10 });
  });

  it('works out spread and midpoint without float noise, and has none when a side is empty', () => {
    const ladder = buildLadder({ bids: [{ price: 0.1, size: 1 }], asks: [{ price: 0.3, size: 1 }] });
    expect(ladder.spread).toBe(0.2);
    expect(ladder.midpoint).toBe(0.2);
    expect(buildLadder(book).midpoint).toBe(0.53);
    expect(buildLadder(book).spread).toBe(0.02);
    const oneSided = buildLadder({ bids: book.bids, asks: [] });
    expect(oneSided).toMatchObject({ spread: null, midpoint: null, bestAsk: null, bestBid: 0.52 });
    expect(buildLadder(undefined)).toMatchObject({ asks: [], bids: [], spread: null });
  });

  it('keeps the levels nearest the middle when the book is deeper than the ladder', () => {
    const deep = {
      bids: Array.from({ length: 30 }, (_, i) => ({ price: (40 - i) / 100, size: 1 })),
      asks: Array.from({ length: 30 }, (_, i) => ({ price: (41 + i) / 100, size: 1 })),
    };
    const ladder = buildLadder(deep, [], TOKEN, 5);
    expect(ladder.bids.map((r) => r.price)).toEqual([0.4, 0.39, 0.38, 0.37, 0.36]);
    expect(ladder.asks.map((r) => r.price)).toEqual([0.45, 0.44, 0.43, 0.42, 0.41]);
  });

  it('marks the wallet’s own orders by token, side and price, with their unfilled shares', () => {
    const own = [
      order('BUY', 0.5, 20, 5),
      order('BUY', 0.5, 10),
      order('SELL', 0.55, 60),
      order('BUY', 0.52, 7, 0, 'another token'),
      order('SELL', 0.52, 3),
    ];
    const ladder = buildLadder(book, own, TOKEN);
    const marked = [...ladder.asks, ...ladder.bids].filter((r) => r.own > 0).map((r) => [r.side, r.price, r.own]);
    // The SELL at 0.52 is not on the ask side of this book (0.52 is a bid level): not marked there.
    expect(marked).toEqual([
      ['ask', 0.55, 60],
      ['bid', 0.5, 25],
    ]);
    // A price computed in floating point still meets the level.
    const float = buildLadder({ bids: [{ price: 0.3, size: 1 }], asks: [] }, [order('BUY', 0.1 + 0.2, 4)], TOKEN);
    expect(float.bids[0]!.own).toBe(4);
  });
});

describe('a book that may be behind', () => {
  it('is flagged when its feed is stale or closed, with main’s reason, and not while it connects or is open', () => {
    expect(bookFeedWarning(undefined)).toBeNull();
    expect(bookFeedWarning({ state: 'connecting' })).toBeNull();
    expect(bookFeedWarning({ state: 'open' })).toBeNull();
    expect(bookFeedWarning({ state: 'stale' })).toBe('The book feed has gone quiet: this book may be behind.');
    expect(bookFeedWarning({ state: 'closed', error: { message: 'The exchange closed the connection.' } })).toBe(
      'The book feed is down: this book may be behind. The exchange closed the connection.',
    );
  });
});

describe('a book that cannot be read', () => {
  it('says why from the feed state: unreachable while polls fail, quiet, reconnecting, down; nothing while open', () => {
    expect(bookUnknownWhy({ state: 'open', source: 'polling' })).toBeNull();
    expect(
      bookUnknownWhy({ state: 'stale', source: 'polling', error: { message: 'The exchange cannot be reached' } }),
    ).toBe('exchange unreachable');
    expect(bookUnknownWhy({ state: 'stale', source: 'live' })).toBe('the exchange has gone quiet');
    expect(bookUnknownWhy({ state: 'connecting' })).toBe('reconnecting to the exchange');
    expect(bookUnknownWhy({ state: 'closed', error: { message: 'refused' } })).toBe('the book feed is down');
  });

  it('marks the last book with the local time it was lost, and the ticket says why it cannot trade', () => {
    const since = new Date(2026, 10, 25, 18, 6, 9).getTime();
    expect(bookAsOf({ since, why: 'exchange unreachable' })).toBe('As of 18:06:09, exchange unreachable');
    expect(cannotTradeLine({ since, why: 'exchange unreachable' })).toBe(
      'Cannot trade: the book is unknown (exchange unreachable since 18:06:09).',
    );
  });
});

describe("the chart's price axis", () => {
  const visible = (low: number, high: number) => chartPriceRange(low, high);
  it('keeps the margins around the candles when they fit inside 0–100¢', () => {
    const { minValue, maxValue } = visible(40, 60);
    // 20¢ of candles fill 67% of the height: a quarter of it (7.46¢) below for the volume, 8% (2.39¢) above.
    expect(minValue).toBeCloseTo(40 - (20 / 0.67) * 0.25, 9);
    expect(maxValue).toBeCloseTo(60 + (20 / 0.67) * 0.08, 9);
  });

  it('never runs below 0¢ or above 100¢, whatever the candles or the margins', () => {
    const low = visible(1, 20);
    expect(low.minValue).toBe(0);
    expect(low.maxValue).toBeCloseTo(20 + (19 / 0.67) * 0.08, 9);
    expect(visible(2, 99).maxValue).toBe(100);
    expect(visible(-20, 130)).toEqual({ minValue: 0, maxValue: 100 });
    for (const [low, high] of [
      [0, 0],
      [100, 100],
      [0, 100],
      [3, 4],
      [97, 99.9],
    ] as const) {
      const { minValue, maxValue } = visible(low, high);
      expect(minValue).toBeGreaterThanOrEqual(0);
      expect(maxValue).toBeLessThanOrEqual(100);
      expect(maxValue).toBeGreaterThan(minValue);
    }
  });

  it('is at least a cent tall for a flat market, around its price', () => {
    const { minValue, maxValue } = visible(50, 50);
    expect(minValue).toBeLessThan(50);
    expect(maxValue).toBeGreaterThan(50);
    expect(maxValue - minValue).toBeGreaterThanOrEqual(1);
  });
});

describe('prices for the trader', () => {
  it('shows cents with the decimals the tick needs', () => {
    expect(centDecimals('0.01')).toBe(0);
    expect(centDecimals('0.001')).toBe(1);
    expect(centDecimals('0.0001')).toBe(2);
    expect(centDecimals(undefined)).toBe(0);
    expect(formatCents(0.52, 0)).toBe('52¢');
    expect(formatCents(0.523, 1)).toBe('52.3¢');
    expect(formatCents(0.5, 1)).toBe('50.0¢');
    // A price finer than the tick is not rounded away.
    expect(formatCents(0.5235, 0)).toBe('52.35¢');
  });
});

describe('the tape', () => {
  // A side in any case, as a stream may send it: the tape reads it case-insensitively.
  const fill = (price: number, size: number, time: number, side?: string): TapeEntry =>
    tapeFill({ price, volumeBase: size, timestamp: time, ...(side ? { side } : {}) } as TradeRecord);

  it('keeps entries newest first, each in its place by time, up to its limit', () => {
    let tape = addToTape([], [fill(0.5, 1, 100), fill(0.51, 1, 102), fill(0.52, 1, 101)]);
    expect(tape.map((e) => (e.kind === 'fill' ? e.time : -1))).toEqual([102, 101, 100]);
    tape = addToTape(tape, [fill(0.53, 2, 103)]);
    expect(tape[0]).toMatchObject({ price: 0.53, size: 2 });
    expect(addToTape(tape, [fill(0.6, 1, 200)], 3).map((e) => (e.kind === 'fill' ? e.time : -1))).toEqual([
      200, 103, 102,
    ]);
  });

  it('shows a gap row where the feed was down, between the fills around it', () => {
    const from = 1_700_000_000_000;
    const gap: TapeEntry = { kind: 'gap', seq: nextTapeSeq(), from, to: from + 37_000 };
    const tape = addToTape(addToTape([], [fill(0.5, 1, from / 1000 - 5), fill(0.55, 1, from / 1000 + 60)]), [gap]);
    const rows = tapeRows(tape, 0);
    expect(rows.map((r) => r.kind)).toEqual(['fill', 'gap', 'fill']);
    expect(rows[1]!.text).toBe(`feed down ${clockTime(from)}–${clockTime(from + 37_000)}`);
    expect(rows[1]!.text).toMatch(/^feed down \d\d:\d\d:\d\d–\d\d:\d\d:\d\d$/);
  });

  it('prices the second outcome as the complement, and a buy of one as a sell of the other', () => {
    const tape = addToTape([], [fill(0.42, 7, 100, 'buy')]);
    expect(tapeRows(tape, 0)[0]).toMatchObject({ price: 0.42, size: 7, side: 'BUY', time: 100_000 });
    expect(tapeRows(tape, 1)[0]).toMatchObject({ price: 0.58, size: 7, side: 'SELL' });
  });

  it('takes the side from the data and never guesses one: a fill without a side is unknown, said in words', () => {
    const tape = addToTape(
      [],
      [fill(0.5, 1, 1), fill(0.52, 1, 2), fill(0.49, 1, 4), fill(0.6, 1, 5, 'SELL'), fill(0.61, 1, 6, 'BUY')],
    );
    const rows = tapeRows(tape, 0);
    expect(rows.map((r) => [r.price, r.side])).toEqual([
      [0.61, 'BUY'],
      [0.6, 'SELL'],
      [0.49, null],
      [0.52, null],
      [0.5, null],
    ]);
    expect(tapeCells(rows[0]!, 0)).toMatchObject({ side: 'Buy', sideClass: 'bid' });
    expect(tapeCells(rows[0]!, 0).sideTitle).toBeUndefined();
    expect(tapeCells(rows[1]!, 0)).toMatchObject({ side: 'Sell', sideClass: 'ask' });
    // Up from the fill before it, and still not called a buy.
    expect(tapeCells(rows[3]!, 0)).toMatchObject({
      side: 'unknown',
      sideClass: 'muted',
      sideTitle: UNKNOWN_SIDE_TITLE,
    });
    expect(UNKNOWN_SIDE_TITLE).toMatch(/does not state/);
  });

  it('carries the trader, the name and the transaction from the record; a fill without a trader shows a dash', () => {
    const address = `0x${'ab'.repeat(19)}cd12`;
    const named = tapeFill({
      price: 0.3,
      volumeBase: 2,
      timestamp: 9,
      side: 'BUY',
      trader: address,
      traderName: 'whale',
      transactionHash: '0xfeed',
    });
    const bare = tapeFill({ price: 0.3, volumeBase: 2, timestamp: 8, side: 'BUY', trader: address });
    const none = tapeFill({ price: 0.3, volumeBase: 2, timestamp: 7 });
    const rows = tapeRows(addToTape([], [named, bare, none]), 0);
    expect(rows[0]).toMatchObject({ trader: address, traderName: 'whale', transactionHash: '0xfeed' });
    expect(rows.map((r) => tapeCells(r, 0).trader)).toEqual(['whale', '0xabab…cd12', '—']);
  });

  it('shows the dollars of each fill, price × size in the shown outcome', () => {
    const tape = addToTape([], [fill(0.42, 150, 100, 'BUY'), fill(0.333, 3, 99, 'SELL')]);
    const yes = tapeRows(tape, 0);
    const no = tapeRows(tape, 1);
    expect(yes.map((r) => r.notional)).toEqual([63, 1]);
    expect(no.map((r) => r.notional)).toEqual([87, 2]);
    expect(tapeCells(yes[0]!, 0).notional).toBe('$63.00');
    expect(tapeCells({ ...yes[0]!, notional: 1234.5 }, 0).notional).toBe('$1,234.50');
  });

  it('prints prices with the ladder’s precision: whole cents at a 0.01 tick, tenths at 0.001', () => {
    const tape = addToTape([], [fill(0.42, 7, 100, 'BUY'), fill(0.523, 7, 99, 'BUY')]);
    const rows = tapeRows(tape, 0);
    expect(tapeCells(rows[0]!, centDecimals('0.01')).price).toBe('42¢');
    expect(tapeCells(rows[0]!, centDecimals('0.001')).price).toBe('42.0¢');
    expect(tapeCells(rows[1]!, centDecimals('0.001')).price).toBe('52.3¢');
    // The same text the ladder prints for the price.
    expect(tapeCells(rows[1]!, centDecimals('0.01')).price).toBe(formatCents(0.523, centDecimals('0.01')));
    expect(tapeCells(rows[0]!, 0).size).toBe('7');
  });

  it('turns a history split by token into one tape in the first outcome; a history repeated per outcome is read once', () => {
    const yesToken = 'y';
    const noToken = 'n';
    const byToken = historyInFirstOutcome(
      [
        [{ price: 0.4, volumeBase: 5, timestamp: 10, side: 'BUY', tokenId: yesToken, trader: '0xa' }],
        [{ price: 0.7, volumeBase: 2, timestamp: 11, side: 'BUY', tokenId: noToken, trader: '0xb' }],
      ],
      yesToken,
    );
    expect(byToken).toEqual([
      { price: 0.4, volumeBase: 5, timestamp: 10, side: 'BUY', tokenId: yesToken, trader: '0xa' },
      { price: 0.3, volumeBase: 2, timestamp: 11, side: 'SELL', tokenId: yesToken, trader: '0xb' },
    ]);
    // The aggregator's lists carry no token: the second is the first's mirror, not more trades.
    const mirrored = historyInFirstOutcome(
      [[{ price: 0.4, volumeBase: 5, timestamp: 10 }], [{ price: 0.6, volumeBase: 5, timestamp: 10 }]],
      yesToken,
    );
    expect(mirrored).toEqual([{ price: 0.4, volumeBase: 5, timestamp: 10 }]);
    // Before the market is read its first token is not known yet: the history's own records name it.
    expect(
      historyInFirstOutcome([
        [{ price: 0.4, volumeBase: 5, timestamp: 10, tokenId: yesToken }],
        [{ price: 0.7, volumeBase: 2, timestamp: 11, tokenId: noToken }],
      ]),
    ).toEqual([
      { price: 0.4, volumeBase: 5, timestamp: 10, tokenId: yesToken },
      { price: 0.3, volumeBase: 2, timestamp: 11, tokenId: yesToken },
    ]);
  });

  it('marks fills heard live (the chart adds only those)', () => {
    expect(tapeFill({ price: 0.5, volumeBase: 1, timestamp: 1 }, true)).toMatchObject({ live: true });
    expect(tapeFill({ price: 0.5, volumeBase: 1, timestamp: 1 })).not.toHaveProperty('live');
  });
});

describe('a link that opens a market', () => {
  it('reads market, event and protocol from the fragment next to the launch token', () => {
    expect(marketLinkFromHash('#token=abcdefghijklmnop1234&market=506729&event=16085')).toEqual({
      protocol: 'polymarket',
      marketId: '506729',
      eventId: '16085',
    });
    expect(marketLinkFromHash('#market=m-1&protocol=limitless')).toEqual({ protocol: 'limitless', marketId: 'm-1' });
    expect(marketLinkFromHash('#market=m-1&protocol=nonsense')).toEqual({ protocol: 'polymarket', marketId: 'm-1' });
  });

  it('opens nothing without a market, or with one that is not an id', () => {
    expect(marketLinkFromHash('#token=abcdefghijklmnop1234')).toBeNull();
    expect(marketLinkFromHash('')).toBeNull();
    expect(marketLinkFromHash('#market=%3Cscript%3E')).toBeNull();
    expect(marketLinkFromHash(`#market=${'9'.repeat(201)}`)).toBeNull();
    expect(marketLinkFromHash('#market=1&event=bad%20id')).toEqual({ protocol: 'polymarket', marketId: '1' });
  });
});
