// The one book shape main hands out (src/shared/book.ts): a source's levels in any order, as text or numbers,
// become numbers, one level a price, each side best first.
import { describe, expect, it } from 'vitest';
import { bookFromLevels } from '../../src/shared/book';

describe('bookFromLevels', () => {
  it('sorts each side best first, folds a price given twice and drops empty or unreadable levels', () => {
    const book = bookFromLevels('tok', {
      market: '0xabc',
      hash: 'h1',
      timestamp: '1700000000123',
      bids: [
        { price: '0.4', size: '10' },
        { price: '0.45', size: '0' },
        { price: '0.5', size: '2.5' },
        { price: '0.50', size: '1.5' },
        { price: 'x', size: '1' },
      ],
      asks: [
        { price: 0.7, size: 1 },
        { price: 0.55, size: 3 },
        { price: 1.2, size: 4 },
      ],
    });
    expect(book).toEqual({
      tokenId: 'tok',
      market: '0xabc',
      hash: 'h1',
      timestamp: 1700000000123,
      bids: [
        { price: 0.5, size: 4 },
        { price: 0.4, size: 10 },
      ],
      asks: [
        { price: 0.55, size: 3 },
        { price: 0.7, size: 1 },
      ],
    });
  });

  it('names what a source leaves out plainly: no market, hash or time', () => {
    expect(bookFromLevels('tok', { bids: [], asks: [] })).toEqual({
      tokenId: 'tok',
      market: '',
      hash: '',
      timestamp: 0,
      bids: [],
      asks: [],
    });
  });
});
