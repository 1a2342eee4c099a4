// What every Polymarket API client is built from: its base URL and the shared knobs (timeout, logger, fetch,
// the host's request budget), turned into the one read helper it sends through.
import { invalidParameter } from '../../../shared/errors';
import { consoleLogger, type Logger } from '../logger';
import { DEFAULT_TIMEOUT_MS, RATE_BUDGETS } from './endpoints';
import { PolymarketHttp } from './http';
import { limiterFor, type HostLimiter } from './limiter';

export interface ApiClientOptions {
  baseUrl: string;
  timeoutMs?: number;
  logger?: Logger;
  fetch?: typeof fetch;
  /** The host's request budget; by default the one every client of this host shares. */
  limiter?: HostLimiter;
  /** How retries wait (a test hook); setTimeout by default. */
  sleep?: (ms: number) => Promise<void>;
}

export function apiHttp(api: 'Gamma' | 'Data API' | 'CLOB', budgets: keyof typeof RATE_BUDGETS, options: ApiClientOptions, methodName: string): PolymarketHttp {
  if (!options || typeof options.baseUrl !== 'string' || options.baseUrl.trim() === '') {
    throw invalidParameter(`Missing the ${api} URL.`, methodName);
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw invalidParameter("Parameter 'timeoutMs' must be a positive number of milliseconds.", methodName);
  }
  return new PolymarketHttp({
    api,
    baseUrl: options.baseUrl,
    timeoutMs,
    logger: options.logger ?? consoleLogger,
    limiter: options.limiter ?? limiterFor(budgets, options.baseUrl, RATE_BUDGETS[budgets]),
    fetch: options.fetch,
    sleep: options.sleep,
  });
}

/**
 * Reads offset pages of `limit` rows until a page comes back short (Gamma's and the Data API's paging), or
 * `maxRows` are read, or the offset would pass `maxOffset`.
 */
export async function readAllPages<T>(
  readPage: (offset: number, limit: number) => Promise<T[]>,
  { limit, maxRows, maxOffset = Number.POSITIVE_INFINITY }: { limit: number; maxRows: number; maxOffset?: number },
): Promise<T[]> {
  const rows: T[] = [];
  for (let offset = 0; rows.length < maxRows && offset <= maxOffset; offset += limit) {
    const page = await readPage(offset, limit);
    rows.push(...page);
    if (page.length < limit) break;
  }
  return rows.slice(0, maxRows);
}
