// How far a market order would go into a book: the shares and dollars it would take, the worst price it would
// reach, and what would be left; and whether the book still fills it within the worst price the trader confirmed.

type Level = { price: string | number; size: string | number };

/** How much of a market order the book would fill: shares, dollars and the worst price reached. */
export interface BookFill {
  shares: number;
  dollars: number;
  worstPrice: number | undefined;
  /** Dollars (BUY) or shares (SELL) the book could not take. */
  unfilled: number;
}

/**
 * Walks the book from the best level, as a market order would: a BUY spends `amount` dollars on asks, a SELL
 * sells `amount` shares into bids; a limit (the order's worst price) stops it. Levels are sorted here, so a book in
 * any order (Polymarket lists the best last; a live feed may not) walks the same.
 */
export function walkBook(book: { bids: readonly Level[]; asks: readonly Level[] }, side: 'BUY' | 'SELL', amount: number, limit?: number): BookFill {
  const levels = (side === 'BUY' ? book.asks : book.bids)
    .map((l) => ({ price: Number(l.price), size: Number(l.size) }))
    .filter((l) => l.price > 0 && l.size > 0)
    .sort((a, b) => (side === 'BUY' ? a.price - b.price : b.price - a.price));
  let left = amount;
  let shares = 0;
  let dollars = 0;
  let worstPrice: number | undefined;
  for (const { price, size } of levels) {
    if (left <= 1e-9) break;
    if (limit !== undefined && (side === 'BUY' ? price > limit + 1e-9 : price < limit - 1e-9)) break;
    const take = side === 'BUY' ? Math.min(left, size * price) : Math.min(left, size);
    shares += side === 'BUY' ? take / price : take;
    dollars += side === 'BUY' ? take : take * price;
    left -= take;
    worstPrice = price;
  }
  return { shares, dollars, worstPrice, unfilled: Math.max(0, left) };
}

/**
 * Whether a market order still fills within its worst price: all of it for a fill-or-kill order, something for a
 * fill-and-kill one. An order the book no longer fills this way is not sent (the trader confirmed that bound).
 */
export function fillsWithin(fill: BookFill, orderType: 'FOK' | 'FAK'): boolean {
  return orderType === 'FOK' ? fill.unfilled <= 1e-9 : fill.shares > 1e-9;
}
