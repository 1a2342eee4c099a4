// What the trader is looking at: the market chosen in the markets grid (or the watchlist, or search) and the
// outcome token chosen in the market view. The market view, the ticket and the account panels follow it.
import { create } from 'zustand';

export interface SelectedMarket {
  protocol: 'polymarket' | 'limitless' | 'truemarket';
  marketId: string;
  /** The event the market belongs to, when known (the header and the discussion read it). */
  eventId?: string;
}

export interface SelectionState {
  market: SelectedMarket | null;
  /** The outcome token the ladder, tape and chart show. */
  tokenId: string | null;
  selectMarket(market: SelectedMarket | null): void;
  selectToken(tokenId: string | null): void;
}

/**
 * An "open this market" link: `#…&market=<marketId>&outcome=<tokenId>` in the page's fragment (next to the
 * launch token, which is why the outcome is not called `token`). Polymarket only; anything malformed is ignored.
 */
export function selectionFromHash(hash: string): { market: SelectedMarket | null; tokenId: string | null } {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const marketId = params.get('market')?.trim() ?? '';
  const outcome = params.get('outcome')?.trim() ?? '';
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(marketId)) return { market: null, tokenId: null };
  return { market: { protocol: 'polymarket', marketId }, tokenId: /^\d{1,80}$/.test(outcome) ? outcome : null };
}

const pageHash = (globalThis as { location?: { hash?: string } }).location?.hash ?? '';
const opened = selectionFromHash(pageHash);

export const useSelection = create<SelectionState>()((set) => ({
  market: opened.market,
  tokenId: opened.tokenId,
  selectMarket: (market) => set({ market, tokenId: null }),
  selectToken: (tokenId) => set({ tokenId }),
}));
