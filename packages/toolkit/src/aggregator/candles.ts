// Candles from fill records: bucketed by interval, open/high/low/close/volume, bucket start in seconds.
import { invalidParameter } from '../model/errors';
import type { Candle, TradeRecord } from '../model/market-model';

export type { Candle };

/** The price-history intervals of docs/protocol.md#entities, by name. */
export const PRICE_HISTORY_INTERVALS = ['max', '1w', '1d', '6h', '1h'] as const;
export type PriceHistoryInterval = (typeof PRICE_HISTORY_INTERVALS)[number];

/** Candle widths for the named intervals that have one ('max' is a time range, not a candle width). */
export const CANDLE_INTERVAL_MS = {
  '1h': 3_600_000,
  '6h': 21_600_000,
  '1d': 86_400_000,
  '1w': 604_800_000,
} as const satisfies Partial<Record<PriceHistoryInterval, number>>;
export type CandleIntervalName = keyof typeof CANDLE_INTERVAL_MS;

/** A named interval (1h, 6h, 1d, 1w) or a number of milliseconds, as milliseconds. */
export function candleIntervalMillis(interval: string | number): number {
  if (typeof interval === 'string' && interval in CANDLE_INTERVAL_MS)
    return CANDLE_INTERVAL_MS[interval as CandleIntervalName];
  const ms =
    typeof interval === 'number' ? interval : /^\s*-?\d+(\.\d+)?\s*$/.test(interval) ? Number(interval) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw invalidParameter(
      `Unknown candle interval '${interval}': use 1h, 6h, 1d, 1w or a number of milliseconds.`,
      'generateCandles',
    );
  }
  return ms;
}

/**
 * Buckets fills whose time (seconds × 1000) lies in [fromMs, toMs) into candles of `intervalMillis`.
 * Records with a non-numeric field are skipped. The result is sorted by time.
 */
export function generateCandles(
  records: readonly TradeRecord[],
  intervalMillis: number,
  fromMs = 0,
  toMs = Number.POSITIVE_INFINITY,
): Candle[] {
  if (typeof intervalMillis !== 'number' || !(intervalMillis > 0) || !Number.isFinite(intervalMillis)) {
    throw invalidParameter('Candlestick intervalMillis must be positive.', 'generateCandles');
  }
  const fills: { ms: number; price: number; volume: number; order: number }[] = [];
  records.forEach((r, order) => {
    if (!r || !isNum(r.price) || !isNum(r.volumeBase) || !isNum(r.timestamp)) return;
    const ms = r.timestamp * 1000;
    if (ms >= fromMs && ms < toMs) fills.push({ ms, price: r.price, volume: r.volumeBase, order });
  });
  // Stable by arrival for fills in the same second, so open and close follow the feed's order.
  fills.sort((a, b) => a.ms - b.ms || a.order - b.order);

  const candles: Candle[] = [];
  let current: Candle | undefined;
  let currentBucket = Number.NaN;
  for (const fill of fills) {
    const bucket = Math.floor(fill.ms / intervalMillis) * intervalMillis;
    if (bucket !== currentBucket || !current) {
      current = {
        time: Math.floor(bucket / 1000),
        open: fill.price,
        high: fill.price,
        low: fill.price,
        close: fill.price,
        volume: fill.volume,
      };
      currentBucket = bucket;
      candles.push(current);
    } else {
      if (fill.price > current.high) current.high = fill.price;
      if (fill.price < current.low) current.low = fill.price;
      current.close = fill.price;
      current.volume += fill.volume;
    }
  }
  return candles;
}

function isNum(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
