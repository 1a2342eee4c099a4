// The markets grid itself: immutable rows keyed by market id, row virtualisation, sorting (numbers biggest
// first, dates soonest first, an event's markets kept under it), the quick filter, folded events and the chosen
// columns, themed from the app's CSS variables so it follows dark and light. It knows nothing of where rows come
// from; the panel (and the grid benchmark) hand them in.
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { AgGridReact, type CustomCellRendererProps } from 'ag-grid-react';
import {
  AllCommunityModule,
  ModuleRegistry,
  themeQuartz,
  type CellClickedEvent,
  type CellKeyDownEvent,
  type ColDef,
  type ColumnMovedEvent,
  type GetRowIdParams,
  type GridApi,
  type GridReadyEvent,
  type IRowNode,
  type ModelUpdatedEvent,
  type PostSortRowsParams,
  type RowClassParams,
  type RowSelectionOptions,
} from 'ag-grid-community';
import {
  ASCENDING_FIRST,
  compareNullable,
  DESCENDING_FIRST,
  formatDollars,
  formatEndDate,
  leadPrice,
  quickFilterTextOf,
  type MarketColumnId,
  type MarketRow,
} from '../../model/market-rows';
import { keepGroupsTogether, marketsShown, rowVisible } from './groups';
import { useFolded } from './folded';
import { ChangeCell, OutcomesCell, TitleCell } from './cells';
import { centsText } from '../../format/numbers';

ModuleRegistry.registerModules([AllCommunityModule]);

/** The grid drawn with the terminal's own colours: every value is a CSS variable, so a theme switch restyles it. */
export const marketsGridTheme = themeQuartz.withParams({
  backgroundColor: 'var(--panel)',
  foregroundColor: 'var(--text)',
  chromeBackgroundColor: 'var(--panel-2)',
  headerBackgroundColor: 'var(--panel)',
  headerTextColor: 'var(--muted)',
  borderColor: 'var(--line)',
  accentColor: 'var(--accent)',
  fontFamily: 'var(--sans)',
  fontSize: 12,
  headerFontWeight: 500,
  spacing: 4,
  rowHeight: 26,
  headerHeight: 28,
  wrapperBorder: false,
  wrapperBorderRadius: 0,
  selectedRowBackgroundColor: 'color-mix(in srgb, var(--accent) 22%, transparent)',
});

export interface MarketsGridProps {
  rows: readonly MarketRow[];
  columns: readonly MarketColumnId[];
  /** The quick filter: rows whose names contain every word stay. */
  filterText: string;
  selectedId: string | null;
  /** A market row was clicked (or Enter pressed on it); an event row's click folds or unfolds it instead. */
  onSelect(row: MarketRow): void;
  /** Renders the star of a row (the panel's, which knows the watchlist); none in the benchmark. */
  Star?: (props: { row: MarketRow }) => React.ReactNode;
  /** The last rows came into view: time to read another page. */
  onNearEnd?(): void;
  /** How many markets the filter leaves (folded ones counted, event rows not), after every change. */
  onShownCount?(count: number): void;
  onReady?(api: GridApi<MarketRow>): void;
  /** The trader dragged a column elsewhere: the chosen columns in their new order. */
  onColumnsReordered?(columns: MarketColumnId[]): void;
}

/** The selected row mirrors the chosen market; clicks choose the market, and the mark follows. */
const rowSelection: RowSelectionOptions = { mode: 'singleRow', checkboxes: false, enableClickSelection: false };
/** Module constants, not literals in JSX: a new object each render would make the grid rebuild its columns. */
const defaultColDef: ColDef<MarketRow> = {
  sortable: true,
  resizable: true,
  suppressHeaderMenuButton: true,
  sortingOrder: [...ASCENDING_FIRST],
};
const getRowId = (params: GetRowIdParams<MarketRow>) => params.data.id;
const getRowClass = (params: RowClassParams<MarketRow>) =>
  params.data?.kind === 'event' ? 'event-row' : params.data?.groupId ? 'grouped-row' : undefined;
const postSortRows = (params: PostSortRowsParams<MarketRow>) =>
  keepGroupsTogether(params.nodes as IRowNode<MarketRow>[]);
/** Only the title column feeds the quick filter, with every name of the row; numbers are not searched. */
const noQuickFilter = () => '';

/** A number column: unknowns last either way, biggest first on the first click (dates say otherwise). */
const numeric = (
  get: (row: MarketRow) => number | null,
): Pick<ColDef<MarketRow>, 'valueGetter' | 'comparator' | 'type' | 'getQuickFilterText' | 'sortingOrder'> => ({
  valueGetter: (p) => (p.data ? get(p.data) : null),
  comparator: (a: number | null, b: number | null, _na, _nb, descending) => compareNullable(a, b, descending),
  type: 'rightAligned',
  getQuickFilterText: noQuickFilter,
  sortingOrder: [...DESCENDING_FIRST],
});
const dollars = (p: { value: unknown }) => formatDollars((p.value ?? null) as number | null);

/**
 * Widths: every header fits in full at its minimum width (sort arrow included), so a narrow panel scrolls the
 * grid sideways (a visible scrollbar) instead of cutting "Liquidity" to "Liqu".
 */
const COLUMN_DEFS: Record<MarketColumnId, ColDef<MarketRow>> = {
  title: {
    colId: 'title',
    headerName: 'Market',
    headerTooltip: 'The market (or event); the full question on hover',
    // The name takes the room a wider column gives; the outcomes keep what their two prices need.
    flex: 5,
    minWidth: 180,
    valueGetter: (p) => (p.data ? `${p.data.market} ${p.data.eventTitle}` : ''),
    getQuickFilterText: (p) => (p.data ? quickFilterTextOf(p.data) : ''),
    cellRenderer: TitleCell,
  },
  outcomes: {
    colId: 'outcomes',
    // The header names the price: the midpoint, untagged in this dense column; a last trade or listed price is tagged.
    headerName: 'Outcomes · mid',
    headerTooltip:
      'Each outcome\'s price: the midpoint (untagged), or the last trade when the spread is wider than 10¢ (tagged "last", as on Polymarket), or the source\'s listed price where no book is read (tagged "listed")',
    flex: 1,
    minWidth: 150,
    ...numeric(leadPrice),
    type: undefined,
    cellRenderer: OutcomesCell,
  },
  change: {
    colId: 'change',
    headerName: '24h',
    headerTooltip: "24 h change of the first outcome's price, in cents",
    width: 76,
    minWidth: 64,
    ...numeric((r) => r.change24h),
    cellRenderer: ChangeCell,
  },
  volume: {
    colId: 'volume',
    headerName: 'Volume',
    headerTooltip: "Dollars traded: each market's own; an event row's is the event's",
    width: 90,
    minWidth: 84,
    ...numeric((r) => r.volume),
    valueFormatter: dollars,
  },
  volume24h: {
    colId: 'volume24h',
    headerName: 'Vol 24h',
    headerTooltip: 'Dollars traded over 24 h',
    width: 90,
    minWidth: 84,
    ...numeric((r) => r.volume24h),
    valueFormatter: dollars,
  },
  liquidity: {
    colId: 'liquidity',
    headerName: 'Liquidity',
    headerTooltip: "Dollars of resting orders near the price, as the source lists it (an event row: the event's)",
    width: 96,
    minWidth: 92,
    ...numeric((r) => r.liquidity),
    valueFormatter: dollars,
  },
  endDate: {
    colId: 'endDate',
    headerName: 'Ends',
    headerTooltip: 'When the market ends (UTC date)',
    width: 104,
    minWidth: 100,
    ...numeric((r) => r.endTime),
    sortingOrder: [...ASCENDING_FIRST],
    valueFormatter: (p) => formatEndDate((p.value ?? null) as number | null),
  },
  spread: {
    colId: 'spread',
    headerName: 'Spread',
    headerTooltip: 'Best ask minus best bid, as listed',
    width: 80,
    minWidth: 76,
    ...numeric((r) => r.spread),
    valueFormatter: (p) => (p.value === null || p.value === undefined ? '–' : `${centsText(p.value as number)}¢`),
  },
  rewards: {
    colId: 'rewards',
    headerName: 'Rewards',
    headerTooltip: 'Liquidity rewards the market pays makers per day (blank when it pays none)',
    width: 92,
    minWidth: 88,
    ...numeric((r) => r.rewardsDaily ?? null),
    valueFormatter: (p) =>
      p.value === null || p.value === undefined
        ? ''
        : `$${(p.value as number).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}/day`,
  },
  protocol: {
    colId: 'protocol',
    headerName: 'Protocol',
    width: 96,
    minWidth: 92,
    valueGetter: (p) => p.data?.protocol ?? '',
    getQuickFilterText: noQuickFilter,
  },
};

export function MarketsGrid({
  rows,
  columns,
  filterText,
  selectedId,
  onSelect,
  Star,
  onNearEnd,
  onShownCount,
  onReady,
  onColumnsReordered,
}: MarketsGridProps) {
  const api = useRef<GridApi<MarketRow> | null>(null);
  const folded = useFolded((s) => s.folded);
  // Callbacks read the latest props without rebuilding the column definitions (which would redraw every cell).
  const latest = useRef({
    onSelect,
    onNearEnd,
    onShownCount,
    onReady,
    onColumnsReordered,
    selectedId,
    filterText,
    folded,
  });
  latest.current = { onSelect, onNearEnd, onShownCount, onReady, onColumnsReordered, selectedId, filterText, folded };
  // Folding or unfolding an event (or typing a filter, which shows folded matches) draws the rows again.
  useEffect(() => api.current?.onFilterChanged(), [folded]);

  const columnDefs = useMemo<ColDef<MarketRow>[]>(() => {
    const defs: ColDef<MarketRow>[] = [];
    if (Star) {
      defs.push({
        colId: 'watch',
        headerName: '',
        headerTooltip: 'Watchlist',
        width: 34,
        resizable: false,
        sortable: false,
        suppressMovable: true,
        lockPosition: 'left',
        getQuickFilterText: noQuickFilter,
        cellClass: 'watch-cell',
        cellRenderer: (p: CustomCellRendererProps<MarketRow>) =>
          p.data && p.data.kind === 'market' ? <Star row={p.data} /> : null,
      });
    }
    for (const id of columns) defs.push(COLUMN_DEFS[id]);
    return defs;
  }, [columns, Star]);

  /** Marks the chosen market's row selected (and clears the mark when it is not among these rows). */
  const showSelected = useCallback(() => {
    const grid = api.current;
    if (!grid) return;
    const id = latest.current.selectedId;
    const node = id ? grid.getRowNode(id) : undefined;
    if (node) {
      if (!node.isSelected()) node.setSelected(true, true);
    } else if (grid.getSelectedNodes().length > 0) grid.deselectAll();
  }, []);

  useEffect(showSelected, [selectedId, rows, showSelected]);

  /**
   * Within a screenful of the end: ask for more before the trader gets there. After a redraw only while no
   * filter is typed: a filter that leaves a few rows would otherwise read page after page of the whole
   * catalogue; scrolling still reads on.
   */
  const checkNearEnd = useCallback((scrolled: boolean) => {
    const grid = api.current;
    if (!grid || !latest.current.onNearEnd) return;
    if (!scrolled && latest.current.filterText.trim() !== '') return;
    if (grid.getLastDisplayedRowIndex() >= grid.getDisplayedRowCount() - 30) latest.current.onNearEnd();
  }, []);

  // Stable handlers: the grid re-registers a handler whose identity changes, so these are made once.
  const handlers = useMemo(
    () => ({
      onGridReady(event: GridReadyEvent<MarketRow>) {
        api.current = event.api;
        latest.current.onReady?.(event.api);
        showSelected();
      },
      onCellClicked(event: CellClickedEvent<MarketRow>) {
        // The star toggles the watchlist; it does not open the market. An event row folds and unfolds.
        if (event.column.getColId() === 'watch' || !event.data) return;
        if (event.data.kind === 'market') latest.current.onSelect(event.data);
        // The fold button toggles on its own click; the rest of the row toggles here.
        else if (!(event.event?.target as HTMLElement | null)?.closest?.('.event-toggle, .event-board-open'))
          useFolded.getState().toggle(event.data.id);
      },
      onCellKeyDown(event: CellKeyDownEvent<MarketRow>) {
        // Enter on a focused row opens it (or folds an event). Handled here rather than in the shortcut table,
        // where a global Enter would take the key from every button in the terminal.
        if (
          (event.event as KeyboardEvent | undefined)?.key !== 'Enter' ||
          !event.data ||
          event.column.getColId() === 'watch'
        )
          return;
        if (event.data.kind === 'event') useFolded.getState().toggle(event.data.id);
        else latest.current.onSelect(event.data);
      },
      onModelUpdated(event: ModelUpdatedEvent<MarketRow>) {
        if (latest.current.onShownCount) {
          const drawn: MarketRow[] = [];
          event.api.forEachNodeAfterFilter((node) => node.data && drawn.push(node.data));
          latest.current.onShownCount(
            marketsShown(drawn, latest.current.folded, latest.current.filterText.trim() !== ''),
          );
        }
        showSelected();
        checkNearEnd(false);
      },
      isExternalFilterPresent() {
        return latest.current.folded.size > 0 && latest.current.filterText.trim() === '';
      },
      doesExternalFilterPass(node: IRowNode<MarketRow>) {
        return !node.data || rowVisible(node.data, latest.current.folded, latest.current.filterText.trim() !== '');
      },
      onBodyScroll() {
        checkNearEnd(true);
      },
      onColumnMoved(event: ColumnMovedEvent<MarketRow>) {
        // Once the trader's drop is done: not every step of a drag, nor the grid applying new column definitions.
        if (!event.finished || !event.source.startsWith('ui')) return;
        const order = event.api
          .getColumnState()
          .map((c) => c.colId)
          .filter((id): id is MarketColumnId => id in COLUMN_DEFS);
        latest.current.onColumnsReordered?.(order);
      },
    }),
    [showSelected, checkNearEnd],
  );

  return (
    <AgGridReact<MarketRow>
      theme={marketsGridTheme}
      rowData={rows as MarketRow[]}
      columnDefs={columnDefs}
      defaultColDef={defaultColDef}
      getRowId={getRowId}
      getRowClass={getRowClass}
      postSortRows={postSortRows}
      isExternalFilterPresent={handlers.isExternalFilterPresent}
      doesExternalFilterPass={handlers.doesExternalFilterPass}
      rowSelection={rowSelection}
      quickFilterText={filterText}
      cacheQuickFilter
      suppressCellFocus={false}
      animateRows={false}
      suppressNoRowsOverlay
      onGridReady={handlers.onGridReady}
      onCellClicked={handlers.onCellClicked}
      onCellKeyDown={handlers.onCellKeyDown}
      onModelUpdated={handlers.onModelUpdated}
      onBodyScroll={handlers.onBodyScroll}
      onColumnMoved={handlers.onColumnMoved}
    />
  );
}
