// The ticket's arithmetic, pure so it is unit-tested: cents ↔ prices, snapping to the market's tick, the
// local estimate of cost and payout (shown when main's preview is not available), and the order intent the
// ticket sends. Main rounds and checks again before signing; this only keeps what the trader sees honest.

import { PRICE_DECIMALS, isTickSize, type TickSize } from '@pmdesk/toolkit/model';
import { formatTickCents, formatUsd, priceToCents } from '../../format/numbers';

export type Side = 'BUY' | 'SELL';
export type OrderType = 'GTC' | 'GTD' | 'FOK' | 'FAK';
/** Every tick sizes orders in hundredths of a share. */
export const SIZE_DECIMALS = 2;

export { isTickSize, type TickSize };

/** Price decimals per tick (the exchange's rounding table, docs/protocol.md#rounding-and-amounts): the ticket never shows more. */
export function priceDecimals(tick: TickSize): number {
  return PRICE_DECIMALS[tick];
}

/** "45.5" → 0.455; null for anything that is not a number of cents. */
export function centsToPrice(cents: string): number | null {
  const text = cents.trim().replace(/¢$/, '').trim();
  if (!/^(\d+\.?\d*|\.\d+)$/.test(text)) return null;
  return Number((Number(text) / 100).toFixed(8));
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
  return (Math.min(highest, Math.max(lowest, ticks)) * step) / scale;
}

/** The price as whole ticks, or null when it is not on the tick (integer arithmetic, no float error). */
function ticksOf(price: number, tick: TickSize): { ticks: number | null; floor: number; highest: number } {
  const scale = 10 ** priceDecimals(tick);
  const step = Math.round(Number(tick) * scale);
  const scaled = Number((price * scale).toFixed(6));
  const exact = Number.isInteger(scaled) && scaled % step === 0;
  return { ticks: exact ? scaled / step : null, floor: Math.floor(scaled / step), highest: scale / step - 1 };
}

/** The lowest and highest prices the exchange takes on this tick: one tick, and one minus one tick. */
export function priceBounds(tick: TickSize): { lowest: number; highest: number } {
  const { highest } = ticksOf(0, tick);
  return { lowest: Number(tick), highest: fromTicks(highest, tick) };
}

function fromTicks(ticks: number, tick: TickSize): number {
  const scale = 10 ** priceDecimals(tick);
  return (ticks * Math.round(Number(tick) * scale)) / scale;
}

/**
 * The two valid prices nearest to a price that is not on the tick (the one below and the one above, kept
 * within the exchange's bounds), or null when the price is on the tick. Offered to the trader, never applied.
 */
export function nearestValidPrices(price: number, tick: TickSize): [number, number] | null {
  const { ticks, floor, highest } = ticksOf(price, tick);
  if (ticks !== null) return null;
  const below = Math.min(Math.max(floor, 1), highest - 1);
  return [fromTicks(below, tick), fromTicks(below + 1, tick)];
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
  const cost =
    input.unit === 'usd' ? roundCents(Math.min(input.amount, shares * input.price)) : roundCents(shares * input.price);
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
  /** The outcome's last price from the aggregator: what a market order's estimate is worked at without a live book. */
  referencePrice: number | null;
  /**
   * A market order priced from the live book (market-bound.ts): its default worst price and the fill behind it,
   * or why there is none. A market order always carries a worst price: the one typed, else this one.
   */
  marketBound?:
    { worst: number; fill: { shares: number; dollars: number; average: number | null } } | { reason: string };
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

/** A refusal; `choices` are the valid prices offered for a price that is not on the tick. */
export type Drafted =
  { ok: true; intent: OrderIntent; estimate: Estimate } | { ok: false; reason: string; choices?: [number, number] };

/** The order the ticket would send, or the sentence saying why it cannot (the Submit button's title). */
export function draftOrder(ticket: TicketInput, terms: MarketTerms, wallet: string, nowSeconds: number): Drafted {
  const orderType: OrderType =
    ticket.kind === 'market'
      ? ticket.orderType === 'FAK'
        ? 'FAK'
        : 'FOK'
      : ticket.orderType === 'GTD'
        ? 'GTD'
        : 'GTC';
  const typed = ticket.priceCents.trim() ? centsToPrice(ticket.priceCents) : null;
  if (ticket.priceCents.trim() && typed === null)
    return { ok: false, reason: `“${ticket.priceCents.trim()}” is not a price: type it in cents (45 for 45¢).` };
  if (typed !== null) {
    // Refused with the nearest valid prices, never changed behind the trader's back.
    const { lowest, highest } = priceBounds(terms.tickSize);
    const text = `${ticket.priceCents.trim().replace(/¢$/, '').trim()}¢`;
    const choices = typed > 0 && typed < 1 ? nearestValidPrices(typed, terms.tickSize) : null;
    if (choices) {
      const [below, above] = choices.map((p) => formatTickCents(p, terms.tickSize));
      return {
        ok: false,
        reason: `${text} is not on this market's ${formatTickCents(Number(terms.tickSize), terms.tickSize)} tick: choose ${below} or ${above}.`,
        choices,
      };
    }
    if (typed < lowest || typed > highest) {
      return {
        ok: false,
        reason: `${text} is not a price this market takes: choose from ${formatTickCents(lowest, terms.tickSize)} to ${formatTickCents(highest, terms.tickSize)}.`,
      };
    }
  }
  const price = typed === null ? null : snapToTick(typed, terms.tickSize);
  if (ticket.kind === 'limit' && price === null) return { ok: false, reason: 'Type a limit price in cents.' };
  // The fields in the order the ticket shows them: price, then size.
  const amount = parseAmount(ticket.amount);
  if (amount === null)
    return {
      ok: false,
      reason: ticket.amount.trim()
        ? `“${ticket.amount.trim()}” is not an amount: type a positive number.`
        : 'Type a size.',
    };

  if (ticket.kind === 'limit' && price !== null) {
    const estimate = estimateOrder({ amount, unit: ticket.sizeUnit, price });
    if (!(estimate.shares > 0)) return { ok: false, reason: 'That buys less than a hundredth of a share: trade more.' };
    if (terms.minOrderSize !== null && estimate.shares < terms.minOrderSize) {
      return {
        ok: false,
        reason: `This market's minimum order is ${terms.minOrderSize} shares; this is ${estimate.shares}.`,
      };
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
      intent: {
        wallet,
        marketId: terms.marketId,
        tokenId: terms.tokenId,
        side: ticket.side,
        orderType,
        price,
        size: estimate.shares,
        ...(expiration ? { expiration } : {}),
        postOnly: ticket.postOnly,
      },
    };
  }

  // A market order fills at the book, never past its worst price: the one typed, else the price the live book
  // reaches for it and the trader's slippage (issue 28). Nothing unbounded leaves the ticket.
  const bound = terms.marketBound;
  const worst = price ?? (bound && 'worst' in bound ? bound.worst : null);
  const priceWord = ticket.side === 'BUY' ? 'max' : 'min';
  if (worst === null)
    return {
      ok: false,
      reason:
        bound && 'reason' in bound
          ? bound.reason
          : `Type a ${priceWord} price in cents: a market order never fills past it.`,
    };
  // The estimate is the live book's fill where there is one, else the outcome's price (or the worst price).
  const live = bound && 'worst' in bound && bound.fill.average !== null ? bound.fill : null;
  const reference = live?.average ?? terms.referencePrice ?? worst;
  if (!(reference > 0))
    return { ok: false, reason: `This outcome has no price yet: give a ${priceWord} price in cents.` };
  const estimate = live
    ? {
        price: live.average!,
        shares: roundDown(live.shares, SIZE_DECIMALS),
        cost: roundCents(live.dollars),
        payout: roundCents(roundDown(live.shares, SIZE_DECIMALS)),
        fees: 0,
      }
    : estimateOrder({ amount, unit: ticket.sizeUnit, price: reference });
  if (!(estimate.shares > 0))
    return { ok: false, reason: 'That comes to less than a hundredth of a share: trade more.' };
  const sized =
    ticket.sizeUnit === 'usd' ? { amountUsd: roundDown(amount, 2) } : { size: roundDown(amount, SIZE_DECIMALS) };
  if (sized.amountUsd !== undefined && !(sized.amountUsd > 0)) return { ok: false, reason: 'Trade at least one cent.' };
  if (sized.size !== undefined && !(sized.size > 0))
    return { ok: false, reason: 'That comes to less than a hundredth of a share: trade more.' };
  return {
    ok: true,
    estimate,
    intent: {
      wallet,
      marketId: terms.marketId,
      tokenId: terms.tokenId,
      side: ticket.side,
      orderType,
      price: worst,
      ...sized,
      postOnly: false,
    },
  };
}

/** Dollars, to the millionth (the collateral's base unit), so sums of order amounts stay exact. */
const micro = (usd: number): number => Math.round(usd * 1_000_000);

export interface OpenOrderHold {
  tokenId: string;
  side: Side;
  price: number;
  originalSize: number;
  sizeMatched: number;
}

/**
 * What the trader can still spend or sell: the balance less what open orders hold (a resting BUY holds its
 * unfilled shares × price in dollars; a resting SELL holds its unfilled shares of its outcome).
 */
export function availableAfterOrders(input: {
  collateral: number;
  shares: number | undefined;
  tokenId: string | null;
  openOrders: readonly OpenOrderHold[];
}): {
  dollars: number;
  heldByOrders: number;
  shares: number | undefined;
  sharesInOrders: number;
} {
  let dollarsHeld = 0;
  let sharesHeld = 0;
  for (const order of input.openOrders) {
    const open = micro(order.originalSize) - micro(order.sizeMatched);
    if (open <= 0) continue;
    if (order.side === 'BUY') dollarsHeld += Math.ceil((open * micro(order.price)) / 1_000_000);
    else if (order.tokenId === input.tokenId) sharesHeld += open;
  }
  const dollars = Math.max(0, micro(input.collateral) - dollarsHeld) / 1_000_000;
  const shares = input.shares === undefined ? undefined : Math.max(0, micro(input.shares) - sharesHeld) / 1_000_000;
  return { dollars, heldByOrders: dollarsHeld / 1_000_000, shares, sharesInOrders: sharesHeld / 1_000_000 };
}

/** An amount as the size field shows it: no trailing zeros, no float noise. */
export function amountText(value: number, decimals: number): string {
  return String(roundDown(value, decimals));
}

/**
 * A quick amount applied to the size: `+$10`/`+$100` add dollars to a BUY (the field switches to dollars,
 * carrying over what was typed in shares at the limit price); 25 %, 50 % and Max take that share of what is
 * available — dollars for a BUY, shares for a SELL.
 */
export function quickAmount(
  pick: { add: number } | { fraction: number },
  ticket: { side: Side; amount: string; sizeUnit: 'shares' | 'usd'; priceCents: string },
  available: { dollars: number; shares: number | undefined },
): { amount: string; sizeUnit: 'shares' | 'usd' } | null {
  if ('add' in pick) {
    const typed = parseAmount(ticket.amount) ?? 0;
    const price = centsToPrice(ticket.priceCents);
    const dollars = ticket.sizeUnit === 'usd' ? typed : price !== null && price > 0 && price < 1 ? typed * price : 0;
    return { amount: amountText(dollars + pick.add, 2), sizeUnit: 'usd' };
  }
  if (ticket.side === 'BUY') {
    const dollars = roundDown(available.dollars * pick.fraction, 2);
    return dollars > 0 ? { amount: amountText(dollars, 2), sizeUnit: 'usd' } : null;
  }
  if (available.shares === undefined) return null;
  const shares = roundDown(available.shares * pick.fraction, SIZE_DECIMALS);
  return shares > 0 ? { amount: amountText(shares, SIZE_DECIMALS), sizeUnit: 'shares' } : null;
}

/** "To win" beside a BUY: what it pays if the outcome wins, and the gain over what it costs (fees included). */
export function toWin(payout: number, cost: number): { payout: string; gain: string } | null {
  if (!(payout > 0) || !(cost > 0)) return null;
  const percent = ((payout - cost) / cost) * 100;
  const shown = Math.abs(percent) < 10 ? Number(percent.toFixed(1)) : Math.round(percent);
  return { payout: formatUsd(payout), gain: `${shown >= 0 ? '+' : '−'}${Math.abs(shown).toLocaleString('en-US')} %` };
}

/**
 * The sentence beside the price when the market's tick changes, in cents like the rest of the ticket. The typed
 * price is left as it is: off the new tick, the ticket refuses it and offers the two nearest valid prices.
 */
export function tickChangeWarning(previous: string, tick: TickSize, priceCents: string): string {
  const was = Number(previous);
  const sentence = `The tick size changed: prices now move in steps of ${formatTickCents(Number(tick), tick)}${was > 0 ? ` (was ${formatTickCents(was)})` : ''}.`;
  const typed = centsToPrice(priceCents);
  if (typed === null || !(typed > 0 && typed < 1) || !nearestValidPrices(typed, tick)) return sentence;
  return `${sentence} Your price ${priceToCents(typed)}¢ is off the new tick: pick one of the two offered.`;
}
