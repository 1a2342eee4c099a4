// When a client-side stop fires, as a pure rule: it watches the outcome's best bid, the price a market sell of
// the position would actually fill at (not the last trade, which may be old or printed on the other side).
import type { StopInfo } from '../../shared/contract';

const micros = (n: number) => Math.round(n * 1_000_000);

/**
 * A stop-loss fires when the best bid falls to or below its level; a take-profit when it rises to or above.
 * No bid (an empty side, or a book that may no longer be the exchange's) fires nothing: a sell would not fill
 * at a price anyone can see.
 */
export function stopTriggered(kind: StopInfo['kind'], bestBid: number | null, level: number): boolean {
  if (bestBid === null) return false;
  return kind === 'stop-loss' ? micros(bestBid) <= micros(level) : micros(bestBid) >= micros(level);
}

/** Shares to sell: the stop's size, never more than is held (the whole position when it names none). */
export function sharesToSell(size: number | null, held: number): number {
  const wanted = size === null ? held : Math.min(size, held);
  // Orders are in hundredths of a share: round down so it never sells what it does not hold.
  return Math.floor(wanted * 100 + 1e-9) / 100;
}
