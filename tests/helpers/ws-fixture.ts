// A real WebSocket server on a free loopback port with scripted messages, for wire-level tests of the feed
// client: it keeps every connection and everything each one sent, and lets a test wait for either.
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { orderBookHash } from '../../packages/toolkit/src/clob/book';

export interface WsConnection {
  socket: WebSocket;
  path: string;
  received: string[];
  /** Resolves once this connection has sent `count` messages in all. */
  receivedCount(count: number): Promise<void>;
  send(message: unknown): void;
}

export class WsFixture {
  readonly connections: WsConnection[] = [];
  private waiters: ((c: WsConnection) => void)[] = [];

  private constructor(private readonly server: WebSocketServer) {
    server.on('connection', (socket, request) => {
      const received: string[] = [];
      const countWaiters: { count: number; resolve: () => void }[] = [];
      socket.on('message', (data) => {
        received.push(String(data));
        for (const w of countWaiters.filter((w) => received.length >= w.count)) {
          countWaiters.splice(countWaiters.indexOf(w), 1);
          w.resolve();
        }
      });
      const connection: WsConnection = {
        socket,
        path: request.url ?? '',
        received,
        receivedCount: (count) =>
          new Promise((resolve) => (received.length >= count ? resolve() : countWaiters.push({ count, resolve }))),
        send: (message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
      };
      this.connections.push(connection);
      const waiters = this.waiters;
      this.waiters = [];
      for (const w of waiters) w(connection);
    });
  }

  static async start(): Promise<WsFixture> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    return new WsFixture(server);
  }

  /** The profile-style base URL (`ws://127.0.0.1:port/ws`). */
  get wsUrl(): string {
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/ws`;
  }

  /** The `index`-th connection (0-based), once it exists. */
  connection(index: number): Promise<WsConnection> {
    const existing = this.connections[index];
    if (existing) return Promise.resolve(existing);
    return new Promise((resolve) => {
      const check = (): void => {
        const c = this.connections[index];
        if (c) resolve(c);
        else this.waiters.push(check);
      };
      this.waiters.push(check);
    });
  }

  async stop(): Promise<void> {
    for (const c of this.connections) c.socket.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A server-side book whose hashes are computed the way the CLOB computes them (sha1 of the summary, hash ""). */
export class ScriptedBook {
  bids = new Map<string, string>();
  asks = new Map<string, string>();
  constructor(
    readonly tokenId: string,
    readonly market: string,
    public timestamp: number,
  ) {}

  summary(): Record<string, unknown> & { hash: string } {
    const side = (m: Map<string, string>, desc: boolean) =>
      [...m]
        .sort((a, b) => (desc ? Number(a[0]) - Number(b[0]) : Number(b[0]) - Number(a[0])))
        .map(([price, size]) => ({ price, size }));
    const body = {
      market: this.market,
      asset_id: this.tokenId,
      timestamp: String(this.timestamp),
      hash: '',
      bids: side(this.bids, true),
      asks: side(this.asks, false),
      min_order_size: '5',
      tick_size: '0.01',
      neg_risk: false,
      last_trade_price: '',
    };
    return { ...body, hash: orderBookHash(body) };
  }

  bookMessage(): Record<string, unknown> {
    return { event_type: 'book', ...this.summary() };
  }

  /** Applies one change and returns the price_change message announcing it (with the new book's hash). */
  change(side: 'BUY' | 'SELL', price: string, size: string, timestamp = this.timestamp + 1): Record<string, unknown> {
    const levels = side === 'BUY' ? this.bids : this.asks;
    if (size === '0') levels.delete(price);
    else levels.set(price, size);
    this.timestamp = timestamp;
    const hash = this.summary().hash;
    return {
      event_type: 'price_change',
      market: this.market,
      timestamp: String(timestamp),
      price_changes: [{ asset_id: this.tokenId, price, size, side, hash, best_bid: '', best_ask: '' }],
    };
  }
}
