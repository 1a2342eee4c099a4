// The CLOB's API keys: create and derive with an L1 wallet signature; list and delete the caller's keys and
// its ban status (close-only, as a test set it) with L2. Keys are derived from the server secret, so the same wallet and nonce get the same key.
import { deriveCredentials, verifyL1 } from '../auth';
import { HttpError } from '../http';
import { NOT_FOUND, type ClobRequest, type PrivateRoutes } from '../routing';
import type { ClobState } from '../state';

/** POST /auth/api-key and GET /auth/derive-api-key (level 1: the wallet's signature, no key yet). */
export function apiKeyRoutes(state: ClobState, { req, method, key }: ClobRequest): unknown {
  if (key !== 'POST /auth/api-key' && key !== 'GET /auth/derive-api-key') return NOT_FOUND;
  const { address, nonce } = verifyL1(
    req.headers,
    state.options.deployment.chainId,
    state.nowSeconds(),
    state.controls,
  );
  const creds = deriveCredentials(state.secret, address, nonce);
  const known = state.apiKeys.has(creds.apiKey);
  if (method === 'POST') {
    if (known) throw new HttpError(400, 'Could not create api key');
    state.apiKeys.set(creds.apiKey, { ...creds, address, nonce });
    state.changed();
  } else if (!known) throw new HttpError(400, 'Could not derive api key!');
  return { apiKey: creds.apiKey, secret: creds.secret, passphrase: creds.passphrase };
}

export const AUTH_ROUTES: PrivateRoutes = {
  'GET /auth/api-keys': (state, caller) => ({
    apiKeys: [...state.apiKeys.entries()].filter(([, c]) => c.address === caller.address).map(([k]) => k),
  }),
  'DELETE /auth/api-key': (state, caller) => {
    state.apiKeys.delete(caller.apiKey);
    state.changed();
    return 'OK';
  },
  'GET /auth/ban-status/closed-only': (state, caller) => ({
    closed_only: state.closedOnly.has(caller.address.toLowerCase()),
  }),
};
