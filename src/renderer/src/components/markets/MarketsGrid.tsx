// The markets grid itself: immutable rows keyed by market id, row virtualisation, sorting, the quick filter
// and the chosen columns, themed from the app's CSS variables so it follows dark and light. It knows nothing
// of where rows come from; the panel (and the grid benchmark) hand them in.
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
  type ModelUpdatedEvent,
  type RowSelectionOptions,
} from 'ag-grid-community';
import {
  compareNullable,
  formatCents,
  formatDollars,
  formatEndDate,
  leadPrice,
  quickFilterTextOf,
  type MarketColumnId,
  type MarketRow,
} from './rows';

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
  onSelect(row: MarketRow): void;
  /** Renders the star of a row (the panel's, which knows the watchlist); none in the benchmark. */
  Star?: (props: { row: MarketRow }) => React.ReactNode;
  /** The last rows came into view: time to read another page. */
  onNearEnd?(): void;
  /** How many rows the filter leaves, after every change. */
  onShownCount?(count: number): void;
  onReady?(api: GridApi<MarketRow>): void;
  /** The trader dragged a column elsewhere: the chosen columns in their new order. */
  onColumnsReordered?(columns: MarketColumnId[]): void;
}

/** The selected row mirrors the chosen market; clicks choose the market, and the mark follows. */
const rowSelection: RowSelectionOptions = { mode: 'singleRow', checkboxes: false, enableClickSelection: false };
/** Module constants, not literals in JSX: a new object each render would make the grid rebuild its columns. */
const defaultColDef: ColDef<MarketRow> = { sortable: true, resizable: true, suppressHeaderMenuButton: true };
const getRowId = (params: GetRowIdParams<MarketRow>) => params.data.id;
/** Only the title column feeds the quick filter, with every name of the row; numbers are not searched. */
const noQuickFilter = () => '';

function TitleCell({ data }: CustomCellRendererProps<MarketRow>) {
  if (!data) return null;
  if (data.problem) return <span className="error-text" title={data.problem}>{data.market}: {data.problem}</span>;
  const sameAsEvent = !data.eventTitle || data.eventTitle === data.market;
  return (
    <span className="market-title" title={data.question || data.market}>
      <span className="market-name">{data.market}</span>
      {sameAsEvent ? null : <span className="muted event-name">{data.eventTitle}</span>}
    </span>
  );
}

function OutcomesCell({ data }: CustomCellRendererProps<MarketRow>) {
  if (!data) return null;
  return (
    <span className="outcome-prices">
      {data.outcomes.map((o, i) => (
        <span key={`${o.name}-${i}`} className={i === 0 ? 'outcome bid' : 'outcome ask'}>
          <span className="outcome-name">{o.name}</span> <span className="num">{o.price === null ? '–' : `${formatCents(o.price)}¢`}</span>
        </span>
      ))}
    </span>
  );
}

const numeric = (get: (row: MarketRow) => number | null): Pick<ColDef<MarketRow>, 'valueGetter' | 'comparator' | 'type' | 'getQuickFilterText'> => ({
  valueGetter: (p) => (p.data ? get(p.data) : null),
  comparator: (a: number | null, b: number | null, _na, _nb, descending) => compareNullable(a, b, descending),
  type: 'rightAligned',
  getQuickFilterText: noQuickFilter,
});

const COLUMN_DEFS: Record<MarketColumnId, ColDef<MarketRow>> = {
  title: {
    colId: 'title',
    headerName: 'Market',
    flex: 3,
    minWidth: 140,
    valueGetter: (p) => (p.data ? `${p.data.market} ${p.data.eventTitle}` : ''),
    getQuickFilterText: (p) => (p.data ? quickFilterTextOf(p.data) : ''),
    cellRenderer: TitleCell,
  },
  outcomes: {
    colId: 'outcomes',
    headerName: 'Outcomes',
    flex: 2,
    minWidth: 110,
    ...numeric(leadPrice),
    type: undefined,
    cellRenderer: OutcomesCell,
  },
  volume: { colId: 'volume', headerName: 'Volume', width: 82, ...numeric((r) => r.volume), valueFormatter: (p) => formatDollars(p.value as number | null) },
  liquidity: { colId: 'liquidity', headerName: 'Liquidity', width: 82, ...numeric((r) => r.liquidity), valueFormatter: (p) => formatDollars(p.value as number | null) },
  endDate: { colId: 'endDate', headerName: 'Ends', width: 100, ...numeric((r) => r.endTime), valueFormatter: (p) => formatEndDate(p.value as number | null) },
  spread: {
    colId: 'spread',
    headerName: 'Spread',
    width: 72,
    ...numeric((r) => r.spread),
    valueFormatter: (p) => (p.value === null || p.value === undefined ? '–' : `${formatCents(p.value as number)}¢`),
  },
  protocol: { colId: 'protocol', headerName: 'Protocol', width: 90, valueGetter: (p) => p.data?.protocol ?? '', getQuickFilterText: noQuickFilter },
};

export function MarketsGrid({ rows, columns, filterText, selectedId, onSelect, Star, onNearEnd, onShownCount, onReady, onColumnsReordered }: MarketsGridProps) {
  const api = useRef<GridApi<MarketRow> | null>(null);
  // Callbacks read the latest props without rebuilding the column definitions (which would redraw every cell).
  const latest = useRef({ onSelect, onNearEnd, onShownCount, onReady, onColumnsReordered, selectedId, filterText });
  latest.current = { onSelect, onNearEnd, onShownCount, onReady, onColumnsReordered, selectedId, filterText };

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
        cellRenderer: (p: CustomCellRendererProps<MarketRow>) => (p.data ? <Star row={p.data} /> : null),
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
        // The star toggles the watchlist; it does not open the market.
        if (event.column.getColId() === 'watch' || !event.data) return;
        latest.current.onSelect(event.data);
      },
      onCellKeyDown(event: CellKeyDownEvent<MarketRow>) {
        // Enter on a focused row opens it. Handled here rather than in the shortcut table, where a global
        // Enter would take the key from every button in the terminal.
        if ((event.event as KeyboardEvent | undefined)?.key === 'Enter' && event.data && event.column.getColId() !== 'watch') latest.current.onSelect(event.data);
      },
      onModelUpdated(event: ModelUpdatedEvent<MarketRow>) {
        latest.current.onShownCount?.(event.api.getDisplayedRowCount());
        showSelected();
        checkNearEnd(false);
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
