// A market order's bound (issue 28): how far the live book takes the order (shares, average price, the price it
// reaches), its worst price by default (that price and the trader's slippage in ticks), whether the book still
// fills it within the worst price confirmed, and what the confirmation promises at that price. Pure: unit-tested.
import { formatCents, roundDown, snapToTick, type OrderIntent, type Side, type TickSize } from './order-math';

/** A book's two sides, levels in any order, prices and sizes as numbers or decimal text (the feed's and the exchange's). */
type Book = { bids: readonly { price: number | string; size: number | string }[]; asks: readonly { price: number | string; size: number | string }[] };

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
export function walkLiveBook(book: Book, side: Side, amount: number, unit: 'usd' | 'shares', limit?: number): LiveFill {
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
  return { shares, dollars, reached, average: shares > 0 ? dollars / shares : null, complete: left <= 1e-9, covered: amount - Math.max(0, left) };
}

/** The default worst price: the price reached and `ticks` ticks past it (up for a BUY, down for a SELL), on the tick and within its bounds. */
export function worstPriceFor(reached: number, side: Side, ticks: number, tick: TickSize): number {
  return snapToTick(reached + (side === 'BUY' ? 1 : -1) * ticks * Number(tick), tick);
}

/** The ticket's market order priced from the live book: its default worst price and the fill behind it, or why there is none. */
export type MarketBound = { worst: number; fill: LiveFill } | { reason: string };

export function marketBound(book: Book | undefined, side: Side, amount: number, unit: 'usd' | 'shares', slippageTicks: number, tick: TickSize): MarketBound {
  const priceWord = side === 'BUY' ? 'max' : 'min';
  if (!book) return { reason: `Waiting for the live book to price this market order; or type a ${priceWord} price.` };
  const fill = walkLiveBook(book, side, amount, unit);
  if (fill.reached === null) return { reason: `The book has no ${side === 'BUY' ? 'asks' : 'bids'}: a market ${side === 'BUY' ? 'buy' : 'sell'} has nothing to fill against. Type a ${priceWord} price, or place a limit order.` };
  return { worst: worstPriceFor(fill.reached, side, slippageTicks, tick), fill };
}

/** A market order's amount as main builds it (planOrder): dollars for a BUY, shares for a SELL, at its worst price. */
export function marketAmount(intent: Pick<OrderIntent, 'side' | 'price' | 'size' | 'amountUsd'>): { amount: number; unit: 'usd' | 'shares' } {
  const price = intent.price ?? 0;
  if (intent.side === 'BUY') return { amount: intent.amountUsd ?? roundDown((intent.size ?? 0) * price, 2), unit: 'usd' };
  return { amount: intent.size ?? (price > 0 ? roundDown((intent.amountUsd ?? 0) / price, 2) : 0), unit: 'shares' };
}

/**
 * What a market order with a worst price promises, whatever the book does: a BUY spends at most its dollars and
 * gets at least the shares those dollars buy at the worst price; a SELL sells its shares for at least the worst
 * price each. A FAK order may fill only part: its promise is per share.
 */
export function marketPromise(intent: Pick<OrderIntent, 'side' | 'price' | 'size' | 'amountUsd' | 'orderType'>): { spendAtMost?: number; sharesAtLeast?: number; shares?: number; receiveAtLeast?: number } {
  const { amount } = marketAmount(intent);
  const price = intent.price ?? 0;
  if (!(price > 0)) return {};
  if (intent.side === 'BUY') return { spendAtMost: amount, sharesAtLeast: roundDown(amount / price, 2) };
  return { shares: amount, receiveAtLeast: roundDown(amount * price, 2) };
}

/**
 * Whether the live book still fills a confirmed market order within its worst price (all of a FOK order, some of a
 * FAK one), with the fill it gives now; and when it does not, the sentence saying so.
 */
export function stillFills(book: Book | undefined, intent: Pick<OrderIntent, 'side' | 'price' | 'size' | 'amountUsd' | 'orderType'>, tick: TickSize): { fills: boolean; fill: LiveFill | null; why: string | null } {
  if (!book || intent.price === undefined) return { fills: true, fill: null, why: null };
  const { amount, unit } = marketAmount(intent);
  const fill = walkLiveBook(book, intent.side, amount, unit, intent.price);
  const fills = intent.orderType === 'FAK' ? fill.shares > 1e-9 : fill.complete;
  if (fills) return { fills, fill, why: null };
  const cents = formatCents(intent.price, tick);
  const bound = `your ${intent.side === 'BUY' ? 'max' : 'min'} price ${cents}`;
  const what =
    fill.shares <= 1e-9
      ? `it has no ${intent.side === 'BUY' ? 'asks' : 'bids'} at ${cents} or better`
      : unit === 'usd'
        ? `it fills only $${fill.covered.toFixed(2)} of the $${amount.toFixed(2)} at ${cents} or better`
        : `it takes only ${roundDown(fill.covered, 2)} of the ${amount} shares at ${cents} or better`;
  return { fills, fill, why: `The book moved past ${bound}: ${what}. Nothing is sent at these numbers.` };
}
