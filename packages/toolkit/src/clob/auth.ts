// The exchange's two auth levels. Level 1: the wallet signs a ClobAuth EIP-712 message (used to create or
// derive API keys). Level 2: an HMAC-SHA256 of timestamp + method + path + body with the API secret.
// Both are byte-identical to the official clients for the same inputs (tests/conformance).
import { TypedDataEncoder, computeHmac, decodeBase64, encodeBase64, toUtf8Bytes, type TypedDataDomain } from 'ethers';
import { invalidParameter, type PmDeskError } from '../model/errors';
import { signEip712, type ClobSigner, type TypedDataTypes } from '../orders/signer';

export const CLOB_AUTH_MESSAGE = 'This message attests that I control the given wallet';
export const L1_AUTH_UNAVAILABLE = 'Signer is needed to interact with this endpoint!';
export const L2_AUTH_UNAVAILABLE = 'API Credentials are needed to interact with this endpoint!';
export const CREDS_CREATION_WARNING =
  'Your API credentials cannot be recovered after creation: store the key, secret and passphrase safely.';

export interface ApiCredentials {
  key: string;
  secret: string;
  passphrase: string;
}

export interface L1Headers {
  POLY_ADDRESS: string;
  POLY_SIGNATURE: string;
  POLY_TIMESTAMP: string;
  POLY_NONCE: string;
}

export interface L2Headers {
  POLY_ADDRESS: string;
  POLY_SIGNATURE: string;
  POLY_TIMESTAMP: string;
  POLY_API_KEY: string;
  POLY_PASSPHRASE: string;
}

export const CLOB_AUTH_TYPES: TypedDataTypes = {
  ClobAuth: [
    { name: 'address', type: 'address' },
    { name: 'timestamp', type: 'string' },
    { name: 'nonce', type: 'uint256' },
    { name: 'message', type: 'string' },
  ],
};

/**
 * The ClobAuth domain binds the signature to the configured chain. (The official client also ships a
 * constant with chain id 1 that it never uses; signing with it would be rejected.)
 */
export function clobAuthDomain(chainId: number): TypedDataDomain {
  return { name: 'ClobAuthDomain', version: '1', chainId };
}

/*
 * Which address authenticates. The key always signs ClobAuth; by default the address in it and in POLY_ADDRESS is
 * the key's own, for every account kind, which is what the official v2 client (1.1.0) sends: its ClobClient never
 * passes an address, and its L2 headers always carry the signer's. v2's createL1Headers takes an optional
 * `address` for ClobAuth.address and POLY_ADDRESS, and so do ours (L1 and L2 alike). UNCONFIRMED (docs/protocol.md#which-address-authenticates): clob-client#248 / PR #339 report that Magic (type 1) accounts need POLY_ADDRESS = the proxy wallet or L2
 * answers 401; for type 3 the server ties the API key to the order's signer (the deposit wallet). A caller that
 * sees 401 may re-derive the key with the wallet as `address` (ClobClientOptions.authAddress).
 */

/** Level 1 headers; the timestamp is unix seconds (the server's, on a clock-skewed machine), the nonce defaults to 0. */
export async function createL1Headers(
  signer: ClobSigner,
  chainId: number,
  nonce = 0,
  timestamp?: number,
  authAddress?: string,
): Promise<L1Headers> {
  const ts = timestamp ?? Math.floor(Date.now() / 1000);
  const address = authAddress ?? (await signer.getAddress());
  const value = { address, timestamp: `${ts}`, nonce, message: CLOB_AUTH_MESSAGE };
  const domain = clobAuthDomain(chainId);
  const digest = TypedDataEncoder.hash(domain, CLOB_AUTH_TYPES, value);
  const signature = await signEip712(signer, digest, () => ({ domain, types: CLOB_AUTH_TYPES, value }));
  return { POLY_ADDRESS: address, POLY_SIGNATURE: signature, POLY_TIMESTAMP: `${ts}`, POLY_NONCE: `${nonce}` };
}

const secretKeys = new Map<string, Uint8Array>();

/** The secret's bytes: base64 or base64url, padding optional; anything else is refused rather than guessed at. */
function secretBytes(secret: string): Uint8Array {
  let key = secretKeys.get(secret);
  if (key) return key;
  if (!secret) throw invalidParameter('The API secret is empty.');
  const normalized = secret.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(normalized) || normalized.replace(/=+$/, '').length % 4 === 1) {
    // Never echo the secret itself.
    throw invalidParameter('The API secret is not valid base64.');
  }
  // Node's base64 reader takes missing padding; atob-based decoders do not, so it is restored first.
  const unpadded = normalized.replace(/=+$/, '');
  key = decodeBase64(unpadded + '='.repeat((4 - (unpadded.length % 4)) % 4));
  if (secretKeys.size > 64) secretKeys.clear();
  secretKeys.set(secret, key);
  return key;
}

/** HMAC-SHA256 over timestamp + method + path (never the query) + body, as url-safe base64 that keeps its `=` padding. */
export function buildHmacSignature(
  secret: string,
  timestamp: number,
  method: string,
  requestPath: string,
  body?: string,
): string {
  const message = `${timestamp}${method}${requestPath}${body ?? ''}`;
  // ethers' HMAC is node:crypto under Node and @noble/hashes in a browser bundle: the same bytes either way.
  return encodeBase64(computeHmac('sha256', secretBytes(secret), toUtf8Bytes(message)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

export interface L2Request {
  method: string;
  requestPath: string;
  body?: string;
}

/** Level 2 headers; POLY_ADDRESS is the key's address unless the credentials were made for another (see above). */
export async function createL2Headers(
  signer: ClobSigner,
  creds: ApiCredentials,
  request: L2Request,
  timestamp?: number,
  authAddress?: string,
): Promise<L2Headers> {
  const ts = timestamp ?? Math.floor(Date.now() / 1000);
  return {
    POLY_ADDRESS: authAddress ?? (await signer.getAddress()),
    POLY_SIGNATURE: buildHmacSignature(creds.secret, ts, request.method, request.requestPath, request.body),
    POLY_TIMESTAMP: `${ts}`,
    POLY_API_KEY: creds.key,
    POLY_PASSPHRASE: creds.passphrase,
  };
}

export function l1Unavailable(methodName: string): PmDeskError {
  return invalidParameter(L1_AUTH_UNAVAILABLE, methodName);
}

export function l2Unavailable(methodName: string): PmDeskError {
  return invalidParameter(L2_AUTH_UNAVAILABLE, methodName);
}
