// What every Polymarket API client is built from: its base URL and the shared knobs (timeout, logger, fetch,
// the host's request budget), turned into the one read helper it sends through; plus the offset paging and the
// parameter checks every client makes before it sends anything.
import { invalidParameter } from '../model/errors';
import { consoleLogger, type Logger } from '../base/logger';
import { DEFAULT_TIMEOUT_MS, RATE_BUDGETS } from './endpoints';
import { PolymarketHttp } from './http';
import { limiterFor, type HostLimiter } from './limiter';
import type { RetryNotice } from '../http/retry';
import type { ApiNotice, RateLimitReading } from '../http/answer-headers';

export interface ApiClientOptions {
  baseUrl: string;
  timeoutMs?: number;
  logger?: Logger;
  fetch?: typeof fetch;
  /** The host's request budget; by default the one every client of this host shares. */
  limiter?: HostLimiter;
  /** How retries wait (a test hook); setTimeout by default. */
  sleep?: (ms: number) => Promise<void>;
  /** Told before a throttled read is retried ("rate limited, retrying in N s"). */
  onRetry?: (notice: RetryNotice) => void;
  /** The largest answer accepted, in bytes. */
  maxAnswerBytes?: number;
  /** Told once per endpoint when its answers say it is deprecated or past its sunset. */
  onNotice?: (notice: ApiNotice) => void;
  /** Told of every answer's `Poly-RateLimit-*` headers. */
  onRateLimit?: (reading: RateLimitReading) => void;
}

export function apiHttp(
  api: 'Gamma' | 'Data API' | 'CLOB',
  budgets: keyof typeof RATE_BUDGETS,
  options: ApiClientOptions,
  methodName: string,
): PolymarketHttp {
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
    onRetry: options.onRetry,
    maxBytes: options.maxAnswerBytes,
    onNotice: options.onNotice,
    onRateLimit: options.onRateLimit,
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

/** "Missing required parameter 'name'." for an absent or blank string, before anything is sent. */
export function required(name: string, value: unknown, methodName: string): void {
  if (typeof value !== 'string' || value.trim() === '')
    throw invalidParameter(`Missing required parameter '${name}'.`, methodName);
}

/** A whole number of at least `min` (limit, offset, page), before anything is sent. */
export function wholeNumber(name: string, value: unknown, min: number, methodName: string): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw invalidParameter(`Parameter '${name}' must be a whole number of at least ${min}.`, methodName, {
      [name]: value,
    });
  }
}
