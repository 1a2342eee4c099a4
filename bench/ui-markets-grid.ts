// The markets grid with 10,000 rows in headless Chromium: the real MarketsGrid component (ag-grid, row
// virtualisation, immutable rows with getRowId, the cached quick filter) on a page built by Vite.
// Measured in the page, each time up to the frame after the grid has redrawn:
//   - filtering by typed text, against a plain Array.filter over the same rows' texts (the floor any filter
//     has to pay, without drawing anything) in the same run;
//   - scrolling to the far end and back, and how many rows are in the DOM (virtualisation keeps it small);
//   - a continuous scroll, frame by frame, against idle frames in the same page;
//   - an update of 100 rows' prices handed in as a new immutable array (a delta, not a redraw).
// Prints medians over interleaved rounds and the ratios; no pass/fail, the numbers are for reading.
import { mkdtemp, rm, writeFile, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { launchChromium } from '../tests/helpers/browser';

const ROWS = Number(process.env.BENCH_GRID_ROWS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const QUERIES = ['bitcoin', 'rate cut', 'london snow 2027', 'e 19'];

const PAGE_HTML = `<!doctype html><html data-theme="dark"><head><meta charset="utf-8"><title>grid bench</title></head>
<body><div id="root" style="height: 800px; width: 900px; display: flex; flex-direction: column"></div><script type="module" src="./main.tsx"></script></body></html>`;

/** The page: generated rows, the grid, and `window.bench` to drive and time it. */
const PAGE_MAIN = `
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { MarketsGrid } from '../src/renderer/src/components/markets/MarketsGrid';
import { quickFilterTextOf, type MarketRow } from '../src/renderer/src/model/market-rows';
import { quoteFromRecord } from '../src/renderer/src/model/quote';
import '../src/renderer/src/styles.css';

/** A row's outcomes and the record they are priced from (listed prices, as a source without a book gives). */
function priced(id: string, yes: number) {
  const no = Math.round((1 - yes) * 100) / 100;
  const record = { position_tokens: [{ token_id: id + '-yes', name: 'Yes', price: String(yes) }, { token_id: id + '-no', name: 'No', price: String(no) }] };
  return { record, outcomes: record.position_tokens.map((t, k) => ({ name: t.name, tokenId: t.token_id, quote: quoteFromRecord(record, k) })) };
}

const TOPICS = ['Bitcoin above', 'Fed rate cut in', 'Snow in London on', 'AI model release before', 'Champions League winner', 'Election turnout over', 'Oil price above', 'Rain in Paris on'];
function makeRows(n: number): MarketRow[] {
  const rows: MarketRow[] = [];
  for (let i = 0; i < n; i++) {
    const topic = TOPICS[i % TOPICS.length];
    const year = 2026 + (i % 3);
    const yes = ((i * 37) % 97 + 1) / 100;
    rows.push({
      kind: 'market', groupId: null, event: null, volume24h: null, change24h: null, ...priced(String(100000 + i), yes),
      id: String(100000 + i), protocol: i % 5 === 0 ? 'limitless' : 'polymarket', eventId: String(9000 + Math.floor(i / 5)),
      eventTitle: topic + ' ' + year + '? #' + Math.floor(i / 5), market: 'Outcome ' + (i % 5) + ' of ' + topic, question: topic + ' ' + year + ' (' + i + ')?',
      slug: 'event-' + i,
      volume: (i * 7919) % 5_000_000, liquidity: i % 11 === 0 ? null : (i * 104729) % 900_000,
      endDate: new Date(Date.UTC(year, i % 12, 1 + (i % 28))).toISOString(), endTime: Date.UTC(year, i % 12, 1 + (i % 28)), spread: (i % 9) / 100,
    });
  }
  return rows;
}

const COLUMNS = ['title', 'outcomes', 'volume', 'liquidity', 'endDate'] as const;
const frame = () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
let api: any = null;
let settle: (() => void) | null = null;
const models = () => new Promise<void>((r) => (settle = r));

function Bench({ n }: { n: number }) {
  const [rows, setRows] = useState(() => makeRows(n));
  const [filter, setFilter] = useState('');
  const w = window as any;
  w.bench = {
    rows: () => rows,
    async filter(text: string) {
      const done = models();
      const t0 = performance.now();
      setFilter(text);
      await done;
      await frame();
      return { ms: performance.now() - t0, shown: api.getDisplayedRowCount() };
    },
    reference(text: string) {
      // The same rows' filter text, matched the way a quick filter matches (every word, case-insensitive).
      const words = text.toLowerCase().split(' ').filter(Boolean);
      const t0 = performance.now();
      const kept = rows.filter((r) => { const t = quickFilterTextOf(r).toLowerCase(); return words.every((word) => t.includes(word)); });
      return { ms: performance.now() - t0, shown: kept.length };
    },
    async glide(frames: number) {
      // A continuous scroll, 300 px a frame, as a trackpad fling: the time between frames while the grid
      // recycles its rows (smooth means close to the idle frame interval).
      const body = document.querySelector('.ag-grid-viewport') as HTMLElement;
      const gaps: number[] = [];
      let last = performance.now();
      for (let f = 0; f < frames; f++) {
        body.scrollTop += 300;
        await new Promise<void>((r) => requestAnimationFrame(() => r()));
        const now = performance.now();
        gaps.push(now - last);
        last = now;
      }
      const idle: number[] = [];
      last = performance.now();
      for (let f = 0; f < frames; f++) {
        await new Promise<void>((r) => requestAnimationFrame(() => r()));
        const now = performance.now();
        idle.push(now - last);
        last = now;
      }
      body.scrollTop = 0;
      return { gaps, idle, scrolledTo: api.getLastDisplayedRowIndex() };
    },
    async idle() {
      // Two frames with nothing to do: the floor under every "to the redrawn frame" time.
      const t0 = performance.now();
      await frame();
      return { ms: performance.now() - t0 };
    },
    async scroll() {
      const t0 = performance.now();
      api.ensureIndexVisible(api.getDisplayedRowCount() - 1, 'bottom');
      await frame();
      api.ensureIndexVisible(0, 'top');
      await frame();
      return { ms: performance.now() - t0, domRows: document.querySelectorAll('.ag-row[row-id]').length };
    },
    async update(round: number) {
      const next = rows.slice();
      for (let k = 0; k < 100; k++) {
        const i = (round * 997 + k * 89) % next.length;
        const yes = Math.round(((next[i].outcomes[0].quote.price ?? 0.5) * 100 + 1) % 99 + 1) / 100;
        next[i] = { ...next[i], ...priced(next[i].id, yes) };
      }
      const done = models();
      const t0 = performance.now();
      setRows(next);
      await done;
      await frame();
      return { ms: performance.now() - t0 };
    },
  };
  return (
    <MarketsGrid rows={rows} columns={COLUMNS} filterText={filter} selectedId={null} onSelect={() => undefined}
      onShownCount={() => { const s = settle; settle = null; s?.(); }}
      onReady={(a) => { api = a; w.benchReady = true; }} />
  );
}
createRoot(document.getElementById('root')!).render(<Bench n={Number(new URLSearchParams(location.search).get('rows'))} />);
`;

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function runMarketsGridBench(): Promise<void> {
  // The entry sits inside the repository for the build (so `react` and the component resolve), then goes.
  const entryDir = await mkdtemp(resolve('bench', '.grid-page-'));
  const outDir = await mkdtemp(join(tmpdir(), 'pmdesk-grid-bench-'));
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    // Every request is answered here (a 404 when the file is not there), so the chain never rejects.
    void readFile(join(outDir, path === '/' ? 'index.html' : path.replace(/\.\./g, ''))).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'text/html' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  const browser = await launchChromium();
  try {
    await writeFile(join(entryDir, 'index.html'), PAGE_HTML);
    await writeFile(join(entryDir, 'main.tsx'), PAGE_MAIN.replaceAll("'../src/", "'../../src/"));
    await build({
      root: entryDir,
      base: './',
      logLevel: 'silent',
      plugins: [react()],
      build: { outDir, emptyOutDir: true },
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    page.on('pageerror', (error) => console.error('page error:', error.message));
    const t0 = Date.now();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/?rows=${ROWS}`);
    await page.waitForFunction(() => (globalThis as { benchReady?: boolean }).benchReady === true);
    await page.waitForSelector('.ag-row[row-id]');
    console.log(`markets grid, ${ROWS} rows: page loaded and first drawn in ${Date.now() - t0} ms`);

    /** One of `window.bench`'s measurements, run in the page. */
    const call = <R>(
      op: 'filter' | 'reference' | 'scroll' | 'update' | 'idle' | 'glide',
      arg: string | number = 0,
    ): Promise<R> =>
      page.evaluate(
        ([name, a]) => (globalThis as unknown as { bench: Record<string, (a: unknown) => unknown> }).bench[name]!(a),
        [op, arg] as const,
      ) as Promise<R>;
    type Timed = { ms: number; shown: number };

    const grid: Record<string, number[]> = {};
    const reference: Record<string, number[]> = {};
    const scroll: number[] = [];
    const update: number[] = [];
    const idle: number[] = [];
    let domRows = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const q of QUERIES) {
        const g = await call<Timed>('filter', q);
        const r = await call<Timed>('reference', q);
        if (g.shown !== r.shown) throw new Error(`The grid kept ${g.shown} rows for "${q}", the reference ${r.shown}.`);
        (grid[q] ??= []).push(g.ms);
        (reference[q] ??= []).push(r.ms);
      }
      await call('filter', '');
      const s = await call<{ ms: number; domRows: number }>('scroll');
      scroll.push(s.ms);
      domRows = Math.max(domRows, s.domRows);
      update.push((await call<{ ms: number }>('update', round)).ms);
      idle.push((await call<{ ms: number }>('idle')).ms);
    }

    for (const q of QUERIES) {
      const g = median(grid[q]!);
      const r = median(reference[q]!);
      console.log(
        `  filter "${q}"`.padEnd(30) +
          `grid ${g.toFixed(1).padStart(7)} ms (to the redrawn frame)   Array.filter ${r.toFixed(2).padStart(6)} ms   ratio ${(g / Math.max(r, 0.01)).toFixed(1)}×`,
      );
    }
    console.log(
      `  scroll to the last row and back      ${median(scroll).toFixed(1).padStart(7)} ms (two frames each)   rows in the DOM at most: ${domRows} of ${ROWS}`,
    );
    console.log(
      `  100 prices changed (new immutable array) ${median(update).toFixed(1).padStart(7)} ms to the redrawn frame`,
    );
    const glide = await call<{ gaps: number[]; idle: number[]; scrolledTo: number }>('glide', 240);
    const pct = (xs: number[], p: number) =>
      [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
    console.log(
      `  continuous scroll, 300 px a frame, 240 frames (to row ${glide.scrolledTo}): frame interval p50 ${pct(glide.gaps, 50).toFixed(1)} ms, p95 ${pct(glide.gaps, 95).toFixed(1)} ms` +
        `   idle frames p50 ${pct(glide.idle, 50).toFixed(1)} ms, p95 ${pct(glide.idle, 95).toFixed(1)} ms   ratio p95 ${(pct(glide.gaps, 95) / pct(glide.idle, 95)).toFixed(2)}×`,
    );
    console.log(`  two idle frames (the floor under the grid times) ${median(idle).toFixed(1).padStart(7)} ms`);
    console.log(`  (one frame at 60 Hz is 16.7 ms; medians of ${ROUNDS} interleaved rounds)`);
  } finally {
    await browser.close();
    server.close();
    await rm(entryDir, { recursive: true, force: true });
    await rm(outDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runMarketsGridBench();
