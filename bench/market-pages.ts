// What the latency and soak benches share: the whole terminal on the sandbox (the exchange in a process of its
// own, bench/exchange-process.ts; browser mode's main in this one; headless Chromium; Polymarket direct as
// `npm start` reads it; no bots), and busy markets opened by link on their first outcome, each ladder drawing a
// busy book. Several views at once are the tiles of one page, as a trader watches them (BENCH_VIEWS=tiles, the
// default), or one page each in a window of its own (BENCH_VIEWS=pages: how the runs were made before tiles).
import { rm } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { startBrowserMode, type BrowserMode } from '../src/main/host/browser-mode';
import { CredentialVault } from '../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../src/main/credentials/secret-store';
import { buildRenderer } from '../tests/helpers/terminal-page';
import { launchChromium } from '../tests/helpers/browser';
import { TILES_MAX } from '../src/shared/workspaces';
import { startBenchExchange, type BenchExchange } from './exchange-client';
import type { ExchangeMarket } from './exchange-process';

export interface BenchTerminal {
  exchange: BenchExchange;
  mode: BrowserMode;
  browser: Browser;
  stop(): Promise<void>;
}

export async function startBenchTerminal(): Promise<BenchTerminal> {
  const cleanups: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const rendererDir = await buildRenderer();
    cleanups.push(() => rm(rendererDir, { recursive: true, force: true }));
    const exchange = await startBenchExchange();
    cleanups.push(() => exchange.stop());
    const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
    const dataDir = `${rendererDir}-data`;
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const mode = await startBrowserMode({ profile: exchange.profile, rendererDir, dataDir, vault });
    cleanups.push(() => mode.stop());
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    return { exchange, mode, browser, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `count` open binary markets on a 1¢ tick, each with a busy book on its first outcome, published once. */
export async function busyMarkets(terminal: BenchTerminal, count: number): Promise<ExchangeMarket[]> {
  const markets = terminal.exchange.markets.filter((m) => m.tickSize === '0.01' && m.open).slice(0, count);
  if (markets.length < count)
    throw new Error(`The sandbox has ${markets.length} open 1¢ markets; the bench needs ${count}.`);
  await terminal.exchange.busy(markets.map((m) => m.id));
  return markets;
}

/**
 * A page on `market`'s first outcome, `initScripts` installed before the renderer loads, returned once its
 * ladder draws the busy book (the ladder names the book's send time in data-book-ts).
 */
export async function openMarketPage(
  terminal: BenchTerminal,
  market: ExchangeMarket,
  initScripts: (() => void)[] = [],
): Promise<Page> {
  // A context (a window) each: pages in the tabs of one window are hidden but for the front one, and Chromium
  // hardly draws hidden pages (about 10 frames a second measured), which is not what four views on screen get.
  const context = await terminal.browser.newContext({ viewport: { width: 1600, height: 1000 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error.message));
  // tsx keeps function names with a `__name` helper the page does not have: a no-op stands in for it.
  await page.addInitScript({ content: 'globalThis.__name ??= (f) => f;' });
  for (const script of initScripts) await page.addInitScript(script);
  await page.goto(
    `${terminal.mode.host.launchUrl}&market=${encodeURIComponent(market.id)}&outcome=${market.tokens[0]}`,
  );
  await page.locator('[data-testid="order-book"][data-book-ts] .ladder-row').first().waitFor({ timeout: 30_000 });
  return page;
}

const ladderOf = (marketId: string) =>
  `[data-testid="tile"][data-market-id="${marketId}"] [data-testid="order-book"][data-book-ts] .ladder-row`;

/**
 * One page whose workspace holds a tile per market, in `markets`' order, each returned drawing its busy book:
 * the first opened by link, then for each next one "+ Tile" (a new empty tile, focused) and a link to the market
 * in the page's fragment (a market linked goes into the focused tile), as a trader opens them.
 */
export async function openMarketTiles(
  terminal: BenchTerminal,
  markets: readonly ExchangeMarket[],
  initScripts: (() => void)[] = [],
): Promise<Page> {
  const [first, ...rest] = markets;
  if (!first) throw new Error('No market to open.');
  if (markets.length > TILES_MAX)
    throw new Error(`A workspace holds at most ${TILES_MAX} tiles; the bench asked for ${markets.length}.`);
  const page = await openMarketPage(terminal, first, initScripts);
  const launchHash = new URL(terminal.mode.host.launchUrl).hash;
  for (const market of rest) {
    await page.getByTestId('tile-add').click();
    await page.locator('[data-testid="tile"][aria-current="true"][data-market-id=""]').waitFor({ timeout: 10_000 });
    const hash = `${launchHash}&market=${encodeURIComponent(market.id)}&outcome=${market.tokens[0]}`;
    await page.evaluate((h) => ((globalThis as unknown as { location: { hash: string } }).location.hash = h), hash);
    await page.locator(ladderOf(market.id)).first().waitFor({ timeout: 30_000 });
  }
  // Every tile still draws its own market (a link never replaced an earlier tile's).
  for (const market of markets) await page.locator(ladderOf(market.id)).first().waitFor({ timeout: 10_000 });
  return page;
}

export type ViewsMode = 'tiles' | 'pages';

/** BENCH_VIEWS (tiles, the default, or pages) and BENCH_VIEW_COUNT (4): how several views at once are shown. */
export function viewsFromEnv(): { mode: ViewsMode; count: number } {
  const mode = process.env.BENCH_VIEWS ?? 'tiles';
  if (mode !== 'tiles' && mode !== 'pages') throw new Error(`BENCH_VIEWS is tiles or pages, not ${mode}.`);
  return { mode, count: Number(process.env.BENCH_VIEW_COUNT ?? 4) };
}

/** `markets` on screen at once: one page of tiles, or a page each. */
export async function openMarketViews(
  terminal: BenchTerminal,
  markets: readonly ExchangeMarket[],
  mode: ViewsMode,
  initScripts: (() => void)[] = [],
): Promise<Page[]> {
  if (mode === 'tiles') return [await openMarketTiles(terminal, markets, initScripts)];
  const pages: Page[] = [];
  for (const market of markets) pages.push(await openMarketPage(terminal, market, initScripts));
  return pages;
}

/** The page's clock (performance.timeOrigin + now, epoch ms): what its recorder times paints with. */
export function pageClock(page: Page): () => Promise<number> {
  return () =>
    page.evaluate(() => {
      const p = (globalThis as unknown as { performance: { timeOrigin: number; now(): number } }).performance;
      return p.timeOrigin + p.now();
    });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
