// Price checks before signing (the exact messages of docs/protocol.md#validation-messages) and the price a market order takes from the book.
import { ErrorCode, PmDeskError, invalidParameter } from '../model/errors';
import type { OrderSide, TickSize } from './rounding';

export type OrderType = 'GTC' | 'GTD' | 'FOK' | 'FAK';
export const ORDER_TYPES: readonly OrderType[] = ['GTC', 'GTD', 'FOK', 'FAK'];

/** A limit price lies between one tick and one minus one tick, inclusive. */
export function isPriceInRange(price: number, tickSize: TickSize): boolean {
  const tick = parseFloat(tickSize);
  return price >= tick && price <= 1 - tick;
}

export function assertPriceInRange(price: number, tickSize: TickSize, methodName?: string): void {
  if (!isPriceInRange(price, tickSize)) {
    const tick = parseFloat(tickSize);
    throw invalidParameter(`invalid price (${price}), min: ${tick} - max: ${1 - tick}`, methodName);
  }
}

/** The tick to round with: the trader's, unless it is finer than the market allows; the market's otherwise. */
export function resolveTickSize(marketTick: TickSize, requested?: TickSize, methodName?: string): TickSize {
  if (!requested) return marketTick;
  if (parseFloat(requested) < parseFloat(marketTick)) {
    throw invalidParameter(`invalid tick size (${requested}), minimum for the market is ${marketTick}`, methodName);
  }
  return requested;
}

export interface BookLevel {
  price: string | number;
  size: string | number;
}

export interface BookSides {
  asks?: readonly BookLevel[];
  bids?: readonly BookLevel[];
}

/**
 * The price at which a market order of `amount` (USDC for BUY, shares for SELL) is covered.
 * The exchange lists the best level last (asks descending, bids ascending), so the walk starts at the end;
 * a thin book is "no match" for FOK and the worst level otherwise.
 */
export function marketPriceFromBook(
  book: BookSides | null | undefined,
  side: OrderSide,
  amount: number,
  orderType: OrderType = 'FOK',
  methodName?: string,
): number {
  if (!book) throw new PmDeskError(ErrorCode.VALIDATION_ERROR, 'no orderbook', { methodName });
  const levels = side === 'BUY' ? book.asks : book.bids;
  if (!levels || levels.length === 0) throw new PmDeskError(ErrorCode.VALIDATION_ERROR, 'no match', { methodName });
  let covered = 0;
  for (let i = levels.length - 1; i >= 0; i--) {
    const level = levels[i]!;
    const price = parseFloat(String(level.price));
    covered += side === 'BUY' ? parseFloat(String(level.size)) * price : parseFloat(String(level.size));
    if (covered >= amount) return price;
  }
  if (orderType === 'FOK') throw new PmDeskError(ErrorCode.VALIDATION_ERROR, 'no match', { methodName });
  return parseFloat(String(levels[0]!.price));
}
