// The EIP-712 shapes of exchange orders for versions 1, 2 and 3, written from PROTOCOL-NOTES (Parts A §7.7 and
// B §3) independently of the toolkit's signing code, so the sandbox and the toolkit check each other.
import type { TypedDataDomain, TypedDataField } from 'ethers';
import type { OrderVersion } from './deploy.js';

export const EXCHANGE_DOMAIN_NAME = 'Polymarket CTF Exchange';

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
