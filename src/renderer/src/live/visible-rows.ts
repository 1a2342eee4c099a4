// Which rows of a long list of fixed-height rows are in view, so a list renders those (and a few either side)
// instead of all of them. Chromium repaints a changed page from its cached pieces every frame, and that costs
// in proportion to everything on the page, seen or not: a 500-fill tape drawn whole made every book update's
// frame pay for 500 rows (bench/ui-frames.ts, docs/decisions.md "Busy books in the UI").
import { useLayoutEffect, useState, type RefObject } from 'react';

export interface RowWindow {
  /** The first row to render. */
  first: number;
  /** One past the last row to render. */
  end: number;
}

/**
 * The rows of `count` (each `rowHeight` px, starting `offset` px into the scroller, below a sticky header)
 * that a scroller of `height` px scrolled to `scrollTop` shows, with `overscan` more either side so a
 * scroll of a few rows draws no blank space before the next render.
 */
export function rowWindow(count: number, rowHeight: number, scrollTop: number, height: number, offset = 0, overscan = 8): RowWindow {
  if (count <= 0) return { first: 0, end: 0 };
  const top = Math.max(0, scrollTop - offset);
  // A scroll position past the end (the list just got shorter) still shows the list's last screenful.
  const firstInView = Math.min(Math.floor(top / rowHeight), count - Math.ceil(height / rowHeight));
  return { first: Math.max(0, firstInView - overscan), end: Math.min(count, Math.ceil((top + height) / rowHeight) + overscan) };
}

/** Until the scroller is measured: enough rows for a tall panel. */
const UNMEASURED_HEIGHT = 1200;

/** `rowWindow` for a scroller element, following its scrolling and its size. */
export function useVisibleRows(scroller: RefObject<HTMLElement | null>, count: number, rowHeight: number, offset = 0): RowWindow {
  const [view, setView] = useState({ scrollTop: 0, height: UNMEASURED_HEIGHT });
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () =>
      setView((was) => (was.scrollTop === element.scrollTop && was.height === element.clientHeight ? was : { scrollTop: element.scrollTop, height: element.clientHeight }));
    measure();
    element.addEventListener('scroll', measure, { passive: true });
    const resizes = new ResizeObserver(measure);
    resizes.observe(element);
    return () => {
      element.removeEventListener('scroll', measure);
      resizes.disconnect();
    };
    // The scroller is rendered from the first on (a placeholder for an empty list goes inside it).
  }, [scroller]);
  return rowWindow(count, rowHeight, view.scrollTop, view.height, offset);
}
