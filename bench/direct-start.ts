// How fast the terminal opens on Polymarket direct against the aggregator: headless Chromium on browser mode
// and one sandbox (every server running, so both sources read the same markets and books), the profile naming
// `source: 'polymarket'` or `source: 'aggregator'`. Each round, for each source in turn (interleaved, the order
// alternating), a fresh terminal — its own data folder, a new browser context, nothing cached — and:
//   (a) launch: from startBrowserMode through the page load to the first row of markets drawn in the grid;
//   (b) a market's book: from a click on a market's row to the first level drawn in its ladder (timed in the
//       page, up to the frame after the level appeared).
// The sandbox's bots quote (simulate 'manual') but do not trade, so each round opens the same books.
// Prints medians over the rounds and the ratio direct/aggregator; no pass/fail, the numbers are for reading.
// Run: node --import tsx bench/direct-start.ts   (BENCH_ROUNDS to change the number of rounds)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startSandbox, type RunningSandbox, type SandboxSource } from '../sandbox/index';
import { startBrowserMode } from '../src/main/host/browser-mode';
import { CredentialVault } from '../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../src/main/credentials/secret-store';
import { buildRenderer } from '../tests/helpers/terminal-page';
import { launchChromium } from '../tests/helpers/browser';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/** The market clicked in (b): found by its question in the grid, so neither source's ids are assumed. */
const QUESTION = 'Bitcoin above $120k on December 31, 2026?';
const SOURCES: readonly SandboxSource[] = ['polymarket', 'aggregator'];
const GRID_ROW = '[data-testid="markets-grid"] .ag-row';

interface Timing {
  launchMs: number;
  bookMs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One fresh terminal on the sandbox reading markets from `source`: launch to the grid, then a click to the book. */
async function openOnce(
  sandbox: RunningSandbox,
  browser: Browser,
  rendererDir: string,
  source: SandboxSource,
): Promise<Timing> {
  const dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-start-bench-'));
  const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  let mode: Awaited<ReturnType<typeof startBrowserMode>> | undefined;
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error.message));
    const t0 = performance.now();
    mode = await startBrowserMode({ profile: { ...sandbox.profile, source }, rendererDir, dataDir, vault });
    await page.goto(mode.host.launchUrl);
    await page.locator(GRID_ROW).first().waitFor({ timeout: 60_000 });
    const launchMs = performance.now() - t0;

    const row = page.locator(GRID_ROW).filter({ hasText: QUESTION }).first();
    await row.waitFor({ timeout: 30_000 });
    const title = await row.locator('[col-id="title"]').elementHandle();
    if (!title) throw new Error(`No title cell for "${QUESTION}".`);
    // Clicked and timed in the page: from the click to the frame after the ladder's first level is in the DOM.
    const bookMs = await page.evaluate(async (cell) => {
      const w = globalThis as unknown as {
        document: { querySelector(s: string): unknown };
        performance: { now(): number };
        requestAnimationFrame(cb: () => void): number;
      };
      const t = w.performance.now();
      (cell as unknown as { click(): void }).click();
      const deadline = t + 60_000;
      while (!w.document.querySelector('[data-testid="order-book"] .ladder-row')) {
        if (w.performance.now() > deadline) throw new Error('The book was not drawn within 60 s.');
        await new Promise<void>((r) => w.requestAnimationFrame(() => r()));
      }
      // (No named helper in here: tsx names functions with a `__name` the page does not have.)
      await new Promise<void>((r) => w.requestAnimationFrame(() => r()));
      return w.performance.now() - t;
    }, title);
    return { launchMs, bookMs };
  } finally {
    await context.close();
    await mode?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function runDirectStartBench(): Promise<void> {
  const rendererDir = await buildRenderer();
  const sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0 }, simulate: 'manual' });
  const browser = await launchChromium();
  try {
    const timings: Record<SandboxSource, Timing[]> = { polymarket: [], aggregator: [] };
    // One unmeasured round each: the first start pays for loading modules and warming the sandbox's caches.
    for (const source of SOURCES) await openOnce(sandbox, browser, rendererDir, source);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? SOURCES : [...SOURCES].reverse();
      for (const source of order) timings[source].push(await openOnce(sandbox, browser, rendererDir, source));
    }
    const launch = (s: SandboxSource) => median(timings[s].map((t) => t.launchMs));
    const book = (s: SandboxSource) => median(timings[s].map((t) => t.bookMs));
    console.log(
      `terminal start on the sandbox, headless Chromium on browser mode (medians of ${ROUNDS} interleaved rounds)`,
    );
    for (const source of SOURCES) {
      const name = source === 'polymarket' ? 'Polymarket direct' : 'aggregator';
      console.log(
        `  ${name.padEnd(18)} launch to first markets drawn ${launch(source).toFixed(0).padStart(6)} ms   click to book drawn ${book(source).toFixed(0).padStart(5)} ms`,
      );
    }
    console.log(
      `  ratio direct/aggregator        launch ${(launch('polymarket') / launch('aggregator')).toFixed(2)}×` +
        `                      book ${(book('polymarket') / book('aggregator')).toFixed(2)}×`,
    );
  } finally {
    await browser.close();
    await sandbox.stop();
    await rm(rendererDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runDirectStartBench();
