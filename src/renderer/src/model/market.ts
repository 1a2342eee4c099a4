// The market view's arithmetic, apart from React so it is tested on its own: ladder rows with cumulative
// depth, spread and midpoint, own orders at a price, the tape (fills and gap markers, newest first), the
// chart's ranges and the live update of its last candle, and the link that opens a market.
import type { TradeRecord } from '@pmdesk/toolkit/model';
import { midpointOf } from '../../../shared/book-top';
import type { Book, BookLevel, FeedState, OpenOrder } from '../../../shared/contract';
import { historyInFirstOutcome } from '../../../shared/last-trade';
import { formatCents, formatShares, formatUsd, sharesTextLength } from '../format/numbers';

// ---------------------------------------------------------------------------------------------------------
// Ladder

export interface LadderRow {
  side: 'ask' | 'bid';
  price: number;
  size: number;
  /** Shares from the best price of this side down to this row, inclusive. */
  cumulative: number;
  /** cumulative / the deeper side's total, 0..1: the depth bar's width. */
  depth: number;
  /** Shares of the active wallet's open orders resting at this price on this side (0: none). */
  own: number;
}

export interface Ladder {
  /** Worst ask first, best ask last: asks sit above the middle. */
  asks: LadderRow[];
  /** Best bid first: bids sit below the middle. */
  bids: LadderRow[];
  bestBid: number | null;
  bestAsk: number | null;
  /** Best ask − best bid, when both sides have a level. */
  spread: number | null;
  midpoint: number | null;
}

/** Prices compared on the 1e-4 grid (the finest tick a market has), so 0.1 + 0.2 still meets 0.3. */
export const priceKey = (price: number): number => Math.round(price * 10_000);

/** An own order's side as the ladder shows it: a BUY rests among the bids, a SELL among the asks. */
const ownSide = (order: OpenOrder): LadderRow['side'] => (order.side === 'BUY' ? 'bid' : 'ask');

/** Remaining shares of the wallet's open orders on this token, by side and price. */
export function ownOrdersAt(openOrders: readonly OpenOrder[], tokenId: string): Map<string, number> {
  const own = new Map<string, number>();
  for (const order of openOrders) {
    if (order.tokenId !== tokenId) continue;
    const remaining = Math.max(0, order.originalSize - order.sizeMatched);
    const key = `${ownSide(order)}:${priceKey(order.price)}`;
    own.set(key, (own.get(key) ?? 0) + remaining);
  }
  return own;
}

/** Levels a side the ladder shows at most. */
export const LADDER_DEPTH = 12;

/**
 * The ladder of one book as main hands it out (numbers, one level a price, each side best first): at most `depth`
 * levels a side nearest the middle, with their running totals and the wallet's own orders. Nothing is parsed or
 * sorted here; only the asks are turned over, as the ladder draws them from the highest down to the best.
 */
export function buildLadder(
  book: Pick<Book, 'bids' | 'asks'> | undefined,
  openOrders: readonly OpenOrder[] = [],
  tokenId = '',
  depth = LADDER_DEPTH,
): Ladder {
  const own = ownOrdersAt(openOrders, tokenId);
  const rows = (side: LadderRow['side'], levels: readonly BookLevel[]): LadderRow[] => {
    let cumulative = 0;
    const n = Math.min(depth, levels.length);
    const out: LadderRow[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const { price, size } = levels[i]!;
      cumulative += size;
      out[i] = { side, price, size, cumulative, depth: 0, own: own.get(`${side}:${priceKey(price)}`) ?? 0 };
    }
    return out;
  };
  const bids = rows('bid', book?.bids ?? []);
  const asksBestFirst = rows('ask', book?.asks ?? []);
  const deepest = Math.max(bids.at(-1)?.cumulative ?? 0, asksBestFirst.at(-1)?.cumulative ?? 0);
  for (const row of bids) row.depth = deepest > 0 ? row.cumulative / deepest : 0;
  for (const row of asksBestFirst) row.depth = deepest > 0 ? row.cumulative / deepest : 0;
  const bestBid = bids[0]?.price ?? null;
  const bestAsk = asksBestFirst[0]?.price ?? null;
  const both = bestBid !== null && bestAsk !== null;
  return {
    asks: asksBestFirst.reverse(),
    bids,
    bestBid,
    bestAsk,
    spread: both ? priceKey(bestAsk - bestBid) / 10_000 : null,
    midpoint: midpointOf(bestBid, bestAsk),
  };
}

/**
 * What the ladder says when its feed cannot be trusted: stale (connected, nothing heard for a while) or
 * closed (down, with main's reason). Null while the feed is connecting or open.
 */
export function bookFeedWarning(feed: { state: FeedState; error?: { message: string } } | undefined): string | null {
  if (feed?.state === 'stale') return 'The book feed has gone quiet: this book may be behind.';
  if (feed?.state === 'closed')
    return `The book feed is down: this book may be behind.${feed.error ? ` ${feed.error.message}` : ''}`;
  return null;
}

/** Characters each of the ladder's number columns is wide: price, size, total (market.css sizes the columns by them). */
export interface LadderColumns {
  price: number;
  size: number;
  total: number;
}

/**
 * The ladder's column widths in characters for this book: a price as wide as "99¢" at the market's tick, the
 * longest size and total now, never narrower than `before` (the same outcome's widths so far). Columns sized by
 * their text each frame moved every number on a busy book (and made Chromium redo the page's compositing layers
 * in nearly every frame); these change only when a number needs a character more than any before it.
 */
export function ladderColumns(
  ladder: Pick<Ladder, 'asks' | 'bids'>,
  decimals: number,
  before?: LadderColumns,
): LadderColumns {
  let size = before?.size ?? 0;
  let total = before?.total ?? 0;
  for (const side of [ladder.asks, ladder.bids]) {
    for (const row of side) {
      size = Math.max(size, sharesTextLength(row.size));
      total = Math.max(total, sharesTextLength(row.cumulative));
    }
  }
  return { price: Math.max(before?.price ?? 0, 3 + (decimals > 0 ? decimals + 1 : 0)), size, total };
}

// ---------------------------------------------------------------------------------------------------------
// Tape

/** Fills are kept priced in the market's first outcome (as the fill stream and its history are). */
export type TapeEntry =
  | {
      kind: 'fill';
      seq: number;
      price: number;
      size: number;
      /** Unix seconds. */
      time: number;
      /** The taker's side as the exchange recorded it; absent where the source does not say (the aggregator). */
      side?: 'BUY' | 'SELL';
      /** The taker's trading wallet and display name, where the source gives them. */
      trader?: string;
      traderName?: string;
      transactionHash?: string;
      /** Heard live (not read from history): the chart adds these to its last candle. */
      live?: true;
    }
  | { kind: 'gap'; seq: number; /** Unix ms. */ from: number; to: number };

export interface TapeRow {
  key: number;
  kind: 'fill' | 'gap';
  time: number;
  /** Fill rows: in the shown outcome. */
  price?: number;
  size?: number;
  /** Fill rows: dollars that changed hands, price × size in the shown outcome. */
  notional?: number;
  /** Fill rows: the aggressor's side in the shown outcome, from the exchange's data; null where it is not stated. */
  side?: 'BUY' | 'SELL' | null;
  trader?: string;
  traderName?: string;
  transactionHash?: string;
  /** Gap rows: "feed down 12:01:03–12:01:40". */
  text?: string;
}

export const TAPE_LIMIT = 500;

let tapeSeq = 0;
export const nextTapeSeq = (): number => ++tapeSeq;

/** A fill as the feed sends it → a tape entry: what the record states, nothing guessed (the aggregator's has no side). */
export function tapeFill(fill: TradeRecord, live = false): TapeEntry {
  const side = (fill as { side?: unknown }).side;
  const upper = typeof side === 'string' ? side.toUpperCase() : undefined;
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const trader = text(fill.trader);
  const traderName = text(fill.traderName);
  const transactionHash = text(fill.transactionHash);
  return {
    kind: 'fill',
    seq: nextTapeSeq(),
    price: Number(fill.price),
    size: Number(fill.volumeBase),
    time: Number(fill.timestamp),
    ...(upper === 'BUY' || upper === 'SELL' ? { side: upper } : {}),
    ...(trader ? { trader } : {}),
    ...(traderName ? { traderName } : {}),
    ...(transactionHash ? { transactionHash } : {}),
    ...(live ? { live: true as const } : {}),
  };
}

/** The fills a market's history seeds the tape with, all in the first outcome (src/shared/last-trade.ts, main's alerts read it too). */
export { historyInFirstOutcome };

/** New entries into a newest-first tape; each in its place by time (a gap sits where the feed went down). */
export function addToTape(tape: readonly TapeEntry[], entries: readonly TapeEntry[], limit = TAPE_LIMIT): TapeEntry[] {
  const at = (e: TapeEntry) => (e.kind === 'fill' ? e.time * 1000 : e.to);
  const next = [...tape];
  for (const entry of entries) {
    const when = at(entry);
    // Newest first: before the first entry that is not newer (later arrivals win ties, as on a live tape).
    let index = next.findIndex((e) => at(e) <= when);
    if (index < 0) index = next.length;
    next.splice(index, 0, entry);
  }
  return next.slice(0, limit);
}

/** "12:01:03" in the trader's time zone. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/**
 * What the tape shows for one outcome. Fills are priced in the first outcome: the second outcome of a binary
 * market is its complement (1 − p, and a buy of one is a sell of the other). A fill whose source states no
 * side keeps none: the tape says so in words rather than guessing from the price move.
 */
export function tapeRows(tape: readonly TapeEntry[], outcomeIndex: number): TapeRow[] {
  const flip = outcomeIndex === 1;
  return tape.map((entry): TapeRow => {
    if (entry.kind === 'gap')
      return {
        key: entry.seq,
        kind: 'gap',
        time: entry.to,
        text: `feed down ${clockTime(entry.from)}–${clockTime(entry.to)}`,
      };
    const price = flip ? Math.round((1 - entry.price) * 10_000) / 10_000 : entry.price;
    const side = entry.side ? (flip ? (entry.side === 'BUY' ? 'SELL' : 'BUY') : entry.side) : null;
    return {
      key: entry.seq,
      kind: 'fill',
      time: entry.time * 1000,
      price,
      size: entry.size,
      notional: Math.round(price * entry.size * 100) / 100,
      side,
      trader: entry.trader,
      traderName: entry.traderName,
      transactionHash: entry.transactionHash,
    };
  });
}

/** What a fill whose source gives no aggressor says on hover. */
export const UNKNOWN_SIDE_TITLE =
  'This source does not state which side took the liquidity (the aggressor), so the side is unknown.';

/** A wallet address as the tape and profiles show it when it has no name: "0x1234…abcd". */
export function shortTrader(address: string): string {
  return address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
}

/** The text of a fill row's cells, made only for the rows in view; `decimals` is the ladder's (centDecimals of the tick). */
export function tapeCells(
  row: TapeRow,
  decimals: number,
): {
  time: string;
  side: string;
  sideClass: string;
  sideTitle?: string;
  price: string;
  size: string;
  notional: string;
  trader: string;
} {
  const side = row.side ?? null;
  return {
    time: clockTime(row.time),
    side: side === 'BUY' ? 'Buy' : side === 'SELL' ? 'Sell' : 'unknown',
    sideClass: side === 'BUY' ? 'bid' : side === 'SELL' ? 'ask' : 'muted',
    ...(side ? {} : { sideTitle: UNKNOWN_SIDE_TITLE }),
    price: formatCents(row.price ?? 0, decimals),
    size: formatShares(row.size ?? 0),
    notional: formatUsd(row.notional ?? 0),
    trader: row.traderName || (row.trader ? shortTrader(row.trader) : '—'),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Chart

// The ranges, widths and live candles live in chart-plan.ts; the price axis stays here.
export {
  CHART_RANGES,
  INTERVAL_SECONDS,
  applyFillToCandles,
  rangePlan,
  type CandleInterval,
  type ChartRange,
} from './chart-plan';

// ---------------------------------------------------------------------------------------------------------
// Links

export { marketLinkFromHash, type MarketLink } from './links';

/** Space above and below the candles, as parts of the chart's height (the volume bars sit in the bottom part). */
export const CHART_MARGINS = { top: 0.08, bottom: 0.25 } as const;

/**
 * The price axis of a chart of candles from `low` to `high` (cents): the candles with the margins around them,
 * but never outside 0–100¢ (an outcome's price cannot be), and at least a cent tall (a flat market's line).
 */
export function chartPriceRange(
  low: number,
  high: number,
  margins: { top: number; bottom: number } = CHART_MARGINS,
): { minValue: number; maxValue: number } {
  let lo = Math.max(0, Math.min(low, high));
  let hi = Math.min(100, Math.max(low, high));
  if (hi - lo < 1) {
    const middle = Math.min(99.5, Math.max(0.5, (lo + hi) / 2));
    lo = middle - 0.5;
    hi = middle + 0.5;
  }
  const span = (hi - lo) / (1 - margins.top - margins.bottom);
  return { minValue: Math.max(0, lo - span * margins.bottom), maxValue: Math.min(100, hi + span * margins.top) };
}

/** The mark on books that may no longer be the exchange's: "As of 18:06:09, exchange unreachable". */
export function bookAsOf(unknown: { since: number; why: string }): string {
  return `As of ${clockTime(unknown.since)}, ${unknown.why}`;
}

/** The ticket's line while the book is unknown: why it cannot trade on it. */
export function cannotTradeLine(unknown: { since: number; why: string }): string {
  return `Cannot trade: the book is unknown (${unknown.why} since ${clockTime(unknown.since)}).`;
}

/** Why a book feed's books may not be the exchange's any more, or null while they are (it is open or still starting). */
export function bookUnknownWhy(status: {
  state: FeedState;
  source?: 'live' | 'polling';
  error?: { message: string };
}): string | null {
  if (status.state === 'open') return null;
  if (status.state === 'stale')
    return status.source === 'polling' || status.error ? 'exchange unreachable' : 'the exchange has gone quiet';
  if (status.state === 'closed') return 'the book feed is down';
  return 'reconnecting to the exchange';
}
