// The sandbox CLOB's WebSocket channels, as Polymarket serves them (docs/protocol.md#clob-websocket-channels): /ws/market
// (book snapshots, price_change deltas, last_trade_price, tick_size_change, best_bid_ask) and /ws/user (a key's
// own order and trade events), on the CLOB's own http server through its 'upgrade' event.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { timingSafeEqual } from 'node:crypto';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { BookSnapshot } from '../market/market-data';
import { levelChanges } from './book-snapshot';

export interface ClobWsOptions {
  /** A connection that has not subscribed after this long is closed (code 4408). */
  subscribeTimeoutMs?: number;
  /** A frame larger than this closes its connection (code 1009); nobody else is affected. */
  maxFrameBytes?: number;
  /** A client that lets this much outgoing data pile up (it stopped reading) is dropped, so it cannot grow memory. */
  maxBufferedBytes?: number;
}

/** What the channels read from the CLOB server. */
export interface ClobWsBackend {
  /** The last published book of a token (what price_change deltas continue from), undefined if unknown. */
  book(tokenId: string): BookSnapshot | undefined;
  /** The registered credentials of an API key (compared here, never sent anywhere), else undefined. */
  credentials(apiKey: string): { secret: string; passphrase: string } | undefined;
}

/**
 * Faults a test can ask for, so a client's feed logic (gap detection, dedup, resync on a hash mismatch,
 * reconnect) is exercised against the real server rather than a fake one. Each applies to every connection.
 */
export interface WsFaults {
  /** Holds every market-channel event (PONG still answers) until resume(). */
  stall(): void;
  /** Ends a stall: held events go out in order, or with `deliver` false are dropped (the clients' books drift). */
  resume(deliver?: boolean): void;
  /** The next price_change is sent twice. */
  duplicateNext(): void;
  /** The next price_change is held back and sent right after the one that follows it (out of order). */
  swapNext(): void;
  /** The next price_change carries a hash that matches no book. */
  corruptNextHash(): void;
  /** Closes every connection of a channel (or both) with 1012, as a restarting server would. */
  dropAll(channel?: 'market' | 'user'): void;
  /**
   * While on, new connections to a channel (or both) are refused with a 503 before the upgrade, as behind a
   * proxy that blocks WebSockets; with `drop`, the open ones are closed too. Off lets them in again.
   */
  refuse(on: boolean, channel?: 'market' | 'user', drop?: boolean): void;
}

export const CLOSE_BAD_AUTH = 4401;
export const CLOSE_RESTART = 1012;
export const CORRUPT_HASH = '0'.repeat(40);
export const CLOSE_NO_SUBSCRIPTION = 4408;
const MAX_ASSETS = 500;

type Json = Record<string, unknown>;

interface MarketConn {
  assets: Set<string>;
  custom: boolean;
}
interface UserConn {
  owner: string;
  /** Condition ids; empty means every market (as Polymarket). */
  markets: Set<string>;
}

export class ClobWebSocketChannels {
  private readonly wss: WebSocketServer;
  private readonly market = new Map<WebSocket, MarketConn>();
  private readonly user = new Map<WebSocket, UserConn>();
  private readonly onUpgrade: (req: IncomingMessage, socket: Duplex, head: Buffer) => void;
  private held: [WebSocket, unknown][] | undefined;
  private armed = { duplicate: false, swap: false, corrupt: false };
  private readonly swapped = new Map<WebSocket, unknown>();
  private readonly refused = new Set<'market' | 'user'>();
  /** Markets with a fill since their books were last published: those get full `book`s, as Polymarket sends. */
  private readonly traded = new Set<string>();

  readonly faults: WsFaults = {
    stall: () => {
      this.held ??= [];
    },
    resume: (deliver = true) => {
      const held = this.held ?? [];
      this.held = undefined;
      if (deliver) for (const [ws, payload] of held) this.send(ws, payload);
    },
    duplicateNext: () => {
      this.armed.duplicate = true;
    },
    swapNext: () => {
      this.armed.swap = true;
    },
    corruptNextHash: () => {
      this.armed.corrupt = true;
    },
    dropAll: (channel) => {
      for (const [ws] of channel === 'user' ? [] : this.market) ws.close(CLOSE_RESTART, 'server restart');
      for (const [ws] of channel === 'market' ? [] : this.user) ws.close(CLOSE_RESTART, 'server restart');
    },
    refuse: (on, channel, drop = false) => {
      for (const c of channel ? [channel] : (['market', 'user'] as const)) {
        if (on) this.refused.add(c);
        else this.refused.delete(c);
      }
      if (on && drop) this.faults.dropAll(channel);
    },
  };

  constructor(
    private readonly http: Server,
    private readonly backend: ClobWsBackend,
    private readonly options: ClobWsOptions = {},
  ) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: options.maxFrameBytes ?? 64 * 1024 });
    this.onUpgrade = (req, socket, head) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '');
      if (path !== '/ws/market' && path !== '/ws/user') {
        socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      if (this.refused.has(path === '/ws/market' ? 'market' : 'user')) {
        socket.end('HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      // A socket error before the handshake completes must not reach the process as an unhandled 'error'.
      socket.on('error', () => socket.destroy());
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, path === '/ws/market' ? 'market' : 'user'));
    };
    http.on('upgrade', this.onUpgrade);
  }

  /** Closes every connection (the server is stopping). */
  close(): void {
    this.http.off('upgrade', this.onUpgrade);
    for (const ws of this.wss.clients) ws.terminate();
    this.wss.close();
  }

  // ------------------------------------------------------------------ events from the CLOB server

  /**
   * A market's books were published again. After a fill every changed token gets a full `book` (Polymarket: "when
   * there is a trade that affects the book"); otherwise (placements, cancels) each token's change is the diff of
   * its previous and new level lists, so both outcome books move together in one price_change. A token whose hash
   * moved without a level change (tick size) gets a `book` too, so a client's hash never goes stale.
   */
  booksChanged(
    conditionId: string,
    before: readonly (BookSnapshot | undefined)[],
    after: readonly BookSnapshot[],
  ): void {
    const traded = this.traded.delete(conditionId);
    if (this.market.size === 0) return;
    const changes: Json[] = [];
    const resnap: BookSnapshot[] = [];
    const bestMoves: Json[] = [];
    after.forEach((next, i) => {
      const prev = before[i];
      if (prev && prev.hash === next.hash) return;
      const best = bestOf(next);
      const diff = traded
        ? []
        : [...levelChanges(prev?.bids ?? [], next.bids, 'BUY'), ...levelChanges(prev?.asks ?? [], next.asks, 'SELL')];
      if (diff.length === 0) resnap.push(next);
      for (const d of diff)
        changes.push({ asset_id: next.asset_id, ...d, hash: next.hash, best_bid: best.bid, best_ask: best.ask });
      const old = prev ? bestOf(prev) : undefined;
      if (!old || old.bid !== best.bid || old.ask !== best.ask) {
        bestMoves.push({
          event_type: 'best_bid_ask',
          market: conditionId,
          asset_id: next.asset_id,
          best_bid: best.bid,
          best_ask: best.ask,
          spread: spreadOf(best),
          timestamp: next.timestamp,
        });
      }
    });
    const timestamp = after[0]?.timestamp ?? String(Date.now());
    const faults = changes.length ? this.armed : { duplicate: false, swap: false, corrupt: false };
    if (changes.length) this.armed = { duplicate: false, swap: false, corrupt: false };
    for (const [ws, conn] of this.market) {
      const mine = changes
        .filter((c) => conn.assets.has(c.asset_id as string))
        .map((c) => (faults.corrupt ? { ...c, hash: CORRUPT_HASH } : c));
      if (mine.length) {
        const message = { event_type: 'price_change', market: conditionId, price_changes: mine, timestamp };
        if (faults.swap) this.swapped.set(ws, message);
        else {
          this.sendMarket(ws, message);
          if (faults.duplicate) this.sendMarket(ws, message);
          const late = this.swapped.get(ws);
          this.swapped.delete(ws);
          if (late) this.sendMarket(ws, late);
        }
      }
      for (const book of resnap) if (conn.assets.has(book.asset_id)) this.sendMarket(ws, bookMessage(book));
      if (conn.custom) for (const m of bestMoves) if (conn.assets.has(m.asset_id as string)) this.sendMarket(ws, m);
    }
  }

  /** One fill, as each outcome token's tape records it. */
  lastTrade(message: {
    asset_id: string;
    market: string;
    price: string;
    side: 'BUY' | 'SELL';
    size: string;
    timestamp: string;
    fee_rate_bps?: string;
  }): void {
    this.traded.add(message.market);
    for (const [ws, conn] of this.market)
      if (conn.assets.has(message.asset_id))
        this.sendMarket(ws, { event_type: 'last_trade_price', fee_rate_bps: '0', ...message });
  }

  /** A market resolved: subscribers with custom features on get `market_resolved` (docs/protocol.md#clob-websocket-channels). */
  marketResolved(message: {
    market: string;
    assets_ids: string[];
    winning_asset_id: string;
    winning_outcome: string;
    timestamp: string;
  }): void {
    for (const [ws, conn] of this.market) {
      if (conn.custom && message.assets_ids.some((id) => conn.assets.has(id)))
        this.sendMarket(ws, { event_type: 'market_resolved', ...message });
    }
  }

  tickSizeChanged(
    conditionId: string,
    tokenIds: readonly string[],
    oldTick: string,
    newTick: string,
    timestamp: string,
  ): void {
    for (const [ws, conn] of this.market) {
      for (const asset of tokenIds) {
        if (conn.assets.has(asset))
          this.sendMarket(ws, {
            event_type: 'tick_size_change',
            asset_id: asset,
            market: conditionId,
            old_tick_size: oldTick,
            new_tick_size: newTick,
            timestamp,
          });
      }
    }
  }

  /** An order event (PLACEMENT / UPDATE / CANCELLATION) for its owner's connections only. */
  order(owner: string, conditionId: string, message: Json): void {
    for (const [ws, conn] of this.user)
      if (conn.owner === owner && watches(conn, conditionId)) this.send(ws, { event_type: 'order', ...message });
  }

  /** A trade event for each of its owners (taker and makers), each seeing the trade from its own side. */
  trade(owners: readonly string[], conditionId: string, messageFor: (owner: string) => Json): void {
    for (const owner of new Set(owners)) {
      for (const [ws, conn] of this.user)
        if (conn.owner === owner && watches(conn, conditionId))
          this.send(ws, { event_type: 'trade', ...messageFor(owner) });
    }
  }

  // ------------------------------------------------------------------ connections

  private accept(ws: WebSocket, channel: 'market' | 'user'): void {
    const idle = setTimeout(() => {
      if (!this.market.has(ws) && !this.user.has(ws)) ws.close(CLOSE_NO_SUBSCRIPTION, 'no subscription');
    }, this.options.subscribeTimeoutMs ?? 30_000);
    idle.unref();
    // A peer that vanishes or sends an oversized frame ends only its own connection.
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      clearTimeout(idle);
      this.swapped.delete(ws);
      this.market.delete(ws);
      this.user.delete(ws);
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      try {
        const text = isBinary ? undefined : rawText(data);
        if (text === undefined) return this.error(ws, 'binary frames are not accepted: send JSON text');
        if (text.trim().toUpperCase() === 'PING') return void ws.send('PONG');
        let message: unknown;
        try {
          message = JSON.parse(text);
        } catch {
          return this.error(ws, 'invalid JSON');
        }
        if (!message || typeof message !== 'object' || Array.isArray(message))
          return this.error(ws, 'a message is a JSON object');
        if (channel === 'market') this.onMarketMessage(ws, message as Json);
        else this.onUserMessage(ws, message as Json);
      } catch (error) {
        // Never crash the server on a frame: the sender gets an error object.
        console.error('[sandbox clob ws]', error);
        this.error(ws, 'internal error');
      }
    });
  }

  private onMarketMessage(ws: WebSocket, message: Json): void {
    const ids = message.assets_ids;
    if (!Array.isArray(ids) || ids.length > MAX_ASSETS || ids.some((id) => typeof id !== 'string')) {
      return this.error(ws, `assets_ids must be a list of at most ${MAX_ASSETS} token ids`);
    }
    const operation = message.operation;
    const type = typeof message.type === 'string' ? message.type.toLowerCase() : undefined;
    if (operation !== undefined && operation !== 'subscribe' && operation !== 'unsubscribe')
      return this.error(ws, 'operation must be subscribe or unsubscribe');
    if (operation === undefined && type !== 'market')
      return this.error(ws, 'type must be "market" (or send an operation)');
    let conn = this.market.get(ws);
    if (!conn) {
      conn = { assets: new Set(), custom: false };
      this.market.set(ws, conn);
    }
    if (message.custom_feature_enabled === true) conn.custom = true;
    if (operation === 'unsubscribe') {
      for (const id of ids as string[]) conn.assets.delete(id);
      return;
    }
    const unknown: string[] = [];
    const books: Json[] = [];
    for (const id of ids as string[]) {
      const book = this.backend.book(id);
      if (!book) {
        unknown.push(id);
        continue;
      }
      conn.assets.add(id);
      books.push(bookMessage(book));
    }
    if (unknown.length) this.error(ws, `unknown asset ids: ${unknown.slice(0, 10).join(', ')}`);
    // Polymarket sends the initial dump as one array of book messages.
    if (message.initial_dump !== false && books.length) this.sendMarket(ws, books);
  }

  private onUserMessage(ws: WebSocket, message: Json): void {
    const markets = message.markets ?? [];
    if (!Array.isArray(markets) || markets.length > MAX_ASSETS || markets.some((m) => typeof m !== 'string')) {
      return this.error(ws, `markets must be a list of at most ${MAX_ASSETS} condition ids`);
    }
    const conn = this.user.get(ws);
    if (!conn) {
      // The first message authenticates; anything short of all three matching credentials ends the connection.
      const auth = message.auth as Json | undefined;
      const apiKey = typeof auth?.apiKey === 'string' ? auth.apiKey : '';
      const creds = this.backend.credentials(apiKey);
      if (!creds || !sameText(creds.secret, auth?.secret) || !sameText(creds.passphrase, auth?.passphrase)) {
        ws.close(CLOSE_BAD_AUTH, 'invalid credentials');
        return;
      }
      if (typeof message.type === 'string' && message.type.toLowerCase() !== 'user')
        return this.error(ws, 'type must be "user"');
      this.user.set(ws, { owner: apiKey, markets: new Set(markets as string[]) });
      return;
    }
    if (message.operation === 'subscribe') for (const m of markets as string[]) conn.markets.add(m);
    else if (message.operation === 'unsubscribe') for (const m of markets as string[]) conn.markets.delete(m);
    else this.error(ws, 'already subscribed: send an operation (subscribe or unsubscribe)');
  }

  /** Market-channel events go through here, where a stall can hold them. */
  private sendMarket(ws: WebSocket, payload: unknown): void {
    if (this.held) this.held.push([ws, payload]);
    else this.send(ws, payload);
  }

  private send(ws: WebSocket, payload: unknown): void {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > (this.options.maxBufferedBytes ?? 8 * 1024 * 1024)) {
      // A close frame would queue behind what it is not reading: end the socket.
      ws.terminate();
      return;
    }
    if (this.batching) this.corkUntilTickEnd(ws);
    ws.send(JSON.stringify(payload));
  }

  private readonly corked = new Set<WebSocket>();
  private batching = false;

  /**
   * Runs `publish` with its messages held to the end of this turn of the loop, then sent in one write per socket:
   * the benches' busy books (ClobServer.publishBooks) publish thousands a second, and a write (a system call) each
   * was most of what the exchange cost on the two cores it shares with the terminal in bench/ui-latency.ts. Each
   * message is still a frame of its own. Only there: the engine's own updates still leave at once, before the
   * answer to the order that caused them, as clients of the sandbox have always seen them.
   */
  inOneWrite(publish: () => void): void {
    const was = this.batching;
    this.batching = true;
    try {
      publish();
    } finally {
      this.batching = was;
    }
  }

  private corkUntilTickEnd(ws: WebSocket): void {
    const socket = (ws as unknown as { _socket?: { cork(): void; uncork(): void } })._socket;
    if (!socket || this.corked.has(ws)) return;
    this.corked.add(ws);
    socket.cork();
    process.nextTick(() => {
      this.corked.delete(ws);
      socket.uncork();
    });
  }

  private error(ws: WebSocket, error: string): void {
    this.send(ws, { event_type: 'error', error });
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as Buffer).toString('utf8');
}

function sameText(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function watches(conn: UserConn, conditionId: string): boolean {
  return conn.markets.size === 0 || conn.markets.has(conditionId);
}

/**
 * GET /book's summary with `event_type` in front, its fields in GET /book's order: without `event_type` the message
 * hashes to its own `hash`, so a client can check later deltas by recomputing the hash itself.
 */
function bookMessage(book: BookSnapshot): Json {
  return { event_type: 'book', ...book };
}

/** Best bid and ask as decimal strings; "" for an empty side. The CLOB lists the best level last. */
function bestOf(book: BookSnapshot): { bid: string; ask: string } {
  return { bid: book.bids.at(-1)?.price ?? '', ask: book.asks.at(-1)?.price ?? '' };
}

function spreadOf(best: { bid: string; ask: string }): string {
  if (!best.bid || !best.ask) return '';
  return String(Number((Number(best.ask) - Number(best.bid)).toFixed(4)));
}
