// Liquidity rewards read from the exchange service, validated and in exact money: the markets that pay now (daily
// rate, maximum spread, minimum size), a market's reward configs, whether resting orders score, and a maker's
// earnings per day and in total. Polymarket says whether an order scores but never why not, so
// `rewardScoringVerdict` works the reason out from the book and the market's terms (also for an order not yet
// placed, on the ticket). Amounts are collateral base units (6 decimals), converted once from the decimal text.
import { z } from 'zod';
import { ErrorCode, PmDeskError, codeForStatus, invalidParameter } from '../model/errors';
import { answerProblem } from './schemas';
import { isClobError, type ClobResult } from './transport';

export {
  NOT_SCORING_TEXT,
  rewardScoringVerdict,
  type NotScoringReason,
  type ScoringVerdict,
} from '../model/reward-scoring';

/** The raw calls these reads go through (ClobClient has them all). */
export interface RewardsClobReads {
  getCurrentRewards(): Promise<ClobResult<unknown[]>>;
  getRawRewardsForMarket(conditionId: string): Promise<ClobResult<unknown[]>>;
  isOrderScoring(params: { order_id: string }): Promise<ClobResult<unknown>>;
  areOrdersScoring(params: { orderIds: readonly string[] }): Promise<ClobResult<unknown>>;
  getEarningsForUserForDay(date: string): Promise<ClobResult<unknown[]>>;
  getTotalEarningsForUserForDay(date: string): Promise<ClobResult<unknown>>;
}

/** A market that pays liquidity rewards now. */
export interface RewardMarket {
  conditionId: string;
  /** Collateral paid per day among its scoring makers, in base units. */
  dailyRate: bigint;
  /** How far from the midpoint an order may rest and still score, in cents. */
  maxSpreadCents: number;
  /** The smallest order that scores, in shares. */
  minSize: number;
}

/** A market's reward configuration with what the market is (GET /rewards/markets/{id}). */
export interface MarketRewardConfig extends RewardMarket {
  question: string;
  marketSlug: string;
  eventSlug: string;
  tokens: { tokenId: string; outcome: string }[];
}

/** What one maker address earned in one market on one day. */
export interface RewardEarning {
  date: string;
  conditionId: string;
  maker: string;
  /** Base units of the asset (collateral). */
  earnings: bigint;
  assetAddress: string;
}

/** What one maker address earned on one day, all markets together. */
export interface RewardTotal {
  date: string;
  maker: string;
  earnings: bigint;
  assetAddress: string;
}

const decimalText = z.union([
  z.number().finite().nonnegative(),
  z
    .string()
    .trim()
    .regex(/^\d+(\.\d+)?$/),
]);
const rewardConfig = z.looseObject({ asset_address: z.string(), rate_per_day: decimalText });
const CurrentReward = z.looseObject({
  condition_id: z.string().min(1),
  rewards_max_spread: z.number().nonnegative().optional(),
  rewards_min_size: decimalText.optional(),
  rewards_config: z.array(rewardConfig).max(50).optional(),
  total_daily_rate: decimalText.optional(),
});
const MarketReward = CurrentReward.extend({
  question: z.string(),
  market_slug: z.string().optional(),
  event_slug: z.string().optional(),
  tokens: z.array(z.looseObject({ token_id: z.union([z.string(), z.number()]), outcome: z.string() })).max(10),
});
const Earning = z.looseObject({
  date: z.string(),
  condition_id: z.string().min(1),
  maker_address: z.string(),
  asset_address: z.string(),
  earnings: decimalText,
});
const Total = Earning.omit({ condition_id: true });
const Scoring = z.looseObject({ scoring: z.boolean() });
const ScoringBatch = z.record(z.string(), z.boolean());

/** At most this many rows of any one list are kept: an answer without end is cut, not followed into memory. */
const MAX_ROWS = 5000;

/**
 * Base units from a decimal amount of collateral as the service writes it ("13.043478" or 13.043478): from the
 * number's own decimal text, never a float product. Digits past the sixth are dropped (no base unit pays them).
 */
export function collateralUnitsOf(amount: number | string): bigint {
  const text = typeof amount === 'number' ? numberText(amount) : amount.trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw invalidParameter(`Not an amount of collateral: ${text.slice(0, 40)}`);
  return BigInt(match[1]!) * 1_000_000n + BigInt((match[2] ?? '').slice(0, 6).padEnd(6, '0'));
}

function numberText(value: number): string {
  const text = String(value);
  // 1e-7 and 1e21 are written in exponent form: fixed notation (six places is all a base unit holds).
  return /e/i.test(text) ? value.toFixed(6) : text;
}

async function answer<T>(read: Promise<ClobResult<unknown>>, schema: z.ZodType<T>, methodName: string): Promise<T> {
  const result = await read;
  if (isClobError(result)) {
    throw new PmDeskError(
      result.status ? codeForStatus(result.status) : ErrorCode.API_REQUEST_FAILED,
      `The exchange refused ${methodName}.`,
      {
        methodName,
        statusCode: result.status,
        responseData: result.error,
      },
    );
  }
  const problem = answerProblem(schema, result, methodName);
  if (problem) throw problem;
  return schema.parse(result);
}

function rewardMarketOf(row: z.infer<typeof CurrentReward>): RewardMarket {
  const configs = row.rewards_config ?? [];
  const dailyRate =
    row.total_daily_rate !== undefined
      ? collateralUnitsOf(row.total_daily_rate)
      : configs.reduce((sum, c) => sum + collateralUnitsOf(c.rate_per_day), 0n);
  return {
    conditionId: row.condition_id,
    dailyRate,
    maxSpreadCents: row.rewards_max_spread ?? 0,
    minSize: row.rewards_min_size === undefined ? 0 : Number(row.rewards_min_size),
  };
}

/** The markets paying liquidity rewards now (GET /rewards/markets/current, every page). */
export async function readRewardMarkets(clob: RewardsClobReads): Promise<RewardMarket[]> {
  const rows = await answer(clob.getCurrentRewards(), z.array(CurrentReward).max(MAX_ROWS), 'readRewardMarkets');
  return rows.map(rewardMarketOf).filter((m) => m.dailyRate > 0n);
}

/** A market's reward configuration, or undefined when it pays none (GET /rewards/markets/{condition_id}). */
export async function readMarketRewardConfig(
  clob: RewardsClobReads,
  conditionId: string,
): Promise<MarketRewardConfig | undefined> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(conditionId))
    throw invalidParameter('A condition id is 0x and 64 hex digits.', 'readMarketRewardConfig');
  const rows = await answer(
    clob.getRawRewardsForMarket(conditionId),
    z.array(MarketReward).max(MAX_ROWS),
    'readMarketRewardConfig',
  );
  const row = rows.find((r) => r.condition_id.toLowerCase() === conditionId.toLowerCase());
  if (!row) return undefined;
  const market = rewardMarketOf(row);
  if (market.dailyRate === 0n) return undefined;
  return {
    ...market,
    question: row.question,
    marketSlug: row.market_slug ?? '',
    eventSlug: row.event_slug ?? '',
    tokens: row.tokens.map((t) => ({ tokenId: String(t.token_id), outcome: t.outcome })),
  };
}

/** Whether the exchange counts one of the caller's resting orders for rewards now (GET /order-scoring). */
export async function readOrderScoring(clob: RewardsClobReads, orderId: string): Promise<boolean> {
  if (!orderId) throw invalidParameter('An order id is required.', 'readOrderScoring');
  return (await answer(clob.isOrderScoring({ order_id: orderId }), Scoring, 'readOrderScoring')).scoring;
}

/** The same for many orders at once (POST /orders-scoring); an id the answer leaves out does not score. */
export async function readOrdersScoring(
  clob: RewardsClobReads,
  orderIds: readonly string[],
): Promise<Record<string, boolean>> {
  if (!orderIds.length) return {};
  const answered = await answer(clob.areOrdersScoring({ orderIds }), ScoringBatch, 'readOrdersScoring');
  return Object.fromEntries(orderIds.map((id) => [id, answered[id] === true]));
}

function dayOf(date: string, methodName: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`)))
    throw invalidParameter(`A day is YYYY-MM-DD, got ${date.slice(0, 40)}.`, methodName);
  return date;
}

/** The caller's reward earnings of one UTC day, per market and maker address (GET /rewards/user, every page). */
export async function readRewardEarningsForDay(clob: RewardsClobReads, date: string): Promise<RewardEarning[]> {
  const day = dayOf(date, 'readRewardEarningsForDay');
  const rows = await answer(
    clob.getEarningsForUserForDay(day),
    z.array(Earning).max(MAX_ROWS),
    'readRewardEarningsForDay',
  );
  return rows.map((r) => ({
    date: day,
    conditionId: r.condition_id,
    maker: r.maker_address,
    earnings: collateralUnitsOf(r.earnings),
    assetAddress: r.asset_address,
  }));
}

/** The caller's reward earnings of one UTC day in total, per maker address (GET /rewards/user/total). */
export async function readTotalRewardEarningsForDay(clob: RewardsClobReads, date: string): Promise<RewardTotal[]> {
  const day = dayOf(date, 'readTotalRewardEarningsForDay');
  const rows = await answer(
    clob.getTotalEarningsForUserForDay(day),
    z.array(Total).max(MAX_ROWS),
    'readTotalRewardEarningsForDay',
  );
  return rows.map((r) => ({
    date: day,
    maker: r.maker_address,
    earnings: collateralUnitsOf(r.earnings),
    assetAddress: r.asset_address,
  }));
}
