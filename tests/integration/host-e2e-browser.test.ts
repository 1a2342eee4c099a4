// End to end in headless Chromium: the local sandbox, browser mode's host with the real services (signer
// worker, wallets in a temp folder), and the built renderer. The page uses `window.terminal` only; every
// answer and every pushed event it receives is recorded and scanned for secrets afterwards.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { startBrowserMode, type BrowserMode } from '../../src/main/host/browser-mode';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { launchChromium } from '../helpers/browser';
import { findSecrets } from '../helpers/contract-examples';
import { OPERATION_NAMES } from '../../src/shared/contract';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';

const PASSWORD = 'e2e correct horse battery';

/** The few DOM members the page-side code below uses (the Node typecheck has no DOM types). */
interface PageDocument {
  addEventListener(type: 'securitypolicyviolation', listener: (event: { violatedDirective: string }) => void): void;
  createElement(tag: 'script'): { textContent: string };
  head: { append(node: unknown): void };
}
let sandbox: RunningSandbox;
let mode: BrowserMode;
let browser: Browser;
let page: Page;
let stranger: FixtureServer;
let rendererDir: string;
let dataDir: string;
let vault: CredentialVault;
/** Every response the page got that was not found (a page that asks for a missing file, such as a favicon). */
const notFound: string[] = [];

beforeAll(async () => {
  rendererDir = await mkdtemp(join(tmpdir(), 'pmdesk-e2e-renderer-'));
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-e2e-data-'));
  await build({ root: 'src/renderer', logLevel: 'silent', build: { outDir: rendererDir, emptyOutDir: true } });
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0 }, simulate: 'off' });
  // API credentials in memory: the test never writes to this machine's keychain.
  vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
  mode = await startBrowserMode({ profile: sandbox.profile, rendererDir, dataDir, vault });
  stranger = await startFixtureServer();
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('response', (response) => {
    if (response.status() === 404) notFound.push(response.url());
  });
  await page.goto(mode.host.launchUrl);
  await page.waitForFunction(() => typeof (globalThis as unknown as { terminal?: unknown }).terminal === 'object');
  // Everything the page hears from main, in order.
  await page.evaluate(() => {
    const w = globalThis as unknown as {
      heard: unknown[];
      terminal: { on: (e: string, l: (p: unknown) => void) => void };
    };
    w.heard = [];
    for (const event of ['bookUpdate', 'fill', 'orderUpdate', 'feedStatus', 'walletLock', 'network'])
      w.terminal.on(event, (payload) => w.heard.push({ event, payload }));
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await mode?.stop();
  await stranger?.stop();
  await sandbox?.stop();
  await rm(rendererDir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

/** Calls one operation through window.terminal in the page and records the answer there. */
async function ask(
  op: string,
  input?: unknown,
): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  return page.evaluate(
    async ([op, input]) => {
      const w = globalThis as unknown as {
        answers?: unknown[];
        terminal: Record<string, (input?: unknown) => Promise<unknown>>;
      };
      const answer = await w.terminal[op as string]!(input);
      (w.answers ??= []).push({ op, answer });
      return answer as { ok: boolean };
    },
    [op, input] as const,
  );
}

const waitHeard = (event: string) =>
  page.waitForFunction(
    (name) => (globalThis as unknown as { heard: { event: string }[] }).heard.some((h) => h.event === name),
    event,
  );

describe('PM Desk in a browser, against the sandbox', () => {
  let marketId = '';
  let eventId = '';
  let recoveryPhrase = '';
  const recoveryShownIn: string[] = [];

  it('exposes window.terminal (and nothing like ipcRenderer) and hears its network, announced at connect', async () => {
    const surface = await page.evaluate(() => {
      const w = globalThis as unknown as Record<string, unknown>;
      return {
        keys: Object.keys(w.terminal as object).length,
        frozen: Object.isFrozen(w.terminal),
        ipc: 'ipcRenderer' in w || 'require' in w || 'process' in w,
      };
    });
    expect(surface).toEqual({ keys: OPERATION_NAMES.length + 1, frozen: true, ipc: false });
    // The recorder subscribed after the bridge connected: the network is a state event, replayed to it.
    await waitHeard('network');
    expect(await ask('getNetwork')).toMatchObject({
      ok: true,
      value: { name: 'sandbox', chainId: sandbox.profile.chainId, sandbox: true, shell: 'browser' },
    });
  });

  it('has an icon: the page names it, the host serves it, and nothing the page loads is missing', async () => {
    const icon = await page.evaluate(`(async () => {
      const link = document.querySelector('link[rel="icon"]');
      const image = new Image();
      image.src = link.href;
      await image.decode();
      return { href: link.getAttribute('href'), width: image.naturalWidth };
    })()`);
    expect(icon).toEqual({ href: './icon.png', width: 256 });
    const served = await fetch(new URL('/icon.png', mode.host.origin));
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(notFound).toEqual([]);
  });

  it('lists, opens and charts markets through the contract', async () => {
    const page1 = await ask('listEvents', { limit: 50 });
    expect(page1.ok).toBe(true);
    const events = (page1.value as { events: { id: string; markets: { id: string }[] }[] }).events;
    expect(events).toHaveLength(5);
    eventId = events[0]!.id;
    marketId = events[0]!.markets[0]!.id;
    expect(await ask('getEvent', { eventId })).toMatchObject({ ok: true, value: { id: eventId } });
    expect(await ask('getMarket', { marketId })).toMatchObject({ ok: true, value: { id: marketId } });
    const books = await ask('getOrderBook', { marketId });
    expect(books.ok).toBe(true);
    const candles = await ask('getCandles', { marketId, interval: '1d' });
    expect(candles.ok).toBe(true);
    expect((candles.value as unknown[]).length).toBeGreaterThan(0);
    expect(await ask('searchMarkets', { query: 'bitcoin' })).toMatchObject({ ok: true });
    expect(await ask('listEvents', { limit: 1000 })).toMatchObject({ ok: false, error: { code: 'ERR_INVALID_PARAM' } });
  });

  it('pushes live fills of a followed market over the bridge', async () => {
    expect(await ask('subscribeFills', { marketId })).toMatchObject({ ok: true, value: { marketId } });
    await page.waitForFunction(
      (id) =>
        (
          globalThis as unknown as { heard: { event: string; payload: { marketId: string; state: string } }[] }
        ).heard.some((h) => h.event === 'feedStatus' && h.payload.marketId === id && h.payload.state === 'open'),
      marketId,
    );
    const token = sandbox.catalog.market(marketId)!.tokens[0]!.tokenId;
    sandbox.marketData.recordFill(token, { price: 0.42, volumeBase: 7, timestamp: Math.floor(Date.now() / 1000) });
    await waitHeard('fill');
    const fills = await page.evaluate(() =>
      (globalThis as unknown as { heard: { event: string; payload: unknown }[] }).heard.filter(
        (h) => h.event === 'fill',
      ),
    );
    expect(fills[0]).toMatchObject({ payload: { marketId, fill: { price: 0.42, volumeBase: 7 } } });
    expect(await ask('unsubscribeFills', { marketId })).toMatchObject({ ok: true, value: { wasSubscribed: true } });
  });

  it('pushes the books of a followed market', async () => {
    expect(await ask('subscribeBook', { marketId })).toMatchObject({ ok: true, value: { marketId } });
    await waitHeard('bookUpdate');
    const update = await page.evaluate(() =>
      (globalThis as unknown as { heard: { event: string; payload: unknown }[] }).heard.find(
        (h) => h.event === 'bookUpdate',
      ),
    );
    const tokens = sandbox.catalog.market(marketId)!.tokens.map((t) => t.tokenId);
    expect(update).toMatchObject({
      payload: { marketId, tokenId: expect.any(String), book: { bids: expect.any(Array), asks: expect.any(Array) } },
    });
    expect(tokens).toContain((update as { payload: { tokenId: string } }).payload.tokenId);
    expect(await ask('unsubscribeBook', { marketId })).toMatchObject({ ok: true, value: { wasSubscribed: true } });
  });

  it('creates, unlocks, locks, imports and exports wallets; the phrase is shown once', async () => {
    const created = await ask('createWallet', { label: 'e2e', password: PASSWORD });
    expect(created).toMatchObject({
      ok: true,
      value: { wallet: { label: 'e2e', unlocked: false }, recoveryPhrase: { shownOnce: true } },
    });
    recoveryPhrase = (created.value as { recoveryPhrase: { value: string } }).recoveryPhrase.value;
    expect(recoveryPhrase.split(' ')).toHaveLength(12);

    expect(await ask('unlockWallet', { label: 'e2e', password: 'wrong password!' })).toMatchObject({
      ok: false,
      error: { code: 'ERR_UNAUTHORIZED' },
    });
    expect(await ask('unlockWallet', { label: 'e2e', password: PASSWORD })).toMatchObject({
      ok: true,
      value: { unlocked: true },
    });
    expect(await ask('listWallets')).toMatchObject({ ok: true, value: [{ label: 'e2e', unlocked: true }] });
    expect(await ask('lockWallet', { label: 'e2e' })).toMatchObject({ ok: true, value: { unlocked: false } });
    await waitHeard('walletLock');

    const testWallet = sandbox.profile.testWallets[0]!;
    expect(
      await ask('importWallet', {
        label: 'imported',
        password: PASSWORD,
        source: { kind: 'privateKey', privateKey: testWallet.privateKey },
      }),
    ).toMatchObject({
      ok: true,
      value: { label: 'imported', address: testWallet.address },
    });
    expect(await ask('exportWallet', { label: 'imported', password: 'not the password' })).toMatchObject({
      ok: false,
      error: { code: 'ERR_UNAUTHORIZED' },
    });
    const exported = await ask('exportWallet', { label: 'imported', password: PASSWORD });
    expect(exported).toMatchObject({
      ok: true,
      value: { fileName: expect.stringMatching(/^imported-[0-9a-f]{8}\.json$/) },
    });
  });

  it('trades through the contract: an order placed, seen in the balance, cancelled', async () => {
    const token = sandbox.catalog.market(marketId)!.tokens[0]!.tokenId;
    const locked = await ask('placeOrder', {
      wallet: 'imported',
      marketId,
      tokenId: token,
      side: 'BUY',
      price: 0.05,
      size: 10,
    });
    expect(locked).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/is locked: unlock it with its password/) },
    });
    expect(await ask('unlockWallet', { label: 'imported', password: PASSWORD })).toMatchObject({ ok: true });
    const placed = await ask('placeOrder', {
      wallet: 'imported',
      marketId,
      tokenId: token,
      side: 'BUY',
      price: 0.05,
      size: 10,
    });
    expect(placed).toMatchObject({
      ok: true,
      value: { orderId: expect.stringMatching(/^0x[0-9a-f]{64}$/), pending: true },
    });
    const orderId = (placed.value as { orderId: string }).orderId;
    const balances = await ask('getBalances', { wallet: 'imported', marketId });
    expect(balances).toMatchObject({ ok: true, value: { outcomes: { [token]: 0 } } });
    expect((balances.value as { collateral: number }).collateral).toBeGreaterThan(0);
    expect(await ask('getPositions', { wallet: 'imported' })).toMatchObject({ ok: true });
    const open = await ask('listOpenOrders', { wallet: 'imported', marketId });
    expect(open).toMatchObject({
      ok: true,
      value: [{ orderId, tokenId: token, side: 'BUY', price: 0.05, originalSize: 10, sizeMatched: 0, status: 'LIVE' }],
    });
    expect((open.value as { conditionId: string }[])[0]!.conditionId).toBe(
      sandbox.catalog.market(marketId)!.conditionId,
    );
    expect(await ask('listTrades', { wallet: 'imported' })).toEqual({ ok: true, value: [] });
    expect(await ask('cancelAll', { wallet: 'imported' })).toEqual({ ok: true, value: { cancelled: [orderId] } });
    const again = await ask('placeOrder', {
      wallet: 'imported',
      marketId,
      tokenId: token,
      side: 'BUY',
      price: 0.04,
      amountUsd: 1,
      orderType: 'GTD',
      expiration: Math.floor(Date.now() / 1000) + 3600,
    });
    expect(again).toMatchObject({ ok: true, value: { pending: true } });
    expect(await ask('cancelMarket', { wallet: 'imported', marketId })).toEqual({
      ok: true,
      value: { cancelled: [(again.value as { orderId: string }).orderId] },
    });
    const updates = await page.evaluate(() =>
      (globalThis as unknown as { heard: { event: string; payload: { orderId: string; status: string } }[] }).heard
        .filter((h) => h.event === 'orderUpdate')
        .map((h) => [h.payload.orderId, h.payload.status.toUpperCase()]),
    );
    const againId = (again.value as { orderId: string }).orderId;
    expect(updates).toEqual([
      [orderId, 'LIVE'],
      [orderId, 'CANCELED'],
      [againId, 'LIVE'],
      [againId, 'CANCELED'],
    ]);
    expect(
      await ask('placeOrder', { wallet: 'nobody', marketId, tokenId: token, side: 'BUY', price: 0.05, size: 10 }),
    ).toMatchObject({
      ok: false,
      error: { code: 'ERR_NOT_FOUND' },
    });
  });

  it('the page cannot reach the network or run inline script: only its own bridge', async () => {
    const blocked = await page.evaluate(async (url) => {
      const results: Record<string, string> = {};
      const violations: string[] = [];
      let heard: (directive: string) => void = () => {};
      const document = (globalThis as unknown as { document: PageDocument }).document;
      document.addEventListener('securitypolicyviolation', (e) => {
        violations.push(e.violatedDirective);
        heard(e.violatedDirective);
      });
      try {
        await fetch(`${url}/v1/ongoing-events?protocol=polymarket`);
        results.fetch = 'reached';
      } catch {
        results.fetch = 'blocked';
      }
      const violated = new Promise<string>((resolve) => {
        heard = (directive) => directive.startsWith('script-src') && resolve(directive);
      });
      const script = document.createElement('script');
      script.textContent = 'window.inlineRan = true';
      document.head.append(script);
      results.inline = `${(globalThis as unknown as { inlineRan?: boolean }).inlineRan ? 'ran' : 'blocked'} by ${await violated}`;
      results.fetchViolation = violations.find((v) => v.startsWith('connect-src')) ?? 'none';
      return results;
    }, sandbox.profile.aggregatorUrl);
    expect(blocked).toEqual({
      fetch: 'blocked',
      fetchViolation: 'connect-src',
      inline: expect.stringMatching(/^blocked by script-src/),
    });
  });

  it('a page of another origin holding the token is refused at the upgrade', async () => {
    stranger.on('GET', '/', (_r, reply) => reply.text(200, '<!doctype html><title>stranger</title>', 'text/html'));
    const other = await browser.newPage();
    try {
      await other.goto(stranger.url);
      const before = mode.host.connections;
      const outcome = await other.evaluate(
        (url) =>
          new Promise<string>((resolve) => {
            const socket = new WebSocket(url);
            socket.onopen = () => resolve('open');
            socket.onerror = () => resolve('refused');
          }),
        `ws://127.0.0.1:${mode.host.port}/bridge?token=${mode.host.token}`,
      );
      expect(outcome).toBe('refused');
      expect(mode.host.connections).toBe(before);
    } finally {
      await other.close();
    }
  });

  it('no secret is in any answer or pushed event; the phrase only in createWallet', async () => {
    const { answers, heard } = await page.evaluate(() => {
      const w = globalThis as unknown as { answers: { op: string; answer: unknown }[]; heard: unknown[] };
      return { answers: w.answers, heard: w.heard };
    });
    expect(answers.length).toBeGreaterThan(15);
    const credentials = await vault.load(sandbox.profile.testWallets[0]!.address, sandbox.profile.clobUrl);
    expect(credentials).not.toBeNull();
    const known = [
      PASSWORD,
      recoveryPhrase,
      ...sandbox.profile.testWallets.map((w) => w.privateKey),
      credentials!.key,
      credentials!.secret,
      credentials!.passphrase,
    ];
    const findings = [
      ...answers.flatMap(({ op, answer }, i) => {
        if (op !== 'createWallet') return findSecrets(answer, known, `answer ${i} (${op})`);
        recoveryShownIn.push(op);
        const { value } = answer as { value: { recoveryPhrase: { value: string } } };
        return findSecrets(
          { ...value, recoveryPhrase: { shownOnce: true, value: '(the one expected place)' } },
          known,
          `answer ${i} (${op})`,
        );
      }),
      ...heard.flatMap((h, i) => findSecrets(h, known, `event ${i}`)),
    ];
    expect(findings).toEqual([]);
    expect(recoveryShownIn).toEqual(['createWallet']);
    // The exported file is an encrypted keystore: neither the key nor the password is in it.
    const exported = answers.find((a) => a.op === 'exportWallet' && (a.answer as { ok: boolean }).ok)!;
    const keystore = JSON.parse((exported.answer as { value: { keystoreJson: string } }).value.keystoreJson) as {
      version: number;
      Crypto?: { cipher: string };
      crypto?: { cipher: string };
    };
    expect(keystore.version).toBe(3);
    expect((keystore.Crypto ?? keystore.crypto)?.cipher).toBe('aes-128-ctr');
  });
});
