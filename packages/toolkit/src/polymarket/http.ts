// One read of Polymarket's public APIs: within the host's budget, bounded in time and size, a throttled GET
// retried as Retry-After says (twice at most, never longer than 10 s), the answer validated by its schema,
// and every failure one catalogued PmDeskError, logged once.
import type { z } from 'zod';
import { ErrorCode, PmDeskError, wrapOnce } from '../model/errors';
import { httpRequest, type HttpMethod } from '../http/request';
import { pathSegment, type Query } from '../http/query';
import type { Logger } from '../base/logger';
import { AnswerWatch, type ApiNotice, type RateLimitReading } from '../http/answer-headers';
import { MAX_ANSWER_BYTES, RETRY_POLICY } from './endpoints';
import type { HostLimiter } from './limiter';
import { parseRetryAfter, retryNoticeText, throttleWait, withThrottleRetries, type RetryNotice } from '../http/retry';

export interface ReadSpec {
  method?: HttpMethod;
  /** The path template (`/events/{id}`); `params` fill it, encoded. */
  route: string;
  params?: Record<string, string>;
  query?: Query;
  body?: unknown;
  /** The endpoint class whose budget this read also takes (`events`, `trades` …). */
  budget?: string;
  context?: Record<string, unknown>;
  /** A JSON `null` answer means the thing does not exist (Gamma's way of saying 404); this is the sentence. */
  notFound?: string;
  /** A 404 answers null instead of failing (a profile lookup: no profile is an answer, not an error). */
  absentIsNull?: boolean;
  /** The answer is a file, kept as bytes (readFile). */
  bytes?: boolean;
}

export interface PolymarketHttpOptions {
  /** Names the API in messages ("Gamma", "Data API", "CLOB"). */
  api: string;
  baseUrl: string;
  timeoutMs: number;
  logger: Logger;
  limiter: HostLimiter;
  fetch?: typeof fetch;
  /** Waits between retries (a test hook that records the wait); setTimeout by default. */
  sleep?: (ms: number) => Promise<void>;
  /** Told before a throttled read is retried ("rate limited, retrying in N s"). */
  onRetry?: (notice: RetryNotice) => void;
  /** The largest answer accepted, in bytes (MAX_ANSWER_BYTES by default). */
  maxBytes?: number;
  /** Told once per endpoint when its answers say it is deprecated (`Deprecation`, `Sunset`, `Warning: 299`). */
  onNotice?: (notice: ApiNotice) => void;
  /** Told of every answer's `Poly-RateLimit-*` headers (remaining, reset, tier, warning). */
  onRateLimit?: (reading: RateLimitReading) => void;
}

export class PolymarketHttp {
  /**
   * Every answer's headers: a deprecated endpoint said once, the rate limit reported, and a spent budget holding
   * the host's requests until its reset (never longer than the longest wait a read accepts).
   */
  private readonly watch: AnswerWatch;

  constructor(readonly options: PolymarketHttpOptions) {
    this.watch = new AnswerWatch(options.api, {
      onNotice: options.onNotice,
      onRateLimit: options.onRateLimit,
      onSpent: (resetAt) => options.limiter.holdUntil(resetAt, RETRY_POLICY.maxWaitMs),
      warn: (message) => options.logger.warn(message),
    });
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** Sends, retries a throttled GET, validates; any failure is wrapped once, logged, thrown. */
  async read<S extends z.ZodType>(methodName: string, schema: S, spec: ReadSpec): Promise<z.output<S>> {
    try {
      const { data, status } = await this.sendWithRetries(methodName, spec).catch((error: unknown) => {
        if (spec.absentIsNull && error instanceof PmDeskError && error.statusCode === 404)
          return { data: null, status: 404 };
        throw error;
      });
      if ((data === null || data === undefined) && spec.notFound) {
        throw new PmDeskError(ErrorCode.NOT_FOUND, spec.notFound, {
          methodName,
          statusCode: 404,
          context: spec.context,
        });
      }
      return parseAnswer(schema, data, methodName, status);
    } catch (error) {
      let wrapped = wrapOnce(error, methodName);
      if (wrapped.code === ErrorCode.NOT_FOUND && spec.notFound && wrapped.detail !== spec.notFound) {
        wrapped = new PmDeskError(ErrorCode.NOT_FOUND, spec.notFound, {
          methodName,
          statusCode: wrapped.statusCode,
          responseData: wrapped.responseData,
          context: spec.context,
        });
      }
      this.options.logger.error(wrapped.message, wrapped);
      throw wrapped;
    }
  }

  /**
   * Reads a file the API serves (the accounting snapshot's ZIP): bounded and retried as every read, its bytes
   * checked by `check`, which names what is wrong with them (or nothing); any failure wrapped once and logged.
   */
  async readFile(methodName: string, spec: ReadSpec, check: (bytes: Uint8Array) => string | undefined) {
    try {
      const { data, status } = await this.sendWithRetries(methodName, { ...spec, bytes: true });
      const bytes = data as Uint8Array;
      const wrong = check(bytes);
      if (wrong)
        throw new PmDeskError(ErrorCode.VALIDATION_ERROR, `Unexpected response from the API server: ${wrong}`, {
          methodName,
          statusCode: status,
          context: spec.context,
        });
      return bytes;
    } catch (error) {
      const wrapped = wrapOnce(error, methodName);
      this.options.logger.error(wrapped.message, wrapped);
      throw wrapped;
    }
  }

  private sendWithRetries(methodName: string, spec: ReadSpec) {
    const method = spec.method ?? 'GET';
    const { api, logger, onRetry, sleep } = this.options;
    const announce = (notice: RetryNotice) => {
      logger.warn(`${methodName}: ${retryNoticeText(notice)}`);
      onRetry?.(notice);
    };
    return withThrottleRetries(
      { method, methodName, api },
      async () => {
        // Every attempt takes its turn in the host's budget, retries included.
        await this.options.limiter.take(spec.budget);
        return httpRequest({
          method,
          baseUrl: this.options.baseUrl,
          path: spec.params ? fillRoute(spec.route, spec.params) : spec.route,
          route: spec.route,
          query: spec.query,
          body: spec.body,
          timeoutMs: this.options.timeoutMs,
          methodName,
          context: spec.context,
          fetch: this.options.fetch,
          maxBytes: this.options.maxBytes ?? MAX_ANSWER_BYTES,
          bytes: spec.bytes,
          onAnswer: (status, headers) => this.watch.observe(`${method} ${spec.route}`, status, headers),
        });
      },
      { policy: RETRY_POLICY, onRetry: announce, sleep },
    );
  }
}

export { parseRetryAfter, throttleWait };

/** Parses an answer with its schema; a wrong shape is ERR_VALIDATION naming the first bad field's path. */
export function parseAnswer<S extends z.ZodType>(
  schema: S,
  data: unknown,
  methodName: string,
  status?: number,
): z.output<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : '(root)';
  throw new PmDeskError(
    ErrorCode.VALIDATION_ERROR,
    `Unexpected response from the API server: ${where}: ${issue?.message ?? 'invalid'}`,
    {
      methodName,
      statusCode: status,
      context: { field: where },
    },
  );
}

/** `/events/{id}` with each `{name}` replaced by its encoded value. */
export function fillRoute(route: string, params: Record<string, string>): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) => pathSegment(params[name] ?? ''));
}
