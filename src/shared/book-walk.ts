// How far a market order goes into a book, walked once for main (which refuses an order the book no longer fills
// within its confirmed worst price) and the ticket (which previews it against the live book): the shares and
// dollars it takes, the price it reaches, and how much of it the book covers. Pure: unit-tested.

/** A book's two sides, levels in any order, prices and sizes as numbers or decimal text (the feed's and the exchange's). */
export type Book = {
  bids: readonly { price: number | string; size: number | string }[];
  asks: readonly { price: number | string; size: number | string }[];
};

/** How far the live book takes a market order. */
export interface LiveFill {
  shares: number;
  /** Dollars paid (BUY) or received (SELL). */
  dollars: number;
  /** The worst price the order reaches in the book, null when it takes nothing. */
  reached: number | null;
  /** Dollars per share over what it takes, null when it takes nothing. */
  average: number | null;
  /** Whether the book covers the whole amount (within the limit when one is given). */
  complete: boolean;
  /** The part of the amount the book covers, in the amount's unit. */
  covered: number;
}

/**
 * Walks the book from its best level (levels sorted here: sources differ in their order) for `amount` dollars
 * or shares; a limit (the order's worst price) stops the walk.
 */
export function walkLiveBook(
  book: Book,
  side: 'BUY' | 'SELL',
  amount: number,
  unit: 'usd' | 'shares',
  limit?: number,
): LiveFill {
  const levels = (side === 'BUY' ? book.asks : book.bids)
    .map((l) => ({ price: Number(l.price), size: Number(l.size) }))
    .filter((l) => l.price > 0 && l.size > 0)
    .sort((a, b) => (side === 'BUY' ? a.price - b.price : b.price - a.price));
  let left = amount;
  let shares = 0;
  let dollars = 0;
  let reached: number | null = null;
  for (const { price, size } of levels) {
    if (left <= 1e-9) break;
    if (limit !== undefined && (side === 'BUY' ? price > limit + 1e-9 : price < limit - 1e-9)) break;
    const take = unit === 'usd' ? Math.min(left, size * price) : Math.min(left, size);
    const taken = unit === 'usd' ? take / price : take;
    shares += taken;
    dollars += taken * price;
    left -= take;
    reached = price;
  }
  return {
    shares,
    dollars,
    reached,
    average: shares > 0 ? dollars / shares : null,
    complete: left <= 1e-9,
    covered: amount - Math.max(0, left),
  };
}
