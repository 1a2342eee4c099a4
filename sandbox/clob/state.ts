// The one state of the sandbox CLOB that every route module, placement and settlement work on: API keys,
// books, orders, trades, notifications, the chain's contracts, the WebSocket feed, and the queue that makes
// every placement, cancel and settlement run one at a time. Also what keeps the records and the published
// books in step: an order's status, a trade's record and status, expiry, notifications and user events.
import { controlsAddress } from './accounts';
import { ClobPublicTrades } from './public-trades';
import { Contract, Wallet, type JsonRpcProvider } from 'ethers';
import { compileContracts } from '../chain/compile';
import { sandboxProvider, type Deployment } from '../chain/deploy';
import type { Catalog, CatalogMarket } from '../market/catalog';
import type { MarketData } from '../market/market-data';
import type { ApiCredentials } from './auth';
import { bookSnapshot } from './book-snapshot';
import { MarketBook } from './engine';
import { HttpError, page, type Query } from './http';
import {
  NOTIFY_CANCEL,
  type Caller,
  type Notification,
  type OrderRecord,
  type OrderStatus,
  type TradeRecord,
  type TradeStatus,
} from './records';
import { RewardJournal } from '../market/reward-journal';
import { SandboxRewards } from './reward-payout';
import { openOrderJson, tradeJson } from './views';
import type { ClobWebSocketChannels, ClobWsOptions } from './ws';

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
   * Model Polymarket's balance/allowance cache lag (share-views.ts): shares a fill brings are not seen by the
   * order checks until `GET /balance-allowance/update` for that token, or this many milliseconds. 0 or absent:
   * seen at once.
   */
  shareViewLagMs?: number;
  /**
   * How many finished orders and trades (the newest) the state file keeps: bounded so a long simulation does not
   * write tens of megabytes every few hundred milliseconds. Older finished orders are saved as forgotten ids.
   */
  stateHistory?: number;
  /** Where the server says what it did with the state file. */
  log?: (line: string) => void;
  /** The WebSocket channels (/ws/market, /ws/user). */
  ws?: ClobWsOptions;
  /** Where liquidity-reward payments are journalled (reward-journal.ts); without it they live in memory. */
  rewardJournalFile?: string;
  /** How often the books are sampled for rewards, and a day's end looked for (60 s; tests shorten it). */
  rewardSampleIntervalMs?: number;
}

export class ClobState {
  readonly provider: JsonRpcProvider;
  readonly operator: Wallet;
  /** The exchange contracts by lower-case address (standard and neg-risk; one for order version 3). */
  readonly exchanges = new Map<string, Contract>();
  readonly collateral: Contract;
  readonly ctf: Contract;
  readonly apiKeys = new Map<string, ApiCredentials & { address: string; nonce: bigint }>();
  readonly books = new Map<string, MarketBook>();
  readonly orders = new Map<string, OrderRecord>();
  /** Finished orders in the order they finished, and the ids of those forgotten (see `retain`). */
  readonly finished: OrderRecord[] = [];
  readonly retired = new Set<string>();
  /** The LIVE ones: what balance reservations and cancel-all look at, so their cost follows the open orders, not history. */
  readonly live = new Set<OrderRecord>();
  readonly trades: TradeRecord[] = [];
  readonly tradesById = new Map<string, TradeRecord>();
  /** The exchange's trades as public feeds show them (Data API /trades, the real-time activity feed). */
  readonly publicTrades: ClobPublicTrades;
  /** Whether POLY_ADDRESS may name an address for a key of an EOA: the EOA or one of its accounts. */
  readonly controls = (eoa: string, address: string): boolean =>
    controlsAddress(this.options.deployment.wallets, eoa, address);
  readonly notifications = new Map<string, Notification[]>();
  notificationSeq = 1;
  readonly heartbeats = new Map<string, { id: string; timer: NodeJS.Timeout }>();
  /** When each market's books last changed: the books' timestamp, so GET /book and the WebSocket agree on the hash. */
  readonly bookTimes = new Map<string, number>();
  feed: ClobWebSocketChannels | undefined;
  /** Cached balance-allowance views per owner address and asset; refreshed by /balance-allowance/update. */
  readonly balanceCache = new Map<string, { balance: bigint; allowances: Record<string, bigint> }>();
  /** The exchange's lagging view of outcome-token balances per owner and token (share-views.ts). */
  readonly shareViews = new Map<string, { balance: bigint; until: number }>();
  /** Every order placement, cancel and settlement runs here one at a time: balances are checked and moved in order. */
  queue: Promise<unknown> = Promise.resolve();
  readonly secret: string;
  readonly now: () => number;
  readonly pageSize: number;
  readonly maxBody: number;
  readonly heartbeatTimeoutMs: number;
  stopped = false;
  heartbeatsFailing = false;
  settlementFault: { retries: number; fail: boolean } | undefined;
  /** Lower-case addresses whose API keys are in close-only mode (`exchangeFaults().closedOnly`). */
  readonly closedOnly = new Set<string>();
  /** Liquidity rewards: order scoring, the day's tallies and the on-chain payouts (reward-payout.ts). */
  readonly rewards: SandboxRewards;
  /** The state file's keeper, told when something worth saving changed. */
  private onChange: (() => void) | undefined;

  constructor(readonly options: ClobServerOptions) {
    const { deployment } = options;
    this.secret = options.serverSecret ?? 'pm-desk-sandbox';
    this.now = options.now ?? Date.now;
    this.pageSize = options.pageSize ?? 500;
    this.maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? 10_000;
    this.publicTrades = new ClobPublicTrades(options.retain?.trades);
    this.provider = sandboxProvider(deployment.rpcUrl, deployment.chainId);
    this.operator = new Wallet(deployment.operator.privateKey, this.provider);
    const abi = compileContracts().CTFExchange.abi;
    for (const address of [deployment.contracts.exchange, deployment.contracts.negRiskExchange]) {
      this.exchanges.set(address.toLowerCase(), new Contract(address, abi, this.operator));
    }
    this.collateral = new Contract(
      deployment.contracts.collateral,
      [
        'function balanceOf(address) view returns (uint256)',
        'function allowance(address,address) view returns (uint256)',
      ],
      this.provider,
    );
    this.ctf = new Contract(
      deployment.contracts.conditionalTokens,
      [
        'function balanceOf(address,uint256) view returns (uint256)',
        'function isApprovedForAll(address,address) view returns (bool)',
      ],
      this.provider,
    );
    this.rewards = new SandboxRewards(
      this,
      new RewardJournal(options.rewardJournalFile, options.log),
      options.rewardSampleIntervalMs,
    );
    for (const event of options.catalog.events) {
      for (const market of event.markets) {
        this.books.set(market.conditionId, new MarketBook());
        this.publishBook(market);
      }
    }
  }

  nowSeconds(): number {
    return Math.floor(this.now() / 1000);
  }

  /** Runs `work` in the queue; unless told otherwise, a save is due after it (places, cancels and settlements change state). */
  exclusive<T>(work: () => Promise<T>, persist = true): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    if (persist)
      void run.then(
        () => this.changed(),
        () => this.changed(),
      );
    return run;
  }

  /** Something worth saving changed (the state file's keeper decides when to write). */
  changed(): void {
    this.onChange?.();
  }

  whenChanged(listener: () => void): void {
    this.onChange = listener;
  }

  callerOf(apiKey: string): Caller {
    const creds = this.apiKeys.get(apiKey);
    if (!creds) throw new Error('unknown API key');
    return { address: creds.address, apiKey };
  }

  page<T>(rows: T[], q: Query) {
    return page(rows, q, this.pageSize);
  }

  // ------------------------------------------------------------------ markets and books

  allMarkets(): CatalogMarket[] {
    return this.options.catalog.events.flatMap((e) => e.markets);
  }

  marketParam(conditionId: string): CatalogMarket {
    const market = this.options.catalog.marketByCondition(conditionId);
    if (!market) throw new HttpError(404, 'market not found');
    return market;
  }

  tokenParam(tokenId: unknown): [CatalogMarket, 0 | 1] {
    if (typeof tokenId !== 'string' || tokenId === '')
      throw new HttpError(400, 'Invalid payload: token_id is required');
    const found = this.options.catalog.token(tokenId);
    if (!found) throw new HttpError(404, `No orderbook exists for the requested token id`);
    return [found.market, found.token.index as 0 | 1];
  }

  levels(market: CatalogMarket, outcome: 0 | 1) {
    const book = this.books.get(market.conditionId)!;
    // Expired GTD orders leave through expireBook, so their records and the published books follow.
    this.expireBook(book);
    return book.levels(outcome);
  }

  snapshot(market: CatalogMarket, outcome: 0 | 1) {
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

  /**
   * Publishes both outcome books of a market. The books keep the time they last changed, so the same state has
   * the same hash in GET /book and on /ws/market; a real change gets a new time and goes out as price_change.
   */
  publishBook(market: CatalogMarket): void {
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

  /** Drops expired GTD orders of a book, marks them cancelled and republishes the market's books. */
  expireBook(book: MarketBook): void {
    let market: CatalogMarket | undefined;
    for (const expired of book.expire(this.nowSeconds())) {
      const record = this.orders.get(expired.id);
      if (record) {
        this.setOrderStatus(record, 'CANCELED');
        market = record.market;
        this.notify(record.owner, NOTIFY_CANCEL, { order_id: record.id, reason: 'expired' });
      }
    }
    if (market) {
      this.publishBook(market);
      this.changed();
    }
  }

  // ------------------------------------------------------------------ orders

  /** Every change of an order's status goes through here: the live set, the finished list and the user events follow. */
  setOrderStatus(record: OrderRecord, status: OrderStatus): void {
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

  liveOrdersOf(apiKey: string): OrderRecord[] {
    for (const book of this.books.values()) this.expireBook(book);
    return [...this.live].filter((o) => o.owner === apiKey);
  }

  /** A user-channel order event for the order's owner. */
  orderEvent(record: OrderRecord, type: 'PLACEMENT' | 'UPDATE' | 'CANCELLATION'): void {
    this.feed?.order(record.owner, record.market.conditionId, {
      ...openOrderJson(record),
      type,
      timestamp: String(this.now()),
    });
  }

  // ------------------------------------------------------------------ trades

  /** Where a new trade is recorded (once, when matched): kept for the trade lists and announced as MATCHED. */
  recordTrade(trade: TradeRecord): void {
    this.trades.push(trade);
    this.tradesById.set(trade.id, trade);
    this.publicTrades.recorded(trade);
    const keep = this.options.retain?.trades ?? 100_000;
    while (this.trades.length > keep) this.tradesById.delete(this.trades.shift()!.id);
    this.tradeEvent(trade);
  }

  /** Where a trade's status changes after the match (RETRYING, MINED, CONFIRMED, FAILED): each change is announced. */
  setTradeStatus(trade: TradeRecord, status: TradeStatus, lastUpdate = this.nowSeconds()): void {
    trade.status = status;
    trade.lastUpdate = lastUpdate;
    this.tradeEvent(trade);
    // Public feeds hear of a trade once its settlement is mined: with its transaction, never a failed one.
    if (status === 'MINED') this.publicTrades.settled(trade);
  }

  /** A user-channel trade event for each owner in the trade, from its own side. */
  private tradeEvent(trade: TradeRecord): void {
    const owners = [trade.owner, ...trade.makers.map((m) => m.owner)];
    this.feed?.trade(owners, trade.market.conditionId, (viewer) => ({
      ...tradeJson(trade, viewer),
      type: 'TRADE',
      trade_owner: viewer,
      timestamp: String(this.now()),
    }));
  }

  // ------------------------------------------------------------------ notifications

  notify(owner: string, type: number, payload: Record<string, unknown>): void {
    const list = this.notifications.get(owner) ?? [];
    list.push({ id: this.notificationSeq++, type, owner, payload, timestamp: this.nowSeconds() });
    // Bounded: a busy bot must not grow memory without end.
    if (list.length > 1000) list.splice(0, list.length - 1000);
    this.notifications.set(owner, list);
  }
}

const DEFAULT_MAX_BODY_BYTES = 1_000_000;
