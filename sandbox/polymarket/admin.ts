// The sandbox's admin route, which Polymarket has no equivalent of: POST /admin/resolve {"market": id, slug or
// condition id, "outcome": "Yes" | "No" | an outcome name | 0 | 1} resolves a market on a running sandbox and
// answers the payouts (sandbox/resolve.ts); POST /admin/rewards pays the day's liquidity rewards now. Loopback
// callers only; a refusal is a 4xx `{error}`.
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http';

export const ADMIN_RESOLVE_PATH = '/admin/resolve';

export interface AdminHandlers {
  /** Resolves the market and returns the report; throws with a message a caller can read. */
  resolve(market: string, outcome: string | number): Promise<unknown>;
  /** Pays the liquidity rewards tallied since the last payout (POST /admin/rewards) and returns the report. */
  payRewards?(): Promise<unknown>;
}

const MAX_BODY = 4096;

export const ADMIN_REWARDS_PATH = '/admin/rewards';

/** POST /admin/rewards: ends the sandbox's reward day now and answers what was paid (sandbox/clob/reward-payout.ts). */
export async function adminRewards(req: IncomingMessage, admin: AdminHandlers): Promise<unknown> {
  const remote = req.socket.remoteAddress ?? '';
  if (!['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(remote))
    throw new HttpError(403, 'admin routes answer loopback callers only');
  if (req.method !== 'POST') throw new HttpError(405, 'POST /admin/rewards');
  if (!admin.payRewards) throw new HttpError(404, 'this sandbox pays no rewards');
  req.resume();
  try {
    return await admin.payRewards();
  } catch (error) {
    throw new HttpError(500, error instanceof Error ? error.message : String(error));
  }
}

export async function adminResolve(req: IncomingMessage, admin: AdminHandlers): Promise<unknown> {
  const remote = req.socket.remoteAddress ?? '';
  if (!['127.0.0.1', '::1', '::ffff:127.0.0.1'].includes(remote))
    throw new HttpError(403, 'admin routes answer loopback callers only');
  if (req.method !== 'POST') throw new HttpError(405, 'POST /admin/resolve');
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > MAX_BODY) throw new HttpError(413, 'body too large');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'body: JSON {"market": …, "outcome": …}');
  }
  const { market, outcome } = (body ?? {}) as { market?: unknown; outcome?: unknown };
  if (typeof market !== 'string' || market === '')
    throw new HttpError(400, 'market: a market id, slug or condition id');
  if (typeof outcome !== 'string' && outcome !== 0 && outcome !== 1)
    throw new HttpError(400, 'outcome: "Yes", "No", an outcome name, 0 or 1');
  try {
    return await admin.resolve(market, outcome);
  } catch (error) {
    throw new HttpError(400, error instanceof Error ? error.message : String(error));
  }
}
