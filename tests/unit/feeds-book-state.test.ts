import { describe, expect, it } from 'vitest';
import { BookState, formatMillionths, parseMillionths } from '../../src/main/feeds/book-state';

const snapshot = {
  bids: [
    { price: '0.44', size: '200' },
    { price: '0.45', size: '100' },
  ],
  asks: [
    { price: '0.48', size: '50' },
    { price: '0.47', size: '25.5' },
  ],
  hash: 'h1',
  timestamp: '1700000000000',
};

describe('book state', () => {
  it('parses decimal strings exactly', () => {
    expect(parseMillionths('0.45')).toBe(450_000);
    expect(parseMillionths('12.5')).toBe(12_500_000);
    expect(parseMillionths('0.000001')).toBe(1);
    expect(parseMillionths('1e-3')).toBeNaN();
    expect(parseMillionths('-1')).toBeNaN();
    expect(parseMillionths('0.1234567')).toBeNaN();
    expect(formatMillionths(25_500_000)).toBe('25.5');
    expect(formatMillionths(450_000)).toBe('0.45');
    expect(formatMillionths(3_000_000)).toBe('3');
  });

  it('sorts a snapshot best first, whatever order the server listed it in', () => {
    const book = new BookState();
    book.applySnapshot(snapshot);
    expect(book.view()).toEqual({
      bids: [
        { price: 450_000, size: 100_000_000 },
        { price: 440_000, size: 200_000_000 },
      ],
      asks: [
        { price: 470_000, size: 25_500_000 },
        { price: 480_000, size: 50_000_000 },
      ],
    });
    expect(book.bestBid).toBe(450_000);
    expect(book.bestAsk).toBe(470_000);
    expect(book.midpoint).toBe(460_000);
    expect(book.spread).toBe(20_000);
    expect(book.hash).toBe('h1');
    expect(book.timestamp).toBe(1_700_000_000_000);
  });

  it('applies changes: update, insert in order, remove with size 0', () => {
    const book = new BookState();
    book.applySnapshot(snapshot);
    book.applyChange('BUY', '0.45', '80');
    book.applyChange('BUY', '0.455', '10');
    book.applyChange('BUY', '0.43', '5');
    book.applyChange('SELL', '0.47', '0');
    book.applyChange('SELL', '0.475', '1');
    book.applyChange('SELL', '0.49', '0'); // removing an absent level changes nothing
    expect(book.view().bids.map((l) => [l.price, l.size])).toEqual([
      [455_000, 10_000_000],
      [450_000, 80_000_000],
      [440_000, 200_000_000],
      [430_000, 5_000_000],
    ]);
    expect(book.view().asks.map((l) => l.price)).toEqual([475_000, 480_000]);
    expect(book.sizeAt('SELL', 470_000)).toBe(0);
    expect(book.view(1).bids).toHaveLength(1);
  });

  it('writes itself back as the CLOB lists it, and compares with a server snapshot', () => {
    const book = new BookState();
    book.applySnapshot(snapshot);
    expect(book.toLevels()).toEqual({
      bids: [
        { price: '0.44', size: '200' },
        { price: '0.45', size: '100' },
      ],
      asks: [
        { price: '0.48', size: '50' },
        { price: '0.47', size: '25.5' },
      ],
    });
    expect(
      book.sameLevelsAs({
        bids: [
          { price: '0.450', size: '100.0' },
          { price: '0.44', size: '200' },
        ],
        asks: snapshot.asks,
      }),
    ).toBe(true);
    book.applyChange('BUY', '0.45', '99');
    expect(book.sameLevelsAs(snapshot)).toBe(false);
  });

  it('notices a crossed book', () => {
    const book = new BookState();
    book.applySnapshot(snapshot);
    expect(book.crossed).toBe(false);
    book.applyChange('BUY', '0.47', '1');
    expect(book.crossed).toBe(true);
  });

  it('refuses a level that is not a decimal string, with a catalogued error', () => {
    const book = new BookState();
    expect(() => book.applyChange('BUY', 'abc', '1')).toThrow(/invalid price/);
    expect(() => book.applyChange('BUY', '1.5', '1')).toThrow(/invalid price/);
    expect(() => book.applyChange('BUY', '0.5', '-1')).toThrow(/invalid size/);
    try {
      book.applyChange('BUY', '0', '1');
    } catch (error) {
      expect((error as { code: string }).code).toBe('ERR_VALIDATION');
    }
  });
});
