// The exchange's market WebSocket (`${wsUrl}/market`, docs/protocol.md#clob-websocket-channels) kept as one live book per
// subscribed outcome token: snapshots from `book`, deltas from `price_change`, checked by hash and resynced
// from REST `GET /book` on any doubt, kept alive with PING, reconnected with backoff, handed out coalesced.
import WebSocket from 'ws';
import { WS_HANDSHAKE_TIMEOUT_MS, WS_MAX_MESSAGE_BYTES } from '@pmdesk/toolkit';
import { orderBookHash } from '@pmdesk/toolkit';
import { BookState, type LevelText } from './book-state';
import { Coalescer, FRAME_MS } from './coalescer';
import type { Book } from '../../shared/book';
import type { FrameClock } from './frame-clock';
import { BusyMarkets } from './busy-markets';
import { Redial, type FeedSource, type RedialOptions } from './redial';
import { realScheduler, type Scheduler } from './scheduler';

export type MarketFeedState = 'connecting' | 'live' | 'stale' | 'reconnecting' | 'closed';

/** What GET /book answers (the fields the feed reads; the rest are kept for the hash). */
export interface RestBook {
  market?: string;
  asset_id?: string;
  timestamp?: string | number;
  hash?: string;
  bids: LevelText[];
  asks: LevelText[];
  tick_size?: string | number;
  [field: string]: unknown;
}

/** The book's integers are millionths (book-state.ts). */
const MILLION = 1_000_000;

/** A book as handed to the app: the one Book shape (numbers, best level first, at most `depth` a side). */
export type BookView = Book & { stale: boolean };

export interface LastTrade {
  tokenId: string;
  market: string;
  price: number;
  size: number;
  side: string;
  /** Server time, ms. */
  timestamp: number;
}

export type FeedWarning =
  | { kind: 'tick_size_change'; tokenId: string; market: string; oldTickSize: string; newTickSize: string }
  | { kind: 'resync'; tokenId: string; reason: string }
  | { kind: 'resync_failed'; tokenId: string; reason: string }
  | { kind: 'market_resolved'; tokenId: string; market: string };

export interface MarketFeedHandlers {
  onBook?: (view: BookView) => void;
  onState?: (state: MarketFeedState) => void;
  onTrade?: (trade: LastTrade) => void;
  onWarning?: (warning: FeedWarning) => void;
  /** A book went stale (no message for `staleMs`) or came back. */
  onStale?: (tokenId: string, stale: boolean) => void;
  /** `best_bid_ask`, `new_market`, `market_resolved` and anything else the channel offers, as sent. */
  onOther?: (message: Record<string, unknown>) => void;
  /** Books now come from the socket (`live`), or from GET /book polls while the socket cannot be reached. */
  onSource?: (source: FeedSource) => void;
  /** While polling: the exchange's REST stopped answering (`false`: no book could be read) or answers again. */
  onReachable?: (reachable: boolean) => void;
}

export type WebSocketConstructor = new (url: string, options?: WebSocket.ClientOptions) => WebSocket;

export interface MarketFeedOptions extends RedialOptions {
  /** The profile's wsUrl (`ws://host:port/ws`); the feed connects to `${wsUrl}/market`. */
  wsUrl: string;
  /** REST GET /book for one token: the truth the feed falls back on when in doubt. */
  fetchBook: (tokenId: string) => Promise<RestBook>;
  handlers?: MarketFeedHandlers;
  WebSocket?: WebSocketConstructor;
  scheduler?: Scheduler;
  /** Levels a side in each update (10 unless told). */
  depth?: number;
  /** A book with no message this long is stale; a connection silent this long (no PONG either) too. */
  staleMs?: number;
  frameMs?: number;
  /** Where the window's frames are: books go out just before one begins (feeds/frame-clock.ts). */
  frameClock?: FrameClock;
}

interface Asset {
  book: BookState;
  market: string;
  tickSize?: string;
  /** Whether a snapshot arrived since the asset was (re)subscribed on this connection. */
  hasBook: boolean;
  /** The snapshot's fields in the server's order, when its own hash could be recomputed from them. */
  hashTemplate: Record<string, unknown> | null;
  /**
   * The last GET /book whose hash recomputed: its fields (min_order_size, tick_size…) complete a WebSocket
   * snapshot that omits them, as the exchange hashes the full summary while the channel sends only part of it.
   */
  restTemplate: Record<string, unknown> | null;
  /** Whether GET /book was already asked once for a template (never more than once per token). */
  askedTemplate: boolean;
  /** Failed resyncs in a row, and when the next may be tried: a REST outage is not hammered once per message. */
  failedResyncs: number;
  retryAt: number;
  /** Recent hashes, to tell a replayed message from one that came out of order. */
  seenHashes: string[];
  lastMessageAt: number;
  stale: boolean;
  /** While a REST resync runs: changes that arrived meanwhile, replayed after it when newer. */
  resyncing: { timestamp: number; changes: [string, string, string][] }[] | null;
  /**
   * The last change's hash, not checked yet: the book is hashed when it is handed out (at most once a frame), not
   * on every message of a burst (hashing a deep book costs far more than applying a change). The hashed fields
   * are copied as they were at that change (a later last trade or tick change must not count).
   */
  unchecked?: { hash: string; fields: Record<string, unknown> };
}

interface PriceChange {
  asset_id: string;
  price: string;
  size: string;
  side: 'BUY' | 'SELL';
  hash?: string;
}

const SEEN_HASHES = 32;

export class MarketFeed {
  private readonly assets = new Map<string, Asset>();
  private readonly scheduler: Scheduler;
  private readonly coalescer: Coalescer<string>;
  private readonly busyMarkets = new BusyMarkets();
  private readonly handlers: MarketFeedHandlers;
  private readonly WebSocketImpl: WebSocketConstructor;
  private socket: WebSocket | undefined;
  private socketSubscribed = false;
  private stateValue: MarketFeedState = 'closed';
  private started = false;
  private readonly redial: Redial;
  private staleTimer: unknown;
  private lastHeardAt = 0;
  private reachable: boolean | null = true;
  /** Messages handled (for tests and benchmarks that wait on the feed rather than on the clock). */
  messages = 0;
  pingsSent = 0;
  pongs = 0;
  resyncs = 0;

  constructor(private readonly options: MarketFeedOptions) {
    this.scheduler = options.scheduler ?? realScheduler;
    this.handlers = options.handlers ?? {};
    this.WebSocketImpl = options.WebSocket ?? WebSocket;
    // Leading edge: a change to a quiet book is drawn at once, not a frame later (issue 18's message-to-pixel).
    // Aligned to the window's frames when it said where they are: at least half a frame after the last hand-out,
    // or a frame and a half while several busy markets share the frames (feeds/busy-markets.ts).
    const frameClock = options.frameClock;
    const frameMs = options.frameMs ?? FRAME_MS;
    const nextFrameIn = () => {
      const now = this.scheduler.now();
      const apart = this.busyMarkets.framesApart(now);
      return (
        frameClock?.nextSendIn(now, frameMs / 2 + (apart - 1) * frameMs) ?? (apart > 1 ? apart * frameMs : undefined)
      );
    };
    this.coalescer = new Coalescer((tokenId) => this.emitBook(tokenId), this.scheduler, frameMs, true, nextFrameIn);
    this.redial = new Redial(this.scheduler, options, (source) => {
      if (source === 'polling') this.reachable = null;
      this.handlers.onSource?.(source);
    });
  }

  get state(): MarketFeedState {
    return this.stateValue;
  }

  /** `polling` while the socket is unreachable and each book is read from GET /book every `pollMs` instead. */
  get source(): FeedSource {
    return this.redial.source;
  }

  /**
   * False while polling and no GET /book of the last round answered: the books are unknown, not just slow; null
   * from the start of polling until its first round is over (neither is known yet).
   */
  get exchangeReachable(): boolean | null {
    return this.reachable;
  }

  /** Rounds of GET /book read while the socket was unreachable. */
  get polls(): number {
    return this.redial.polls;
  }

  get url(): string {
    return `${this.options.wsUrl.replace(/\/+$/, '')}/market`;
  }

  /** Opens the connection (subscribing whatever was asked for already). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.connect('connecting');
  }

  subscribe(tokenIds: readonly string[]): void {
    const fresh = tokenIds.filter((t) => !this.assets.has(t));
    for (const tokenId of fresh) this.assets.set(tokenId, this.newAsset());
    if (fresh.length > 0) this.redial.pollNow();
    if (fresh.length === 0 || !this.isOpen()) return;
    if (this.socketSubscribed) this.send({ assets_ids: fresh, operation: 'subscribe' });
    else this.sendInitialSubscribe();
  }

  unsubscribe(tokenIds: readonly string[]): void {
    const gone = tokenIds.filter((t) => this.assets.delete(t));
    for (const tokenId of gone) this.coalescer.forget(tokenId);
    if (gone.length > 0 && this.isOpen() && this.socketSubscribed)
      this.send({ assets_ids: gone, operation: 'unsubscribe' });
  }

  subscribed(): string[] {
    return [...this.assets.keys()];
  }

  /** The current book of one token (all levels), or undefined before its first snapshot. */
  book(tokenId: string, depth = this.options.depth ?? 10): BookView | undefined {
    const asset = this.assets.get(tokenId);
    return asset?.hasBook && this.checked(tokenId, asset) ? this.viewOf(tokenId, asset, depth) : undefined;
  }

  /**
   * The token's whole book as the exchange lists it (decimal strings, best level last), only while the socket keeps
   * it live and each change is checked against the exchange's hash: undefined before its snapshot, while it is
   * resynced, stale, polled instead, or not checked by hash. What a market order made ready is priced from, and
   * checked against at the click (docs/decisions/0036-ready-market-orders-priced-from-the-live-book.md).
   */
  exchangeBook(tokenId: string): { bids: LevelText[]; asks: LevelText[] } | undefined {
    const asset = this.assets.get(tokenId);
    if (!asset?.hasBook || asset.resyncing || asset.stale || !asset.hashTemplate) return undefined;
    if (this.stateValue !== 'live' || this.redial.source !== 'live' || !this.checked(tokenId, asset)) return undefined;
    return asset.book.toLevels();
  }

  /** Whether this token's changes are checked by hash (its snapshot's hash could be recomputed). */
  hashChecked(tokenId: string): boolean {
    return Boolean(this.assets.get(tokenId)?.hashTemplate);
  }

  close(): void {
    this.started = false;
    this.redial.close();
    this.clearStaleTimer();
    this.coalescer.close();
    const socket = this.socket;
    this.socket = undefined;
    socket?.removeAllListeners();
    socket?.on('error', () => undefined);
    socket?.terminate();
    this.setState('closed');
  }

  // ---- connection ------------------------------------------------------------------------------

  private connect(state: MarketFeedState): void {
    this.setState(state);
    // A handshake that never finishes is as silent as a dead connection: bounded by the same stale time, at most 10 s.
    const handshakeTimeout = Math.min(WS_HANDSHAKE_TIMEOUT_MS, this.options.staleMs ?? WS_HANDSHAKE_TIMEOUT_MS);
    const socket = new this.WebSocketImpl(this.url, { maxPayload: WS_MAX_MESSAGE_BYTES, handshakeTimeout });
    this.socket = socket;
    this.socketSubscribed = false;
    let opened = false;
    socket.on('open', () => {
      if (this.socket !== socket) return;
      opened = true;
      this.lastHeardAt = this.scheduler.now();
      // Every book is rebuilt from the snapshots of this connection: what came before may have a gap. A REST
      // resync that failed during the outage must not hold the next one back: the cooldown starts afresh.
      for (const asset of this.assets.values()) {
        asset.hasBook = false;
        asset.failedResyncs = 0;
        asset.retryAt = 0;
      }
      if (this.assets.size > 0) this.sendInitialSubscribe();
      this.redial.ping(() => {
        if (!this.isOpen()) return false;
        this.socket!.send('PING');
        this.pingsSent++;
        return true;
      });
      this.scheduleStaleCheck();
      this.setState('live');
      // After the state: a listener never hears "connecting" between polled books and the socket's.
      this.redial.opened();
      this.setReachable(true);
    });
    socket.on('message', (data, isBinary) => {
      if (this.socket !== socket) return;
      this.lastHeardAt = this.scheduler.now();
      this.redial.heard();
      if (this.stateValue === 'stale') this.setState('live');
      this.onMessage(isBinary ? '' : String(data));
    });
    socket.on('error', () => undefined); // 'close' follows and decides
    socket.on('close', () => {
      if (this.socket !== socket) return;
      this.socket = undefined;
      this.redial.clearTimers();
      this.clearStaleTimer();
      if (!this.started) return;
      this.setState('reconnecting');
      this.redial.closed(
        opened,
        () => {
          if (this.started) this.connect('reconnecting');
        },
        () => this.pollRound(),
      );
    });
  }

  /**
   * The socket cannot be reached (a proxy that blocks WebSockets, an outage of the channel only): one round of
   * GET /book for every subscribed token, so the ladder keeps moving, slower but never stale, until a connect
   * works. Nothing to read (no token subscribed): no round.
   */
  private pollRound(): Promise<void> | undefined {
    if (!this.started || this.assets.size === 0) return undefined;
    const reads = [...this.assets].map(([tokenId, asset]) =>
      this.options.fetchBook(tokenId).then(
        (book) => {
          if (this.redial.source !== 'polling' || this.assets.get(tokenId) !== asset) return true;
          const wasStale = asset.stale;
          this.touch(tokenId);
          // An unchanged book is not handed out again (unless it was out as stale: it is known again).
          if (asset.hasBook && book.hash && book.hash === asset.book.hash) {
            if (wasStale) this.coalescer.mark(tokenId);
            return true;
          }
          asset.resyncing = null;
          if (book.hash && orderBookHash(book) === book.hash) asset.restTemplate = { ...book };
          this.takeSnapshot(tokenId, asset, book);
          return true;
        },
        () => {
          // The next round asks again; the last book stays on screen meanwhile, marked stale: it is unknown now.
          if (this.redial.source === 'polling' && this.assets.get(tokenId) === asset && !asset.stale) {
            asset.stale = true;
            this.handlers.onStale?.(tokenId, true);
            if (asset.hasBook) this.coalescer.mark(tokenId);
          }
          return false;
        },
      ),
    );
    return Promise.all(reads).then((answered) => {
      if (this.redial.source === 'polling') this.setReachable(answered.some(Boolean));
    });
  }

  private scheduleStaleCheck(): void {
    const staleMs = this.options.staleMs ?? 30_000;
    this.staleTimer = this.scheduler.setTimeout(
      () => {
        this.staleTimer = undefined;
        const now = this.scheduler.now();
        for (const [tokenId, asset] of this.assets) {
          if (!asset.stale && now - asset.lastMessageAt >= staleMs) {
            asset.stale = true;
            this.handlers.onStale?.(tokenId, true);
            if (asset.hasBook) this.coalescer.mark(tokenId);
          }
        }
        const silent = now - this.lastHeardAt;
        if (silent >= 2 * staleMs) {
          // Not even a PONG for this long: the connection is dead without having said so.
          this.socket?.terminate();
          return;
        }
        if (silent >= staleMs && this.stateValue === 'live') this.setState('stale');
        this.scheduleStaleCheck();
      },
      Math.max(1, Math.floor(staleMs / 4)),
    );
  }

  private clearStaleTimer(): void {
    if (this.staleTimer !== undefined) this.scheduler.clearTimeout(this.staleTimer);
    this.staleTimer = undefined;
  }

  private isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  private send(message: unknown): void {
    this.socket?.send(JSON.stringify(message));
  }

  private sendInitialSubscribe(): void {
    this.send({ assets_ids: [...this.assets.keys()], type: 'market', custom_feature_enabled: true });
    this.socketSubscribed = true;
  }

  private setReachable(reachable: boolean): void {
    if (this.reachable === reachable) return;
    this.reachable = reachable;
    this.handlers.onReachable?.(reachable);
  }

  private setState(state: MarketFeedState): void {
    if (this.stateValue === state) return;
    this.stateValue = state;
    this.handlers.onState?.(state);
  }

  private newAsset(): Asset {
    return {
      book: new BookState(),
      market: '',
      hasBook: false,
      hashTemplate: null,
      restTemplate: null,
      askedTemplate: false,
      failedResyncs: 0,
      retryAt: 0,
      seenHashes: [],
      lastMessageAt: this.scheduler.now(),
      stale: false,
      resyncing: null,
    };
  }

  // ---- messages --------------------------------------------------------------------------------

  private onMessage(text: string): void {
    if (text === 'PONG') {
      this.pongs++; // the connection is alive (already noted as heard): books may still be quiet
      return;
    }
    if (text === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return; // not JSON (a server notice): nothing to apply
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      if (!message || typeof message !== 'object') continue;
      this.messages++;
      try {
        this.onEvent(message as Record<string, unknown>);
      } catch (error) {
        // A message the book cannot take (a bad price) is a doubt like any other: resync what it touched.
        const tokenId = (message as { asset_id?: unknown }).asset_id;
        if (typeof tokenId === 'string') this.resync(tokenId, `unreadable message: ${(error as Error).message}`);
      }
    }
  }

  private touch(tokenId: string): Asset | undefined {
    const asset = this.assets.get(tokenId);
    if (!asset) return undefined;
    asset.lastMessageAt = this.scheduler.now();
    if (asset.stale) {
      asset.stale = false;
      this.handlers.onStale?.(tokenId, false);
    }
    return asset;
  }

  private onEvent(message: Record<string, unknown>): void {
    switch (message.event_type) {
      case 'book':
        return this.onBookMessage(message);
      case 'price_change':
        return this.onPriceChange(message);
      case 'last_trade_price': {
        const tokenId = String(message.asset_id);
        const asset = this.touch(tokenId);
        if (!asset) return;
        // The exchange's summary carries the last trade's price, so the hash of the next change covers it.
        if (asset.hashTemplate && 'last_trade_price' in asset.hashTemplate)
          asset.hashTemplate.last_trade_price = String(message.price);
        this.handlers.onTrade?.({
          tokenId,
          market: String(message.market ?? ''),
          price: Number(message.price),
          size: Number(message.size),
          side: String(message.side ?? ''),
          timestamp: Number(message.timestamp),
        });
        return;
      }
      case 'tick_size_change': {
        const tokenId = String(message.asset_id);
        const asset = this.touch(tokenId);
        if (!asset) return;
        asset.tickSize = String(message.new_tick_size);
        if (asset.hashTemplate && 'tick_size' in asset.hashTemplate) asset.hashTemplate.tick_size = asset.tickSize;
        this.handlers.onWarning?.({
          kind: 'tick_size_change',
          tokenId,
          market: String(message.market ?? asset.market),
          oldTickSize: String(message.old_tick_size),
          newTickSize: asset.tickSize,
        });
        if (asset.hasBook) this.coalescer.mark(tokenId);
        return;
      }
      case 'market_resolved': {
        const ids = Array.isArray(message.assets_ids) ? message.assets_ids : [message.asset_id];
        for (const id of ids)
          if (typeof id === 'string' && this.touch(id))
            this.handlers.onWarning?.({ kind: 'market_resolved', tokenId: id, market: String(message.market ?? '') });
        this.handlers.onOther?.(message);
        return;
      }
      default:
        if (typeof message.asset_id === 'string') this.touch(message.asset_id);
        this.handlers.onOther?.(message);
    }
  }

  private onBookMessage(message: Record<string, unknown>): void {
    const tokenId = String(message.asset_id);
    const asset = this.touch(tokenId);
    if (!asset) return;
    const timestamp = Number(message.timestamp);
    const hash = typeof message.hash === 'string' ? message.hash : '';
    if (asset.hasBook && this.isOld(asset, timestamp, hash)) return;
    // A snapshot from the channel supersedes a GET /book still on its way (which may answer an older book), and
    // the changes queued meanwhile are older than it.
    asset.resyncing = null;
    const { event_type: _eventType, ...summary } = message;
    void _eventType;
    this.takeSnapshot(tokenId, asset, summary as RestBook);
  }

  /** A message older than the book: a replay (its hash seen) is dropped quietly; anything else is a doubt. */
  private isOld(asset: Asset, timestamp: number, hash: string, tokenId?: string): boolean {
    if (timestamp > asset.book.timestamp) return false;
    const seen = hash !== '' && asset.seenHashes.includes(hash);
    if (timestamp === asset.book.timestamp && !seen) return false; // same millisecond, new content
    if (!seen && tokenId) this.resync(tokenId, 'a change arrived out of order');
    return true;
  }

  private takeSnapshot(tokenId: string, asset: Asset, summary: RestBook): void {
    asset.unchecked = undefined;
    asset.book.applySnapshot({
      bids: summary.bids ?? [],
      asks: summary.asks ?? [],
      hash: summary.hash,
      timestamp: summary.timestamp,
    });
    asset.market = String(summary.market ?? asset.market);
    if (summary.tick_size !== undefined) asset.tickSize = String(summary.tick_size);
    asset.hasBook = true;
    // The hash can be checked on later changes only if this snapshot's own hash comes out of its fields (or
    // out of them completed by the last GET /book's).
    asset.hashTemplate = this.templateFor(asset, summary);
    if (!asset.hashTemplate && summary.hash && !asset.askedTemplate) this.learnTemplate(tokenId, asset);
    this.remember(asset, asset.book.hash);
    if (asset.book.crossed) {
      this.resync(tokenId, 'the snapshot is crossed');
      return;
    }
    this.coalescer.mark(tokenId);
  }

  private templateFor(asset: Asset, summary: RestBook): Record<string, unknown> | null {
    if (!summary.hash) return null;
    if (orderBookHash(summary) === summary.hash) return { ...summary };
    if (!asset.restTemplate) return null;
    const completed = { ...asset.restTemplate, timestamp: summary.timestamp, bids: summary.bids, asks: summary.asks };
    return orderBookHash(completed) === summary.hash ? completed : null;
  }

  /** Reads GET /book once to learn the fields the exchange hashes; the book itself stays the channel's. */
  private learnTemplate(tokenId: string, asset: Asset): void {
    asset.askedTemplate = true;
    void this.options.fetchBook(tokenId).then(
      (rest) => {
        if (this.assets.get(tokenId) !== asset || !rest.hash || orderBookHash(rest) !== rest.hash) return;
        asset.restTemplate = { ...rest };
        // The channel's snapshot has no tick size; the ticket needs one before any tick_size_change says so.
        if (asset.tickSize === undefined && rest.tick_size !== undefined) {
          asset.tickSize = String(rest.tick_size);
          if (asset.hasBook) this.coalescer.mark(tokenId);
        }
        if (asset.hashTemplate || !asset.hasBook) return;
        const levels = asset.book.toLevels();
        asset.hashTemplate = this.templateFor(asset, {
          bids: levels.bids,
          asks: levels.asks,
          timestamp: String(asset.book.timestamp),
          hash: asset.book.hash,
        });
      },
      () => undefined, // no template: changes are still checked for crossing and order, only not by hash
    );
  }

  private remember(asset: Asset, hash: string): void {
    if (!hash) return;
    asset.seenHashes.push(hash);
    if (asset.seenHashes.length > SEEN_HASHES) asset.seenHashes.shift();
  }

  private onPriceChange(message: Record<string, unknown>): void {
    const timestamp = Number(message.timestamp);
    const changes = Array.isArray(message.price_changes) ? (message.price_changes as PriceChange[]) : [];
    const byAsset = new Map<string, PriceChange[]>();
    for (const change of changes) {
      const list = byAsset.get(change.asset_id);
      if (list) list.push(change);
      else byAsset.set(change.asset_id, [change]);
    }
    for (const [tokenId, list] of byAsset) {
      const asset = this.touch(tokenId);
      if (!asset) continue;
      if (asset.resyncing) {
        asset.resyncing.push({ timestamp, changes: list.map((c) => [c.side, c.price, c.size]) });
        continue;
      }
      if (!asset.hasBook) {
        this.resync(tokenId, 'a change arrived before any snapshot');
        continue;
      }
      const lastHash = list.at(-1)?.hash ?? '';
      if (this.isOld(asset, timestamp, lastHash, tokenId)) continue;
      for (const change of list) asset.book.applyChange(change.side, change.price, change.size);
      asset.book.timestamp = timestamp;
      asset.book.hash = lastHash;
      this.remember(asset, lastHash);
      // The server's hash is of the book after all of this message's changes to the token: checked when the
      // book is handed out (checked()), against the newest change's hash; a crossed book is caught at once.
      asset.unchecked =
        asset.hashTemplate && lastHash
          ? { hash: lastHash, fields: { ...asset.hashTemplate, timestamp: String(message.timestamp) } }
          : undefined;
      if (asset.book.crossed) this.resync(tokenId, 'the book crossed');
      else this.coalescer.mark(tokenId);
    }
  }

  /**
   * Whether the book may be handed out: its newest change's hash (if not checked yet) is the book's own. The
   * hash covers the whole book, so a book that matches its newest hash is right whatever the changes before it
   * were; one that does not is resynced and not handed out.
   */
  private checked(tokenId: string, asset: Asset): boolean {
    const pending = asset.unchecked;
    if (!pending) return true;
    asset.unchecked = undefined;
    const levels = asset.book.toLevels();
    if (orderBookHash({ ...pending.fields, bids: levels.bids, asks: levels.asks }) === pending.hash) return true;
    this.resync(tokenId, 'hash mismatch');
    return false;
  }

  /** Replaces a doubted book with GET /book, then replays any change that arrived meanwhile and is newer. */
  private resync(tokenId: string, reason: string): void {
    const asset = this.assets.get(tokenId);
    if (!asset || asset.resyncing || this.scheduler.now() < asset.retryAt) return;
    const pending: NonNullable<Asset['resyncing']> = [];
    asset.resyncing = pending;
    this.resyncs++;
    this.handlers.onWarning?.({ kind: 'resync', tokenId, reason });
    void this.options.fetchBook(tokenId).then(
      (book) => {
        if (this.assets.get(tokenId) !== asset || asset.resyncing !== pending) return;
        const queued = pending;
        asset.resyncing = null;
        asset.failedResyncs = 0;
        asset.retryAt = 0;
        if (book.hash && orderBookHash(book) === book.hash) asset.restTemplate = { ...book };
        this.takeSnapshot(tokenId, asset, book);
        for (const { timestamp, changes } of queued) {
          if (timestamp <= asset.book.timestamp) continue;
          for (const [side, price, size] of changes) asset.book.applyChange(side as 'BUY' | 'SELL', price, size);
          asset.book.timestamp = timestamp;
        }
        this.coalescer.mark(tokenId);
      },
      (error: unknown) => {
        if (this.assets.get(tokenId) !== asset || asset.resyncing !== pending) return;
        asset.resyncing = null;
        // The book is not trusted until a snapshot arrives; a change after the cooldown asks again.
        asset.hasBook = false;
        asset.retryAt = this.scheduler.now() + Math.min(30_000, 1_000 * 2 ** asset.failedResyncs);
        asset.failedResyncs++;
        this.handlers.onWarning?.({
          kind: 'resync_failed',
          tokenId,
          reason: error instanceof Error ? error.message : String(error),
        });
      },
    );
  }

  private viewOf(tokenId: string, asset: Asset, depth: number): BookView {
    const view = asset.book.view(depth);
    // Millionths to numbers by one division each: the same double as parsing the decimal text would give.
    const numbers = (levels: { price: number; size: number }[]) =>
      levels.map((l) => ({ price: l.price / MILLION, size: l.size / MILLION }));
    return {
      tokenId,
      market: asset.market,
      bids: numbers(view.bids),
      asks: numbers(view.asks),
      hash: asset.book.hash,
      timestamp: asset.book.timestamp,
      ...(asset.tickSize !== undefined ? { tickSize: asset.tickSize } : {}),
      stale: asset.stale,
    };
  }

  private emitBook(tokenId: string): void {
    const asset = this.assets.get(tokenId);
    if (!asset?.hasBook || asset.resyncing || !this.checked(tokenId, asset)) return;
    this.busyMarkets.handedOut(asset.market, this.scheduler.now());
    this.handlers.onBook?.(this.viewOf(tokenId, asset, this.options.depth ?? 10));
  }
}
