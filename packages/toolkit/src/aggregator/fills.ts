// The live fill-event stream (GET /sse/fillevent?protocol=…&id=…): connecting → open → closed.
// Every message is validated (docs/protocol.md#aggregator); a bad one is reported and the stream stays
// open. A dropped or refused stream is reported once and closed: the toolkit never reconnects on its
// own (docs/protocol.md#order-flow), so a caller that resubscribes knows it did, and can mark the gap. The stream is bounded: it
// must open in time, never go quiet longer than a few keep-alives, and no message may grow without end.
import { EventSource as PackageEventSource } from 'eventsource';
import { ErrorCode, PmDeskError, invalidParameter, maskId, truncate, wrapOnce } from '../model/errors';
import type { TradeRecord } from '../model/aggregator';
import { buildQuery, joinUrl } from '../http/query';
import type { Logger } from '../base/logger';
import { AGGREGATOR_PATHS } from './endpoints';

/** The part of the WHATWG EventSource this module uses; the browser's and the `eventsource` package's both fit. */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: 'open' | 'message' | 'error', listener: (event: MessageEvent | Event) => void): void;
  close(): void;
}
export type EventSourceConstructor = new (url: string, init?: { fetch?: typeof fetch }) => EventSourceLike;

export type FillStreamState = 'connecting' | 'open' | 'closed';

export interface FillHandlers {
  onOpen?: () => void;
  onFill?: (fill: TradeRecord) => void;
  /** A bad message (the stream stays open) or the stream's end (followed by onClose). */
  onError?: (error: PmDeskError) => void;
  /** Once, when the stream is closed: with the error that closed it, or none when the caller closed it. */
  onClose?: (error?: PmDeskError) => void;
}

export interface FillSubscription {
  readonly state: FillStreamState;
  /** The latest valid fill, or null before the first. */
  latest(): TradeRecord | null;
  /** Closes the stream (no-op when already closed). */
  close(): void;
  /** Settles when the stream is closed: with the error that closed it, or null when the caller closed it. */
  readonly done: Promise<PmDeskError | null>;
}

export interface SubscribeOptions {
  sseUrl: string;
  protocol: string;
  id: string;
  handlers?: FillHandlers;
  logger: Logger;
  EventSource?: EventSourceConstructor;
  fetch?: typeof fetch;
  limits?: StreamLimits;
}

/** How a fill stream is bounded; each has a default. */
export interface StreamLimits {
  /** Until the stream is open (answer headers accepted). */
  connectTimeoutMs?: number;
  /** The longest silence once open: no byte at all, keep-alive comments included. */
  idleTimeoutMs?: number;
  /** The largest single message (bytes up to its blank line). */
  maxMessageBytes?: number;
}

/** The sandbox and the aggregator send a keep-alive comment every 15 s: three missed ones mean the stream is dead. */
export const STREAM_LIMITS = { connectTimeoutMs: 30_000, idleTimeoutMs: 45_000, maxMessageBytes: 64 * 1024 } as const;

const METHOD = 'subscribeToFills';

/** The EventSource to use: the caller's, the platform's, or the `eventsource` package's where fetch exists. */
export function resolveEventSource(explicit?: EventSourceConstructor): EventSourceConstructor | undefined {
  if (explicit) return explicit;
  const platform = (globalThis as { EventSource?: EventSourceConstructor }).EventSource;
  if (typeof platform === 'function') return platform;
  if (typeof globalThis.fetch === 'function') return PackageEventSource as unknown as EventSourceConstructor;
  return undefined;
}

export function subscribeToFills(options: SubscribeOptions): FillSubscription {
  const { protocol, id, logger } = options;
  const handlers = options.handlers ?? {};
  const EventSourceImpl = resolveEventSource(options.EventSource);
  if (!EventSourceImpl) {
    throw new PmDeskError(
      ErrorCode.ENVIRONMENT_ERROR,
      'EventSource is not available in this environment. Ensure you are in a browser or have a suitable polyfill.',
      { methodName: METHOD },
    );
  }
  const requireParam = (name: string, value: unknown) => {
    if (typeof value !== 'string' || value.trim() === '')
      throw invalidParameter(`Missing required parameter '${name}'.`, METHOD);
  };
  requireParam('protocol', protocol);
  requireParam('id', id);

  const url = joinUrl(options.sseUrl, AGGREGATOR_PATHS.fillStream) + buildQuery({ protocol, id });
  const context = { protocol, id: maskId(id) };
  const limits = { ...STREAM_LIMITS, ...definedOnly(options.limits) };
  // The package EventSource reads through the fetch it is given, so the bytes can be watched there; a browser's
  // own EventSource cannot be, and keeps only the open bound.
  const watched = EventSourceImpl === (PackageEventSource as unknown) || options.EventSource !== undefined;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  // Ends the stream's request whatever state the EventSource is in: one that failed the connection (a non-SSE
  // answer) no longer aborts its own fetch on close, and the unread answer would hold the connection open.
  const hangUp = new AbortController();
  const source = new EventSourceImpl(
    url,
    watched && typeof fetchImpl === 'function'
      ? {
          fetch: watchedFetch(fetchImpl, {
            stop: hangUp.signal,
            maxMessageBytes: limits.maxMessageBytes,
            onBytes: () => armIdle(),
            onOversize: () => finish(oversize()),
            onRefused: (error) => finish(error),
            context,
          }),
        }
      : undefined,
  );

  let state: FillStreamState = 'connecting';
  let latest: TradeRecord | null = null;
  let settle!: (error: PmDeskError | null) => void;
  const done = new Promise<PmDeskError | null>((resolve) => (settle = resolve));

  /** Calls a caller's handler; what it throws is logged, never let loose in the stream's event loop. */
  const safely = <A extends unknown[]>(name: string, fn: ((...args: A) => void) | undefined, ...args: A) => {
    if (!fn) return;
    try {
      fn(...args);
    } catch (error) {
      logger.error(`fill stream handler ${name} threw`, wrapOnce(error, METHOD, context));
    }
  };

  let timer: ReturnType<typeof setTimeout> | undefined;
  const armIdle = () => {
    if (state !== 'open') return;
    clearTimeout(timer);
    timer = setTimeout(
      () =>
        finish(
          new PmDeskError(
            ErrorCode.SSE_CLOSED,
            `The fill stream for ${protocol}/${id} sent nothing for ${limits.idleTimeoutMs} ms; closed.`,
            {
              methodName: METHOD,
              context: { ...context, idleTimeoutMs: limits.idleTimeoutMs },
            },
          ),
        ),
      limits.idleTimeoutMs,
    );
  };
  const oversize = () =>
    new PmDeskError(
      ErrorCode.SSE_MESSAGE_ERROR,
      `A fill-stream message is larger than ${limits.maxMessageBytes} bytes; the stream was closed.`,
      {
        methodName: METHOD,
        context: { ...context, maxMessageBytes: limits.maxMessageBytes },
      },
    );
  timer = setTimeout(
    () =>
      finish(
        new PmDeskError(
          ErrorCode.TIMEOUT_ERROR,
          `The fill stream for ${protocol}/${id} did not open within ${limits.connectTimeoutMs} ms.`,
          {
            methodName: METHOD,
            context: { ...context, timeoutMs: limits.connectTimeoutMs },
          },
        ),
      ),
    limits.connectTimeoutMs,
  );

  const finish = (error: PmDeskError | null) => {
    if (state === 'closed') return;
    state = 'closed';
    clearTimeout(timer);
    source.close();
    hangUp.abort();
    if (error) {
      logger.error(error.message, error);
      safely('onError', handlers.onError, error);
    }
    safely('onClose', handlers.onClose, error ?? undefined);
    settle(error);
  };

  source.addEventListener('open', () => {
    if (state === 'closed') return;
    state = 'open';
    armIdle();
    safely('onOpen', handlers.onOpen);
  });

  source.addEventListener('message', (event) => {
    if (state === 'closed') return;
    const result = parseFillMessage((event as MessageEvent).data);
    if (result.ok) {
      latest = result.fill;
      safely('onFill', handlers.onFill, result.fill);
      return;
    }
    const error = new PmDeskError(ErrorCode.SSE_MESSAGE_ERROR, `Failed to process SSE message: ${result.reason}`, {
      methodName: METHOD,
      context: { ...context, rawData: result.raw },
    });
    logger.warn(error.message, error);
    safely('onError', handlers.onError, error);
  });

  source.addEventListener('error', (event) => {
    if (state === 'closed') return;
    // Before the stream opened, the server could not be reached or refused it; after, it went away.
    const wasOpen = state === 'open';
    const status = (event as { code?: unknown }).code;
    const error = new PmDeskError(
      wasOpen ? ErrorCode.SSE_CLOSED : ErrorCode.SSE_CONNECTION_FAILED,
      wasOpen
        ? `SSE connection closed unexpectedly for ${protocol}/${id}.`
        : `SSE connection error occurred for ${protocol}/${id}.`,
      {
        methodName: METHOD,
        statusCode: typeof status === 'number' ? status : undefined,
        context: { ...context, reason: (event as { message?: unknown }).message },
      },
    );
    finish(error);
  });

  return {
    get state() {
      return state;
    },
    latest: () => latest,
    close: () => finish(null),
    done,
  };
}

/** Drops undefined values, so a caller's `{ idleTimeoutMs: undefined }` keeps the default. */
function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

interface WatchOptions {
  /** Aborted when the stream is closed: ends the request and its answer. */
  stop: AbortSignal;
  maxMessageBytes: number;
  onBytes: () => void;
  onOversize: () => void;
  /** A redirect to another origin: not followed, the stream fails with this. */
  onRefused: (error: PmDeskError) => void;
  context: Record<string, unknown>;
}

const REDIRECTS = [301, 302, 303, 307, 308];
const MAX_REDIRECTS = 5;

/**
 * A fetch whose answer body reports each chunk (`onBytes`) and fails once a message (the bytes since the last
 * blank line) passes `maxMessageBytes`: the stream is then cut, and `onOversize` says why. Redirects are followed
 * here, within the stream's origin only (as every other request of the toolkit): one to another origin is refused.
 */
function watchedFetch(base: typeof fetch, options: WatchOptions): typeof fetch {
  const { stop, maxMessageBytes, onBytes, onOversize, onRefused, context } = options;
  return async (input, init) => {
    const signal = init?.signal ? AbortSignal.any([init.signal, stop]) : stop;
    let target = new URL(input instanceof Request ? input.url : String(input));
    const origin = target.origin;
    let response = await base(target, { ...init, signal, redirect: 'manual' });
    for (let hops = 0; REDIRECTS.includes(response.status); hops++) {
      await response.body?.cancel().catch(() => {});
      const location = response.headers.get('location');
      const next = location ? new URL(location, target) : undefined;
      if (!next || next.origin !== origin || hops >= MAX_REDIRECTS) {
        const where = next ? `to ${next.origin}` : 'without a Location';
        const error = new PmDeskError(
          ErrorCode.SSE_CONNECTION_FAILED,
          `The fill stream was redirected ${where}; a redirect out of ${origin} is not followed.`,
          {
            methodName: METHOD,
            statusCode: response.status,
            context: { ...context, redirectOrigin: next?.origin },
          },
        );
        onRefused(error);
        throw error;
      }
      target = next;
      response = await base(target, { ...init, signal, redirect: 'manual' });
    }
    if (!response.body) return response;
    let pending = 0;
    let tail = '';
    const decoder = new TextDecoder();
    const watch = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        onBytes();
        const text = tail + decoder.decode(chunk, { stream: true });
        const end = Math.max(text.lastIndexOf('\n\n'), text.lastIndexOf('\r\n\r\n'));
        pending = end < 0 ? pending + chunk.byteLength : text.length - end - 2;
        tail = text.slice(-3);
        if (pending > maxMessageBytes) {
          onOversize();
          controller.error(new Error('message too large'));
          return;
        }
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(watch), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

type ParsedFill = { ok: true; fill: TradeRecord } | { ok: false; reason: string; raw: string };

/** One SSE message → a fill: a string holding JSON with numeric price, volumeBase and timestamp (seconds). */
export function parseFillMessage(data: unknown): ParsedFill {
  if (typeof data !== 'string') {
    return { ok: false, reason: 'Received non-string SSE message data.', raw: truncate(String(data), 100) };
  }
  const raw = truncate(data, 100);
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : 'invalid JSON', raw };
  }
  const record = value as Partial<Record<'price' | 'volumeBase' | 'timestamp', unknown>> | null;
  if (
    !record ||
    typeof record !== 'object' ||
    !isFiniteNumber(record.price) ||
    !isFiniteNumber(record.volumeBase) ||
    !isFiniteNumber(record.timestamp)
  ) {
    return { ok: false, reason: 'Received SSE message with unexpected data structure.', raw };
  }
  return {
    ok: true,
    fill: { ...(record as object), price: record.price, volumeBase: record.volumeBase, timestamp: record.timestamp },
  };
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}
