// The alerts' and stops' trigger rules: a book's top in any level order, crossings up and down (a first reading
// past the level is not one), the midpoint and the last trade, a spread wider than a level, the volume-spike
// rule, and a stop's best-bid trigger and the shares it sells.
import { describe, expect, it } from 'vitest';
import { bookTop, crossed, priceOf, spreadWider, volumeSpike } from '../../src/main/watch/rules';
import { sharesToSell, stopTriggered } from '../../src/main/stops/rules';

const level = (price: number, size = 10) => ({ price, size });

describe('bookTop', () => {
  it('takes the highest bid and the lowest ask whatever the order, skipping empty levels', () => {
    expect(bookTop({ bids: [level(0.4), level(0.45), level(0.47, 0)], asks: [level(0.55), level(0.52)] })).toEqual({
      bid: 0.45,
      ask: 0.52,
    });
    expect(bookTop({ bids: [], asks: [level(0.6)] })).toEqual({ bid: null, ask: 0.6 });
  });
});

describe('priceOf', () => {
  const top = { bid: 0.41, ask: 0.44 };
  it('reads bid, ask, the midpoint and the last trade', () => {
    expect(priceOf('bid', top, null)).toBe(0.41);
    expect(priceOf('ask', top, null)).toBe(0.44);
    expect(priceOf('mid', top, null)).toBe(0.425);
    expect(priceOf('last', top, 0.43)).toBe(0.43);
    expect(priceOf('mid', { bid: null, ask: 0.44 }, null)).toBeNull();
    expect(priceOf('last', top, null)).toBeNull();
  });
});

describe('crossed', () => {
  it('up: from below to at or above the level', () => {
    expect(crossed(0.49, 0.5, 0.5, 'up')).toBe(true);
    expect(crossed(0.4, 0.6, 0.5, 'up')).toBe(true);
    expect(crossed(0.5, 0.6, 0.5, 'up')).toBe(false);
    expect(crossed(0.4, 0.45, 0.5, 'up')).toBe(false);
    expect(crossed(0.6, 0.4, 0.5, 'up')).toBe(false);
  });
  it('down: from above to at or below the level', () => {
    expect(crossed(0.51, 0.5, 0.5, 'down')).toBe(true);
    expect(crossed(0.6, 0.3, 0.5, 'down')).toBe(true);
    expect(crossed(0.4, 0.3, 0.5, 'down')).toBe(false);
  });
  it('a first reading, or an unknown price, is not a crossing', () => {
    expect(crossed(undefined, 0.6, 0.5, 'up')).toBe(false);
    expect(crossed(null, 0.6, 0.5, 'up')).toBe(false);
    expect(crossed(0.4, null, 0.5, 'up')).toBe(false);
  });
  it('compares exactly, not in floating point', () => {
    expect(crossed(0.2, 0.1 + 0.2, 0.3, 'up')).toBe(true);
  });
});

describe('spreadWider', () => {
  it('is wider only when both sides are known and the gap exceeds the level', () => {
    expect(spreadWider({ bid: 0.4, ask: 0.46 }, 0.05)).toBe(true);
    expect(spreadWider({ bid: 0.4, ask: 0.45 }, 0.05)).toBe(false);
    expect(spreadWider({ bid: null, ask: 0.45 }, 0.05)).toBe(false);
  });
});

describe('volumeSpike', () => {
  const now = 1_000_000;
  it('compares the last N minutes with N/60 of the hour before', () => {
    // 120 shares in the hour before the last 5 minutes: an average 10 per 5 minutes.
    const hour = Array.from({ length: 12 }, (_, i) => ({ timestamp: now - 300 - 60 - i * 300, volumeBase: 10 }));
    expect(volumeSpike([...hour, { timestamp: now - 10, volumeBase: 31 }], now, 5, 3)).toEqual({
      recent: 31,
      baseline: 10,
      spike: true,
    });
    expect(volumeSpike([...hour, { timestamp: now - 10, volumeBase: 30 }], now, 5, 3)).toMatchObject({ spike: false });
  });
  it('a fill stamped a little ahead of this clock counts as recent', () => {
    expect(
      volumeSpike(
        [
          { timestamp: now - 600, volumeBase: 60 },
          { timestamp: now + 2, volumeBase: 5 },
        ],
        now,
        5,
        3,
      ),
    ).toEqual({ recent: 5, baseline: 5, spike: false });
  });
  it('an hour without trades is no baseline', () => {
    expect(volumeSpike([{ timestamp: now - 10, volumeBase: 1000 }], now, 5, 3)).toEqual({
      recent: 1000,
      baseline: 0,
      spike: false,
    });
  });
  it('leaves out fills older than the hour', () => {
    expect(
      volumeSpike(
        [
          { timestamp: now - 300 - 3601, volumeBase: 1000 },
          { timestamp: now - 1, volumeBase: 1 },
        ],
        now,
        5,
        3,
      ).baseline,
    ).toBe(0);
  });
});

describe('stops', () => {
  it('a stop-loss fires when the best bid falls to or below its level', () => {
    expect(stopTriggered('stop-loss', 0.42, 0.42)).toBe(true);
    expect(stopTriggered('stop-loss', 0.41, 0.42)).toBe(true);
    expect(stopTriggered('stop-loss', 0.43, 0.42)).toBe(false);
  });
  it('a take-profit fires when the best bid rises to or above its level', () => {
    expect(stopTriggered('take-profit', 0.7, 0.7)).toBe(true);
    expect(stopTriggered('take-profit', 0.69, 0.7)).toBe(false);
  });
  it('no bid fires nothing', () => {
    expect(stopTriggered('stop-loss', null, 0.42)).toBe(false);
  });
  it('sells its size, never more than held, in hundredths rounded down', () => {
    expect(sharesToSell(null, 20.129)).toBe(20.12);
    expect(sharesToSell(5, 20)).toBe(5);
    expect(sharesToSell(50, 20)).toBe(20);
    expect(sharesToSell(null, 0)).toBe(0);
  });
});
