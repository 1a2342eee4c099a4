// The chart's arithmetic: each range's candle width and buckets, the widths a trader may pick, live fills into
// the candles, the linear time axis (every bucket a slot; empty ones a gap for candles and volume, the price
// carried for the line), cents, the axis marks and legend times, and the line/candles mode kept per session.
import { describe, expect, it } from 'vitest';
import { CANDLE_INTERVALS } from '../../src/shared/contract';
import type { Candle } from '../../packages/toolkit/src/model/market-model';
import {
  CHART_RANGES,
  DEFAULT_INTERVAL,
  INTERVAL_SECONDS,
  RANGE_INTERVALS,
  applyFillToCandles,
  rangePlan,
  rememberChartMode,
  rememberedChartMode,
} from '../../src/renderer/src/model/chart-plan';
import {
  MAX_SLOTS,
  axisMark,
  bucketTime,
  candlePoint,
  centsLabel,
  linePoint,
  timeline,
  volumePoint,
} from '../../src/renderer/src/components/market/chart/timeline';
import { CANDLES_PER_CHART } from '../../packages/toolkit/src/polymarket/candles';

const now = 1_700_000_123;
const candle = (time: number, open: number, close: number, volume = 1): Candle => ({
  time,
  open,
  high: Math.max(open, close),
  low: Math.min(open, close),
  close,
  volume,
});

describe('chart ranges', () => {
  it("are Polymarket's, each with a candle width fine enough to read (1H in minutes, Max in days)", () => {
    expect(CHART_RANGES).toEqual(['1h', '6h', '1d', '1w', '1m', 'max']);
    expect(DEFAULT_INTERVAL).toEqual({ '1h': '1m', '6h': '5m', '1d': '15m', '1w': '1h', '1m': '6h', max: '1d' });
    expect(rangePlan('1h', now)).toEqual({
      interval: '1m',
      width: 60,
      from: Math.floor((now - 3_600) / 60) * 60,
      to: Math.floor(now / 60) * 60,
      long: false,
    });
    expect(rangePlan('6h', now)).toMatchObject({
      interval: '5m',
      width: 300,
      from: Math.floor((now - 21_600) / 300) * 300,
      long: false,
    });
    expect(rangePlan('1d', now)).toMatchObject({
      interval: '15m',
      from: Math.floor((now - 86_400) / 900) * 900,
      to: Math.floor(now / 900) * 900,
      long: true,
    });
    expect(rangePlan('1w', now)).toMatchObject({
      interval: '1h',
      from: Math.floor((now - 7 * 86_400) / 3_600) * 3_600,
      long: true,
    });
    expect(rangePlan('1m', now)).toMatchObject({
      interval: '6h',
      from: Math.floor((now - 30 * 86_400) / 21_600) * 21_600,
      long: true,
    });
    expect(rangePlan('max', now)).toEqual({
      interval: '1d',
      width: 86_400,
      from: null,
      to: Math.floor(now / 86_400) * 86_400,
      long: true,
    });
  });

  it('take a width the trader picks when it is one of the range’s, else their default', () => {
    expect(rangePlan('1d', now, '5m').interval).toBe('5m');
    expect(rangePlan('1d', now, '1h')).toMatchObject({ interval: '1h', width: 3_600 });
    expect(rangePlan('1h', now, '1d').interval).toBe('1m');
    expect(rangePlan('1w', now, null).interval).toBe('1h');
  });

  it('offer only widths the contract serves, whose range fits in what Polymarket direct reads', () => {
    const span = { '1h': 3_600, '6h': 21_600, '1d': 86_400, '1w': 604_800, '1m': 2_592_000 } as const;
    for (const range of CHART_RANGES) {
      expect(RANGE_INTERVALS[range]).toContain(DEFAULT_INTERVAL[range]);
      for (const interval of RANGE_INTERVALS[range]) {
        expect(CANDLE_INTERVALS).toContain(interval);
        if (range !== 'max')
          expect(span[range] / INTERVAL_SECONDS[interval], `${range} in ${interval}`).toBeLessThanOrEqual(
            CANDLES_PER_CHART,
          );
      }
    }
  });
});

describe('live fills into the candles', () => {
  it('grow the last candle, open the next one, and leave older fills to the next fetch', () => {
    const hour = 3_600;
    const start = Math.floor(now / hour) * hour;
    const candles: Candle[] = [{ time: start, open: 0.5, high: 0.55, low: 0.45, close: 0.5, volume: 10 }];
    expect(applyFillToCandles(candles, { price: 0.6, size: 5, time: start + 100 }, '1h')).toEqual({
      time: start,
      open: 0.5,
      high: 0.6,
      low: 0.45,
      close: 0.6,
      volume: 15,
    });
    expect(applyFillToCandles(candles, { price: 0.4, size: 2, time: start + hour + 1 }, '1h')).toEqual({
      time: start + hour,
      open: 0.4,
      high: 0.4,
      low: 0.4,
      close: 0.4,
      volume: 2,
    });
    expect(candles).toHaveLength(2);
    expect(applyFillToCandles(candles, { price: 0.9, size: 1, time: start - 1 }, '1h')).toBeNull();
    expect(candles[0]!.high).toBe(0.6);
    // Into no candles at all: the first one.
    expect(applyFillToCandles([], { price: 0.3, size: 1, time: now }, '1d')).toMatchObject({
      time: Math.floor(now / 86_400) * 86_400,
      open: 0.3,
    });
  });

  it('bucket by minutes on the short ranges', () => {
    const minute = Math.floor(now / 60) * 60;
    const candles: Candle[] = [candle(minute, 0.5, 0.5)];
    expect(applyFillToCandles(candles, { price: 0.52, size: 3, time: minute + 59 }, '1m')).toMatchObject({
      time: minute,
      close: 0.52,
      volume: 4,
    });
    expect(applyFillToCandles(candles, { price: 0.51, size: 1, time: minute + 60 }, '1m')).toMatchObject({
      time: minute + 60,
      open: 0.51,
    });
  });
});

describe('the linear time axis', () => {
  const t0 = 1_700_000_040; // a minute's start
  it('has a slot for every bucket: empty ones stay gaps for candles and volume, the line carries the last price', () => {
    const candles = [candle(t0 - 120, 0.4, 0.45), candle(t0 + 60, 0.5, 0.55, 7), candle(t0 + 240, 0.6, 0.58, 2)];
    const slots = timeline(candles, 60, t0, t0 + 300);
    expect(slots.map((s) => s.time)).toEqual([0, 60, 120, 180, 240, 300].map((d) => t0 + d));
    expect(slots.map((s) => s.candle?.close ?? null)).toEqual([null, 0.55, null, null, 0.58, null]);
    // Carried in from the candle before the range, then from each trade.
    expect(slots.map((s) => s.price)).toEqual([0.45, 0.55, 0.55, 0.55, 0.58, 0.58]);
    expect(slots.map(candlePoint)).toEqual([
      { time: t0 },
      { time: t0 + 60, open: 50, high: 55, low: 50, close: 55 },
      { time: t0 + 120 },
      { time: t0 + 180 },
      { time: t0 + 240, open: 60, high: 60, low: 58, close: 58 },
      { time: t0 + 300 },
    ]);
    expect(slots.map(linePoint).map((p) => ('value' in p ? p.value : null))).toEqual([45, 55, 55, 55, 58, 58]);
    const colours = { up: 'green', down: 'red' };
    expect(slots.map((s) => volumePoint(s, colours))).toEqual([
      { time: t0 },
      { time: t0 + 60, value: 7, color: 'green' },
      { time: t0 + 120 },
      { time: t0 + 180 },
      { time: t0 + 240, value: 2, color: 'red' },
      { time: t0 + 300 },
    ]);
  });

  it('leaves the line empty before the first trade, and runs the axis to now without trades', () => {
    const slots = timeline([candle(t0 + 120, 0.3, 0.3)], 60, t0, t0 + 240);
    expect(slots.map(linePoint)).toEqual([
      { time: t0 },
      { time: t0 + 60 },
      { time: t0 + 120, value: 30 },
      { time: t0 + 180, value: 30 },
      { time: t0 + 240, value: 30 },
    ]);
    // No trades in the range at all: the axis still spans it, every slot empty.
    const empty = timeline([], 60, t0, t0 + 180);
    expect(empty.map((s) => [s.time, s.candle, s.price])).toEqual([0, 60, 120, 180].map((d) => [t0 + d, null, null]));
  });

  it('starts Max at the first candle, and has nothing to show without one', () => {
    const day = 86_400;
    const d0 = Math.floor(t0 / day) * day;
    expect(
      timeline([candle(d0, 0.5, 0.5), candle(d0 + 3 * day, 0.6, 0.6)], day, null, d0 + 4 * day).map((s) => s.time),
    ).toEqual([0, 1, 2, 3, 4].map((i) => d0 + i * day));
    expect(timeline([], day, null, d0)).toEqual([]);
  });

  it('reaches a candle stamped past this clock’s bucket, and keeps only the newest slots past the cap', () => {
    expect(timeline([candle(t0 + 120, 0.5, 0.5)], 60, t0, t0 + 30).map((s) => s.time)).toEqual([t0, t0 + 60, t0 + 120]);
    const long = timeline([candle(t0, 0.2, 0.2)], 60, t0, t0 + 60 * (MAX_SLOTS + 10));
    expect(long).toHaveLength(MAX_SLOTS);
    expect(long[0]!.time).toBe(t0 + 60 * 11);
    expect(long.at(-1)!.time).toBe(t0 + 60 * (MAX_SLOTS + 10));
    // The cut-off candle still sets the price carried in.
    expect(long[0]!.price).toBe(0.2);
  });

  it('is evenly spaced from start to end (the axis is linear)', () => {
    const candles = [candle(t0 + 900, 0.5, 0.5), candle(t0 + 9_000, 0.6, 0.6), candle(t0 + 9_900, 0.7, 0.7)];
    const slots = timeline(candles, 900, t0, t0 + 21_600);
    const steps = new Set(slots.slice(1).map((s, i) => s.time - slots[i]!.time));
    expect([...steps]).toEqual([900]);
    expect(slots.filter((s) => s.candle).length).toBe(3);
  });
});

describe('labels', () => {
  const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m, d, h, min).getTime() / 1000;
  it('marks the axis with dates at day, month and year marks, times of day otherwise', () => {
    expect(axisMark(local(2026, 10, 25), 2)).toBe('25 Nov');
    expect(axisMark(local(2026, 11, 1), 1)).toBe('1 Dec');
    expect(axisMark(local(2027, 0, 1), 0)).toBe('2027');
    expect(axisMark(local(2026, 10, 25, 14, 5), 3)).toBe('14:05');
    expect(axisMark(local(2026, 10, 25, 9, 0), 4)).toBe('09:00');
  });

  it('writes a bucket’s time with its date, and the hour where buckets are finer than a day', () => {
    expect(bucketTime(local(2026, 10, 25, 14, 5), 60)).toBe('Wed 25 Nov 14:05');
    expect(bucketTime(local(2026, 10, 25), 86_400)).toBe('Wed 25 Nov 2026');
  });

  it('writes prices in cents at the market’s tick', () => {
    expect(centsLabel(42, 0)).toBe('42¢');
    expect(centsLabel(42.5, 1)).toBe('42.5¢');
  });
});

describe('the line/candles mode', () => {
  it('is the line unless candles were chosen in this session', () => {
    const kept = new Map<string, string>();
    const storage = {
      getItem: (k: string) => kept.get(k) ?? null,
      setItem: (k: string, v: string) => void kept.set(k, v),
    };
    expect(rememberedChartMode(storage)).toBe('line');
    rememberChartMode('candles', storage);
    expect(rememberedChartMode(storage)).toBe('candles');
    rememberChartMode('line', storage);
    expect(rememberedChartMode(storage)).toBe('line');
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(rememberedChartMode(refusing)).toBe('line');
    expect(() => rememberChartMode('candles', refusing)).not.toThrow();
  });
});
