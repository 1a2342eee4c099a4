// The sandbox's CLOB server: Polymarket's exchange REST protocol on 127.0.0.1 with its real rules (L1/L2 auth,
// EIP-712 order signatures checked with ethers against the right exchange, tick, size, precision, balance and
// allowance on the chain), the matching engine, and settlement ON the chain by the operator's matchOrders.
// Bots of the market simulator use the same path in-process through placeOrder/cancelOrders.
// This file starts and stops it and dispatches requests; each route lives in one module of routes/, over the
// one shared state of state.ts (placement.ts, settlement.ts and persistence.ts do the work behind them).
import type { ClobPublicTrades } from './public-trades';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getAddress } from 'ethers';
import type { CatalogMarket } from '../market/catalog';
import type { BookSnapshot } from '../market/market-data';
import { AuthError, deriveCredentials, verifyL2, type ApiCredentials } from './auth';
import { HttpError, readBody, sendJson } from './http';
import { ClobStateKeeper } from './persistence';
import type { RewardJournal } from '../market/reward-journal';
import type { RewardPayoutReport } from './reward-payout';
import { cancelOrders, placeOrder } from './placement';
import { NOTIFY_CANCEL, type ExchangeFaults, type OrderResponse } from './records';
import { AUTH_ROUTES, apiKeyRoutes } from './routes/auth';
import { marketRoutes } from './routes/markets';
import { ORDER_BY_ID_PREFIX, ORDER_ROUTES, orderById } from './routes/orders';
import { REWARD_ROUTES, marketRewardRoutes } from './routes/rewards';
import { TRADE_ROUTES, builderTradeRoutes } from './routes/trades';
import { NOT_FOUND, type ClobRequest, type PrivateRoutes, type PublicRoutes } from './routing';
import { ClobState, type ClobServerOptions } from './state';
import { ClobWebSocketChannels, type WsFaults } from './ws';

export { INITIAL_CURSOR, END_CURSOR } from './http';
export { GTD_MIN_LIFETIME_SECONDS } from './placement';
export type { ClobServerOptions } from './state';
export type { ExchangeFaults, OrderResponse, OrderStatus, TradeStatus } from './records';

/** Routes anyone may call, asked in turn; level 1 (API key create/derive) comes after them. */
const PUBLIC_ROUTES: readonly PublicRoutes[] = [marketRoutes, marketRewardRoutes, builderTradeRoutes, apiKeyRoutes];
/** Every level 2 route, by "METHOD /path". */
const PRIVATE_ROUTES: PrivateRoutes = { ...AUTH_ROUTES, ...ORDER_ROUTES, ...TRADE_ROUTES, ...REWARD_ROUTES };

export class ClobServer {
  private server: Server | undefined;
  private readonly state: ClobState;
  private readonly keeper: ClobStateKeeper | undefined;

  constructor(private readonly options: ClobServerOptions) {
    this.state = new ClobState(options);
    this.keeper = options.stateFile ? new ClobStateKeeper(this.state, options.stateFile) : undefined;
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (!address) throw new Error('the CLOB server is not listening');
    return `http://${this.options.host ?? '127.0.0.1'}:${address.port}`;
  }

  async start(): Promise<this> {
    await this.keeper?.load();
    await this.state.rewards.journal.load();
    this.state.rewards.start();
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.requestTimeout = 30_000;
    this.server.headersTimeout = 10_000;
    this.state.feed = new ClobWebSocketChannels(
      this.server,
      {
        book: (tokenId) => this.options.marketData.book(tokenId),
        credentials: (apiKey) => this.state.apiKeys.get(apiKey),
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
    const { state } = this;
    state.stopped = true;
    state.rewards.stop();
    for (const { timer } of state.heartbeats.values()) clearTimeout(timer);
    state.heartbeats.clear();
    const server = this.server;
    this.server = undefined;
    // Upgraded sockets are no longer the http server's: closeAllConnections would not end them.
    state.feed?.close();
    state.feed = undefined;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // No more debounced saves: work still queued marks the state dirty and the save below writes it.
    this.keeper?.stopSaving();
    await state.queue.catch(() => undefined);
    // The last word: whatever changed since the last debounced save, written before the chain goes away.
    await this.keeper?.saveIfDirty();
    await state.rewards.journal.flush();
    state.provider.destroy();
  }

  // ------------------------------------------------------------------ in-process API (bots, the sandbox command)

  /**
   * The API key of an address and nonce, registered if new: what POST /auth/api-key gives after an L1
   * signature, for in-process callers that hold the wallet already.
   */
  apiKeyFor(address: string, nonce = 0n): ApiCredentials {
    const checksummed = getAddress(address);
    const creds = deriveCredentials(this.state.secret, checksummed, nonce);
    if (!this.state.apiKeys.has(creds.apiKey)) this.state.changed();
    this.state.apiKeys.set(creds.apiKey, { ...creds, address: checksummed, nonce });
    return creds;
  }

  /** Places a POST /order body as the owner of `apiKey`: the same checks, matching and settlement as HTTP. */
  async placeOrder(body: unknown, apiKey: string): Promise<OrderResponse> {
    const caller = this.state.callerOf(apiKey);
    return this.state.exclusive(() => placeOrder(this.state, body, caller));
  }

  /** Cancels orders of `apiKey`'s owner. */
  async cancelOrders(
    apiKey: string,
    orderIds: readonly string[],
  ): Promise<{ canceled: string[]; not_canceled: Record<string, string> }> {
    const caller = this.state.callerOf(apiKey);
    return this.state.exclusive(async () => cancelOrders(this.state, caller, orderIds));
  }

  /** Cancels one order of `apiKey`'s owner. */
  async cancel(apiKey: string, orderId: string): Promise<{ canceled: string[]; not_canceled: Record<string, string> }> {
    return this.cancelOrders(apiKey, [orderId]);
  }

  /** Ids of the owner's live orders, for bots that cancel what they quoted. */
  openOrderIds(apiKey: string): string[] {
    return this.state.liveOrdersOf(apiKey).map((o) => o.id);
  }

  /**
   * Every settled (or settling) fill, one row per side of each trade, in each trader's own outcome and price:
   * what the aggregator's trader profiles count as volume, trades and average prices.
   */
  settledFills(): {
    address: string;
    tokenId: string;
    side: 'BUY' | 'SELL';
    shares: number;
    price: number;
    timestamp: number;
  }[] {
    const rows: {
      address: string;
      tokenId: string;
      side: 'BUY' | 'SELL';
      shares: number;
      price: number;
      timestamp: number;
    }[] = [];
    for (const t of this.state.trades) {
      if (t.status === 'FAILED') continue;
      const timestamp = t.matchTime; // already Unix seconds
      rows.push({
        address: t.makerAddress,
        tokenId: t.tokenId,
        side: t.side,
        shares: Number(t.shares) / 1e6,
        price: t.price / 10_000,
        timestamp,
      });
      for (const m of t.makers) {
        rows.push({
          address: m.makerAddress,
          tokenId: m.tokenId,
          side: m.side,
          shares: Number(m.shares) / 1e6,
          price: m.price / 10_000,
          timestamp,
        });
      }
    }
    return rows;
  }

  /** Trades whose settlement reverted, with the reason: empty while every match settles. */
  failedTrades(): { id: string; error: string | null }[] {
    return this.state.trades.filter((t) => t.status === 'FAILED').map((t) => ({ id: t.id, error: t.errMsg }));
  }

  /** One outcome's book as GET /book serves it, for tests and the simulator. */
  book(tokenId: string) {
    const found = this.options.catalog.token(tokenId);
    if (!found) return undefined;
    return this.state.snapshot(found.market, found.token.index as 0 | 1);
  }

  /**
   * Publishes books made outside the engine on /ws/market as the exchange publishes its own (price_change
   * deltas from the last published book, or a `book` when no level moved): for benchmarks that need a book
   * busier than any order flow the sandbox can sign and match (thousands of updates a second). The engine's
   * own orders are untouched; its next publication replaces these books.
   */
  publishBooks(conditionId: string, books: readonly BookSnapshot[]): void {
    const before = books.map((book) => this.options.marketData.book(book.asset_id));
    for (const book of books) this.options.marketData.setBook(book.asset_id, book);
    const feed = this.state.feed;
    feed?.inOneWrite(() => feed.booksChanged(conditionId, before, books));
  }

  /**
   * Pays the liquidity rewards tallied since the last payout, on chain, as the end of a sandbox day does
   * (reward-payout.ts): what POST /admin/rewards and `npm run sandbox:rewards` run.
   */
  payRewards(): Promise<RewardPayoutReport> {
    return this.state.rewards.payout();
  }

  /** Every liquidity-reward payment made (the Data API's REWARD activity reads them). */
  get rewardPayments(): RewardJournal {
    return this.state.rewards.journal;
  }

  /** The exchange's trades as public feeds show them (Data API /trades, the real-time activity feed). */
  get publicTrades(): ClobPublicTrades {
    return this.state.publicTrades;
  }

  /** Faults for tests of a client's feed logic (see `WsFaults`); the server must be started. */
  wsFaults(): WsFaults {
    if (!this.state.feed) throw new Error('the CLOB server is not listening');
    return this.state.feed.faults;
  }

  /** Faults of settlement and heartbeats, and accounts put in close-only mode (see `ExchangeFaults`). */
  exchangeFaults(): ExchangeFaults {
    return {
      failHeartbeats: (on) => {
        this.state.heartbeatsFailing = on;
      },
      nextSettlement: (plan) => {
        this.state.settlementFault = { ...plan };
      },
      closedOnly: (address, on) => {
        if (on) this.state.closedOnly.add(address.toLowerCase());
        else this.state.closedOnly.delete(address.toLowerCase());
      },
    };
  }

  /**
   * Closes a resolved market for good: it takes no new orders, every resting order is cancelled (its owner told
   * why) and the emptied books published. `onChain` runs in the same turn of the queue, so the operator's
   * resolution transaction never races a settlement for the operator's nonce. Returns the cancelled order ids.
   */
  async closeMarket<T>(
    conditionId: string,
    winner: 0 | 1,
    onChain: () => Promise<T>,
  ): Promise<{ cancelled: string[]; result: T }> {
    const { state } = this;
    const market = state.marketParam(conditionId);
    return state.exclusive(async () => {
      market.acceptingOrders = false;
      const book = state.books.get(market.conditionId)!;
      const cancelled: string[] = [];
      for (const record of [...state.live].filter((o) => o.market === market)) {
        book.cancel(record.id);
        state.setOrderStatus(record, 'CANCELED');
        state.notify(record.owner, NOTIFY_CANCEL, { order_id: record.id, reason: 'market resolved' });
        cancelled.push(record.id);
      }
      state.publishBook(market);
      const result = await onChain();
      market.closed = true;
      const winning = market.tokens[winner];
      state.feed?.marketResolved({
        market: market.conditionId,
        assets_ids: market.tokens.map((t) => t.tokenId),
        winning_asset_id: winning.tokenId,
        winning_outcome: winning.name,
        timestamp: String(state.now()),
      });
      return { cancelled, result };
    });
  }

  /** Changes a market's tick size (Polymarket does near the price extremes); tells /ws/market subscribers. */
  setTickSize(conditionId: string, tickSize: CatalogMarket['tickSize']): void {
    const market = this.state.marketParam(conditionId);
    const old = market.tickSize;
    if (old === tickSize) return;
    market.tickSize = tickSize;
    this.state.feed?.tickSizeChanged(
      conditionId,
      market.tokens.map((t) => t.tokenId),
      old,
      tickSize,
      String(this.state.now()),
    );
    this.state.publishBook(market);
  }

  // ------------------------------------------------------------------ HTTP

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const body = await readBody(req, this.state.maxBody);
      const result = await this.route(req, url, body);
      sendJson(res, 200, result);
    } catch (error) {
      if (error instanceof HttpError) sendJson(res, error.status, { ...error.extra, error: error.message });
      else if (error instanceof AuthError) sendJson(res, error.status, { error: error.message });
      else {
        // Never crash on a request: an unexpected failure is this request's 500, logged for the developer.
        console.error('[sandbox clob]', error);
        sendJson(res, 500, { error: 'internal error' });
      }
    }
  }

  private async route(req: IncomingMessage, url: URL, raw: string): Promise<unknown> {
    const method = req.method ?? 'GET';
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const request: ClobRequest = { req, method, path, key: `${method} ${path}`, q: url.searchParams, raw };
    for (const routes of PUBLIC_ROUTES) {
      const answer = routes(this.state, request);
      if (answer !== NOT_FOUND) return answer;
    }

    // Level 2: everything private. The signed path never includes the query string. Unknown paths are 404
    // before any authentication, so a probe learns nothing from a 401.
    const handler = Object.hasOwn(PRIVATE_ROUTES, request.key)
      ? PRIVATE_ROUTES[request.key]!
      : method === 'GET' && path.startsWith(ORDER_BY_ID_PREFIX)
        ? orderById
        : undefined;
    if (!handler) throw new HttpError(404, `not found: ${method} ${path}`);
    const caller = verifyL2(
      req.headers,
      { method, path, body: raw },
      (key) => this.state.apiKeys.get(key),
      this.state.nowSeconds(),
      this.state.controls,
    );
    return handler(this.state, caller, request);
  }
}

/** Starts a CLOB server on 127.0.0.1 (a free port unless one is given). */
export async function startClobServer(options: ClobServerOptions): Promise<ClobServer> {
  return new ClobServer(options).start();
}
