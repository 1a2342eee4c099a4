// The aggregator's wire schemas (packages/toolkit/src/model/aggregator.ts) as the toolkit's public entry offers them: a
// developer validates aggregator JSON with these, and reads it as the market model through AggregatorSource.
export {
  PROTOCOLS,
  PositionTokenSchema,
  MarketSchema,
  EventSchema,
  CommentSchema,
  BookLevelSchema,
  OrderBookSummarySchema,
  MarketOrderBooksSchema,
  TradeRecordSchema,
  FillHistorySchema,
  TraderSchema,
  TraderPositionSchema,
  SlugListSchema,
  SearchMatchSchema,
  POLY_ORDER_FIELDS,
  type Protocol,
  type PolyOrder,
} from '../model/aggregator';
