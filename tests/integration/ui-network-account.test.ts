// The account panel and the ticket across a network switch, in headless Chromium: a wallet with a resting
// order on the launch sandbox, a second sandbox added as a custom network and switched to through the network
// menu. The old network's order leaves the account panel, the ticket lets its market go, and the wallet is
// watched again (a new watchAccount on the wire); back on the launch network the order is read again, and a new
// one placed there arrives through the renewed live feed. Workspaces are the network's: the second network starts
// with a fresh one (no tile on the launch network's market ids), one made there is kept there, and switching back
// and forth brings each network's own back, kept per network in settings.json.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { openTerminalPage, testWalletKey, type TerminalPage } from '../helpers/terminal-page';

const MARKET = '90021';
const SECOND_CHAIN = 31_339;
const WALLET = 'switcher';
const PASSWORD = 'network switch correct horse';
const SLOW = 120_000;

interface PageTerminal {
  [op: string]: (input: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>;
}

let t: TerminalPage;
let second: RunningSandbox;
let page: Page;
let yes: string;
/** Every frame the page sent to main, in order. */
const sent: string[] = [];

async function call<T>(op: string, input: unknown): Promise<T> {
  const answer = await page.evaluate(
    async ([op, input]) => (globalThis as unknown as { terminal: PageTerminal }).terminal[op as string]!(input),
    [op, input] as const,
  );
  if (!answer.ok) throw new Error(`${op}: ${answer.error?.message}`);
  return answer.value as T;
}

const watchAsks = () => sent.filter((frame) => frame.includes('"watchAccount"')).length;
const orderRows = () => page.getByTestId('open-orders').locator('tr[data-order-id]');

async function switchTo(name: string): Promise<void> {
  await page.getByTestId('network-switch').click();
  await page.locator(`[data-testid="network-option"][data-name="${name}"]`).click();
  await expect.poll(() => page.getByTestId('network-switch').innerText()).toContain(name);
}

beforeAll(async () => {
  t = await openTerminalPage({
    setupPage: (p) => p.on('websocket', (ws) => ws.on('framesent', ({ payload }) => void sent.push(String(payload)))),
  });
  page = t.page;
  second = await startSandbox({
    ports: { rpc: 0, clob: 0, aggregator: 0 },
    simulate: 'off',
    seed: 11,
    chainId: SECOND_CHAIN,
  });
  yes = t.sandbox.catalog.market(MARKET)!.tokens[0].tokenId;
  await call('importWallet', {
    label: WALLET,
    password: PASSWORD,
    source: { kind: 'privateKey', privateKey: testWalletKey(t.sandbox) },
  });
  await call('unlockWallet', { label: WALLET, password: PASSWORD });
  const p = second.profile;
  await call('addNetwork', {
    name: 'second',
    chainId: SECOND_CHAIN,
    aggregatorUrl: p.aggregatorUrl,
    clobUrl: p.clobUrl,
    rpcUrl: p.rpcUrl,
    wsUrl: p.wsUrl,
    orderVersion: 2,
  });
  await page.goto(`${t.mode.host.launchUrl}&market=${MARKET}&outcome=${yes}`);
  await page.reload();
  await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
}, SLOW);

afterAll(async () => {
  await t?.stop();
  await second?.stop();
});

describe('a network switch, in the account panel and the ticket', () => {
  let firstOrder: string;

  it(
    'shows the resting order of the launch network, followed live',
    async () => {
      const placed = await call<{ orderId: string }>('placeOrder', {
        wallet: WALLET,
        marketId: MARKET,
        tokenId: yes,
        side: 'BUY',
        price: 0.05,
        size: 10,
      });
      firstOrder = placed.orderId;
      await page.getByTestId('account-tab-orders').click();
      await expect.poll(() => orderRows().count(), { timeout: 30_000 }).toBe(1);
      expect(await orderRows().first().getAttribute('data-order-id')).toBe(firstOrder);
      await expect.poll(() => page.locator('.account-status').innerText()).toContain('live');
    },
    SLOW,
  );

  it(
    'on the other network: the old order is gone, the wallet is watched again there, the ticket lets the market go',
    async () => {
      const before = watchAsks();
      await switchTo('second');
      await expect.poll(() => orderRows().count(), { timeout: 30_000 }).toBe(0);
      await expect.poll(watchAsks, { timeout: 30_000 }).toBeGreaterThan(before);
      await page.getByTestId('order-ticket').getByText('Choose a market to trade.').waitFor();
    },
    SLOW,
  );

  it(
    'back on the launch network: the order is read again, and a new one arrives through the renewed feed',
    async () => {
      const before = watchAsks();
      await switchTo('sandbox');
      await expect.poll(watchAsks, { timeout: 30_000 }).toBeGreaterThan(before);
      await expect.poll(() => orderRows().count(), { timeout: 30_000 }).toBe(1);
      expect(await orderRows().first().getAttribute('data-order-id')).toBe(firstOrder);
      await expect.poll(() => page.locator('.account-status').innerText()).toContain('live');
      const placed = await call<{ orderId: string }>('placeOrder', {
        wallet: WALLET,
        marketId: MARKET,
        tokenId: yes,
        side: 'BUY',
        price: 0.04,
        size: 10,
      });
      await expect
        .poll(() => page.locator(`tr[data-order-id="${placed.orderId}"]`).count(), { timeout: 30_000 })
        .toBe(1);
    },
    SLOW,
  );
});

describe('workspaces, per network', () => {
  const tileMarkets = () =>
    page.locator('[data-testid="tile"]').evaluateAll((tiles) => tiles.map((el) => el.getAttribute('data-market-id')));
  const workspaceNames = () =>
    page
      .getByTestId('workspace-choice')
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o.textContent ?? '').replace(/\s+\(Alt\+\d\)$/, '')));
  const shownWorkspace = () => page.getByTestId('workspace-choice').locator('option:checked').textContent();
  const ticketEmpty = () => page.getByTestId('order-ticket').getByText('Choose a market to trade.');
  async function rename(name: string): Promise<void> {
    await page.getByTestId('workspace-rename').click();
    await page.getByTestId('workspace-name').fill(name);
    await page.getByTestId('workspace-name').press('Enter');
    await expect.poll(shownWorkspace).toMatch(new RegExp(`^${name}`));
  }
  const kept = async () => {
    const file = JSON.parse(await readFile(join(t.dataDir, 'settings.json'), 'utf8').catch(() => '{}')) as {
      workspaces?: Record<string, { list: { name: string }[]; active: number }>;
    };
    return Object.fromEntries(
      Object.entries(file.workspaces ?? {}).map(([network, w]) => [
        network,
        { names: w.list.map((x) => x.name), active: w.active },
      ]),
    );
  };

  it(
    "another network shows its own workspaces, never the launch network's market ids; switching back brings each back",
    async () => {
      // On the launch network: the market in "Launch desk", and an empty second workspace shown.
      await expect.poll(tileMarkets).toEqual([MARKET]);
      await rename('Launch desk');
      await page.getByTestId('workspace-new').click();
      await expect.poll(workspaceNames).toEqual(['Launch desk', 'Workspace 2']);

      // The second network has none kept: one fresh workspace, its tile empty, the ticket on nothing.
      await switchTo('second');
      await expect.poll(workspaceNames).toEqual(['Workspace 1']);
      await expect.poll(tileMarkets).toEqual(['']);
      await ticketEmpty().waitFor();
      // One made here is this network's.
      await page
        .locator(`[data-testid="markets-grid"] .ag-row[row-id="${MARKET}"] [col-id="title"]`)
        .click({ timeout: 30_000 });
      await expect.poll(tileMarkets).toEqual([MARKET]);
      await rename('Second desk');

      // Back: the launch network's workspaces as they were left, the one shown included; Alt+1 shows its market.
      await switchTo('sandbox');
      await expect.poll(workspaceNames).toEqual(['Launch desk', 'Workspace 2']);
      await expect.poll(shownWorkspace).toMatch(/^Workspace 2/);
      await expect.poll(tileMarkets).toEqual(['']);
      await page.locator('body').click({ position: { x: 1, y: 1 } });
      await page.keyboard.press('Alt+1');
      await expect.poll(tileMarkets).toEqual([MARKET]);
      await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();

      // And the second network's again.
      await switchTo('second');
      await expect.poll(workspaceNames).toEqual(['Second desk']);
      await expect.poll(tileMarkets).toEqual([MARKET]);
      await expect.poll(kept).toEqual({
        sandbox: { names: ['Launch desk', 'Workspace 2'], active: 0 },
        second: { names: ['Second desk'], active: 0 },
      });
      await switchTo('sandbox');
      await expect.poll(workspaceNames).toEqual(['Launch desk', 'Workspace 2']);
      await expect.poll(tileMarkets).toEqual([MARKET]);
    },
    SLOW,
  );
});
