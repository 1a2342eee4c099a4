// The Data API's REWARD activity rows: one per liquidity-reward payment the sandbox made to a wallet (the CLOB's
// reward journal), in Polymarket's activity shape (usdcSize the amount paid, no asset, side or outcome,
// outcomeIndex 999, the transfer's transaction hash).
import type { Catalog } from '../market/catalog';
import type { RewardPayment } from '../market/reward-journal';

/** Where the payments come from (the CLOB's RewardJournal). */
export interface RewardPaymentSource {
  payments(): readonly RewardPayment[];
}

export interface RewardActivityFilter {
  /** Lower-case wallet address. */
  user: string;
  inMarket?: (conditionId: string) => boolean;
  start?: number;
  end?: number;
}

export function rewardActivityRows(
  source: RewardPaymentSource | undefined,
  catalog: Catalog,
  identity: (address: string) => { name: string; pseudonym: string; bio: string; profileImage: string },
  filter: RewardActivityFilter,
) {
  if (!source) return [];
  return source
    .payments()
    .filter((p) => p.maker.toLowerCase() === filter.user)
    .filter((p) => !filter.inMarket || filter.inMarket(p.conditionId))
    .filter(
      (p) =>
        (filter.start === undefined || p.paidAt >= filter.start) &&
        (filter.end === undefined || p.paidAt <= filter.end),
    )
    .map((p) => {
      const market = catalog.marketByCondition(p.conditionId);
      const event = market && catalog.events.find((e) => e.id === market.eventId);
      const who = identity(p.maker);
      // Exact: base units to a decimal of at most six places, never through a float product.
      const amount = Number(p.amount) / 1e6;
      return {
        proxyWallet: p.maker.toLowerCase(),
        timestamp: p.paidAt,
        conditionId: p.conditionId,
        type: 'REWARD' as const,
        size: amount,
        usdcSize: amount,
        transactionHash: p.transactionHash,
        price: 0,
        asset: '',
        side: '',
        outcomeIndex: 999,
        title: market?.question ?? '',
        slug: market?.slug ?? '',
        icon: '',
        eventSlug: event?.slug ?? '',
        outcome: '',
        name: who.name,
        pseudonym: who.pseudonym,
        bio: who.bio,
        profileImage: who.profileImage,
        profileImageOptimized: '',
      };
    });
}
