// Browser mode's gate: who may open the /bridge WebSocket. Decided before the handshake, so a page of another
// origin or a caller without this launch's token is refused with 401/403, never accepted and then ignored.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { BRIDGE_PATH } from '../../shared/contract';

/** 32 random bytes, URL-safe: a new one per launch. */
export function newLaunchToken(): string {
  return randomBytes(32).toString('base64url');
}

export interface UpgradeRequest {
  /** The request target, e.g. `/bridge?token=…`. */
  url: string | undefined;
  headers: { origin?: string | undefined; host?: string | undefined };
}

export type UpgradeDecision = { ok: true } | { ok: false; status: 401 | 403 | 404; reason: string };

/** `appOrigin` is `http://127.0.0.1:PORT`: the only page allowed, and (as its host) the only Host header. */
export function checkBridgeUpgrade(
  request: UpgradeRequest,
  expected: { token: string; appOrigin: string },
): UpgradeDecision {
  let target: URL;
  try {
    target = new URL(request.url ?? '', 'http://upgrade.invalid');
  } catch {
    return { ok: false, status: 404, reason: 'not the bridge' };
  }
  if (target.pathname !== BRIDGE_PATH) return { ok: false, status: 404, reason: 'not the bridge' };
  // A DNS-rebinding page reaches 127.0.0.1 under its own host name: refuse any Host but ours.
  if (!isOurHost(request.headers.host, expected.appOrigin)) return { ok: false, status: 403, reason: 'wrong Host' };
  if (request.headers.origin !== expected.appOrigin) return { ok: false, status: 403, reason: 'wrong Origin' };
  const given = target.searchParams.getAll('token');
  if (given.length !== 1 || !sameSecret(given[0]!, expected.token))
    return { ok: false, status: 401, reason: 'missing or wrong token' };
  return { ok: true };
}

export function isOurHost(host: string | undefined, appOrigin: string): boolean {
  return host !== undefined && host === new URL(appOrigin).host;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
