// Which sandbox markets pay Polymarket-style liquidity rewards, and on what terms: a daily rate in collateral, a
// maximum spread from the midpoint in cents and a minimum order size in shares. Gamma, the aggregator and the
// CLOB all read these terms from here, so every source says the same; a market not listed pays nothing and
// says so (0 and 0, no rates), as Polymarket shows a market without a programme.
import type { CatalogMarket } from './catalog';

export interface RewardProgramme {
  /** Collateral paid per day among the market's scoring makers, in base units (6 decimals). */
  dailyRate: bigint;
  /** How far from the midpoint an order may rest and still score, in cents (Polymarket's rewardsMaxSpread). */
  maxSpreadCents: number;
  /** The smallest order that scores, in shares (Polymarket's rewardsMinSize). */
  minSize: number;
}

/** By catalog market id. A market's programme keeps Gamma's existing terms: ten times its minimum order, 3.5¢. */
const PROGRAMMES: Readonly<Record<string, RewardProgramme>> = {
  // The 25 bps cut (neg-risk), Bitcoin above $120k and the weather market pay; the others pay nothing.
  '90012': { dailyRate: 25_000_000n, maxSpreadCents: 3.5, minSize: 50 },
  '90021': { dailyRate: 100_000_000n, maxSpreadCents: 3.5, minSize: 50 },
  '90031': { dailyRate: 10_500_000n, maxSpreadCents: 3.5, minSize: 50 },
};

/** The market's reward programme, or undefined when it pays none (a closed market pays none either). */
export function rewardProgramme(market: Pick<CatalogMarket, 'id' | 'closed'>): RewardProgramme | undefined {
  if (market.closed) return undefined;
  return PROGRAMMES[market.id];
}

/** The daily rate in collateral as Polymarket writes it: a decimal number of dollars. */
export function dailyRateNumber(programme: RewardProgramme): number {
  return Number(programme.dailyRate) / 1e6;
}

/** Gamma's and the aggregator's reward fields of a market: the programme's terms, or 0 and 0 when it pays none. */
export function rewardTerms(market: Pick<CatalogMarket, 'id' | 'closed'>): {
  rewardsMinSize: number;
  rewardsMaxSpread: number;
} {
  const programme = rewardProgramme(market);
  return { rewardsMinSize: programme?.minSize ?? 0, rewardsMaxSpread: programme?.maxSpreadCents ?? 0 };
}
