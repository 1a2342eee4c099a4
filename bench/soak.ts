// Endurance over a trading session (issue 18 point 5): one page with four tiles, each its own busy market at
// BENCH_SOAK_RATE (500) book updates a second on the sandbox CLOB's /ws/market (bench/busy-books.ts, the
// exchange in its own process), for BENCH_SOAK_MINUTES (120: the 2-hour soak; `npm run bench` runs 2).
// BENCH_VIEWS=pages opens four pages instead, each in a window of its own (how it ran before tiles);
// BENCH_VIEW_COUNT (4) the number of markets.
// Every BENCH_SOAK_SAMPLE_SECONDS (a 40th of the run, at least 5 s), after a garbage collection on each side:
//   main  — this process, where browser mode runs the terminal's main: heap used and RSS (process.memoryUsage),
//           and its active handles and timers (process.getActiveResourcesInfo);
//   page  — the page's (each page's) JS heap used, DOM nodes and event listeners (CDP Performance.getMetrics),
//           and its live timers (setTimeout/setInterval counted by a wrapper installed before the renderer loads).
// Printed: each sample, then the first samples after the warm-up (a quarter of the run, at most 10 minutes)
// against the last ones (the median of up to three each), with the change in %, and a verdict line: memory
// flat within 10 %, and no growth in listeners, DOM nodes or timers (growth: every late sample above every
// early one). It reports; it never fails.
// Run: node --expose-gc --import tsx bench/soak.ts   (BENCH_SOAK_MINUTES=2 for a short run)
import type { CDPSession, Page } from 'playwright-core';
import { busyMarkets, openMarketViews, sleep, startBenchTerminal, viewsFromEnv } from './market-pages';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 120);
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 500);
const VIEWS = viewsFromEnv();
const SAMPLE_SECONDS = Number(process.env.BENCH_SOAK_SAMPLE_SECONDS ?? Math.max(5, Math.round((MINUTES * 60) / 40)));
const WARMUP_SECONDS = Math.min(600, (MINUTES * 60) / 4);
/** Memory within this much of the first sample after the warm-up is flat. */
const FLAT_PCT = 10;

/** Runs in the page: counts live timers (a timeout until it fires or is cleared, an interval until cleared). */
function installTimerCount(): void {
  const w = globalThis as unknown as {
    pageTimers(): number;
    setTimeout(fn: unknown, ms?: number, ...args: unknown[]): number;
    clearTimeout(id?: number): void;
    setInterval(fn: unknown, ms?: number, ...args: unknown[]): number;
    clearInterval(id?: number): void;
  };
  const live = new Set<number>();
  const [setT, clearT, setI, clearI] = [w.setTimeout, w.clearTimeout, w.setInterval, w.clearInterval];
  w.setTimeout = (fn, ms, ...args) => {
    const id: number = setT.call(
      w,
      (...a: unknown[]) => {
        live.delete(id);
        if (typeof fn === 'function') (fn as (...x: unknown[]) => void)(...a);
      },
      ms,
      ...args,
    );
    live.add(id);
    return id;
  };
  w.setInterval = (fn, ms, ...args) => {
    const id = setI.call(w, fn, ms, ...args);
    live.add(id);
    return id;
  };
  // Browsers share one id space between the two: either clear ends either.
  w.clearTimeout = (id) => {
    if (id !== undefined) live.delete(id);
    clearT.call(w, id);
  };
  w.clearInterval = (id) => {
    if (id !== undefined) live.delete(id);
    clearI.call(w, id);
  };
  w.pageTimers = () => live.size;
}

interface PageSample {
  heapMb: number;
  nodes: number;
  listeners: number;
  timers: number;
}

interface Sample {
  seconds: number;
  mainHeapMb: number;
  mainRssMb: number;
  mainTimers: number;
  mainHandles: number;
  pages: PageSample[];
}

const mb = (bytes: number) => bytes / 1024 / 1024;

async function samplePage(page: Page, cdp: CDPSession): Promise<PageSample> {
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] };
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? NaN;
  const timers = await page.evaluate(() => (globalThis as unknown as { pageTimers(): number }).pageTimers());
  return {
    heapMb: mb(metric('JSHeapUsedSize')),
    nodes: metric('Nodes'),
    listeners: metric('JSEventListeners'),
    timers,
  };
}

function sampleMain(): Omit<Sample, 'seconds' | 'pages'> {
  (globalThis as { gc?: () => void }).gc?.();
  const memory = process.memoryUsage();
  const resources = process.getActiveResourcesInfo();
  return {
    mainHeapMb: mb(memory.heapUsed),
    mainRssMb: mb(memory.rss),
    mainTimers: resources.filter((r) => r === 'Timeout').length,
    mainHandles: resources.length,
  };
}

const pct = (first: number, last: number) => (100 * (last - first)) / first;

async function main(): Promise<void> {
  if (!(globalThis as { gc?: unknown }).gc)
    console.log(
      '(run with node --expose-gc for a collection before each sample of main; the heap figures are noisier without)',
    );
  const terminal = await startBenchTerminal();
  try {
    const markets = await busyMarkets(terminal, VIEWS.count);
    const pages: Page[] = await openMarketViews(terminal, markets, VIEWS.mode, [installTimerCount]);
    const sessions: CDPSession[] = [];
    for (const page of pages) {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Performance.enable');
      sessions.push(cdp);
    }
    const views = VIEWS.mode === 'tiles' ? `one page with ${VIEWS.count} tiles` : `${VIEWS.count} market pages`;
    console.log(
      `soak: ${views}, ${RATE} book updates/s each, ${MINUTES} min, a sample every ${SAMPLE_SECONDS} s, warm-up ${(WARMUP_SECONDS / 60).toFixed(1)} min`,
    );
    console.log(
      `   time  main heap   main rss  timers handles | ${pages.length === 1 ? 'page: ' : 'pages:'} heap MB (each)          nodes (each)            listeners (each)      timers (each)`,
    );
    const driving = terminal.exchange.drive(RATE, MINUTES * 60);
    let finished = false;
    void driving.finally(() => (finished = true));
    const started = performance.now();
    const samples: Sample[] = [];
    for (;;) {
      const seconds = (performance.now() - started) / 1000;
      const pageSamples: PageSample[] = [];
      for (const [i, page] of pages.entries()) pageSamples.push(await samplePage(page, sessions[i]!));
      const sample: Sample = { seconds, ...sampleMain(), pages: pageSamples };
      samples.push(sample);
      const each = (pick: (p: PageSample) => number, digits = 0) =>
        pageSamples
          .map((p) => pick(p).toFixed(digits))
          .join(' ')
          .padEnd(22);
      console.log(
        `${(seconds / 60).toFixed(1).padStart(5)} m ${sample.mainHeapMb.toFixed(1).padStart(7)} MB ${sample.mainRssMb.toFixed(0).padStart(6)} MB ${String(sample.mainTimers).padStart(6)} ${String(sample.mainHandles).padStart(7)} | ` +
          `${each((p) => p.heapMb, 1).padEnd(30)} ${each((p) => p.nodes).padEnd(23)} ${each((p) => p.listeners)} ${each((p) => p.timers)}`,
      );
      if (finished) break;
      await Promise.race([sleep(SAMPLE_SECONDS * 1000), driving]);
    }
    const { sent, seconds } = await driving;
    console.log(
      `updates sent: ${sent.toLocaleString('en')} in ${(seconds / 60).toFixed(1)} min (${(sent / seconds / VIEWS.count).toFixed(0)}/s a book)`,
    );

    // The first samples after the warm-up against the last ones: up to three of each, as counts move a little
    // from sample to sample (a tooltip's listeners, a pending retry) without growing.
    const after = samples.filter((s) => s.seconds >= WARMUP_SECONDS);
    const k = Math.max(1, Math.min(3, Math.floor(after.length / 3)));
    if (after.length < 2) {
      console.log('The run is too short for two samples after the warm-up: no verdict.');
      return;
    }
    const head = after.slice(0, k);
    const tail = after.slice(-k);
    console.log(
      `\n${k === 1 ? 'first sample' : `median of the first ${k} samples`} after the warm-up (from ${(head[0]!.seconds / 60).toFixed(1)} min) against ${k === 1 ? 'the last' : `the last ${k}`} (to ${(tail.at(-1)!.seconds / 60).toFixed(1)} min)`,
    );
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const grew: string[] = [];
    const notFlat: string[] = [];
    const row = (name: string, pick: (s: Sample) => number, kind: 'memory' | 'count') => {
      const [a, b] = [median(head.map(pick)), median(tail.map(pick))];
      const change = a === b ? 0 : pct(a, b);
      const digits = kind === 'memory' ? 1 : 0;
      console.log(
        `  ${name.padEnd(34)}${a.toFixed(digits).padStart(10)} → ${b.toFixed(digits).padEnd(10)} ${change >= 0 ? '+' : ''}${Number.isFinite(change) ? change.toFixed(1) : '∞'} %`,
      );
      // Memory is flat within FLAT_PCT; a count grew when every late sample is above every early one.
      if (kind === 'memory' && !(Math.abs(change) <= FLAT_PCT)) notFlat.push(name);
      if (kind === 'count' && Math.min(...tail.map(pick)) > Math.max(...head.map(pick))) grew.push(name);
    };
    row('main heap used (MB)', (s) => s.mainHeapMb, 'memory');
    console.log(
      `  ${'main RSS (MB)'.padEnd(34)}${median(head.map((s) => s.mainRssMb))
        .toFixed(0)
        .padStart(10)} → ${median(tail.map((s) => s.mainRssMb)).toFixed(0)} (for reading: the allocator keeps pages)`,
    );
    row('main timers', (s) => s.mainTimers, 'count');
    row('main active handles', (s) => s.mainHandles, 'count');
    for (const [i] of pages.entries()) {
      row(`page ${i + 1} JS heap used (MB)`, (s) => s.pages[i]!.heapMb, 'memory');
      row(`page ${i + 1} DOM nodes`, (s) => s.pages[i]!.nodes, 'count');
      row(`page ${i + 1} event listeners`, (s) => s.pages[i]!.listeners, 'count');
      row(`page ${i + 1} timers`, (s) => s.pages[i]!.timers, 'count');
    }
    console.log(
      `verdict: main and page memory ${notFlat.length === 0 ? `flat within ${FLAT_PCT} %` : `NOT flat within ${FLAT_PCT} % (${notFlat.join(', ')})`}; ` +
        (grew.length === 0 ? 'no growth in listeners, DOM nodes or timers' : `grew: ${grew.join(', ')}`),
    );
  } finally {
    await terminal.stop();
  }
}

await main();
