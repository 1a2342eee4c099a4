// The alerts' trigger rules as pure functions (the services feed them books and fills): a book's top, the
// price an alert reads, a crossing, a spread wider than a level, and a volume spike.
import type { BookLevel, TradeRecord } from '@pmdesk/toolkit/model';
import { bookTop as sharedBookTop, midpointOf } from '../../shared/book-top';
import type { AlertPrice } from '../../shared/contract';

/** The best bid and best ask of a book; null for an empty side (unknown, not a price). */
export interface BookTop {
  bid: number | null;
  ask: number | null;
}

/** Prices are compared in millionths: 0.1 + 0.2 must equal 0.3 when a level is crossed. */
const micros = (n: number) => Math.round(n * 1_000_000);

/** The book's best bid and ask (src/shared/book-top.ts, the screen's own definition). */
export function bookTop(book: { bids: BookLevel[]; asks: BookLevel[] }): BookTop {
  const { bestBid, bestAsk } = sharedBookTop(book);
  return { bid: bestBid, ask: bestAsk };
}

/** The price an alert reads: the best bid or ask, their midpoint (both sides needed), or the last trade. */
export function priceOf(field: AlertPrice, top: BookTop, last: number | null): number | null {
  if (field === 'bid') return top.bid;
  if (field === 'ask') return top.ask;
  if (field === 'last') return last;
  return midpointOf(top.bid, top.ask);
}

/**
 * A crossing: the price was seen on the other side of the level and is now at it or past it. Up: from below
 * to at-or-above; down: from above to at-or-below. A first reading already past the level is not a crossing
 * (the alert waits for the price to come back and cross), nor is an unknown price.
 */
export function crossed(
  previous: number | null | undefined,
  now: number | null,
  level: number,
  direction: 'up' | 'down',
): boolean {
  if (previous === null || previous === undefined || now === null) return false;
  const [p, n, l] = [micros(previous), micros(now), micros(level)];
  return direction === 'up' ? p < l && n >= l : p > l && n <= l;
}

/** The spread (best ask − best bid) is wider than the level; unknown (a side empty) is not wider. */
export function spreadWider(top: BookTop, level: number): boolean {
  if (top.bid === null || top.ask === null) return false;
  return micros(top.ask) - micros(top.bid) > micros(level);
}

export interface VolumeReading {
  /** Shares traded in the last `minutes`. */
  recent: number;
  /** Shares traded in the hour before that, scaled to `minutes` (the average per window of that length). */
  baseline: number;
  spike: boolean;
}

/**
 * The volume-spike rule: the shares traded in the last `minutes` exceed `multiple` × the average over the
 * previous hour of a window that long (the hour's shares × minutes / 60). An hour with no trades is no baseline:
 * nothing is a spike against it (a market's first trade is not an alert).
 */
export function volumeSpike(
  fills: readonly Pick<TradeRecord, 'timestamp' | 'volumeBase'>[],
  nowSeconds: number,
  minutes: number,
  multiple: number,
): VolumeReading {
  const windowStart = nowSeconds - minutes * 60;
  const hourStart = windowStart - 3600;
  let recent = 0;
  let hour = 0;
  for (const fill of fills) {
    // A fill stamped a little ahead of this clock (the exchange's) is recent, not left out.
    if (fill.timestamp > windowStart) recent += fill.volumeBase;
    else if (fill.timestamp > hourStart && fill.timestamp <= windowStart) hour += fill.volumeBase;
  }
  const baseline = (hour * minutes) / 60;
  return { recent, baseline, spike: baseline > 0 && recent > multiple * baseline };
}
