// The panel sizes the layout draws: the trader's saved sizes (settings.panelSizes) while a splitter is not being
// dragged, the dragged size live while it is, each fitted to the area they share, and saved once the trader
// pauses (not on every pixel of a drag).
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useSession } from '../../store/session';
import { fitPanels, withoutPanel, type Fitted, type PanelName } from './panel-sizes';

/** A drag or a run of arrow keys is saved this long after it stops. */
export const SAVE_PANEL_SIZES_MS = 400;

export interface PanelLayout extends Fitted {
  resize(name: PanelName, size: number): void;
  reset(name: PanelName): void;
}

/** The size of the element: what the panels share (the window below the top bar). */
function useAreaSize(area: RefObject<HTMLElement | null>): { width: number; height: number } {
  const [size, setSize] = useState(() => ({ width: window.innerWidth, height: window.innerHeight - 40 }));
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    const measure = () => {
      const { width, height } = el.getBoundingClientRect();
      setSize((old) => (old.width === width && old.height === height ? old : { width, height }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [area]);
  return size;
}

export function usePanelSizes(area: RefObject<HTMLElement | null>): PanelLayout {
  const saved = useSession((s) => s.settings.panelSizes);
  const [draft, setDraft] = useState<Partial<Record<PanelName, number>>>({});
  const pending = useRef<Partial<Record<PanelName, number>>>({});
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const areaSize = useAreaSize(area);

  const flush = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const changes = pending.current;
    pending.current = {};
    if (Object.keys(changes).length === 0) return;
    const session = useSession.getState();
    // saveSettings shows the change at once, so the draft can go in the same step without a flicker.
    void session.saveSettings({ panelSizes: { ...session.settings.panelSizes, ...changes } });
    setDraft({});
  }, []);
  // A size dragged just before the window closes is still saved.
  useEffect(() => flush, [flush]);

  const resize = useCallback(
    (name: PanelName, size: number) => {
      pending.current = { ...pending.current, [name]: size };
      setDraft((d) => ({ ...d, [name]: size }));
      clearTimeout(timer.current);
      timer.current = setTimeout(flush, SAVE_PANEL_SIZES_MS);
    },
    [flush],
  );

  const reset = useCallback(
    (name: PanelName) => {
      flush();
      const session = useSession.getState();
      void session.saveSettings({ panelSizes: withoutPanel(session.settings.panelSizes, name) });
    },
    [flush],
  );

  const fitted = fitPanels({ ...saved, ...draft }, areaSize);
  return { ...fitted, resize, reset };
}
