// Throttled answers (429, or 503 with Retry-After) and a matching engine restarting (425) retried as the server
// asks, for every client of the toolkit: reads only (a POST may have been acted on before the server said "slow
// down"), a bounded number of times, never waiting longer than a bound, and each wait announced so the trader
// sees "rate limited, retrying in N s" or "matching engine restarting, retrying in N s".
import { ErrorCode, PmDeskError } from '../model/errors';
import type { HttpMethod } from './request';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** The longest Retry-After honoured; a longer one fails at once (ERR_RATE_LIMIT naming the wait). */
  maxWaitMs: number;
  /** The wait of a 429 that names none. */
  defaultWaitMs: number;
}

/** Twice at most, 10 s at most: a trader waits a little for a read, never a minute behind a spinner. */
export const RETRY_POLICY: RetryPolicy = { maxRetries: 2, maxWaitMs: 10_000, defaultWaitMs: 1_000 };

/** The wait of a 425 (the matching engine restarting) that names none: a restart takes seconds, not one. */
export const ENGINE_RESTART_WAIT_MS = 3_000;

/** What a caller is told before a throttled read is retried. */
export interface RetryNotice {
  methodName: string;
  /** The API that throttled ("CLOB", "Gamma", "aggregator"). */
  api: string;
  waitMs: number;
  /** 1 for the first retry. */
  attempt: number;
  /** Why it waits: throttled (429, 503 with Retry-After; the default), or the matching engine restarting (425). */
  reason?: 'rate-limited' | 'engine-restarting';
}

export interface ThrottleOptions {
  policy?: RetryPolicy;
  /** Told of every wait before it starts (the CLI prints it, the app shows a notice). */
  onRetry?: (notice: RetryNotice) => void;
  /** Waits between retries (a test hook that records the wait); setTimeout by default. */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** "rate limited, retrying in N s": the one wording the CLI and the app use. */
export function retryNoticeText(notice: RetryNotice): string {
  const seconds = Math.max(1, Math.ceil(notice.waitMs / 1000));
  if (notice.reason === 'engine-restarting')
    return `${notice.api}'s matching engine is restarting, retrying in ${seconds} s`;
  return `${notice.api} rate limited, retrying in ${seconds} s`;
}

/**
 * Runs `send` and, while it fails with a throttling answer, retries it as Retry-After says: only for GET, at
 * most `maxRetries` times, and only when the wait is within `maxWaitMs`; otherwise the failure is ERR_RATE_LIMIT.
 */
export async function withThrottleRetries<T>(
  request: { method: HttpMethod; methodName: string; api: string },
  send: () => Promise<T>,
  options: ThrottleOptions = {},
): Promise<T> {
  const policy = options.policy ?? RETRY_POLICY;
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 0; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const waitMs = throttleWait(error, Date.now(), policy);
      if (waitMs === undefined) throw error;
      const restarting = (error as PmDeskError).statusCode === 425;
      const retry = request.method === 'GET' && attempt < policy.maxRetries && waitMs <= policy.maxWaitMs;
      if (!retry)
        throw (restarting ? engineRestarting : rateLimited)(
          request.api,
          request.methodName,
          waitMs,
          error as PmDeskError,
        );
      const notice: RetryNotice = { methodName: request.methodName, api: request.api, waitMs, attempt: attempt + 1 };
      if (restarting) notice.reason = 'engine-restarting';
      options.onRetry?.(notice);
      await sleep(waitMs);
    }
  }
}

/**
 * How long a throttled answer asks to wait, in ms: 429 always (Retry-After, else Polymarket's
 * `Poly-RateLimit-Reset`, else 1 s), 425 always (the matching engine restarting: 3 s when it names no time), 503
 * only when it sends Retry-After (an outage without one is a server error, not a throttle). Undefined otherwise.
 */
export function throttleWait(error: unknown, now = Date.now(), policy: RetryPolicy = RETRY_POLICY): number | undefined {
  if (!(error instanceof PmDeskError)) return undefined;
  const header = error.context?.retryAfter;
  const named = typeof header === 'string' ? parseRetryAfter(header, now) : undefined;
  if (error.statusCode === 429) return named ?? untilReset(error.context?.rateLimitReset, now) ?? policy.defaultWaitMs;
  if (error.statusCode === 425) return named ?? ENGINE_RESTART_WAIT_MS;
  if (error.statusCode === 503 && named !== undefined) return named;
  return undefined;
}

/** `Poly-RateLimit-Reset` (Unix seconds) as ms from now; undefined when absent, not a time, or already past. */
function untilReset(value: unknown, now: number): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,12}(\.\d+)?$/.test(value.trim())) return undefined;
  const wait = Number(value) * 1000 - now;
  return wait > 0 ? Math.ceil(wait) : undefined;
}

/** Retry-After as seconds ("3") or an HTTP date, in ms from now; undefined when it is neither. */
export function parseRetryAfter(value: string, now = Date.now()): number | undefined {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The failure of a throttled call not retried (or retried out): ERR_RATE_LIMIT in the catalogue's format (docs/protocol.md#errors), the server's
 * own words kept ("API request failed with status 429. Server error: …"), then when to come back.
 */
export function rateLimited(api: string, methodName: string, waitMs: number, error: PmDeskError): PmDeskError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const server = error.detail.trim().replace(/([^.])$/, '$1.');
  return new PmDeskError(
    ErrorCode.RATE_LIMIT_EXCEEDED,
    `${server} ${api} is limiting requests; try again in ${seconds} s.`,
    {
      methodName,
      statusCode: error.statusCode,
      responseData: error.responseData,
      context: { ...error.context, waitMs },
    },
  );
}

/**
 * A 425 not retried (a write, or retried out): the matching engine is restarting. Polymarket answers 425 before it
 * acts on the request, so the sentence says it was not processed and when to try again.
 */
export function engineRestarting(api: string, methodName: string, waitMs: number, error: PmDeskError): PmDeskError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new PmDeskError(
    ErrorCode.SERVER_ERROR,
    `${api}'s matching engine is restarting (425): the request was not processed; try again in ${seconds} s.`,
    {
      methodName,
      statusCode: error.statusCode,
      responseData: error.responseData,
      context: { ...error.context, waitMs },
    },
  );
}
