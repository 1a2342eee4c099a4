// The EIP-712 shapes of exchange orders for versions 1, 2 and 3, written from docs/protocol.md#order-signing independently of the toolkit's signing code, so the sandbox and the toolkit check each other.
import type { TypedDataDomain, TypedDataField } from 'ethers';
import type { OrderVersion } from './deploy.js';

export const EXCHANGE_DOMAIN_NAME = 'Polymarket CTF Exchange';
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const ZERO_BYTES32 = `0x${'0'.repeat(64)}`;

const ORDER_V1_FIELDS: TypedDataField[] = [
  { name: 'salt', type: 'uint256' },
  { name: 'maker', type: 'address' },
  { name: 'signer', type: 'address' },
  { name: 'taker', type: 'address' },
  { name: 'tokenId', type: 'uint256' },
  { name: 'makerAmount', type: 'uint256' },
  { name: 'takerAmount', type: 'uint256' },
  { name: 'expiration', type: 'uint256' },
  { name: 'nonce', type: 'uint256' },
  { name: 'feeRateBps', type: 'uint256' },
  { name: 'side', type: 'uint8' },
  { name: 'signatureType', type: 'uint8' },
];

const ORDER_V2_FIELDS: TypedDataField[] = [
  { name: 'salt', type: 'uint256' },
  { name: 'maker', type: 'address' },
  { name: 'signer', type: 'address' },
  { name: 'tokenId', type: 'uint256' },
  { name: 'makerAmount', type: 'uint256' },
  { name: 'takerAmount', type: 'uint256' },
  { name: 'side', type: 'uint8' },
  { name: 'signatureType', type: 'uint8' },
  { name: 'timestamp', type: 'uint256' },
  { name: 'metadata', type: 'bytes32' },
  { name: 'builder', type: 'bytes32' },
];

/** Version 3 changed only the domain version; its struct is version 2's. */
export const ORDER_TYPES: Record<OrderVersion, { Order: TypedDataField[] }> = {
  1: { Order: ORDER_V1_FIELDS },
  2: { Order: ORDER_V2_FIELDS },
  3: { Order: ORDER_V2_FIELDS },
};

export const SIDE = { BUY: 0, SELL: 1 } as const;
export const SIGNATURE_TYPE = { EOA: 0, POLY_PROXY: 1, POLY_GNOSIS_SAFE: 2, POLY_1271: 3 } as const;

/** An order as the sandbox exchange takes it: the fields of every version (unused ones zero) plus the signature. */
export interface ExchangeOrder {
  salt: bigint;
  maker: string;
  signer: string;
  taker: string;
  tokenId: bigint;
  makerAmount: bigint;
  takerAmount: bigint;
  expiration: bigint;
  nonce: bigint;
  feeRateBps: bigint;
  side: number;
  signatureType: number;
  timestamp: bigint;
  metadata: string;
  builder: string;
  signature: string;
}

export function exchangeDomain(version: OrderVersion, chainId: number, verifyingContract: string): TypedDataDomain {
  return { name: EXCHANGE_DOMAIN_NAME, version: String(version), chainId, verifyingContract };
}

/** The fields a given version signs, taken from an exchange order. */
export function signedMessage(version: OrderVersion, order: ExchangeOrder): Record<string, unknown> {
  return Object.fromEntries(ORDER_TYPES[version].Order.map(({ name }) => [name, order[name as keyof ExchangeOrder]]));
}

/** An order as clients send it in JSON (POST /order's `order`): numbers or decimal strings, side by name. */
export interface JsonOrder {
  salt: string | number;
  maker: string;
  signer: string;
  taker?: string;
  tokenId: string;
  makerAmount: string;
  takerAmount: string;
  side: 'BUY' | 'SELL' | 0 | 1;
  expiration?: string | number;
  nonce?: string | number;
  feeRateBps?: string | number;
  signatureType: number;
  timestamp?: string | number;
  metadata?: string;
  builder?: string;
  signature: string;
}

/** The exchange's order tuple for a JSON order of any version: fields that version lacks become zero. */
export function exchangeOrderFromJson(order: JsonOrder): ExchangeOrder {
  const int = (value: string | number | undefined): bigint => BigInt(value ?? 0);
  return {
    salt: int(order.salt),
    maker: order.maker,
    signer: order.signer,
    taker: order.taker ?? ZERO_ADDRESS,
    tokenId: int(order.tokenId),
    makerAmount: int(order.makerAmount),
    takerAmount: int(order.takerAmount),
    expiration: int(order.expiration),
    nonce: int(order.nonce),
    feeRateBps: int(order.feeRateBps),
    side: sideOf(order.side),
    signatureType: order.signatureType,
    timestamp: int(order.timestamp),
    metadata: order.metadata ?? ZERO_BYTES32,
    builder: order.builder ?? ZERO_BYTES32,
    signature: order.signature,
  };
}

function sideOf(side: unknown): number {
  if (side === 'BUY' || side === SIDE.BUY) return SIDE.BUY;
  if (side === 'SELL' || side === SIDE.SELL) return SIDE.SELL;
  throw new Error(`invalid order side: ${String(side)}`);
}
