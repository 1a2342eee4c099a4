// Polymarket's real-time data service (RTDS, docs/protocol.md#real-time-data-service): one WebSocket, a subscribe message whose
// `filters` is a JSON string, the text `ping` every 5 s, and every message validated. Trades of the
// `activity` topic come out deduplicated by transaction, token and size. It never reconnects on its own: the
// caller decides (the fill subscription falls back to polling and tries again).
import { WS_MAX_MESSAGE_BYTES } from '../http/limits';
import { isNode, nodeRequire } from '../base/platform';
import { ErrorCode, PmDeskError, truncate } from '../model/errors';
import type { Logger } from '../base/logger';
import { RtdsEnvelopeSchema, RtdsTradeSchema, type RtdsTrade } from './clob-schemas';
import { parseAnswer } from './http';

/** The part of a WebSocket this module uses: the browser's and the `ws` package's both fit. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(type: 'open' | 'message' | 'close' | 'error', listener: (event: { data?: unknown }) => void): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface RtdsSubscription {
  topic: string;
  type: string;
  /** Sent as a JSON string, as the service wants it (`"{\"market_slug\":\"…\"}"`). */
  filters?: Record<string, unknown>;
}

export interface RtdsHandlers {
  onOpen?: () => void;
  onTrade?: (trade: RtdsTrade) => void;
  /** A message that failed validation; the stream stays open. */
  onError?: (error: PmDeskError) => void;
  /** Once: the socket closed or could not open (`opened` says which), or the caller closed it. */
  onClose?: (info: { opened: boolean; byCaller: boolean }) => void;
}

export interface RtdsOptions {
  url: string;
  subscriptions: RtdsSubscription[];
  handlers: RtdsHandlers;
  logger: Logger;
  WebSocket?: WebSocketConstructor;
  /** Keepalive period; 5 s as the official client sends it. */
  pingMs?: number;
  /** A socket not open by then is given up (a host that swallows the handshake); 10 s by default. */
  openTimeoutMs?: number;
}

export const RTDS_PING_MS = 5_000;
export const RTDS_OPEN_TIMEOUT_MS = 10_000;
/** Trade keys remembered for deduplication (a busy market's last minutes). */
const DEDUPE_WINDOW = 2_000;
const METHOD = 'rtds';

/** The `ws` package's constructor once loaded: it alone takes a message cap as its second argument. */
let wsPackage: WebSocketConstructor | undefined;

/**
 * The WebSocket to use: the caller's; under Node the `ws` package (an optional dependency: it enforces the
 * message size cap, which Node's own WebSocket cannot), else the platform's; undefined when there is none.
 */
export function resolveWebSocket(explicit?: WebSocketConstructor): WebSocketConstructor | undefined {
  if (explicit) return explicit;
  if (isNode) {
    try {
      const ws = nodeRequire(import.meta.url)?.('ws') as
        WebSocketConstructor | { WebSocket?: WebSocketConstructor } | undefined;
      const Ctor = typeof ws === 'function' ? ws : ws?.WebSocket;
      if (Ctor) return (wsPackage = Ctor);
    } catch {
      // `ws` is not installed: Node ≥ 22 has its own WebSocket below.
    }
  }
  const platform = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  return typeof platform === 'function' ? platform : undefined;
}

/** The subscribe message exactly as the official client sends it. */
export function subscribeMessage(subscriptions: RtdsSubscription[]): string {
  return JSON.stringify({
    action: 'subscribe',
    subscriptions: subscriptions.map(({ topic, type, filters }) => ({
      topic,
      type,
      ...(filters ? { filters: JSON.stringify(filters) } : {}),
    })),
  });
}

/** The key trades are deduplicated by: transaction, token, size. */
export function tradeKey(trade: { transactionHash: string; asset: string; size: number }): string {
  return `${trade.transactionHash}|${trade.asset}|${trade.size}`;
}

export class RtdsStream {
  private readonly socket: WebSocketLike;
  private readonly seen = new Set<string>();
  private ping: ReturnType<typeof setInterval> | undefined;
  private openTimer: ReturnType<typeof setTimeout> | undefined;
  private opened = false;
  private closed = false;

  constructor(private readonly options: RtdsOptions) {
    const WebSocketImpl = resolveWebSocket(options.WebSocket);
    if (!WebSocketImpl)
      throw new PmDeskError(
        ErrorCode.ENVIRONMENT_ERROR,
        'WebSocket is not available in this environment: install the `ws` package or pass one.',
        { methodName: METHOD },
      );
    // The `ws` package takes a message cap; a browser's WebSocket would read a second argument as protocols.
    this.socket =
      WebSocketImpl === wsPackage
        ? new (WebSocketImpl as unknown as new (url: string, o: object) => WebSocketLike)(options.url, {
            maxPayload: WS_MAX_MESSAGE_BYTES,
          })
        : new WebSocketImpl(options.url);
    this.socket.addEventListener('open', () => this.handleOpen());
    this.socket.addEventListener('message', (event) => this.handleMessage(event.data));
    this.socket.addEventListener('close', () => this.finish(false));
    // An error is followed by close in both implementations; close is where the stream ends.
    this.socket.addEventListener('error', () => {});
    this.openTimer = setTimeout(() => this.finish(false), options.openTimeoutMs ?? RTDS_OPEN_TIMEOUT_MS);
  }

  get isOpen(): boolean {
    return this.opened && !this.closed;
  }

  close(): void {
    this.finish(true);
  }

  private handleOpen(): void {
    if (this.closed) return;
    clearTimeout(this.openTimer);
    this.opened = true;
    this.socket.send(subscribeMessage(this.options.subscriptions));
    this.ping = setInterval(() => {
      if (this.socket.readyState === 1) this.socket.send('ping');
    }, this.options.pingMs ?? RTDS_PING_MS);
    this.safely(() => this.options.handlers.onOpen?.());
  }

  private handleMessage(data: unknown): void {
    if (this.closed) return;
    const raw = typeof data === 'string' ? data : String(data);
    // The service answers pings and acknowledges subscriptions with short non-JSON text.
    if (raw.trim() === '' || /^pong$/i.test(raw.trim())) return;
    try {
      const parsed = parseJson(raw);
      // The service answers a subscription it cannot serve with `{body: {message}, statusCode}`, not an envelope.
      const refusal = refusalOf(parsed);
      if (refusal !== undefined) {
        const reported = new PmDeskError(
          ErrorCode.API_REQUEST_FAILED,
          `Real-time subscription refused: ${truncate(refusal, 300)}`,
          { methodName: METHOD },
        );
        this.options.logger.warn(reported.message, reported);
        this.safely(() => this.options.handlers.onError?.(reported));
        return;
      }
      const message = parseAnswer(RtdsEnvelopeSchema, parsed, METHOD);
      if (message.topic !== 'activity' || (message.type !== 'orders_matched' && message.type !== 'trades')) return;
      const trade = parseAnswer(RtdsTradeSchema, message.payload, METHOD);
      const key = tradeKey(trade);
      if (this.seen.has(key)) return;
      this.remember(key);
      this.safely(() => this.options.handlers.onTrade?.(trade));
    } catch (error) {
      const detail = error instanceof PmDeskError ? error.detail : String(error);
      const reported = new PmDeskError(ErrorCode.VALIDATION_ERROR, `Real-time message rejected: ${detail}`, {
        methodName: METHOD,
        context: { rawData: truncate(raw, 100) },
      });
      this.options.logger.warn(reported.message, reported);
      this.safely(() => this.options.handlers.onError?.(reported));
    }
  }

  private remember(key: string): void {
    this.seen.add(key);
    if (this.seen.size > DEDUPE_WINDOW) this.seen.delete(this.seen.values().next().value as string);
  }

  private finish(byCaller: boolean): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.openTimer);
    if (this.ping) clearInterval(this.ping);
    try {
      this.socket.close();
    } catch {
      // Closing a socket that never connected can throw in some implementations; it is closed either way.
    }
    this.safely(() => this.options.handlers.onClose?.({ opened: this.opened, byCaller }));
  }

  /** A caller's handler that throws is logged, never let loose in the socket's event loop. */
  private safely(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.options.logger.error('real-time handler threw', error instanceof PmDeskError ? error : String(error));
    }
  }
}

/** The service's own words when a frame is its refusal of a subscription (no topic, a `body.message`). */
function refusalOf(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || 'topic' in value) return undefined;
  const body = (value as { body?: unknown }).body;
  const message = body && typeof body === 'object' ? (body as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : undefined;
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new PmDeskError(ErrorCode.VALIDATION_ERROR, 'not JSON', { methodName: METHOD });
  }
}
