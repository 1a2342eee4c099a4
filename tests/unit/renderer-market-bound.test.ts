// A market order's bound in the ticket (issue 28): the live book walked for the order, the default worst price
// (the price reached and the slippage in ticks), what the confirmation promises, and whether a book that moved
// still fills the order within the worst price confirmed.
import { describe, expect, it } from 'vitest';
import {
  marketBound,
  marketPromise,
  stillFills,
  walkLiveBook,
  worstPriceFor,
} from '../../src/renderer/src/components/ticket/market-bound';

/** Asks listed best last, as Polymarket sends them; bids best first, as a live feed might. */
const book = {
  asks: [
    { price: '0.7', size: '100' },
    { price: '0.31', size: '10' },
    { price: '0.3', size: '10' },
  ],
  bids: [
    { price: '0.25', size: '4' },
    { price: '0.2', size: '100' },
  ],
};

describe('a market order in the live book', () => {
  it('walks the book from its best level, whatever the order of its levels', () => {
    // $5: 10 shares at 30¢ ($3), then $2 at 31¢ (6.45 shares): it reaches 31¢.
    const buy = walkLiveBook(book, 'BUY', 5, 'usd');
    expect(buy).toMatchObject({ reached: 0.31, complete: true });
    expect(buy.shares).toBeCloseTo(16.4516, 3);
    expect(buy.average).toBeCloseTo(5 / 16.4516, 4);
    // 10 shares sold: 4 at 25¢, 6 at 20¢.
    expect(walkLiveBook(book, 'SELL', 10, 'shares')).toMatchObject({
      shares: 10,
      reached: 0.2,
      complete: true,
      dollars: 2.2,
    });
    // A limit stops the walk: $5 within 30¢ covers only $3.
    expect(walkLiveBook(book, 'BUY', 5, 'usd', 0.3)).toMatchObject({ complete: false, covered: 3, reached: 0.3 });
  });

  it('defaults the worst price to the price reached and the slippage, on the tick and within its bounds', () => {
    expect(worstPriceFor(0.31, 'BUY', 3, '0.01')).toBe(0.34);
    expect(worstPriceFor(0.2, 'SELL', 3, '0.01')).toBe(0.17);
    expect(worstPriceFor(0.98, 'BUY', 3, '0.01')).toBe(0.99);
    expect(worstPriceFor(0.02, 'SELL', 3, '0.01')).toBe(0.01);
    expect(worstPriceFor(0.5, 'BUY', 0, '0.001')).toBe(0.5);
    expect(marketBound(book, 'BUY', 5, 'usd', 3, '0.01')).toMatchObject({ worst: 0.34 });
    expect(marketBound({ asks: [], bids: [] }, 'SELL', 5, 'shares', 3, '0.01')).toEqual({
      reason:
        'The book has no bids: a market sell has nothing to fill against. Type a min price, or place a limit order.',
    });
    expect(marketBound(undefined, 'BUY', 5, 'usd', 3, '0.01')).toEqual({
      reason: 'Waiting for the live book to price this market order; or type a max price.',
    });
  });

  it('promises at most the dollars and at least the shares they buy at the worst price (BUY), at least the worst price (SELL)', () => {
    expect(marketPromise({ side: 'BUY', orderType: 'FOK', price: 0.34, amountUsd: 5 })).toEqual({
      spendAtMost: 5,
      sharesAtLeast: 14.7,
    });
    expect(marketPromise({ side: 'SELL', orderType: 'FOK', price: 0.17, size: 10 })).toEqual({
      shares: 10,
      receiveAtLeast: 1.7,
    });
  });

  it('a book that moved past the worst price no longer fills the order, and says so', () => {
    const order = { side: 'BUY', orderType: 'FOK', price: 0.3, amountUsd: 5 } as const;
    expect(stillFills(book, { ...order, price: 0.34 }, '0.01')).toMatchObject({ fills: true, why: null });
    expect(stillFills(book, order, '0.01')).toMatchObject({
      fills: false,
      why: 'The book moved past your max price 30¢: it fills only $3.00 of the $5.00 at 30¢ or better. Nothing is sent at these numbers.',
    });
    // A FAK order takes what is there within the bound.
    expect(stillFills(book, { ...order, orderType: 'FAK' }, '0.01')).toMatchObject({ fills: true });
    expect(stillFills(book, { ...order, price: 0.29, orderType: 'FAK' }, '0.01')).toMatchObject({
      fills: false,
      why: 'The book moved past your max price 29¢: it has no asks at 29¢ or better. Nothing is sent at these numbers.',
    });
  });
});
