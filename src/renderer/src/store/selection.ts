// What the trader is looking at: the market chosen in the markets grid (or the watchlist, or search) and the
// outcome token chosen in the market view. The market view, the ticket and the account panels follow it.
import { create } from 'zustand';
import { marketLinkFromHash } from '../model/links';

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

/** The market (and outcome) an "open this market" link in the fragment names (see links.ts). */
export function selectionFromHash(hash: string): { market: SelectedMarket | null; tokenId: string | null } {
  const link = marketLinkFromHash(hash);
  if (!link) return { market: null, tokenId: null };
  const { tokenId, ...market } = link;
  return { market, tokenId: tokenId ?? null };
}

const pageHash = (globalThis as { location?: { hash?: string } }).location?.hash ?? '';
const opened = selectionFromHash(pageHash);

export const useSelection = create<SelectionState>()((set) => ({
  market: opened.market,
  tokenId: opened.tokenId,
  selectMarket: (market) => set({ market, tokenId: null }),
  selectToken: (tokenId) => set({ tokenId }),
}));
