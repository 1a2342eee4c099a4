// Polymarket direct: the market-data source over Polymarket's public APIs (Gamma for events and markets,
// the Data API for traders and tapes, CLOB public reads for books and price history, the real-time data
// service for live trades), mapped onto the market model so the terminal never knows which source answered.
import { ErrorCode, invalidParameter, isPmDeskError } from '../model/errors';
import type {
  Candle,
  Comment,
  FillHistory,
  Market,
  MarketOrderBooks,
  MarketTrade,
  PredictionEvent,
  SearchFilter,
  SearchMatch,
  Trader,
  TraderActivity,
  TraderPosition,
} from '../model/market-model';
import { consoleLogger, type Logger } from '../base/logger';
import type {
  ChartInterval,
  EventListOptions,
  EventListPage,
  FillHandlers,
  FillSubscription,
  MarketSource,
  TradePageOptions,
} from '../model/market-source';
import { CANDLE_SECONDS, candlesFromHistory, historyWindow } from './candles';
import { ClobPublicReads } from './clob-reads';
import { DataClient } from './data';
import { EVENTS_PAGE_SIZE, FILL_HISTORY_LIMIT, GAMMA_PATHS, SEARCH_PAGES_MAX } from './endpoints';
import { subscribePolymarketFills, type FillTiming } from './fills';
import { followTraders, type FollowHandlers, type TraderFollow } from './followed-trades';
import { TraderBoards } from './traders';
import { GammaClient, type ListFilters } from './gamma';
import type { GammaEvent, GammaMarket } from './gamma-schemas';
import { KeysetList } from './keyset';
import { wholeNumber } from './client-options';
import {
  POLYMARKET,
  toComment,
  toMarket,
  toMarketTrade,
  toPredictionEvent,
  toTradeRecord,
  toTrader,
  toTraderActivity,
  toTraderPosition,
} from './mapping';
import type { WebSocketConstructor } from './rtds';
import type { RetryNotice } from '../http/retry';
import type { ApiNotice, RateLimitReading } from '../http/answer-headers';

export interface PolymarketSourceOptions {
  gammaUrl: string;
  dataUrl: string;
  clobUrl: string;
  /** The real-time data service (ws:// or wss://); without it live fills are polled. */
  rtdsUrl?: string;
  timeoutMs?: number;
  logger?: Logger;
  fetch?: typeof fetch;
  /** Told before a throttled read is retried ("rate limited, retrying in N s"). */
  onRetry?: (notice: RetryNotice) => void;
  /** The largest answer accepted from Gamma, the Data API and the CLOB reads (16 MB by default). */
  maxAnswerBytes?: number;
  WebSocket?: WebSocketConstructor;
  /** Live-fill polling and reconnect periods (tests shorten them). */
  timing?: FillTiming;
  /**
   * Told once of what the trader should know about how Polymarket is read: an endpoint whose answers say it is
   * deprecated or past its sunset, a list read through the deprecated offset path because its keyset list is missing.
   */
  onNotice?: (notice: ApiNotice) => void;
  /** Told of every answer's `Poly-RateLimit-*` headers (remaining, reset, tier, warning). */
  onRateLimit?: (reading: RateLimitReading) => void;
}

const CHART_INTERVALS = Object.keys(CANDLE_SECONDS);

export class PolymarketSource implements MarketSource {
  readonly kind = 'polymarket' as const;
  readonly gamma: GammaClient;
  readonly data: DataClient;
  readonly clob: ClobPublicReads;
  /** The trader leaderboard and a market's top holders (Data API). */
  readonly traders: TraderBoards;
  private readonly logger: Logger;
  /** Events and markets listed by keyset, the deprecated offset lists only when Gamma has no keyset list. */
  readonly eventLists: KeysetList<GammaEvent>;
  readonly marketLists: KeysetList<GammaMarket>;

  constructor(private readonly options: PolymarketSourceOptions) {
    this.logger = options.logger ?? consoleLogger;
    const onNotice = (notice: ApiNotice) => {
      try {
        options.onNotice?.(notice);
      } catch (error) {
        this.logger.warn(`A notice listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    const shared = {
      timeoutMs: options.timeoutMs,
      logger: this.logger,
      fetch: options.fetch,
      onRetry: options.onRetry,
      maxAnswerBytes: options.maxAnswerBytes,
      onNotice,
      onRateLimit: options.onRateLimit,
    };
    this.gamma = new GammaClient({ baseUrl: options.gammaUrl, ...shared });
    this.data = new DataClient({ baseUrl: options.dataUrl, ...shared });
    this.clob = new ClobPublicReads({ baseUrl: options.clobUrl, ...shared });
    this.traders = new TraderBoards({ baseUrl: options.dataUrl, ...shared });
    this.eventLists = new KeysetList<GammaEvent>(
      { what: 'events', keysetRoute: GAMMA_PATHS.eventsKeyset, offsetRoute: GAMMA_PATHS.events },
      {
        keyset: (filters, limit, cursor) => this.gamma.listEventsKeyset(filters, limit, cursor),
        offset: (filters, limit, offset) => this.gamma.listEvents({ ...filters, limit, offset }),
      },
      onNotice,
    );
    this.marketLists = new KeysetList<GammaMarket>(
      { what: 'markets', keysetRoute: GAMMA_PATHS.marketsKeyset, offsetRoute: GAMMA_PATHS.markets },
      {
        keyset: (filters, limit, cursor) => this.gamma.listMarketsKeyset(filters, limit, cursor),
        offset: (filters, limit, offset) => this.gamma.listMarkets({ ...filters, limit, offset }),
      },
      onNotice,
    );
  }

  /** Live events, largest 24 h volume first unless told otherwise; page (1-based) or offset, read by keyset. */
  async listEvents(options: EventListOptions = {}): Promise<PredictionEvent[]> {
    const { filters, limit } = this.eventListOptions(options, 'listEvents');
    if (options.page !== undefined) wholeNumber('page', options.page, 1, 'listEvents');
    if (options.offset !== undefined) wholeNumber('offset', options.offset, 0, 'listEvents');
    const offset = options.offset ?? ((options.page ?? 1) - 1) * limit;
    const events = await this.eventLists.range('listEvents', filters, offset, limit);
    return events.map(toPredictionEvent);
  }

  /** Live events after a cursor (the first page without one), and the cursor of the next page: the keyset list as it is. */
  async listEventsPage(options: EventListOptions = {}, cursor?: string): Promise<EventListPage> {
    const { filters, limit } = this.eventListOptions(options, 'listEvents');
    if (cursor !== undefined && (typeof cursor !== 'string' || cursor.trim() === '')) {
      throw invalidParameter("Parameter 'cursor' must be the next cursor a previous page gave.", 'listEvents');
    }
    const page = await this.eventLists.page('listEvents', filters, limit, cursor);
    const events = page.items.map(toPredictionEvent);
    return page.nextCursor === undefined ? { events } : { events, nextCursor: page.nextCursor };
  }

  /** Live markets after a cursor, largest 24 h volume first unless told otherwise, and the cursor of the next page. */
  async listMarketsPage(
    options: EventListOptions = {},
    cursor?: string,
  ): Promise<{ markets: Market[]; nextCursor?: string }> {
    const { filters, limit } = this.eventListOptions(options, 'listMarkets');
    const page = await this.marketLists.page('listMarkets', filters, limit, cursor);
    const markets = page.items.map(toMarket);
    return page.nextCursor === undefined ? { markets } : { markets, nextCursor: page.nextCursor };
  }

  private eventListOptions(options: EventListOptions, methodName: string): { filters: ListFilters; limit: number } {
    if (options.protocol !== undefined) onlyPolymarket(options.protocol, methodName);
    const limit = options.limit ?? EVENTS_PAGE_SIZE;
    wholeNumber('limit', limit, 1, methodName);
    return {
      limit,
      filters: {
        order: options.order ?? 'volume24hr',
        ascending: false,
        tagSlug: options.tag,
        active: true,
        closed: false,
      },
    };
  }

  async getEvent(protocol: string, eventId: string): Promise<PredictionEvent> {
    onlyPolymarket(protocol, 'getEvent');
    return toPredictionEvent(await this.gamma.getEvent(eventId));
  }

  async getEventsBySlug(slug: string): Promise<PredictionEvent[]> {
    return [toPredictionEvent(await this.gamma.getEventBySlug(slug))];
  }

  async getMarket(protocol: string, marketId: string): Promise<Market> {
    onlyPolymarket(protocol, 'getMarket');
    return toMarket(await this.gamma.getMarket(marketId));
  }

  async getMarketsBySlug(slug: string): Promise<Market[]> {
    return [toMarket(await this.gamma.getMarketBySlug(slug))];
  }

  /**
   * Gamma's public search, best first. Gamma gives a rank, not a score: the n-th event scores 1/n, so the first
   * is 1 and a threshold keeps the top ranks. Protocols are ignored: this source has one.
   */
  async search(query: string, filter: SearchFilter = {}): Promise<SearchMatch[]> {
    const wanted = filter.topK ?? 20;
    wholeNumber('topK', wanted, 1, 'search');
    if (filter.threshold !== undefined && !Number.isFinite(filter.threshold))
      throw invalidParameter("Parameter 'threshold' must be a number.", 'search');
    const events = await this.gamma.searchEvents(query, wanted, SEARCH_PAGES_MAX);
    return events
      .map((event, rank) => ({ event: toPredictionEvent(event), cosineSimilarity: 1 / (rank + 1) }))
      .filter((match) => filter.threshold === undefined || match.cosineSimilarity >= filter.threshold);
  }

  async listSlugs({ page = 1, limit = 100 }: { page?: number; limit?: number } = {}): Promise<string[]> {
    wholeNumber('page', page, 1, 'listSlugs');
    wholeNumber('limit', limit, 1, 'listSlugs');
    const filters: ListFilters = { order: 'volume24hr', ascending: false, active: true, closed: false };
    const events = await this.eventLists.range('listSlugs', filters, (page - 1) * limit, limit);
    return events.map((event) => event.slug).filter(Boolean);
  }

  async getEventComments(protocol: string, eventId: string): Promise<Comment[]> {
    onlyPolymarket(protocol, 'getEventComments');
    return (await this.gamma.listEventComments(eventId)).map(toComment);
  }

  /**
   * One CLOB book per outcome token of the market, keyed by token id. An outcome whose book the CLOB does not
   * have (404: a resolved market's side) is left out, so the other side still shows; any other failure fails
   * the read.
   */
  async getOrderBooks(protocol: string, marketId: string): Promise<MarketOrderBooks> {
    onlyPolymarket(protocol, 'getOrderBooks');
    const market = await this.getMarket(protocol, marketId);
    const books = await Promise.allSettled(market.position_tokens.map((token) => this.clob.getBook(token.token_id)));
    const result: MarketOrderBooks = {};
    market.position_tokens.forEach((token, index) => {
      const answer = books[index]!;
      if (answer.status === 'rejected') {
        if (isPmDeskError(answer.reason) && answer.reason.code === ErrorCode.NOT_FOUND) return;
        throw answer.reason;
      }
      const book = answer.value;
      result[token.token_id] = {
        market: book.market,
        asset_id: book.asset_id,
        timestamp: book.timestamp,
        bids: book.bids,
        asks: book.asks,
        hash: book.hash,
      };
    });
    return result;
  }

  /** The market's recent taker fills (Data API), oldest first, one list per outcome token in position_tokens order. */
  async getFillHistory(protocol: string, marketId: string): Promise<FillHistory> {
    onlyPolymarket(protocol, 'getFillHistory');
    const market = await this.getMarket(protocol, marketId);
    return (await this.recentFills(market)).perToken;
  }

  /** Candles of one outcome from the CLOB's price history; volume from the recent fills where they cover a bucket. */
  async getCandles(
    protocol: string,
    marketId: string,
    outcomeIndex: number,
    interval: ChartInterval,
  ): Promise<Candle[]> {
    onlyPolymarket(protocol, 'getCandles');
    if (!CHART_INTERVALS.includes(interval)) {
      throw invalidParameter(`Unknown chart interval '${interval}': use ${CHART_INTERVALS.join(', ')}.`, 'getCandles');
    }
    const market = await this.getMarket(protocol, marketId);
    const token = market.position_tokens[outcomeIndex];
    if (!Number.isInteger(outcomeIndex) || !token) {
      throw invalidParameter(
        `The market has no outcome ${outcomeIndex} (it has ${market.position_tokens.length}).`,
        'getCandles',
      );
    }
    const window = historyWindow(interval);
    const [points, fills] = await Promise.all([
      this.clob.getPriceHistory({ tokenId: token.token_id, ...window }),
      this.recentFills(market),
    ]);
    return candlesFromHistory(points, CANDLE_SECONDS[interval], fills.perToken[outcomeIndex] ?? [], fills.complete);
  }

  /** Gamma's public profile (an address without one still has a portfolio) with the Data API's value and markets traded. */
  async getTrader(protocol: string, address: string): Promise<Trader> {
    onlyPolymarket(protocol, 'getTrader');
    const profile = await this.gamma.getPublicProfile(address);
    const wallet = profile?.proxyWallet || address;
    const [value, marketsTraded] = await Promise.all([this.data.getValue(wallet), this.data.getMarketsTraded(wallet)]);
    return toTrader({ address, profile, value, marketsTraded });
  }

  async getTraderPositions(protocol: string, address: string): Promise<TraderPosition[]> {
    onlyPolymarket(protocol, 'getTraderPositions');
    return (await this.data.getPositions(address)).map(toTraderPosition);
  }

  async getTraderActivity(address: string, page: TradePageOptions = {}): Promise<TraderActivity[]> {
    return (await this.data.getActivity(address, page)).map(toTraderActivity);
  }

  /** The trader's trades, maker and taker sides both, newest first. */
  async getTraderTrades(address: string, page: TradePageOptions = {}): Promise<MarketTrade[]> {
    const trades = await this.data.getTrades({ user: address, takerOnly: false, ...page }, 'getTraderTrades');
    return trades.map(toMarketTrade);
  }

  async getProfileWallet(address: string): Promise<string | null> {
    const profile = await this.gamma.getPublicProfile(address);
    return profile?.proxyWallet || null;
  }

  /** Live trades from the real-time service, polled from the Data API when that service is away. */
  subscribeToFills(protocol: string, marketId: string, handlers: FillHandlers = {}): FillSubscription {
    onlyPolymarket(protocol, 'subscribeToFills');
    if (typeof marketId !== 'string' || marketId.trim() === '')
      throw invalidParameter("Missing required parameter 'marketId'.", 'subscribeToFills');
    return subscribePolymarketFills({
      marketId,
      loadMarket: () => this.getMarket(protocol, marketId),
      pollTrades: (conditionId) =>
        this.data.getTrades({ market: conditionId, takerOnly: true, limit: 100 }, 'subscribeToFills'),
      rtdsUrl: this.options.rtdsUrl,
      WebSocket: this.options.WebSocket,
      handlers,
      logger: this.logger,
      timing: this.options.timing,
    });
  }

  /** The followed wallets' trades as they happen: the real-time feed, each wallet's trades polled while it is away. */
  followTraders(wallets: readonly string[], handlers: FollowHandlers): TraderFollow {
    return followTraders({
      wallets,
      pollTrades: (wallet) => this.data.getTrades({ user: wallet, takerOnly: true, limit: 100 }, 'followTraders'),
      rtdsUrl: this.options.rtdsUrl,
      WebSocket: this.options.WebSocket,
      handlers,
      logger: this.logger,
      timing: this.options.timing,
    });
  }

  /** The market's last FILL_HISTORY_LIMIT taker fills split by token, oldest first; `complete` when fewer came back. */
  private async recentFills(market: Market): Promise<{ perToken: FillHistory; complete: boolean }> {
    const perToken: FillHistory = market.position_tokens.map(() => []);
    if (!market.conditionId) return { perToken, complete: true };
    const trades = await this.data.getTrades(
      { market: market.conditionId, takerOnly: true, limit: FILL_HISTORY_LIMIT },
      'getFillHistory',
    );
    const index = new Map(market.position_tokens.map((token, i) => [token.token_id, i]));
    for (const trade of [...trades].reverse()) {
      const at = index.get(trade.asset);
      if (at !== undefined) perToken[at]!.push(toTradeRecord(trade));
    }
    // The API answers newest first; a stable sort by time keeps same-second fills in the order they happened.
    for (const fills of perToken) fills.sort((a, b) => a.timestamp - b.timestamp);
    return { perToken, complete: trades.length < FILL_HISTORY_LIMIT };
  }
}

/** This source reads Polymarket only; any other protocol is a caller's mistake, said in a sentence. */
function onlyPolymarket(protocol: unknown, methodName: string): void {
  if (protocol !== POLYMARKET) {
    throw invalidParameter(
      `The Polymarket source reads only protocol 'polymarket', not '${String(protocol)}'.`,
      methodName,
      { protocol: String(protocol) },
    );
  }
}
