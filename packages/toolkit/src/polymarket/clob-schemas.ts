// The CLOB's public read answers (book, price history, a market's live activity) and the real-time data
// service's trade message (docs/protocol.md#clob-public-reads), as lenient schemas: prices and sizes that arrive as
// decimal strings are coerced, unknown fields kept, the fields a fill is about required.
import { z } from 'zod';
import { id, num, optNum, text, tradeSide } from '../http/wire';

const level = z.looseObject({ price: num, size: num });

/** GET /book?token_id=: bids ascending and asks descending, as the exchange sends them. */
export const ClobBookSchema = z.looseObject({
  market: text,
  asset_id: id,
  timestamp: z.union([z.string(), z.number()]).optional(),
  hash: text,
  bids: z
    .array(level)
    .nullish()
    .transform((v) => v ?? []),
  asks: z
    .array(level)
    .nullish()
    .transform((v) => v ?? []),
  min_order_size: optNum,
  tick_size: z.union([z.string(), z.number()]).nullish(),
  neg_risk: z.boolean().nullish(),
  last_trade_price: optNum,
});
export type ClobBook = z.output<typeof ClobBookSchema>;

/** GET /prices-history: `{history: [{t: unix seconds, p: price}]}`. */
export const PriceHistorySchema = z.looseObject({
  history: z.array(z.looseObject({ t: num, p: num })),
});
export type PricePoint = z.output<typeof PriceHistorySchema>['history'][number];

/** GET /markets/live-activity/{condition_id}: a market's recent trades. */
export const LiveActivitySchema = z.array(
  z.looseObject({
    event_type: text,
    market: z.looseObject({ condition_id: text, asset_id: id, question: text, slug: text }),
    user: z.looseObject({ address: text, username: text, pseudonym: text }).nullish(),
    side: tradeSide,
    size: num,
    price: num,
    outcome: text,
    outcome_index: optNum,
    transaction_hash: text,
    timestamp: num,
  }),
);
export type LiveActivityTrade = z.output<typeof LiveActivitySchema>[number];

/** The real-time data service's trade (`activity` / `orders_matched`) payload. */
export const RtdsTradeSchema = z.looseObject({
  asset: id,
  conditionId: text,
  eventSlug: text,
  slug: text,
  title: text,
  outcome: text,
  outcomeIndex: optNum,
  price: num,
  side: tradeSide,
  size: num,
  timestamp: num,
  transactionHash: text,
  proxyWallet: text,
  name: text,
  pseudonym: text,
});
export type RtdsTrade = z.output<typeof RtdsTradeSchema>;

/** The envelope of every real-time message: `{topic, type, timestamp, payload}`. */
export const RtdsEnvelopeSchema = z.looseObject({
  topic: z.string(),
  type: z.string(),
  timestamp: optNum.optional(),
  payload: z.unknown(),
});
