// The aggregator's response shapes (docs/protocol.md#aggregator), as schemas that parse leniently:
// numbers that arrive as strings are coerced, nullable stats and text are allowed, unknown fields are
// kept. A field that changed shape fails here with a clear path instead of deep in the UI.
// Names follow the URL resources: an *event* (/v1/events) holds *markets* (/v1/markets), each market
// has outcome *position tokens*. (The aggregator's own SDK calls these Market and Exchange.)
/**
 * The aggregator's JSON shapes as zod schemas and their types.
 * @module @pmdesk/toolkit/aggregator-wire
 */
import { z } from 'zod';

/** The providers list lives in the model's lists (model/lists.ts); this entry offers it too. */
export { PROTOCOLS, type Protocol } from './lists';

/** A number, or a string holding one ("0.53"). */
const num = z
  .union([
    z.number(),
    z
      .string()
      .trim()
      .regex(/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i),
  ])
  .transform((v) => Number(v));
/** Text that may be missing or null upstream; always a string once parsed. */
const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '');
/** Ids were numbers in early versions of the API; they are strings now. */
const id = z.union([z.string().min(1), z.number()]).transform((v) => String(v));
const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

export const PositionTokenSchema = z.looseObject({
  token_id: id,
  name: z.string(),
  /** A decimal string as the aggregator declares it ("0.53"); a number is turned into its string. */
  price: z.union([z.string(), z.number()]).transform((v) => String(v)),
});
export type PositionToken = z.infer<typeof PositionTokenSchema>;

/** One binary question (GET /v1/markets/{id}); the aggregator's SDK names it `Exchange`. */
export const MarketSchema = z.looseObject({
  id,
  name: text,
  question: text,
  end: text,
  description: text,
  image: text,
  icon: text,
  slug: z.string().nullish(),
  active: flag.optional(),
  funded: flag.optional(),
  rewardsMinSize: num.nullish(),
  rewardsMaxSpread: num.nullish(),
  spread: num.nullish(),
  position_tokens: z.array(PositionTokenSchema),
  groupItemTitle: text,
  neg_risk: flag.optional(),
  // The trading fields the aggregator sends beyond the table of docs/protocol.md#aggregator (the sandbox's, and the aggregator's when it
  // knows them): optional, but a wrong shape fails here naming the field instead of passing as loose JSON.
  conditionId: z.string().nullish(),
  /** The tick as a number (0.01) or the exchange's string ("0.01"); always the string once parsed. */
  minimum_tick_size: z
    .union([z.string(), z.number()])
    .transform((v) => String(v))
    .nullish(),
  minimum_order_size: num.nullish(),
  accepting_orders: flag.nullish(),
  closed: flag.nullish(),
  /** The taker fee charged at match time (docs/protocol.md#fees), null on a fee-free market. */
  fee_schedule: z
    .looseObject({ rate: num, exponent: z.number().int().nonnegative().nullish(), taker_only: z.boolean().nullish() })
    .nullish(),
});
export type Market = z.infer<typeof MarketSchema>;

/** An event grouping markets (GET /v1/events/{id}); the aggregator's SDK names it `Market`. */
export const EventSchema = z.looseObject({
  id,
  protocol: z.string(),
  region: text,
  slug: text,
  title: text,
  description: text,
  startDate: text,
  creationDate: text,
  endDate: text,
  image: text,
  icon: text,
  active: flag.optional(),
  liquidity: num.nullish(),
  volume: num.nullish(),
  closed: flag.nullish(),
  volume24hr: num.nullish(),
  neg_risk: flag.nullish(),
  markets: z.array(MarketSchema).default([]),
});
export type PredictionEvent = z.infer<typeof EventSchema>;

export const CommentSchema = z.looseObject({
  id,
  parent_comment_id: z.union([z.string(), z.number()]).nullish(),
  name: text,
  pseudonym: text,
  displayUsernamePublic: flag.optional(),
  bio: text,
  baseAddress: text,
  profileImage: text,
  positions: z
    .array(
      z.looseObject({
        position: text,
        positionSize: z.union([z.string(), z.number()]).transform(String),
        marketId: text,
      }),
    )
    .nullish()
    .transform((v) => v ?? []),
  createdAt: text,
  reportCount: num.nullish(),
  reactionCount: num.nullish(),
  content: text,
});
export type Comment = z.infer<typeof CommentSchema>;

export const BookLevelSchema = z.looseObject({ price: num, size: num });
export type BookLevel = z.infer<typeof BookLevelSchema>;

export const OrderBookSummarySchema = z.looseObject({
  market: text,
  asset_id: text,
  timestamp: z.union([z.string(), z.number()]).optional(),
  bids: z.array(BookLevelSchema),
  asks: z.array(BookLevelSchema),
  hash: text,
});
export type OrderBookSummary = z.infer<typeof OrderBookSummarySchema>;

/** GET /v1/markets/{id}/orderbook: one book per outcome token, keyed by token id. */
export const MarketOrderBooksSchema = z.record(z.string(), OrderBookSummarySchema);
export type MarketOrderBooks = z.infer<typeof MarketOrderBooksSchema>;

/** One fill: price 0..1, size in outcome tokens, time in Unix seconds. */
export const TradeRecordSchema = z.looseObject({ price: num, volumeBase: num, timestamp: num });
export type TradeRecord = z.infer<typeof TradeRecordSchema>;

/** One candle of a price chart: bucket start in Unix seconds (what lightweight-charts takes), OHLC, volume in shares. */
export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Sum of the fills' volumeBase (outcome tokens). */
  volume: number;
}

/** GET .../orderbook/filledevents: one list per outcome token, in the order of the market's position_tokens. */
export const FillHistorySchema = z.array(z.array(TradeRecordSchema));
export type FillHistory = z.infer<typeof FillHistorySchema>;

export const TraderSchema = z.looseObject({
  user: z.looseObject({
    tradingWallet: text,
    proxyOwner: z.string().nullish(),
    name: text,
    pseudonym: text,
    bio: text,
    avatar: text,
    createdAt: text,
  }),
  stats: z.looseObject({
    portfolioValue: num.nullable().optional(),
    cumulativeVolume: num.nullable().optional(),
    cumulativeProfit: num.nullable().optional(),
    totalTrades: num.nullable().optional(),
    balanceInProtocol: num.nullish(),
  }),
});
export type Trader = z.infer<typeof TraderSchema>;

export const TraderPositionSchema = z.looseObject({
  conditionId: z.string().nullish(),
  marketSlug: z.string().nullish(),
  outcome: text,
  outcomeIndex: num.nullish(),
  size: num,
  averagePrice: num.nullish(),
  currentPrice: num,
  currentValue: num,
  initialValue: num,
  cashPnl: num.nullish(),
  percentPnl: num.nullish(),
  icon: text,
  endsOn: text,
});
export type TraderPosition = z.infer<typeof TraderPositionSchema>;

export const SlugListSchema = z.array(z.string());

export const SearchMatchSchema = z.looseObject({ event: EventSchema, cosineSimilarity: num });
export type SearchMatch = z.infer<typeof SearchMatchSchema>;

export interface SearchFilter {
  /** Sent comma-joined, and only when not empty. */
  protocols?: string[];
  isIncludeComment?: boolean;
  topK?: number;
  /** Minimum cosine similarity, 0..1. */
  threshold?: number;
}

/** A signed order as the price oracle takes it: every field a string (docs/protocol.md#entities "Signed order"). */
export const POLY_ORDER_FIELDS = [
  'salt',
  'maker',
  'signer',
  'taker',
  'tokenId',
  'makerAmount',
  'takerAmount',
  'expiration',
  'nonce',
  'feeRateBps',
  'side',
  'signatureType',
  'signature',
] as const;
export type PolyOrder = Record<(typeof POLY_ORDER_FIELDS)[number], string>;
