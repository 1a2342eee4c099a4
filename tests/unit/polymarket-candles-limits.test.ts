// The pure parts of Polymarket direct: candles bucketed from a price history (volume only where the fills
// cover a bucket), the history window per chart interval, Retry-After in both forms, and the sliding-window
// budget measured against a clock the test controls.
import { describe, expect, it } from 'vitest';
import { CANDLE_SECONDS, candlesFromHistory, historyWindow } from '../../packages/toolkit/src/polymarket/candles';
import { parseRetryAfter, throttleWait } from '../../packages/toolkit/src/polymarket/http';
import { HostLimiter, SlidingWindowLimiter, limiterFor } from '../../packages/toolkit/src/polymarket/limiter';
import { PmDeskError } from '../../packages/toolkit/src/model/errors';

describe('candles from a price history', () => {
  const points = [
    { t: 3_700, p: 0.5 },
    { t: 3_600, p: 0.4 },
    { t: 4_000, p: 0.6 },
    { t: 7_300, p: 0.55 },
  ];

  it('buckets points into OHLC by width, oldest first, whatever order they came in', () => {
    expect(candlesFromHistory(points, 3_600)).toEqual([
      { time: 3_600, open: 0.4, high: 0.6, low: 0.4, close: 0.6, volume: 0 },
      { time: 7_200, open: 0.55, high: 0.55, low: 0.55, close: 0.55, volume: 0 },
    ]);
  });

  it('sums fill sizes per bucket when the fills are all there is', () => {
    const fills = [
      { price: 0.4, volumeBase: 10, timestamp: 3_650 },
      { price: 0.6, volumeBase: 5, timestamp: 3_900 },
      { price: 0.55, volumeBase: 2, timestamp: 7_250 },
    ];
    expect(candlesFromHistory(points, 3_600, fills, true).map((c) => c.volume)).toEqual([15, 2]);
  });

  it('leaves 0 in a bucket that starts before the oldest fill of a cut-off read (its volume is not known)', () => {
    const fills = [
      { price: 0.6, volumeBase: 5, timestamp: 3_900 },
      { price: 0.55, volumeBase: 2, timestamp: 7_250 },
    ];
    expect(candlesFromHistory(points, 3_600, fills, false).map((c) => c.volume)).toEqual([0, 2]);
  });

  it('asks a few hundred candles of the interval, at a finer fidelity in minutes', () => {
    const now = 1_764_000_000;
    for (const [interval, width] of Object.entries(CANDLE_SECONDS)) {
      const window = historyWindow(interval as keyof typeof CANDLE_SECONDS, now);
      const candles = (window.endTs - window.startTs) / width;
      expect(candles).toBeGreaterThanOrEqual(300);
      expect(candles).toBeLessThan(302);
      expect(window.fidelity).toBeGreaterThanOrEqual(1);
      expect(window.fidelity * 60).toBeLessThanOrEqual(width);
    }
    expect(historyWindow('1h', now).fidelity).toBe(15);
    expect(historyWindow('1m', now).fidelity).toBe(1);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');

  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter('Wed, 25 Nov 2026 12:00:07 GMT', now)).toBe(7_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('waits on a 429 (1 s when it names no time) and on a 503 only when it names one', () => {
    const failure = (statusCode: number, retryAfter?: string) =>
      new PmDeskError(statusCode === 429 ? 'ERR_RATE_LIMIT' : 'ERR_SERVER', 'x', {
        statusCode,
        context: retryAfter ? { retryAfter } : {},
      });
    expect(throttleWait(failure(429, '2'), now)).toBe(2_000);
    expect(throttleWait(failure(429), now)).toBe(1_000);
    expect(throttleWait(failure(503, '4'), now)).toBe(4_000);
    expect(throttleWait(failure(503), now)).toBeUndefined();
    expect(throttleWait(failure(500, '4'), now)).toBeUndefined();
  });
});

describe('request budgets', () => {
  it('lets at most `limit` requests start in any window, the rest once the oldest leaves it', async () => {
    let clock = 0;
    const limiter = new SlidingWindowLimiter({ limit: 3, windowMs: 50 }, () => clock);
    const started: number[] = [];
    const all = Array.from({ length: 5 }, () => limiter.take().then(() => started.push(clock)));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(started).toEqual([0, 0, 0]);
    clock = 51;
    await Promise.all(all);
    expect(started).toEqual([0, 0, 0, 51, 51]);
  });

  it('takes both the class budget and the host budget', async () => {
    let clock = 0;
    const host = new HostLimiter(
      { general: { limit: 2, windowMs: 100 }, events: { limit: 5, windowMs: 100 } },
      () => clock,
    );
    let done = 0;
    const takes = [host.take('events'), host.take('events'), host.take('other')].map((p) => p.then(() => done++));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(done).toBe(2);
    clock = 101;
    await Promise.all(takes);
    expect(done).toBe(3);
  });

  it('is shared by every client of one API host, and separate per API and per host', () => {
    const budgets = { general: { limit: 1, windowMs: 10 } };
    const gamma = limiterFor('gamma', 'http://127.0.0.1:4100/x', budgets);
    expect(limiterFor('gamma', 'http://127.0.0.1:4100/y/', budgets)).toBe(gamma);
    expect(limiterFor('data', 'http://127.0.0.1:4100', budgets)).not.toBe(gamma);
    expect(limiterFor('gamma', 'http://127.0.0.1:4101', budgets)).not.toBe(gamma);
  });
});
