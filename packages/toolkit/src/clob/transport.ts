// The exchange client's HTTP helper (docs/protocol.md#errors): one request over the toolkit's httpRequest, and on failure
// the error is logged and either returned as an object with an `error` field (the official clients' default)
// or thrown as a catalogued PmDeskError when the caller asks to throw. Every call is size-capped by kind, and
// a throttled read is retried as Retry-After says.
import { wrapOnce, type PmDeskError } from '../model/errors';
import { DEFAULT_MAX_BYTES, ORDER_POST_MAX_BYTES, httpRequest, type HttpMethod } from '../http/request';
import { RETRY_POLICY, retryNoticeText, withThrottleRetries, type RetryNotice } from '../http/retry';
import { AnswerWatch, type ApiNotice, type RateLimitReading } from '../http/answer-headers';
import type { Query } from '../http/query';
import type { Logger } from '../base/logger';

/** A failed call as the official clients return it: `error` plus the HTTP status when there was an answer. */
export interface ClobErrorResult {
  error: unknown;
  status?: number;
  [key: string]: unknown;
}

export type ClobResult<T> = T | ClobErrorResult;

export function isClobError(value: unknown): value is ClobErrorResult {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'error' in value;
}

/**
 * The error object of a failure: the body if it is a string; the body spread with its status if it has an
 * `error` field; else the whole body under `error`; with no answer at all, the error's message.
 */
export function errorResult(error: PmDeskError): ClobErrorResult {
  const data = error.responseData;
  if (error.statusCode !== undefined && data !== undefined && data !== null && data !== '') {
    if (typeof data === 'string') return { error: data, status: error.statusCode };
    if (typeof data === 'object' && !Array.isArray(data) && 'error' in data)
      return { ...(data as object), status: error.statusCode } as ClobErrorResult;
    return { error: data, status: error.statusCode };
  }
  return error.statusCode === undefined ? { error: error.detail } : { error: error.detail, status: error.statusCode };
}

export type Attempt<T> = { ok: true; value: T } | { ok: false; error: PmDeskError };

export interface ClobCall {
  methodName: string;
  method: HttpMethod;
  /** The path as sent and as signed (ids already encoded). */
  path: string;
  /** The path as a template for error contexts (`/data/order/{id}`). */
  route?: string;
  query?: Query;
  /** The exact bytes to send: a signed call passes the string it signed. */
  body?: string;
  headers?: Record<string, string>;
  /** The call's own cap (a list page's is larger); a cap set on the client wins over it. */
  maxBytes?: number;
}

export interface TransportOptions {
  host: string;
  timeoutMs: number;
  logger: Logger;
  throwOnError: boolean;
  /** Version 1's geo-block token: added to every query, never signed. */
  geoBlockToken?: string;
  fetch?: typeof fetch;
  /** The largest answer to a read (2 MB by default) and to a signed write: an order post, a cancel (256 KB). */
  maxAnswerBytes?: number;
  maxOrderAnswerBytes?: number;
  /** Told before a throttled read is retried ("rate limited, retrying in N s"). */
  onRetry?: (notice: RetryNotice) => void;
  /** Told once per endpoint when its answers say it is deprecated (`Deprecation`, `Sunset`, `Warning: 299`). */
  onNotice?: (notice: ApiNotice) => void;
  /** Told of every answer's `Poly-RateLimit-*` headers. */
  onRateLimit?: (reading: RateLimitReading) => void;
}

export class ClobTransport {
  private readonly watch: AnswerWatch;
  /** No call starts before this instant (ms since the epoch): an answer said the budget was spent until then. */
  private heldUntil = 0;

  constructor(private readonly options: TransportOptions) {
    this.watch = new AnswerWatch('CLOB', {
      onNotice: options.onNotice,
      onRateLimit: options.onRateLimit,
      // Bounded as a retry's wait is: the exchange's budget is per signer, a reset far away is not waited for here.
      onSpent: (resetAt) =>
        (this.heldUntil = Math.max(this.heldUntil, Math.min(resetAt, Date.now() + RETRY_POLICY.maxWaitMs))),
      warn: (message) => options.logger.warn(message),
    });
  }

  /** Sends one call; a failure is logged, then returned as an error object or thrown, as the client was told. */
  async send<T>(call: ClobCall, throwOnError = this.options.throwOnError): Promise<ClobResult<T>> {
    return this.settle(await this.attempt<T>(call), throwOnError);
  }

  /** Sends one call and reports the outcome without deciding yet whether a failure throws (it is logged once here). */
  async attempt<T>(call: ClobCall): Promise<Attempt<T>> {
    try {
      return { ok: true, value: await this.sendOrThrow<T>(call) };
    } catch (thrown) {
      const error = wrapOnce(thrown, call.methodName);
      this.options.logger.error(`${call.methodName} failed`, error);
      return { ok: false, error };
    }
  }

  /** An attempt's value, or its failure as the caller asked: thrown, or as the error object. */
  settle<T>(attempt: Attempt<T>, throwOnError = this.options.throwOnError): ClobResult<T> {
    if (attempt.ok) return attempt.value;
    if (throwOnError) throw attempt.error;
    return errorResult(attempt.error);
  }

  /** Sends one call and throws a catalogued error on any failure (used inside composite operations). */
  async sendOrThrow<T>(call: ClobCall): Promise<T> {
    const query: Query = { ...call.query };
    if (this.options.geoBlockToken) query.geo_block_token = this.options.geoBlockToken;
    // A signed write answers a few ids and statuses; anything longer is not the exchange talking.
    const signedWrite = call.headers !== undefined && call.method !== 'GET';
    // A cap the client was configured with wins over the call's own default (a list page's larger one).
    const maxBytes = signedWrite
      ? (this.options.maxOrderAnswerBytes ?? call.maxBytes ?? ORDER_POST_MAX_BYTES)
      : (this.options.maxAnswerBytes ?? call.maxBytes ?? DEFAULT_MAX_BYTES);
    const { onRetry, logger } = this.options;
    const announce = (notice: RetryNotice) => {
      logger.warn(`${call.methodName}: ${retryNoticeText(notice)}`);
      onRetry?.(notice);
    };
    // Only reads are retried when throttled: an order post is settled by reconciliation, never re-sent.
    const endpoint = `${call.method} ${call.route ?? call.path}`;
    const response = await withThrottleRetries(
      { method: call.method, methodName: call.methodName, api: 'CLOB' },
      async () => {
        const held = this.heldUntil - Date.now();
        if (held > 0) await new Promise((resolve) => setTimeout(resolve, held));
        return httpRequest<T>({
          method: call.method,
          baseUrl: this.options.host,
          path: call.path,
          route: call.route,
          query,
          body: call.body,
          headers: { ...(call.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...call.headers },
          timeoutMs: this.options.timeoutMs,
          methodName: call.methodName,
          fetch: this.options.fetch,
          maxBytes,
          onAnswer: (status, headers) => this.watch.observe(endpoint, status, headers),
        });
      },
      { onRetry: announce },
    );
    return response.data;
  }
}
