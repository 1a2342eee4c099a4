// From an exchange message to the pixel (issue 18 point 5): the sandbox CLOB's own /ws/market carries a busy
// book (bench/busy-books.ts: price_change deltas at BENCH_RATE a second, each stamped with its send time in
// `timestamp`, epoch ms); the terminal follows it as it follows Polymarket (its market feed in main, the event
// hub, the bridge, the page's store) and the ladder names the drawn book's timestamp in `data-book-ts`. A
// recorder in the page, in the first task after each painted frame, reads that attribute and the page's clock
// (performance.timeOrigin + now): the difference is the latency of the update drawn in that frame, in ms and in
// frames of 16.7 ms. Updates that arrive within one frame are drawn together: the latency is that of the
// newest one, the one on screen. Same machine, same clock; the page's clock is
// checked against Node's before each run (shortest round trip) and the latencies corrected by the difference.
//   1 book:  one market page, BENCH_RATE (2,000) updates a second. Targets: p50 ≤ 1 frame, p99 ≤ 2 frames.
//   4 views: four market pages at once, each its own market at BENCH_RATE. Target: frames over 16 ms < 1 %.
//            The workspace has no tiles yet: four pages, each in a window of its own, stand in for four tiles, and
//            tiles will replace them (one page, four ladders).
// Run: node --import tsx bench/ui-latency.ts   (BENCH_RATE, BENCH_SECONDS (10), BENCH_VIEWS (4))
// The timestamp is whole milliseconds and the paint is seen from the first task after it: both err late, so
// the figures are upper bounds by about a millisecond plus any task queued ahead of the recorder's. The exchange
// runs in a process of its own (bench/exchange-process.ts), its clock checked against this one's as well.
import type { Page } from 'playwright-core';
import { clockOffset, percentile } from './busy-books';
import { busyMarkets, openMarketPage, pageClock, sleep, startBenchTerminal } from './market-pages';

const RATE = Number(process.env.BENCH_RATE ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const VIEWS = Number(process.env.BENCH_VIEWS ?? 4);
const FRAME_MS = 1000 / 60;
/** Consecutive frames at 60 Hz are 16.7 ms apart; a frame later than this after the previous one is late. */
const ON_TIME_MS = FRAME_MS + 1;

interface Recording {
  frames: number;
  intervals: number[];
  /** Per frame that drew a newer book: from the book's send time to the first task after the paint, page clock. */
  latencies: number[];
}

/** Runs in the page (serialised by Playwright): keeps its state on `window.uiLatency`. */
function installLatencyRecorder(): void {
  type Rec = { running: boolean; frames: number; last: number; intervals: number[]; latencies: number[]; shown: string };
  const w = globalThis as unknown as {
    uiLatency: Rec;
    document: { querySelector(s: string): { getAttribute(name: string): string | null } | null };
    requestAnimationFrame(cb: (ts: number) => void): number;
    performance: { timeOrigin: number; now(): number };
    MessageChannel: new () => { port1: { onmessage: ((e: { data: number }) => void) | null }; port2: { postMessage(v: number): void } };
  };
  const rec: Rec = { running: false, frames: 0, last: 0, intervals: [], latencies: [], shown: '' };
  w.uiLatency = rec;
  // Posted from the frame's callback, delivered in the first task after that frame's rendering (the paint).
  // The attribute is read there, not in the callback: the terminal applies books in its own frame callbacks
  // (React commits them in the microtasks right after), which may run after this one in the same frame.
  // Nothing else changes the attribute, so what the task reads is what the frame painted.
  const channel = new w.MessageChannel();
  channel.port1.onmessage = () => {
    if (!rec.running) return;
    const shown = w.document.querySelector('[data-testid="order-book"]')?.getAttribute('data-book-ts') ?? '';
    if (shown === rec.shown) return;
    rec.shown = shown;
    rec.latencies.push(w.performance.timeOrigin + w.performance.now() - Number(shown));
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
    const w = globalThis as unknown as {
      uiLatency: { running: boolean; frames: number; last: number; intervals: number[]; latencies: number[]; shown: string };
      document: { querySelector(s: string): { getAttribute(name: string): string | null } | null };
    };
    // The book already on screen is not a new one: only books drawn from now on are timed.
    const shown = w.document.querySelector('[data-testid="order-book"]')?.getAttribute('data-book-ts') ?? '';
    Object.assign(w.uiLatency, { running: true, frames: 0, last: 0, intervals: [], latencies: [], shown });
  });
}

async function stopRecording(page: Page): Promise<Recording> {
  return page.evaluate(() => {
    const rec = (globalThis as unknown as { uiLatency: { running: boolean; frames: number; intervals: number[]; latencies: number[] } }).uiLatency;
    rec.running = false;
    return { frames: rec.frames, intervals: rec.intervals, latencies: rec.latencies };
  });
}

interface Result {
  views: number;
  sent: number;
  sendSeconds: number;
  /** Each page's clock less this process's, and the exchange's (whose clock stamped the books). */
  offsets: number[];
  exchangeOffset: number;
  recordings: Recording[];
}

/** `views` market pages at once, each its own busy market at RATE, for SECONDS. */
async function run(views: number): Promise<Result> {
  const terminal = await startBenchTerminal();
  try {
    const markets = await busyMarkets(terminal, views);
    const pages: Page[] = [];
    for (const market of markets) pages.push(await openMarketPage(terminal, market, [installLatencyRecorder]));
    // Let the pages settle (first reads answered, charts drawn) before anything is timed.
    await sleep(2000);
    const offsets: number[] = [];
    for (const page of pages) offsets.push((await clockOffset(pageClock(page))).offsetMs);
    const exchangeOffset = (await clockOffset(() => terminal.exchange.clock())).offsetMs;
    for (const page of pages) await startRecording(page);
    const { sent, seconds } = await terminal.exchange.drive(RATE, SECONDS);
    // The last updates are drawn within a few frames; a second is plenty for them to be on screen.
    await sleep(1000);
    const recordings: Recording[] = [];
    for (const page of pages) recordings.push(await stopRecording(page));
    return { views, sent, sendSeconds: seconds, offsets, exchangeOffset, recordings };
  } finally {
    await terminal.stop();
  }
}

function report(result: Result): { p50: number; p99: number; overPct: number } {
  // Paint times and send times both on this process's clock: each page's offset and the exchange's taken off.
  const latencies = result.recordings.flatMap((r, i) => r.latencies.map((ms) => ms - result.offsets[i]! + result.exchangeOffset));
  const intervals = result.recordings.flatMap((r) => r.intervals);
  const frames = result.recordings.reduce((n, r) => n + r.frames, 0);
  const over = intervals.filter((ms) => ms > ON_TIME_MS).length;
  const overPct = (100 * over) / Math.max(1, intervals.length);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  const ms = (v: number) => `${v.toFixed(1)} ms (${(v / FRAME_MS).toFixed(2)} frames)`;
  const what = result.views === 1 ? 'one market page' : `${result.views} market pages at once (standing in for ${result.views} tiles until the workspace has them)`;
  console.log(`\n${what}: ${RATE.toLocaleString('en')} book updates/s each on the sandbox CLOB's /ws/market, ${SECONDS} s`);
  const line = (name: string, value: string) => console.log(`  ${name.padEnd(44)}${value}`);
  line('updates sent', `${result.sent.toLocaleString('en')} in ${result.sendSeconds.toFixed(1)} s`);
  const perPage = result.recordings.map((r) => (r.frames / (r.intervals.reduce((a, b) => a + b, 0) / 1000)).toFixed(0)).join(', ');
  line('frames drawing a newer book / frames', `${latencies.length} / ${frames} (frames/s: ${perPage})`);
  line('message → pixel p50', ms(p50));
  line('message → pixel p99', ms(p99));
  line('message → pixel max', ms(Math.max(...latencies)));
  line(`frames over 16 ms (later than ${ON_TIME_MS.toFixed(1)} ms)`, `${over} of ${intervals.length} (${overPct.toFixed(2)} %)`);
  line('frame time p50 / p99', `${percentile(intervals, 50).toFixed(1)} / ${percentile(intervals, 99).toFixed(1)} ms`);
  line('page clocks, exchange clock − this clock', `${result.offsets.map((o) => `${o.toFixed(2)} ms`).join(', ')}; ${result.exchangeOffset.toFixed(2)} ms`);
  return { p50, p99, overPct };
}

const one = report(await run(1));
const many = report(await run(VIEWS));
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
console.log('\ntargets');
console.log(`  one book at ${RATE}/s: p50 ≤ 1 frame ${verdict(one.p50 <= FRAME_MS)}, p99 ≤ 2 frames ${verdict(one.p99 <= 2 * FRAME_MS)}`);
console.log(`  ${VIEWS} views at ${RATE}/s each: frames over 16 ms < 1 % ${verdict(many.overPct < 1)} (p50 ${(many.p50 / FRAME_MS).toFixed(2)}, p99 ${(many.p99 / FRAME_MS).toFixed(2)} frames)`);
