// The toolkit's one HTTP helper (over the platform's fetch, so it runs in Node and in a browser):
// it sends a JSON request with a timeout and turns every way a request can fail into one catalogued
// PmDeskError (spec §8): statuses, timeouts, no response, a broken setup, malformed JSON.
import { ErrorCode, ErrorMessage, PmDeskError, codeForStatus, httpFailureMessage } from '../../../shared/errors';
import { buildQuery, joinUrl, type Query } from './query';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

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
  timeoutMs: number;
  signal?: AbortSignal;
  methodName: string;
  /** Extra context for errors; redacted by PmDeskError. */
  context?: Record<string, unknown>;
  fetch?: typeof fetch;
  /** The largest answer accepted, in bytes; a longer one is cut off and fails (ERR_API_REQUEST). */
  maxBytes?: number;
}

export interface HttpResponse<T = unknown> {
  status: number;
  data: T;
  headers: Headers;
}

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
    throw new PmDeskError(ErrorCode.API_REQUEST_FAILED, 'Failed to setup the API request: Invalid URL', { methodName, context, cause });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PmDeskError(ErrorCode.API_REQUEST_FAILED, `Failed to setup the API request: Unsupported protocol ${url.protocol}`, {
      methodName,
      context,
    });
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

  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
  const doFetch = request.fetch ?? globalThis.fetch;

  let response: Response;
  let text: string;
  try {
    response = await doFetch(url, { method, headers, body, signal, redirect: 'follow' });
    text = await readText(response, request.maxBytes);
  } catch (cause) {
    if (cause instanceof TooLarge) {
      throw new PmDeskError(ErrorCode.API_REQUEST_FAILED, `The API server's answer is larger than ${request.maxBytes} bytes.`, { methodName, context });
    }
    throw transportError(cause, timeout, request, context);
  }

  const data = decodeBody(text, response.headers.get('content-type'));
  if (!response.ok) {
    const responseData = data.ok ? data.value : text;
    // A throttling answer says when to come back; a caller that retries reads it from the context.
    const retryAfter = response.headers.get('retry-after');
    throw new PmDeskError(codeForStatus(response.status), httpFailureMessage(response.status, responseData), {
      methodName,
      statusCode: response.status,
      responseData,
      context: retryAfter ? { ...context, retryAfter } : context,
    });
  }
  if (!data.ok) {
    throw new PmDeskError(ErrorCode.VALIDATION_ERROR, 'The API server answered with malformed JSON.', {
      methodName,
      statusCode: response.status,
      responseData: text.slice(0, 1000),
      context,
    });
  }
  return { status: response.status, data: data.value as T, headers: response.headers };
}

class TooLarge extends Error {}

/** The body as text, read no further than `maxBytes` when a bound is given (a declared length over it fails at once). */
async function readText(response: Response, maxBytes: number | undefined): Promise<string> {
  if (maxBytes === undefined || !response.body) return response.text();
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
  return new TextDecoder().decode(bytes);
}

/** Why a request got no (whole) answer: our timeout, the caller's abort, or the network. */
function transportError(cause: unknown, timeout: AbortSignal, request: HttpRequest, context: Record<string, unknown>): PmDeskError {
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

type Decoded = { ok: true; value: unknown } | { ok: false };

/** JSON when it parses; plain text when it is not meant to be JSON; malformed when it claims or looks like JSON but is not. */
function decodeBody(text: string, contentType: string | null): Decoded {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    const looksJson = /json/i.test(contentType ?? '') || /^\s*[[{]/.test(text);
    return looksJson ? { ok: false } : { ok: true, value: text };
  }
}
