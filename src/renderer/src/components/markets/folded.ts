// Which multi-market events the trader folded in the markets grid (by event row id). Events start unfolded;
// the choice holds while the list scrolls, pages, searches and switches tabs, for the session.
import { create } from 'zustand';

interface FoldedState {
  folded: ReadonlySet<string>;
  toggle(eventRowId: string): void;
  unfold(eventRowId: string): void;
}

export const useFolded = create<FoldedState>()((set) => ({
  folded: new Set(),
  toggle: (id) =>
    set((s) => {
      const next = new Set(s.folded);
      if (!next.delete(id)) next.add(id);
      return { folded: next };
    }),
  unfold: (id) =>
    set((s) => {
      if (!s.folded.has(id)) return s;
      const next = new Set(s.folded);
      next.delete(id);
      return { folded: next };
    }),
}));
