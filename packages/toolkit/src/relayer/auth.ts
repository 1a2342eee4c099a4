// How a request to Polymarket's relayer proves who sends it: a relayer API key with its address (what
// @polymarket/client's `relayerApiKey` sends), or builder key/secret/passphrase HMAC headers (what
// @polymarket/builder-signing-sdk makes). Only /submit and /transactions need them.
import { isAddress } from 'ethers';
import { invalidParameter } from '../model/errors';
import { buildHmacSignature } from '../clob/auth';

/** A relayer API key, bound to the address it was issued for. */
export interface RelayerApiKey {
  key: string;
  address: string;
}

/** Builder credentials: the secret is base64 and signs; key and passphrase travel as they are. */
export interface BuilderCredentials {
  key: string;
  secret: string;
  passphrase: string;
}

export type RelayerCredentials =
  { kind: 'api-key'; apiKey: RelayerApiKey } | { kind: 'builder'; builder: BuilderCredentials };

export interface RelayerApiKeyHeaders {
  RELAYER_API_KEY: string;
  RELAYER_API_KEY_ADDRESS: string;
}

export interface BuilderHeaders {
  POLY_BUILDER_API_KEY: string;
  POLY_BUILDER_PASSPHRASE: string;
  POLY_BUILDER_SIGNATURE: string;
  POLY_BUILDER_TIMESTAMP: string;
}

/** The request being authenticated: path without query, and the exact body text sent (none for a GET). */
export interface RelayerAuthRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

function filled(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw invalidParameter(`The relayer ${what} is empty.`, 'relayerAuthHeaders');
  return value;
}

/** The API-key headers: the key and its address exactly as issued (the relayer matches the address to the key). */
export function relayerApiKeyHeaders(apiKey: RelayerApiKey): RelayerApiKeyHeaders {
  const address = filled(apiKey.address, 'API key address');
  if (!isAddress(address))
    throw invalidParameter(
      `The relayer API key address is not an address: ${String(address).slice(0, 60)}`,
      'relayerApiKeyHeaders',
    );
  return { RELAYER_API_KEY: filled(apiKey.key, 'API key'), RELAYER_API_KEY_ADDRESS: address };
}

/** Builder headers: HMAC-SHA256 (the secret base64-decoded) over timestamp + method + path + body, url-safe base64. */
export function builderHeaders(
  creds: BuilderCredentials,
  request: RelayerAuthRequest,
  timestamp = Math.floor(Date.now() / 1000),
): BuilderHeaders {
  const key = filled(creds.key, 'builder key');
  const secret = filled(creds.secret, 'builder secret');
  const passphrase = filled(creds.passphrase, 'builder passphrase');
  if (!Number.isSafeInteger(timestamp) || timestamp <= 0)
    throw invalidParameter('A builder timestamp is whole seconds since 1970.', 'builderHeaders');
  return {
    POLY_BUILDER_API_KEY: key,
    POLY_BUILDER_PASSPHRASE: passphrase,
    POLY_BUILDER_SIGNATURE: buildHmacSignature(secret, timestamp, request.method, request.path, request.body),
    POLY_BUILDER_TIMESTAMP: `${timestamp}`,
  };
}

/** The headers for an authenticated relayer request, whichever credentials the trader has. */
export function relayerAuthHeaders(
  credentials: RelayerCredentials,
  request: RelayerAuthRequest,
  timestamp?: number,
): Record<string, string> {
  if (credentials.kind === 'api-key') return { ...relayerApiKeyHeaders(credentials.apiKey) };
  return { ...builderHeaders(credentials.builder, request, timestamp) };
}
