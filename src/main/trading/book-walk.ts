// How far a market order would go into a book: the shares and dollars it would take, the worst price it would
// reach, and what would be left; and whether the book still fills it within the worst price the trader confirmed.
import { walkLiveBook, type Book } from '../../shared/book-walk';

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
 * sells `amount` shares into bids; a limit (the order's worst price) stops it. The ticket's preview walks the same
 * book with the same walk (shared/book-walk.ts).
 */
export function walkBook(book: Book, side: 'BUY' | 'SELL', amount: number, limit?: number): BookFill {
  const fill = walkLiveBook(book, side, amount, side === 'BUY' ? 'usd' : 'shares', limit);
  return {
    shares: fill.shares,
    dollars: fill.dollars,
    worstPrice: fill.reached ?? undefined,
    unfilled: Math.max(0, amount - fill.covered),
  };
}

/**
 * Whether a market order still fills within its worst price: all of it for a fill-or-kill order, something for a
 * fill-and-kill one. An order the book no longer fills this way is not sent (the trader confirmed that bound).
 */
export function fillsWithin(fill: BookFill, orderType: 'FOK' | 'FAK'): boolean {
  return orderType === 'FOK' ? fill.unfilled <= 1e-9 : fill.shares > 1e-9;
}
