// The sandbox CLOB's authentication, written from the protocol (docs/protocol.md#authentication) with
// ethers and node:crypto directly, never with the toolkit's signing code, so the two check each other:
// L1 = an EIP-712 ClobAuth signature by the wallet; L2 = an HMAC-SHA256 by the API secret over
// timestamp + method + path + body. API keys are derived deterministically per address and nonce.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { getAddress, verifyTypedData } from 'ethers';

export const CLOB_AUTH_MESSAGE = 'This message attests that I control the given wallet';
const CLOB_AUTH_TYPES = {
  ClobAuth: [
    { name: 'address', type: 'address' },
    { name: 'timestamp', type: 'string' },
    { name: 'nonce', type: 'uint256' },
    { name: 'message', type: 'string' },
  ],
};

/** How far a signed timestamp may be from the server's clock, either way (clients can ask /time). */
export const AUTH_WINDOW_SECONDS = 300;

export interface ApiCredentials {
  apiKey: string;
  secret: string;
  passphrase: string;
}

export class AuthError extends Error {
  constructor(
    readonly status: 401 | 400,
    message: string,
  ) {
    super(message);
  }
}

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

/** Whether POLY_ADDRESS may name `address` for a key of `eoa` (the EOA itself, or one of its accounts). */
export type Controls = (eoa: string, address: string) => boolean;

/**
 * Checks L1 headers; the checksummed address of the EOA that signed and the nonce they prove. ClobAuth.address
 * (and POLY_ADDRESS) may name the signing EOA or, when `controls` allows it, one of its accounts: the key
 * belongs to the EOA either way.
 */
export function verifyL1(
  headers: Headers,
  chainId: number,
  nowSeconds: number,
  controls?: Controls,
): { address: string; nonce: bigint } {
  const address = header(headers, 'POLY_ADDRESS');
  const signature = header(headers, 'POLY_SIGNATURE');
  const timestamp = header(headers, 'POLY_TIMESTAMP');
  const nonceText = header(headers, 'POLY_NONCE') ?? '0';
  if (!address || !signature || !timestamp) throw new AuthError(401, 'Invalid L1 Request headers');
  if (!/^\d+$/.test(nonceText)) throw new AuthError(400, 'Invalid nonce');
  checkWindow(timestamp, nowSeconds);
  let recovered: string;
  let claimed: string;
  try {
    claimed = getAddress(address);
    recovered = verifyTypedData(
      { name: 'ClobAuthDomain', version: '1', chainId },
      CLOB_AUTH_TYPES,
      { address: claimed, timestamp, nonce: BigInt(nonceText), message: CLOB_AUTH_MESSAGE },
      signature,
    );
  } catch {
    throw new AuthError(401, 'Invalid L1 Request headers');
  }
  if (recovered !== claimed && !controls?.(recovered, claimed)) throw new AuthError(401, 'Invalid L1 Request headers');
  return { address: recovered, nonce: BigInt(nonceText) };
}

function checkWindow(timestamp: string, nowSeconds: number): void {
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(Number(timestamp) - nowSeconds) > AUTH_WINDOW_SECONDS) {
    throw new AuthError(
      401,
      'Invalid timestamp: outside the allowed window; check your clock or use server time (GET /time)',
    );
  }
}

/** The API credentials of an address and nonce: always the same for the same server secret. */
export function deriveCredentials(serverSecret: string, address: string, nonce: bigint): ApiCredentials {
  const material = (purpose: string) =>
    createHmac('sha256', serverSecret).update(`${purpose}:${address.toLowerCase()}:${nonce}`).digest();
  const k = material('key').toString('hex');
  return {
    apiKey: `${k.slice(0, 8)}-${k.slice(8, 12)}-4${k.slice(13, 16)}-a${k.slice(17, 20)}-${k.slice(20, 32)}`,
    secret: material('secret').toString('base64url') + '=',
    passphrase: material('passphrase').toString('hex'),
  };
}

/** The L2 signature of a request, as the protocol defines it. */
export function hmacSignature(secret: string, timestamp: string, method: string, path: string, body: string): string {
  const key = Buffer.from(secret.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return createHmac('sha256', key)
    .update(`${timestamp}${method}${path}${body}`)
    .digest('base64')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

/** Checks L2 headers against the registered key; the key's owner address (POLY_ADDRESS may name its accounts). */
export function verifyL2(
  headers: Headers,
  request: { method: string; path: string; body: string },
  lookup: (apiKey: string) => (ApiCredentials & { address: string }) | undefined,
  nowSeconds: number,
  controls?: Controls,
): { address: string; apiKey: string } {
  const address = header(headers, 'POLY_ADDRESS');
  const signature = header(headers, 'POLY_SIGNATURE');
  const timestamp = header(headers, 'POLY_TIMESTAMP');
  const apiKey = header(headers, 'POLY_API_KEY');
  const passphrase = header(headers, 'POLY_PASSPHRASE');
  if (!address || !signature || !timestamp || !apiKey || !passphrase)
    throw new AuthError(401, 'Unauthorized/Invalid api key');
  const creds = lookup(apiKey);
  const sameAddress =
    creds && (creds.address.toLowerCase() === address.toLowerCase() || controls?.(creds.address, address) === true);
  if (!creds || !sameText(creds.passphrase, passphrase) || !sameAddress) {
    throw new AuthError(401, 'Unauthorized/Invalid api key');
  }
  checkWindow(timestamp, nowSeconds);
  const expected = hmacSignature(creds.secret, timestamp, request.method, request.path, request.body);
  if (!sameText(expected, signature)) throw new AuthError(401, 'Unauthorized/Invalid api key');
  return { address: creds.address, apiKey };
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
