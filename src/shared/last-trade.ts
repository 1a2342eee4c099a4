// A market's last trade, one definition for the screen and main: fills come priced in the market's first outcome
// (its fill stream and its history, as the tape keeps them), so an outcome's last trade is that price or, for the
// second outcome of a binary market, its complement. The tape and price model (src/renderer) and main's "last"
// alerts read it here, so an alert fires on the price the screen shows.
import type { TradeRecord } from '@pmdesk/toolkit/model';

/** Prices on the 1e-4 grid (the finest tick), so a complement compares exactly (no 0.44999999999999996). */
const onGrid = (p: number): number => Math.round(p * 10_000) / 10_000;

/** A fill priced in the first outcome, as the given outcome's price (binary: the second is the complement). */
export function inOutcome(firstOutcomePrice: number, outcomeIndex: number): number {
  return outcomeIndex === 1 ? onGrid(1 - firstOutcomePrice) : firstOutcomePrice;
}

/**
 * A live fill's price in the market's first outcome. Streams send it so (the aggregator's names no token; the
 * direct source's names the first outcome's); a fill that names the second outcome's token (one the direct source
 * saw before it knew the market's tokens) is in that outcome, and is turned round. `tokens`: the market's token
 * ids in position order.
 */
export function firstOutcomePrice(fill: Pick<TradeRecord, 'price' | 'tokenId'>, tokens: readonly string[]): number {
  return tokens.length === 2 && fill.tokenId !== undefined && fill.tokenId === tokens[1]
    ? onGrid(1 - fill.price)
    : fill.price;
}

/**
 * The fills a market's history seeds the tape with, all in the first outcome, oldest first. A source that says
 * which token a fill traded (Polymarket's Data API) splits them by token, so the second token's are turned into
 * the first's (1 − p, a buy of one is a sell of the other); one that does not (the aggregator) repeats every trade
 * in each outcome's list, so its first list is the whole tape. `firstToken` names the first outcome's token when known.
 */
export function historyInFirstOutcome(
  history: readonly (readonly TradeRecord[])[],
  firstToken?: string,
): TradeRecord[] {
  const [first = [], second = []] = history;
  const own =
    history.length === 2 ? second.filter((fill) => fill.tokenId !== undefined && fill.tokenId !== firstToken) : [];
  const flipped = own.map((fill): TradeRecord => {
    // The token is the first outcome's now (when it is known at all).
    const { side: taken, tokenId: _traded, ...rest } = fill;
    const side = taken === 'BUY' ? 'SELL' : taken === 'SELL' ? 'BUY' : undefined;
    const tokenId = firstToken ?? first.find((f) => f.tokenId)?.tokenId;
    return {
      ...rest,
      price: Math.round((1 - fill.price) * 1e6) / 1e6,
      ...(tokenId ? { tokenId } : {}),
      ...(side ? { side } : {}),
    };
  });
  return [...first, ...flipped].sort((a, b) => a.timestamp - b.timestamp);
}
