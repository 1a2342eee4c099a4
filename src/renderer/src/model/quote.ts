// The one price model: best bid, best ask, midpoint, spread and last trade of an outcome, and the price the
// terminal shows for it — Polymarket's rule (the midpoint; the last trade when the spread is wider than 10¢;
// the source's listed price when neither can be read) — with which price that is, in words. Every panel that
// shows an outcome's price (grid, header, ticket, positions, profiles) reads it from here, so at one instant
// they all say the same number and the same basis. Pure: tests call it directly; hooks live in useQuote.ts.
import type { Market, OrderBookSummary } from '@pmdesk/toolkit/model';
import { bookTop, midpointOf } from '../../../shared/book-top';
import { inOutcome } from '../../../shared/last-trade';

export { bookTop };

/** Which price a shown price is. */
export type PriceBasis = 'midpoint' | 'last' | 'listed' | 'final';

export interface Quote {
  bestBid: number | null;
  bestAsk: number | null;
  /** (best bid + best ask) / 2 when both sides quote. */
  midpoint: number | null;
  /** best ask − best bid when both sides quote. */
  spread: number | null;
  /** The last trade's price in this outcome, when known. */
  last: number | null;
  /** The price shown for the outcome, and which one it is; null when nothing is known. */
  price: number | null;
  basis: PriceBasis | null;
  /** True when bid/ask come from the live book (the chosen market), false from a listed snapshot. */
  live: boolean;
  /** A snapshot read again on a schedule: when (Unix ms); its tag says how old once that is a minute or more. */
  asOf?: number;
}

/** Polymarket shows the last trade instead of the midpoint when the spread is wider than this ($0.10). */
export const WIDE_SPREAD = 0.1;

/** Prices on the 1e-4 grid (the finest tick), so sums and halves compare exactly. */
const onGrid = (p: number): number => Math.round(p * 10_000) / 10_000;
const price01 = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) && n >= 0 && n <= 1 ? n : null;
};

const positive = (p: number | null): number | null => (p !== null && p > 0 ? p : null);
const below1 = (p: number | null): number | null => (p !== null && p < 1 ? p : null);

/**
 * The quote from its parts. The shown price follows Polymarket: the midpoint while the spread is at most 10¢,
 * else the last trade; with one side empty (no midpoint) the last trade; with neither, the listed price.
 */
export function quoteOf(parts: {
  bestBid: number | null;
  bestAsk: number | null;
  last?: number | null;
  listed?: number | null;
  live: boolean;
}): Quote {
  const { bestBid, bestAsk, live } = parts;
  const last = parts.last ?? null;
  const listed = parts.listed ?? null;
  const both = bestBid !== null && bestAsk !== null;
  const spread = both ? onGrid(bestAsk - bestBid) : null;
  const midpoint = midpointOf(bestBid, bestAsk);
  let price: number | null = null;
  let basis: PriceBasis | null = null;
  if (midpoint !== null && spread !== null && spread <= WIDE_SPREAD + 1e-9) [price, basis] = [midpoint, 'midpoint'];
  else if (last !== null) [price, basis] = [last, 'last'];
  else if (midpoint !== null) [price, basis] = [midpoint, 'midpoint'];
  else if (listed !== null) [price, basis] = [listed, 'listed'];
  return { bestBid, bestAsk, midpoint, spread, last, price, basis, live };
}

/** An outcome's quote from its live book and the last trade in that outcome. */
export function quoteFromBook(
  book: Pick<OrderBookSummary, 'bids' | 'asks'> | undefined,
  last: number | null,
  listed: number | null = null,
): Quote {
  return quoteOf({ ...bookTop(book), last, listed, live: book !== undefined });
}

/**
 * An outcome's quote from a market record (a listed snapshot: Gamma's bestBid/bestAsk/lastTradePrice are the
 * first outcome's; the second outcome of a binary market is its complement), else the record's listed price.
 */
export function quoteFromRecord(
  market: Pick<Market, 'position_tokens' | 'bestBid' | 'bestAsk' | 'lastTradePrice'>,
  outcomeIndex: number,
): Quote {
  const listed = price01(market.position_tokens[outcomeIndex]?.price);
  const binary = market.position_tokens.length === 2 && outcomeIndex <= 1;
  // Gamma writes an empty side as a bid of 0 or an ask of 1, and no trade as a last price of 0: unknown, not prices.
  const bid = positive(price01(market.bestBid));
  const ask = below1(price01(market.bestAsk));
  const last = positive(price01(market.lastTradePrice));
  if (!binary) return quoteOf({ bestBid: null, bestAsk: null, listed, live: false });
  const flip = outcomeIndex === 1;
  return quoteOf({
    bestBid: flip ? (ask === null ? null : onGrid(1 - ask)) : bid,
    bestAsk: flip ? (bid === null ? null : onGrid(1 - bid)) : ask,
    last: last === null ? null : flip ? onGrid(1 - last) : last,
    listed,
    live: false,
  });
}

/** A resolved market's outcome: what its share pays (1 or 0), never a book's or a last trade's price. */
export function finalQuote(payout: number): Quote {
  return {
    bestBid: null,
    bestAsk: null,
    midpoint: null,
    spread: null,
    last: null,
    price: payout,
    basis: 'final',
    live: true,
  };
}

/** A fill priced in the first outcome, as the given outcome's price (src/shared/last-trade.ts, main's alerts read it too). */
export { inOutcome };

/** The short tag beside a shown price. */
export function basisTag(basis: PriceBasis | null): string {
  return basis === 'midpoint'
    ? 'mid'
    : basis === 'last'
      ? 'last'
      : basis === 'listed'
        ? 'listed'
        : basis === 'final'
          ? 'final'
          : '';
}

/** How old a snapshot's price is, as its tag says it: nothing under a minute, else " · 2 min ago". */
export function ageTag(asOf: number | undefined, now = Date.now()): string {
  if (asOf === undefined) return '';
  const minutes = Math.floor((now - asOf) / 60_000);
  if (minutes < 1) return '';
  return minutes < 60 ? ` · ${minutes} min ago` : ` · ${Math.floor(minutes / 60)} h ago`;
}

/** A shown price in cents with as many decimals as it has ("52¢", "52.5¢"); "—" when unknown. */
export function quoteCents(price: number | null): string {
  if (price === null) return '—';
  const cents = Math.round(price * 10_000) / 100;
  const decimals = Number.isInteger(cents) ? 0 : Number.isInteger(cents * 10) ? 1 : 2;
  return `${cents.toFixed(decimals)}¢`;
}

/** The sentence on hover: which price this is and why (the trader never has to guess). */
export function basisSentence(quote: Quote): string {
  const c = quoteCents;
  switch (quote.basis) {
    case 'midpoint':
      return `Midpoint of the best bid ${c(quote.bestBid)} and best ask ${c(quote.bestAsk)}${quote.live ? '' : ' (as listed, not live)'}.`;
    case 'last':
      return quote.spread !== null
        ? `Last trade: the spread (${c(quote.spread)}) is wider than 10¢, so the last trade is shown, as on Polymarket.`
        : 'Last trade: one side of the book is empty, so there is no midpoint.';
    case 'listed':
      return "The source's listed price (no book or trade read here).";
    case 'final':
      return quote.price === 1
        ? 'The market resolved to this outcome: a share pays $1.'
        : quote.price === 0
          ? 'The market resolved against this outcome: a share pays nothing.'
          : `The market resolved: a share pays ${c(quote.price)}.`;
    default:
      return 'No price: no book, trade or listed price.';
  }
}
