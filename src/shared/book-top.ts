// The top of an order book, one definition for every side: the best bid and ask (levels with shares, in whatever
// order a source sends them) and their midpoint, so the screen's prices (src/renderer/src/prices), the ladder and
// main's alerts and stops read the same numbers.

/** The highest bid and the lowest ask with shares on them; null for an empty side. */
export function bookTop(
  book:
    | {
        bids: readonly { price: number | string; size: number | string }[];
        asks: readonly { price: number | string; size: number | string }[];
      }
    | undefined,
): { bestBid: number | null; bestAsk: number | null } {
  let bestBid: number | null = null;
  let bestAsk: number | null = null;
  for (const level of book?.bids ?? []) {
    const p = Number(level.price);
    if (Number(level.size) > 0 && Number.isFinite(p) && (bestBid === null || p > bestBid)) bestBid = p;
  }
  for (const level of book?.asks ?? []) {
    const p = Number(level.price);
    if (Number(level.size) > 0 && Number.isFinite(p) && (bestAsk === null || p < bestAsk)) bestAsk = p;
  }
  return { bestBid, bestAsk };
}

/** (bid + ask) / 2 to the millionth (exact for every tick down to 0.0001), or null with a side missing. */
export function midpointOf(bestBid: number | null, bestAsk: number | null): number | null {
  return bestBid !== null && bestAsk !== null ? Math.round((bestBid + bestAsk) * 500_000) / 1_000_000 : null;
}
