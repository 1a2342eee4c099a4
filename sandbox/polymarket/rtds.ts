// The sandbox's real-time data service (RTDS, docs/protocol.md#real-time-data-service) on `/rtds` of the Polymarket server: the
// `activity`/`orders_matched` topic for every trade the exchange settles, filtered by `event_slug` or
// `market_slug` (a JSON string, as Polymarket's client sends it), the text `ping` answered with `pong`, and a
// fault switch that refuses or drops connections so a client's polling fallback can be tested.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Catalog } from '../market/catalog';
import type { PublicTrade, PublicTradeSource } from '../market/public-trades';
import type { WalletDirectory } from './wallets';

export const RTDS_PATH = '/rtds';
/** Close code when the fault switch drops connections (as a restarting service). */
export const RTDS_CLOSE_RESTART = 1012;
const MAX_FRAME_BYTES = 64 * 1024;
const MAX_SUBSCRIPTIONS = 100;

/** Faults a test can ask of the real-time feed. */
export interface RtdsFaults {
  /** While on, new connections are refused with a 503 before the upgrade; with `drop`, open ones are closed too. */
  refuse(on: boolean, drop?: boolean): void;
  /** Closes every open connection with 1012. */
  dropAll(): void;
}

/** One subscription: every activity trade, or those of one event or market slug. */
interface Subscription {
  topic: string;
  type: string;
  eventSlug?: string;
  marketSlug?: string;
}

export interface RtdsOptions {
  catalog: Catalog;
  trades: PublicTradeSource;
  wallets: WalletDirectory;
  now: () => number;
}

export class RealTimeFeed {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  private readonly subscriptions = new Map<WebSocket, Subscription[]>();
  private readonly onUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  private readonly stopFeeding: () => void;
  private refusing = false;

  readonly faults: RtdsFaults = {
    refuse: (on, drop = false) => {
      this.refusing = on;
      if (on && drop) this.faults.dropAll();
    },
    dropAll: () => {
      for (const ws of this.subscriptions.keys()) ws.close(RTDS_CLOSE_RESTART, 'service restart');
    },
  };

  constructor(
    private readonly http: Server,
    private readonly options: RtdsOptions,
  ) {
    this.onUpgrade = (req, socket, head) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '');
      if (path !== RTDS_PATH) {
        socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      if (this.refusing) {
        socket.end('HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      // A socket error before the handshake completes must not reach the process as an unhandled 'error'.
      socket.on('error', () => socket.destroy());
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
    };
    http.on('upgrade', this.onUpgrade);
    this.stopFeeding = options.trades.onTrade((trade) => this.publish(trade));
  }

  /** How many clients are connected (tests wait on it). */
  get connections(): number {
    return this.subscriptions.size;
  }

  close(): void {
    this.stopFeeding();
    this.http.off('upgrade', this.onUpgrade);
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }

  private accept(ws: WebSocket): void {
    this.subscriptions.set(ws, []);
    ws.on('error', () => ws.terminate());
    ws.on('close', () => this.subscriptions.delete(ws));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) return;
      this.message(ws, data.toString());
    });
  }

  /** A client's frame: `ping`, or a subscribe/unsubscribe; anything else is ignored, as Polymarket's service does. */
  private message(ws: WebSocket, text: string): void {
    if (text.trim().toLowerCase() === 'ping') {
      ws.send('pong');
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return;
    }
    const { action, subscriptions } = (parsed ?? {}) as { action?: unknown; subscriptions?: unknown };
    if ((action !== 'subscribe' && action !== 'unsubscribe') || !Array.isArray(subscriptions)) return;
    const asked = subscriptions.map(parseSubscription).filter((s): s is Subscription => s !== undefined);
    const current = this.subscriptions.get(ws);
    if (!current) return;
    if (action === 'subscribe') {
      for (const s of asked)
        if (!current.some((c) => sameSubscription(c, s)) && current.length < MAX_SUBSCRIPTIONS) current.push(s);
    } else {
      this.subscriptions.set(
        ws,
        current.filter((c) => !asked.some((s) => sameSubscription(c, s))),
      );
    }
  }

  private publish(trade: PublicTrade): void {
    const market = this.options.catalog.marketByCondition(trade.conditionId);
    if (!market) return;
    const event = this.options.catalog.events.find((e) => e.id === market.eventId)!;
    const who = this.options.wallets.identity(trade.taker);
    const message = JSON.stringify({
      topic: 'activity',
      type: 'orders_matched',
      timestamp: this.options.now(),
      payload: {
        asset: trade.tokenId,
        conditionId: trade.conditionId,
        eventSlug: event.slug,
        slug: market.slug,
        title: market.question,
        icon: '',
        outcome: trade.outcome,
        outcomeIndex: trade.outcomeIndex,
        price: trade.price,
        side: trade.side,
        size: trade.size,
        timestamp: trade.timestamp,
        transactionHash: trade.transactionHash,
        proxyWallet: trade.taker,
        name: who.name,
        pseudonym: who.pseudonym,
        bio: who.bio,
        profileImage: who.profileImage,
      },
    });
    for (const [ws, subs] of this.subscriptions) {
      const wanted = subs.some(
        (s) =>
          s.topic === 'activity' &&
          (s.type === 'orders_matched' || s.type === '*') &&
          (s.eventSlug === undefined || s.eventSlug === event.slug) &&
          (s.marketSlug === undefined || s.marketSlug === market.slug),
      );
      if (wanted && ws.readyState === ws.OPEN) ws.send(message);
    }
  }
}

/** `{topic, type, filters}` with `filters` a JSON string holding `event_slug` or `market_slug`; else undefined. */
function parseSubscription(raw: unknown): Subscription | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const { topic, type, filters } = raw as { topic?: unknown; type?: unknown; filters?: unknown };
  if (typeof topic !== 'string' || typeof type !== 'string') return undefined;
  if (filters === undefined || filters === '') return { topic, type };
  if (typeof filters !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(filters);
  } catch {
    return undefined;
  }
  const { event_slug: eventSlug, market_slug: marketSlug } = (parsed ?? {}) as {
    event_slug?: unknown;
    market_slug?: unknown;
  };
  if (eventSlug !== undefined && typeof eventSlug !== 'string') return undefined;
  if (marketSlug !== undefined && typeof marketSlug !== 'string') return undefined;
  return { topic, type, eventSlug, marketSlug };
}

function sameSubscription(a: Subscription, b: Subscription): boolean {
  return a.topic === b.topic && a.type === b.type && a.eventSlug === b.eventSlug && a.marketSlug === b.marketSlug;
}
