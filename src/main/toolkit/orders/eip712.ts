// EIP-712 hashing of exchange orders, versions 1, 2 and 3. The struct hash is encoded by hand with
// precomputed type hashes and cached domain separators: it is the same digest ethers and viem compute
// (the unit and conformance tests check both), without re-parsing the types on every order.
import { TypedDataEncoder, concat, getAddress, keccak256, toUtf8Bytes, type TypedDataDomain } from 'ethers';
import { invalidParameter } from '../../../shared/errors';
import type { OrderVersion } from '../chain/networks';
import type { TypedDataTypes } from './signer';
import type { OrderSide } from './rounding';

export const EXCHANGE_DOMAIN_NAME = 'Polymarket CTF Exchange';

export const ORDER_TYPES_V1: TypedDataTypes = {
  Order: [
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
  ],
};

/** Versions 2 and 3 share the struct; only the domain version differs. `expiration` is sent but not signed. */
export const ORDER_TYPES_V2: TypedDataTypes = {
  Order: [
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
  ],
};

const ORDER_TYPEHASH_V1 = keccak256(toUtf8Bytes(TypedDataEncoder.from(ORDER_TYPES_V1).encodeType('Order')));
const ORDER_TYPEHASH_V2 = keccak256(toUtf8Bytes(TypedDataEncoder.from(ORDER_TYPES_V2).encodeType('Order')));

/** The fields of a version 1 order as signed (amounts already in base units, decimal strings). */
export interface OrderV1Fields {
  salt: string;
  maker: string;
  signer: string;
  taker: string;
  tokenId: string;
  makerAmount: string;
  takerAmount: string;
  expiration: string;
  nonce: string;
  feeRateBps: string;
  side: OrderSide;
  signatureType: number;
}

/** The fields of a version 2 or 3 order: `expiration` travels with it but is outside the signed struct. */
export interface OrderV2Fields {
  salt: string;
  maker: string;
  signer: string;
  tokenId: string;
  makerAmount: string;
  takerAmount: string;
  side: OrderSide;
  signatureType: number;
  timestamp: string;
  expiration: string;
  metadata: string;
  builder: string;
}

export function exchangeDomain(version: OrderVersion, chainId: number, contract: string): TypedDataDomain {
  return { name: EXCHANGE_DOMAIN_NAME, version: String(version), chainId, verifyingContract: contract };
}

const separators = new Map<string, string>();
export function domainSeparator(version: OrderVersion, chainId: number, contract: string): string {
  const key = `${version}:${chainId}:${contract}`;
  let separator = separators.get(key);
  if (!separator) {
    separator = TypedDataEncoder.hashDomain(exchangeDomain(version, chainId, contract));
    separators.set(key, separator);
  }
  return separator;
}

const UINT256_MAX = (1n << 256n) - 1n;
function word(value: string, field: string): string {
  if (!/^[0-9]+$/.test(value)) throw invalidParameter(`order field ${field} must be a non-negative integer, got ${value}`);
  const n = BigInt(value);
  if (n > UINT256_MAX) throw invalidParameter(`order field ${field} does not fit in uint256`);
  return n.toString(16).padStart(64, '0');
}
function small(value: number, field: string): string {
  if (!Number.isInteger(value) || value < 0 || value > 255) throw invalidParameter(`order field ${field} must be a uint8, got ${value}`);
  return value.toString(16).padStart(64, '0');
}
/** Addresses already checked, as their encoded word: a trader signs for the same few addresses again and again. */
const addressWords = new Map<string, string>();
function addressWord(value: string, field: string): string {
  const known = addressWords.get(value);
  if (known) return known;
  let checked: string;
  try {
    // Validates the checksum of a mixed-case address, exactly as the reference encoders refuse a bad one.
    checked = getAddress(value);
  } catch {
    throw invalidParameter(`order field ${field} is not a valid address: ${value}`);
  }
  const encoded = checked.slice(2).toLowerCase().padStart(64, '0');
  if (addressWords.size > 1024) addressWords.clear();
  addressWords.set(value, encoded);
  return encoded;
}
function bytes32(value: string, field: string): string {
  if (!/^0x[0-9a-fA-F]{64}$/.test(value)) throw invalidParameter(`order field ${field} must be 32 bytes of hex`);
  return value.slice(2).toLowerCase();
}
const sideCode = (side: OrderSide): number => (side === 'BUY' ? 0 : 1);

export function orderStructHashV1(o: OrderV1Fields): string {
  return keccak256(
    '0x' +
      ORDER_TYPEHASH_V1.slice(2) +
      word(o.salt, 'salt') +
      addressWord(o.maker, 'maker') +
      addressWord(o.signer, 'signer') +
      addressWord(o.taker, 'taker') +
      word(o.tokenId, 'tokenId') +
      word(o.makerAmount, 'makerAmount') +
      word(o.takerAmount, 'takerAmount') +
      word(o.expiration, 'expiration') +
      word(o.nonce, 'nonce') +
      word(o.feeRateBps, 'feeRateBps') +
      small(sideCode(o.side), 'side') +
      small(o.signatureType, 'signatureType'),
  );
}

export function orderStructHashV2(o: OrderV2Fields): string {
  return keccak256(
    '0x' +
      ORDER_TYPEHASH_V2.slice(2) +
      word(o.salt, 'salt') +
      addressWord(o.maker, 'maker') +
      addressWord(o.signer, 'signer') +
      word(o.tokenId, 'tokenId') +
      word(o.makerAmount, 'makerAmount') +
      word(o.takerAmount, 'takerAmount') +
      small(sideCode(o.side), 'side') +
      small(o.signatureType, 'signatureType') +
      word(o.timestamp, 'timestamp') +
      bytes32(o.metadata, 'metadata') +
      bytes32(o.builder, 'builder'),
  );
}

/** The EIP-712 digest of an order: the order hash the exchange returns as its id. */
export function orderDigest(version: OrderVersion, chainId: number, contract: string, order: OrderV1Fields | OrderV2Fields): string {
  const structHash = version === 1 ? orderStructHashV1(order as OrderV1Fields) : orderStructHashV2(order as OrderV2Fields);
  return keccak256(concat(['0x1901', domainSeparator(version, chainId, contract), structHash]));
}

/** The typed-data message of an order, for signers that take typed data rather than a digest. */
export function orderTypedMessage(version: OrderVersion, order: OrderV1Fields | OrderV2Fields): Record<string, unknown> {
  const side = sideCode(order.side);
  if (version === 1) {
    const o = order as OrderV1Fields;
    return {
      salt: o.salt, maker: o.maker, signer: o.signer, taker: o.taker, tokenId: o.tokenId, makerAmount: o.makerAmount,
      takerAmount: o.takerAmount, expiration: o.expiration, nonce: o.nonce, feeRateBps: o.feeRateBps, side, signatureType: o.signatureType,
    };
  }
  const o = order as OrderV2Fields;
  return {
    salt: o.salt, maker: o.maker, signer: o.signer, tokenId: o.tokenId, makerAmount: o.makerAmount, takerAmount: o.takerAmount,
    side, signatureType: o.signatureType, timestamp: o.timestamp, metadata: o.metadata, builder: o.builder,
  };
}
