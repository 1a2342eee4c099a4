// The event board's model: every outcome (market) of an event as one row — best Yes bid and ask, last trade,
// spread, 24 h change, the trader's position — sorted by price, highest Yes first, with the sums of the best Yes
// asks and bids across outcomes and what they mean in words. Pure, so the board tile and `pmdesk events board`
// print the same rows and the same sentences, and tests call it directly.
import { bookTop } from './book-top';
import { inOutcome } from './last-trade';

/** What the board knows of one outcome of the event. */
export interface BoardOutcomeInput {
  marketId: string;
  /** The outcome's short name in its event ("25 bps cut"); the question when it has none. */
  name: string;
  /** The Yes (first) and No (second) tokens of its market. */
  yesTokenId: string;
  noTokenId: string | null;
  /** The Yes token's book (levels with shares), when one was read. */
  book?: { bids: readonly { price: number; size: number }[]; asks: readonly { price: number; size: number }[] };
  /** The last trade's price in Yes, when known. */
  last: number | null;
  /** The listed Yes price (the source's), for an outcome with no book and no trade. */
  listed: number | null;
  /** The Yes price's change over 24 h, in price units (0.03 = +3¢), when the source states it. */
  change24h: number | null;
  /** The trader's shares of Yes and of No (0 or absent: none). */
  yesShares?: number;
  noShares?: number;
}

export interface BoardPosition {
  side: 'Yes' | 'No';
  shares: number;
}

export interface BoardRow {
  marketId: string;
  name: string;
  yesTokenId: string;
  noTokenId: string | null;
  bestBid: number | null;
  bestAsk: number | null;
  last: number | null;
  spread: number | null;
  change24h: number | null;
  /** The price the board sorts by (see `boardPrice`), null when nothing is known. */
  price: number | null;
  /** Its book was read (false: still loading, or it could not be). */
  hasBook: boolean;
  positions: BoardPosition[];
}

/** One side's sum across the outcomes: in 1/10,000ths of a dollar (the finest tick), exact. */
export interface BoardSum {
  /** The sum of the outcomes that quote this side, in ten-thousandths of a dollar. */
  units: number;
  /** How many outcomes quote it, of all. */
  quoted: number;
  of: number;
  /** The outcomes that do not (no ask, or no bid), by name. */
  missing: string[];
}

export interface EventBoard {
  rows: BoardRow[];
  asks: BoardSum;
  bids: BoardSum;
  /** The sums in words (one sentence each). */
  asksWords: string;
  bidsWords: string;
}

/** Polymarket shows the last trade instead of the midpoint when the spread is wider than this (as quote.ts). */
const WIDE_SPREAD_UNITS = 1_000;
const UNITS = 10_000;
/** A price on the 1e-4 grid as an integer of ten-thousandths (0.35 → 3500). */
export const priceUnits = (p: number): number => Math.round(p * UNITS);
const fromUnits = (u: number): number => u / UNITS;

/**
 * The price an outcome is sorted by, Polymarket's rule as the terminal's one price model states it
 * (src/renderer/src/model/quote.ts): the midpoint while the spread is at most 10¢, else the last trade; with a side
 * missing the last trade, else the midpoint; with neither, the listed price.
 */
export function boardPrice(bestBid: number | null, bestAsk: number | null, last: number | null, listed: number | null) {
  if (bestBid !== null && bestAsk !== null) {
    const spread = priceUnits(bestAsk) - priceUnits(bestBid);
    const mid = fromUnits(Math.round((priceUnits(bestAsk) + priceUnits(bestBid)) / 2));
    if (spread <= WIDE_SPREAD_UNITS) return mid;
    return last ?? mid;
  }
  return last ?? listed;
}

function positionsOf(input: BoardOutcomeInput): BoardPosition[] {
  const out: BoardPosition[] = [];
  if ((input.yesShares ?? 0) > 0) out.push({ side: 'Yes', shares: input.yesShares! });
  if ((input.noShares ?? 0) > 0) out.push({ side: 'No', shares: input.noShares! });
  return out;
}

export function boardRow(input: BoardOutcomeInput): BoardRow {
  const { bestBid, bestAsk } = bookTop(input.book);
  return {
    marketId: input.marketId,
    name: input.name,
    yesTokenId: input.yesTokenId,
    noTokenId: input.noTokenId,
    bestBid,
    bestAsk,
    last: input.last,
    spread: bestBid !== null && bestAsk !== null ? fromUnits(priceUnits(bestAsk) - priceUnits(bestBid)) : null,
    change24h: input.change24h,
    price: boardPrice(bestBid, bestAsk, input.last, input.listed),
    hasBook: input.book !== undefined,
    positions: positionsOf(input),
  };
}

/** Highest price first; an outcome with no price known last; equal prices by name, so the order never flickers. */
export function sortRows(rows: readonly BoardRow[]): BoardRow[] {
  return [...rows].sort((a, b) => {
    if (a.price !== b.price) {
      if (a.price === null) return 1;
      if (b.price === null) return -1;
      return b.price - a.price;
    }
    return a.name.localeCompare(b.name) || a.marketId.localeCompare(b.marketId);
  });
}

function sumOf(rows: readonly BoardRow[], side: 'bestAsk' | 'bestBid'): BoardSum {
  let units = 0;
  const missing: string[] = [];
  for (const row of rows) {
    const p = row[side];
    if (p === null) missing.push(row.name);
    else units += priceUnits(p);
  }
  return { units, quoted: rows.length - missing.length, of: rows.length, missing };
}

/** Ten-thousandths of a dollar in cents: "97¢", "97.5¢". */
export function unitsInCents(units: number): string {
  const cents = units / 100;
  return `${Number.isInteger(cents) ? cents : cents.toFixed(2).replace(/0+$/, '')}¢`;
}

/** Ten-thousandths of a dollar as money: "97¢" under a dollar, "$1.04" from a dollar up ("$1.045" kept exact). */
export function unitsInMoney(units: number): string {
  if (units < UNITS) return unitsInCents(units);
  const dollars = units / UNITS;
  const text = dollars.toFixed(4).replace(/0{1,2}$/, '');
  return `$${text}`;
}

const listNames = (names: readonly string[]): string =>
  names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

function incompleteWords(sum: BoardSum, side: 'asks' | 'bids'): string {
  const noun = side === 'asks' ? 'ask' : 'bid';
  const has = sum.missing.length === 1 ? 'has' : 'have';
  return (
    `The Yes ${side} add up to ${unitsInCents(sum.units)} over ${sum.quoted} of ${sum.of} outcomes: ` +
    `${listNames(sum.missing)} ${has} no ${noun}, so the sum is incomplete and says nothing about a dollar.`
  );
}

/** The sum of the best Yes asks in words: what buying one Yes of every outcome costs against the $1 it pays. */
export function asksWords(sum: BoardSum, exclusive: boolean): string {
  if (sum.of === 0) return 'No outcomes to add up.';
  if (sum.missing.length > 0) return incompleteWords(sum, 'asks');
  const total = unitsInCents(sum.units);
  if (!exclusive)
    return `The Yes asks add up to ${total}; the outcomes are not exclusive (not a negative-risk event), so the sum promises no dollar.`;
  const gap = UNITS - sum.units;
  const cost = unitsInMoney(sum.units);
  if (gap > 0)
    return `The Yes asks add up to ${total}: buying one Yes of every outcome costs ${cost} and pays $1 — ${unitsInCents(gap)} under a dollar before fees.`;
  if (gap < 0)
    return `The Yes asks add up to ${total}: buying one Yes of every outcome costs ${cost} and pays $1 — ${unitsInCents(-gap)} over a dollar, nothing to gain.`;
  return `The Yes asks add up to ${total}: buying one Yes of every outcome costs exactly the $1 it pays.`;
}

/** The sum of the best Yes bids in words: what selling one Yes of every outcome brings against the $1 a set pays. */
export function bidsWords(sum: BoardSum, exclusive: boolean): string {
  if (sum.of === 0) return 'No outcomes to add up.';
  if (sum.missing.length > 0) return incompleteWords(sum, 'bids');
  const total = unitsInCents(sum.units);
  if (!exclusive)
    return `The Yes bids add up to ${total}; the outcomes are not exclusive (not a negative-risk event), so the sum promises no dollar.`;
  const gap = sum.units - UNITS;
  const brings = unitsInMoney(sum.units);
  if (gap > 0)
    return `The Yes bids add up to ${total}: selling one Yes of every outcome brings ${brings} for a set that pays $1 — ${unitsInCents(gap)} over a dollar before fees.`;
  if (gap < 0)
    return `The Yes bids add up to ${total}: selling one Yes of every outcome brings ${brings} for a set that pays $1 — ${unitsInCents(-gap)} under a dollar, nothing to gain.`;
  return `The Yes bids add up to ${total}: selling one Yes of every outcome brings exactly the $1 a set pays.`;
}

/**
 * The board of an event: its rows sorted by price, and both sums with their words. `exclusive`: exactly one
 * outcome wins (a negative-risk event), so one Yes of each pays exactly $1 and the sums say something.
 */
export function eventBoard(outcomes: readonly BoardOutcomeInput[], exclusive: boolean): EventBoard {
  const rows = sortRows(outcomes.map(boardRow));
  const asks = sumOf(rows, 'bestAsk');
  const bids = sumOf(rows, 'bestBid');
  return { rows, asks, bids, asksWords: asksWords(asks, exclusive), bidsWords: bidsWords(bids, exclusive) };
}

/** An outcome's name in its event: the market's short label, else its name, else its question. */
export function outcomeNameOf(market: { groupItemTitle?: string; name?: string; question?: string }): string {
  return market.groupItemTitle?.trim() || market.name?.trim() || market.question?.trim() || '?';
}

/** A price change in cents with its sign ("+3¢", "−1.5¢", "0¢"); "—" when unknown. */
export function changeCents(change: number | null): string {
  if (change === null || !Number.isFinite(change)) return '—';
  const units = priceUnits(change);
  if (units === 0) return '0¢';
  return `${units > 0 ? '+' : '−'}${unitsInCents(Math.abs(units))}`;
}

/** A price in cents ("35¢", "7.5¢"); "—" when unknown. */
export function boardCents(price: number | null): string {
  return price === null ? '—' : unitsInCents(priceUnits(price));
}

/** What a market record carries of its last trade: its tokens (Yes first), last price and 24 h change. */
export interface LastTradeFields {
  position_tokens: readonly { token_id: string }[];
  lastTradePrice?: number | null;
  oneDayPriceChange?: number | null;
}

/**
 * A market record once the exchange's channel announced a trade of one of its tokens: its last trade becomes the
 * trade's price as the first outcome's (a No trade at 62¢ is a Yes last of 38¢), and its 24 h change is measured
 * from the same price a day ago the record implies (its last minus its change), so both move together before
 * the record is read again. A token not of this market leaves it as it is.
 */
export function withLastTrade<M extends LastTradeFields>(market: M, tokenId: string, price: number): M {
  const index = market.position_tokens.findIndex((t) => t.token_id === tokenId);
  if (index < 0 || !(price > 0 && price < 1)) return market;
  const last = inOutcome(price, index);
  const { lastTradePrice: was, oneDayPriceChange: change } = market;
  const dayAgo = typeof was === 'number' && typeof change === 'number' ? was - change : null;
  return {
    ...market,
    lastTradePrice: last,
    ...(dayAgo === null ? {} : { oneDayPriceChange: Math.round((last - dayAgo) * 10_000) / 10_000 }),
  };
}
