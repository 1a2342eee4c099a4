// The Data API's answers (DIRECT-DATA-NOTES §b): positions, trades, activity, portfolio value and markets
// traded, as lenient schemas. The amounts a row is about (size, price, value) are required: a row without
// them fails naming the field rather than showing a made-up zero.
import { z } from 'zod';
import { id, num, optNum, side, text, tradeSide } from './wire';

export const DataPositionSchema = z.looseObject({
  proxyWallet: text,
  asset: id,
  conditionId: z.string().nullish(),
  size: num,
  avgPrice: optNum,
  initialValue: num,
  currentValue: num,
  cashPnl: optNum,
  percentPnl: optNum,
  realizedPnl: optNum,
  curPrice: num,
  redeemable: z.boolean().nullish(),
  mergeable: z.boolean().nullish(),
  title: text,
  slug: z.string().nullish(),
  icon: text,
  eventSlug: z.string().nullish(),
  outcome: text,
  outcomeIndex: optNum,
  endDate: text,
});
export type DataPosition = z.output<typeof DataPositionSchema>;

/** One trade row: the same shape for a market's tape and a trader's history. */
export const DataTradeSchema = z.looseObject({
  proxyWallet: text,
  side: tradeSide,
  asset: id,
  conditionId: text,
  size: num,
  price: num,
  timestamp: num,
  title: text,
  slug: text,
  eventSlug: text,
  outcome: text,
  outcomeIndex: optNum,
  name: text,
  pseudonym: text,
  transactionHash: text,
});
export type DataTrade = z.output<typeof DataTradeSchema>;

/** One activity row: a trade's fields plus its type and dollars; split, merge and redeem rows have no side or price. */
export const DataActivitySchema = z.looseObject({
  proxyWallet: text,
  type: z.string().min(1),
  side,
  asset: text,
  conditionId: text,
  size: num,
  price: optNum,
  usdcSize: num,
  timestamp: num,
  title: text,
  slug: text,
  outcome: text,
  outcomeIndex: optNum,
  transactionHash: text,
});
export type DataActivity = z.output<typeof DataActivitySchema>;

/** GET /value: one row per user asked; an address with nothing answers an empty list. */
export const DataValueSchema = z.array(z.looseObject({ user: text, value: num }));
/** GET /traded: how many markets the user has traded. */
export const DataTradedSchema = z.looseObject({ user: text, traded: num });
