// The chart's time axis kept linear: every bucket of the range is a slot, with its candle or none. The library
// lays points out one per slot whatever their times, so a bucket without a trade must still be a point or the
// axis would close up around it (six hours with two trades drawn as two adjacent candles). Candles and volume
// leave such a bucket empty (a whitespace point: a gap stays a gap); the probability line carries the last
// traded price across it, as Polymarket's line does (no trade: the price has not moved).
import type { CandlestickData, HistogramData, LineData, UTCTimestamp, WhitespaceData } from 'lightweight-charts';
import type { Candle } from '@pmdesk/toolkit/model';

export interface Slot {
  /** The bucket's start, unix seconds. */
  time: number;
  /** The bucket's candle; null when nothing traded in it. */
  candle: Candle | null;
  /** The last traded price at the end of this bucket (carried over empty ones); null before the first trade. */
  price: number | null;
}

/** At most this many slots: the newest are kept (a week of minutes would be 10,080 thin slivers). */
export const MAX_SLOTS = 3_000;

const floorTo = (t: number, width: number) => Math.floor(t / width) * width;

/**
 * One slot per bucket from `from` (null: the first candle's bucket) to `to`, or to the last candle if that is
 * later (a fill stamped a moment ahead of this clock). Candles before `from` only give the price carried in.
 * Candles are oldest first, bucket starts in seconds, as main sends them.
 */
export function timeline(candles: readonly Candle[], width: number, from: number | null, to: number): Slot[] {
  const first = from ?? candles[0]?.time;
  if (first === undefined) return [];
  let start = floorTo(first, width);
  const end = Math.max(floorTo(to, width), candles.length > 0 ? floorTo(candles.at(-1)!.time, width) : -Infinity);
  if (end < start) return [];
  start = Math.max(start, end - (MAX_SLOTS - 1) * width);
  let price: number | null = null;
  let next = 0;
  for (; next < candles.length && floorTo(candles[next]!.time, width) < start; next++) price = candles[next]!.close;
  const slots: Slot[] = [];
  for (let time = start; time <= end; time += width) {
    let candle: Candle | null = null;
    // One candle per bucket from main; should two share one, the later wins (it has the close).
    while (next < candles.length && floorTo(candles[next]!.time, width) === time) candle = candles[next++]!;
    if (candle) price = candle.close;
    slots.push({ time, candle, price });
  }
  return slots;
}

const at = (time: number) => time as UTCTimestamp;
/** Prices are drawn in cents (the axis, legend and crosshair say ¢), volume in shares. */
const cents = (price: number) => Math.round(price * 1_000_000) / 10_000;

export function candlePoint(slot: Slot): CandlestickData | WhitespaceData {
  const c = slot.candle;
  return c
    ? { time: at(slot.time), open: cents(c.open), high: cents(c.high), low: cents(c.low), close: cents(c.close) }
    : { time: at(slot.time) };
}

export function linePoint(slot: Slot): LineData | WhitespaceData {
  return slot.price === null ? { time: at(slot.time) } : { time: at(slot.time), value: cents(slot.price) };
}

export function volumePoint(slot: Slot, colours: { up: string; down: string }): HistogramData | WhitespaceData {
  const c = slot.candle;
  return c
    ? { time: at(slot.time), value: c.volume, color: c.close >= c.open ? colours.up : colours.down }
    : { time: at(slot.time) };
}

// ---------------------------------------------------------------------------------------------------------
// Labels

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const two = (n: number) => String(n).padStart(2, '0');

/**
 * A time-axis mark in the trader's time zone (as the tape's times): the library's mark types are 0 year, 1 month,
 * 2 day of month, 3 time, 4 time with seconds. Marks at a day or longer read as dates ("25 Nov", "2026"), the
 * others as times of day ("14:05"). The library's default writes a day as a bare "25".
 */
export function axisMark(time: number, markType: number): string {
  const d = new Date(time * 1000);
  if (markType === 0) return String(d.getFullYear());
  if (markType <= 2) return `${d.getDate()} ${MONTHS[d.getMonth()]}`;
  return `${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** A bucket's time for the legend and the crosshair: "Tue 25 Nov 14:05", or "Tue 25 Nov 2026" for daily and wider buckets. */
export function bucketTime(time: number, width: number): string {
  const d = new Date(time * 1000);
  const day = `${WEEKDAYS[d.getDay()]} ${d.getDate()} ${MONTHS[d.getMonth()]}`;
  return width >= 86_400 ? `${day} ${d.getFullYear()}` : `${day} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** A price in cents on the axis and crosshair: "42¢", "42.5¢" at the market's tick. */
export function centsLabel(value: number, decimals: number): string {
  return `${value.toFixed(decimals)}¢`;
}
