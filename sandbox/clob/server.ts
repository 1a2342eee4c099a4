// The sandbox's CLOB server: Polymarket's exchange REST protocol on 127.0.0.1 with its real rules (L1/L2 auth,
// EIP-712 order signatures checked with ethers against the right exchange, tick, size, precision, balance and
// allowance on the chain), the matching engine, and settlement ON the chain by the operator's matchOrders.
// Bots of the market simulator use the same path in-process through placeOrder/cancelOrders.
import { randomUUID } from 'node:crypto';
import { rename } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Contract, TypedDataEncoder, Wallet, getAddress, type JsonRpcProvider } from 'ethers';
import { compileContracts } from '../chain/compile';
import { TX_OVERRIDES, sandboxProvider, type Deployment } from '../chain/deploy';
import { ORDER_TYPES as TYPED_ORDER, exchangeDomain, signedMessage, type ExchangeOrder } from '../chain/order-typed-data';
import type { Catalog, CatalogMarket } from '../market/catalog';
import type { MarketData } from '../market/market-data';
import { controlsAddress, fundsHolder, signatureRefusal } from './accounts';
import { AuthError, deriveCredentials, verifyL1, verifyL2, type ApiCredentials } from './auth';
import { bookSnapshot, priceString, sharesString } from './book-snapshot';
import { MarketBook, PRICE_ONE, type Fill, type OrderType, type RestingOrder } from './engine';
import { ClobWebSocketChannels, type ClobWsOptions, type WsFaults } from './ws';
import { ClobPublicTrades } from './public-trades';
import { OrderRejected, formatUnits, orderTerms, parseOrderBody, reservedAmount, settlementPlan, type OrderTerms, type PlanOrder } from './order-rules';
import { CLOB_STATE_VERSION, big, loadOrder, loadResting, readClobState, saveOrder, saveResting, writeClobState, type SavedClobState } from './state-file';

export const INITIAL_CURSOR = 'MA==';
export const END_CURSOR = 'LTE=';
/** GTD orders must live at least this long (Polymarket: "invalid expiration"). */
export const GTD_MIN_LIFETIME_SECONDS = 60;
const DEFAULT_MAX_BODY_BYTES = 1_000_000;
const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

export interface ClobServerOptions {
  deployment: Deployment;
  catalog: Catalog;
  marketData: MarketData;
  /** Seeds API key derivation: the same secret derives the same keys on every start. */
  serverSecret?: string;
  host?: string;
  port?: number;
  /** Clock in milliseconds (auth windows, GTD expiry, trade times). */
  now?: () => number;
  /** Once an owner has sent a heartbeat, silence this long cancels its orders. Polymarket: 10 s. */
  heartbeatTimeoutMs?: number;
  /** Rows per page of every paged list. */
  pageSize?: number;
  maxBodyBytes?: number;
  /**
   * How many finished orders (matched or cancelled) and trades stay readable; older ones are forgotten so a
   * long simulation does not grow without end. A forgotten order's id is still refused if posted again.
   */
  retain?: { orders?: number; trades?: number };
  /**
   * Keep API keys, orders, trades and notifications in this file (the sandbox's data folder): loaded at start,
   * saved at most every `saveIntervalMs` after a change and on stop. Without it nothing is written.
   */
  stateFile?: string;
  saveIntervalMs?: number;
  /**
   * How many finished orders and trades (the newest) the state file keeps: bounded so a long simulation does not
   * write tens of megabytes every few hundred milliseconds. Older finished orders are saved as forgotten ids.
   */
  stateHistory?: number;
  /** Where the server says what it did with the state file. */
  log?: (line: string) => void;
  /** The WebSocket channels (/ws/market, /ws/user). */
  ws?: ClobWsOptions;
}

export type OrderStatus = 'LIVE' | 'MATCHED' | 'CANCELED';
export type TradeStatus = 'MATCHED' | 'RETRYING' | 'MINED' | 'CONFIRMED' | 'FAILED';

/**
 * Faults of the exchange itself (the WebSocket channels have theirs in `WsFaults`), for tests of what a client
 * shows when settlement or the dead-man switch go wrong; a real chain and server cannot be made to on demand.
 */
export interface ExchangeFaults {
  /** Every POST /v1/heartbeats answers 503 while on (the chain of ids is kept, so silence still cancels). */
  failHeartbeats(on: boolean): void;
  /**
   * The next match's settlement is retried `retries` times (a RETRYING trade event each, as Polymarket sends when
   * its transaction must be resubmitted), then fails (FAILED, the makers restored) or, with `fail` false, settles.
   */
  nextSettlement(plan: { retries: number; fail: boolean }): void;
}

/** Polymarket's POST /order answer. */
export interface OrderResponse {
  success: boolean;
  errorMsg: string;
  orderID: string;
  status: 'live' | 'matched' | 'delayed' | 'unmatched';
  takingAmount: string;
  makingAmount: string;
  transactionsHashes: string[];
  tradeIDs: string[];
}

interface OrderRecord {
  id: string;
  owner: string;
  order: ExchangeOrder;
  terms: OrderTerms;
  market: CatalogMarket;
  outcome: 0 | 1;
  tokenId: string;
  venue: string;
  orderType: OrderType;
  status: OrderStatus;
  /** Shares matched so far. */
  matched: bigint;
  /** What the chain still lets the order make, in its making terms. */
  makingRemaining: bigint;
  createdAt: number;
  trades: string[];
  /** The engine's entry while it rests (kept after it leaves the book so a failed settlement can restore it). */
  resting?: RestingOrder;
}

interface TradeRecord {
  id: string;
  takerOrderId: string;
  market: CatalogMarket;
  tokenId: string;
  outcome: 0 | 1;
  side: 'BUY' | 'SELL';
  shares: bigint;
  /** Average price in the taker's outcome, 1e-4 units. */
  price: number;
  status: TradeStatus;
  matchTime: number;
  lastUpdate: number;
  owner: string;
  makerAddress: string;
  makers: { orderId: string; owner: string; makerAddress: string; shares: bigint; price: number; tokenId: string; outcome: 0 | 1; side: 'BUY' | 'SELL' }[];
  transactionHash: string;
  errMsg: string | null;
}

interface Notification {
  id: number;
  type: number;
  owner: string;
  payload: Record<string, unknown>;
  timestamp: number;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

type Query = URLSearchParams;
type Caller = { address: string; apiKey: string };

/** Notification types: an order was cancelled by the server, an order was (partly) filled. */
const NOTIFY_CANCEL = 1;
const NOTIFY_FILL = 2;

export class ClobServer {
  private server: Server | undefined;
  private provider: JsonRpcProvider;
  private operator: Wallet;
  private exchanges = new Map<string, Contract>();
  private collateral: Contract;
  private ctf: Contract;
  private readonly apiKeys = new Map<string, ApiCredentials & { address: string; nonce: bigint }>();
  /** Whether POLY_ADDRESS may name an address for a key of an EOA: the EOA or one of its accounts. */
  private readonly controls = (eoa: string, address: string): boolean => controlsAddress(this.options.deployment.wallets, eoa, address);
  private readonly books = new Map<string, MarketBook>();
  private readonly orders = new Map<string, OrderRecord>();
  /** Finished orders in the order they finished, and the ids of those forgotten (see `retain`). */
  private readonly finished: OrderRecord[] = [];
  private readonly retired = new Set<string>();
  /** The LIVE ones: what balance reservations and cancel-all look at, so their cost follows the open orders, not history. */
  private readonly live = new Set<OrderRecord>();
  private readonly trades: TradeRecord[] = [];
  private readonly tradesById = new Map<string, TradeRecord>();
  // Public trade feed (sandbox/clob/public-trades.ts): told of each trade recorded and each settlement mined.
  private readonly publicFeed: ClobPublicTrades;
  private readonly notifications = new Map<string, Notification[]>();
  private notificationSeq = 1;
  private readonly heartbeats = new Map<string, { id: string; timer: NodeJS.Timeout }>();
  /** When each market's books last changed: the books' timestamp, so GET /book and the WebSocket agree on the hash. */
  private readonly bookTimes = new Map<string, number>();
  private feed: ClobWebSocketChannels | undefined;
  /** Cached balance-allowance views per owner address and asset; refreshed by /balance-allowance/update. */
  private readonly balanceCache = new Map<string, { balance: bigint; allowances: Record<string, bigint> }>();
  /** Every order placement, cancel and settlement runs here one at a time: balances are checked and moved in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly secret: string;
  private readonly now: () => number;
  private readonly pageSize: number;
  private readonly maxBody: number;
  private readonly heartbeatTimeoutMs: number;
  private stopped = false;
  private heartbeatsFailing = false;
  private settlementFault: { retries: number; fail: boolean } | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  /** Something worth saving changed since the last save. */
  private dirty = false;

  constructor(private readonly options: ClobServerOptions) {
    const { deployment } = options;
    this.secret = options.serverSecret ?? 'pm-desk-sandbox';
    this.now = options.now ?? Date.now;
    this.pageSize = options.pageSize ?? 500;
    this.maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 10_000;
    this.publicFeed = new ClobPublicTrades(options.retain?.trades); // public trade feed
    this.provider = sandboxProvider(deployment.rpcUrl, deployment.chainId);
    this.operator = new Wallet(deployment.operator.privateKey, this.provider);
    const abi = compileContracts().CTFExchange.abi;
    for (const address of [deployment.contracts.exchange, deployment.contracts.negRiskExchange]) {
      this.exchanges.set(address.toLowerCase(), new Contract(address, abi, this.operator));
    }
    this.collateral = new Contract(
      deployment.contracts.collateral,
      ['function balanceOf(address) view returns (uint256)', 'function allowance(address,address) view returns (uint256)'],
      this.provider,
    );
    this.ctf = new Contract(
      deployment.contracts.conditionalTokens,
      ['function balanceOf(address,uint256) view returns (uint256)', 'function isApprovedForAll(address,address) view returns (bool)'],
      this.provider,
    );
    for (const event of options.catalog.events) {
      for (const market of event.markets) {
        this.books.set(market.conditionId, new MarketBook());
        this.publishBook(market);
      }
    }
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (!address) throw new Error('the CLOB server is not listening');
    return `http://${this.options.host ?? '127.0.0.1'}:${address.port}`;
  }

  async start(): Promise<this> {
    if (this.options.stateFile) await this.load(this.options.stateFile);
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.requestTimeout = 30_000;
    this.server.headersTimeout = 10_000;
    this.feed = new ClobWebSocketChannels(
      this.server,
      {
        book: (tokenId) => this.options.marketData.book(tokenId),
        credentials: (apiKey) => this.apiKeys.get(apiKey),
      },
      this.options.ws,
    );
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    return this;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const { timer } of this.heartbeats.values()) clearTimeout(timer);
    this.heartbeats.clear();
    const server = this.server;
    this.server = undefined;
    // Upgraded sockets are no longer the http server's: closeAllConnections would not end them.
    this.feed?.close();
    this.feed = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // No more debounced saves: work still queued marks the state dirty and the save below writes it.
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    await this.queue.catch(() => undefined);
    // The last word: whatever changed since the last debounced save, written before the chain goes away.
    if (this.dirty) await this.save();
    this.provider.destroy();
  }

  // ------------------------------------------------------------------ in-process API (bots, the sandbox command)

  /**
   * The API key of an address and nonce, registered if new: what POST /auth/api-key gives after an L1
   * signature, for in-process callers that hold the wallet already.
   */
  apiKeyFor(address: string, nonce = 0n): ApiCredentials {
    const checksummed = getAddress(address);
    const creds = deriveCredentials(this.secret, checksummed, nonce);
    if (!this.apiKeys.has(creds.apiKey)) this.changed();
    this.apiKeys.set(creds.apiKey, { ...creds, address: checksummed, nonce });
    return creds;
  }

  /** Places a POST /order body as the owner of `apiKey`: the same checks, matching and settlement as HTTP. */
  async placeOrder(body: unknown, apiKey: string): Promise<OrderResponse> {
    const caller = this.callerOf(apiKey);
    return this.exclusive(() => this.place(body, caller));
  }

  /** Cancels orders of `apiKey`'s owner. */
  async cancelOrders(apiKey: string, orderIds: readonly string[]): Promise<{ canceled: string[]; not_canceled: Record<string, string> }> {
    const caller = this.callerOf(apiKey);
    return this.exclusive(async () => this.cancelIds(caller, orderIds));
  }

  /** Cancels one order of `apiKey`'s owner. */
  async cancel(apiKey: string, orderId: string): Promise<{ canceled: string[]; not_canceled: Record<string, string> }> {
    return this.cancelOrders(apiKey, [orderId]);
  }

  /** Ids of the owner's live orders, for bots that cancel what they quoted. */
  openOrderIds(apiKey: string): string[] {
    return this.liveOrdersOf(apiKey).map((o) => o.id);
  }

  /** Trades whose settlement reverted, with the reason: empty while every match settles. */
  /**
   * Every settled (or settling) fill, one row per side of each trade, in each trader's own outcome and price:
   * what the aggregator's trader profiles count as volume, trades and average prices.
   */
  settledFills(): { address: string; tokenId: string; side: 'BUY' | 'SELL'; shares: number; price: number; timestamp: number }[] {
    const rows: { address: string; tokenId: string; side: 'BUY' | 'SELL'; shares: number; price: number; timestamp: number }[] = [];
    for (const t of this.trades) {
      if (t.status === 'FAILED') continue;
      const timestamp = t.matchTime; // already Unix seconds
      rows.push({ address: t.makerAddress, tokenId: t.tokenId, side: t.side, shares: Number(t.shares) / 1e6, price: t.price / 10_000, timestamp });
      for (const m of t.makers) {
        rows.push({ address: m.makerAddress, tokenId: m.tokenId, side: m.side, shares: Number(m.shares) / 1e6, price: m.price / 10_000, timestamp });
      }
    }
    return rows;
  }

  failedTrades(): { id: string; error: string | null }[] {
    return this.trades.filter((t) => t.status === 'FAILED').map((t) => ({ id: t.id, error: t.errMsg }));
  }

  /** One outcome's book as GET /book serves it, for tests and the simulator. */
  book(tokenId: string) {
    const found = this.options.catalog.token(tokenId);
    if (!found) return undefined;
    return this.snapshot(found.market, found.token.index as 0 | 1);
  }

  /** The exchange's trades as public feeds show them (Data API /trades, the real-time activity feed). */
  get publicTrades(): ClobPublicTrades {
    return this.publicFeed;
  }

  /** Faults for tests of a client's feed logic (see `WsFaults`); the server must be started. */
  wsFaults(): WsFaults {
    if (!this.feed) throw new Error('the CLOB server is not listening');
    return this.feed.faults;
  }

  /** Faults of settlement and heartbeats (see `ExchangeFaults`). */
  exchangeFaults(): ExchangeFaults {
    return {
      failHeartbeats: (on) => {
        this.heartbeatsFailing = on;
      },
      nextSettlement: (plan) => {
        this.settlementFault = { ...plan };
      },
    };
  }

  /** Changes a market's tick size (Polymarket does near the price extremes); tells /ws/market subscribers. */
  setTickSize(conditionId: string, tickSize: CatalogMarket['tickSize']): void {
    const market = this.marketParam(conditionId);
    const old = market.tickSize;
    if (old === tickSize) return;
    market.tickSize = tickSize;
    this.feed?.tickSizeChanged(conditionId, market.tokens.map((t) => t.tokenId), old, tickSize, String(this.now()));
    this.publishBook(market);
  }

  private callerOf(apiKey: string): Caller {
    const creds = this.apiKeys.get(apiKey);
    if (!creds) throw new Error('unknown API key');
    return { address: creds.address, apiKey };
  }

  /** Runs `work` in the queue; unless told otherwise, a save is due after it (places, cancels and settlements change state). */
  private exclusive<T>(work: () => Promise<T>, persist = true): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    if (persist) void run.then(() => this.changed(), () => this.changed());
    return run;
  }

  // ------------------------------------------------------------------ HTTP

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const body = await this.readBody(req);
      const result = await this.route(req, url, body);
      this.send(res, 200, result);
    } catch (error) {
      if (error instanceof HttpError) this.send(res, error.status, { ...error.extra, error: error.message });
      else if (error instanceof AuthError) this.send(res, error.status, { error: error.message });
      else {
        // Never crash on a request: an unexpected failure is this request's 500, logged for the developer.
        console.error('[sandbox clob]', error);
        this.send(res, 500, { error: 'internal error' });
      }
    }
  }

  private send(res: ServerResponse, status: number, payload: unknown): void {
    if (res.headersSent || res.destroyed) return;
    const text = JSON.stringify(payload ?? null);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  private readBody(req: IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > this.maxBody) {
        req.resume();
        reject(new HttpError(413, 'request body too large'));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > this.maxBody) {
          reject(new HttpError(413, 'request body too large'));
          req.removeAllListeners('data');
          req.resume();
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      // A client that goes away mid-body never sends 'end': settle anyway so nothing waits forever.
      const aborted = () => reject(new HttpError(400, 'request aborted'));
      req.on('error', aborted);
      req.on('close', aborted);
    });
  }

  private json(body: string): unknown {
    if (body === '') return undefined;
    try {
      return JSON.parse(body);
    } catch {
      throw new HttpError(400, 'Invalid JSON body');
    }
  }

  private nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  private l2(req: IncomingMessage, path: string, body: string): Caller {
    return verifyL2(req.headers, { method: req.method ?? 'GET', path, body }, (key) => this.apiKeys.get(key), this.nowSeconds(), this.controls);
  }

  private async route(req: IncomingMessage, url: URL, raw: string): Promise<unknown> {
    const method = req.method ?? 'GET';
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const q = url.searchParams;
    const key = `${method} ${path}`;
    const pub = this.publicRoute(key, path, q, raw);
    if (pub !== NOT_FOUND) return pub;

    // Level 1: API keys.
    if (key === 'POST /auth/api-key' || key === 'GET /auth/derive-api-key') {
      const { address, nonce } = verifyL1(req.headers, this.options.deployment.chainId, this.nowSeconds(), this.controls);
      const creds = deriveCredentials(this.secret, address, nonce);
      const known = this.apiKeys.has(creds.apiKey);
      if (method === 'POST') {
        if (known) throw new HttpError(400, 'Could not create api key');
        this.apiKeys.set(creds.apiKey, { ...creds, address, nonce });
        this.changed();
      } else if (!known) throw new HttpError(400, 'Could not derive api key!');
      return { apiKey: creds.apiKey, secret: creds.secret, passphrase: creds.passphrase };
    }

    // Level 2: everything private. The signed path never includes the query string. Unknown paths are 404
    // before any authentication, so a probe learns nothing from a 401.
    if (!PRIVATE_ROUTES.has(key) && !(method === 'GET' && path.startsWith('/data/order/'))) throw new HttpError(404, `not found: ${method} ${path}`);
    const caller = this.l2(req, path, raw);
    switch (key) {
      case 'GET /auth/api-keys':
        return { apiKeys: [...this.apiKeys.entries()].filter(([, c]) => c.address === caller.address).map(([k]) => k) };
      case 'DELETE /auth/api-key':
        this.apiKeys.delete(caller.apiKey);
        this.changed();
        return 'OK';
      case 'GET /auth/ban-status/closed-only':
        return { closed_only: false };
      case 'POST /order':
        return this.postOrder(caller, raw);
      case 'POST /orders':
        return this.postOrders(caller, raw);
      case 'DELETE /order': {
        const body = this.json(raw) as { orderID?: unknown } | undefined;
        if (!body || typeof body !== 'object' || typeof body.orderID !== 'string') throw new HttpError(400, 'Invalid order payload: orderID');
        const id = body.orderID;
        return this.exclusive(async () => this.cancelIds(caller, [id]));
      }
      case 'DELETE /orders': {
        const ids = this.json(raw);
        if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string') || ids.length > 3000) throw new HttpError(400, 'Invalid order payload: a list of order ids');
        return this.exclusive(async () => this.cancelIds(caller, ids as string[]));
      }
      case 'DELETE /cancel-all':
        return this.exclusive(async () => this.cancelIds(caller, this.liveOrdersOf(caller.apiKey).map((o) => o.id)));
      case 'DELETE /cancel-market-orders': {
        const body = (this.json(raw) ?? {}) as { market?: unknown; asset_id?: unknown };
        if (typeof body !== 'object' || (body.market !== undefined && typeof body.market !== 'string') || (body.asset_id !== undefined && typeof body.asset_id !== 'string')) {
          throw new HttpError(400, 'Invalid payload: market and asset_id must be strings');
        }
        const ids = this.liveOrdersOf(caller.apiKey)
          .filter((o) => (body.market === undefined || o.market.conditionId === body.market) && (body.asset_id === undefined || o.tokenId === body.asset_id))
          .map((o) => o.id);
        return this.exclusive(async () => this.cancelIds(caller, ids));
      }
      case 'GET /data/orders':
        return this.openOrders(caller, q);
      case 'GET /data/trades':
        return this.tradeList(caller, q);
      case 'GET /balance-allowance':
        return this.balanceAllowance(caller, q, false);
      case 'GET /balance-allowance/update':
        return this.balanceAllowance(caller, q, true);
      case 'GET /notifications':
        return (this.notifications.get(caller.apiKey) ?? []).map((n) => ({ id: n.id, type: n.type, owner: n.owner, payload: n.payload, timestamp: n.timestamp }));
      case 'DELETE /notifications': {
        const ids = new Set((q.get('ids') ?? '').split(',').filter(Boolean));
        const list = this.notifications.get(caller.apiKey) ?? [];
        this.notifications.set(caller.apiKey, ids.size ? list.filter((n) => !ids.has(String(n.id))) : []);
        this.changed();
        return 'OK';
      }
      case 'GET /order-scoring':
        return { scoring: false };
      case 'POST /orders-scoring': {
        const ids = this.json(raw);
        if (!Array.isArray(ids)) throw new HttpError(400, 'Invalid payload: a list of order ids');
        return Object.fromEntries(ids.map((id) => [String(id), false]));
      }
      case 'POST /v1/heartbeats':
      case 'POST /heartbeats':
        return this.heartbeat(caller, raw);
      case 'GET /rewards/user':
      case 'GET /rewards/user/markets':
        return this.page([], q);
      case 'GET /rewards/user/total':
        return [];
      case 'GET /rewards/user/percentages':
        return {};
      case 'GET /data/pre-migration-orders':
        return this.page([], q);
    }
    if (method === 'GET' && path.startsWith('/data/order/')) {
      const record = this.orders.get(decodeURIComponent(path.slice('/data/order/'.length)));
      if (!record || record.owner !== caller.apiKey) throw new HttpError(404, 'order not found');
      return this.openOrderJson(record);
    }
    throw new HttpError(404, `not found: ${method} ${path}`);
  }

  // ------------------------------------------------------------------ public reads

  private publicRoute(key: string, path: string, q: Query, raw: string): unknown {
    const { deployment } = this.options;
    switch (key) {
      case 'GET /':
      case 'GET /ok':
        return 'OK';
      case 'GET /time':
        return this.nowSeconds();
      case 'GET /version':
        return { version: deployment.orderVersion };
      case 'GET /markets':
        return this.page(this.allMarkets().map((m) => this.marketJson(m)), q);
      case 'GET /sampling-markets':
        return this.page(this.allMarkets().filter((m) => m.acceptingOrders).map((m) => this.marketJson(m)), q);
      case 'GET /simplified-markets':
        return this.page(this.allMarkets().map((m) => this.simplifiedJson(m)), q);
      case 'GET /sampling-simplified-markets':
        return this.page(this.allMarkets().filter((m) => m.acceptingOrders).map((m) => this.simplifiedJson(m)), q);
      case 'GET /rewards/markets/current':
        return this.page([], q);
      case 'GET /book':
        return this.snapshot(...this.tokenParam(q.get('token_id')));
      case 'POST /books':
        return this.tokenList(raw).map((t) => this.snapshot(...this.tokenParam(t.token_id)));
      case 'GET /midpoint':
        return { mid: this.midpoint(...this.tokenParam(q.get('token_id'))) };
      case 'POST /midpoints':
        return Object.fromEntries(this.tokenList(raw).map((t) => [t.token_id, this.midpoint(...this.tokenParam(t.token_id))]));
      case 'GET /price':
        return { price: this.price(this.tokenParam(q.get('token_id')), this.sideParam(q.get('side'))) };
      case 'POST /prices':
        return Object.fromEntries(
          this.tokenList(raw).map((t) => {
            const token = this.tokenParam(t.token_id);
            const sides = t.side === undefined ? (['BUY', 'SELL'] as const) : [this.sideParam(t.side)];
            return [t.token_id, Object.fromEntries(sides.map((s) => [s, this.price(token, s)]))];
          }),
        );
      case 'GET /spread':
        return { spread: this.spread(...this.tokenParam(q.get('token_id'))) };
      case 'POST /spreads':
        return Object.fromEntries(this.tokenList(raw).map((t) => [t.token_id, this.spread(...this.tokenParam(t.token_id))]));
      case 'GET /last-trade-price':
        return this.lastTrade(q.get('token_id'));
      case 'POST /last-trades-prices':
        return this.tokenList(raw).map((t) => ({ token_id: t.token_id, ...this.lastTrade(t.token_id) }));
      case 'GET /tick-size':
        return { minimum_tick_size: Number(this.tokenParam(q.get('token_id'))[0].tickSize) };
      case 'GET /neg-risk':
        return { neg_risk: this.tokenParam(q.get('token_id'))[0].negRisk };
      case 'GET /fee-rate':
        this.tokenParam(q.get('token_id'));
        return { base_fee: 0 };
      case 'GET /prices-history':
        return this.pricesHistory(q);
    }
    if (key.startsWith('GET ')) {
      const id = (prefix: string) => (path.startsWith(prefix) ? decodeURIComponent(path.slice(prefix.length)) : undefined);
      const marketId = id('/markets/');
      if (marketId !== undefined && !marketId.startsWith('live-activity/')) return this.marketJson(this.marketParam(marketId));
      const clobId = id('/clob-markets/');
      if (clobId !== undefined) {
        const m = this.marketParam(clobId);
        return {
          c: m.conditionId,
          t: m.tokens.map((t) => ({ t: t.tokenId, o: t.name })),
          mts: Number(m.tickSize),
          nr: m.negRisk,
          fd: { r: 0, e: 0, to: true },
          mbf: 0,
          tbf: 0,
          r: null,
          ao: m.acceptingOrders,
          mos: m.minOrderSize,
        };
      }
      const byToken = id('/markets-by-token/');
      if (byToken !== undefined) {
        const [m] = this.tokenParam(byToken);
        return { condition_id: m.conditionId, primary_token_id: m.tokens[0].tokenId, secondary_token_id: m.tokens[1].tokenId };
      }
      const rewards = id('/rewards/markets/');
      if (rewards !== undefined) return this.page([], q);
      const live = id('/live-activity/events/') ?? id('/markets/live-activity/');
      if (live !== undefined) return [];
      const builderFees = id('/fees/builder-fees/');
      if (builderFees !== undefined) return { builder_maker_fee_rate_bps: 0, builder_taker_fee_rate_bps: 0 };
      if (path === '/builder/trades') return { ...this.page([], q) };
    }
    return NOT_FOUND;
  }

  private allMarkets(): CatalogMarket[] {
    return this.options.catalog.events.flatMap((e) => e.markets);
  }

  private marketParam(conditionId: string): CatalogMarket {
    const market = this.options.catalog.marketByCondition(conditionId);
    if (!market) throw new HttpError(404, 'market not found');
    return market;
  }

  private tokenParam(tokenId: unknown): [CatalogMarket, 0 | 1] {
    if (typeof tokenId !== 'string' || tokenId === '') throw new HttpError(400, 'Invalid payload: token_id is required');
    const found = this.options.catalog.token(tokenId);
    if (!found) throw new HttpError(404, `No orderbook exists for the requested token id`);
    return [found.market, found.token.index as 0 | 1];
  }

  private sideParam(side: unknown): 'BUY' | 'SELL' {
    if (side !== 'BUY' && side !== 'SELL') throw new HttpError(400, 'Invalid side: BUY or SELL');
    return side;
  }

  private tokenList(raw: string): { token_id: string; side?: unknown }[] {
    const list = this.json(raw);
    if (!Array.isArray(list) || list.length > 500 || list.some((p) => !p || typeof p !== 'object' || typeof (p as { token_id?: unknown }).token_id !== 'string')) {
      throw new HttpError(400, 'Invalid payload: a list of {token_id}');
    }
    return list as { token_id: string; side?: unknown }[];
  }

  private levels(market: CatalogMarket, outcome: 0 | 1) {
    const book = this.books.get(market.conditionId)!;
    // Expired GTD orders leave through expireBook, so their records and the published books follow.
    this.expireBook(book);
    return book.levels(outcome);
  }

  private snapshot(market: CatalogMarket, outcome: 0 | 1) {
    const tokenId = market.tokens[outcome].tokenId;
    return bookSnapshot({
      conditionId: market.conditionId,
      tokenId,
      levels: this.levels(market, outcome),
      minOrderSize: market.minOrderSize,
      tickSize: market.tickSize,
      negRisk: market.negRisk,
      lastTradePrice: this.options.marketData.lastTradePrice(tokenId),
      timestamp: this.bookTimes.get(market.conditionId) ?? this.now(),
    });
  }

  private midpoint(market: CatalogMarket, outcome: 0 | 1): string {
    const { bids, asks } = this.levels(market, outcome);
    if (!bids.length || !asks.length) throw new HttpError(404, 'No orderbook exists for the requested token id');
    return priceString((bids[0]!.price + asks[0]!.price) / 2);
  }

  /** Polymarket's docs: side BUY answers the best bid, SELL the best ask. */
  private price([market, outcome]: [CatalogMarket, 0 | 1], side: 'BUY' | 'SELL'): string {
    const { bids, asks } = this.levels(market, outcome);
    const best = side === 'BUY' ? bids[0] : asks[0];
    if (!best) throw new HttpError(404, 'No orderbook exists for the requested token id');
    return priceString(best.price);
  }

  private spread(market: CatalogMarket, outcome: 0 | 1): string {
    const { bids, asks } = this.levels(market, outcome);
    if (!bids.length || !asks.length) throw new HttpError(404, 'No orderbook exists for the requested token id');
    return priceString(asks[0]!.price - bids[0]!.price);
  }

  private lastTrade(tokenId: unknown): { price: string; side: string } {
    const [market, outcome] = this.tokenParam(tokenId);
    const id = market.tokens[outcome].tokenId;
    let last: TradeRecord | undefined;
    for (let i = this.trades.length - 1; i >= 0 && !last; i--) if (this.trades[i]!.market === market && this.trades[i]!.status !== 'FAILED') last = this.trades[i];
    const price = this.options.marketData.lastTradePrice(id);
    if (price === undefined) return { price: '0.5', side: '' };
    const side = last ? (last.tokenId === id ? last.side : last.side === 'BUY' ? 'SELL' : 'BUY') : '';
    return { price: String(price), side };
  }

  private pricesHistory(q: Query): { history: { t: number; p: number }[] } {
    const [market, outcome] = this.tokenParam(q.get('market'));
    const nowS = this.nowSeconds();
    const interval = q.get('interval');
    const spans: Record<string, number> = { '1h': 3600, '6h': 6 * 3600, '1d': 86_400, '1w': 7 * 86_400, '1m': 30 * 86_400, max: Infinity };
    const number = (name: string): number | undefined => {
      const text = q.get(name);
      if (text === null) return undefined;
      if (!/^\d{1,12}$/.test(text)) throw new HttpError(400, `Invalid ${name}`);
      return Number(text);
    };
    let start = number('startTs');
    let end = number('endTs');
    if (interval !== null) {
      if (!(interval in spans)) throw new HttpError(400, `Invalid interval: one of ${Object.keys(spans).join(', ')}`);
      if (start !== undefined || end !== undefined) throw new HttpError(400, 'startTs/endTs and interval are mutually exclusive');
      end = nowS;
      start = nowS - spans[interval]!;
    }
    const fidelity = number('fidelity') ?? 1;
    if (fidelity < 1) throw new HttpError(400, 'Invalid fidelity');
    const bucket = fidelity * 60;
    const history: { t: number; p: number }[] = [];
    for (const fill of this.options.marketData.fills(market.tokens[outcome].tokenId)) {
      if (start !== undefined && fill.timestamp < start) continue;
      if (end !== undefined && fill.timestamp > end) continue;
      const t = Math.floor(fill.timestamp / bucket) * bucket;
      const last = history.at(-1);
      if (last && last.t === t) last.p = fill.price;
      else history.push({ t, p: fill.price });
    }
    return { history };
  }

  private questionId(market: CatalogMarket): string {
    return this.options.deployment.markets.find((m) => m.conditionId === market.conditionId)?.questionId ?? `0x${'0'.repeat(64)}`;
  }

  private tokensJson(market: CatalogMarket) {
    return market.tokens.map((t) => ({ token_id: t.tokenId, outcome: t.name, price: this.options.marketData.displayPrice(t.tokenId) ?? 0.5, winner: false }));
  }

  private marketJson(m: CatalogMarket) {
    return {
      enable_order_book: true,
      active: m.active,
      closed: m.closed,
      archived: false,
      accepting_orders: m.acceptingOrders,
      accepting_order_timestamp: null,
      minimum_order_size: m.minOrderSize,
      minimum_tick_size: Number(m.tickSize),
      condition_id: m.conditionId,
      question_id: this.questionId(m),
      question: m.question,
      description: m.description,
      market_slug: m.slug,
      end_date_iso: m.end,
      game_start_time: null,
      seconds_delay: 0,
      fpmm: '',
      maker_base_fee: 0,
      taker_base_fee: 0,
      notifications_enabled: true,
      neg_risk: m.negRisk,
      neg_risk_market_id: m.negRisk ? m.eventId : '',
      neg_risk_request_id: '',
      icon: '',
      image: '',
      rewards: { rates: null, min_size: 0, max_spread: 0 },
      is_50_50_outcome: false,
      tokens: this.tokensJson(m),
      tags: [],
    };
  }

  private simplifiedJson(m: CatalogMarket) {
    return {
      condition_id: m.conditionId,
      rewards: { rates: null, min_size: 0, max_spread: 0 },
      tokens: this.tokensJson(m),
      active: m.active,
      closed: m.closed,
      archived: false,
      accepting_orders: m.acceptingOrders,
    };
  }

  /** One page of a list: cursors are base64 offsets, "MA==" the first page, "LTE=" past the last. */
  private page<T>(rows: T[], q: Query): { limit: number; count: number; next_cursor: string; data: T[] } {
    const cursor = q.get('next_cursor') ?? INITIAL_CURSOR;
    if (cursor === END_CURSOR) return { limit: this.pageSize, count: 0, next_cursor: END_CURSOR, data: [] };
    const text = Buffer.from(cursor, 'base64').toString('utf8');
    if (!/^\d{1,9}$/.test(text) || Buffer.from(text).toString('base64') !== cursor) throw new HttpError(400, 'invalid next_cursor');
    const offset = Number(text);
    const data = rows.slice(offset, offset + this.pageSize);
    const next = offset + this.pageSize;
    return { limit: this.pageSize, count: data.length, next_cursor: next >= rows.length ? END_CURSOR : Buffer.from(String(next)).toString('base64'), data };
  }

  // ------------------------------------------------------------------ orders

  private async postOrder(caller: Caller, raw: string): Promise<OrderResponse> {
    const body = this.json(raw);
    const response = await this.exclusive(() => this.place(body, caller));
    // One rule for refusals: HTTP 400 whose body is the order response (success false) plus `error`.
    if (!response.success) throw new HttpError(400, response.errorMsg, { ...response });
    return response;
  }

  private async postOrders(caller: Caller, raw: string): Promise<OrderResponse[]> {
    const list = this.json(raw);
    if (!Array.isArray(list) || list.length === 0 || list.length > 15) throw new HttpError(400, 'Invalid payload: a list of 1 to 15 orders');
    // A batch answers 200 with one response per order; refused ones carry success false and errorMsg.
    const responses: OrderResponse[] = [];
    for (const body of list) responses.push(await this.exclusive(() => this.place(body, caller)));
    return responses;
  }

  private refused(message: string, orderID = ''): OrderResponse {
    return { success: false, errorMsg: message, orderID, status: 'unmatched', takingAmount: '0', makingAmount: '0', transactionsHashes: [], tradeIDs: [] };
  }

  /** Validates, matches and settles one order; runs inside the queue. A refusal is a response, never a throw. */
  private async place(body: unknown, caller: Caller): Promise<OrderResponse> {
    if (this.stopped) return this.refused('the exchange is shutting down');
    const { deployment, catalog } = this.options;
    let parsed;
    try {
      parsed = parseOrderBody(body, deployment.orderVersion);
    } catch (error) {
      if (error instanceof OrderRejected) return this.refused(error.message);
      throw error;
    }
    const { order, orderType, postOnly } = parsed;
    if (parsed.owner !== caller.apiKey) return this.refused('the order owner has to be the owner of the API KEY');
    const found = catalog.token(order.tokenId.toString());
    if (!found) return this.refused('invalid token id: the market does not exist');
    const { market } = found;
    const outcome = found.token.index as 0 | 1;
    if (!market.acceptingOrders || market.closed) return this.refused('the market is not accepting orders');
    const venue = market.negRisk ? deployment.contracts.negRiskExchange : deployment.contracts.exchange;

    // Signature: EIP-712 over the server's version and the market's exchange, recovered with ethers.
    const version = deployment.orderVersion;
    let orderId: string;
    try {
      orderId = TypedDataEncoder.hash(exchangeDomain(version, deployment.chainId, venue), TYPED_ORDER[version], signedMessage(version, order));
    } catch {
      return this.refused('invalid signature');
    }
    // Per account kind (sandbox/clob/accounts.ts): ECDSA by the key's EOA, or the deposit wallet's ERC-1271.
    const signatureProblem = await signatureRefusal(order, orderId, caller.address, deployment.wallets, this.provider);
    if (signatureProblem) return this.refused(signatureProblem, orderId);
    const exchange = this.exchanges.get(venue.toLowerCase())!;

    if (this.orders.has(orderId) || this.retired.has(orderId)) return this.refused('order already exists', orderId);
    let terms: OrderTerms;
    try {
      terms = orderTerms(order, orderType, market);
    } catch (error) {
      if (error instanceof OrderRejected) return this.refused(error.message, orderId);
      throw error;
    }
    const nowS = this.nowSeconds();
    if (orderType === 'GTD') {
      if (order.expiration < BigInt(nowS + GTD_MIN_LIFETIME_SECONDS)) {
        return this.refused(`invalid expiration: a GTD order must expire at least ${GTD_MIN_LIFETIME_SECONDS} seconds from now`, orderId);
      }
    } else if (order.expiration !== 0n) {
      return this.refused('invalid expiration: only GTD orders may expire', orderId);
    }
    if (postOnly && orderType !== 'GTC' && orderType !== 'GTD') return this.refused('invalid post-only order: only GTC and GTD orders can be post-only', orderId);
    if (version === 1) {
      if (order.taker.toLowerCase() !== ZERO_ADDRESS) return this.refused('invalid order: private orders (taker set) are not supported', orderId);
      if (order.feeRateBps !== 0n) return this.refused(`invalid user provided fee rate: (${order.feeRateBps}), fee rate for the market must be 0`, orderId);
    }

    // The chain's answers, asked together (one round trip instead of four) and judged in the order above.
    const contractWallet = order.signatureType === 1 || order.signatureType === 2;
    const [wallet, nonce, status, shortfall] = await Promise.all([
      contractWallet ? (exchange.getFunction(order.signatureType === 1 ? 'getPolyProxyWalletAddress' : 'getSafeAddress')(order.signer) as Promise<string>) : undefined,
      version === 1 ? (exchange.getFunction('nonces')(order.maker) as Promise<bigint>) : undefined,
      exchange.getFunction('getOrderStatus')(orderId) as Promise<{ isFilledOrCancelled: boolean }>,
      // Balance and allowance on the chain, minus what the maker's open orders already reserve.
      this.fundsShortfall(order, terms, venue, outcome, market),
    ]);
    if (contractWallet && (wallet === ZERO_ADDRESS || wallet!.toLowerCase() !== order.maker.toLowerCase())) {
      return this.refused(`invalid signature: the maker is not the signer's ${order.signatureType === 1 ? 'proxy wallet' : 'safe'}`, orderId);
    }
    if (version === 1 && order.nonce !== nonce) return this.refused('invalid nonce', orderId);
    if (status.isFilledOrCancelled) return this.refused('order already exists: it is filled or cancelled on chain', orderId);
    if (shortfall) return this.refused(shortfall, orderId);

    const record: OrderRecord = {
      id: orderId,
      owner: caller.apiKey,
      order,
      terms,
      market,
      outcome,
      tokenId: order.tokenId.toString(),
      venue,
      orderType,
      status: 'LIVE',
      matched: 0n,
      makingRemaining: order.makerAmount,
      createdAt: nowS,
      trades: [],
    };
    const book = this.books.get(market.conditionId)!;
    this.expireBook(book);
    const result = book.submit(
      { id: orderId, owner: caller.apiKey, maker: order.maker, outcome, side: terms.side, price: terms.price, size: terms.size, type: orderType, expiration: Number(order.expiration), postOnly },
      nowS,
    );
    if (!result.ok) return this.refused(result.message, orderId);
    record.resting = result.resting;
    this.orders.set(orderId, record);
    this.live.add(record);
    this.orderEvent(record, 'PLACEMENT');

    let response: OrderResponse = {
      success: true,
      errorMsg: '',
      orderID: orderId,
      status: result.status,
      takingAmount: '0',
      makingAmount: '0',
      transactionsHashes: [],
      tradeIDs: [],
    };
    if (result.fills.length) response = await this.settle(record, result.fills, response);
    if (!result.resting && record.status === 'LIVE') this.setStatus(record, 'MATCHED');
    if (record.matched > 0n) this.orderEvent(record, 'UPDATE');
    this.publishBook(market);
    return response;
  }

  /** The message traders know, or undefined when the maker can cover this order on top of its open ones. */
  private async fundsShortfall(
    order: ExchangeOrder,
    terms: OrderTerms,
    venue: string,
    outcome: 0 | 1,
    market: CatalogMarket,
    adding: bigint = order.makerAmount,
  ): Promise<string | undefined> {
    const maker = order.maker.toLowerCase();
    const open = [...this.live].filter((o) => o.order.maker.toLowerCase() === maker);
    const remainingOf = (o: OrderRecord) => this.books.get(o.market.conditionId)?.order(o.id)?.remaining ?? 0n;
    const message = (have: bigint, need: bigint, what: string) =>
      `not enough balance / allowance: ${what} ${formatUnits(have)} available, ${formatUnits(need)} needed by this order and the open ones`;
    if (terms.side === 'BUY') {
      const reserved = open.filter((o) => o.terms.side === 'BUY').reduce((sum, o) => sum + reservedAmount(o.terms, remainingOf(o)), 0n);
      const reservedHere = open.filter((o) => o.terms.side === 'BUY' && o.venue === venue).reduce((sum, o) => sum + reservedAmount(o.terms, remainingOf(o)), 0n);
      const [balance, allowance] = (await Promise.all([
        this.collateral.getFunction('balanceOf')(order.maker),
        this.collateral.getFunction('allowance')(order.maker, venue),
      ])) as [bigint, bigint];
      this.balanceCache.set(`${maker}:collateral`, { balance, allowances: { ...this.balanceCache.get(`${maker}:collateral`)?.allowances, [venue]: allowance } });
      if (balance < reserved + adding) return message(balance, reserved + adding, 'balance');
      if (allowance < reservedHere + adding) return message(allowance, reservedHere + adding, 'allowance');
      return undefined;
    }
    const tokenId = market.tokens[outcome].tokenId;
    const reserved = open.filter((o) => o.terms.side === 'SELL' && o.tokenId === tokenId).reduce((sum, o) => sum + remainingOf(o), 0n);
    const [balance, approved] = (await Promise.all([
      this.ctf.getFunction('balanceOf')(order.maker, tokenId),
      this.ctf.getFunction('isApprovedForAll')(order.maker, venue),
    ])) as [bigint, boolean];
    if (balance < reserved + adding) return message(balance, reserved + adding, 'balance');
    if (!approved) return 'not enough balance / allowance: the exchange is not approved for the outcome tokens (setApprovalForAll)';
    return undefined;
  }

  /** Settles a taker's fills with one matchOrders; marks trades MATCHED → MINED → CONFIRMED, or FAILED and restores the makers. */
  private async settle(taker: OrderRecord, fills: Fill[], response: OrderResponse): Promise<OrderResponse> {
    const makers = new Map<string, PlanOrder>();
    const makerRecords = new Map<string, OrderRecord>();
    for (const fill of fills) {
      const record = this.orders.get(fill.makerId)!;
      makerRecords.set(record.id, record);
      makers.set(record.id, { side: record.terms.side, makerAmount: record.order.makerAmount, takerAmount: record.order.takerAmount, makingRemaining: record.makingRemaining });
    }
    let plan: ReturnType<typeof settlementPlan>;
    try {
      plan = settlementPlan(
        { side: taker.terms.side, makerAmount: taker.order.makerAmount, takerAmount: taker.order.takerAmount, makingRemaining: taker.makingRemaining },
        makers,
        fills,
      );
    } catch (error) {
      // A match the contract would refuse is a server bug: nothing is sent, the book is put back, the order refused.
      console.error('[sandbox clob] settlement plan refused', error);
      await this.restoreAfterFailure(taker, fills, makerRecords);
      return this.refused(`settlement failed: ${error instanceof Error ? error.message : String(error)}`, taker.id);
    }
    const nowS = this.nowSeconds();
    const shares = fills.reduce((sum, f) => sum + f.shares, 0n);
    const takerPaid = plan.takerFillAmount;
    const trade: TradeRecord = {
      id: randomUUID(),
      takerOrderId: taker.id,
      market: taker.market,
      tokenId: taker.tokenId,
      outcome: taker.outcome,
      side: taker.terms.side,
      shares,
      price: Number((fills.reduce((sum, f) => sum + f.shares * BigInt(f.takerPrice), 0n) / shares)),
      status: 'MATCHED',
      matchTime: nowS,
      lastUpdate: nowS,
      owner: taker.owner,
      makerAddress: taker.order.maker,
      makers: plan.legs.map((leg) => {
        const m = makerRecords.get(leg.makerId)!;
        return { orderId: m.id, owner: m.owner, makerAddress: m.order.maker, shares: leg.shares, price: leg.makerPrice, tokenId: m.tokenId, outcome: m.outcome, side: m.terms.side };
      }),
      transactionHash: '',
      errMsg: null,
    };
    this.addTrade(trade);
    this.tradeEvent(trade);
    taker.trades.push(trade.id);
    for (const m of makerRecords.values()) m.trades.push(trade.id);

    const exchange = this.exchanges.get(taker.venue.toLowerCase())!;
    const tuple = (o: ExchangeOrder) => ({ ...o });
    const fault = this.settlementFault;
    this.settlementFault = undefined;
    try {
      for (let retry = 0; retry < (fault?.retries ?? 0); retry++) {
        trade.status = 'RETRYING';
        trade.lastUpdate = this.nowSeconds();
        this.tradeEvent(trade);
      }
      if (fault?.fail) throw new Error('settlement failed after retries (sandbox fault)');
      const data = exchange.interface.encodeFunctionData('matchOrders', [
        tuple(taker.order),
        plan.legs.map((leg) => tuple(makerRecords.get(leg.makerId)!.order)),
        plan.takerFillAmount,
        plan.legs.map((leg) => leg.fillAmount),
      ]);
      trade.transactionHash = await this.sendAsOperator(await exchange.getAddress(), data, plan.legs.length);
      const receipt = await this.receipt(trade.transactionHash);
      if (receipt.status !== '0x1') throw new Error('settlement transaction reverted');
      trade.status = 'MINED';
      trade.lastUpdate = this.nowSeconds();
      this.tradeEvent(trade);
      this.publicFeed.settled(trade); // public trade feed
      // Anvil mines on receipt and nothing reorganises it: confirmed as soon as mined.
      trade.status = 'CONFIRMED';
      this.tradeEvent(trade);
    } catch (error) {
      trade.status = 'FAILED';
      trade.errMsg = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 300) : String(error);
      trade.lastUpdate = this.nowSeconds();
      this.tradeEvent(trade);
      await this.restoreAfterFailure(taker, fills, makerRecords);
      return { ...this.refused(`settlement failed: ${trade.errMsg}`, taker.id), tradeIDs: [trade.id] };
    }

    // Book-keeping follows the chain: what each order made, what it matched, the fills on both tapes.
    taker.makingRemaining -= plan.takerFillAmount;
    taker.matched += shares;
    for (const leg of plan.legs) {
      const m = makerRecords.get(leg.makerId)!;
      m.makingRemaining -= leg.fillAmount;
      m.matched += leg.shares;
      if (!this.books.get(m.market.conditionId)!.order(m.id)) this.setStatus(m, 'MATCHED');
      this.notify(m.owner, NOTIFY_FILL, { order_id: m.id, trade_id: trade.id, matched_amount: sharesString(leg.shares), price: priceString(leg.makerPrice) });
    }
    for (const m of makerRecords.values()) this.orderEvent(m, 'UPDATE');
    for (const fill of fills) this.recordTape(taker.market, taker.outcome, taker.terms.side, fill, nowS);
    for (const address of [taker.order.maker, ...[...makerRecords.values()].map((m) => m.order.maker)]) this.forgetBalances(address);
    const taking = plan.takerReceives;
    return {
      ...response,
      status: 'matched',
      makingAmount: formatUnits(takerPaid),
      takingAmount: formatUnits(taking),
      transactionsHashes: [trade.transactionHash],
      tradeIDs: [trade.id],
    };
  }

  /**
   * Signs and sends one operator transaction. The call is run first (eth_call), so a settlement that would
   * revert fails here with the contract's reason and never reaches a block; the gas limit is a generous bound
   * per leg (a leg costs at most about 270 000 gas) rather than an estimate, which anvil finds by bisection.
   */
  private async sendAsOperator(to: string, data: string, legs: number): Promise<string> {
    const from = this.operator.address;
    const gasLimit = BigInt(Math.min(25_000_000, 250_000 + 400_000 * legs));
    const [, nonce] = await Promise.all([
      this.provider.call({ from, to, data, gasLimit }),
      this.provider.getTransactionCount(from, 'pending'),
    ]);
    const signed = await this.operator.signTransaction({ ...TX_OVERRIDES, chainId: this.options.deployment.chainId, nonce, to, data, gasLimit });
    return (await this.provider.send('eth_sendRawTransaction', [signed])) as string;
  }

  /** The receipt of a transaction, asked for at once and then every few milliseconds (anvil mines on receipt). */
  private async receipt(hash: string): Promise<{ status: string }> {
    for (let attempt = 0; ; attempt++) {
      const receipt = (await this.provider.send('eth_getTransactionReceipt', [hash])) as { status: string } | null;
      if (receipt) return receipt;
      if (attempt > 2000) throw new Error(`no receipt for ${hash}`);
      await new Promise((resolve) => setTimeout(resolve, attempt < 10 ? 2 : 25));
    }
  }

  /**
   * After a reverted settlement nothing moved on the chain: makers that can still cover their orders get their
   * shares back on the book (same price, same time priority); the others are cancelled. The taker's unfilled
   * part is not retried: its answer says the settlement failed.
   */
  private async restoreAfterFailure(taker: OrderRecord, fills: Fill[], makers: Map<string, OrderRecord>): Promise<void> {
    const book = this.books.get(taker.market.conditionId)!;
    book.cancel(taker.id);
    this.setStatus(taker, 'CANCELED');
    for (const fill of fills) {
      const m = makers.get(fill.makerId)!;
      if (!m.resting) continue;
      book.restore(m.resting, fill.shares);
      this.setStatus(m, 'LIVE');
      // Restored first, then judged with every open order of its maker counted, itself included.
      const short = await this.fundsShortfall(m.order, m.terms, m.venue, m.outcome, m.market, 0n).catch(() => 'chain unavailable');
      if (short) {
        book.cancel(m.id);
        this.setStatus(m, 'CANCELED');
        this.notify(m.owner, NOTIFY_CANCEL, { order_id: m.id, reason: short });
      }
    }
  }

  private recordTape(market: CatalogMarket, takerOutcome: 0 | 1, takerSide: 'BUY' | 'SELL', fill: Fill, timestamp: number): void {
    const volumeBase = Number(fill.shares) / 1e6;
    const price = fill.takerPrice / PRICE_ONE;
    const data = this.options.marketData;
    // Both outcome tapes agree: the taker's token at its price, the complement at 1 − price.
    data.recordFill(market.tokens[takerOutcome].tokenId, { price, volumeBase, timestamp });
    data.recordFill(market.tokens[1 - takerOutcome]!.tokenId, { price: (PRICE_ONE - fill.takerPrice) / PRICE_ONE, volumeBase, timestamp }, { mirror: true });
    // Buying one outcome at p is selling the other at 1 − p: each token's last_trade_price says so.
    const common = { market: market.conditionId, size: sharesString(fill.shares), timestamp: String(this.now()) };
    this.feed?.lastTrade({ ...common, asset_id: market.tokens[takerOutcome].tokenId, price: priceString(fill.takerPrice), side: takerSide });
    this.feed?.lastTrade({ ...common, asset_id: market.tokens[1 - takerOutcome]!.tokenId, price: priceString(PRICE_ONE - fill.takerPrice), side: takerSide === 'BUY' ? 'SELL' : 'BUY' });
  }

  /**
   * Publishes both outcome books of a market. The books keep the time they last changed, so the same state has
   * the same hash in GET /book and on /ws/market; a real change gets a new time and goes out as price_change.
   */
  private publishBook(market: CatalogMarket): void {
    const tokens = market.tokens.map((t) => t.tokenId);
    // Computed first: reading the levels may expire GTD orders, which publishes on its own before we compare.
    let next = ([0, 1] as const).map((outcome) => this.snapshot(market, outcome));
    const before = tokens.map((id) => this.options.marketData.book(id));
    if (next.every((s, i) => s.hash === before[i]?.hash)) return;
    this.bookTimes.set(market.conditionId, this.now());
    next = ([0, 1] as const).map((outcome) => this.snapshot(market, outcome));
    next.forEach((s, i) => this.options.marketData.setBook(tokens[i]!, s));
    this.feed?.booksChanged(market.conditionId, before, next);
  }

  /** A user-channel order event for the order's owner. */
  private orderEvent(record: OrderRecord, type: 'PLACEMENT' | 'UPDATE' | 'CANCELLATION'): void {
    this.feed?.order(record.owner, record.market.conditionId, { ...this.openOrderJson(record), type, timestamp: String(this.now()) });
  }

  /** A user-channel trade event for each owner in the trade, from its own side. */
  private tradeEvent(trade: TradeRecord): void {
    const owners = [trade.owner, ...trade.makers.map((m) => m.owner)];
    this.feed?.trade(owners, trade.market.conditionId, (viewer) => ({ ...this.tradeJson(trade, viewer), type: 'TRADE', trade_owner: viewer, timestamp: String(this.now()) }));
  }

  /** Drops expired GTD orders of a book, marks them cancelled and republishes the market's books. */
  private expireBook(book: MarketBook): void {
    let market: CatalogMarket | undefined;
    for (const expired of book.expire(this.nowSeconds())) {
      const record = this.orders.get(expired.id);
      if (record) {
        this.setStatus(record, 'CANCELED');
        market = record.market;
        this.notify(record.owner, NOTIFY_CANCEL, { order_id: record.id, reason: 'expired' });
      }
    }
    if (market) {
      this.publishBook(market);
      this.changed();
    }
  }

  private setStatus(record: OrderRecord, status: OrderStatus): void {
    const wasLive = record.status === 'LIVE';
    record.status = status;
    if (status === 'CANCELED' && wasLive) this.orderEvent(record, 'CANCELLATION');
    else if (status === 'LIVE' && !wasLive) this.orderEvent(record, 'UPDATE');
    if (status === 'LIVE') {
      if (this.orders.get(record.id) === record) this.live.add(record);
      return;
    }
    this.live.delete(record);
    if (wasLive) this.finished.push(record);
    const keep = this.options.retain?.orders ?? 100_000;
    while (this.finished.length > keep) {
      const old = this.finished.shift()!;
      // An order a failed settlement put back on the book is live again: it stays.
      if (old.status === 'LIVE' || this.orders.get(old.id) !== old) continue;
      this.orders.delete(old.id);
      this.retired.add(old.id);
    }
  }

  private addTrade(trade: TradeRecord): void {
    this.trades.push(trade);
    this.tradesById.set(trade.id, trade);
    this.publicFeed.recorded(trade); // public trade feed
    const keep = this.options.retain?.trades ?? 100_000;
    while (this.trades.length > keep) this.tradesById.delete(this.trades.shift()!.id);
  }

  private liveOrdersOf(apiKey: string): OrderRecord[] {
    for (const book of this.books.values()) this.expireBook(book);
    return [...this.live].filter((o) => o.owner === apiKey);
  }

  private cancelIds(caller: Caller, ids: readonly string[]): { canceled: string[]; not_canceled: Record<string, string> } {
    const canceled: string[] = [];
    const notCanceled: Record<string, string> = {};
    const touched = new Set<CatalogMarket>();
    for (const id of ids) {
      const record = this.orders.get(id);
      if (!record || record.owner !== caller.apiKey) notCanceled[id] = "the order doesn't exist or isn't yours";
      else if (record.status === 'CANCELED') notCanceled[id] = 'order already canceled';
      else if (record.status === 'MATCHED') notCanceled[id] = 'order already fully matched';
      else {
        this.books.get(record.market.conditionId)!.cancel(id);
        this.setStatus(record, 'CANCELED');
        canceled.push(id);
        touched.add(record.market);
      }
    }
    for (const market of touched) this.publishBook(market);
    return { canceled, not_canceled: notCanceled };
  }

  private notify(owner: string, type: number, payload: Record<string, unknown>): void {
    const list = this.notifications.get(owner) ?? [];
    list.push({ id: this.notificationSeq++, type, owner, payload, timestamp: this.nowSeconds() });
    // Bounded: a busy bot must not grow memory without end.
    if (list.length > 1000) list.splice(0, list.length - 1000);
    this.notifications.set(owner, list);
  }

  // ------------------------------------------------------------------ state in the data folder

  private log(line: string): void {
    if (this.options.log) this.options.log(line);
    else console.error(`[sandbox clob] ${line}`);
  }

  /**
   * A save is due. Debounced (one per interval, longer when writes get slow so a big state never hogs the
   * queue) and taken inside the queue, so it never captures half a settlement.
   */
  private changed(): void {
    if (!this.options.stateFile) return;
    this.dirty = true;
    if (this.saveTimer || this.stopped) return;
    const interval = Math.max(this.options.saveIntervalMs ?? 200, 5 * this.lastSaveMs);
    this.saveTimer = setTimeout(() => {
      void this.exclusive(async () => {
        this.saveTimer = undefined;
        if (this.dirty) await this.save();
      }, false);
    }, interval);
    this.saveTimer.unref();
  }

  private lastSaveMs = 0;

  private async save(): Promise<void> {
    const file = this.options.stateFile!;
    const started = Date.now();
    const state = this.exportState();
    this.dirty = false;
    try {
      await writeClobState(file, state);
    } catch (error) {
      this.dirty = true;
      this.log(`could not save the CLOB state to ${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.lastSaveMs = Date.now() - started;
  }

  private exportState(): SavedClobState {
    const { deployment } = this.options;
    // Bounded (see stateHistory): the oldest finished orders are saved as forgotten ids, still refused if posted again.
    const history = this.options.stateHistory ?? SAVED_HISTORY;
    const oldFinished = this.finished.slice(0, Math.max(0, this.finished.length - history));
    const dropped = new Set(oldFinished.filter((o) => o.status !== 'LIVE' && this.orders.get(o.id) === o).map((o) => o.id));
    return {
      version: CLOB_STATE_VERSION,
      chainId: deployment.chainId,
      exchange: deployment.contracts.exchange,
      orderVersion: deployment.orderVersion,
      apiKeys: [...this.apiKeys.values()].map((k) => ({ apiKey: k.apiKey, secret: k.secret, passphrase: k.passphrase, address: k.address, nonce: k.nonce.toString() })),
      orders: [...this.orders.values()].filter((o) => !dropped.has(o.id)).map((o) => {
        const entry = o.status === 'LIVE' ? this.books.get(o.market.conditionId)!.order(o.id) : undefined;
        return {
          id: o.id,
          owner: o.owner,
          order: saveOrder(o.order),
          terms: { side: o.terms.side, collateral: o.terms.collateral.toString(), shares: o.terms.shares.toString(), price: o.terms.price, size: o.terms.size.toString() },
          conditionId: o.market.conditionId,
          outcome: o.outcome,
          venue: o.venue,
          orderType: o.orderType,
          status: o.status,
          matched: o.matched.toString(),
          makingRemaining: o.makingRemaining.toString(),
          createdAt: o.createdAt,
          trades: [...o.trades],
          ...(entry ? { resting: saveResting(entry) } : {}),
        };
      }),
      finished: this.finished.filter((o) => !dropped.has(o.id)).map((o) => o.id),
      retired: [...this.retired, ...dropped].slice(-SAVED_RETIRED_IDS),
      trades: this.trades.slice(Math.max(0, this.trades.length - history)).map(({ market, ...t }) => ({
        ...t,
        conditionId: market.conditionId,
        shares: t.shares.toString(),
        makers: t.makers.map((m) => ({ ...m, shares: m.shares.toString() })),
      })),
      notifications: [...this.notifications.values()].flat(),
      notificationSeq: this.notificationSeq,
    };
  }

  /** Loads the state file; a file that cannot be read back whole is set aside and the server starts empty. */
  private async load(file: string): Promise<void> {
    const { deployment, catalog } = this.options;
    const read = await readClobState(file, { chainId: deployment.chainId, exchange: deployment.contracts.exchange, orderVersion: deployment.orderVersion }, catalog);
    if ('missing' in read) return;
    let parsed: ReturnType<ClobServer['parseState']>;
    try {
      if ('refused' in read) throw new Error(read.refused);
      parsed = this.parseState(read.state);
    } catch (error) {
      const aside = `${file}.refused-${Date.now()}`;
      await rename(file, aside).catch(() => undefined);
      this.log(`CLOB state in ${file} refused: ${error instanceof Error ? error.message : String(error)}; starting with an empty CLOB (the file is kept as ${aside})`);
      return;
    }
    const { state, orders, trades } = parsed;

    // Ask the chain about every live order first: one filled or cancelled there while we were down stays off the book.
    const live = orders.filter((o) => o.record.status === 'LIVE');
    const onChain = await Promise.all(
      live.map((o) => this.exchanges.get(o.record.venue.toLowerCase())!.getFunction('getOrderStatus')(o.record.id) as Promise<{ isFilledOrCancelled: boolean; remaining: bigint }>),
    );
    const gone = new Set<string>();
    live.forEach((o, i) => {
      if (onChain[i]!.isFilledOrCancelled) gone.add(o.record.id);
    });

    for (const k of state.apiKeys) this.apiKeys.set(k.apiKey, { apiKey: k.apiKey, secret: k.secret, passphrase: k.passphrase, address: k.address, nonce: big(k.nonce) });
    for (const { record } of orders) this.orders.set(record.id, record);
    for (const id of state.finished) {
      const record = this.orders.get(id);
      if (record && record.status !== 'LIVE') this.finished.push(record);
    }
    for (const id of state.retired) this.retired.add(id);
    for (const trade of trades) {
      this.trades.push(trade);
      this.tradesById.set(trade.id, trade);
      this.publicFeed.recorded(trade, { loaded: true }); // public trade feed
    }
    for (const n of state.notifications) this.notifications.set(n.owner, [...(this.notifications.get(n.owner) ?? []), n]);
    this.notificationSeq = state.notificationSeq;

    // Back on the book WITHOUT matching (nothing crossed when saved), each with its own time priority.
    for (const { record, resting } of live) {
      if (gone.has(record.id)) {
        // Only this server fills orders, so the chain must have cancelled it (cancelOrder by its maker).
        this.setStatus(record, 'CANCELED');
        this.notify(record.owner, NOTIFY_CANCEL, { order_id: record.id, reason: 'filled or cancelled on the chain' });
        continue;
      }
      this.books.get(record.market.conditionId)!.restore(resting!, resting!.remaining);
      record.resting = resting;
      this.live.add(record);
    }
    // GTD orders whose time ran out while the sandbox was down expire here, and every book is published again.
    for (const market of this.allMarkets()) {
      this.expireBook(this.books.get(market.conditionId)!);
      this.publishBook(market);
    }
    this.dirty = false;
    if (gone.size) this.changed();
    this.log(`CLOB state loaded from ${file}: ${state.apiKeys.length} API keys, ${this.live.size} resting orders, ${trades.length} trades${gone.size ? `; ${gone.size} orders filled or cancelled on the chain were not restored` : ''}`);
  }

  /** The saved state as the server's records; throws on anything malformed, before any of it is used. */
  private parseState(state: SavedClobState) {
    const { catalog } = this.options;
    const marketOf = (conditionId: string) => {
      const market = catalog.marketByCondition(conditionId);
      if (!market) throw new Error(`unknown market ${conditionId}`);
      return market;
    };
    const orders = state.orders.map((o) => {
      const market = marketOf(o.conditionId);
      if (!['LIVE', 'MATCHED', 'CANCELED'].includes(o.status)) throw new Error(`order ${o.id}: bad status ${JSON.stringify(o.status)}`);
      const order = loadOrder(o.order);
      const record: OrderRecord = {
        id: o.id,
        owner: o.owner,
        order,
        terms: { side: o.terms.side, collateral: big(o.terms.collateral), shares: big(o.terms.shares), price: o.terms.price, size: big(o.terms.size) },
        market,
        outcome: o.outcome,
        tokenId: order.tokenId.toString(),
        venue: o.venue,
        orderType: o.orderType,
        status: o.status,
        matched: big(o.matched),
        makingRemaining: big(o.makingRemaining),
        createdAt: o.createdAt,
        trades: [...o.trades],
      };
      if (o.status === 'LIVE' && !(o.resting && big(o.resting.remaining) > 0n)) throw new Error(`live order ${o.id} has no book entry`);
      if (!this.exchanges.has(String(o.venue).toLowerCase())) throw new Error(`order ${o.id}: unknown exchange ${o.venue}`);
      return { record, resting: o.status === 'LIVE' ? loadResting(o.resting!) : undefined };
    });
    const trades = state.trades.map(
      ({ conditionId, ...t }): TradeRecord => ({
        ...t,
        market: marketOf(conditionId),
        shares: big(t.shares),
        makers: t.makers.map((m) => ({ ...m, shares: big(m.shares) })),
      }),
    );
    for (const n of state.notifications) if (typeof n.owner !== 'string' || !Number.isInteger(n.id)) throw new Error('bad notification');
    for (const k of state.apiKeys) if (typeof k.apiKey !== 'string' || typeof k.secret !== 'string' || typeof k.address !== 'string') throw new Error('bad API key');
    return { state, orders, trades };
  }

  // ------------------------------------------------------------------ private reads

  private openOrderJson(o: OrderRecord) {
    return {
      id: o.id,
      status: o.status,
      owner: o.owner,
      maker_address: o.order.maker,
      market: o.market.conditionId,
      asset_id: o.tokenId,
      side: o.terms.side,
      original_size: sharesString(o.terms.size),
      size_matched: sharesString(o.matched),
      price: priceString(o.terms.price),
      associate_trades: [...o.trades],
      outcome: o.market.tokens[o.outcome].name,
      created_at: o.createdAt,
      expiration: o.order.expiration.toString(),
      order_type: o.orderType,
    };
  }

  private openOrders(caller: Caller, q: Query) {
    const id = q.get('id');
    const market = q.get('market');
    const asset = q.get('asset_id');
    const rows = this.liveOrdersOf(caller.apiKey)
      .filter((o) => (!id || o.id === id) && (!market || o.market.conditionId === market) && (!asset || o.tokenId === asset))
      .map((o) => this.openOrderJson(o));
    return this.page(rows, q);
  }

  private tradeJson(t: TradeRecord, viewer: string) {
    return {
      id: t.id,
      taker_order_id: t.takerOrderId,
      market: t.market.conditionId,
      asset_id: t.tokenId,
      side: t.side,
      size: sharesString(t.shares),
      fee_rate_bps: '0',
      price: priceString(t.price),
      status: t.status,
      match_time: String(t.matchTime),
      last_update: String(t.lastUpdate),
      outcome: t.market.tokens[t.outcome].name,
      bucket_index: 0,
      owner: t.owner,
      maker_address: t.makerAddress,
      maker_orders: t.makers.map((m) => ({
        order_id: m.orderId,
        owner: m.owner,
        maker_address: m.makerAddress,
        matched_amount: sharesString(m.shares),
        price: priceString(m.price),
        fee_rate_bps: '0',
        asset_id: m.tokenId,
        outcome: t.market.tokens[m.outcome].name,
        side: m.side,
      })),
      transaction_hash: t.transactionHash,
      err_msg: t.errMsg,
      trader_side: t.owner === viewer ? 'TAKER' : 'MAKER',
    };
  }

  private tradeList(caller: Caller, q: Query) {
    const id = q.get('id');
    const market = q.get('market');
    const asset = q.get('asset_id');
    const makerAddress = q.get('maker_address')?.toLowerCase();
    const bound = (name: string) => {
      const text = q.get(name);
      if (text === null) return undefined;
      if (!/^\d{1,12}$/.test(text)) throw new HttpError(400, `Invalid ${name}`);
      return Number(text);
    };
    const before = bound('before');
    const after = bound('after');
    // The official v2 client polls one trade id at a time after a match: a lookup, not a scan.
    const source = id ? [this.tradesById.get(id)].filter((t): t is TradeRecord => t !== undefined) : this.trades;
    const rows = source
      .filter((t) => t.owner === caller.apiKey || t.makers.some((m) => m.owner === caller.apiKey))
      .filter(
        (t) =>
          (!id || t.id === id) &&
          (!market || t.market.conditionId === market) &&
          (!asset || t.tokenId === asset || t.makers.some((m) => m.tokenId === asset)) &&
          (!makerAddress || t.makerAddress.toLowerCase() === makerAddress || t.makers.some((m) => m.makerAddress.toLowerCase() === makerAddress)) &&
          (before === undefined || t.matchTime < before) &&
          (after === undefined || t.matchTime > after),
      )
      .map((t) => this.tradeJson(t, caller.apiKey));
    return this.page(rows, q);
  }

  /** Version 1 answers {balance, allowance}; versions 2 and 3 {balance, allowances: {spender: amount}}. */
  private async balanceAllowance(caller: Caller, q: Query, refresh: boolean) {
    const assetType = q.get('asset_type');
    if (assetType !== 'COLLATERAL' && assetType !== 'CONDITIONAL') throw new HttpError(400, 'Invalid asset_type: COLLATERAL or CONDITIONAL');
    const signatureType = q.get('signature_type') ?? '0';
    if (!['0', '1', '2', '3', '-1'].includes(signatureType)) throw new HttpError(400, 'Invalid signature_type');
    const { deployment } = this.options;
    // The funds live at the key owner's account of that signature type (proxy, Safe, deposit wallet).
    const holder = fundsHolder(deployment.wallets, caller.address, signatureType);
    const spenders = [deployment.contracts.exchange, deployment.contracts.negRiskExchange, deployment.contracts.negRiskAdapter];
    let tokenId: string | undefined;
    if (assetType === 'CONDITIONAL') {
      tokenId = q.get('token_id') ?? undefined;
      if (!tokenId) throw new HttpError(400, 'Invalid token_id: required for CONDITIONAL');
      this.tokenParam(tokenId);
    }
    const cacheKey = `${holder.toLowerCase()}:${tokenId ?? 'collateral'}`;
    let view = this.balanceCache.get(cacheKey);
    if (refresh || !view || Object.keys(view.allowances).length < spenders.length) {
      const balance = (await (tokenId ? this.ctf.getFunction('balanceOf')(holder, tokenId) : this.collateral.getFunction('balanceOf')(holder))) as bigint;
      const allowances: Record<string, bigint> = {};
      for (const spender of spenders) {
        allowances[spender] = tokenId
          ? ((await this.ctf.getFunction('isApprovedForAll')(holder, spender)) as boolean)
            ? (1n << 256n) - 1n
            : 0n
          : ((await this.collateral.getFunction('allowance')(holder, spender)) as bigint);
      }
      view = { balance, allowances };
      this.balanceCache.set(cacheKey, view);
    }
    if (deployment.orderVersion === 1) return { balance: view.balance.toString(), allowance: (view.allowances[deployment.contracts.exchange] ?? 0n).toString() };
    return { balance: view.balance.toString(), allowances: Object.fromEntries(Object.entries(view.allowances).map(([k, v]) => [k, v.toString()])) };
  }

  private forgetBalances(address: string): void {
    const prefix = `${address.toLowerCase()}:`;
    for (const key of [...this.balanceCache.keys()]) if (key.startsWith(prefix)) this.balanceCache.delete(key);
  }

  // ------------------------------------------------------------------ heartbeats

  /**
   * POST /v1/heartbeats: the first beat ("" or null) starts the dead-man switch and every answer names the id
   * to send next; once started, silence for heartbeatTimeoutMs cancels all of the owner's orders.
   */
  private heartbeat(caller: Caller, raw: string): { heartbeat_id: string } {
    const body = this.json(raw) as { heartbeat_id?: unknown } | undefined;
    if (!body || typeof body !== 'object' || !('heartbeat_id' in body)) throw new HttpError(400, 'Invalid payload: heartbeat_id');
    const sent = body.heartbeat_id;
    if (sent !== null && typeof sent !== 'string') throw new HttpError(400, 'Invalid payload: heartbeat_id');
    if (this.heartbeatsFailing) throw new HttpError(503, 'heartbeats unavailable (sandbox fault)');
    const current = this.heartbeats.get(caller.apiKey);
    if (sent && current && sent !== current.id) throw new HttpError(400, 'Invalid heartbeat id');
    if (sent && !current) throw new HttpError(400, 'Invalid heartbeat id');
    if (current) clearTimeout(current.timer);
    const id = randomUUID();
    const timer = setTimeout(() => {
      this.heartbeats.delete(caller.apiKey);
      if (this.stopped) return;
      void this.exclusive(async () => {
        const result = this.cancelIds(caller, this.liveOrdersOf(caller.apiKey).map((o) => o.id));
        for (const orderId of result.canceled) this.notify(caller.apiKey, NOTIFY_CANCEL, { order_id: orderId, reason: 'heartbeat timeout' });
      });
    }, this.heartbeatTimeoutMs);
    timer.unref();
    this.heartbeats.set(caller.apiKey, { id, timer });
    return { heartbeat_id: id };
  }
}

/** What the state file keeps at most (see `stateHistory`): finished orders and trades, and forgotten ids. */
const SAVED_HISTORY = 20_000;
const SAVED_RETIRED_IDS = 200_000;

const NOT_FOUND = Symbol('not found');
const PRIVATE_ROUTES = new Set([
  'GET /auth/api-keys',
  'DELETE /auth/api-key',
  'GET /auth/ban-status/closed-only',
  'POST /order',
  'POST /orders',
  'DELETE /order',
  'DELETE /orders',
  'DELETE /cancel-all',
  'DELETE /cancel-market-orders',
  'GET /data/orders',
  'GET /data/trades',
  'GET /balance-allowance',
  'GET /balance-allowance/update',
  'GET /notifications',
  'DELETE /notifications',
  'GET /order-scoring',
  'POST /orders-scoring',
  'POST /v1/heartbeats',
  'POST /heartbeats',
  'GET /rewards/user',
  'GET /rewards/user/markets',
  'GET /rewards/user/total',
  'GET /rewards/user/percentages',
  'GET /data/pre-migration-orders',
]);

/** Starts a CLOB server on 127.0.0.1 (a free port unless one is given). */
export async function startClobServer(options: ClobServerOptions): Promise<ClobServer> {
  return new ClobServer(options).start();
}
