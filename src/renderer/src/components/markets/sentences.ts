// What the markets grid says when it shows no rows: why (still loading, nothing matches, nothing starred,
// nothing on that protocol), as one sentence. Kept apart from the panel so each case is tested directly.
import type { ProtocolFilter } from '../../model/market-rows';

export const PROTOCOL_LABELS: Record<ProtocolFilter, string> = {
  all: 'All protocols',
  polymarket: 'Polymarket',
  limitless: 'Limitless',
  truemarket: 'TrueMarket',
};

export interface GridView {
  /** What the grid is showing: search results, or one of the tabs. */
  view: 'search' | 'markets' | 'watchlist' | 'slugs';
  /** Rows of the view before and after the protocol filter, and after the quick filter (what is drawn). */
  rows: number;
  rowsOnProtocol: number;
  rowsDrawn: number;
  protocolFilter: ProtocolFilter;
  filterText: string;
  query: string;
  /** The text the shown results answer. */
  searchedFor: string;
  /** A read for this view is under way (a search not answered yet, a page, a slug, watched markets). */
  loading: boolean;
  /** The view's failure, shown on its own line: the grid then says nothing more. */
  error: string | null;
  watchlistSize: number;
  slug: string | null;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function emptySentence(v: GridView): string | null {
  if (v.rowsOnProtocol > 0)
    return v.rowsDrawn === 0 && v.filterText.trim() ? `No rows match the filter “${v.filterText.trim()}”.` : null;
  const where = v.protocolFilter === 'all' ? '' : ` on ${PROTOCOL_LABELS[v.protocolFilter]}`;
  switch (v.view) {
    case 'search': {
      if (v.loading) return `Searching for “${v.query.trim()}”…`;
      if (v.error) return null;
      const elsewhere = v.rows - v.rowsOnProtocol;
      return `No markets match “${v.searchedFor}”${where}.${elsewhere > 0 ? ` ${plural(elsewhere, 'market matches', 'markets match')} on other protocols.` : ''}`;
    }
    case 'watchlist':
      if (v.loading) return 'Loading your watchlist…';
      return v.watchlistSize === 0
        ? 'Your watchlist is empty: star a market (☆) to keep it here.'
        : `None of your watched markets is${where}.`;
    case 'slugs':
      if (v.loading) return `Loading the events of ${v.slug}…`;
      if (v.error) return null;
      return v.slug ? `No markets under ${v.slug}${where}.` : 'Choose a slug to see its events and markets.';
    case 'markets':
      if (v.loading && v.rows === 0) return 'Loading markets…';
      if (v.error) return null;
      return `No ongoing events${where}.`;
  }
}
