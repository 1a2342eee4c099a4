// The sandbox CLOB's order rules as pure functions: reading a POST /order body of the server's order version,
// Polymarket's price, tick, size and precision rules, and the settlement plan that mirrors the exchange
// contract's arithmetic so that a match the engine makes never reverts on the chain.
import type { OrderVersion } from '../chain/deploy';
import type { ExchangeOrder } from '../chain/order-typed-data';
import { PRICE_ONE, type Fill, type MatchType, type OrderType, type Side } from './engine';

/** Share sizes of resting orders are whole hundredths of a share (the rounding table's size precision). */
export const SHARE_LOT = 10_000n;
const BASE = 1_000_000n;

export const ORDER_TYPES: readonly OrderType[] = ['GTC', 'GTD', 'FOK', 'FAK'];
/** Decimals of the collateral amount per tick size (docs/protocol.md#rounding-and-amounts). */
export const AMOUNT_DECIMALS: Record<string, number> = {
  '0.1': 3,
  '0.01': 4,
  '0.005': 5,
  '0.0025': 6,
  '0.001': 5,
  '0.0001': 6,
};
const SIZE_DECIMALS = 2;

export class OrderRejected extends Error {
  constructor(
    message: string,
    /** 'INVALID' for malformed input; anything else is a rule a well-formed order broke. */
    readonly kind: 'INVALID' | 'RULE' | 'VERSION' = 'RULE',
  ) {
    super(message);
  }
}

export interface ParsedOrderBody {
  order: ExchangeOrder;
  owner: string;
  orderType: OrderType;
  postOnly: boolean;
  deferExec: boolean;
}

const UINT = /^[0-9]{1,78}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
/** 65-byte ECDSA signatures; longer wrapped ones (POLY_1271) parse and are refused by the signature check. */
const SIGNATURE = /^0x(?:[0-9a-fA-F]{2}){1,1024}$/;
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const ZERO_BYTES32 = `0x${'0'.repeat(64)}`;
const V1_ONLY = ['taker', 'nonce', 'feeRateBps'] as const;
const V2_ONLY = ['timestamp', 'metadata', 'builder'] as const;
const MAX_UINT256 = (1n << 256n) - 1n;

function uint(value: unknown, field: string): bigint {
  const text = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
  if (typeof text !== 'string' || !UINT.test(text))
    throw new OrderRejected(`invalid order: ${field} must be an unsigned integer`, 'INVALID');
  const n = BigInt(text);
  if (n > MAX_UINT256) throw new OrderRejected(`invalid order: ${field} is out of range`, 'INVALID');
  return n;
}

function matching(value: unknown, pattern: RegExp, field: string): string {
  if (typeof value !== 'string' || !pattern.test(value))
    throw new OrderRejected(`invalid order: ${field} is malformed`, 'INVALID');
  return value;
}

/**
 * Reads a POST /order body. A body written for another order version is refused with
 * `order_version_mismatch`, the string the official v2 client looks for before it re-reads /version.
 */
export function parseOrderBody(body: unknown, version: OrderVersion): ParsedOrderBody {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new OrderRejected('Invalid order payload', 'INVALID');
  const b = body as Record<string, unknown>;
  const o = b.order;
  if (!o || typeof o !== 'object' || Array.isArray(o)) throw new OrderRejected('Invalid order payload', 'INVALID');
  const order = o as Record<string, unknown>;
  const hasV2 = V2_ONLY.some((k) => order[k] !== undefined);
  const hasV1 = V1_ONLY.some((k) => order[k] !== undefined);
  const bodyVersion = hasV2 ? 2 : hasV1 ? 1 : version;
  if ((version === 1) !== (bodyVersion === 1)) {
    throw new OrderRejected(
      `order_version_mismatch: this exchange takes version ${version} orders (GET /version), the order is a version ${bodyVersion === 1 ? 1 : '2/3'} order`,
      'VERSION',
    );
  }
  if (typeof b.owner !== 'string' || b.owner.length === 0 || b.owner.length > 100)
    throw new OrderRejected('Invalid order payload: owner', 'INVALID');
  const orderType = b.orderType ?? 'GTC';
  if (typeof orderType !== 'string' || !ORDER_TYPES.includes(orderType as OrderType)) {
    throw new OrderRejected(`Invalid order payload: orderType must be one of ${ORDER_TYPES.join(', ')}`, 'INVALID');
  }
  if (b.postOnly !== undefined && typeof b.postOnly !== 'boolean')
    throw new OrderRejected('Invalid order payload: postOnly', 'INVALID');
  if (b.deferExec !== undefined && typeof b.deferExec !== 'boolean')
    throw new OrderRejected('Invalid order payload: deferExec', 'INVALID');
  const side = order.side === 'BUY' || order.side === 0 ? 0 : order.side === 'SELL' || order.side === 1 ? 1 : -1;
  if (side < 0) throw new OrderRejected('invalid order: side must be BUY or SELL', 'INVALID');
  const signatureType = order.signatureType;
  if (typeof signatureType !== 'number' || ![0, 1, 2, 3].includes(signatureType)) {
    throw new OrderRejected('invalid order: signatureType must be 0, 1, 2 or 3', 'INVALID');
  }
  const parsed: ExchangeOrder = {
    salt: uint(order.salt, 'salt'),
    maker: matching(order.maker, ADDRESS, 'maker'),
    signer: matching(order.signer, ADDRESS, 'signer'),
    taker: version === 1 ? matching(order.taker ?? ZERO_ADDRESS, ADDRESS, 'taker') : ZERO_ADDRESS,
    tokenId: uint(order.tokenId, 'tokenId'),
    makerAmount: uint(order.makerAmount, 'makerAmount'),
    takerAmount: uint(order.takerAmount, 'takerAmount'),
    expiration: uint(order.expiration ?? '0', 'expiration'),
    nonce: version === 1 ? uint(order.nonce ?? '0', 'nonce') : 0n,
    feeRateBps: version === 1 ? uint(order.feeRateBps ?? '0', 'feeRateBps') : 0n,
    side,
    signatureType,
    timestamp: version === 1 ? 0n : uint(order.timestamp ?? '0', 'timestamp'),
    metadata: version === 1 ? ZERO_BYTES32 : matching(order.metadata ?? ZERO_BYTES32, BYTES32, 'metadata'),
    builder: version === 1 ? ZERO_BYTES32 : matching(order.builder ?? ZERO_BYTES32, BYTES32, 'builder'),
    signature: matching(order.signature, SIGNATURE, 'signature'),
  };
  return {
    order: parsed,
    owner: b.owner,
    orderType: orderType as OrderType,
    postOnly: b.postOnly === true,
    deferExec: b.deferExec === true,
  };
}

/** Tick size as 1e-4 price units. */
export function tickUnits(tickSize: string): number {
  return Math.round(Number(tickSize) * PRICE_ONE);
}

function decimalsOf(baseUnits: bigint): number {
  let d = 6;
  let n = baseUnits;
  while (d > 0 && n % 10n === 0n) {
    n /= 10n;
    d--;
  }
  return d;
}

export interface OrderTerms {
  side: Side;
  /** Collateral and shares the order signs for, in base units. */
  collateral: bigint;
  shares: bigint;
  /** Price in 1e-4 units on the tick grid: a BUY's rounded down, a SELL's up, so the engine never crosses more than the signed amounts allow. */
  price: number;
  /** Shares the engine may match: whole lots. */
  size: bigint;
}

/**
 * Checks the price, tick, precision and size rules (docs/protocol.md#matching-and-server-rules) and returns
 * what the engine matches. A limit order (GTC/GTD) must have an exact price on the tick grid, shares in whole
 * hundredths and the table's collateral precision; a market order (FOK/FAK) may have an inexact ratio (the
 * official clients divide the amount by the price), its grid price is then the worse side of it.
 */
export function orderTerms(
  order: { side: number; makerAmount: bigint; takerAmount: bigint },
  orderType: OrderType,
  market: { tickSize: string; minOrderSize: number },
): OrderTerms {
  const side: Side = order.side === 0 ? 'BUY' : 'SELL';
  const collateral = side === 'BUY' ? order.makerAmount : order.takerAmount;
  const shares = side === 'BUY' ? order.takerAmount : order.makerAmount;
  if (collateral === 0n || shares === 0n)
    throw new OrderRejected('invalid order amounts: makerAmount and takerAmount must be positive');
  const tick = tickUnits(market.tickSize);
  const scaled = collateral * BigInt(PRICE_ONE);
  const exact = scaled % shares === 0n;
  const floorPrice = Number(scaled / shares);
  const price =
    side === 'BUY' ? floorPrice - (floorPrice % tick) : Math.ceil((exact ? floorPrice : floorPrice + 1) / tick) * tick;
  const marketOrder = orderType === 'FOK' || orderType === 'FAK';
  const display = (units: number) => (units / PRICE_ONE).toString();
  const ratio = Number(scaled / shares) / PRICE_ONE;
  if (!marketOrder && (!exact || floorPrice % tick !== 0)) {
    throw new OrderRejected(
      `invalid price (${ratio}): the price must be a multiple of the tick size ${market.tickSize}`,
    );
  }
  if (price < tick || price > PRICE_ONE - tick) {
    throw new OrderRejected(
      `invalid price (${marketOrder ? display(price) : ratio}), min: ${market.tickSize} - max: ${display(PRICE_ONE - tick)}`,
    );
  }
  const amountDecimals = AMOUNT_DECIMALS[market.tickSize] ?? 6;
  const limitPrecision = decimalsOf(shares) <= SIZE_DECIMALS && decimalsOf(collateral) <= amountDecimals;
  if (!marketOrder && !limitPrecision) {
    throw new OrderRejected(
      `invalid amounts, the ${side.toLowerCase()} orders maker amount supports a max accuracy of ${side === 'BUY' ? amountDecimals : SIZE_DECIMALS} decimals, taker amount a max of ${side === 'BUY' ? SIZE_DECIMALS : amountDecimals} decimals`,
    );
  }
  if (marketOrder) {
    // Official market orders: BUY spends a 2-decimal collateral amount for shares at the amount precision;
    // SELL sells 2-decimal shares. A size-based (limit-shaped) FOK/FAK is fine too.
    const marketPrecision =
      side === 'BUY'
        ? decimalsOf(collateral) <= SIZE_DECIMALS && decimalsOf(shares) <= amountDecimals
        : decimalsOf(shares) <= SIZE_DECIMALS && decimalsOf(collateral) <= amountDecimals;
    if (!marketPrecision && !limitPrecision) {
      throw new OrderRejected(
        `invalid amounts, the market ${side.toLowerCase()} orders maker amount supports a max accuracy of ${SIZE_DECIMALS} decimals, taker amount a max of ${amountDecimals} decimals`,
      );
    }
    if (side === 'BUY' && collateral < BASE) {
      throw new OrderRejected(`invalid amount for a marketable BUY order ($${formatUnits(collateral)}), min size: $1`);
    }
  }
  const size = (shares / SHARE_LOT) * SHARE_LOT;
  const minimum = BigInt(Math.round(market.minOrderSize * 1e6));
  if (!marketOrder && shares < minimum) {
    throw new OrderRejected(`Size (${formatUnits(shares)}) lower than the minimum: ${market.minOrderSize}`);
  }
  if (size === 0n) throw new OrderRejected(`Size (${formatUnits(shares)}) lower than the minimum: 0.01`);
  return { side, collateral, shares, price, size };
}

export function formatUnits(baseUnits: bigint): string {
  const whole = baseUnits / BASE;
  const fraction = (baseUnits % BASE).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** Collateral an order still locks (BUY) or shares it still offers (SELL) for `remainingShares` of it. */
export function reservedAmount(
  terms: { side: Side; collateral: bigint; shares: bigint },
  remainingShares: bigint,
): bigint {
  if (terms.side === 'SELL') return remainingShares;
  // Rounded up: a BUY must keep at least what its remaining shares cost at its signed price.
  return (remainingShares * terms.collateral + terms.shares - 1n) / terms.shares;
}

export interface PlanOrder {
  side: Side;
  makerAmount: bigint;
  takerAmount: bigint;
  /** What the chain still lets the order make (its making remaining); makerAmount for a fresh order. */
  makingRemaining: bigint;
}

export interface SettlementLeg {
  makerId: string;
  /** In the maker order's making terms. */
  fillAmount: bigint;
  /** What the contract pays the maker: floor(fill × takerAmount / makerAmount). */
  taking: bigint;
  shares: bigint;
  matchType: MatchType;
  /** The price of the trade in the maker's outcome (1e-4 units). */
  makerPrice: number;
  takerPrice: number;
}

export interface SettlementPlan {
  /** In the taker order's making terms. */
  takerFillAmount: bigint;
  /** What the taker receives: shares for a BUY, collateral for a SELL. */
  takerReceives: bigint;
  legs: SettlementLeg[];
}

/**
 * The matchOrders arguments for a taker and its engine fills, computed the way CTFExchange computes them:
 * each maker's fill is in its making terms and earns floor(fill × taking / making); the taker deposits its
 * fill up front and receives whatever the makers leave of its wanted asset. Every fill is a whole number of
 * share lots and every resting price is exact, so the maker legs are exact integers; the taker pays exactly
 * what its makers' prices add up to (the improvement stays with it). Throws if the contract would revert.
 */
export function settlementPlan(
  taker: PlanOrder,
  makers: Map<string, PlanOrder>,
  fills: readonly Fill[],
): SettlementPlan {
  const legs: SettlementLeg[] = [];
  // The exchange's balances during the call, as the contract moves them.
  let takerPays = 0n;
  let shares = 0n;
  for (const fill of fills) {
    const maker = makers.get(fill.makerId);
    if (!maker) throw new Error(`settlement: unknown maker ${fill.makerId}`);
    const cost = (fill.shares * BigInt(fill.makerPrice)) / BigInt(PRICE_ONE);
    if ((fill.shares * BigInt(fill.makerPrice)) % BigInt(PRICE_ONE) !== 0n)
      throw new Error('settlement: a fill is not a whole number of lots');
    const fillAmount = maker.side === 'BUY' ? cost : fill.shares;
    const taking = (fillAmount * maker.takerAmount) / maker.makerAmount;
    const expectedTaking = maker.side === 'BUY' ? fill.shares : cost;
    if (taking !== expectedTaking) throw new Error('settlement: a maker price is not its signed price');
    if (fillAmount > maker.makingRemaining) throw new Error('settlement: a maker fill exceeds what remains on chain');
    maker.makingRemaining -= fillAmount;
    // What the taker gives for this leg, in its making asset, at the maker's price seen from the taker's outcome.
    const takerCost = taker.side === 'BUY' ? (fill.shares * BigInt(fill.takerPrice)) / BigInt(PRICE_ONE) : fill.shares;
    takerPays += takerCost;
    shares += fill.shares;
    legs.push({
      makerId: fill.makerId,
      fillAmount,
      taking,
      shares: fill.shares,
      matchType: fill.matchType,
      makerPrice: fill.makerPrice,
      takerPrice: fill.takerPrice,
    });
  }
  const takerFillAmount = takerPays;
  if (takerFillAmount > taker.makingRemaining)
    throw new Error('settlement: the taker fill exceeds what remains on chain');
  // The taker receives shares for a BUY; for a SELL the collateral its makers' prices leave it.
  const takerReceives =
    taker.side === 'BUY'
      ? shares
      : legs.reduce((sum, leg) => sum + (leg.shares * BigInt(leg.takerPrice)) / BigInt(PRICE_ONE), 0n);
  const minTaking = (takerFillAmount * taker.takerAmount) / taker.makerAmount;
  if (takerReceives < minTaking)
    throw new Error('settlement: the taker would receive less than its price (TooLittleTokensReceived)');
  return { takerFillAmount, takerReceives, legs };
}
