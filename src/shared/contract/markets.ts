// Market data: what the network's market-data source answers (events, books, candles, traders), the live
// feeds of a market, what the APIs said about themselves, and the operations that read them.
import { z } from 'zod';
import type { Book } from '../book';
import type {
  Candle,
  Comment,
  FillHistory,
  Market,
  PredictionEvent,
  SearchMatch,
  Trader,
  TraderActivity,
  TraderPosition,
} from '@pmdesk/toolkit/model';
import { CANDLE_INTERVALS, id, noInput, op, protocol } from './inputs';

/** `stale`: connected, but nothing (not even a PONG) heard for a while: its books may be behind. */
export type FeedState = 'connecting' | 'open' | 'stale' | 'closed';

/** Something an API said about itself this session (a deprecated endpoint, a list read through its fallback). */
export interface ApiNoticeInfo {
  kind: 'deprecated' | 'fallback' | 'engine-restarting' | 'post-only';
  /** "Gamma", "Data API", "CLOB". */
  api: string;
  /** The method and route (`GET /events`), never an id. */
  endpoint: string;
  message: string;
  /** The network whose source heard it. */
  network: string;
  /** When it was first heard, epoch ms. */
  at: number;
}

/** The last rate-limit headers (`Poly-RateLimit-*`) one endpoint answered with. */
export interface RateLimitInfo {
  api: string;
  endpoint: string;
  status: number;
  remaining?: number;
  /** When the budget resets, epoch ms. */
  resetAt?: number;
  tier?: string;
  /** Polymarket is in warning mode: not yet enforcing, but would be. */
  warning: boolean;
  network: string;
  at: number;
}

/** What the APIs said about themselves this session: the diagnostics view. */
export interface DiagnosticsInfo {
  notices: ApiNoticeInfo[];
  rateLimits: RateLimitInfo[];
}

export interface EventPage {
  events: PredictionEvent[];
  page: number;
  limit: number;
  /** A full page came back: there may be another. */
  hasMore: boolean;
}

/** A chart candle as the contract carries it (the toolkit's Candle). */
export type CandleBar = Candle;

export interface FillSubscriptionInfo {
  marketId: string;
  /** Fills (or books) arrive as `fill` (`bookUpdate`) events; the feed's state as `feedStatus` events. */
  state: FeedState;
}

/**
 * A market's state as main last read it, pushed as `marketState` when it changes: open, closed awaiting its
 * resolution, or resolved (the chain's payouts, else the source's final word).
 */
export interface MarketStateInfo {
  protocol: string;
  marketId: string;
  state: 'open' | 'closed' | 'resolved';
  /** Resolved: the outcome that pays $1 a share; null otherwise (and for a market that split its payout). */
  winnerTokenId: string | null;
  /** Resolved: what each outcome's share pays (1 or 0; 0.5 each for a 50/50), by token id; null before. */
  finalPrices: Record<string, number> | null;
  /** The market's record as read with this state. */
  market: Market;
}

export const marketOperations = {
  listEvents: op<EventPage>()(
    z.strictObject({
      protocol,
      page: z.number().int().min(1).max(10_000).default(1),
      limit: z.number().int().min(1).max(100).default(50),
    }),
    { summary: 'One page of ongoing events.' },
  ),
  searchMarkets: op<SearchMatch[]>()(
    z.strictObject({
      query: z.string().trim().min(1).max(200),
      topK: z.number().int().min(1).max(100).optional(),
      threshold: z.number().min(0).max(1).optional(),
    }),
    { summary: 'Free-text market search, best match first.' },
  ),
  getEvent: op<PredictionEvent>()(z.strictObject({ protocol, eventId: id }), {
    summary: 'One event with its markets.',
  }),
  getMarket: op<Market>()(z.strictObject({ protocol, marketId: id }), {
    summary: 'One market with its outcome tokens.',
  }),
  getEventComments: op<Comment[]>()(z.strictObject({ protocol, eventId: id }), { summary: "An event's discussion." }),
  getOrderBook: op<Record<string, Book>>()(z.strictObject({ protocol, marketId: id }), {
    summary: "A market's order books, one per outcome token (keyed by token id), each side best first.",
  }),
  getPriceHistory: op<FillHistory>()(z.strictObject({ protocol, marketId: id }), {
    summary: "A market's fills per outcome token.",
  }),
  getCandles: op<CandleBar[]>()(
    z.strictObject({
      protocol,
      marketId: id,
      outcomeIndex: z.number().int().min(0).max(63).default(0),
      interval: z.enum(CANDLE_INTERVALS).default('1h'),
    }),
    { summary: 'Candles of one outcome of a market.' },
  ),
  subscribeFills: op<FillSubscriptionInfo>()(z.strictObject({ protocol, marketId: id }), {
    summary: "Follow a market's live fills.",
  }),
  unsubscribeFills: op<{ marketId: string; wasSubscribed: boolean }>()(z.strictObject({ marketId: id }), {
    summary: "Stop following a market's fills.",
  }),
  subscribeBook: op<FillSubscriptionInfo>()(z.strictObject({ protocol, marketId: id }), {
    summary: "Follow a market's order books: `bookUpdate` events when an outcome's book changes.",
  }),
  unsubscribeBook: op<{ marketId: string; wasSubscribed: boolean }>()(z.strictObject({ marketId: id }), {
    summary: "Stop following a market's books.",
  }),
  getDiagnostics: op<DiagnosticsInfo>()(noInput, {
    summary:
      "What Polymarket's APIs said about themselves this session: deprecated endpoints, lists read through a fallback, the last rate-limit headers per endpoint.",
  }),
  reportFrames: op<{ aligned: boolean }>()(
    z.strictObject({ frameAt: z.number().finite().positive(), intervalMs: z.number().min(4).max(50) }),
    {
      summary:
        "When this window's frames begin (epoch ms) and how often: busy books are handed out just before a frame begins (aligned: false where books are polled).",
    },
  ),

  watchMarketState: op<MarketStateInfo>()(z.strictObject({ protocol, marketId: id }), {
    summary:
      "Follow a market's state (open, closed awaiting resolution, resolved with its winner): `marketState` events when it changes.",
  }),
  unwatchMarketState: op<{ marketId: string; wasWatched: boolean }>()(z.strictObject({ marketId: id }), {
    summary: "Stop following a market's state.",
  }),

  // More market-data reads
  listSlugs: op<string[]>()(
    z.strictObject({
      page: z.number().int().min(1).max(10_000).default(1),
      limit: z.number().int().min(1).max(500).default(100),
    }),
    {
      summary: 'One page of event slugs.',
    },
  ),
  getEventsBySlug: op<PredictionEvent[]>()(z.strictObject({ slug: z.string().trim().min(1).max(300) }), {
    summary: 'The events of a slug.',
  }),
  getTraderPositions: op<TraderPosition[]>()(
    z.strictObject({
      protocol,
      address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an address is 0x and 40 hex digits'),
    }),
    {
      summary: "A trader's positions, from the network's market-data source.",
    },
  ),
  // A trader's profile (what the tape, the discussion and the lookup open): who, their stats, their activity.
  getTrader: op<Trader>()(
    z.strictObject({
      protocol,
      address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an address is 0x and 40 hex digits'),
    }),
    {
      summary:
        "A trader's public profile and the stats the network's market-data source states (portfolio value, volume, PnL, markets traded).",
    },
  ),
  getTraderActivity: op<TraderActivity[]>()(
    z.strictObject({
      address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an address is 0x and 40 hex digits'),
      limit: z.number().int().min(1).max(500).default(100),
    }),
    { summary: "A trader's recent activity (trades, splits, merges, redeems), newest first, where the source has it." },
  ),
} as const;
