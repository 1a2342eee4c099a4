// Liquidity rewards as the page shows them: the markets that pay now (by condition id, for the grid's Rewards
// column, its "Pays rewards" filter and the ticket), and whether the active wallet's open orders score, asked
// again when its orders change and at most every half minute while they rest (the book moves under them), never
// in a tight loop.
import { create } from 'zustand';
import type { OrderScoringInfo, RewardMarketInfo } from '../../../shared/contract';
import { ask, listen } from '../bridge/terminal';

export interface RewardsState {
  /** Paying markets by condition id (lower case); empty until main answered, or where it cannot say. */
  markets: Record<string, RewardMarketInfo>;
  /** The last verdict per order id, for the wallet `scoringWallet`. */
  scoring: Record<string, OrderScoringInfo>;
  scoringWallet: string | null;
}

export const useRewards = create<RewardsState>()(() => ({ markets: {}, scoring: {}, scoringWallet: null }));

/** A market's reward terms, when it pays. */
export function rewardOf(markets: Record<string, RewardMarketInfo>, conditionId: string | null | undefined) {
  return conditionId ? markets[conditionId.toLowerCase()] : undefined;
}

export async function refreshRewardMarkets(): Promise<void> {
  try {
    const list = await ask('listRewardMarkets', {});
    useRewards.setState({ markets: Object.fromEntries(list.map((m) => [m.conditionId.toLowerCase(), m])) });
  } catch {
    // No order flow on this network (or the exchange did not answer): no market is shown as paying.
    useRewards.setState({ markets: {} });
  }
}

let asked = 0;
/** Asks main whether each of the wallet's open orders scores; only the newest answer counts. */
export async function refreshScoring(wallet: string): Promise<void> {
  const mine = ++asked;
  try {
    const rows = await ask('getOrderScoring', { wallet });
    if (mine === asked)
      useRewards.setState({ scoring: Object.fromEntries(rows.map((r) => [r.orderId, r])), scoringWallet: wallet });
  } catch {
    if (mine === asked) useRewards.setState({ scoring: {}, scoringWallet: wallet });
  }
}

/** Reads the paying markets at start, on a network switch and every five minutes; called once. */
export function startRewards(): void {
  void refreshRewardMarkets();
  listen('network', () => {
    useRewards.setState({ scoring: {}, scoringWallet: null });
    void refreshRewardMarkets();
  });
  setInterval(() => void refreshRewardMarkets(), 5 * 60_000);
}
