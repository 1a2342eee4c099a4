// Whether a resting order earns liquidity rewards now, read from the live book, and how much it weighs in the
// day's split. The rules (docs/sandbox.md#liquidity-rewards): an order scores while its market pays rewards, the
// book has a midpoint (a bid and an ask), the order rests strictly within the maximum spread of that midpoint
// and at least the minimum size is left of it. Its weight is a simplification of Polymarket's Q-score: size
// times ((max spread − distance) / max spread)², so an order twice as close weighs more than twice as much.
import type { CatalogMarket } from '../market/catalog';
import { rewardProgramme, type RewardProgramme } from '../market/reward-programme';
import { PRICE_ONE, type BookLevel, type RestingOrder } from './engine';

/** Why an order does not score; the names PM Desk shows ("too far from the midpoint", "too small"). */
export type NotScoringReason = 'NO_REWARDS' | 'NOT_RESTING' | 'NO_MIDPOINT' | 'TOO_FAR' | 'TOO_SMALL';

export interface ScoringVerdict {
  scoring: boolean;
  reason?: NotScoringReason;
  /** Half price units (1e-4 / 2) from the midpoint, when there is one. */
  distance?: number;
}

/** The first outcome's best bid and ask, in 1e-4 units: what the midpoint is taken from. */
export interface TopOfBook {
  bid?: number;
  ask?: number;
}

export function topOfBook(levels: { bids: BookLevel[]; asks: BookLevel[] }): TopOfBook {
  return { bid: levels.bids[0]?.price, ask: levels.asks[0]?.price };
}

/** The maximum spread in half price units: 3.5¢ is 0.035, 350 units, 700 half units. */
function maxSpreadHalfUnits(programme: RewardProgramme): number {
  return Math.round(programme.maxSpreadCents * 200);
}

/**
 * The verdict for one resting order of `market` (undefined `order`: it no longer rests). Distances are kept in
 * half units so the midpoint of two ticks stays an integer.
 */
export function scoreOrder(
  market: Pick<CatalogMarket, 'id' | 'closed'>,
  order: Pick<RestingOrder, 'outcome' | 'price' | 'remaining'> | undefined,
  top: TopOfBook,
): ScoringVerdict {
  const programme = rewardProgramme(market);
  if (!programme) return { scoring: false, reason: 'NO_REWARDS' };
  if (!order) return { scoring: false, reason: 'NOT_RESTING' };
  if (top.bid === undefined || top.ask === undefined) return { scoring: false, reason: 'NO_MIDPOINT' };
  const first = order.outcome === 0 ? order.price : PRICE_ONE - order.price;
  const distance = Math.abs(2 * first - (top.bid + top.ask));
  if (distance >= maxSpreadHalfUnits(programme)) return { scoring: false, reason: 'TOO_FAR', distance };
  if (order.remaining < BigInt(programme.minSize) * 1_000_000n)
    return { scoring: false, reason: 'TOO_SMALL', distance };
  return { scoring: true, distance };
}

/** A scoring order's weight in one sample: remaining shares (base units) × (max spread − distance)². */
export function orderWeight(programme: RewardProgramme, remaining: bigint, distance: number): bigint {
  const room = BigInt(maxSpreadHalfUnits(programme) - distance);
  return room > 0n ? remaining * room * room : 0n;
}
