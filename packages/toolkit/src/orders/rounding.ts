// The rounding table (docs/protocol.md#rounding-and-amounts, plus version 2's 0.005 and 0.0025 ticks) and the one place where an order's
// prices and sizes become integer 6-decimal base units. The arithmetic deliberately mirrors the official
// clients' JavaScript doubles step for step: the exchange accepts amounts exactly as those clients make them.
import { invalidParameter } from '../model/errors';
import { COLLATERAL_TOKEN_DECIMALS } from '../chain/networks';

import { PRICE_DECIMALS, TICK_SIZES, isTickSize, type TickSize } from '../model/market-rules';

export { TICK_SIZES, isTickSize, type TickSize };
/** The ticks of order version 1; 0.005 and 0.0025 exist only from version 2 on. */
export const V1_TICK_SIZES: readonly TickSize[] = ['0.1', '0.01', '0.001', '0.0001'];

export interface RoundingRule {
  /** Decimals of the price. */
  price: number;
  /** Decimals of the size (shares, or USDC of a market BUY). */
  size: number;
  /** Decimals allowed in the computed amount. */
  amount: number;
}

export const ROUNDING: Readonly<Record<TickSize, RoundingRule>> = {
  '0.1': { price: PRICE_DECIMALS['0.1'], size: 2, amount: 3 },
  '0.01': { price: PRICE_DECIMALS['0.01'], size: 2, amount: 4 },
  '0.005': { price: PRICE_DECIMALS['0.005'], size: 2, amount: 5 },
  '0.0025': { price: PRICE_DECIMALS['0.0025'], size: 2, amount: 6 },
  '0.001': { price: PRICE_DECIMALS['0.001'], size: 2, amount: 5 },
  '0.0001': { price: PRICE_DECIMALS['0.0001'], size: 2, amount: 6 },
};

/** The tick as the table's key: the server may send 0.01 as a number. */
export function toTickSize(value: unknown, methodName?: string): TickSize {
  const text = typeof value === 'number' ? String(value) : value;
  if (!isTickSize(text))
    throw invalidParameter(`invalid tick size (${String(value)}), must be one of ${TICK_SIZES.join(', ')}`, methodName);
  return text;
}

/** Digits after the point in the number's shortest decimal form; exponent forms count as 0 (as the reference does). */
export function decimalPlaces(x: number): number {
  if (Number.isInteger(x)) return 0;
  // Same count as the reference's split('.')[1].length, without building the array (a number has at most one point).
  const text = x.toString();
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

export function roundNormal(x: number, decimals: number): number {
  if (decimalPlaces(x) <= decimals) return x;
  return Math.round((x + Number.EPSILON) * 10 ** decimals) / 10 ** decimals;
}

export function roundDown(x: number, decimals: number): number {
  if (decimalPlaces(x) <= decimals) return x;
  return Math.floor(x * 10 ** decimals) / 10 ** decimals;
}

export function roundUp(x: number, decimals: number): number {
  if (decimalPlaces(x) <= decimals) return x;
  return Math.ceil(x * 10 ** decimals) / 10 ** decimals;
}

/** Cuts float noise from a product (21.04 × 0.56 = 11.782399999999999 → 11.7824), then keeps at most `amount` decimals. */
function fitAmount(x: number, rule: RoundingRule): number {
  if (decimalPlaces(x) <= rule.amount) return x;
  const up = roundUp(x, rule.amount + 4);
  return decimalPlaces(up) > rule.amount ? roundDown(up, rule.amount) : up;
}

export type OrderSide = 'BUY' | 'SELL';

/** Maker and taker amounts as decimal numbers, before base units. BUY: maker pays USDC for shares; SELL the reverse. */
export interface RawAmounts {
  maker: number;
  taker: number;
}

/** A limit order: the price rounds to nearest, the size down, the product is fitted. */
export function limitOrderRawAmounts(side: OrderSide, size: number, price: number, rule: RoundingRule): RawAmounts {
  const p = roundNormal(price, rule.price);
  const shares = roundDown(size, rule.size);
  const usdc = fitAmount(shares * p, rule);
  return side === 'BUY' ? { maker: usdc, taker: shares } : { maker: shares, taker: usdc };
}

/** A market order: the price rounds down; BUY spends `amount` USDC, SELL sells `amount` shares. */
export function marketOrderRawAmounts(side: OrderSide, amount: number, price: number, rule: RoundingRule): RawAmounts {
  const p = roundDown(price, rule.price);
  const maker = roundDown(amount, rule.size);
  return side === 'BUY' ? { maker, taker: fitAmount(maker / p, rule) } : { maker, taker: fitAmount(maker * p, rule) };
}

/**
 * The one conversion of money to integer base units (6 decimals), from the number's decimal text:
 * extra digits round half up, exponent notation and negatives are refused rather than guessed at.
 */
export function toBaseUnits(x: number, decimals = COLLATERAL_TOKEN_DECIMALS): string {
  const text = x.toString();
  const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec(text);
  if (!match) throw invalidParameter(`amount ${text} cannot be expressed in base units`);
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length <= decimals) {
    // No digit to round away (the rounding table keeps amounts to at most 6 decimals): the digits themselves
    // are the answer, without BigInt arithmetic.
    const digits = `${match[1]!}${fraction.padEnd(decimals, '0')}`.replace(/^0+/, '');
    return digits === '' ? '0' : digits;
  }
  let integer = BigInt(match[1]!);
  let units = BigInt(fraction.slice(0, decimals).padEnd(decimals, '0') || '0');
  if (fraction.length > decimals && Number(fraction[decimals]) >= 5) {
    units += 1n;
    if (units === 10n ** BigInt(decimals)) {
      units = 0n;
      integer += 1n;
    }
  }
  return (integer * 10n ** BigInt(decimals) + units).toString();
}
