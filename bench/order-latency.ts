// From the confirm click to the order on the wire (issue 18 point 5): the terminal in headless Chromium on
// browser mode, a funded sandbox wallet imported and unlocked, the ticket filled with a resting limit BUY (10
// shares at 5¢ of "Bitcoin above $120k", nothing to match it), and each round a click on Submit, then on the
// confirmation's "ticket-confirm": the click's time is taken in the page (the click event's timestamp, epoch ms)
// and the POST /order's arrival at a loopback proxy in front of the sandbox CLOB (its whole body read, epoch
// ms). The exchange and the proxy run in a process of their own (bench/exchange-process.ts), so neither waits
// on the terminal's main thread; the page's and the exchange's clocks are checked against this process's
// (shortest round trip) and the times corrected by the difference. Between rounds the order is cancelled.
// In the same run, interleaved round by round, the same order from Node through @polymarket/clob-client-v2's
// createAndPostOrder (from the call to the arrival) and through this toolkit's createOrder + postOrder, each
// with its own funded wallet, on the sandbox at Polymarket's Amoy addresses (chain 80002), where the official
// client signs unchanged. Also interleaved: a market order through the ticket (FOK, $2 at the book, no worst price:
// made ready at the live book's price), against a maker's resting ask (a bid for No) placed before the rounds.
// Warm: two unmeasured rounds of each first (approvals, keys, caches).
// Target: the terminal's p50 under 10 ms. Prints p50/p99 of each path and the ratios; no pass/fail.
// Run: node --import tsx bench/order-latency.ts   (BENCH_ROUNDS, 20 by default)
import { Wallet } from 'ethers';
import type { Page } from 'playwright-core';
import { ClobClient as OfficialClient, OrderType, Side } from '@polymarket/clob-client-v2';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBrowserMode } from '../src/main/host/browser-mode';
import { CredentialVault } from '../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../src/main/credentials/secret-store';
import { ClobClient } from '@pmdesk/toolkit';
import type { ApiCredentials } from '@pmdesk/toolkit';
import { silentLogger } from '@pmdesk/toolkit';
import { privateKeySigner } from '@pmdesk/toolkit';
import { parseTradingProfile } from '../src/main/trading/profile';
import { buildRenderer } from '../tests/helpers/terminal-page';
import { launchChromium } from '../tests/helpers/browser';
import { officialSigner } from '../tests/helpers/sandbox-clob';
import { clockOffset, percentile } from './busy-books';
import { startBenchExchange, type BenchExchange } from './exchange-client';
import { pageClock } from './market-pages';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const WARM_ROUNDS = 2;
const MARKET = '90021'; // Bitcoin above $120k: a 1¢ tick, a minimum of 5 shares
const WALLET = 'bench-trader';
const PASSWORD = 'bench correct horse battery';
const ORDER = { price: 0.05, size: 10 };
/** The market order's dollars: 5 shares (the market's minimum) at the maker's 40¢ ask. */
const MARKET_ORDER_USD = 2;
/** The maker's resting bid for No at 60¢ (an ask for Yes at 40¢), deep enough for every round's market order. */
const MAKER = { price: 0.6, size: 1000 };

interface PageTerminal {
  [op: string]: (input: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>;
}

/** Runs in the page: notes every click on the confirmation's button, as the page's clock saw it (epoch ms). */
function installClickClock(): void {
  const w = globalThis as unknown as {
    confirmClicks: { at: number; handled: number }[];
    performance: { timeOrigin: number; now(): number };
    addEventListener(
      type: string,
      listener: (e: { target: unknown; timeStamp: number }) => void,
      capture: boolean,
    ): void;
  };
  w.confirmClicks = [];
  // Capture on the window: before any of the page's own handlers, React's included.
  w.addEventListener(
    'click',
    (e) => {
      const target = e.target as { closest?(s: string): unknown } | null;
      if (!target?.closest?.('[data-testid="ticket-confirm"]')) return;
      w.confirmClicks.push({
        at: w.performance.timeOrigin + e.timeStamp,
        handled: w.performance.timeOrigin + w.performance.now(),
      });
    },
    true,
  );
}

async function call<T>(page: Page, op: string, input: unknown): Promise<T> {
  const answer = await page.evaluate(
    ([op, input]) => (globalThis as unknown as { terminal: PageTerminal }).terminal[op as string]!(input),
    [op, input] as const,
  );
  if (!answer.ok) throw new Error(`${op}: ${answer.error?.message}`);
  return answer.value as T;
}

/** Waits until `check` holds, asking every few milliseconds (the exchange's arrivals, say). */
async function until<T>(check: () => Promise<T | undefined>, what: string, ms = 30_000): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The first POST /order arrival after the `seen` already counted. */
async function nextArrival(exchange: BenchExchange, seen: number): Promise<number> {
  return until(async () => (await exchange.arrivals())[seen], 'the POST /order at the proxy');
}

async function main(): Promise<void> {
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const exchange = await startBenchExchange({ chainId: 80_002 });
    cleanups.push(() => exchange.stop());
    const proxyUrl = await exchange.proxy();
    const market = exchange.markets.find((m) => m.id === MARKET);
    if (!market) throw new Error(`The sandbox has no market ${MARKET}.`);
    const [yes] = market.tokens;
    const profile = { ...exchange.profile, clobUrl: proxyUrl };
    const [terminalKey, officialKey, toolkitKey, makerKey] = exchange.profile.testWallets.map((w) => w.privateKey);
    if (!terminalKey || !officialKey || !toolkitKey || !makerKey)
      throw new Error('The sandbox has fewer than four test wallets.');

    // The terminal: browser mode in this process, its CLOB requests through the proxy.
    const rendererDir = await buildRenderer();
    cleanups.push(() => rm(rendererDir, { recursive: true, force: true }));
    const dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-order-bench-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
    const mode = await startBrowserMode({ profile, rendererDir, dataDir, vault });
    cleanups.push(() => mode.stop());
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    page.on('pageerror', (error) => console.error('page error:', error.message));
    await page.addInitScript({ content: 'globalThis.__name ??= (f) => f;' });
    await page.addInitScript(installClickClock);
    await page.goto(mode.host.launchUrl);
    await page.waitForFunction(() => typeof (globalThis as unknown as { terminal?: unknown }).terminal === 'object');
    await call(page, 'importWallet', {
      label: WALLET,
      password: PASSWORD,
      source: { kind: 'privateKey', privateKey: terminalKey },
    });
    await call(page, 'unlockWallet', { label: WALLET, password: PASSWORD });
    await page.goto(`${mode.host.launchUrl}&market=${MARKET}&outcome=${yes}`);
    await page.reload();
    const ticket = (testId: string) => page.getByTestId('order-ticket').getByTestId(testId);
    await ticket('ticket-side-buy').waitFor({ timeout: 30_000 });

    /** One order through the ticket: click to arrival, on this process's clock. */
    // `read`: the trader reads the confirmation until it says the order is made ready (main checks, builds and
    // signs it while it is open, ~40 ms; a person reads for several hundred), then clicks. Otherwise the click
    // comes the moment the dialog shows, and waits for the making.
    const terminalRound = async (
      read = true,
    ): Promise<{ clickMs: number; handledMs: number; before: string[]; ready: string }> => {
      await ticket('ticket-kind-limit').click();
      await ticket('ticket-size-unit').selectOption('shares');
      await ticket('ticket-side-buy').click();
      await ticket('ticket-price').fill(String(ORDER.price * 100));
      await ticket('ticket-size').fill(String(ORDER.size));
      await page.waitForFunction(() => {
        const doc = (globalThis as unknown as { document: { querySelector(s: string): { disabled?: boolean } | null } })
          .document;
        return doc.querySelector('[data-testid="order-ticket"] [data-testid="ticket-submit"]')?.disabled === false;
      });
      await ticket('ticket-submit').click();
      await page.getByTestId('ticket-confirm-dialog').waitFor();
      if (read) await page.locator('[data-testid="ticket-confirm-dialog"]:not([data-order-ready="pending"])').waitFor();
      const ready = (await page.getByTestId('ticket-confirm-dialog').getAttribute('data-order-ready')) ?? '?';
      const seen = (await exchange.arrivals()).length;
      const seenRequests = (await exchange.requests(0)).length;
      const pageOffset = (await clockOffset(pageClock(page), 5)).offsetMs;
      await page.getByTestId('ticket-confirm').click();
      const arrival = await nextArrival(exchange, seen);
      // What main asked the exchange between the click and the order (chain reads go to the node, not here).
      const before = (await exchange.requests(seenRequests)).filter((r) => r.at < arrival).map((r) => r.what);
      const click = await page.evaluate(() =>
        (globalThis as unknown as { confirmClicks: { at: number; handled: number }[] }).confirmClicks.at(-1)!,
      );
      // Placed (or refused): the result replaces "Sending…"; then the order is cancelled for the next round.
      await page.waitForFunction(() => {
        const text =
          (
            globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }
          ).document.querySelector('[data-testid="ticket-result"]')?.textContent ?? '';
        return text !== '' && !text.startsWith('Sending');
      });
      const result = await ticket('ticket-result').innerText();
      if (!/placed/i.test(result)) throw new Error(`The ticket's order was not placed: ${result}`);
      await call(page, 'cancelAll', { wallet: WALLET });
      const arrivalHere = arrival - exchangeOffset;
      return {
        clickMs: arrivalHere - (click.at - pageOffset),
        handledMs: arrivalHere - (click.handled - pageOffset),
        before,
        ready,
      };
    };

    /** A market order through the ticket, clicked once the confirmation says it is made ready (or not). */
    const marketRound = async (): Promise<{ clickMs: number; ready: string }> => {
      await ticket('ticket-kind-market').click();
      await ticket('ticket-side-buy').click();
      await ticket('ticket-price').fill('');
      await ticket('ticket-size-unit').selectOption('usd');
      await ticket('ticket-size').fill(String(MARKET_ORDER_USD));
      await page.waitForFunction(() => {
        const doc = (globalThis as unknown as { document: { querySelector(s: string): { disabled?: boolean } | null } })
          .document;
        return doc.querySelector('[data-testid="order-ticket"] [data-testid="ticket-submit"]')?.disabled === false;
      });
      await ticket('ticket-submit').click();
      await page.locator('[data-testid="ticket-confirm-dialog"]:not([data-order-ready="pending"])').waitFor();
      const ready = (await page.getByTestId('ticket-confirm-dialog').getAttribute('data-order-ready')) ?? '?';
      const seen = (await exchange.arrivals()).length;
      const pageOffset = (await clockOffset(pageClock(page), 5)).offsetMs;
      await page.getByTestId('ticket-confirm').click();
      const arrival = await nextArrival(exchange, seen);
      const click = await page.evaluate(() =>
        (globalThis as unknown as { confirmClicks: { at: number; handled: number }[] }).confirmClicks.at(-1)!,
      );
      await page.waitForFunction(() => {
        const text =
          (
            globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }
          ).document.querySelector('[data-testid="ticket-result"]')?.textContent ?? '';
        return text !== '' && !text.startsWith('Sending');
      });
      const result = await ticket('ticket-result').innerText();
      if (!/matched/i.test(result)) throw new Error(`The ticket's market order did not fill: ${result}`);
      return { clickMs: arrival - exchangeOffset - (click.at - pageOffset), ready };
    };

    // The official client, from Node (this process), with its own wallet and keys, through the same proxy.
    const officialWallet = new Wallet(officialKey);
    const anonymous = new OfficialClient({
      host: proxyUrl,
      chain: 80_002,
      signer: officialSigner(officialWallet) as never,
      throwOnError: true,
    });
    const officialCreds = await anonymous.createOrDeriveApiKey();
    const official = new OfficialClient({
      host: proxyUrl,
      chain: 80_002,
      signer: officialSigner(officialWallet) as never,
      creds: officialCreds,
      throwOnError: true,
    });
    const officialRound = async (): Promise<number> => {
      const seen = (await exchange.arrivals()).length;
      const started = performance.timeOrigin + performance.now();
      const posted = (await official.createAndPostOrder(
        { tokenID: yes, price: ORDER.price, size: ORDER.size, side: Side.BUY },
        { tickSize: '0.01', negRisk: market.negRisk },
        OrderType.GTC,
      )) as { orderID?: string; success?: boolean };
      const arrival = await nextArrival(exchange, seen);
      if (!posted.orderID) throw new Error(`The official client's order was not placed: ${JSON.stringify(posted)}`);
      await official.cancelOrder({ orderID: posted.orderID });
      return arrival - exchangeOffset - started;
    };

    // This toolkit from Node, for the like-for-like comparison with the official client.
    const network = parseTradingProfile(profile).network;
    const base = {
      host: proxyUrl,
      chainId: network.chainId,
      throwOnError: true,
      networks: [network],
      logger: silentLogger,
    };
    const toolkitSigner = privateKeySigner(toolkitKey);
    const toolkitCreds = (await new ClobClient({
      ...base,
      signer: toolkitSigner,
    }).createOrDeriveApiKey()) as ApiCredentials;
    const toolkit = new ClobClient({ ...base, signer: toolkitSigner, creds: toolkitCreds });
    const toolkitRound = async (): Promise<number> => {
      const seen = (await exchange.arrivals()).length;
      const started = performance.timeOrigin + performance.now();
      const built = await toolkit.createOrder({ tokenId: yes, side: 'BUY', price: ORDER.price, size: ORDER.size });
      const posted = (await toolkit.postOrder(built, { orderType: 'GTC' })) as { orderID?: string };
      const arrival = await nextArrival(exchange, seen);
      if (!posted.orderID) throw new Error(`The toolkit's order was not placed: ${JSON.stringify(posted)}`);
      await toolkit.cancelOrder(posted.orderID);
      return arrival - exchangeOffset - started;
    };

    // The maker's resting ask for the market orders (a bid for No), straight to the exchange (not through the proxy).
    const makerSigner = privateKeySigner(makerKey);
    const makerBase = { ...base, host: exchange.profile.clobUrl };
    const makerCreds = (await new ClobClient({
      ...makerBase,
      signer: makerSigner,
    }).createOrDeriveApiKey()) as ApiCredentials;
    const maker = new ClobClient({ ...makerBase, signer: makerSigner, creds: makerCreds });
    const no = market.tokens[1]!;
    const resting = (await maker.postOrder(
      await maker.createOrder({ tokenId: no, side: 'BUY', price: MAKER.price, size: MAKER.size }),
      { orderType: 'GTC' },
    )) as { orderID?: string };
    if (!resting.orderID) throw new Error(`The maker's order was not placed: ${JSON.stringify(resting)}`);

    let exchangeOffset = (await clockOffset(() => exchange.clock())).offsetMs;
    for (let i = 0; i < WARM_ROUNDS; i++) {
      await terminalRound();
      await terminalRound(false);
      await marketRound();
      await officialRound();
      await toolkitRound();
    }
    const samples = {
      terminal: [] as number[],
      terminalHandled: [] as number[],
      atOnce: [] as number[],
      market: [] as number[],
      official: [] as number[],
      toolkit: [] as number[],
    };
    const readyStates = new Map<string, number>();
    const marketReady = new Map<string, number>();
    const asked = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      exchangeOffset = (await clockOffset(() => exchange.clock(), 5)).offsetMs;
      const t = await terminalRound();
      samples.terminal.push(t.clickMs);
      samples.terminalHandled.push(t.handledMs);
      readyStates.set(t.ready, (readyStates.get(t.ready) ?? 0) + 1);
      samples.atOnce.push((await terminalRound(false)).clickMs);
      const m = await marketRound();
      samples.market.push(m.clickMs);
      marketReady.set(m.ready, (marketReady.get(m.ready) ?? 0) + 1);
      for (const what of t.before) asked.set(what, (asked.get(what) ?? 0) + 1);
      samples.official.push(await officialRound());
      samples.toolkit.push(await toolkitRound());
    }

    const ms = (v: number) => `${v.toFixed(1)} ms`.padStart(10);
    console.log(
      `confirm click → POST /order on the wire (arrival at a loopback proxy in the exchange's process), ${ROUNDS} rounds after ${WARM_ROUNDS} warm ones`,
    );
    console.log(`${''.padEnd(62)}${'p50'.padStart(10)}${'p99'.padStart(10)}`);
    const line = (name: string, values: number[]) =>
      console.log(`${name.padEnd(62)}${ms(percentile(values, 50))}${ms(percentile(values, 99))}`);
    line('terminal: click on ticket-confirm → arrival', samples.terminal);
    line('terminal: click handler in the page → arrival', samples.terminalHandled);
    line('terminal: click the moment the confirmation shows → arrival', samples.atOnce);
    line(`terminal: market order (FOK, $${MARKET_ORDER_USD} at the book) click → arrival`, samples.market);
    line('@polymarket/clob-client-v2 createAndPostOrder → arrival', samples.official);
    line('toolkit createOrder + postOrder → arrival', samples.toolkit);
    const p50 = (v: number[]) => percentile(v, 50);
    console.log(
      `ratio terminal click / official call (p50)                   ${(p50(samples.terminal) / p50(samples.official)).toFixed(2)}×`,
    );
    console.log(
      `ratio toolkit / official (p50)                               ${(p50(samples.toolkit) / p50(samples.official)).toFixed(2)}×`,
    );
    console.log(`target: terminal p50 under 10 ms: ${p50(samples.terminal) < 10 ? 'met' : 'NOT met'}`);
    console.log(
      `the confirmation said, when clicked after reading: ${[...readyStates].map(([state, n]) => `ready="${state}" ×${n}`).join(', ')}`,
    );
    console.log(
      `the market order's confirmation said: ${[...marketReady].map(([state, n]) => `ready="${state}" ×${n}`).join(', ')}`,
    );
    const perRound = [...asked].map(([what, n]) => `${what} ×${(n / ROUNDS).toFixed(1)}`).join(', ');
    console.log(
      `CLOB requests from the terminal between the click and its POST /order, per round: ${perRound || 'none'}`,
    );
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

await main();
