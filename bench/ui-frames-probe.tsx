// Page-side stand-in for the order-book ladder, for `bench/ui-frames.ts` when the page it opens has no
// ladder yet: the path the market view takes — `bookUpdate` events through the renderer's frame batcher into
// a zustand store, and a React table of the shown outcome's top levels — so the benchmark still measures
// store → render. Bundled by the benchmark and served to the page from its own origin (the CSP stays as is).
// Browser code: typechecked with `npx tsc -p bench/tsconfig.probe.json` (the Node program has no DOM).
import { createRoot } from 'react-dom/client';
import { create } from 'zustand';
import type { BookLevel, OrderBookSummary } from '../src/shared/aggregator';
import type { TerminalEvents } from '../src/shared/contract';
import { flushCount, frameBatcher } from '../src/renderer/src/live/frame';
import type {} from '../src/renderer/src/bridge';

declare global {
  interface Window {
    uiFramesProbe: { tokenId: string; flushCount?: () => number; mounted?: boolean };
  }
}

const LEVELS = 15;

const useBooks = create<{ books: Record<string, OrderBookSummary> }>()(() => ({ books: {} }));

const applyBooks = frameBatcher<TerminalEvents['bookUpdate']>('bench-books', (updates) =>
  useBooks.setState((s) => {
    const books = { ...s.books };
    for (const update of updates) books[update.tokenId] = update.book;
    return { books };
  }),
);

/** The best LEVELS levels of one side, with the running total a ladder shows. */
function depth(levels: readonly BookLevel[], best: 'high' | 'low') {
  const sorted = [...levels].sort((a, b) => (best === 'high' ? Number(b.price) - Number(a.price) : Number(a.price) - Number(b.price))).slice(0, LEVELS);
  let total = 0;
  return sorted.map((level) => ({ price: Number(level.price), size: Number(level.size), total: (total += Number(level.size)) }));
}

function Ladder() {
  const book = useBooks((s) => s.books[window.uiFramesProbe.tokenId]);
  if (!book) return <p>Waiting for a book…</p>;
  const rows = [...depth(book.asks, 'low').reverse().map((l) => ({ ...l, kind: 'ask' })), ...depth(book.bids, 'high').map((l) => ({ ...l, kind: 'bid' }))];
  return (
    <table data-testid="bench-ladder">
      <tbody>
        {rows.map((level) => (
          <tr key={`${level.kind}${level.price}`} className={level.kind}>
            <td>{(level.price * 100).toFixed(1)}</td>
            <td>{level.size.toFixed(2)}</td>
            <td>{level.total.toFixed(2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const host = document.createElement('div');
host.id = 'bench-probe';
document.body.append(host);
createRoot(host).render(<Ladder />);
window.terminal.on('bookUpdate', applyBooks);
window.uiFramesProbe.flushCount = flushCount;
window.uiFramesProbe.mounted = true;
