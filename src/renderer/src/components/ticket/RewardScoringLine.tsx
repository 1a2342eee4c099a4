// The ticket's word on liquidity rewards for a limit order being entered: whether it would score on the live book
// (within the maximum spread of the midpoint, at least the minimum size) or why not, in a market that pays;
// nothing in a market that pays none. It follows the book as it moves.
import { rewardScoringVerdict, NOT_SCORING_TEXT } from '@pmdesk/toolkit/model';
import type { Book } from '../../../../shared/contract';
import { rewardOf, useRewards } from '../../store/rewards';

export function RewardScoringLine({
  conditionId,
  price,
  size,
  book,
}: {
  conditionId: string | null;
  price: number | undefined;
  size: number | undefined;
  book: Book | undefined;
}) {
  const terms = useRewards((s) => rewardOf(s.markets, conditionId));
  if (!terms || price === undefined || size === undefined) return null;
  const verdict = rewardScoringVerdict(
    { price, size },
    { bestBid: book?.bids[0]?.price, bestAsk: book?.asks[0]?.price },
    terms,
  );
  const rate = `${terms.dailyRate.text}/day within ${terms.maxSpreadCents}¢ of the midpoint, ${terms.minSize} shares or more`;
  return (
    <div
      className={`ticket-line ${verdict.scores ? 'success' : 'muted'}`}
      data-testid="ticket-reward-scoring"
      title={`This market pays liquidity rewards: ${rate}`}
    >
      {verdict.scores
        ? 'Would earn liquidity rewards while it rests.'
        : `Would not earn liquidity rewards: ${NOT_SCORING_TEXT[verdict.reason!]}.`}
    </div>
  );
}
