// Whether an order would earn Polymarket's liquidity rewards on a book, and why not: Polymarket says only yes or
// no, so PM Desk works the reason out from the best bid and ask and the market's terms (maximum spread, minimum
// size), for a resting order and for one still on the ticket. Pure: the app's page uses it as main does.

/** Why a resting (or planned) order does not score, in the trader's words. */
export type NotScoringReason = 'no-rewards' | 'no-midpoint' | 'too-far' | 'too-small';

export const NOT_SCORING_TEXT: Readonly<Record<NotScoringReason, string>> = {
  'no-rewards': 'the market pays no rewards',
  'no-midpoint': 'no midpoint: the book is one-sided',
  'too-far': 'too far from the midpoint',
  'too-small': 'too small',
};

export interface ScoringVerdict {
  scores: boolean;
  reason?: NotScoringReason;
  /** Distance from the midpoint in cents, when there is a midpoint. */
  distanceCents?: number;
}

/**
 * Whether an order at `price` for `size` shares of a token would score on that token's book, and why not: the
 * midpoint of the best bid and ask, strictly within the maximum spread, at least the minimum size. Prices are
 * compared in ten-thousandths so 0.1 + 0.2 never decides anything.
 */
export function rewardScoringVerdict(
  order: { price: number; size: number },
  book: { bestBid?: number; bestAsk?: number },
  terms: { maxSpreadCents: number; minSize: number } | undefined,
): ScoringVerdict {
  if (!terms || terms.maxSpreadCents <= 0) return { scores: false, reason: 'no-rewards' };
  if (book.bestBid === undefined || book.bestAsk === undefined) return { scores: false, reason: 'no-midpoint' };
  const units = (p: number) => Math.round(p * 10_000);
  // Twice the distance in ten-thousandths: the midpoint of two ticks stays whole.
  const twice = Math.abs(2 * units(order.price) - (units(book.bestBid) + units(book.bestAsk)));
  const distanceCents = twice / 200;
  if (twice >= Math.round(terms.maxSpreadCents * 200)) return { scores: false, reason: 'too-far', distanceCents };
  if (order.size < terms.minSize) return { scores: false, reason: 'too-small', distanceCents };
  return { scores: true, distanceCents };
}
