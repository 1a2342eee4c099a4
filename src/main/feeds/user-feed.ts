// The exchange's user WebSocket (`${wsUrl}/user`, level 2 credentials, main process only): the owner's open orders and trades by id, reconciled with REST after every (re)connect.
import WebSocket from 'ws';
import { Redial, type FeedSource, type RedialOptions } from './redial';
import { realScheduler, type Scheduler } from './scheduler';
import type { WebSocketConstructor } from './market-feed';
import { WS_HANDSHAKE_TIMEOUT_MS, WS_MAX_MESSAGE_BYTES } from '@pmdesk/toolkit';

export type UserFeedState = 'connecting' | 'live' | 'reconnecting' | 'unauthorized' | 'closed';

export interface UserCredentials {
  apiKey: string;
  secret: string;
  passphrase: string;
}

/** An order as GET /data/orders (and the channel's `order` event) gives it. */
export interface UserOrder {
  id: string;
  status: string;
  market: string;
  asset_id: string;
  side: string;
  original_size: string;
  size_matched: string;
  price: string;
  [field: string]: unknown;
}

/** A trade as GET /data/trades (and the channel's `trade` event) gives it. */
export interface UserTrade {
  id: string;
  status: string;
  market: string;
  asset_id: string;
  side: string;
  size: string;
  price: string;
  [field: string]: unknown;
}

/** A trade as the feed keeps it: a fill is not money until the chain confirms it. */
export interface TradeView {
  trade: UserTrade;
  /** True until CONFIRMED (a FAILED trade is not pending either: it will never settle). */
  pending: boolean;
  failed: boolean;
}

export interface UserFeedHandlers {
  /** An order changed; `open` false when it left the open orders (filled, cancelled, expired). */
  onOrder?: (order: UserOrder, open: boolean) => void;
  onTrade?: (view: TradeView) => void;
  onState?: (state: UserFeedState) => void;
  /** REST reconciliation after a (re)connect finished (or failed, with the reason). */
  onReconciled?: (error?: string) => void;
  /** The server answered a PING: the connection is alive even when the account is quiet. */
  onPong?: () => void;
  /** The data now comes over the socket (`live`) or from REST polls while the socket cannot be reached. */
  onSource?: (source: FeedSource) => void;
}

export type { FeedSource };

export interface UserFeedOptions extends RedialOptions {
  /** The profile's wsUrl (`ws://host:port/ws`); the feed connects to `${wsUrl}/user`. */
  wsUrl: string;
  credentials: UserCredentials;
  /** Condition ids to watch; empty (the default) is every market. */
  markets?: string[];
  /** REST GET /data/orders (every page): the truth for anything the socket missed while down. */
  fetchOpenOrders: () => Promise<UserOrder[]>;
  /** REST GET /data/trades (every page). */
  fetchTrades: () => Promise<UserTrade[]>;
  handlers?: UserFeedHandlers;
  WebSocket?: WebSocketConstructor;
  scheduler?: Scheduler;
}

const CLOSE_BAD_AUTH = 4401;
/** How far a trade has come; an event that would move it back arrived late and is dropped. */
const TRADE_RANK: Record<string, number> = { MATCHED: 0, RETRYING: 1, MINED: 2, CONFIRMED: 3, FAILED: 3 };

export class UserFeed {
  private readonly orders = new Map<string, UserOrder>();
  private readonly trades = new Map<string, TradeView>();
  private readonly scheduler: Scheduler;
  private readonly handlers: UserFeedHandlers;
  private readonly WebSocketImpl: WebSocketConstructor;
  private socket: WebSocket | undefined;
  private stateValue: UserFeedState = 'closed';
  private started = false;
  private readonly redial: Redial;
  /** Counts connections so a reconciliation that outlived its connection does not overwrite a newer one. */
  private generation = 0;
  /**
   * Ids the socket changed while a REST reconciliation was in flight: the socket's word on them is at least as new
   * as the REST answer, so the answer must not undo it.
   */
  private touched: Set<string> | undefined;
  pingsSent = 0;
  pongs = 0;
  reconciliations = 0;

  constructor(private readonly options: UserFeedOptions) {
    this.scheduler = options.scheduler ?? realScheduler;
    this.handlers = options.handlers ?? {};
    this.WebSocketImpl = options.WebSocket ?? WebSocket;
    this.redial = new Redial(this.scheduler, options, (source) => this.handlers.onSource?.(source));
  }

  get state(): UserFeedState {
    return this.stateValue;
  }

  /** `polling` while the socket is unreachable and REST is read every `pollMs` instead. */
  get source(): FeedSource {
    return this.redial.source;
  }

  /** REST reads made while the socket was unreachable. */
  get polls(): number {
    return this.redial.polls;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.redial.reset();
    this.connect('connecting');
  }

  close(): void {
    this.started = false;
    this.redial.close();
    this.dropSocket();
    this.setState('closed');
  }

  openOrders(): UserOrder[] {
    return [...this.orders.values()];
  }

  order(id: string): UserOrder | undefined {
    return this.orders.get(id);
  }

  trade(id: string): TradeView | undefined {
    return this.trades.get(id);
  }

  tradeViews(): TradeView[] {
    return [...this.trades.values()];
  }

  // ---- connection ------------------------------------------------------------------------------

  private connect(state: UserFeedState): void {
    this.setState(state);
    const socket = new this.WebSocketImpl(`${this.options.wsUrl.replace(/\/+$/, '')}/user`, {
      maxPayload: WS_MAX_MESSAGE_BYTES,
      handshakeTimeout: WS_HANDSHAKE_TIMEOUT_MS,
    });
    this.socket = socket;
    let opened = false;
    socket.on('open', () => {
      if (this.socket !== socket) return;
      opened = true;
      // A REST reconciliation of this connection supersedes any poll or older connection's still in flight.
      const generation = ++this.generation;
      const { apiKey, secret, passphrase } = this.options.credentials;
      socket.send(
        JSON.stringify({ auth: { apiKey, secret, passphrase }, markets: this.options.markets ?? [], type: 'user' }),
      );
      this.redial.ping(() => {
        if (this.socket?.readyState !== WebSocket.OPEN) return false;
        this.socket.send('PING');
        this.pingsSent++;
        return true;
      });
      this.setState('live');
      // After the state: a listener never hears "connecting" between polled data and the socket's.
      this.redial.opened();
      void this.reconcile(generation);
    });
    socket.on('message', (data, isBinary) => {
      if (this.socket !== socket || isBinary) return;
      this.redial.heard();
      this.onMessage(String(data));
    });
    socket.on('error', () => undefined); // 'close' follows and decides
    socket.on('close', (code) => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.redial.clearTimers();
      if (code === CLOSE_BAD_AUTH) {
        // Retrying the same credentials can only fail again (and may get the key banned): stop here.
        this.started = false;
        this.setState('unauthorized');
        return;
      }
      if (!this.started) return;
      this.setState('reconnecting');
      this.redial.closed(
        opened,
        () => {
          if (this.started) this.connect('reconnecting');
        },
        // The socket cannot be reached: REST's open orders and trades stand in for it (the usual reconciliation).
        () => (this.started ? this.reconcile(this.generation) : undefined),
      );
    });
  }

  private dropSocket(): void {
    const socket = this.socket;
    this.socket = undefined;
    socket?.removeAllListeners();
    socket?.on('error', () => undefined);
    socket?.terminate();
  }

  private setState(state: UserFeedState): void {
    if (state === this.stateValue) return;
    this.stateValue = state;
    this.handlers.onState?.(state);
  }

  // ---- REST reconciliation ---------------------------------------------------------------------

  /** Events sent while the socket was down are lost for good, so REST's view replaces ours after each connect. */
  private async reconcile(generation: number): Promise<void> {
    let orders: UserOrder[];
    let trades: UserTrade[];
    const touched = new Set<string>();
    this.touched = touched;
    try {
      [orders, trades] = await Promise.all([this.options.fetchOpenOrders(), this.options.fetchTrades()]);
    } catch (error) {
      if (generation === this.generation) {
        this.touched = undefined;
        this.handlers.onReconciled?.(error instanceof Error ? error.message : String(error));
      }
      return;
    }
    if (generation !== this.generation || !this.started) return;
    this.touched = undefined;
    const open = new Map(orders.map((o) => [o.id, o]));
    for (const [id, order] of this.orders) {
      if (open.has(id) || touched.has(id)) continue;
      this.orders.delete(id);
      this.handlers.onOrder?.(order, false);
    }
    for (const order of open.values()) {
      if (touched.has(order.id)) continue;
      const had = this.orders.get(order.id);
      this.orders.set(order.id, order);
      if (!had || JSON.stringify(had) !== JSON.stringify(order)) this.handlers.onOrder?.(order, true);
    }
    for (const trade of trades) {
      if (touched.has(trade.id)) continue;
      const had = this.trades.get(trade.id);
      if (had && had.trade.status === trade.status) continue;
      this.putTrade(trade);
    }
    this.reconciliations++;
    this.handlers.onReconciled?.();
  }

  // ---- messages --------------------------------------------------------------------------------

  private onMessage(text: string): void {
    if (text.trim().toUpperCase() === 'PONG') {
      this.pongs++;
      this.handlers.onPong?.();
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return; // not ours to act on; the next reconciliation covers anything it might have said
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      if (!message || typeof message !== 'object') continue;
      const m = message as Record<string, unknown>;
      if (typeof m.id !== 'string') continue;
      if (m.event_type === 'order') this.applyOrder(m as unknown as UserOrder & { type?: string });
      else if (m.event_type === 'trade') this.applyTrade(m as unknown as UserTrade);
    }
  }

  private applyOrder(message: UserOrder & { type?: string }): void {
    const { event_type: _event, type, timestamp: _time, ...order } = message;
    this.touched?.add(order.id);
    const stillOpen = type !== 'CANCELLATION' && order.status === 'LIVE';
    if (stillOpen) this.orders.set(order.id, order as UserOrder);
    else if (!this.orders.delete(order.id) && type !== 'PLACEMENT') return; // never knew it open: nothing changed
    this.handlers.onOrder?.(order as UserOrder, stillOpen);
  }

  private applyTrade(message: UserTrade): void {
    const { event_type: _event, type: _type, timestamp: _time, trade_owner: _owner, ...trade } = message;
    this.touched?.add(trade.id);
    const had = this.trades.get(trade.id);
    if (had && (TRADE_RANK[trade.status] ?? 0) < (TRADE_RANK[had.trade.status] ?? 0)) return;
    this.putTrade(trade as UserTrade);
  }

  private putTrade(trade: UserTrade): void {
    const view: TradeView = {
      trade,
      pending: trade.status !== 'CONFIRMED' && trade.status !== 'FAILED',
      failed: trade.status === 'FAILED',
    };
    this.trades.set(trade.id, view);
    this.handlers.onTrade?.(view);
  }
}
