// A market order's bound (issue 28): how far the live book takes the order (shares, average price, the price it
// reaches), its worst price by default (that price and the trader's slippage in ticks), whether the book still
// fills it within the worst price confirmed, and what the confirmation promises at that price. Pure: unit-tested.
import { roundDown, snapToTick, type OrderIntent, type Side, type TickSize } from './order-math';
import { walkLiveBook, type Book, type LiveFill } from '../../../../shared/book-walk';
import { formatTickCents } from '../../format/numbers';

export { walkLiveBook, type LiveFill };

/** The default worst price: the price reached and `ticks` ticks past it (up for a BUY, down for a SELL), on the tick and within its bounds. */
export function worstPriceFor(reached: number, side: Side, ticks: number, tick: TickSize): number {
  return snapToTick(reached + (side === 'BUY' ? 1 : -1) * ticks * Number(tick), tick);
}

/** The ticket's market order priced from the live book: its default worst price and the fill behind it, or why there is none. */
export type MarketBound = { worst: number; fill: LiveFill } | { reason: string };

export function marketBound(
  book: Book | undefined,
  side: Side,
  amount: number,
  unit: 'usd' | 'shares',
  slippageTicks: number,
  tick: TickSize,
): MarketBound {
  const priceWord = side === 'BUY' ? 'max' : 'min';
  if (!book) return { reason: `Waiting for the live book to price this market order; or type a ${priceWord} price.` };
  const fill = walkLiveBook(book, side, amount, unit);
  if (fill.reached === null)
    return {
      reason: `The book has no ${side === 'BUY' ? 'asks' : 'bids'}: a market ${side === 'BUY' ? 'buy' : 'sell'} has nothing to fill against. Type a ${priceWord} price, or place a limit order.`,
    };
  return { worst: worstPriceFor(fill.reached, side, slippageTicks, tick), fill };
}

/** A market order's amount as main builds it (planOrder): dollars for a BUY, shares for a SELL, at its worst price. */
export function marketAmount(intent: Pick<OrderIntent, 'side' | 'price' | 'size' | 'amountUsd'>): {
  amount: number;
  unit: 'usd' | 'shares';
} {
  const price = intent.price ?? 0;
  if (intent.side === 'BUY')
    return { amount: intent.amountUsd ?? roundDown((intent.size ?? 0) * price, 2), unit: 'usd' };
  return { amount: intent.size ?? (price > 0 ? roundDown((intent.amountUsd ?? 0) / price, 2) : 0), unit: 'shares' };
}

/**
 * What a market order with a worst price promises, whatever the book does: a BUY spends at most its dollars and
 * gets at least the shares those dollars buy at the worst price; a SELL sells its shares for at least the worst
 * price each. A FAK order may fill only part: its promise is per share.
 */
export function marketPromise(intent: Pick<OrderIntent, 'side' | 'price' | 'size' | 'amountUsd' | 'orderType'>): {
  spendAtMost?: number;
  sharesAtLeast?: number;
  shares?: number;
  receiveAtLeast?: number;
} {
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
export function stillFills(
  book: Book | undefined,
  intent: Pick<OrderIntent, 'side' | 'price' | 'size' | 'amountUsd' | 'orderType'>,
  tick: TickSize,
): { fills: boolean; fill: LiveFill | null; why: string | null } {
  if (!book || intent.price === undefined) return { fills: true, fill: null, why: null };
  const { amount, unit } = marketAmount(intent);
  const fill = walkLiveBook(book, intent.side, amount, unit, intent.price);
  const fills = intent.orderType === 'FAK' ? fill.shares > 1e-9 : fill.complete;
  if (fills) return { fills, fill, why: null };
  const cents = formatTickCents(intent.price, tick);
  const bound = `your ${intent.side === 'BUY' ? 'max' : 'min'} price ${cents}`;
  const what =
    fill.shares <= 1e-9
      ? `it has no ${intent.side === 'BUY' ? 'asks' : 'bids'} at ${cents} or better`
      : unit === 'usd'
        ? `it fills only $${fill.covered.toFixed(2)} of the $${amount.toFixed(2)} at ${cents} or better`
        : `it takes only ${roundDown(fill.covered, 2)} of the ${amount} shares at ${cents} or better`;
  return { fills, fill, why: `The book moved past ${bound}: ${what}. Nothing is sent at these numbers.` };
}
