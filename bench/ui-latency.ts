// From an exchange message to the pixel (issue 18 point 5): the sandbox CLOB's own /ws/market carries busy
// books (bench/busy-books.ts: price_change deltas at BENCH_RATE a second each, stamped with their send time in
// `timestamp`, epoch ms); the terminal follows them as it follows Polymarket (its market feed in main, the event
// hub, the bridge, the page's store) and each tile's ladder names its drawn book's timestamp in `data-book-ts`.
// A recorder in the page, in the first task after each painted frame, reads that attribute of every ladder on
// the page, each put down to its tile's market, and the page's clock (performance.timeOrigin + now): the
// difference is the latency of the update that ladder drew in that frame, in ms and in frames of 16.7 ms.
// Updates that arrive within one frame are drawn together: the latency is that of the newest one, the one on
// screen. Same machine, same clock; the page's clock is checked against Node's before each run (shortest round
// trip) and the latencies corrected by the difference.
//   1 book:  one market page, BENCH_RATE (2,000) updates a second. Targets: p50 ≤ 1 frame, p99 ≤ 2 frames.
//   4 views: one page with four tiles, each its own market at BENCH_RATE. Target: frames over 16 ms < 1 %.
//            Printed per tile and for the page. BENCH_VIEWS=pages opens four pages instead, each in a window
//            of its own (how this run was made before the workspace had tiles).
// Run: node --import tsx bench/ui-latency.ts   (BENCH_RATE, BENCH_SECONDS (10), BENCH_VIEWS (tiles | pages),
// BENCH_VIEW_COUNT (4), BENCH_ONLY (one | many | both: the one-book run, the several-views run, or both))
// The timestamp is whole milliseconds and the paint is seen from the first task after it: both err late, so
// the figures are upper bounds by about a millisecond plus any task queued ahead of the recorder's. The exchange
// runs in a process of its own (bench/exchange-process.ts), its clock checked against this one's as well.
import type { Page } from 'playwright-core';
import { clockOffset, percentile } from './busy-books';
import { cpuMsOf, machineCpuMs, rendererMainThreadsMs } from './cpu';
import type { ExchangeMarket } from './exchange-process';
import {
  busyMarkets,
  openMarketViews,
  pageClock,
  sleep,
  startBenchTerminal,
  viewsFromEnv,
  type ViewsMode,
} from './market-pages';

const RATE = Number(process.env.BENCH_RATE ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const VIEWS = viewsFromEnv();
const FRAME_MS = 1000 / 60;
/** Consecutive frames at 60 Hz are 16.7 ms apart; a frame later than this after the previous one is late. */
const ON_TIME_MS = FRAME_MS + 1;

interface Recording {
  frames: number;
  intervals: number[];
  /**
   * By the market of the tile a ladder sits in: per frame in which it drew a newer book, from the book's send
   * time to the first task after the paint, page clock.
   */
  latencies: Record<string, number[]>;
}

/** Runs in the page (serialised by Playwright): keeps its state on `window.uiLatency`. */
function installLatencyRecorder(): void {
  type Ladder = {
    getAttribute(name: string): string | null;
    closest(s: string): { getAttribute(name: string): string | null } | null;
  };
  type Rec = {
    running: boolean;
    frames: number;
    last: number;
    intervals: number[];
    latencies: Record<string, number[]>;
    shown: Record<string, string>;
    ladders(): [string, string][];
  };
  const w = globalThis as unknown as {
    uiLatency: Rec;
    document: { querySelectorAll(s: string): Iterable<Ladder> };
    requestAnimationFrame(cb: (ts: number) => void): number;
    performance: { timeOrigin: number; now(): number };
    MessageChannel: new () => {
      port1: { onmessage: ((e: { data: number }) => void) | null };
      port2: { postMessage(v: number): void };
    };
  };
  // Every ladder on the page as [its tile's market, the drawn book's timestamp].
  const ladders = (): [string, string][] =>
    [...w.document.querySelectorAll('[data-testid="order-book"]')].map((el) => [
      el.closest('[data-testid="tile"]')?.getAttribute('data-market-id') ?? '',
      el.getAttribute('data-book-ts') ?? '',
    ]);
  const rec: Rec = { running: false, frames: 0, last: 0, intervals: [], latencies: {}, shown: {}, ladders };
  w.uiLatency = rec;
  // Posted from the frame's callback, delivered in the first task after that frame's rendering (the paint).
  // The attributes are read there, not in the callback: the terminal applies books in its own frame callbacks
  // (React commits them in the microtasks right after), which may run after this one in the same frame.
  // Nothing else changes the attributes, so what the task reads is what the frame painted.
  const channel = new w.MessageChannel();
  channel.port1.onmessage = () => {
    if (!rec.running) return;
    const now = w.performance.timeOrigin + w.performance.now();
    for (const [market, shown] of ladders()) {
      if (shown === rec.shown[market]) continue;
      rec.shown[market] = shown;
      (rec.latencies[market] ??= []).push(now - Number(shown));
    }
  };
  const frame = (ts: number) => {
    if (rec.running) {
      rec.frames += 1;
      if (rec.last > 0) rec.intervals.push(ts - rec.last);
      rec.last = ts;
      channel.port2.postMessage(0);
    }
    w.requestAnimationFrame(frame);
  };
  w.requestAnimationFrame(frame);
}

async function startRecording(page: Page): Promise<void> {
  await page.evaluate(() => {
    const rec = (globalThis as unknown as { uiLatency: { ladders(): [string, string][] } }).uiLatency;
    // The books already on screen are not new ones: only books drawn from now on are timed.
    Object.assign(rec, {
      running: true,
      frames: 0,
      last: 0,
      intervals: [],
      latencies: {},
      shown: Object.fromEntries(rec.ladders()),
    });
  });
}

async function stopRecording(page: Page): Promise<Recording> {
  return page.evaluate(() => {
    const rec = (globalThis as unknown as { uiLatency: { running: boolean } & Recording }).uiLatency;
    rec.running = false;
    return { frames: rec.frames, intervals: rec.intervals, latencies: rec.latencies };
  });
}

interface Result {
  mode: ViewsMode;
  markets: ExchangeMarket[];
  sent: number;
  sendSeconds: number;
  /** Each page's clock less this process's, and the exchange's (whose clock stamped the books). */
  offsets: number[];
  exchangeOffset: number;
  recordings: Recording[];
  /** Each tile's width on screen (px), in the markets' order. */
  tileWidths: number[];
  /**
   * Percent of one core while the books were driven: the exchange's process, and this one (the terminal's main
   * with the bench's own Playwright client), the browser's processes together, and what the machine's cores left
   * idle or had taken by the host they run on (Linux only; a virtual machine's host may run others on its cores).
   */
  cpu: {
    exchange: number;
    terminal: number;
    browser?: number;
    pageMainMs?: number;
    machine?: { idle: number; stolen: number };
  };
}

/** `views` busy markets at once, each at RATE, for SECONDS: tiles of one page, or a page each. */
async function run(views: number, mode: ViewsMode): Promise<Result> {
  const terminal = await startBenchTerminal();
  try {
    const markets = await busyMarkets(terminal, views);
    const pages = await openMarketViews(terminal, markets, mode, [installLatencyRecorder]);
    const tileWidths: number[] = [];
    for (const page of pages) {
      const widths = await page
        .locator('[data-testid="tile"]')
        .evaluateAll((tiles) => tiles.map((t) => Math.round(t.getBoundingClientRect().width)));
      tileWidths.push(...widths);
    }
    // Let the pages settle (first reads answered, charts drawn) before anything is timed.
    await sleep(2000);
    const offsets: number[] = [];
    for (const page of pages) offsets.push((await clockOffset(pageClock(page))).offsetMs);
    const exchangeOffset = (await clockOffset(() => terminal.exchange.clock())).offsetMs;
    for (const page of pages) await startRecording(page);
    const before = process.cpuUsage();
    const browserBefore = cpuMsOf('chrom');
    const machineBefore = machineCpuMs();
    const renderersBefore = rendererMainThreadsMs();
    const { sent, seconds, cpuMs } = await terminal.exchange.drive(RATE, SECONDS);
    const used = process.cpuUsage(before);
    const browserAfter = cpuMsOf('chrom');
    const machineAfter = machineCpuMs();
    const renderersAfter = rendererMainThreadsMs();
    const percent = (ms: number) => ms / (10 * seconds);
    const cpu = {
      exchange: percent(cpuMs),
      terminal: percent((used.user + used.system) / 1000),
      browser:
        browserBefore === undefined || browserAfter === undefined ? undefined : percent(browserAfter - browserBefore),
      // The busiest renderer's main thread (the pages' own, in the pages run: each its own process, alike).
      pageMainMs:
        renderersBefore && renderersAfter
          ? Math.max(0, ...[...renderersAfter].map(([pid, ms]) => ms - (renderersBefore.get(pid) ?? ms)))
          : undefined,
      machine:
        machineBefore && machineAfter
          ? {
              idle: percent(machineAfter.idle - machineBefore.idle),
              stolen: percent(machineAfter.stolen - machineBefore.stolen),
            }
          : undefined,
    };
    // The last updates are drawn within a few frames; a second is plenty for them to be on screen.
    await sleep(1000);
    const recordings: Recording[] = [];
    for (const page of pages) recordings.push(await stopRecording(page));
    return { mode, markets, sent, sendSeconds: seconds, offsets, exchangeOffset, recordings, tileWidths, cpu };
  } finally {
    await terminal.stop();
  }
}

function report(result: Result): { p50: number; p99: number; overPct: number } {
  // Paint times and send times both on this process's clock: each page's offset and the exchange's taken off.
  const onThisClock = (ms: number, page: number) => ms - result.offsets[page]! + result.exchangeOffset;
  // Each market's latencies, from the page its ladder is on (its tile's, in the tiles run).
  const byMarket = result.markets.map((m) =>
    result.recordings.flatMap((r, i) => (r.latencies[m.id] ?? []).map((ms) => onThisClock(ms, i))),
  );
  const latencies = byMarket.flat();
  const intervals = result.recordings.flatMap((r) => r.intervals);
  const frames = result.recordings.reduce((n, r) => n + r.frames, 0);
  const over = intervals.filter((ms) => ms > ON_TIME_MS).length;
  const overPct = (100 * over) / Math.max(1, intervals.length);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  const ms = (v: number) => `${v.toFixed(1)} ms (${(v / FRAME_MS).toFixed(2)} frames)`;
  const views = result.markets.length;
  const what =
    views === 1
      ? 'one market page'
      : result.mode === 'tiles'
        ? `one page, ${views} tiles (one market each)`
        : `${views} market pages at once, each in a window of its own`;
  console.log(
    `\n${what}: ${RATE.toLocaleString('en')} book updates/s each on the sandbox CLOB's /ws/market, ${SECONDS} s`,
  );
  const line = (name: string, value: string) => console.log(`  ${name.padEnd(44)}${value}`);
  line('updates sent', `${result.sent.toLocaleString('en')} in ${result.sendSeconds.toFixed(1)} s`);
  const perPage = result.recordings
    .map((r) => (r.frames / (r.intervals.reduce((a, b) => a + b, 0) / 1000)).toFixed(0))
    .join(', ');
  line('ladder paints of a newer book / frames', `${latencies.length} / ${frames} (frames/s: ${perPage})`);
  line('message → pixel p50', ms(p50));
  line('message → pixel p99', ms(p99));
  line('message → pixel max', ms(Math.max(...latencies)));
  if (views > 1) {
    for (const [i, m] of result.markets.entries()) {
      const own = byMarket[i]!;
      const where = result.mode === 'tiles' ? `tile ${i + 1}` : `page ${i + 1}`;
      line(
        `  ${where} (market ${m.id}, ${result.tileWidths[i]} px wide)`,
        `p50 ${ms(percentile(own, 50))}, p99 ${ms(percentile(own, 99))}, ${own.length} paints`,
      );
    }
  }
  const whose = result.recordings.length === 1 ? 'of the page' : 'of the pages together';
  line(
    `frames over 16 ms ${whose} (> ${ON_TIME_MS.toFixed(1)} ms)`,
    `${over} of ${intervals.length} (${overPct.toFixed(2)} %)`,
  );
  line('frame time p50 / p99', `${percentile(intervals, 50).toFixed(1)} / ${percentile(intervals, 99).toFixed(1)} ms`);
  line(
    'CPU while driving (% of a core)',
    `exchange ${result.cpu.exchange.toFixed(0)} %, terminal's main and bench ${result.cpu.terminal.toFixed(0)} %${result.cpu.browser === undefined ? '' : `, browser ${result.cpu.browser.toFixed(0)} %`}`,
  );
  if (result.cpu.pageMainMs !== undefined) {
    // Its CPU was read over the drive; its frames were counted over the recording, which also holds the second
    // after it: the frames of the drive are its seconds at the recording's frame rate.
    const busiest = result.recordings[0];
    const frameRate = busiest ? busiest.frames / (busiest.intervals.reduce((a, b) => a + b, 0) / 1000) : 0;
    const driveFrames = Math.max(1, frameRate * result.sendSeconds);
    line(
      'page main thread CPU a frame',
      `${(result.cpu.pageMainMs / driveFrames).toFixed(2)} ms (${(result.cpu.pageMainMs / (10 * result.sendSeconds)).toFixed(0)} % of a core)`,
    );
  }
  if (result.cpu.machine)
    line(
      'cores idle, taken by the host (% of a core)',
      `${result.cpu.machine.idle.toFixed(0)} %, ${result.cpu.machine.stolen.toFixed(0)} %`,
    );
  line(
    'page clocks, exchange clock − this clock',
    `${result.offsets.map((o) => `${o.toFixed(2)} ms`).join(', ')}; ${result.exchangeOffset.toFixed(2)} ms`,
  );
  return { p50, p99, overPct };
}

const ONLY = process.env.BENCH_ONLY ?? 'both';
if (!['one', 'many', 'both'].includes(ONLY)) throw new Error(`BENCH_ONLY is one, many or both, not ${ONLY}.`);
const one = ONLY === 'many' ? undefined : report(await run(1, 'pages'));
const many = ONLY === 'one' ? undefined : report(await run(VIEWS.count, VIEWS.mode));
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
console.log('\ntargets');
if (one)
  console.log(
    `  one book at ${RATE}/s: p50 ≤ 1 frame ${verdict(one.p50 <= FRAME_MS)}, p99 ≤ 2 frames ${verdict(one.p99 <= 2 * FRAME_MS)}`,
  );
if (many) {
  console.log(
    `  ${VIEWS.count} ${VIEWS.mode} at ${RATE}/s each: frames over 16 ms < 1 % ${verdict(many.overPct < 1)} (p50 ${(many.p50 / FRAME_MS).toFixed(2)}, p99 ${(many.p99 / FRAME_MS).toFixed(2)} frames)`,
  );
}
