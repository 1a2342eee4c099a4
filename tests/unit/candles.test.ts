import { describe, expect, it } from 'vitest';
import {
  CANDLE_INTERVAL_MS,
  PRICE_HISTORY_INTERVALS,
  candleIntervalMillis,
  generateCandles,
} from '../../packages/toolkit/src/aggregator/candles';
import { PmDeskError } from '../../packages/toolkit/src/model/errors';

const HOUR = 3_600_000;
const t = (hours: number, seconds = 0) => (hours * HOUR) / 1000 + seconds;

describe('candles', () => {
  it('buckets fills into open/high/low/close/volume with bucket starts in seconds', () => {
    const candles = generateCandles(
      [
        { price: 0.5, volumeBase: 10, timestamp: t(1, 5) },
        { price: 0.7, volumeBase: 1, timestamp: t(1, 100) },
        { price: 0.4, volumeBase: 2, timestamp: t(1, 200) },
        { price: 0.6, volumeBase: 3, timestamp: t(1, 3599) },
        { price: 0.55, volumeBase: 4, timestamp: t(3) },
      ],
      HOUR,
    );
    expect(candles).toEqual([
      { time: t(1), open: 0.5, high: 0.7, low: 0.4, close: 0.6, volume: 16 },
      { time: t(3), open: 0.55, high: 0.55, low: 0.55, close: 0.55, volume: 4 },
    ]);
  });

  it('sorts fills by time first, keeping arrival order within the same second', () => {
    const candles = generateCandles(
      [
        { price: 0.3, volumeBase: 1, timestamp: t(0, 50) },
        { price: 0.1, volumeBase: 1, timestamp: t(0, 10) },
        { price: 0.2, volumeBase: 1, timestamp: t(0, 50) },
      ],
      HOUR,
    );
    expect(candles).toEqual([{ time: 0, open: 0.1, high: 0.3, low: 0.1, close: 0.2, volume: 3 }]);
  });

  it('keeps fills in [from, to) only, in milliseconds', () => {
    const fills = [0, 1, 2, 3].map((h) => ({ price: 0.1 * (h + 1), volumeBase: 1, timestamp: t(h) }));
    const candles = generateCandles(fills, HOUR, HOUR, 3 * HOUR);
    expect(candles.map((c) => c.time)).toEqual([t(1), t(2)]);
  });

  it('skips records with a field that is not a number', () => {
    const candles = generateCandles(
      [
        { price: 0.5, volumeBase: 1, timestamp: 10 },
        { price: '0.9' as unknown as number, volumeBase: 1, timestamp: 20 },
        { price: 0.6, volumeBase: Number.NaN, timestamp: 30 },
      ],
      HOUR,
    );
    expect(candles).toEqual([{ time: 0, open: 0.5, high: 0.5, low: 0.5, close: 0.5, volume: 1 }]);
  });

  it('returns no candles for no fills', () => {
    expect(generateCandles([], HOUR)).toEqual([]);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses interval %s with the documented message',
    (interval) => {
      expect(() => generateCandles([], interval)).toThrow(PmDeskError);
      expect(() => generateCandles([], interval)).toThrow('Candlestick intervalMillis must be positive.');
      try {
        generateCandles([], interval);
      } catch (error) {
        expect((error as PmDeskError).code).toBe('ERR_INVALID_PARAM');
      }
    },
  );

  it('offers the price-history intervals by name', () => {
    expect(PRICE_HISTORY_INTERVALS).toEqual(['max', '1w', '1d', '6h', '1h']);
    expect(CANDLE_INTERVAL_MS).toEqual({ '1h': HOUR, '6h': 6 * HOUR, '1d': 24 * HOUR, '1w': 168 * HOUR });
    expect(candleIntervalMillis('6h')).toBe(6 * HOUR);
    expect(candleIntervalMillis('90000')).toBe(90_000);
    expect(candleIntervalMillis(-5)).toBe(-5);
    expect(() => candleIntervalMillis('2h')).toThrow("Unknown candle interval '2h'");
  });
});
