// Markets: the grid of events and their markets read page by page (an event of several markets as an event row
// with its markets under it), live search with a protocol filter, the watchlist (starred markets, kept by main)
// and the slugs view. Choosing a row makes it the market the rest of the terminal shows; `/` jumps to search
// (Enter there opens the best match), `j`/`k` walk the markets, Enter on a focused row opens it (or folds an
// event), `f` stars the chosen market.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { GridApi } from 'ag-grid-community';
import { registerShortcut } from '../../keys/keyboard';
import { resetMarketsForNetwork, useMarkets, watchlistRows, type MarketsTab } from '../../store/markets';
import { useSelection } from '../../store/selection';
import { useSession } from '../../store/session';
import { useRewards } from '../../store/rewards';
import { MarketsGrid } from './MarketsGrid';
import { ColumnChooser } from './ColumnChooser';
import { emptySentence, PROTOCOL_LABELS } from './sentences';
import {
  chosenColumns,
  countOf,
  filterByProtocol,
  withRewards,
  PROTOCOL_FILTERS,
  toggleWatch,
  type MarketRow,
  type ProtocolFilter,
} from '../../model/market-rows';
import { groupRows, marketCount } from './groups';
import { useFolded } from './folded';
import './markets.css';

/** The contract keeps at most this many watchlist entries. */
const WATCHLIST_MAX = 1000;

function toggleWatched(marketId: string): void {
  const session = useSession.getState();
  const list = session.settings.watchlist;
  if (!list.includes(marketId) && list.length >= WATCHLIST_MAX) {
    session.notify('error', `The watchlist holds at most ${WATCHLIST_MAX} markets: unstar one first.`);
    return;
  }
  void session.saveSettings({ watchlist: toggleWatch(list, marketId) });
}

function WatchStar({ row }: { row: MarketRow }) {
  const watching = useSession((s) => s.settings.watchlist.includes(row.id));
  return (
    <button
      type="button"
      className={watching ? 'ghost star watching' : 'ghost star'}
      data-testid="watch-star"
      aria-pressed={watching}
      aria-label={watching ? `Remove ${row.market} from the watchlist` : `Add ${row.market} to the watchlist`}
      title={watching ? 'Remove from the watchlist' : 'Add to the watchlist'}
      onClick={() => toggleWatched(row.id)}
    >
      {watching ? '★' : '☆'}
    </button>
  );
}

/** Column order as the trader dragged it, kept with the settings like the choice of columns. */
function saveColumnOrder(columns: string[]): void {
  const session = useSession.getState();
  if (columns.join() !== chosenColumns(session.settings.marketColumns).join())
    void session.saveSettings({ marketColumns: columns });
}

function choose(row: MarketRow): void {
  // A watchlist entry that could not be read has nothing to show.
  if (row.problem) return;
  useSelection
    .getState()
    .selectMarket({ protocol: row.protocol, marketId: row.id, ...(row.eventId ? { eventId: row.eventId } : {}) });
}

const TABS: { id: MarketsTab; label: string }[] = [
  { id: 'markets', label: 'Markets' },
  { id: 'watchlist', label: 'Watchlist' },
  { id: 'slugs', label: 'Slugs' },
];

export function MarketsPanel() {
  const m = useMarkets();
  const watchlist = useSession((s) => s.settings.watchlist);
  const savedColumns = useSession((s) => s.settings.marketColumns);
  const oneProtocol = useSession((s) => s.network?.source === 'polymarket');
  // A filter chosen on an aggregator network does not follow the trader onto a Polymarket-direct one.
  useEffect(() => {
    if (oneProtocol && useMarkets.getState().protocolFilter !== 'all') useMarkets.getState().setProtocolFilter('all');
  }, [oneProtocol]);
  const selectedId = useSelection((s) => s.market?.marketId ?? null);
  const [filterText, setFilterText] = useState('');
  const [shown, setShown] = useState(0);
  const searchInput = useRef<HTMLInputElement>(null);
  const grid = useRef<GridApi<MarketRow> | null>(null);

  const columns = useMemo(() => chosenColumns(savedColumns), [savedColumns]);
  const searching = m.query.trim() !== '';

  // The first page when the panel opens; later pages as the trader scrolls (or asks).
  useEffect(() => {
    const { paging, loadMore } = useMarkets.getState();
    if (paging.polymarket.page === 0) void loadMore();
  }, []);

  // Another network: its own markets. What is chosen is the new network's workspace's (store/workspaces.ts puts
  // the selection on its focused tile), never a market of the old one.
  const networkName = useSession((s) => s.network?.name ?? null);
  const shownFor = useRef<string | null>(null);
  useEffect(() => {
    if (networkName === null) return;
    if (shownFor.current !== null && shownFor.current !== networkName) resetMarketsForNetwork();
    shownFor.current = networkName;
  }, [networkName]);

  const loadWatchlist = m.loadWatchlist;
  useEffect(() => {
    if (m.tab === 'watchlist') void loadWatchlist(watchlist);
  }, [m.tab, watchlist, loadWatchlist]);

  const allRows = useMemo<readonly MarketRow[]>(() => {
    if (searching) return m.results ?? [];
    if (m.tab === 'watchlist')
      return watchlistRows(
        { listed: m.listed, results: m.results, slugRows: m.slugRows, watched: m.watched },
        watchlist,
      );
    if (m.tab === 'slugs') return m.slugRows;
    return m.listed;
    // `m` as a whole changes on every store update; the rows depend only on these parts of it, and keeping
    // the same array otherwise spares the grid a diff.
  }, [searching, m.results, m.tab, m.listed, m.slugRows, m.watched, watchlist]);
  // Liquidity rewards: each market's daily rate for the Rewards column, and the "Pays rewards" filter.
  const paying = useRewards((r) => r.markets);
  const [paysOnly, setPaysOnly] = useState(false);
  const rows = useMemo(
    () => groupRows(withRewards(filterByProtocol(allRows, m.protocolFilter), paying, paysOnly)),
    [allRows, m.protocolFilter, paying, paysOnly],
  );
  const markets = useMemo(() => marketCount(rows), [rows]);
  const allMarkets = useMemo(() => marketCount(allRows), [allRows]);

  // A market chosen from elsewhere (search, j/k, a link) inside a folded event: its event opens to show it.
  useEffect(() => {
    const groupId = selectedId ? rows.find((r) => r.id === selectedId)?.groupId : null;
    if (groupId) useFolded.getState().unfold(groupId);
  }, [selectedId, rows]);

  /** Enter in the search before its results came: the first result is chosen when they arrive. */
  const chooseFirstFound = useRef(false);
  /** Chooses the market at `index`, or the next market row in the direction of `step` (event rows are passed). */
  const chooseRowAt = useCallback((start: number, step: 1 | -1 = 1) => {
    const api = grid.current;
    if (!api) return false;
    let index = start;
    let node = api.getDisplayedRowAtIndex(index);
    while (node?.data?.kind === 'event') {
      index += step;
      node = api.getDisplayedRowAtIndex(index);
    }
    if (!node?.data) return false;
    api.ensureIndexVisible(index);
    // Focus moves into the grid, so j/k (and Enter) carry on from there.
    api.setFocusedCell(index, 'title');
    choose(node.data);
    return true;
  }, []);
  const onShownCount = useCallback(
    (count: number) => {
      setShown(count);
      if (chooseFirstFound.current && !useMarkets.getState().searching) {
        chooseFirstFound.current = false;
        if (count > 0) chooseRowAt(0);
      }
    },
    [chooseRowAt],
  );

  const move = useCallback(
    (step: number) => {
      const api = grid.current;
      if (!api) return;
      const count = api.getDisplayedRowCount();
      if (count === 0) return;
      const current = useSelection.getState().market?.marketId;
      const at = current ? (api.getRowNode(current)?.rowIndex ?? null) : null;
      const next = at === null ? (step > 0 ? 0 : count - 1) : Math.min(count - 1, Math.max(0, at + step));
      // Past the last market (or before the first) there is nothing to step onto: stay.
      if (!chooseRowAt(next, step > 0 ? 1 : -1) && at !== null) chooseRowAt(at);
    },
    [chooseRowAt],
  );

  useEffect(() => {
    const off = [
      registerShortcut({ key: '/', description: 'Search markets', run: () => searchInput.current?.focus() }),
      registerShortcut({ key: 'j', description: 'Next market', run: () => move(1) }),
      registerShortcut({ key: 'k', description: 'Previous market', run: () => move(-1) }),
      // The grid's star is a mouse target inside a cell: the chosen market is starred from the keyboard too.
      registerShortcut({
        key: 'f',
        description: 'Star or unstar the chosen market (watchlist)',
        run: () => {
          const chosen = useSelection.getState().market;
          if (chosen) toggleWatched(chosen.marketId);
        },
      }),
    ];
    return () => off.forEach((unregister) => unregister());
  }, [move]);

  const morePages =
    m.protocolFilter === 'all' ? Object.values(m.paging).some((p) => p.hasMore) : m.paging[m.protocolFilter].hasMore;
  const onNearEnd = useCallback(() => {
    const s = useMarkets.getState();
    if (s.tab === 'markets' && s.query.trim() === '') void s.loadMore();
  }, []);

  const problem = searching
    ? m.searchError
    : m.tab === 'markets'
      ? m.listError
      : m.tab === 'slugs'
        ? m.slugError
        : null;
  const view = searching ? 'search' : m.tab;
  const emptyText = emptySentence({
    view,
    rows: allMarkets,
    rowsOnProtocol: markets,
    rowsDrawn: shown,
    protocolFilter: m.protocolFilter,
    filterText,
    query: m.query,
    searchedFor: m.searchedFor,
    loading:
      view === 'search'
        ? m.results === null || m.searching
        : view === 'watchlist'
          ? m.watchLoading > 0
          : view === 'slugs'
            ? m.slugLoading
            : m.listLoading,
    error: problem,
    watchlistSize: watchlist.length,
    slug: m.slug,
  });

  return (
    <div className="panel markets-panel" data-testid="markets-grid">
      <div className="markets-search">
        <input
          ref={searchInput}
          type="search"
          data-testid="search-input"
          placeholder="Search markets  ( / )"
          aria-label="Search markets"
          value={m.query}
          maxLength={200}
          onChange={(e) => {
            chooseFirstFound.current = false;
            m.setQuery(e.target.value);
          }}
          onKeyDown={(e) => {
            // Enter opens the best match (once the search has answered); ↓ steps into the rows.
            if (e.key === 'Enter') {
              e.preventDefault();
              if (useMarkets.getState().searching) chooseFirstFound.current = true;
              else chooseRowAt(0);
            } else if (e.key === 'ArrowDown' && grid.current && grid.current.getDisplayedRowCount() > 0) {
              e.preventDefault();
              grid.current.ensureIndexVisible(0);
              grid.current.setFocusedCell(0, 'title');
            }
          }}
        />
        <label className="pays-rewards" title="Only markets that pay liquidity rewards to makers now">
          <input
            type="checkbox"
            data-testid="filter-pays-rewards"
            checked={paysOnly}
            onChange={(e) => setPaysOnly(e.target.checked)}
          />{' '}
          Pays rewards
        </label>
        {/* Only an aggregator lists other protocols: read straight from Polymarket, there is nothing to choose. */}
        {oneProtocol ? null : (
          <select
            data-testid="protocol-filter"
            aria-label="Protocol"
            value={m.protocolFilter}
            onChange={(e) => m.setProtocolFilter(e.target.value as ProtocolFilter)}
          >
            {PROTOCOL_FILTERS.map((p) => (
              <option key={p} value={p}>
                {PROTOCOL_LABELS[p]}
              </option>
            ))}
          </select>
        )}
      </div>
      <div className="tabs markets-tabs" role="tablist">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            data-testid={`markets-tab-${t.id}`}
            aria-selected={!searching && m.tab === t.id}
            onClick={() => m.setTab(t.id)}
          >
            {t.label}
            {t.id === 'watchlist' && watchlist.length > 0 ? <span className="muted"> {watchlist.length}</span> : null}
          </button>
        ))}
        {searching ? (
          <button
            type="button"
            role="tab"
            aria-selected
            className="search-tab"
            title="Clear the search"
            onClick={() => m.clearSearch()}
          >
            Results ×
          </button>
        ) : null}
      </div>
      <div className="markets-tools">
        {m.tab === 'slugs' && !searching ? (
          <>
            <select
              data-testid="slug-select"
              aria-label="Slug"
              value={m.slug ?? ''}
              onChange={(e) => e.target.value && void m.chooseSlug(e.target.value)}
            >
              <option value="">
                {m.slugsLoading && m.slugs.length === 0
                  ? 'Loading slugs…'
                  : `Choose a slug (${countOf(m.slugs.length, 'slug')})`}
              </option>
              {m.slugs.map((slug) => (
                <option key={slug} value={slug}>
                  {slug}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="ghost"
              disabled={!m.slugPaging.hasMore || m.slugsLoading}
              title={
                m.slugsLoading
                  ? 'Loading slugs…'
                  : m.slugPaging.hasMore
                    ? 'Read the next page of slugs'
                    : 'Every slug is listed'
              }
              onClick={() => void m.loadSlugs()}
            >
              More slugs
            </button>
          </>
        ) : null}
        <input
          type="search"
          className="grid-filter"
          data-testid="grid-filter"
          placeholder="Filter rows"
          aria-label="Filter the rows shown"
          value={filterText}
          onChange={(e) => setFilterText(e.target.value)}
        />
        <ColumnChooser />
      </div>
      {problem ? (
        <div className="markets-problem error-text" role="alert" data-testid="markets-error">
          {problem}
        </div>
      ) : null}
      <div className="markets-grid-body">
        <MarketsGrid
          rows={rows}
          columns={columns}
          filterText={filterText}
          selectedId={selectedId}
          onSelect={choose}
          Star={WatchStar}
          onNearEnd={onNearEnd}
          onShownCount={onShownCount}
          onReady={(api) => (grid.current = api)}
          onColumnsReordered={saveColumnOrder}
        />
        {emptyText ? (
          <div className="markets-empty empty" data-testid="markets-empty">
            {emptyText}
          </div>
        ) : null}
      </div>
      <div className="markets-footer muted">
        <span data-testid="markets-count">
          {shown === markets
            ? countOf(markets, 'market')
            : `${shown.toLocaleString('en-US')} of ${countOf(markets, 'market')}`}
          {searching && m.searching && m.results !== null ? ' · searching…' : ''}
        </span>
        {!searching && m.tab === 'markets' ? (
          <button
            type="button"
            className="ghost"
            disabled={!morePages || m.listLoading}
            title={
              m.listLoading
                ? 'Loading the next page…'
                : morePages
                  ? 'Read the next page of events'
                  : 'Every ongoing event is listed'
            }
            onClick={() => void m.loadMore()}
          >
            {m.listLoading ? 'Loading…' : morePages ? 'Load more' : 'All loaded'}
          </button>
        ) : null}
      </div>
    </div>
  );
}
