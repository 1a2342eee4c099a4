// One read of Polymarket's public APIs: within the host's budget, bounded in time and size, a throttled GET
// retried as Retry-After says (twice at most, never longer than 10 s), the answer validated by its schema,
// and every failure one catalogued PmDeskError, logged once.
import type { z } from 'zod';
import { ErrorCode, PmDeskError, wrapOnce } from '../../../shared/errors';
import { httpRequest, type HttpMethod } from '../http/request';
import { pathSegment, type Query } from '../http/query';
import type { Logger } from '../logger';
import { MAX_ANSWER_BYTES, RETRY_POLICY } from './endpoints';
import type { HostLimiter } from './limiter';

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
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class PolymarketHttp {
  constructor(readonly options: PolymarketHttpOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** Sends, retries a throttled GET, validates; any failure is wrapped once, logged, thrown. */
  async read<S extends z.ZodType>(methodName: string, schema: S, spec: ReadSpec): Promise<z.output<S>> {
    try {
      const { data, status } = await this.sendWithRetries(methodName, spec).catch((error: unknown) => {
        if (spec.absentIsNull && error instanceof PmDeskError && error.statusCode === 404) return { data: null, status: 404 };
        throw error;
      });
      if ((data === null || data === undefined) && spec.notFound) {
        throw new PmDeskError(ErrorCode.NOT_FOUND, spec.notFound, { methodName, statusCode: 404, context: spec.context });
      }
      return parseAnswer(schema, data, methodName, status);
    } catch (error) {
      let wrapped = wrapOnce(error, methodName);
      if (wrapped.code === ErrorCode.NOT_FOUND && spec.notFound && wrapped.detail !== spec.notFound) {
        wrapped = new PmDeskError(ErrorCode.NOT_FOUND, spec.notFound, { methodName, statusCode: wrapped.statusCode, responseData: wrapped.responseData, context: spec.context });
      }
      this.options.logger.error(wrapped.message, wrapped);
      throw wrapped;
    }
  }

  private async sendWithRetries(methodName: string, spec: ReadSpec) {
    const method = spec.method ?? 'GET';
    const sleep = this.options.sleep ?? defaultSleep;
    for (let attempt = 0; ; attempt++) {
      await this.options.limiter.take(spec.budget);
      try {
        return await httpRequest({
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
          maxBytes: MAX_ANSWER_BYTES,
        });
      } catch (error) {
        const waitMs = throttleWait(error);
        if (waitMs === undefined) throw error;
        // Only reads are retried: a POST may have been acted on before the server said "slow down".
        const retry = method === 'GET' && attempt < RETRY_POLICY.maxRetries && waitMs <= RETRY_POLICY.maxWaitMs;
        if (!retry) throw rateLimited(this.options.api, methodName, waitMs, error as PmDeskError);
        this.options.logger.warn(`${methodName}: ${this.options.api} is throttling; retrying in ${Math.ceil(waitMs / 1000)} s`);
        await sleep(waitMs);
      }
    }
  }
}

/**
 * How long a throttled answer asks to wait, in ms: 429 always (1 s when it names no time), 503 only when it
 * sends Retry-After (an outage without one is a server error, not a throttle). Undefined for anything else.
 */
export function throttleWait(error: unknown, now = Date.now()): number | undefined {
  if (!(error instanceof PmDeskError)) return undefined;
  const header = error.context?.retryAfter;
  const named = typeof header === 'string' ? parseRetryAfter(header, now) : undefined;
  if (error.statusCode === 429) return named ?? RETRY_POLICY.defaultWaitMs;
  if (error.statusCode === 503 && named !== undefined) return named;
  return undefined;
}

/** Retry-After as seconds ("3") or an HTTP date, in ms from now; undefined when it is neither. */
export function parseRetryAfter(value: string, now = Date.now()): number | undefined {
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function rateLimited(api: string, methodName: string, waitMs: number, error: PmDeskError): PmDeskError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new PmDeskError(ErrorCode.RATE_LIMIT_EXCEEDED, `${api} is limiting requests; try again in ${seconds} s.`, {
    methodName,
    statusCode: error.statusCode,
    responseData: error.responseData,
    context: { ...error.context, waitMs },
  });
}

/** Parses an answer with its schema; a wrong shape is ERR_VALIDATION naming the first bad field's path. */
export function parseAnswer<S extends z.ZodType>(schema: S, data: unknown, methodName: string, status?: number): z.output<S> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : '(root)';
  throw new PmDeskError(ErrorCode.VALIDATION_ERROR, `Unexpected response from the API server: ${where}: ${issue?.message ?? 'invalid'}`, {
    methodName,
    statusCode: status,
    context: { field: where },
  });
}

/** `/events/{id}` with each `{name}` replaced by its encoded value. */
export function fillRoute(route: string, params: Record<string, string>): string {
  return route.replace(/\{(\w+)\}/g, (_, name: string) => pathSegment(params[name] ?? ''));
}
