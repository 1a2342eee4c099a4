// The markets panel's state: the events listed page by page, the live search, the watchlist's markets and the
// slugs view, each as immutable rows for the grid. Reads go through `ask`; a failure becomes a sentence in
// the view it belongs to (not a notice), and an answer that arrives after a newer question is dropped.
import { create } from 'zustand';
import { PROTOCOLS, type Protocol } from '../../../shared/contract';
import { ask, messageOf, TerminalError } from '../bridge/terminal';
import {
  missingRow,
  mergeRows,
  rowOfMarket,
  rowsOfEvents,
  rowsOfMatches,
  type MarketRow,
  type ProtocolFilter,
} from '../model/market-rows';

export type MarketsTab = 'markets' | 'watchlist' | 'slugs';

/** Page sizes as docs/protocol.md#constants-and-limits sets them: 50 active events, 100 slugs per read. */
export const EVENTS_PAGE = 50;
export const SLUGS_PAGE = 100;
/** Typing pauses this long before a search is sent: one search per word, not per key. */
export const SEARCH_DEBOUNCE_MS = 250;
const SEARCH_TOP_K = 100;

interface Paging {
  /** The last page read (0: none yet). */
  page: number;
  hasMore: boolean;
}

export interface MarketsState {
  tab: MarketsTab;
  protocolFilter: ProtocolFilter;

  /** Every listed market, in the order the pages came. */
  listed: MarketRow[];
  paging: Record<Protocol, Paging>;
  listLoading: boolean;
  listError: string | null;

  /** What the trader typed; a search runs once typing pauses. */
  query: string;
  /** The results of `searchedFor`; null while no search has answered for the current text. */
  results: MarketRow[] | null;
  searchedFor: string;
  searching: boolean;
  searchError: string | null;

  /** Watchlist markets read one by one (those not already listed), by id. */
  watched: Record<string, MarketRow>;
  watchLoading: number;

  slugs: string[];
  slugPaging: Paging;
  slugsLoading: boolean;
  slug: string | null;
  slugRows: MarketRow[];
  slugLoading: boolean;
  slugError: string | null;

  setTab(tab: MarketsTab): void;
  setProtocolFilter(filter: ProtocolFilter): void;
  /** Reads the next page of every protocol the filter shows that may have more. */
  loadMore(): Promise<void>;
  setQuery(query: string): void;
  clearSearch(): void;
  /** Reads the watchlist's markets that no list has brought yet. */
  loadWatchlist(ids: readonly string[]): Promise<void>;
  loadSlugs(): Promise<void>;
  chooseSlug(slug: string): Promise<void>;
}

const fresh = (): Record<Protocol, Paging> => ({
  polymarket: { page: 0, hasMore: true },
  limitless: { page: 0, hasMore: true },
  truemarket: { page: 0, hasMore: true },
});

let searchTimer: ReturnType<typeof setTimeout> | undefined;
let searchSeq = 0;
let slugSeq = 0;
/** Watchlist ids being read now, so a second call does not read them again. */
const watchInFlight = new Set<string>();

const PROTOCOL_NAMES: Record<Protocol, string> = {
  polymarket: 'Polymarket',
  limitless: 'Limitless',
  truemarket: 'TrueMarket',
};

/** A watchlist id's market: the aggregator is asked per protocol until one knows it (ids do not say which). */
async function readMarket(marketId: string): Promise<MarketRow> {
  let lastError: unknown;
  for (const protocol of PROTOCOLS) {
    try {
      return rowOfMarket(await ask('getMarket', { protocol, marketId }), undefined, protocol);
    } catch (error) {
      lastError = error;
      // Only "not found" moves on to the next protocol; anything else (offline, refused) is the answer.
      if (!(error instanceof TerminalError) || error.code !== 'ERR_NOT_FOUND') break;
    }
  }
  return missingRow(marketId, `Could not load this market: ${messageOf(lastError)}`);
}

export const useMarkets = create<MarketsState>()((set, get) => ({
  tab: 'markets',
  protocolFilter: 'all',
  listed: [],
  paging: fresh(),
  listLoading: false,
  listError: null,
  query: '',
  results: null,
  searchedFor: '',
  searching: false,
  searchError: null,
  watched: {},
  watchLoading: 0,
  slugs: [],
  slugPaging: { page: 0, hasMore: true },
  slugsLoading: false,
  slug: null,
  slugRows: [],
  slugLoading: false,
  slugError: null,

  setTab(tab) {
    // A tab is a place to look, so choosing one leaves the search.
    get().clearSearch();
    set({ tab });
    if (tab === 'slugs' && get().slugPaging.page === 0) void get().loadSlugs();
  },

  setProtocolFilter(filter) {
    set({ protocolFilter: filter });
    // A protocol not read yet gets its first page.
    const protocols = filter === 'all' ? PROTOCOLS : [filter];
    if (protocols.some((p) => get().paging[p].page === 0)) void get().loadMore();
  },

  async loadMore() {
    const { listLoading, paging, protocolFilter } = get();
    if (listLoading) return;
    const protocols = (protocolFilter === 'all' ? PROTOCOLS : [protocolFilter]).filter((p) => paging[p].hasMore);
    if (protocols.length === 0) return;
    set({ listLoading: true, listError: null });
    const answers = await Promise.all(
      protocols.map(async (protocol) => {
        const page = paging[protocol].page + 1;
        try {
          return {
            ok: true as const,
            protocol,
            page,
            result: await ask('listEvents', { protocol, page, limit: EVENTS_PAGE }),
          };
        } catch (error) {
          return {
            ok: false as const,
            protocol,
            page,
            error: `${PROTOCOL_NAMES[protocol]} events could not be loaded: ${messageOf(error)}`,
          };
        }
      }),
    );
    set((s) => {
      let listed = s.listed;
      const next = { ...s.paging };
      const problems: string[] = [];
      for (const answer of answers) {
        if (!answer.ok) {
          problems.push(answer.error);
          continue;
        }
        listed = mergeRows(listed, rowsOfEvents(answer.result.events));
        next[answer.protocol] = { page: answer.page, hasMore: answer.result.hasMore };
      }
      return { listed, paging: next, listLoading: false, listError: problems.length ? problems.join(' ') : null };
    });
  },

  setQuery(query) {
    set({ query });
    clearTimeout(searchTimer);
    const text = query.trim();
    const seq = ++searchSeq;
    if (!text) {
      set({ results: null, searchedFor: '', searching: false, searchError: null });
      return;
    }
    set({ searching: true });
    searchTimer = setTimeout(() => {
      void (async () => {
        try {
          const matches = await ask('searchMarkets', { query: text, topK: SEARCH_TOP_K });
          if (seq !== searchSeq) return;
          set({ results: rowsOfMatches(matches), searchedFor: text, searching: false, searchError: null });
        } catch (error) {
          if (seq !== searchSeq) return;
          set({ results: [], searchedFor: text, searching: false, searchError: `Search failed: ${messageOf(error)}` });
        }
      })();
    }, SEARCH_DEBOUNCE_MS);
  },

  clearSearch() {
    if (get().query !== '' || get().results !== null) get().setQuery('');
  },

  async loadWatchlist(ids) {
    const { listed, results, slugRows, watched } = get();
    const known = new Set([...listed, ...(results ?? []), ...slugRows].map((r) => r.id));
    const missing = ids.filter((id) => !known.has(id) && !watched[id] && !watchInFlight.has(id));
    if (missing.length === 0) return;
    for (const id of missing) watchInFlight.add(id);
    set((s) => ({ watchLoading: s.watchLoading + missing.length }));
    await Promise.all(
      missing.map(async (id) => {
        const row = await readMarket(id);
        watchInFlight.delete(id);
        set((s) => ({ watched: { ...s.watched, [id]: row }, watchLoading: s.watchLoading - 1 }));
      }),
    );
  },

  async loadSlugs() {
    const { slugsLoading, slugPaging } = get();
    if (slugsLoading || !slugPaging.hasMore) return;
    set({ slugsLoading: true, slugError: null });
    const page = slugPaging.page + 1;
    try {
      const slugs = await ask('listSlugs', { page, limit: SLUGS_PAGE });
      set((s) => ({
        slugs: [...new Set([...s.slugs, ...slugs])],
        slugPaging: { page, hasMore: slugs.length === SLUGS_PAGE },
        slugsLoading: false,
      }));
    } catch (error) {
      set({ slugsLoading: false, slugError: `Slugs could not be loaded: ${messageOf(error)}` });
    }
  },

  async chooseSlug(slug) {
    const seq = ++slugSeq;
    set({ slug, slugRows: [], slugLoading: true, slugError: null });
    try {
      const events = await ask('getEventsBySlug', { slug });
      if (seq !== slugSeq) return;
      set({ slugRows: rowsOfEvents(events), slugLoading: false });
    } catch (error) {
      if (seq !== slugSeq) return;
      set({ slugLoading: false, slugError: `The events of ${slug} could not be loaded: ${messageOf(error)}` });
    }
  },
}));

/** The rows of the watchlist, in the trader's order: the freshest copy of each market this panel has seen. */
export function watchlistRows(
  state: Pick<MarketsState, 'listed' | 'results' | 'slugRows' | 'watched'>,
  ids: readonly string[],
): MarketRow[] {
  const byId = new Map<string, MarketRow>();
  for (const row of Object.values(state.watched)) byId.set(row.id, row);
  for (const row of state.slugRows) byId.set(row.id, row);
  for (const row of state.listed) byId.set(row.id, row);
  for (const row of state.results ?? []) byId.set(row.id, row);
  const rows: MarketRow[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (row) rows.push(row);
  }
  return rows;
}

/**
 * After a switch to another network: what was read from the old one is dropped (its markets may not exist on
 * the new one) and the first page is read again.
 */
export function resetMarketsForNetwork(): void {
  searchSeq += 1;
  slugSeq += 1;
  watchInFlight.clear();
  useMarkets.setState({
    listed: [],
    paging: fresh(),
    listLoading: false,
    listError: null,
    results: null,
    searchedFor: '',
    searching: false,
    searchError: null,
    watched: {},
    slugs: [],
    slugPaging: { page: 0, hasMore: true },
    slug: null,
    slugRows: [],
    slugError: null,
  });
  void useMarkets.getState().loadMore();
}
