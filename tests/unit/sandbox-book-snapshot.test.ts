import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bookHash, bookSnapshot, priceString, sharesString } from '../../sandbox/clob/book-snapshot';

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
    const expected = createHash('sha1').update(JSON.stringify({ ...book, hash: '' })).digest('hex');
    expect(book.hash).toBe(expected);
    expect(bookHash(book)).toBe(book.hash);
    expect(bookHash({ ...book, bids: [] })).not.toBe(book.hash);
  });
});
