// Which rows of a long list of same-height rows are in view, so a list renders those (and a few either side)
// instead of all of them. Chromium lays out, paints and layerizes the whole page for every frame in which
// anything changed, at a cost that grows with everything on the page, seen or not: a 500-fill tape or a
// 1,000-trade history drawn whole made every frame of a busy book pay for all of its rows (bench/ui-frames.ts,
// docs/decisions/0011-busy-books-in-the-ui-what-cost-the-frames.md).
import { cloneElement, useLayoutEffect, useRef, useState, type ReactElement, type RefObject } from 'react';

export interface RowWindow {
  /** The first row to render. */
  first: number;
  /** One past the last row to render. */
  end: number;
}

/**
 * The rows of `count` (each `rowHeight` px, the first starting `offset` px into the scroller's content) that a
 * scroller of `height` px scrolled to `scrollTop` shows, with `overscan` more either side so a scroll of a few
 * rows draws no blank space before the next render. With `onlyInView`, a list whose rows are all above or below
 * the view renders none of them (a list that shares its scroller with others: the ladder's asks and bids);
 * without it, a scroll position past the end (the list just got shorter) still shows the list's last screenful.
 */
export function rowWindow(
  count: number,
  rowHeight: number,
  scrollTop: number,
  height: number,
  offset = 0,
  overscan = 8,
  onlyInView = false,
): RowWindow {
  if (count <= 0) return { first: 0, end: 0 };
  if (onlyInView) {
    const top = scrollTop - offset;
    const first = Math.min(count, Math.max(0, Math.floor(top / rowHeight) - overscan));
    const end = Math.min(count, Math.max(0, Math.ceil((top + height) / rowHeight) + overscan));
    return end > first ? { first, end } : { first: 0, end: 0 };
  }
  const top = Math.max(0, scrollTop - offset);
  const firstInView = Math.min(Math.floor(top / rowHeight), count - Math.ceil(height / rowHeight));
  return {
    first: Math.max(0, firstInView - overscan),
    end: Math.min(count, Math.ceil((top + height) / rowHeight) + overscan),
  };
}

export interface WindowOptions {
  /** Rows rendered either side of the view (8 unless told). */
  overscan?: number;
  /** See `rowWindow`: none of the rows when they are all out of view. */
  onlyInView?: boolean;
}

/** Until the scroller is measured: enough rows for a tall panel. */
const UNMEASURED_HEIGHT = 1200;

function scrollerOf(element: HTMLElement): HTMLElement | null {
  for (let at = element.parentElement; at; at = at.parentElement) {
    const overflow = getComputedStyle(at).overflowY;
    if (overflow === 'auto' || overflow === 'scroll') return at;
  }
  return null;
}

interface View {
  scrollTop: number;
  height: number;
  offset: number;
  rowHeight: number;
}

/**
 * `rowWindow` for a list whose rows follow the `start` element (a spacer standing for the rows above the
 * window) inside the nearest scrolling ancestor; follows its scrolling and size. `rowHeight` is the rows'
 * height as the styles set it; the first rendered row's measured height replaces it, so a rounding of the
 * browser's never lets the window drift on a long list. Returns the window and the height to size spacers by.
 */
export function useVisibleRows(
  start: RefObject<HTMLElement | null>,
  count: number,
  rowHeight: number,
  options: WindowOptions = {},
): RowWindow & { rowHeight: number } {
  const [view, setView] = useState<View>({ scrollTop: 0, height: UNMEASURED_HEIGHT, offset: 0, rowHeight });
  const measureRef = useRef<() => void>(() => undefined);
  const hasRows = count > 0;
  useLayoutEffect(() => {
    const marker = start.current;
    const scroller = marker && scrollerOf(marker);
    if (!marker || !scroller) return;
    const measure = () => {
      const row = marker.nextElementSibling;
      const measured = row && row.getAttribute('aria-hidden') !== 'true' ? row.getBoundingClientRect().height : 0;
      const next: View = {
        scrollTop: scroller.scrollTop,
        height: scroller.clientHeight,
        offset: marker.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop,
        rowHeight: measured > 0 ? measured : rowHeight,
      };
      setView((was) =>
        was.scrollTop === next.scrollTop &&
        was.height === next.height &&
        was.offset === next.offset &&
        was.rowHeight === next.rowHeight
          ? was
          : next,
      );
    };
    measureRef.current = measure;
    measure();
    scroller.addEventListener('scroll', measure, { passive: true });
    const resizes = new ResizeObserver(measure);
    resizes.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', measure);
      resizes.disconnect();
      measureRef.current = () => undefined;
    };
    // Again when the list goes from empty to not: a list may render its spacer only when it has rows.
  }, [start, rowHeight, hasRows]);
  // A list that grew or shrank may have moved its first row (a message above it, a row's real height).
  useLayoutEffect(() => measureRef.current(), [count]);
  return {
    ...rowWindow(count, view.rowHeight, view.scrollTop, view.height, view.offset, options.overscan, options.onlyInView),
    rowHeight: view.rowHeight,
  };
}

/** The height `table.windowed` gives each row of a dense table (styles.css). */
const TABLE_ROW_HEIGHT = 24;

/**
 * A body for a `table.dense.windowed` that renders only the rows in view: spacer rows above and below stand for
 * the others. The table's styles give every row one height. Each rendered row is told its place in the whole
 * list (`aria-rowindex`, the header being row 1), so a screen reader counts the rows it cannot see; the table
 * says how many there are with `aria-rowcount` (rows + 1).
 */
export function WindowedRows<T>({
  rows,
  columns,
  render,
}: {
  rows: readonly T[];
  columns: number;
  render: (row: T, index: number) => ReactElement;
}) {
  const start = useRef<HTMLTableRowElement>(null);
  const view = useVisibleRows(start, rows.length, TABLE_ROW_HEIGHT);
  return (
    <tbody>
      <tr ref={start} className="row-spacer" aria-hidden="true" style={{ height: view.first * view.rowHeight }}>
        <td colSpan={columns} />
      </tr>
      {rows
        .slice(view.first, view.end)
        .map((row, i) =>
          cloneElement(render(row, view.first + i), { 'aria-rowindex': view.first + i + 2 } as Record<string, unknown>),
        )}
      <tr className="row-spacer" aria-hidden="true" style={{ height: (rows.length - view.end) * view.rowHeight }}>
        <td colSpan={columns} />
      </tr>
    </tbody>
  );
}
