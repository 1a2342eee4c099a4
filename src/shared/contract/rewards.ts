// Liquidity rewards across the contract: the markets that pay now, whether a wallet's open orders score (and why
// not), and what its orders earned on a day. Amounts leave main as base units with their text, converted once.
import { z } from 'zod';
import { label, op } from './inputs';
import type { MoneyAmount } from './account';

/** A market paying liquidity rewards now, by condition id. */
export interface RewardMarketInfo {
  conditionId: string;
  /** Paid per day among its scoring makers. */
  dailyRate: MoneyAmount;
  maxSpreadCents: number;
  minSize: number;
}

/** Why an order does not score, in the toolkit's words (rewardScoringVerdict). */
export type NotScoringReasonId = 'no-rewards' | 'no-midpoint' | 'too-far' | 'too-small' | 'not-counted';

/** One open order's standing for rewards. */
export interface OrderScoringInfo {
  orderId: string;
  scoring: boolean;
  reason: NotScoringReasonId | null;
  /** "too far from the midpoint", "too small", … when it does not score. */
  whyNot: string | null;
}

/** What a wallet's orders earned on one UTC day, per market and in total. */
export interface RewardEarningsInfo {
  wallet: string;
  day: string;
  markets: { conditionId: string; maker: string; earnings: MoneyAmount }[];
  total: MoneyAmount;
}

const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day as YYYY-MM-DD');

export const rewardOperations = {
  listRewardMarkets: op<RewardMarketInfo[]>()(z.strictObject({}), {
    summary: 'The markets paying liquidity rewards now: daily rate, maximum spread, minimum size.',
  }),
  getOrderScoring: op<OrderScoringInfo[]>()(z.strictObject({ wallet: label }), {
    summary: "Whether each of a wallet's open orders earns liquidity rewards, and why not.",
  }),
  getRewardEarnings: op<RewardEarningsInfo>()(z.strictObject({ wallet: label, day: day.optional() }), {
    summary: "What a wallet's orders earned in liquidity rewards on a day (today by default), per market and in total.",
  }),
} as const;
