// Polymarket's platform fee (docs/protocol.md#fees), as the sandbox charges it at match time: a market's
// fee parameters (rate r, exponent e, taker-only) and the taker's fee for a fill of `shares` at price p,
// shares × r × (p·(1−p))^e in collateral — the documented (notional / p) × r × (p·(1−p))^e — computed exactly and
// rounded down to the base unit, so the trader is never charged a fraction of a unit more than the formula.

/** A market's fee parameters, as Polymarket's `/clob-markets` `fd {r, e, to}` names them. */
export interface MarketFees {
  /** r: 0.072 on crypto markets, 0.04 on politics, tech and finance, … */
  rate: number;
  /** e: a whole number (1 in every production example). */
  exponent: number;
  /** to: only the taker pays (the only kind the sandbox's exchange charges). */
  takerOnly: true;
}

/** One fill seen from the taker: shares (base units) at the taker's price in 1e-4 units. */
export interface FeeFill {
  shares: bigint;
  takerPrice: number;
}

const PRICE_ONE = 10_000n;

/** The rate as an exact fraction: 0.072 → 72 / 1000 (a rate has at most 6 decimals). */
function rateFraction(rate: number): [bigint, bigint] {
  const text = rate.toFixed(6).replace(/0+$/, '');
  const [whole, decimals = ''] = text.split('.');
  const den = 10n ** BigInt(decimals.length);
  return [BigInt(whole!) * den + BigInt(decimals || '0'), den];
}

/** Refuses parameters the formula cannot take: a rate outside [0, 1), a fractional or negative exponent. */
export function checkFees(fees: MarketFees): MarketFees {
  if (!(fees.rate >= 0 && fees.rate < 1) || Math.abs(Number(fees.rate.toFixed(6)) - fees.rate) > 1e-12) {
    throw new Error(`fee rate ${fees.rate}: a number in [0, 1) with at most 6 decimals`);
  }
  if (!Number.isInteger(fees.exponent) || fees.exponent < 0 || fees.exponent > 8)
    throw new Error(`fee exponent ${fees.exponent}: a whole number 0–8`);
  if (fees.takerOnly !== true) throw new Error('only taker fees are charged in the sandbox');
  return fees;
}

/**
 * The taker's fee in collateral base units for its fills: Σ shares × r × (p(1−p))^e over the fills, each at its
 * own price, summed exactly and rounded down once.
 */
export function takerFee(fees: MarketFees | undefined, fills: readonly FeeFill[]): bigint {
  if (!fees || fees.rate === 0) return 0n;
  const [rateNum, rateDen] = rateFraction(fees.rate);
  const e = BigInt(fees.exponent);
  let numerator = 0n;
  for (const { shares, takerPrice } of fills) {
    const p = BigInt(takerPrice);
    numerator += shares * (p * (PRICE_ONE - p)) ** e;
  }
  return (numerator * rateNum) / (rateDen * PRICE_ONE ** (2n * e));
}

/** The rate in basis points, as `/fee-rate` `base_fee` and the trade feeds' `fee_rate_bps` state it. */
export function feeRateBps(fees: MarketFees | undefined): number {
  return fees ? Math.round(fees.rate * 10_000) : 0;
}
