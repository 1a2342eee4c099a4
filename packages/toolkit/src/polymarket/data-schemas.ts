// The Data API's answers (docs/protocol.md#data-api): positions, trades, activity, portfolio value and markets
// traded, as lenient schemas. The amounts a row is about (size, price, value) are required: a row without
// them fails naming the field rather than showing a made-up zero.
import { z } from 'zod';
import { id, num, optNum, side, text, tradeSide } from '../http/wire';

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
  negativeRisk: z.boolean().nullish(),
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

// The Data API v2 feeds (/v2/positions, /v2/trades, /v2/activity; Polymarket/ts-sdk `bindings/src/data`):
// strict snake_case rows where absence is '' and an unknown outcome index is 999, inside a `{data, pagination}`
// envelope whose `has_more` is exact and whose `next_cursor` is minted by the server. Each row is read here into
// the v1 row above, so the mapping onto the market model is one.

/** An outcome index, with Polymarket's "not applicable" 999 (and '') read as absent. */
const v2OutcomeIndex = optNum.transform((v) => (v === 999 ? null : v));

const DataV2PaginationSchema = z
  .looseObject({ has_more: z.boolean(), next_cursor: z.string().min(1).nullable() })
  // The server mints a cursor exactly when there is another page; a `has_more` without one would restart the
  // walk from page one forever, so the disagreement fails loudly instead.
  .refine((p) => p.has_more === (p.next_cursor !== null), {
    message: 'has_more and next_cursor must agree',
    path: ['next_cursor'],
  });

/** One v2 page: its rows and the cursor of the next page (null on the last). */
export function dataV2PageSchema<Row extends z.ZodType>(row: Row) {
  return z
    .looseObject({ data: z.array(row), pagination: DataV2PaginationSchema })
    .transform((page) => ({ rows: page.data as z.output<Row>[], nextCursor: page.pagination.next_cursor }));
}

export const DataV2TradeSchema = z
  .looseObject({
    proxy_wallet: text,
    side: tradeSide,
    token_id: id,
    condition_id: text,
    size: num,
    price: num,
    timestamp: num,
    title: text,
    slug: text,
    event_slug: text,
    outcome: text,
    outcome_index: v2OutcomeIndex,
    name: text,
    pseudonym: text,
    transaction_hash: text,
  })
  .transform((t): DataTrade => ({
    proxyWallet: t.proxy_wallet,
    side: t.side,
    asset: t.token_id,
    conditionId: t.condition_id,
    size: t.size,
    price: t.price,
    timestamp: t.timestamp,
    title: t.title,
    slug: t.slug,
    eventSlug: t.event_slug,
    outcome: t.outcome,
    outcomeIndex: t.outcome_index,
    name: t.name,
    pseudonym: t.pseudonym,
    transactionHash: t.transaction_hash,
  }));

export const DataV2ActivitySchema = z
  .looseObject({
    proxy_wallet: text,
    type: z.string().min(1),
    side,
    token_id: text,
    condition_id: text,
    size: num,
    price: optNum,
    usdc_size: num,
    timestamp: num,
    title: text,
    slug: text,
    outcome: text,
    outcome_index: v2OutcomeIndex,
    transaction_hash: text,
  })
  .transform((a): DataActivity => ({
    proxyWallet: a.proxy_wallet,
    type: a.type,
    side: a.side,
    asset: a.token_id,
    conditionId: a.condition_id,
    size: a.size,
    price: a.price,
    usdcSize: a.usdc_size,
    timestamp: a.timestamp,
    title: a.title,
    slug: a.slug,
    outcome: a.outcome,
    outcomeIndex: a.outcome_index,
    transactionHash: a.transaction_hash,
  }));

/** OPEN (held; the default and a superset of REDEEMABLE), REDEEMABLE (resolved, not yet redeemed), CLOSED (exited). */
export const POSITION_STATUSES = ['OPEN', 'REDEEMABLE', 'CLOSED'] as const;
export type PositionStatus = (typeof POSITION_STATUSES)[number];

export const DataV2PositionSchema = z
  .looseObject({
    proxy_wallet: text,
    token_id: id,
    condition_id: text,
    current_size: num,
    avg_price: optNum,
    entry_cost_usdc: num,
    current_price: num,
    current_value: num,
    realized_pnl: optNum,
    unrealized_pnl: optNum,
    percent_pnl: optNum,
    status: z.enum(POSITION_STATUSES),
    redeemable: z.boolean(),
    mergeable: z.boolean(),
    title: text,
    slug: text,
    icon: text,
    event_slug: text,
    outcome: text,
    outcome_index: v2OutcomeIndex,
    end_date: text,
    negative_risk: z.boolean().nullish(),
  })
  .transform((p): DataPosition & { status: PositionStatus } => ({
    proxyWallet: p.proxy_wallet,
    asset: p.token_id,
    conditionId: p.condition_id || null,
    size: p.current_size,
    avgPrice: p.avg_price,
    initialValue: p.entry_cost_usdc,
    currentValue: p.current_value,
    cashPnl: p.unrealized_pnl,
    percentPnl: p.percent_pnl,
    realizedPnl: p.realized_pnl,
    curPrice: p.current_price,
    redeemable: p.redeemable,
    mergeable: p.mergeable,
    title: p.title,
    slug: p.slug || null,
    icon: p.icon,
    eventSlug: p.event_slug || null,
    outcome: p.outcome,
    outcomeIndex: p.outcome_index,
    endDate: p.end_date,
    negativeRisk: p.negative_risk ?? undefined,
    status: p.status,
  }));
