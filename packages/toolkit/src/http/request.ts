// The toolkit's one HTTP helper (over the platform's fetch, so it runs in Node and in a browser): it sends a
// JSON request bounded in time (deadline, connect and idle timeouts) and size (a byte cap per call), follows
// redirects only within the origin, and turns every way a request can fail into one catalogued PmDeskError
// (docs/protocol.md#errors): statuses, timeouts, no response, a broken setup, a body that is not the JSON asked for.
import { ErrorCode, ErrorMessage, PmDeskError, codeForStatus, httpFailureMessage, truncate } from '../model/errors';
import { buildQuery, joinUrl, type Query } from './query';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The largest answer a read accepts by default: a page of markets or a deep book stays far below. */
export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
/** The largest answer to an order post or cancel: a few order ids and statuses. */
export const ORDER_POST_MAX_BYTES = 256 * 1024;
/** How long the answer's headers may take (connection made, server started answering), at most. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/** How long the body may go without a byte once it started, at most. */
export const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
/** Same-origin redirects followed in a row before the request fails. */
export const MAX_REDIRECTS = 5;
/** How much of a wrong answer an error keeps: enough to recognise a login page, never a whole page. */
export const ERROR_BODY_CHARS = 300;

export interface HttpRequest {
  method: HttpMethod;
  baseUrl: string;
  /** The path as sent, ids already encoded. */
  path: string;
  /** The path as a template (`/v1/events/{id}`): what an error context shows instead of the real ids. */
  route?: string;
  query?: Query;
  /** Sent as JSON; a string is sent as it is (callers that sign a body pass the exact bytes). */
  body?: unknown;
  headers?: Record<string, string>;
  /** The whole request's deadline. */
  timeoutMs: number;
  /** Until the answer's headers arrive; min(timeoutMs, 30 s) by default. */
  connectTimeoutMs?: number;
  /** Between two chunks of the body; min(timeoutMs, 30 s) by default. */
  idleTimeoutMs?: number;
  signal?: AbortSignal;
  methodName: string;
  /** Extra context for errors; redacted by PmDeskError. */
  context?: Record<string, unknown>;
  fetch?: typeof fetch;
  /** The largest answer accepted, in bytes (2 MB by default); a longer one is cut off, the connection closed, and it fails (ERR_API_REQUEST). */
  maxBytes?: number;
  /** Told of every answer's status and headers as they arrive, success or failure (deprecation and rate-limit headers). */
  onAnswer?: (status: number, headers: Headers) => void;
  /** A 2xx answer's body as it came (a file: a ZIP), not decoded as JSON; failures are still read as text. */
  bytes?: boolean;
}

export interface HttpResponse<T = unknown> {
  status: number;
  data: T;
  headers: Headers;
}

type Phase = 'connect' | 'idle';

/** Sends the request and resolves with the decoded body of a 2xx answer; anything else throws a PmDeskError. */
export async function httpRequest<T = unknown>(request: HttpRequest): Promise<HttpResponse<T>> {
  const { method, methodName } = request;
  const context = {
    endpoint: `${method} ${request.route ?? request.path}`,
    baseUrl: withoutCredentials(request.baseUrl),
    ...request.context,
  };

  let url: URL;
  try {
    url = new URL(joinUrl(request.baseUrl, request.path) + buildQuery(request.query));
  } catch (cause) {
    throw new PmDeskError(ErrorCode.API_REQUEST_FAILED, 'Failed to setup the API request: Invalid URL', {
      methodName,
      context,
      cause,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PmDeskError(
      ErrorCode.API_REQUEST_FAILED,
      `Failed to setup the API request: Unsupported protocol ${url.protocol}`,
      {
        methodName,
        context,
      },
    );
  }

  const headers: Record<string, string> = { Accept: 'application/json, text/plain, */*', ...request.headers };
  // fetch refuses a URL with `user:password@` (and its error would quote it): send it as Basic auth instead.
  if (url.username || url.password) {
    headers.Authorization ??= `Basic ${btoa(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`)}`;
    url.username = '';
    url.password = '';
  }
  let body: string | undefined;
  if (request.body !== undefined) {
    body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    headers['Content-Type'] ??= 'application/json';
  }

  const maxBytes = request.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeout = AbortSignal.timeout(request.timeoutMs);
  // The connect and idle bounds share one controller: its timer is re-armed as the answer makes progress.
  const stall = new AbortController();
  let phase: Phase = 'connect';
  let phaseMs = Math.min(request.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, request.timeoutMs);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (next: Phase) => {
    phase = next;
    if (next === 'idle') phaseMs = Math.min(request.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, request.timeoutMs);
    clearTimeout(timer);
    timer = setTimeout(() => stall.abort(), phaseMs);
  };
  const signal = AbortSignal.any([timeout, stall.signal, ...(request.signal ? [request.signal] : [])]);
  const doFetch = request.fetch ?? globalThis.fetch;

  let response: Response;
  let raw: Uint8Array;
  arm('connect');
  try {
    response = await followSameOrigin(doFetch, url, { method, headers, body, signal }, { methodName, context });
    try {
      request.onAnswer?.(response.status, response.headers);
    } catch {
      // A listener's fault is not the request's: the answer is still read and returned.
    }
    arm('idle');
    raw = await readBody(response, maxBytes, () => arm('idle'));
  } catch (cause) {
    if (cause instanceof PmDeskError) throw cause;
    if (cause instanceof TooLarge) {
      stall.abort();
      throw new PmDeskError(
        ErrorCode.API_REQUEST_FAILED,
        `The API server's answer is larger than ${maxBytes} bytes; the connection was closed.`,
        {
          methodName,
          context: { ...context, maxBytes },
        },
      );
    }
    if (stall.signal.aborted && !timeout.aborted) {
      const what = phase === 'connect' ? 'did not start answering' : 'stopped sending its answer';
      throw new PmDeskError(ErrorCode.TIMEOUT_ERROR, `The API server ${what} within ${phaseMs} ms.`, {
        methodName,
        context: { ...context, phase, timeoutMs: phaseMs },
        cause,
      });
    }
    throw transportError(cause, timeout, request, context);
  } finally {
    clearTimeout(timer);
  }

  const contentType = response.headers.get('content-type');
  if (request.bytes && response.ok) {
    // A file is never a page: a login or proxy page instead of it fails as any page does.
    if (/^\s*(text\/html|application\/xhtml)/i.test(contentType ?? ''))
      throw new PmDeskError(ErrorCode.VALIDATION_ERROR, `The API server answered ${contentType}, not a file.`, {
        methodName,
        statusCode: response.status,
        context: { ...context, contentType },
      });
    return { status: response.status, data: raw as T, headers: response.headers };
  }
  const text = new TextDecoder().decode(raw);
  const data = decodeBody(text, contentType);
  if (!response.ok) {
    const responseData = data.ok ? data.value : text.slice(0, ERROR_BODY_CHARS);
    // A throttling answer says when to come back; a caller that retries reads it from the context.
    const retryAfter = response.headers.get('retry-after');
    // Polymarket's own "come back at" (Unix seconds), for a 429 that names no Retry-After.
    const rateLimitReset = response.headers.get('poly-ratelimit-reset');
    throw new PmDeskError(codeForStatus(response.status), httpFailureMessage(response.status, responseData), {
      methodName,
      statusCode: response.status,
      responseData: typeof responseData === 'string' ? responseData.slice(0, ERROR_BODY_CHARS) : responseData,
      context: {
        ...context,
        ...(retryAfter ? { retryAfter } : {}),
        ...(rateLimitReset ? { rateLimitReset: rateLimitReset.slice(0, 20) } : {}),
      },
    });
  }
  if (!data.ok) {
    throw new PmDeskError(ErrorCode.VALIDATION_ERROR, 'The API server answered with malformed JSON.', {
      methodName,
      statusCode: response.status,
      responseData: text.slice(0, ERROR_BODY_CHARS),
      context,
    });
  }
  // A login page or a proxy's error page is not an answer, whatever its status says; a page is never JSON,
  // even one whose text happens to parse.
  const isPage = /^\s*(text\/html|application\/xhtml)/i.test(contentType ?? '');
  if (isPage || (data.plainText && !/^text\/plain\b/i.test(contentType ?? ''))) {
    throw new PmDeskError(
      ErrorCode.VALIDATION_ERROR,
      `The API server answered ${contentType ?? 'an untyped body'}, not JSON: ${truncate(text, 120)}`,
      {
        methodName,
        statusCode: response.status,
        responseData: text.slice(0, ERROR_BODY_CHARS),
        context: { ...context, contentType },
      },
    );
  }
  return { status: response.status, data: data.value as T, headers: response.headers };
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * fetch with redirects followed by hand, and only within the request's origin: signed headers (POLY_*),
 * Authorization and keys never travel to another host. A redirect elsewhere fails naming the origin.
 */
async function followSameOrigin(
  doFetch: typeof fetch,
  start: URL,
  init: { method: HttpMethod; headers: Record<string, string>; body: string | undefined; signal: AbortSignal },
  where: { methodName: string; context: Record<string, unknown> },
): Promise<Response> {
  let url = start;
  let { method, body } = init;
  for (let hop = 0; ; hop++) {
    const response = await doFetch(url, {
      method,
      headers: init.headers,
      body,
      signal: init.signal,
      redirect: 'manual',
    });
    // A browser hides a manual redirect's target (an "opaqueredirect"): it cannot be judged, so it is not followed.
    const opaque = response.type === 'opaqueredirect';
    if (!opaque && !REDIRECT_STATUSES.has(response.status)) return response;
    void response.body?.cancel().catch(() => {});
    const location = opaque ? null : response.headers.get('location');
    let target: URL | undefined;
    try {
      target = location ? new URL(location, url) : undefined;
    } catch {
      target = undefined;
    }
    if (!target || target.origin !== start.origin) {
      const elsewhere = target ? target.origin : 'an undisclosed location';
      throw new PmDeskError(
        ErrorCode.API_REQUEST_FAILED,
        `The API server redirected to ${elsewhere}, another origin than ${start.origin}; not followed, so no credentials leave it.`,
        {
          methodName: where.methodName,
          statusCode: response.status || undefined,
          context: { ...where.context, redirectOrigin: elsewhere },
        },
      );
    }
    if (hop >= MAX_REDIRECTS) {
      throw new PmDeskError(
        ErrorCode.API_REQUEST_FAILED,
        `The API server redirected more than ${MAX_REDIRECTS} times.`,
        {
          methodName: where.methodName,
          statusCode: response.status,
          context: where.context,
        },
      );
    }
    // As fetch does: 303 (and 301/302 after a POST) turns into a GET without the body.
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
    url = target;
  }
}

class TooLarge extends Error {}

/** The body as text, read no further than `maxBytes` (a declared length over it fails at once); `onChunk` marks progress. */
async function readBody(response: Response, maxBytes: number, onChunk: () => void): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0);
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    void response.body.cancel().catch(() => {});
    throw new TooLarge();
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onChunk();
    total += value.byteLength;
    if (total > maxBytes) {
      void reader.cancel().catch(() => {});
      throw new TooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** Why a request got no (whole) answer: our timeout, the caller's abort, or the network. */
function transportError(
  cause: unknown,
  timeout: AbortSignal,
  request: HttpRequest,
  context: Record<string, unknown>,
): PmDeskError {
  const { methodName } = request;
  if (timeout.aborted) {
    return new PmDeskError(ErrorCode.TIMEOUT_ERROR, ErrorMessage.TIMEOUT, {
      methodName,
      context: { ...context, timeoutMs: request.timeoutMs },
      cause,
    });
  }
  if (request.signal?.aborted) {
    return new PmDeskError(ErrorCode.API_REQUEST_FAILED, 'Request aborted', { methodName, context, cause });
  }
  const reason = networkReason(cause);
  return new PmDeskError(ErrorCode.NETWORK_ERROR, ErrorMessage.NO_RESPONSE, {
    methodName,
    context: reason ? { ...context, reason } : context,
    cause,
  });
}

/** The low-level cause code (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET…) fetch hides under "fetch failed". */
function networkReason(cause: unknown): string | undefined {
  let current: unknown = cause;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return cause instanceof Error ? cause.message : undefined;
}

/** A base URL as an error context may show it: any `user:password@` part removed. */
function withoutCredentials(baseUrl: string): string {
  return baseUrl.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
}

type Decoded = { ok: true; value: unknown; plainText?: true } | { ok: false };

/** JSON when it parses; plain text when it is not meant to be JSON; malformed when it claims or looks like JSON but is not. */
function decodeBody(text: string, contentType: string | null): Decoded {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const looksJson = /json/i.test(contentType ?? '') || /^\s*[[{]/.test(text);
    return looksJson ? { ok: false } : { ok: true, value: text, plainText: true };
  }
}
