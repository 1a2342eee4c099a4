// The ticket's arithmetic, pure so it is unit-tested: cents ↔ prices, snapping to the market's tick, the
// local estimate of cost and payout (shown when main's preview is not available), and the order intent the
// ticket sends. Main rounds and checks again before signing; this only keeps what the trader sees honest.

import { PRICE_DECIMALS, isTickSize, type TickSize } from '../../../../shared/market-rules';

export type Side = 'BUY' | 'SELL';
export type OrderType = 'GTC' | 'GTD' | 'FOK' | 'FAK';
/** Every tick sizes orders in hundredths of a share. */
export const SIZE_DECIMALS = 2;

export { isTickSize, type TickSize };

/** Price decimals per tick (the exchange's rounding table, spec §5): the ticket never shows more. */
export function priceDecimals(tick: TickSize): number {
  return PRICE_DECIMALS[tick];
}

/** "45.5" → 0.455; null for anything that is not a number of cents. */
export function centsToPrice(cents: string): number | null {
  const text = cents.trim().replace(/¢$/, '').trim();
  if (!/^(\d+\.?\d*|\.\d+)$/.test(text)) return null;
  return Number((Number(text) / 100).toFixed(8));
}

/** 0.455 → "45.5": as many cent decimals as the tick allows, no trailing zeros. */
export function priceToCents(price: number, tick: TickSize = '0.0001'): string {
  const centDecimals = Math.max(0, priceDecimals(tick) - 2);
  return String(Number((price * 100).toFixed(centDecimals)));
}

/** The nearest price on the tick, kept within one tick and one minus one tick (the exchange's bounds). */
export function snapToTick(price: number, tick: TickSize): number {
  const decimals = priceDecimals(tick);
  const scale = 10 ** decimals;
  const step = Math.round(Number(tick) * scale);
  // Integer ticks, so 0.285 on a 0.01 tick does not become 0.28 through float error.
  const ticks = Math.round(Number((price * scale).toFixed(6)) / step);
  const lowest = 1;
  const highest = scale / step - 1;
  return Math.min(highest, Math.max(lowest, ticks)) * step / scale;
}

/** Rounds down to `decimals` (a size or amount never exceeds what the trader typed). */
export function roundDown(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.floor(Number((value * scale).toFixed(6))) / scale;
}

export function roundCents(value: number): number {
  return Math.round(value * 100) / 100;
}

/** A positive amount as typed, or null. */
export function parseAmount(text: string): number | null {
  const trimmed = text.trim().replace(/^\$/, '');
  if (!/^(\d+\.?\d*|\.\d+)$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && value > 0 ? value : null;
}

export interface Estimate {
  /** The price the estimate is worked at (the limit, or the reference price of a market order). */
  price: number;
  shares: number;
  /** Dollars paid (BUY) or received (SELL). */
  cost: number;
  /** Dollars paid out if the outcome wins: one per share bought, or given up when selling. */
  payout: number;
  /** The fee rate the terminal signs with is 0 bps, so a local estimate has no fee. */
  fees: number;
}

/** Shares for an amount at a price: dollars buy whole hundredths of a share, rounded down. */
export function sharesFor(amount: number, unit: 'shares' | 'usd', price: number): number {
  return unit === 'shares' ? roundDown(amount, SIZE_DECIMALS) : roundDown(amount / price, SIZE_DECIMALS);
}

export function estimateOrder(input: { amount: number; unit: 'shares' | 'usd'; price: number }): Estimate {
  const shares = sharesFor(input.amount, input.unit, input.price);
  const cost = input.unit === 'usd' ? roundCents(Math.min(input.amount, shares * input.price)) : roundCents(shares * input.price);
  return { price: input.price, shares, cost, payout: roundCents(shares), fees: 0 };
}

/** Local date-time text ("2026-12-01T18:30") → unix seconds, or null. */
export function expiryToUnix(localDateTime: string): number | null {
  if (!localDateTime) return null;
  const ms = new Date(localDateTime).getTime();
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

export interface TicketInput {
  side: Side;
  kind: 'limit' | 'market';
  priceCents: string;
  amount: string;
  sizeUnit: 'shares' | 'usd';
  orderType: OrderType;
  expiry: string;
  postOnly: boolean;
}

export interface MarketTerms {
  marketId: string;
  tokenId: string;
  tickSize: TickSize;
  minOrderSize: number | null;
  /** The outcome's last price from the aggregator: what a market order's estimate is worked at. */
  referencePrice: number | null;
}

export interface OrderIntent {
  wallet: string;
  marketId: string;
  tokenId: string;
  side: Side;
  orderType: OrderType;
  price?: number;
  size?: number;
  amountUsd?: number;
  expiration?: number;
  postOnly: boolean;
}

export type Drafted = { ok: true; intent: OrderIntent; estimate: Estimate } | { ok: false; reason: string };

/** The order the ticket would send, or the sentence saying why it cannot (the Submit button's title). */
export function draftOrder(ticket: TicketInput, terms: MarketTerms, wallet: string, nowSeconds: number): Drafted {
  const orderType: OrderType = ticket.kind === 'market' ? (ticket.orderType === 'FAK' ? 'FAK' : 'FOK') : ticket.orderType === 'GTD' ? 'GTD' : 'GTC';
  const typed = ticket.priceCents.trim() ? centsToPrice(ticket.priceCents) : null;
  if (ticket.priceCents.trim() && typed === null) return { ok: false, reason: `“${ticket.priceCents.trim()}” is not a price: type it in cents (45 for 45¢).` };
  if (typed !== null && !(typed > 0 && typed < 1)) return { ok: false, reason: 'A price lies between 0¢ and 100¢.' };
  const price = typed === null ? null : snapToTick(typed, terms.tickSize);
  if (ticket.kind === 'limit' && price === null) return { ok: false, reason: 'Type a limit price in cents.' };
  // The fields in the order the ticket shows them: price, then size.
  const amount = parseAmount(ticket.amount);
  if (amount === null) return { ok: false, reason: ticket.amount.trim() ? `“${ticket.amount.trim()}” is not an amount: type a positive number.` : 'Type a size.' };

  if (ticket.kind === 'limit' && price !== null) {
    const estimate = estimateOrder({ amount, unit: ticket.sizeUnit, price });
    if (!(estimate.shares > 0)) return { ok: false, reason: 'That buys less than a hundredth of a share: trade more.' };
    if (terms.minOrderSize !== null && estimate.shares < terms.minOrderSize) {
      return { ok: false, reason: `This market's minimum order is ${terms.minOrderSize} shares; this is ${estimate.shares}.` };
    }
    let expiration: number | undefined;
    if (orderType === 'GTD') {
      const at = expiryToUnix(ticket.expiry);
      if (at === null) return { ok: false, reason: 'A GTD order needs an expiry date and time.' };
      if (at <= nowSeconds + 60) return { ok: false, reason: 'The expiry must be more than a minute from now.' };
      expiration = at;
    }
    return {
      ok: true,
      estimate,
      intent: { wallet, marketId: terms.marketId, tokenId: terms.tokenId, side: ticket.side, orderType, price, size: estimate.shares, ...(expiration ? { expiration } : {}), postOnly: ticket.postOnly },
    };
  }

  // A market order fills at the book: its price, when given, is the worst the trader accepts.
  const reference = price ?? terms.referencePrice;
  if (reference === null || !(reference > 0)) return { ok: false, reason: 'This outcome has no price yet: give a worst price in cents.' };
  const estimate = estimateOrder({ amount, unit: ticket.sizeUnit, price: reference });
  if (!(estimate.shares > 0)) return { ok: false, reason: 'That comes to less than a hundredth of a share: trade more.' };
  const sized = ticket.sizeUnit === 'usd' ? { amountUsd: roundDown(amount, 2) } : { size: estimate.shares };
  if (sized.amountUsd !== undefined && !(sized.amountUsd > 0)) return { ok: false, reason: 'Trade at least one cent.' };
  return {
    ok: true,
    estimate,
    intent: { wallet, marketId: terms.marketId, tokenId: terms.tokenId, side: ticket.side, orderType, ...(price !== null ? { price } : {}), ...sized, postOnly: false },
  };
}

export function formatUsd(value: number): string {
  const text = `$${Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return value < 0 && text !== '$0.00' ? `−${text}` : text;
}

export function formatShares(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** A price as the trader reads it: cents, with the tick's decimals. */
export function formatCents(price: number, tick?: TickSize): string {
  return `${priceToCents(price, tick)}¢`;
}
