// The chart's ranges and candle widths, as Polymarket's range buttons (1H 6H 1D 1W 1M Max): the width each range
// asks main for, the widths a trader may pick instead, the span of buckets shown, the line/candles mode kept for
// the session, and a live fill growing the candles as main buckets them.
import type { CANDLE_INTERVALS } from '../../../shared/contract';
import type { Candle } from '@pmdesk/toolkit/model';

export const CHART_RANGES = ['1h', '6h', '1d', '1w', '1m', 'max'] as const;
export type ChartRange = (typeof CHART_RANGES)[number];
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

export const RANGE_LABELS: Record<ChartRange, string> = {
  '1h': '1H',
  '6h': '6H',
  '1d': '1D',
  '1w': '1W',
  '1m': '1M',
  max: 'Max',
};
export const INTERVAL_LABELS: Record<CandleInterval, string> = {
  '1m': '1 min',
  '5m': '5 min',
  '15m': '15 min',
  '1h': '1 hour',
  '6h': '6 hours',
  '1d': '1 day',
  '1w': '1 week',
};

export const INTERVAL_SECONDS: Record<CandleInterval, number> = {
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '1h': 3_600,
  '6h': 21_600,
  '1d': 86_400,
  '1w': 604_800,
};

const DAY = 86_400;
const RANGE_SECONDS: Record<Exclude<ChartRange, 'max'>, number> = {
  '1h': 3_600,
  '6h': 21_600,
  '1d': DAY,
  '1w': 7 * DAY,
  '1m': 30 * DAY,
};

/**
 * The candle widths offered per range, finest first, the default marked apart. Each fills its range with at
 * most ~300 buckets: Polymarket direct reads 300 candles of the width asked (polymarket/candles.ts
 * CANDLES_PER_CHART), so a finer width would leave the start of the range empty, and more buckets than that
 * are too thin to read anyway.
 */
export const RANGE_INTERVALS: Record<ChartRange, readonly CandleInterval[]> = {
  '1h': ['1m', '5m'],
  '6h': ['5m', '15m'],
  '1d': ['5m', '15m', '1h'],
  '1w': ['1h', '6h'],
  '1m': ['6h', '1d'],
  max: ['1d', '1w'],
};
export const DEFAULT_INTERVAL: Record<ChartRange, CandleInterval> = {
  '1h': '1m',
  '6h': '5m',
  '1d': '15m',
  '1w': '1h',
  '1m': '6h',
  max: '1d',
};

export interface RangePlan {
  interval: CandleInterval;
  /** Bucket width in seconds. */
  width: number;
  /** The first bucket shown (its start, unix seconds); null for Max: from the first candle there is. */
  from: number | null;
  /** The current bucket (its start): the time axis runs up to now, trade or not. */
  to: number;
  /** A range of a day or more: its axis is read in dates, a shorter one in times of day. */
  long: boolean;
}

/** A range button (and the width picked, if one of the range's) → the candles asked of main and the buckets shown. */
export function rangePlan(range: ChartRange, nowSeconds: number, picked?: CandleInterval | null): RangePlan {
  const interval = picked && RANGE_INTERVALS[range].includes(picked) ? picked : DEFAULT_INTERVAL[range];
  const width = INTERVAL_SECONDS[interval];
  const bucket = (t: number) => Math.floor(t / width) * width;
  const from = range === 'max' ? null : bucket(nowSeconds - RANGE_SECONDS[range]);
  return { interval, width, from, to: bucket(nowSeconds), long: range !== '1h' && range !== '6h' };
}

/**
 * A live fill into the candles (oldest first), bucketed as main buckets them (floor of the time by the
 * width): the last candle grows, a later bucket opens a new one, an older fill is left to the next refetch.
 * Returns the candle that changed, or null.
 */
export function applyFillToCandles(
  candles: Candle[],
  fill: { price: number; size: number; time: number },
  interval: CandleInterval,
): Candle | null {
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
  const candle: Candle = {
    time: bucket,
    open: fill.price,
    high: fill.price,
    low: fill.price,
    close: fill.price,
    volume: fill.size,
  };
  candles.push(candle);
  return candle;
}

// ---------------------------------------------------------------------------------------------------------
// Mode

export type ChartMode = 'line' | 'candles';
const MODE_KEY = 'pmdesk.chart.mode';

/** The tab's session storage (kept across a reload, forgotten with the window), as far as the mode needs it. */
interface ModeStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}
const sessionStore = (): ModeStore | undefined => (globalThis as { sessionStorage?: ModeStore }).sessionStorage;

/** The probability line unless the trader chose candles in this session (as Polymarket opens on its line). */
export function rememberedChartMode(storage: Pick<ModeStore, 'getItem'> | undefined = sessionStore()): ChartMode {
  try {
    return storage?.getItem(MODE_KEY) === 'candles' ? 'candles' : 'line';
  } catch {
    // Storage refused (a locked-down page): the default, not an error for the trader.
    return 'line';
  }
}

export function rememberChartMode(
  mode: ChartMode,
  storage: Pick<ModeStore, 'setItem'> | undefined = sessionStore(),
): void {
  try {
    storage?.setItem(MODE_KEY, mode);
  } catch {
    // Not kept: the switch still works for this chart.
  }
}
