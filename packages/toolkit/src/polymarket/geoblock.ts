// Whether Polymarket lets PM Desk trade from here: its geoblock endpoint (docs/protocol.md#geoblock) read into the
// model's TradingAccess. A blocked region is said in a sentence naming it; a failed check is "unknown" with
// its reason. This only reads the answer; nothing here tries to get around it.
import { z } from 'zod';
import { wrapOnce } from '../model/errors';
import type { TradingAccess } from '../model/market-model';
import { httpRequest } from '../http/request';
import { parseAnswer } from './http';

const GeoblockSchema = z.looseObject({
  blocked: z.boolean(),
  ip: z.string().nullish(),
  country: z.string().nullish(),
  region: z.string().nullish(),
});

export interface GeoblockOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** GET the geoblock URL (polymarket.com's /api/geoblock in production) → TradingAccess; never throws. */
export async function checkGeoblock(url: string, options: GeoblockOptions = {}): Promise<TradingAccess> {
  try {
    // The URL is the endpoint itself (no path is added to it); its query, if any, is not sent.
    const endpoint = new URL(url);
    const { data, status } = await httpRequest({
      method: 'GET',
      baseUrl: endpoint.origin,
      path: endpoint.pathname,
      timeoutMs: options.timeoutMs ?? 10_000,
      methodName: 'checkGeoblock',
      fetch: options.fetch,
      maxBytes: 64 * 1024,
    });
    const answer = parseAnswer(GeoblockSchema, data, 'checkGeoblock', status);
    const where = [answer.region, answer.country].filter(Boolean).join(', ');
    const located = {
      ...(answer.country ? { country: answer.country } : {}),
      ...(answer.region ? { region: answer.region } : {}),
    };
    if (answer.blocked) {
      return {
        allowed: false,
        state: 'blocked',
        reason: `Polymarket does not allow trading from ${where || 'this location'}.`,
        ...located,
      };
    }
    return { allowed: true, state: 'ok', reason: '', ...located };
  } catch (error) {
    const failure = wrapOnce(error, 'checkGeoblock');
    return {
      allowed: false,
      state: 'unknown',
      reason: `Could not check whether trading is allowed from here: ${failure.detail}`,
    };
  }
}
