// EIP-712 hashing of exchange orders, versions 1, 2 and 3. The struct hash is encoded by hand with
// precomputed type hashes and cached domain separators: it is the same digest ethers and viem compute
// (the unit and conformance tests check both), without re-parsing the types on every order.
import { TypedDataEncoder, getAddress, keccak256, toUtf8Bytes, type TypedDataDomain } from 'ethers';
import { invalidParameter } from '../model/errors';
import { fromHex, toHex, writeHex, writeUint32BE } from '../base/bytes';
import type { OrderVersion } from '../chain/networks';
import type { TypedDataTypes } from './signer';
import type { OrderSide } from './rounding';
import { primitives } from './primitives';

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

/** Domain separators by (version, chain, contract): hashed once, kept as text and as the bytes the digest needs. */
const separators = new Map<string, { hex: string; bytes: Uint8Array }>();
function separatorFor(version: OrderVersion, chainId: number, contract: string): { hex: string; bytes: Uint8Array } {
  const key = `${version}:${chainId}:${contract}`;
  let separator = separators.get(key);
  if (!separator) {
    const hex = TypedDataEncoder.hashDomain(exchangeDomain(version, chainId, contract));
    separator = { hex, bytes: fromHex(hex) };
    separators.set(key, separator);
  }
  return separator;
}
export function domainSeparator(version: OrderVersion, chainId: number, contract: string): string {
  return separatorFor(version, chainId, contract).hex;
}

// The struct's words are written into one preallocated buffer per struct, type hash already in place: no
// string concatenation and no hex parsing per order. Reuse is safe: encoding and hashing are synchronous.
const structV1 = new Uint8Array(32 * 13);
const structV2 = new Uint8Array(32 * 12);
writeHex(structV1, ORDER_TYPEHASH_V1.slice(2));
writeHex(structV2, ORDER_TYPEHASH_V2.slice(2));
/** 0x19 0x01 ‖ domain separator ‖ struct hash. */
const digestInput = Uint8Array.from([0x19, 0x01, ...new Uint8Array(64)]);

const UINT256_MAX = (1n << 256n) - 1n;
const DIGITS = /^[0-9]+$/;
function word(buf: Uint8Array, slot: number, value: string, field: string): void {
  if (!DIGITS.test(value)) throw invalidParameter(`order field ${field} must be a non-negative integer, got ${value}`);
  const at = slot * 32;
  if (value.length <= 15) {
    // Below 10^15 < 2^53: a double holds it exactly, written as two 32-bit halves without BigInt or hex text.
    const n = Number(value);
    buf.fill(0, at, at + 24);
    writeUint32BE(buf, Math.floor(n / 0x1_0000_0000), at + 24);
    writeUint32BE(buf, n % 0x1_0000_0000, at + 28);
    return;
  }
  const n = BigInt(value);
  if (n > UINT256_MAX) throw invalidParameter(`order field ${field} does not fit in uint256`);
  writeHex(buf, n.toString(16).padStart(64, '0'), at);
}
function small(buf: Uint8Array, slot: number, value: number, field: string): void {
  if (!Number.isInteger(value) || value < 0 || value > 255)
    throw invalidParameter(`order field ${field} must be a uint8, got ${value}`);
  buf.fill(0, slot * 32, slot * 32 + 31);
  buf[slot * 32 + 31] = value;
}
/** Token ids already encoded: 77-digit numbers cost a BigInt parse each, and a trader quotes the same few tokens. */
const tokenWords = new Map<string, Uint8Array>();
function tokenWord(buf: Uint8Array, slot: number, value: string): void {
  let encoded = tokenWords.get(value);
  if (!encoded) {
    word(buf, slot, value, 'tokenId');
    encoded = buf.slice(slot * 32, slot * 32 + 32);
    if (tokenWords.size > 1024) tokenWords.clear();
    tokenWords.set(value, encoded);
  }
  buf.set(encoded, slot * 32);
}
/** Addresses already checked, as their encoded word: a trader signs for the same few addresses again and again. */
const addressWords = new Map<string, Uint8Array>();
function addressWord(buf: Uint8Array, slot: number, value: string, field: string): void {
  let encoded = addressWords.get(value);
  if (!encoded) {
    let checked: string;
    try {
      // Validates the checksum of a mixed-case address, exactly as the reference encoders refuse a bad one.
      checked = getAddress(value);
    } catch {
      throw invalidParameter(`order field ${field} is not a valid address: ${value}`);
    }
    encoded = fromHex(checked.slice(2).padStart(64, '0'));
    if (addressWords.size > 1024) addressWords.clear();
    addressWords.set(value, encoded);
  }
  buf.set(encoded, slot * 32);
}
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
function bytes32(buf: Uint8Array, slot: number, value: string, field: string): void {
  if (!BYTES32.test(value)) throw invalidParameter(`order field ${field} must be 32 bytes of hex`);
  writeHex(buf, value.slice(2), slot * 32);
}
const sideCode = (side: OrderSide): number => (side === 'BUY' ? 0 : 1);

function structHashV1(o: OrderV1Fields): Uint8Array {
  const b = structV1;
  word(b, 1, o.salt, 'salt');
  addressWord(b, 2, o.maker, 'maker');
  addressWord(b, 3, o.signer, 'signer');
  addressWord(b, 4, o.taker, 'taker');
  tokenWord(b, 5, o.tokenId);
  word(b, 6, o.makerAmount, 'makerAmount');
  word(b, 7, o.takerAmount, 'takerAmount');
  word(b, 8, o.expiration, 'expiration');
  word(b, 9, o.nonce, 'nonce');
  word(b, 10, o.feeRateBps, 'feeRateBps');
  small(b, 11, sideCode(o.side), 'side');
  small(b, 12, o.signatureType, 'signatureType');
  return primitives.keccak256(b);
}

function structHashV2(o: OrderV2Fields): Uint8Array {
  const b = structV2;
  word(b, 1, o.salt, 'salt');
  addressWord(b, 2, o.maker, 'maker');
  addressWord(b, 3, o.signer, 'signer');
  tokenWord(b, 4, o.tokenId);
  word(b, 5, o.makerAmount, 'makerAmount');
  word(b, 6, o.takerAmount, 'takerAmount');
  small(b, 7, sideCode(o.side), 'side');
  small(b, 8, o.signatureType, 'signatureType');
  word(b, 9, o.timestamp, 'timestamp');
  bytes32(b, 10, o.metadata, 'metadata');
  bytes32(b, 11, o.builder, 'builder');
  return primitives.keccak256(b);
}

const hex = (bytes: Uint8Array): string => `0x${toHex(bytes)}`;

export function orderStructHashV1(o: OrderV1Fields): string {
  return hex(structHashV1(o));
}

export function orderStructHashV2(o: OrderV2Fields): string {
  return hex(structHashV2(o));
}

/** The EIP-712 digest of an order: the order hash the exchange returns as its id. */
export function orderDigest(
  version: OrderVersion,
  chainId: number,
  contract: string,
  order: OrderV1Fields | OrderV2Fields,
): string {
  const structHash = version === 1 ? structHashV1(order as OrderV1Fields) : structHashV2(order as OrderV2Fields);
  digestInput.set(separatorFor(version, chainId, contract).bytes, 2);
  digestInput.set(structHash, 34);
  return hex(primitives.keccak256(digestInput));
}

/** The typed-data message of an order, for signers that take typed data rather than a digest. */
export function orderTypedMessage(
  version: OrderVersion,
  order: OrderV1Fields | OrderV2Fields,
): Record<string, unknown> {
  const side = sideCode(order.side);
  if (version === 1) {
    const o = order as OrderV1Fields;
    return {
      salt: o.salt,
      maker: o.maker,
      signer: o.signer,
      taker: o.taker,
      tokenId: o.tokenId,
      makerAmount: o.makerAmount,
      takerAmount: o.takerAmount,
      expiration: o.expiration,
      nonce: o.nonce,
      feeRateBps: o.feeRateBps,
      side,
      signatureType: o.signatureType,
    };
  }
  const o = order as OrderV2Fields;
  return {
    salt: o.salt,
    maker: o.maker,
    signer: o.signer,
    tokenId: o.tokenId,
    makerAmount: o.makerAmount,
    takerAmount: o.takerAmount,
    side,
    signatureType: o.signatureType,
    timestamp: o.timestamp,
    metadata: o.metadata,
    builder: o.builder,
  };
}
