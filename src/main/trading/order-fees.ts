// The fee the exchange will take for an order, before it is signed: the market's fee terms (the CLOB's
// `/clob-markets` `fd` wins on version 2/3 exchanges, the source's market otherwise), the order's expected taker
// fills from the book, the fee on them with the toolkit's exact fee math, and the official client's shrink of a
// market BUY whose amount and fee would exceed the balance.
import { z } from 'zod';
import { ErrorCode, isPmDeskError } from '@pmdesk/toolkit/model';
import type { MarketFees } from '@pmdesk/toolkit/model';
import { COLLATERAL_TOKEN_DECIMALS } from '@pmdesk/toolkit';
import { adjustBuyAmountForFees, fillFee, type FeeTerms } from '@pmdesk/toolkit';
import { roundDown } from '@pmdesk/toolkit';
import { parseAnswer } from '@pmdesk/toolkit';
import type { OrderPlan, TradedMarket } from './order-input';

type Level = { price: string; size: string };

/** The CLOB's compact market: only its fee details are read here (`fd {r, e, to}`; absent or null = no fee). */
const ClobFeeDetailsSchema = z.looseObject({
  fd: z
    .looseObject({
      r: z.union([z.number().nonnegative(), z.string().regex(/^\d+(\.\d+)?$/)]),
      e: z.number().int().nonnegative(),
      to: z.boolean().optional(),
    })
    .nullish(),
});

/**
 * Where a market's fee terms came from, said in the preview's notes when it matters; 'unknown' when neither
 * the exchange nor the source's market stated them (the preview says "fee unknown" rather than guess).
 */
export type FeeTermsSource = 'exchange' | 'market' | 'none' | 'unknown';

export interface OrderFeeTerms {
  terms: FeeTerms | undefined;
  source: FeeTermsSource;
}

/** A rate of 0 charges nothing: such terms are kept as none. */
function charging(terms: FeeTerms | undefined): FeeTerms | undefined {
  return terms && Number(terms.rate) > 0 ? terms : undefined;
}

/** The fee terms of the CLOB's `/clob-markets/{conditionId}` answer (a wrong shape is ERR_VALIDATION naming `fd.*`). */
export function feeTermsOfClobMarket(answer: unknown): FeeTerms | undefined {
  const { fd } = parseAnswer(ClobFeeDetailsSchema, answer, 'getClobMarketInfo');
  return fd ? charging({ rate: fd.r, exponent: fd.e, takerOnly: fd.to ?? true }) : undefined;
}

/** The source's market fee parameters as fee terms. */
export function feeTermsOfMarket(fees: MarketFees | undefined): FeeTerms | undefined {
  return fees ? charging({ rate: fees.rate, exponent: fees.exponent, takerOnly: fees.takerOnly }) : undefined;
}

/**
 * One rule for which terms count (docs/decisions/0020-fees-in-the-preview-the-exchanges-clob-markets.md): the exchange charges what its `/clob-markets` `fd` says,
 * so when the exchange answered, that wins, whatever the source's market said; when it could not be asked
 * (no condition id) or did not answer, the source's market terms are used; with neither, the fee is unknown
 * (never guessed, never taken as zero in what the trader reads).
 */
export function chooseFeeTerms(
  exchange: { terms: FeeTerms | undefined } | undefined,
  market: MarketFees | undefined,
): OrderFeeTerms {
  if (exchange) return { terms: exchange.terms, source: exchange.terms ? 'exchange' : 'none' };
  if (!market) return { terms: undefined, source: 'unknown' };
  const terms = feeTermsOfMarket(market);
  return { terms, source: terms ? 'market' : 'none' };
}

/** One expected taker fill: shares at a book level's price. */
export interface TakerFill {
  price: string;
  /** Shares, in base units. */
  shares: bigint;
}

const ONE = 10n ** BigInt(COLLATERAL_TOKEN_DECIMALS);
const toUnits = (x: number): bigint => BigInt(Math.round(x * Number(ONE)));
/** Exact base units of a decimal price times shares (a price string has at most 6 decimals). */
const notionalUnits = (price: string, shares: bigint): bigint => (toUnits(Number(price)) * shares) / ONE;

/**
 * The fills an order would take from the book as a taker, level by level (the best level is listed last):
 * a market BUY spends its dollars, a market SELL its shares, a limit order its size at prices that cross its
 * limit; the rest of a limit order rests as a maker, and a post-only order never takes.
 */
export function expectedTakerFills(
  book: { bids: readonly Level[]; asks: readonly Level[] },
  plan: OrderPlan,
): TakerFill[] {
  if (plan.kind === 'limit' && plan.postOnly) return [];
  const levels = plan.side === 'BUY' ? book.asks : book.bids;
  const limit = plan.price;
  // A market BUY counts dollars, everything else shares, in base units.
  let left = toUnits(plan.kind === 'market' ? plan.amount : plan.size);
  const dollars = plan.kind === 'market' && plan.side === 'BUY';
  const fills: TakerFill[] = [];
  for (let i = levels.length - 1; i >= 0 && left > 0n; i--) {
    const { price, size } = levels[i]!;
    const p = Number(price);
    const available = toUnits(Number(size));
    if (!(p > 0 && p < 1 && available > 0n)) continue;
    if (limit !== undefined && (plan.side === 'BUY' ? p > limit + 1e-9 : p < limit - 1e-9)) break;
    const wanted = dollars ? (left * ONE) / toUnits(p) : left;
    const shares = wanted < available ? wanted : available;
    if (shares <= 0n) break;
    fills.push({ price, shares });
    left -= dollars ? notionalUnits(price, shares) : shares;
    if (dollars && shares === wanted) break;
  }
  return fills;
}

/** The fee the exchange takes for these taker fills, in collateral base units (platform fee; builder fee when given). */
export function takerFeeUnits(
  terms: FeeTerms | undefined,
  fills: readonly TakerFill[],
  builderFeeBps?: number,
): bigint {
  if (!terms && builderFeeBps === undefined) return 0n;
  const platform: FeeTerms = terms ?? { rate: 0, exponent: 0 };
  return fills.reduce(
    (sum, f) =>
      sum + fillFee({ price: f.price, shares: f.shares, terms: platform, role: 'taker', builderFeeBps }).total,
    0n,
  );
}

/** The terms in the trader's words: "taker fee 4 %·p(1−p)", "fee 7.2 %·(p(1−p))²". */
export function describeFeeTerms(terms: FeeTerms): string {
  const percent = Number((Number(terms.rate) * 100).toFixed(4));
  const curve = terms.exponent === 0 ? '' : terms.exponent === 1 ? '·p(1−p)' : `·(p(1−p))^${terms.exponent}`;
  return `${terms.takerOnly === false ? 'fee' : 'taker fee'} ${percent} %${curve}`;
}

/**
 * A market BUY's amount shrunk as the official client does when amount + fee would exceed the balance
 * (docs/protocol.md#fees, at the order's price); undefined when it needs no shrink.
 */
export function shrinkMarketBuy(
  amount: number,
  price: number,
  balance: bigint,
  terms: FeeTerms | undefined,
): number | undefined {
  if (!terms || !(price > 0 && price < 1)) return undefined;
  const wanted = toUnits(amount);
  const shrunk = adjustBuyAmountForFees({ amount: wanted, price, balance, terms });
  return shrunk === wanted ? undefined : Number(shrunk) / Number(ONE);
}

/** Base units of collateral as dollars. */
export const unitsToDollars = (units: bigint): number => Number(units) / Number(ONE);

/** What the order flow knows of an order's fee before it is signed. */
export interface OrderFee {
  terms: FeeTerms | undefined;
  source: FeeTermsSource;
  /** The fee of the expected taker fills, in collateral base units: a BUY pays it on top, a SELL out of the proceeds. */
  units: bigint;
  fills: TakerFill[];
  /** A market BUY shrunk so its fee fits the balance: the amount the trader asked for. */
  shrunkFrom?: number;
}

/** The reads the fee needs, given by the order flow (the exchange's public client and the chain). */
export interface OrderFeeReads {
  /** The CLOB's `/clob-markets/{conditionId}` answer. */
  clobMarket(conditionId: string): Promise<unknown>;
  book(tokenId: string): Promise<{ bids: readonly Level[]; asks: readonly Level[] }>;
  /** The funds' collateral balance, in base units. */
  balance(): Promise<bigint>;
}

const NO_FEE: OrderFee = { terms: undefined, source: 'none', units: 0n, fills: [] };

/** Network failures fall back (the source's terms, an estimate without the book); a wrong shape does not. */
const fallsBack = (error: unknown): boolean => isPmDeskError(error) && error.code !== ErrorCode.VALIDATION_ERROR;

/**
 * The order's fee and the plan to build: on a version 2/3 exchange (the fee is set at match time, nothing
 * signed), the terms by chooseFeeTerms, the expected taker fills from the book (without a book, a market order
 * is taken as filled whole at its estimated price), and a market BUY shrunk as the official client does when
 * its amount and fee exceed the balance. Version 1 signs the market's rate and takes its fee in the order's
 * proceeds, so it has no fee here (the preview states version 1's own figure).
 */
export async function planOrderFee(
  reads: OrderFeeReads,
  market: TradedMarket,
  tokenId: string,
  plan: OrderPlan,
  orderVersion: number,
): Promise<{ plan: OrderPlan; fee: OrderFee }> {
  if (orderVersion === 1) return { plan, fee: NO_FEE };
  let exchange: { terms: FeeTerms | undefined } | undefined;
  if (market.conditionId) {
    try {
      exchange = { terms: feeTermsOfClobMarket(await reads.clobMarket(market.conditionId)) };
    } catch (error) {
      if (!fallsBack(error)) throw error;
    }
  }
  const { terms, source } = chooseFeeTerms(exchange, market.fees);
  if (!terms) return { plan, fee: { ...NO_FEE, source } };
  let book: { bids: readonly Level[]; asks: readonly Level[] } | undefined;
  try {
    book = await reads.book(tokenId);
  } catch (error) {
    if (!fallsBack(error)) throw error;
  }
  const fillsOf = (p: OrderPlan): TakerFill[] => {
    if (book) return expectedTakerFills(book, p);
    if (p.kind === 'limit') return [];
    const price = String(p.price ?? p.estimatedPrice);
    return [{ price, shares: toUnits(p.side === 'BUY' ? p.amount / Number(price) : p.amount) }];
  };
  let fills = fillsOf(plan);
  let units = takerFeeUnits(terms, fills);
  if (plan.kind !== 'market' || plan.side !== 'BUY' || units === 0n)
    return { plan, fee: { terms, source, units, fills } };

  // The official client shrinks at the order's price: the worst level the book reaches, else the limit or estimate.
  const price = fills.length > 0 ? Number(fills[fills.length - 1]!.price) : (plan.price ?? plan.estimatedPrice);
  const balance = await reads.balance();
  const shrunk = shrinkMarketBuy(plan.amount, price, balance, terms);
  if (shrunk === undefined || !(shrunk > 0)) return { plan, fee: { terms, source, units, fills } };
  const smaller: OrderPlan = { ...plan, amount: shrunk, estimatedSize: roundDown(shrunk / price, 2) };
  fills = fillsOf(smaller);
  units = takerFeeUnits(terms, fills);
  return { plan: smaller, fee: { terms, source, units, fills, shrunkFrom: plan.amount } };
}
