// How smoothly the terminal draws while a market is busy (issue 8 item 7): headless Chromium on browser mode
// and the sandbox, the page opened on a market (`#…&market=<id>&outcome=<token>`), and 2,000 `bookUpdate`
// events a second for 10 s pushed from Node through the real event hub and /bridge WebSocket. The page records
// every frame with requestAnimationFrame. Printed: frames, frames over 16 ms (target < 1 %), p50/p99 frame
// time, updates received vs sent, React commits vs frames — and the same page idle for as long, in the same
// process, so the result reads as a ratio on whatever machine runs it.
// Run: node --import tsx bench/ui-frames.ts   (BENCH_RATE, BENCH_SECONDS to change the load; BENCH_HISTORY and
// BENCH_HIDE below)
// Measured on the 2-core dev machine (docs/decisions/0011-busy-books-in-the-ui-what-cost-the-frames.md): 38–50 % late frames before the
// bridge batching and ladder work, 0–3.8 % after it, and 0.00 % in each of five quiet runs after the second pass
// (page-wide layout, paint and layerize cut; frame work p99 11.5–15.7 ms).
// BENCH_PROFILE=1 also records the page's main thread during the load (CDP Profiler and Tracing, on an
// unminified build) and prints where its time went; the frame numbers of such a run are not comparable.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { build as viteBuild } from 'vite';
import { startSandbox } from '../sandbox/index';
import { startBrowserMode } from '../src/main/host/browser-mode';
import { CredentialVault } from '../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../src/main/credentials/secret-store';
import type { Book } from '../src/shared/book';
import { buildRenderer } from '../tests/helpers/terminal-page';
import { launchChromium } from '../tests/helpers/browser';
import { importAndFollow, longAccount } from '../tests/helpers/long-account';

const RATE = Number(process.env.BENCH_RATE ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** 60 Hz: a frame that starts later than this after the previous one is a frame over budget. */
const BUDGET_MS = 16;
/** Consecutive frames at 60 Hz are 16.7 ms apart; anything up to this is on time, not over budget. */
const ON_TIME_MS = 1000 / 60 + 1;
const LEVELS = 50;
/** How long the page may take to receive what was sent before the load window closes anyway. */
const DRAIN_MS = 60_000;
const PROFILE = process.env.BENCH_PROFILE === '1';
const HISTORY = Number(process.env.BENCH_HISTORY ?? 0);

// ---------------------------------------------------------------------------------------------------------
// Page side: a frame recorder and a React commit counter, installed before the renderer loads.

interface Recording {
  frames: number;
  intervals: number[];
  /** Per frame: from its start to the first task after it was painted (the main thread's work on it). */
  busy: number[];
  received: number;
  commits: number;
}

/** Runs in the page (serialised by Playwright): keeps its state on `window.uiFrames`. */
function installRecorder(): void {
  type Rec = {
    running: boolean;
    frames: number;
    last: number;
    intervals: number[];
    busy: number[];
    received: number;
    commits: number;
    listening: boolean;
  };
  const w = globalThis as unknown as {
    uiFrames: Rec;
    __REACT_DEVTOOLS_GLOBAL_HOOK__?: unknown;
    requestAnimationFrame(cb: (ts: number) => void): number;
    performance: { now(): number };
    MessageChannel: new () => {
      port1: { onmessage: ((e: { data: number }) => void) | null };
      port2: { postMessage(v: number): void };
    };
  };
  const rec: Rec = {
    running: false,
    frames: 0,
    last: 0,
    intervals: [],
    busy: [],
    received: 0,
    commits: 0,
    listening: false,
  };
  w.uiFrames = rec;
  // React reports every commit to the DevTools hook when one is present (production builds too).
  let renderers = 0;
  w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    isDisabled: false,
    renderers: new Map(),
    inject: () => ++renderers,
    checkDCE: () => undefined,
    onScheduleFiberRoot: () => undefined,
    onCommitFiberRoot: () => {
      if (rec.running) rec.commits += 1;
    },
    onCommitFiberUnmount: () => undefined,
    onPostCommitFiberRoot: () => undefined,
    setStrictMode: () => undefined,
  };
  const channel = new w.MessageChannel();
  channel.port1.onmessage = (e) => {
    if (rec.running) rec.busy.push(w.performance.now() - e.data);
  };
  const frame = (ts: number) => {
    if (rec.running) {
      rec.frames += 1;
      if (rec.last > 0) rec.intervals.push(ts - rec.last);
      rec.last = ts;
      channel.port2.postMessage(ts);
    }
    w.requestAnimationFrame(frame);
  };
  w.requestAnimationFrame(frame);
}

async function startRecording(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = globalThis as unknown as {
      uiFrames: {
        running: boolean;
        frames: number;
        last: number;
        intervals: number[];
        busy: number[];
        received: number;
        commits: number;
        listening: boolean;
      };
      terminal: { on(event: string, listener: (payload: { book: { hash: string } }) => void): void };
    };
    const rec = w.uiFrames;
    if (!rec.listening) {
      rec.listening = true;
      // Only the bench's own updates: the market view's live feed may push the sandbox's books too.
      w.terminal.on('bookUpdate', (payload: { book: { hash: string } }) => {
        if (rec.running && payload.book.hash.startsWith('bench:')) rec.received += 1;
      });
    }
    Object.assign(rec, { running: true, frames: 0, last: 0, intervals: [], busy: [], received: 0, commits: 0 });
  });
}

async function stopRecording(page: Page): Promise<Recording> {
  return page.evaluate(() => {
    const w = globalThis as unknown as {
      uiFrames: {
        running: boolean;
        frames: number;
        intervals: number[];
        busy: number[];
        received: number;
        commits: number;
      };
    };
    const rec = w.uiFrames;
    rec.running = false;
    return {
      frames: rec.frames,
      intervals: rec.intervals,
      busy: rec.busy,
      received: rec.received,
      commits: rec.commits,
    };
  });
}

// ---------------------------------------------------------------------------------------------------------
// Node side

/** A 50-level book around 50¢ whose sizes move with `n`, as a busy market's would. */
function bookFor(marketId: string, tokenId: string, n: number): Book {
  const level = (tenths: number, i: number) => ({
    price: tenths / 1000,
    size: 100 + ((n * 7919 + i * 104729) % 5000) / 10,
  });
  const shift = n % 5;
  return {
    tokenId,
    market: marketId,
    timestamp: Date.now(),
    bids: Array.from({ length: LEVELS }, (_, i) => level(499 - shift - i * 2, i)),
    asks: Array.from({ length: LEVELS }, (_, i) => level(501 - shift + i * 2, i + LEVELS)),
    hash: `bench:${n}`,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Summary {
  frames: number;
  over: number;
  overPct: number;
  p50: number;
  p99: number;
  busyP50: number;
  busyP99: number;
  busyOverPct: number;
}

function summarise(rec: Recording): Summary {
  const over = rec.intervals.filter((ms) => ms > ON_TIME_MS).length;
  const busyOver = rec.busy.filter((ms) => ms > BUDGET_MS).length;
  return {
    frames: rec.frames,
    over,
    overPct: (100 * over) / Math.max(1, rec.intervals.length),
    p50: percentile(rec.intervals, 50),
    p99: percentile(rec.intervals, 99),
    busyP50: percentile(rec.busy, 50),
    busyP99: percentile(rec.busy, 99),
    busyOverPct: (100 * busyOver) / Math.max(1, rec.busy.length),
  };
}

// ---------------------------------------------------------------------------------------------------------
// BENCH_PROFILE: where the page's main thread spends the load window.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

async function startProfile(cdp: CDPSession): Promise<void> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await cdp.send('Tracing.start', {
    categories: process.env.BENCH_TRACE_CATEGORIES ?? 'devtools.timeline,disabled-by-default-devtools.timeline',
    transferMode: 'ReturnAsStream',
  });
}

async function stopProfile(cdp: CDPSession): Promise<void> {
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  const complete = new Promise<string>((resolve) =>
    cdp.once('Tracing.tracingComplete', (e: { stream?: string }) => resolve(e.stream!)),
  );
  await cdp.send('Tracing.end');
  const stream = await complete;
  let text = '';
  for (;;) {
    const chunk = (await cdp.send('IO.read', { handle: stream, size: 1 << 20 })) as { data: string; eof: boolean };
    text += chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const saved = join(tmpdir(), `ui-frames-${Date.now()}`);
  await writeFile(`${saved}.trace.json`, text);
  await writeFile(`${saved}.cpuprofile`, JSON.stringify(profile));
  console.log(`Trace and CPU profile saved: ${saved}.trace.json, ${saved}.cpuprofile (open in Chromium's DevTools)`);

  // JS self time by function (and by file for the anonymous ones).
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let totalMs = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id)!;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    totalMs += ms;
    const f = node.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + ms);
  });
  console.log(`CPU profile of the load window (${(totalMs / 1000).toFixed(1)} s sampled), self time:`);
  for (const [name, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`  ${ms.toFixed(0).padStart(7)} ms  ${name}`);

  // Main-thread trace events by name (complete events on the renderer's main thread, nested ones included).
  const events = (
    JSON.parse(text) as {
      traceEvents: { name: string; ph: string; dur?: number; pid: number; tid: number; args?: { name?: string } }[];
    }
  ).traceEvents;
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const byName = new Map<string, { ms: number; n: number }>();
  for (const e of events) {
    if (!main || e.pid !== main.pid || e.tid !== main.tid || e.ph !== 'X' || e.dur === undefined) continue;
    const entry = byName.get(e.name) ?? { ms: 0, n: 0 };
    entry.ms += e.dur / 1000;
    entry.n += 1;
    byName.set(e.name, entry);
  }
  console.log('Main-thread trace events (inclusive time, count):');
  for (const [name, { ms, n }] of [...byName].sort((a, b) => b[1].ms - a[1].ms).slice(0, 25))
    console.log(`  ${ms.toFixed(0).padStart(7)} ms  ${String(n).padStart(6)}  ${name}`);
}

/** Imports a throwaway wallet (the page then follows it), pushes an account of `n` trades, opens its Trades tab. */
async function showLongHistory(
  page: Page,
  mode: Awaited<ReturnType<typeof startBrowserMode>>,
  n: number,
): Promise<void> {
  const wallet = 'bench-history';
  await importAndFollow(page, wallet, 'bench history password', `0x${randomBytes(32).toString('hex')}`);
  await page.locator('[data-testid="account-tab-trades"]').click();
  await sleep(1500);
  mode.hub.emit('account', { wallet, ...longAccount(n, Math.floor(n / 2)), state: 'open' });
  await page.locator('[data-testid="trades"] [data-trade-id]').first().waitFor({ timeout: 15_000 });
}

/** The renderer as `buildRenderer` builds it, but with its function names kept for the profile. */
async function buildUnminified(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'pmdesk-renderer-'));
  await viteBuild({ root: 'src/renderer', logLevel: 'silent', build: { outDir, emptyOutDir: true, minify: false } });
  return outDir;
}

async function main(): Promise<void> {
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const rendererDir = PROFILE ? await buildUnminified() : await buildRenderer();
    cleanups.push(() => rm(rendererDir, { recursive: true, force: true }));
    const sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0 }, simulate: 'off' });
    cleanups.push(() => sandbox.stop());
    const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
    const dataDir = `${rendererDir}-data`;
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const mode = await startBrowserMode({ profile: sandbox.profile, rendererDir, dataDir, vault });
    cleanups.push(() => mode.stop());
    const browser = await launchChromium();
    cleanups.push(() => browser.close());

    const market = sandbox.catalog.events[0]!.markets[0]!;
    const tokenId = market.tokens[0]!.tokenId;
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    page.on('pageerror', (error) => console.error('page error:', error.message));
    // tsx keeps function names with a `__name` helper the page does not have: a no-op stands in for it.
    await page.addInitScript({ content: 'globalThis.__name ??= (f) => f;' });
    await page.addInitScript(installRecorder);
    await page.goto(`${mode.host.launchUrl}&market=${encodeURIComponent(market.id)}&outcome=${tokenId}`);
    await page.waitForFunction(() => typeof (globalThis as unknown as { terminal?: unknown }).terminal === 'object');

    // The market view's ladder draws the load (its spread line appears once its book is read; the sandbox's
    // book may be empty until the bench's updates arrive). Without it there is nothing to measure.
    await page.locator('[data-testid="order-book"] [data-testid="spread"]').waitFor({ timeout: 15_000 });
    // BENCH_HISTORY=<n>: a wallet whose account holds n trades and n/2 open orders, its Trades tab open, so the
    // frames also carry a long history on the page (pushed as the `account` event main sends; the page renders
    // only the rows in view).
    if (HISTORY > 0) await showLongHistory(page, mode, HISTORY);
    // BENCH_HIDE=<selectors>: those parts of the page not drawn (laid out as before, so the ladder keeps its
    // size), to see what each costs the frames.
    if (process.env.BENCH_HIDE) {
      await page.evaluate((selectors) => {
        const doc = (
          globalThis as unknown as {
            document: { querySelectorAll(s: string): Iterable<{ style: { visibility: string } }> };
          }
        ).document;
        for (const element of doc.querySelectorAll(selectors)) element.style.visibility = 'hidden';
      }, process.env.BENCH_HIDE);
    }
    // Let the page settle (first reads answered, chart drawn) before anything is timed.
    await sleep(2000);

    // Reference: the same page idle for as long, half before the load and half after, so a machine whose load
    // drifts during the run weighs on both alike.
    await startRecording(page);
    await sleep((SECONDS * 1000) / 2);
    const idleBefore = await stopRecording(page);

    // Load: RATE updates a second through the hub, paced by the clock rather than by a timer's promise.
    const cdp = PROFILE ? await page.context().newCDPSession(page) : undefined;
    if (cdp) await startProfile(cdp);
    await startRecording(page);
    const books = Array.from({ length: 500 }, (_, n) => bookFor(market.id, tokenId, n));
    const total = RATE * SECONDS;
    const started = performance.now();
    let sent = 0;
    while (sent < total) {
      // What the clock says should have gone by now: a Node side that fell behind catches up, and the
      // seconds it really took are printed.
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE));
      while (sent < due) {
        const book = books[sent % books.length]!;
        mode.hub.emit('bookUpdate', { marketId: market.id, tokenId, book: { ...book, timestamp: Date.now() } });
        sent += 1;
      }
      await sleep(1);
    }
    const sendSeconds = (performance.now() - started) / 1000;
    if (cdp) await stopProfile(cdp);
    // Whatever is still on the wire arrives before the load window closes, so the idle window after it is idle.
    const lastSent = performance.now();
    const drainBy = lastSent + DRAIN_MS;
    let received = 0;
    while (performance.now() < drainBy) {
      received = await page.evaluate(
        () => (globalThis as unknown as { uiFrames: { received: number } }).uiFrames.received,
      );
      if (received >= sent) break;
      await sleep(50);
    }
    const caughtUpAfter =
      received >= sent ? `${((performance.now() - lastSent) / 1000).toFixed(1)} s` : `not within ${DRAIN_MS / 1000} s`;
    const busy = await stopRecording(page);

    await startRecording(page);
    await sleep((SECONDS * 1000) / 2);
    const idleAfter = await stopRecording(page);
    const idle: Recording = {
      frames: idleBefore.frames + idleAfter.frames,
      intervals: [...idleBefore.intervals, ...idleAfter.intervals],
      busy: [...idleBefore.busy, ...idleAfter.busy],
      received: idleBefore.received + idleAfter.received,
      commits: idleBefore.commits + idleAfter.commits,
    };

    const a = summarise(busy);
    const b = summarise(idle);
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const pct = (v: number) => `${v.toFixed(2)} %`;
    const ratio = (x: number, y: number) => (y > 0 ? `${(x / y).toFixed(2)}×` : 'n/a');
    console.log(
      `UI frames: ${RATE.toLocaleString('en')} bookUpdate/s for ${SECONDS} s through browser mode's hub and /bridge (${LEVELS} levels a side), drawn by the market view’s order-book ladder`,
    );
    console.log(`                                   under load      idle page       load / idle`);
    const line = (name: string, x: string, y: string, r: string) =>
      console.log(`${name.padEnd(35)}${x.padEnd(16)}${y.padEnd(16)}${r}`);
    line('frames', String(a.frames), String(b.frames), ratio(a.frames, b.frames));
    line(
      `frames over 16 ms (late > ${ON_TIME_MS.toFixed(1)} ms)`,
      `${a.over} (${pct(a.overPct)})`,
      `${b.over} (${pct(b.overPct)})`,
      a.overPct < 1 ? 'target < 1 %: met' : 'target < 1 %: NOT met',
    );
    line('frame time p50', ms(a.p50), ms(b.p50), ratio(a.p50, b.p50));
    line('frame time p99', ms(a.p99), ms(b.p99), ratio(a.p99, b.p99));
    line('frame work p50 (start → painted)', ms(a.busyP50), ms(b.busyP50), ratio(a.busyP50, b.busyP50));
    line('frame work p99', ms(a.busyP99), ms(b.busyP99), ratio(a.busyP99, b.busyP99));
    line('frames with work over 16 ms', pct(a.busyOverPct), pct(b.busyOverPct), '');
    line(
      'updates received / sent',
      `${busy.received} / ${sent}`,
      `${idle.received} / 0`,
      `${((100 * busy.received) / Math.max(1, sent)).toFixed(1)} % (sent over ${sendSeconds.toFixed(1)} s)`,
    );
    line('page caught up after the last send', caughtUpAfter, '', '');
    line(
      'React commits / frames',
      `${busy.commits} / ${a.frames}`,
      `${idle.commits} / ${b.frames}`,
      `${(busy.commits / a.frames).toFixed(2)} commits a frame`,
    );
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

await main();
