// A network switch leaves nothing behind (issue 28 point 4), in headless Chromium on the whole sandbox: a wallet
// with a position, a resting order, a watchlist star and balances on the launch sandbox switches to a network
// that cannot be reached (its every URL a closed local port). No panel shows the sandbox's data there: Positions
// says it could not read them (never "No positions."), Balances has no pUSD of the sandbox, Open orders none of
// its orders, the watchlist is the new network's own (empty), the feed status names no sandbox book; back on the
// sandbox, its data returns and no error of the other network is left. Amoy is labelled a test network.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/shared/contract';
import { parseTradingProfile } from '../../src/main/trading/profile';
import {
  callTerminal,
  dismissNotices,
  importTestWallet,
  openTerminalPage,
  type TerminalPage,
} from '../helpers/terminal-page';
import { makerOrder, marketMaker } from '../helpers/trading-sandbox';

const MARKET = '90021';
const WALLET = 'leaves-nothing';
const PASSWORD = 'leaves nothing correct horse';
const SLOW = 150_000;
/** Nothing listens here (the discard port): every read of this network is refused at once. */
const NOWHERE = 'http://127.0.0.1:9';

let t: TerminalPage;
let page: Page;
let yes: string;

const call = <T>(op: string, input: unknown): Promise<T> => callTerminal<T>(page, op, input);
const positions = () => page.getByTestId('positions');

async function switchTo(name: string): Promise<void> {
  await page.getByTestId('network-switch').click();
  await page.locator(`[data-testid="network-option"][data-name="${name}"]`).click();
  await expect.poll(() => page.getByTestId('network-switch').innerText()).toContain(name);
}

async function openTab(name: 'positions' | 'orders' | 'balances'): Promise<void> {
  await dismissNotices(page);
  await page.getByTestId(`account-tab-${name}`).click();
}

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  const market = t.sandbox.catalog.market(MARKET)!;
  yes = market.tokens[0].tokenId;
  const maker = await marketMaker({
    sandbox: t.sandbox,
    profile: parseTradingProfile(t.sandbox.profile),
    stop: async () => {},
  });
  expect(
    await makerOrder(maker.client, { tokenId: market.tokens[1].tokenId, side: 'BUY', price: 0.6, size: 200 }),
  ).toMatchObject({ success: true });
  await importTestWallet(t, WALLET, PASSWORD);
  await call('addNetwork', {
    name: 'offline',
    chainId: 31_340,
    aggregatorUrl: NOWHERE,
    clobUrl: NOWHERE,
    rpcUrl: NOWHERE,
    wsUrl: 'ws://127.0.0.1:9',
    orderVersion: 2,
  });
  await page.goto(`${t.mode.host.launchUrl}&market=${MARKET}&outcome=${yes}`);
  await page.reload();
  await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
  expect(
    await call('placeOrder', {
      wallet: WALLET,
      marketId: MARKET,
      tokenId: yes,
      side: 'BUY',
      orderType: 'FOK',
      amountUsd: 4,
    }),
  ).toMatchObject({ status: 'MATCHED' });
  await call('placeOrder', { wallet: WALLET, marketId: MARKET, tokenId: yes, side: 'BUY', price: 0.05, size: 10 });
  await call('saveSettings', { watchlist: [MARKET] });
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('what each network is labelled', () => {
  it(
    'Amoy is a test network, not real money, and its confirmation speaks of pUSD, not real USDC',
    async () => {
      await page.getByTestId('network-switch').click();
      const amoy = page.locator('[data-testid="network-option"][data-name="amoy"]');
      expect(await amoy.locator('.tag').innerText()).toBe('TEST NETWORK');
      expect(await page.locator('[data-testid="network-option"][data-name="polygon"] .tag').innerText()).toBe(
        'REAL MONEY',
      );
      // Choosing it only asks (nothing is read from Amoy's hosts): the sentence, then Stay here.
      await amoy.click();
      const said = await page.getByTestId('network-confirm-money').innerText();
      expect(said).toMatch(/^amoy is a test network\. Orders placed there trade its test pUSD, which has no value/);
      expect(said).not.toMatch(/real (USDC|money)/);
      await page.getByTestId('network-confirm').getByText('Stay here').click();
      expect(await page.getByTestId('network-switch').innerText()).toContain('sandbox');
    },
    SLOW,
  );
});

describe('a switch to a network that cannot be reached', () => {
  it(
    'the launch sandbox shows its position, order, balances and book first',
    async () => {
      await openTab('positions');
      await positions().locator('tr[data-position]').first().waitFor({ timeout: 60_000 });
      await openTab('orders');
      await expect
        .poll(() => page.getByTestId('open-orders').locator('tr[data-order-id]').count(), { timeout: 30_000 })
        .toBe(1);
      await openTab('balances');
      await page.getByTestId('funds-pusd').waitFor({ timeout: 30_000 });
      await expect.poll(() => page.getByTestId('feed-status').getAttribute('title')).toContain(`book ${MARKET}`);
    },
    SLOW,
  );

  it(
    'shows no data of the sandbox there: each panel says what could not be read',
    async () => {
      await switchTo('offline');
      // Balances: none of the sandbox's money, and the reason it has none.
      await expect
        .poll(() => page.getByTestId('balances').innerText(), { timeout: 30_000 })
        .toMatch(/could not be read/i);
      expect(await page.getByTestId('funds-pusd').count()).toBe(0);
      expect(await page.getByTestId('collateral').count()).toBe(0);
      // Positions: the reason, never "No positions." and never the sandbox's row.
      await openTab('positions');
      await expect.poll(() => positions().innerText(), { timeout: 30_000 }).toMatch(/^Positions could not be read: /m);
      expect(await positions().innerText()).not.toContain('No positions.');
      expect(await positions().locator('tr[data-position]').count()).toBe(0);
      // Orders: none of the sandbox's.
      await openTab('orders');
      expect(await page.getByTestId('open-orders').locator('tr[data-order-id]').count()).toBe(0);
      // The watchlist and the feed status are this network's own.
      expect((await call<Settings>('getSettings', {})).watchlist).toEqual([]);
      await expect
        .poll(() => page.getByTestId('feed-status').getAttribute('title'), { timeout: 30_000 })
        .not.toContain(`book ${MARKET}`);
    },
    SLOW,
  );

  it(
    'back on the sandbox: its data again, and no error of the other network',
    async () => {
      await switchTo('sandbox');
      expect((await call<Settings>('getSettings', {})).watchlist).toEqual([MARKET]);
      await openTab('positions');
      await positions().locator('tr[data-position]').first().waitFor({ timeout: 60_000 });
      expect(await positions().innerText()).not.toMatch(/could not be read/);
      await openTab('balances');
      await page.getByTestId('funds-pusd').waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('balances').innerText()).not.toMatch(/could not be read|127\.0\.0\.1:9/);
    },
    SLOW,
  );
});
