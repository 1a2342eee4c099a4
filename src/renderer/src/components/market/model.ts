// The market view's arithmetic, apart from React so it is tested on its own: ladder rows with cumulative
// depth, spread and midpoint, own orders at a price, the tape (fills and gap markers, newest first), the
// chart's ranges and the live update of its last candle, and the link that opens a market.
import type { Candle, OrderBookSummary, TradeRecord } from '@pmdesk/toolkit/model';
import type { FeedState, OpenOrder } from '../../../../shared/contract';

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

/**
 * The ladder of one book: levels of the same price folded, sorted (the feed does not promise an order),
 * empty levels dropped, at most `depth` per side nearest the middle.
 */
export function buildLadder(book: Pick<OrderBookSummary, 'bids' | 'asks'> | undefined, openOrders: readonly OpenOrder[] = [], tokenId = '', depth = 12): Ladder {
  const fold = (levels: readonly { price: number; size: number }[]) => {
    const byPrice = new Map<number, { price: number; size: number }>();
    for (const level of levels) {
      const price = Number(level.price);
      const size = Number(level.size);
      if (!Number.isFinite(price) || !Number.isFinite(size) || size <= 0) continue;
      const key = priceKey(price);
      const existing = byPrice.get(key);
      if (existing) existing.size += size;
      else byPrice.set(key, { price, size });
    }
    return [...byPrice.values()];
  };
  const own = ownOrdersAt(openOrders, tokenId);
  const rows = (side: LadderRow['side'], levels: { price: number; size: number }[]): LadderRow[] => {
    let cumulative = 0;
    return levels.slice(0, depth).map(({ price, size }) => {
      cumulative += size;
      return { side, price, size, cumulative, depth: 0, own: own.get(`${side}:${priceKey(price)}`) ?? 0 };
    });
  };
  const bids = rows('bid', fold(book?.bids ?? []).sort((a, b) => b.price - a.price));
  const asksBestFirst = rows('ask', fold(book?.asks ?? []).sort((a, b) => a.price - b.price));
  const deepest = Math.max(bids.at(-1)?.cumulative ?? 0, asksBestFirst.at(-1)?.cumulative ?? 0);
  for (const row of [...bids, ...asksBestFirst]) row.depth = deepest > 0 ? row.cumulative / deepest : 0;
  const bestBid = bids[0]?.price ?? null;
  const bestAsk = asksBestFirst[0]?.price ?? null;
  const both = bestBid !== null && bestAsk !== null;
  return {
    asks: asksBestFirst.reverse(),
    bids,
    bestBid,
    bestAsk,
    spread: both ? priceKey(bestAsk - bestBid) / 10_000 : null,
    midpoint: both ? Math.round((bestAsk + bestBid) * 5_000) / 10_000 : null,
  };
}

/**
 * What the ladder says when its feed cannot be trusted: stale (connected, nothing heard for a while) or
 * closed (down, with main's reason). Null while the feed is connecting or open.
 */
export function bookFeedWarning(feed: { state: FeedState; error?: { message: string } } | undefined): string | null {
  if (feed?.state === 'stale') return 'The book feed has gone quiet: this book may be behind.';
  if (feed?.state === 'closed') return `The book feed is down: this book may be behind.${feed.error ? ` ${feed.error.message}` : ''}`;
  return null;
}

/** Decimals a price in cents needs at this tick: 0.01 → 0 ("52¢"), 0.001 → 1 ("52.3¢"). */
export function centDecimals(tickSize: string | number | undefined): number {
  const text = tickSize === undefined ? '0.01' : String(tickSize);
  const decimals = text.includes('.') ? text.split('.')[1]!.length : 0;
  return Math.max(0, decimals - 2);
}

/** A 0..1 price as cents for the trader ("52¢", "52.3¢"). */
export function formatCents(price: number, decimals = 1): string {
  const cents = Math.round(price * 10_000) / 100;
  // Never hide a finer price than the tick suggests (a book off the grid still shows what it says).
  const needed = Number.isInteger(cents) ? 0 : Number.isInteger(cents * 10) ? 1 : 2;
  return `${cents.toFixed(Math.max(decimals, needed))}¢`;
}

// One formatter for every call: `toLocaleString` with options builds a new Intl.NumberFormat each time, which
// was the ladder's largest JS cost under a busy book (hundreds of rows a second). Same output.
const SHARES = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** Shares, grouped, at most two decimals. */
export function formatShares(size: number): string {
  return SHARES.format(size);
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
      side?: 'BUY' | 'SELL';
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
  /** Fill rows: the aggressor's side when the feed says it, else guessed from the price move (`inferred`). */
  side?: 'BUY' | 'SELL';
  inferred?: boolean;
  /** Gap rows: "feed down 12:01:03–12:01:40". */
  text?: string;
}

export const TAPE_LIMIT = 500;

let tapeSeq = 0;
export const nextTapeSeq = (): number => ++tapeSeq;

/** A fill as the feed sends it → a tape entry (the record may carry a side; the aggregator's does not). */
export function tapeFill(fill: TradeRecord, live = false): TapeEntry {
  const side = (fill as { side?: unknown }).side;
  const upper = typeof side === 'string' ? side.toUpperCase() : undefined;
  return {
    kind: 'fill',
    seq: nextTapeSeq(),
    price: Number(fill.price),
    size: Number(fill.volumeBase),
    time: Number(fill.timestamp),
    ...(upper === 'BUY' || upper === 'SELL' ? { side: upper } : {}),
    ...(live ? { live: true as const } : {}),
  };
}

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
 * market is its complement (1 − p, and a buy of one is a sell of the other). A fill without a side is
 * guessed by the tick rule: up from the previous fill a buy, down a sell, level the same as before.
 */
export function tapeRows(tape: readonly TapeEntry[], outcomeIndex: number): TapeRow[] {
  const flip = outcomeIndex === 1;
  const rows: TapeRow[] = tape.map((entry) => {
    if (entry.kind === 'gap') return { key: entry.seq, kind: 'gap', time: entry.to, text: `feed down ${clockTime(entry.from)}–${clockTime(entry.to)}` };
    const price = flip ? Math.round((1 - entry.price) * 10_000) / 10_000 : entry.price;
    const side = entry.side && flip ? (entry.side === 'BUY' ? 'SELL' : 'BUY') : entry.side;
    return { key: entry.seq, kind: 'fill', time: entry.time * 1000, price, size: entry.size, side };
  });
  // The tick rule runs oldest to newest.
  let previous: number | undefined;
  let lastSide: 'BUY' | 'SELL' | undefined;
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.kind !== 'fill') continue;
    if (!row.side) {
      const guess = previous === undefined || priceKey(row.price!) === priceKey(previous) ? lastSide : row.price! > previous ? 'BUY' : 'SELL';
      if (guess) {
        row.side = guess;
        row.inferred = true;
      }
    }
    previous = row.price;
    lastSide = row.side ?? lastSide;
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------------------
// Chart

export const CHART_RANGES = ['max', '1w', '1d', '6h', '1h'] as const;
export type ChartRange = (typeof CHART_RANGES)[number];
export type CandleInterval = '1h' | '6h' | '1d' | '1w';

export const INTERVAL_SECONDS: Record<CandleInterval, number> = { '1h': 3_600, '6h': 21_600, '1d': 86_400, '1w': 604_800 };
const RANGE_SECONDS: Record<Exclude<ChartRange, 'max'>, number> = { '1w': 604_800, '1d': 86_400, '6h': 21_600, '1h': 3_600 };

/**
 * A range button → the candle width asked of main and the time span shown. The contract's finest candle is
 * an hour, so the short ranges share it (6h shows six candles, 1h the current one); `max` shows all history
 * (about a month upstream) in daily candles.
 */
export function rangePlan(range: ChartRange, nowSeconds: number): { interval: CandleInterval; visible: { from: number; to: number } | null } {
  switch (range) {
    case 'max':
      return { interval: '1d', visible: null };
    case '1w':
      return { interval: '6h', visible: { from: nowSeconds - RANGE_SECONDS['1w'], to: nowSeconds } };
    default:
      return { interval: '1h', visible: { from: nowSeconds - RANGE_SECONDS[range], to: nowSeconds } };
  }
}

/**
 * A live fill into the candles (oldest first), bucketed as main buckets them (floor of the time by the
 * width): the last candle grows, a later bucket opens a new one, an older fill is left to the next refetch.
 * Returns the candle that changed, or null.
 */
export function applyFillToCandles(candles: Candle[], fill: { price: number; size: number; time: number }, interval: CandleInterval): Candle | null {
  const width = INTERVAL_SECONDS[interval];
  const bucket = Math.floor(fill.time / width) * width;
  const last = candles.at(-1);
  if (last && bucket === last.time) {
    last.high = Math.max(last.high, fill.price);
    last.low = Math.min(last.low, fill.price);
    last.close = fill.price;
    last.volume += fill.size;
    return last;
  }
  if (last && bucket < last.time) return null;
  const candle: Candle = { time: bucket, open: fill.price, high: fill.price, low: fill.price, close: fill.price, volume: fill.size };
  candles.push(candle);
  return candle;
}

// ---------------------------------------------------------------------------------------------------------
// Links

export { marketLinkFromHash, type MarketLink } from '../../links';

/** Space above and below the candles, as parts of the chart's height (the volume bars sit in the bottom part). */
export const CHART_MARGINS = { top: 0.08, bottom: 0.25 } as const;

/**
 * The price axis of a chart of candles from `low` to `high` (cents): the candles with the margins around them,
 * but never outside 0–100¢ (an outcome's price cannot be), and at least a cent tall (a flat market's line).
 */
export function chartPriceRange(low: number, high: number, margins: { top: number; bottom: number } = CHART_MARGINS): { minValue: number; maxValue: number } {
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
export function bookUnknownWhy(status: { state: FeedState; source?: 'live' | 'polling'; error?: { message: string } }): string | null {
  if (status.state === 'open') return null;
  if (status.state === 'stale') return status.source === 'polling' || status.error ? 'exchange unreachable' : 'the exchange has gone quiet';
  if (status.state === 'closed') return 'the book feed is down';
  return 'reconnecting to the exchange';
}
