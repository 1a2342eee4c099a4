// A chart's candles from the CLOB's price history (docs/protocol.md#market-page-prices): a window of a few hundred candles
// of the chosen width, asked at a finer fidelity, bucketed into open/high/low/close. The history is prices
// only, so volume comes from the market's recent fills where they cover a whole bucket, and is 0 elsewhere:
// a partly known bucket would show a volume smaller than it was.
import type { Candle, TradeRecord } from '../model/market-model';
import type { ChartInterval } from '../model/market-source';
import type { PricePoint } from './clob-schemas';

/** Candle width per chart interval, in seconds. */
export const CANDLE_SECONDS: Record<ChartInterval, number> = {
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '1h': 3_600,
  '6h': 21_600,
  '1d': 86_400,
  '1w': 604_800,
};

/** Candles a chart asks for. */
export const CANDLES_PER_CHART = 300;
/** Price points per candle asked for where the width allows (a 1 m candle can only have one). */
const POINTS_PER_CANDLE = 4;

export interface HistoryWindow {
  startTs: number;
  endTs: number;
  /** Point spacing in minutes. */
  fidelity: number;
}

/** The /prices-history window for an interval ending now: a few hundred candles, several points each. */
export function historyWindow(interval: ChartInterval, nowSeconds = Math.floor(Date.now() / 1000)): HistoryWindow {
  const width = CANDLE_SECONDS[interval];
  const endTs = nowSeconds;
  const startTs = Math.floor((endTs - width * CANDLES_PER_CHART) / width) * width;
  return { startTs, endTs, fidelity: Math.max(1, Math.floor(width / 60 / POINTS_PER_CANDLE)) };
}

/**
 * Buckets price points into candles of `widthSeconds`, oldest first. `fills` are the token's known fills;
 * `fillsComplete` says they are all of them (the read was not cut off), else only buckets wholly after the
 * oldest fill get a volume.
 */
export function candlesFromHistory(
  points: readonly PricePoint[],
  widthSeconds: number,
  fills: readonly TradeRecord[] = [],
  fillsComplete = false,
): Candle[] {
  const sorted = points.filter((p) => Number.isFinite(p.t) && Number.isFinite(p.p)).sort((a, b) => a.t - b.t);
  const candles: Candle[] = [];
  let current: Candle | undefined;
  for (const point of sorted) {
    const time = Math.floor(point.t / widthSeconds) * widthSeconds;
    if (!current || current.time !== time) {
      current = { time, open: point.p, high: point.p, low: point.p, close: point.p, volume: 0 };
      candles.push(current);
    } else {
      current.high = Math.max(current.high, point.p);
      current.low = Math.min(current.low, point.p);
      current.close = point.p;
    }
  }
  if (fills.length === 0) return candles;
  const oldestFill = Math.min(...fills.map((f) => f.timestamp));
  const volumeByBucket = new Map<number, number>();
  for (const fill of fills) {
    const time = Math.floor(fill.timestamp / widthSeconds) * widthSeconds;
    volumeByBucket.set(time, (volumeByBucket.get(time) ?? 0) + fill.volumeBase);
  }
  for (const candle of candles) {
    const known = fillsComplete || candle.time >= oldestFill;
    if (known) candle.volume = volumeByBucket.get(candle.time) ?? 0;
  }
  return candles;
}
