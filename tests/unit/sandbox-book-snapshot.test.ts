import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bookHash, bookSnapshot, levelChanges, priceString, sharesString } from '../../sandbox/clob/book-snapshot';

describe('CLOB book snapshots', () => {
  it('write prices and sizes as short decimal strings', () => {
    expect(priceString(4500)).toBe('0.45');
    expect(priceString(25)).toBe('0.0025');
    expect(priceString(1000)).toBe('0.1');
    expect(sharesString(12_500_000n)).toBe('12.5');
    expect(sharesString(100_000_000n)).toBe('100');
    expect(sharesString(1n)).toBe('0.000001');
  });

  it('list the best level last on both sides, and hash the summary with an empty hash', () => {
    const book = bookSnapshot({
      conditionId: '0xc',
      tokenId: '1',
      levels: {
        bids: [
          { price: 4500, size: 1_000_000n },
          { price: 4400, size: 2_000_000n },
        ],
        asks: [
          { price: 4600, size: 3_000_000n },
          { price: 4700, size: 4_000_000n },
        ],
      },
      minOrderSize: 5,
      tickSize: '0.01',
      negRisk: false,
      lastTradePrice: 0.45,
      timestamp: 1_700_000_000_000,
    });
    expect(book.bids).toEqual([
      { price: '0.44', size: '2' },
      { price: '0.45', size: '1' },
    ]);
    expect(book.asks).toEqual([
      { price: '0.47', size: '4' },
      { price: '0.46', size: '3' },
    ]);
    const expected = createHash('sha1')
      .update(JSON.stringify({ ...book, hash: '' }))
      .digest('hex');
    expect(book.hash).toBe(expected);
    expect(bookHash(book)).toBe(book.hash);
    expect(bookHash({ ...book, bids: [] })).not.toBe(book.hash);
  });

  it('list the levels a change moved: sizes in place, levels added, levels gone (size "0")', () => {
    const lv = (price: string, size: string) => ({ price, size });
    const before = [lv('0.47', '4'), lv('0.46', '3'), lv('0.45', '1')];
    // Sizes only, every price in its place.
    expect(levelChanges(before, [before[0]!, lv('0.46', '7'), before[2]!], 'SELL')).toEqual([
      { price: '0.46', size: '7', side: 'SELL' },
    ]);
    expect(levelChanges(before, before, 'SELL')).toEqual([]);
    // A best level added, one gone, the same count with a price moved.
    expect(levelChanges(before, [...before, lv('0.44', '2')], 'SELL')).toEqual([
      { price: '0.44', size: '2', side: 'SELL' },
    ]);
    expect(levelChanges(before, before.slice(0, 2), 'BUY')).toEqual([{ price: '0.45', size: '0', side: 'BUY' }]);
    expect(levelChanges(before, [before[0]!, before[1]!, lv('0.44', '1')], 'BUY')).toEqual([
      { price: '0.44', size: '1', side: 'BUY' },
      { price: '0.45', size: '0', side: 'BUY' },
    ]);
    expect(levelChanges([], before, 'BUY')).toHaveLength(3);
  });

  it('list the same changes as a map of the old side would, on random books', () => {
    let seed = 7;
    const random = (below: number) => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return (seed >>> 8) % below;
    };
    // Distinct prices, as a book's side has them, often the same ones in the same places.
    const side = () => {
      let price = 10;
      return Array.from({ length: 1 + random(6) }, () => ({
        price: `0.${(price += 1 + random(2))}`,
        size: String(1 + random(3)),
      }));
    };
    const byMap = (before: { price: string; size: string }[], after: { price: string; size: string }[]) => {
      const old = new Map(before.map((l) => [l.price, l.size]));
      const out = after.filter((l) => old.get(l.price) !== l.size).map((l) => ({ ...l, side: 'BUY' }));
      for (const l of after) old.delete(l.price);
      return [...out, ...[...old.keys()].map((price) => ({ price, size: '0', side: 'BUY' }))];
    };
    for (let i = 0; i < 500; i++) {
      const before = side();
      const after = side();
      expect(levelChanges(before, after, 'BUY')).toEqual(byMap(before, after));
    }
  });
});
