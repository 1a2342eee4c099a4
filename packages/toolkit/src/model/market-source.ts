// One interface over every market-data source: the terminal, the order flow and the CLI read markets, books,
// history, traders and live trades through it and never know whether the aggregator or Polymarket's own APIs
// (Gamma, Data API, CLOB, real-time feed) answered. Each source maps its wire shapes onto the market model
// (packages/toolkit/src/model/market-model.ts) in its own folder; a network profile names the source it uses.
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
  TradeRecord,
} from './market-model';
import type { PmDeskError } from './errors';

import type { ChartInterval, MarketSourceKind } from './lists';

// The lists live in the pure model (browser code and the app's contract read them there); re-exported here.
export { MARKET_SOURCE_KINDS, CHART_INTERVALS, type MarketSourceKind, type ChartInterval } from './lists';

export interface EventListOptions {
  /** The aggregator lists one protocol at a time; a single-protocol source accepts only its own. */
  protocol?: string;
  /** 1-based page of `limit` events (the aggregator's paging; Polymarket direct turns it into an offset). */
  page?: number;
  limit?: number;
  /** An offset instead of a page (Polymarket direct; the aggregator needs it to be a whole page). */
  offset?: number;
  /** A tag slug ("politics"), where the source has tags. */
  tag?: string;
  /** Sort field, largest first ("volume24hr", "volume", "liquidity", "endDate" …), where the source sorts. */
  order?: string;
}

/** One page of a list read by cursor, and the cursor of the next (absent after the last page). */
export interface EventListPage {
  events: PredictionEvent[];
  nextCursor?: string;
}

export interface TradePageOptions {
  limit?: number;
  offset?: number;
}

/** Live fills of one market: opened, each fill, errors, closed (once). The source never reconnects on its own. */
export interface FillHandlers {
  onOpen?: () => void;
  onFill?: (fill: TradeRecord) => void;
  /** A bad message (the stream stays open) or the stream's end (followed by onClose). */
  onError?: (error: PmDeskError) => void;
  /** Once, when the stream is closed: with the error that closed it, or none when the caller closed it. */
  onClose?: (error?: PmDeskError) => void;
  /** The stream fell back to polling (the source's live feed is not reachable) or went live again. */
  onMode?: (mode: 'live' | 'polling') => void;
}

export interface FillSubscription {
  readonly state: 'connecting' | 'open' | 'closed';
  /** The latest valid fill, or null before the first. */
  latest(): TradeRecord | null;
  close(): void;
  /** Settles when the stream is closed: with the error that closed it, or null when the caller closed it. */
  readonly done: Promise<PmDeskError | null>;
}

/**
 * Every read the terminal makes of a market-data source. Ids are the source's own (an aggregator market id, a
 * Gamma market id); a market read through a source carries the exchange's condition id and token ids, which
 * are the same everywhere. A failure is a PmDeskError with a catalogued code (ERR_NOT_FOUND, ERR_VALIDATION
 * naming the field, ERR_NETWORK …); a read a source cannot make at all is ERR_NOT_AVAILABLE with a sentence.
 */
export interface MarketSource {
  readonly kind: MarketSourceKind;
  listEvents(options?: EventListOptions): Promise<PredictionEvent[]>;
  /** Events after a cursor and the cursor of the next page, where the source lists by cursor (Polymarket direct). */
  listEventsPage?(options?: EventListOptions, cursor?: string): Promise<EventListPage>;
  getEvent(protocol: string, eventId: string): Promise<PredictionEvent>;
  getEventsBySlug(slug: string): Promise<PredictionEvent[]>;
  getMarket(protocol: string, marketId: string): Promise<Market>;
  getMarketsBySlug(slug: string): Promise<Market[]>;
  /** Free-text search, best match first. */
  search(query: string, filter?: SearchFilter): Promise<SearchMatch[]>;
  /** Slugs of listed events, a page at a time. */
  listSlugs(options?: { page?: number; limit?: number }): Promise<string[]>;
  getEventComments(protocol: string, eventId: string): Promise<Comment[]>;
  /** One book per outcome token, keyed by token id. */
  getOrderBooks(protocol: string, marketId: string): Promise<MarketOrderBooks>;
  /** Recent fills per outcome token, in position_tokens order (the tape's seed and the chart's volume). */
  getFillHistory(protocol: string, marketId: string): Promise<FillHistory>;
  /** Candles of one outcome for a chart interval, oldest first. */
  getCandles(protocol: string, marketId: string, outcomeIndex: number, interval: ChartInterval): Promise<Candle[]>;
  getTrader(protocol: string, address: string): Promise<Trader>;
  getTraderPositions(protocol: string, address: string): Promise<TraderPosition[]>;
  getTraderActivity(address: string, page?: TradePageOptions): Promise<TraderActivity[]>;
  getTraderTrades(address: string, page?: TradePageOptions): Promise<MarketTrade[]>;
  /**
   * The trading wallet Polymarket's profile names for an address (a key's proxy, Safe or deposit wallet), or
   * null when it has no profile. Only where the source knows profiles.
   */
  getProfileWallet?(address: string): Promise<string | null>;
  /** Live fills of one market. */
  subscribeToFills(protocol: string, marketId: string, handlers?: FillHandlers): FillSubscription;
}
