// The exchange's fees in exact base units (docs/protocol.md#fees): the platform fee a fill pays from the
// market's terms `fd {r, e, to}` — shares × rate × (p·(1−p))^exponent — plus a builder's fee on the notional
// when an order carries a builder code, and the official client's rule that shrinks a BUY so that the amount
// and its fees fit the balance (clob-client-v2 1.1.0 `adjustBuyAmountForFees`), done in exact fractions.
import { invalidParameter } from '../model/errors';
import { COLLATERAL_TOKEN_DECIMALS } from '../chain/networks';

/** A market's fee terms as the CLOB's `/clob-markets/{conditionId}` gives them in `fd`. */
export interface FeeTerms {
  /** `r`: the platform rate (0.03 sports … 0.072 crypto). */
  rate: number | string;
  /** `e`: the exponent on p·(1−p); a whole number. */
  exponent: number;
  /** `to`: only takers pay (the default when absent, as on every market seen so far). */
  takerOnly?: boolean;
}

/**
 * Decimals a charged fee keeps: Polymarket's fee docs (as quoted by a third-party client, not confirmed from a
 * first-party source) say a fee is rounded down to 5 decimals, 0.00001 pUSD being the smallest charged.
 */
export const FEE_DECIMALS = 5;
const BASE = 10n ** BigInt(COLLATERAL_TOKEN_DECIMALS);
const FEE_STEP = 10n ** BigInt(COLLATERAL_TOKEN_DECIMALS - FEE_DECIMALS);
/** A builder's rate is quoted in basis points. */
const BPS = 10_000n;

/** An exact non-negative fraction n/d. */
interface Fraction {
  n: bigint;
  d: bigint;
}

/** A decimal number (or its text) as an exact fraction, from its shortest decimal form; no float arithmetic. */
export function decimalFraction(value: number | string, what: string): Fraction {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(text);
  if (typeof value === 'number' && !Number.isFinite(value))
    throw invalidParameter(`The ${what} must be a finite number, got ${text}.`);
  if (!match) throw invalidParameter(`The ${what} must be a non-negative decimal number, got ${text}.`);
  const fraction = match[2] ?? '';
  const exponent = Number(match[3] ?? 0) - fraction.length;
  const digits = BigInt(`${match[1]!}${fraction}`);
  return exponent >= 0 ? { n: digits * 10n ** BigInt(exponent), d: 1n } : { n: digits, d: 10n ** BigInt(-exponent) };
}

function priceFraction(price: number | string): Fraction {
  const p = decimalFraction(price, 'price');
  if (p.n <= 0n || p.n >= p.d)
    throw invalidParameter(`A fee is computed at a price strictly between 0 and 1, got ${String(price)}.`);
  return p;
}

function exponentOf(terms: FeeTerms): bigint {
  if (!Number.isSafeInteger(terms.exponent) || terms.exponent < 0) {
    throw invalidParameter(
      `The fee exponent must be a whole number ≥ 0 for an exact fee, got ${String(terms.exponent)}.`,
    );
  }
  return BigInt(terms.exponent);
}

/** rate × (p·(1−p))^e as an exact fraction: the platform's fee per share, in collateral. */
function platformRatePerShare(price: Fraction, terms: FeeTerms): Fraction {
  const rate = decimalFraction(terms.rate, 'fee rate');
  const e = exponentOf(terms);
  const curveN = price.n * (price.d - price.n);
  const curveD = price.d * price.d;
  return { n: rate.n * curveN ** e, d: rate.d * curveD ** e };
}

function builderRate(bps: number | undefined): Fraction {
  if (bps === undefined) return { n: 0n, d: 1n };
  if (!Number.isSafeInteger(bps) || bps < 0)
    throw invalidParameter(`A builder fee is a whole number of basis points ≥ 0, got ${String(bps)}.`);
  return { n: BigInt(bps), d: BPS };
}

/** Whole base units of a fee, rounded down to FEE_DECIMALS as charged. */
function chargedUnits(numerator: bigint, denominator: bigint): bigint {
  const units = numerator / denominator;
  return (units / FEE_STEP) * FEE_STEP;
}

export interface FillFeeInput {
  /** The fill price (the maker's price for a taker), strictly between 0 and 1. */
  price: number | string;
  /** Shares filled, in base units (6 decimals). */
  shares: bigint;
  terms: FeeTerms;
  /** Which side of the match this fill is on; makers pay no platform fee on taker-only markets. */
  role?: 'taker' | 'maker';
  /** When the order carries a builder code: that builder's rate for this role, in bps (`/fees/builder-fees/{code}`). */
  builderFeeBps?: number;
}

export interface FillFee {
  /** The platform fee, in collateral base units. */
  platform: bigint;
  /** The builder's fee, in collateral base units (0 without a builder code). */
  builder: bigint;
  total: bigint;
}

/**
 * The fee for one fill, in collateral base units, paid on top of the notional: platform = shares × r × (p(1−p))^e
 * (e.g. $100 of a crypto market at 0.3, r 0.072: $5.04), nothing for a maker on a taker-only market; builder =
 * shares × p × bps / 10 000. Each is rounded down to FEE_DECIMALS.
 */
export function fillFee(input: FillFeeInput): FillFee {
  if (typeof input.shares !== 'bigint' || input.shares < 0n)
    throw invalidParameter(`Shares filled must be a whole number of base units ≥ 0, got ${String(input.shares)}.`);
  const price = priceFraction(input.price);
  const pays = (input.role ?? 'taker') === 'taker' || input.terms.takerOnly === false;
  const perShare = platformRatePerShare(price, input.terms);
  const platform = pays ? chargedUnits(input.shares * perShare.n, perShare.d) : 0n;
  const b = builderRate(input.builderFeeBps);
  const builder = chargedUnits(input.shares * price.n * b.n, price.d * b.d);
  return { platform, builder, total: platform + builder };
}

/** The official client's limits on fee slippage: 0, or a percentage from 1 to 100. */
export function checkFeeSlippage(percent: number): void {
  if (!Number.isFinite(percent) || percent < 0 || percent > 100 || (percent > 0 && percent < 1)) {
    throw invalidParameter('feeSlippage must be 0 or a percentage between 1 and 100');
  }
}

export interface BuyShrinkInput {
  /** Collateral the BUY would spend, in base units: size × price for a limit order, the amount for a market order. */
  amount: bigint;
  price: number | string;
  /** The account's collateral balance, in base units. */
  balance: bigint;
  terms: FeeTerms;
  /** The builder's taker rate in bps, when the order carries a builder code. */
  builderTakerFeeBps?: number;
  /** Pads the platform fee by this percentage (0, or 1–100), as the official client's `feeSlippage`. */
  feeSlippagePercent?: number;
}

/**
 * The official client's shrink of a BUY, exactly: with base = min(amount, balance), platform = base / p × r ×
 * (p(1−p))^e × (1 + slippage/100) and builder = base × bps / 10 000, a balance that does not exceed amount + fees
 * gives max(balance − platform − builder, 0), rounded down to a base unit; otherwise the amount is unchanged.
 * What comes back never spends more than the balance once its own fees are added.
 */
export function adjustBuyAmountForFees(input: BuyShrinkInput): bigint {
  const { amount, balance } = input;
  for (const [name, v] of [
    ['amount', amount],
    ['balance', balance],
  ] as const) {
    if (typeof v !== 'bigint' || v < 0n)
      throw invalidParameter(`The ${name} must be a whole number of base units ≥ 0, got ${String(v)}.`);
  }
  const slippage = input.feeSlippagePercent ?? 0;
  checkFeeSlippage(slippage);
  const price = priceFraction(input.price);
  const perShare = platformRatePerShare(price, input.terms);
  const pad = decimalFraction(slippage, 'fee slippage');
  const b = builderRate(input.builderTakerFeeBps);
  const base = amount < balance ? amount : balance;
  // fees = base × [perShare / p × (1 + pad/100) + b], over one common denominator D.
  const platformN = perShare.n * price.d * (100n * pad.d + pad.n);
  const platformD = perShare.d * price.n * 100n * pad.d;
  const D = platformD * b.d;
  const feesN = base * (platformN * b.d + b.n * platformD);
  // balance ≤ amount + fees, compared over D without rounding.
  if (balance * D > amount * D + feesN) return amount;
  const left = balance * D - feesN;
  return left <= 0n ? 0n : left / D;
}

/** Base units of collateral as the decimal number the order builder takes: parsed from its decimal text, so it prints back the same. */
export function unitsToAmount(units: bigint): number {
  if (units < 0n) throw invalidParameter(`An amount of base units cannot be negative, got ${units}.`);
  return Number(`${units / BASE}.${(units % BASE).toString().padStart(COLLATERAL_TOKEN_DECIMALS, '0')}`);
}

export interface BuySizeShrinkInput extends Omit<BuyShrinkInput, 'amount'> {
  /** Shares of a limit BUY (the rounding table cuts them to 2 decimals afterwards). */
  size: number;
  price: number;
}

/**
 * A limit BUY's size after the shrink, as the official client sizes it (adjusted notional / price, then the
 * rounding table): the notional size × price is taken exactly, and a size the balance already covers is returned
 * untouched — the official client divides it back out in floats, which can cost a cent of size (2.3 / 0.23).
 */
export function adjustBuySizeForFees(input: BuySizeShrinkInput): number {
  const size = decimalFraction(input.size, 'size');
  const price = priceFraction(input.price);
  const notional = (size.n * price.n * BASE) / (size.d * price.d);
  const adjusted = adjustBuyAmountForFees({ ...input, amount: notional });
  return adjusted === notional ? input.size : unitsToAmount(adjusted) / input.price;
}
