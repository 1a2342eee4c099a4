// Price bounds, tick resolution and the market price walked from a book, with the documented messages.
import { describe, expect, it } from 'vitest';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import {
  assertPriceInRange,
  isPriceInRange,
  marketPriceFromBook,
  resolveTickSize,
} from '../../packages/toolkit/src/orders/price';

const detail = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return (error as PmDeskError).detail;
  }
  return 'no error';
};

describe('price bounds', () => {
  it('accepts one tick to one minus one tick, inclusive', () => {
    expect(isPriceInRange(0.01, '0.01')).toBe(true);
    expect(isPriceInRange(0.99, '0.01')).toBe(true);
    expect(isPriceInRange(0.9975, '0.0025')).toBe(true);
    expect(isPriceInRange(0.009, '0.01')).toBe(false);
    expect(isPriceInRange(0.991, '0.01')).toBe(false);
  });

  it('refuses with the documented message', () => {
    expect(detail(() => assertPriceInRange(0.995, '0.01'))).toBe('invalid price (0.995), min: 0.01 - max: 0.99');
    expect(detail(() => assertPriceInRange(0.05, '0.1'))).toBe('invalid price (0.05), min: 0.1 - max: 0.9');
    expect(detail(() => assertPriceInRange(0.5, '0.01'))).toBe('no error');
  });
});

describe('tick size', () => {
  it("uses the market's tick unless the trader asks for a coarser one", () => {
    expect(resolveTickSize('0.01')).toBe('0.01');
    expect(resolveTickSize('0.01', '0.1')).toBe('0.1');
    expect(detail(() => resolveTickSize('0.01', '0.001'))).toBe(
      'invalid tick size (0.001), minimum for the market is 0.01',
    );
  });
});

describe('market price from the book', () => {
  const asks = [
    { price: '0.5', size: '100' },
    { price: '0.4', size: '100' },
  ];

  it('walks from the best level (listed last) until the amount is covered', () => {
    const deeper = [
      { price: '0.5', size: '100' },
      { price: '0.4', size: '200' },
      { price: '0.3', size: '100' },
    ];
    expect(marketPriceFromBook({ asks: deeper }, 'BUY', 100)).toBe(0.4);
    expect(marketPriceFromBook({ asks: deeper }, 'BUY', 30)).toBe(0.3);
    const bids = [
      { price: '0.3', size: '334' },
      { price: '0.4', size: '100' },
      { price: '0.5', size: '1000' },
    ];
    expect(marketPriceFromBook({ bids }, 'SELL', 600)).toBe(0.5);
    expect(marketPriceFromBook({ bids }, 'SELL', 1050)).toBe(0.4);
    expect(marketPriceFromBook({ bids }, 'SELL', 1200)).toBe(0.3);
  });

  it('a thin book is "no match" for FOK and the worst level for FAK', () => {
    expect(detail(() => marketPriceFromBook({ asks }, 'BUY', 100, 'FOK'))).toBe('no match');
    expect(marketPriceFromBook({ asks }, 'BUY', 100, 'FAK')).toBe(0.5);
  });

  it('no book is "no orderbook"; no levels on the needed side is "no match", even for FAK', () => {
    expect(detail(() => marketPriceFromBook(null, 'BUY', 1))).toBe('no orderbook');
    expect(detail(() => marketPriceFromBook({ asks: [] }, 'BUY', 1, 'FAK'))).toBe('no match');
    expect(detail(() => marketPriceFromBook({ asks }, 'SELL', 1, 'FAK'))).toBe('no match');
  });
});
