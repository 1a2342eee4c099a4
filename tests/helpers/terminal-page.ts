// The whole terminal in headless Chromium for a test: the local sandbox, browser mode's host with the real
// services (signer worker, wallets in a temp folder, API credentials in memory), the renderer built by Vite,
// and a page opened on the launch URL. Panel tests and the end-to-end test start from here.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { startSandbox, type RunningSandbox, type SandboxOptions, type SandboxSource } from '../../sandbox/index';
import { startBrowserMode, type BrowserMode } from '../../src/main/host/browser-mode';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { launchChromium } from './browser';

export interface TerminalPage {
  sandbox: RunningSandbox;
  mode: BrowserMode;
  browser: Browser;
  page: Page;
  dataDir: string;
  /** The built renderer (a test that starts browser mode again on the same data folder serves it). */
  rendererDir: string;
  /** Opens another page on the same terminal (a second window). */
  newPage(): Promise<Page>;
  stop(): Promise<void>;
}

export interface TerminalPageOptions {
  /** The sandbox's market simulator: off unless asked (tests drive the books themselves). */
  simulate?: SandboxOptions['simulate'];
  simIntervalMs?: number;
  viewport?: { width: number; height: number };
  /** Runs on each new page before it loads (listen to its WebSocket frames, say). */
  setupPage?: (page: Page) => void;
  /** How often main checks the region (geoblock) and close-only again (5 minutes unless told). */
  regionCheckMs?: number;
  /**
   * The market-data source the sandbox's profile names: Polymarket direct (the product's default, what
   * `npm start` reads) unless a test asks for the aggregator.
   */
  source?: SandboxSource;
  /** Changes the sandbox's profile before the terminal starts on it (a Gamma URL through a proxy, say). */
  profile?: (profile: RunningSandbox['profile']) => RunningSandbox['profile'];
}

/** The renderer built once per test file (Vite, ~1 s). */
export async function buildRenderer(): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), 'pmdesk-renderer-'));
  // PMDESK_UNMINIFIED=1 keeps the bundle readable, so a profile of a bench's page names its functions.
  await build({
    root: 'src/renderer',
    logLevel: 'silent',
    build: { outDir, emptyOutDir: true, ...(process.env.PMDESK_UNMINIFIED ? { minify: false } : {}) },
  });
  return outDir;
}

export async function openTerminalPage(options: TerminalPageOptions = {}): Promise<TerminalPage> {
  const rendererDir = await buildRenderer();
  const dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-page-data-'));
  const cleanups: (() => Promise<unknown>)[] = [
    () => rm(rendererDir, { recursive: true, force: true }),
    () => rm(dataDir, { recursive: true, force: true }),
  ];
  const stop = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  };
  try {
    const sandbox = await startSandbox({
      ports: { rpc: 0, clob: 0, aggregator: 0 },
      simulate: options.simulate ?? 'off',
      simIntervalMs: options.simIntervalMs,
      source: options.source ?? 'polymarket',
    });
    cleanups.push(() => sandbox.stop());
    const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
    const mode = await startBrowserMode({
      profile: options.profile ? options.profile(sandbox.profile) : sandbox.profile,
      rendererDir,
      dataDir,
      vault,
      regionCheckMs: options.regionCheckMs,
    });
    cleanups.push(() => mode.stop());
    const browser = await launchChromium();
    cleanups.push(() => browser.close());
    const viewport = options.viewport ?? { width: 1600, height: 1000 };
    const newPage = async () => {
      const page = await browser.newPage({ viewport });
      page.on('pageerror', (error) => console.error('page error:', error.message));
      options.setupPage?.(page);
      await page.goto(mode.host.launchUrl);
      await page.waitForFunction(() => typeof (globalThis as unknown as { terminal?: unknown }).terminal === 'object');
      return page;
    };
    const page = await newPage();
    return { sandbox, mode, browser, page, dataDir, rendererDir, newPage, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The sandbox's first funded test wallet's private key (what a trader would import). */
export function testWalletKey(sandbox: RunningSandbox, index = 0): string {
  const wallet = sandbox.profile.testWallets[index];
  if (!wallet) throw new Error(`The sandbox has no test wallet ${index}.`);
  return wallet.privateKey;
}

/** What a page's `window.terminal` answers for one operation (the public contract). */
interface PageTerminal {
  [op: string]: (input: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>;
}

/** One operation through the page's window.terminal, failing with main's sentence when main refuses. */
export async function callTerminal<T>(page: Page, op: string, input: unknown): Promise<T> {
  const answer = await page.evaluate(
    async ([op, input]) => (globalThis as unknown as { terminal: PageTerminal }).terminal[op as string]!(input),
    [op, input] as const,
  );
  if (!answer.ok) throw new Error(`${op}: ${answer.error?.message}`);
  return answer.value as T;
}

/** The shell's notices pile up in the corner over the account row until dismissed: dismissed, as a trader would. */
export async function dismissNotices(page: Page): Promise<void> {
  const dismiss = page.getByTestId('notices').getByRole('button', { name: 'Dismiss' });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
}

/** Imports the sandbox's funded test wallet (by its index) under `label` through the page, and unlocks it. */
export async function importTestWallet(t: TerminalPage, label: string, password: string, index = 0): Promise<void> {
  await callTerminal(t.page, 'importWallet', {
    label,
    password,
    source: { kind: 'privateKey', privateKey: testWalletKey(t.sandbox, index) },
  });
  await callTerminal(t.page, 'unlockWallet', { label, password });
}
