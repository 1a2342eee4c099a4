// A market's state in the trader's words ("Open", "Closed — awaiting resolution", "Resolved: Yes"), from what
// decides it: resolution, closing and taking orders. Gamma keeps `active: true` after a market resolves, so
// `active` is never read here: alone it never means open.
import type { Market } from './market-model';

export type MarketStateTone = 'open' | 'paused' | 'closed' | 'resolved';

export interface MarketState {
  /** What every view shows: the CLI, the grid, the header and the ticket. */
  words: string;
  tone: MarketStateTone;
}

export const OPEN_WORDS = 'Open';
export const CLOSED_WORDS = 'Closed — awaiting resolution';
export const PAUSED_WORDS = 'Not taking orders';

/** The state of a market of the market model; the winner is named by its outcome ("Resolved: Yes"). */
export function marketState(
  market: Pick<Market, 'closed' | 'accepting_orders' | 'resolved' | 'winnerTokenId' | 'position_tokens'>,
): MarketState {
  if (market.resolved === true || market.winnerTokenId) {
    const winner = market.position_tokens.find((token) => token.token_id === market.winnerTokenId);
    return { words: winner?.name ? `Resolved: ${winner.name}` : 'Resolved', tone: 'resolved' };
  }
  if (market.closed === true) return { words: CLOSED_WORDS, tone: 'closed' };
  if (market.accepting_orders === false) return { words: PAUSED_WORDS, tone: 'paused' };
  return { words: OPEN_WORDS, tone: 'open' };
}
