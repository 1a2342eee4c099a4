// Post-only orders that would cross the book, in the trader's words: the ticket refuses one before Review from the
// live book, and main turns the exchange's own refusal (the book moved after the ticket looked) into a sentence.
import { bookTop } from './book-top';

type Level = { price: number | string; size: number | string };
type Levels = { bids?: readonly Level[]; asks?: readonly Level[] };
const topOf = (book: Levels | undefined) => bookTop({ bids: book?.bids ?? [], asks: book?.asks ?? [] });

/** A price in cents as the ticket writes it: 95¢, 94.5¢, 0.25¢ (no float dust). */
const cents = (price: number): string => `${Number((price * 100).toFixed(4))}¢`;

/**
 * Whether a post-only limit order would take liquidity on arrival: a buy at or above the best ask, a sell at or
 * below the best bid. Such an order is refused by the exchange rather than matched; the sentence says what to do.
 */
export function postOnlyCrossing(
  order: { side: 'BUY' | 'SELL'; price: number },
  book: Levels | undefined,
): string | null {
  if (!book || !(order.price > 0)) return null;
  const { bestBid, bestAsk } = topOf(book);
  if (order.side === 'BUY') {
    if (bestAsk === null || order.price < bestAsk - 1e-9) return null;
    return `Post-only: this buy at ${cents(order.price)} would take the best ask (${cents(bestAsk)}) — lower the price or turn post-only off.`;
  }
  if (bestBid === null || order.price > bestBid + 1e-9) return null;
  return `Post-only: this sell at ${cents(order.price)} would take the best bid (${cents(bestBid)}) — raise the price or turn post-only off.`;
}

/** The exchange's refusal of a post-only order that crosses ("invalid post-only order: order crosses book"). */
export function isPostOnlyRefusal(message: string): boolean {
  return /post-only order:? (?:order )?crosses (?:the )?book/i.test(message);
}

/**
 * The sentence for a crossing only the exchange saw (the book moved between the ticket's look and the order's
 * arrival): what was refused, why, and what to do; the book's side now when it is known.
 */
export function postOnlyRefusedSentence(
  order: { side: 'BUY' | 'SELL'; price: number },
  book: Levels | undefined,
): string {
  const { bestBid, bestAsk } = topOf(book);
  const buy = order.side === 'BUY';
  const best = buy ? bestAsk : bestBid;
  const now = best === null ? '' : ` (the best ${buy ? 'ask' : 'bid'} is now ${cents(best)})`;
  return (
    `Post-only: the book moved and this ${buy ? 'buy' : 'sell'} at ${cents(order.price)} would have taken the best ${buy ? 'ask' : 'bid'}${now}, ` +
    `so the exchange refused it and nothing was placed — ${buy ? 'lower' : 'raise'} the price or turn post-only off.`
  );
}
