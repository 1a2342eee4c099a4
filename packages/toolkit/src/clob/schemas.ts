// The exchange service's public read answers, one schema per endpoint: a body of the wrong shape (a login page
// turned JSON, `{"unexpected":true}`) is ERR_VALIDATION naming the field, never an empty book or an echoed
// price. The schemas only judge: callers keep the answer as the server sent it (the CLI prints it exactly).
import { z } from 'zod';
import { ErrorCode, PmDeskError, truncate } from '../model/errors';
import { id, num } from '../http/wire';

/** A price, size or spread: a number or a decimal string. */
const decimal = num;
const level = z.looseObject({ price: decimal, size: decimal });
const side = z.enum(['BUY', 'SELL', 'buy', 'sell', '']);

/** GET /book (and each entry of POST /books). */
export const BookAnswer = z.looseObject({
  market: z.string().nullish(),
  asset_id: id,
  timestamp: z.union([z.string(), z.number()]).nullish(),
  hash: z.string().nullish(),
  bids: z.array(level).nullable(),
  asks: z.array(level).nullable(),
  min_order_size: decimal.nullish(),
  tick_size: decimal.nullish(),
  neg_risk: z.boolean().nullish(),
});
export const BooksAnswer = z.array(BookAnswer);

export const PriceAnswer = z.looseObject({ price: decimal });
/** POST /prices: `{token_id: {BUY?, SELL?}}`. */
export const PricesAnswer = z.record(z.string(), z.looseObject({ BUY: decimal.optional(), SELL: decimal.optional() }));
export const MidpointAnswer = z.looseObject({ mid: decimal });
/** POST /midpoints and /spreads: `{token_id: "0.5"}`. */
export const PerTokenDecimalAnswer = z.record(z.string(), decimal);
export const SpreadAnswer = z.looseObject({ spread: decimal });
export const LastTradeAnswer = z.looseObject({ price: decimal, side: side.nullish() });
export const LastTradesAnswer = z.array(z.looseObject({ token_id: id, price: decimal, side: side.nullish() }));
export const TickSizeAnswer = z.looseObject({ minimum_tick_size: decimal });
export const NegRiskAnswer = z.looseObject({ neg_risk: z.boolean() });
export const FeeRateAnswer = z.looseObject({ base_fee: decimal });
export const PricesHistoryAnswer = z.looseObject({ history: z.array(z.looseObject({ t: decimal, p: decimal })) });
/** GET /time: unix seconds, a number (or a string holding one). */
export const ServerTimeAnswer = decimal;
export const VersionAnswer = z.looseObject({ version: z.number().int().optional() }).nullish();
/** GET / and /ok: "OK", a short JSON string (a page or an object is not a health answer). */
export const HealthAnswer = z.string().max(200);
/** One page of a cursor-paged list (GET /markets and its sampling and simplified kin). */
export const MarketsPageAnswer = z.looseObject({ data: z.array(z.looseObject({})), next_cursor: z.string() });
/** GET /markets/{id}: one market, named by its condition id. */
export const MarketAnswer = z.looseObject({ condition_id: z.string().min(1) });
/** GET /clob-markets/{id}: version 2's compact details (tokens under `t`). */
export const ClobMarketInfoAnswer = z.looseObject({ t: z.array(z.looseObject({ t: id })) });
export const MarketTradesAnswer = z.array(z.looseObject({}));

/**
 * POST /order: `{success, orderID, status, errorMsg, …}`. A 200 of any other shape is not an answer about the
 * order (the exchange may still have placed it), and a success without an id says nothing either.
 */
export const OrderPostAnswer = z
  .looseObject({
    success: z.boolean(),
    orderID: z.string(),
    status: z.string().optional(),
    errorMsg: z.string().nullish(),
  })
  .refine((a) => !a.success || a.orderID.length > 0, { message: 'a success without an orderID', path: ['orderID'] });
/** POST /orders: one order answer per order sent. */
export const OrdersPostAnswer = z.array(OrderPostAnswer);

// The level 2 (authenticated) answers: the same rule as the public reads, a wrong shape is ERR_VALIDATION.

/** GET /data/order/{id}: one order (null when the exchange knows none by that id). */
export const OrderAnswer = z.looseObject({ id: z.string().min(1), status: z.string() }).nullable();
/** GET /balance-allowance: the balance, and the allowances per spender (version 1: one `allowance`). */
export const BalanceAllowanceAnswer = z.looseObject({
  balance: decimal,
  allowances: z.record(z.string(), decimal).optional(),
  allowance: decimal.optional(),
});
/** GET /auth/api-keys: the wallet's API keys. */
export const ApiKeysAnswer = z.looseObject({ apiKeys: z.array(z.string()) });
/** DELETE /order, /orders, /cancel-all, /cancel-market-orders: what was cancelled, and why the rest was not. */
export const CancelAnswer = z.looseObject({
  canceled: z.array(z.string()),
  not_canceled: z.record(z.string(), z.unknown()).nullish(),
});

/** Judges an answer: undefined when it fits, else ERR_VALIDATION naming the first bad field, with a cut excerpt. */
export function answerProblem(
  schema: z.ZodType,
  data: unknown,
  methodName: string,
  statusCode?: number,
): PmDeskError | undefined {
  const parsed = schema.safeParse(data);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : '(root)';
  return new PmDeskError(
    ErrorCode.VALIDATION_ERROR,
    `Unexpected response from the API server: ${field}: ${issue?.message ?? 'invalid'}`,
    {
      methodName,
      statusCode,
      responseData: truncate(JSON.stringify(data) ?? String(data), 300),
      context: { field },
    },
  );
}
