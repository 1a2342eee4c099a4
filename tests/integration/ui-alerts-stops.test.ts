// Alerts and client-side stops in headless Chromium on the whole sandbox: an alert set in the Alerts tab fires on a
// sandbox price move (a toast, a line in the alert log, and the browser's notification, asked for when the alert
// was set); a stop-loss armed from the Stops tab says it runs only while PM Desk is open, is re-armed with a
// notice after browser mode starts again on the same data folder, and sells the position when the bid falls.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Balances } from '../../src/shared/contract';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { startBrowserMode, type BrowserMode } from '../../src/main/host/browser-mode';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { callTerminal, openTerminalPage, type TerminalPage } from '../helpers/terminal-page';
import { makerOrder, marketMaker } from '../helpers/trading-sandbox';

const MARKET = '90021';
const WALLET = 'desk';
const PASSWORD = 'alerts correct horse battery';
const SLOW = 120_000;

let t: TerminalPage;
let page: Page;
let yes: string;
let no: string;
let maker: Awaited<ReturnType<typeof marketMaker>>;
let restarted: BrowserMode | undefined;

const call = <T>(op: string, input: unknown): Promise<T> => callTerminal<T>(page, op, input);
const notices = () => page.getByTestId('notices');
const yesHeld = async () =>
  (await call<Balances>('getBalances', { wallet: WALLET, marketId: MARKET })).outcomes[yes] ?? 0;
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const until = Date.now() + 30_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
const notificationsAsked = () =>
  page.evaluate(() => (globalThis as unknown as { __notifications: unknown[][] }).__notifications);

/** The browser's Notification API as a recorder: permission asked once (granted, remembered across reloads), each notification kept. */
function recordNotifications(p: Page): void {
  void p.addInitScript(() => {
    const g = globalThis as unknown as {
      __notifications: unknown[][];
      Notification: unknown;
      localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
    };
    const calls: unknown[][] = [];
    g.__notifications = calls;
    class RecordingNotification {
      static get permission() {
        return g.localStorage.getItem('test-notification-permission') ?? 'default';
      }
      static async requestPermission() {
        calls.push(['permission asked']);
        g.localStorage.setItem('test-notification-permission', 'granted');
        return 'granted';
      }
      constructor(title: string, options?: { body?: string }) {
        calls.push([title, options?.body]);
      }
    }
    g.Notification = RecordingNotification;
  });
}

async function openMarket(url: string): Promise<void> {
  await page.goto(`${url}&market=${MARKET}&outcome=${yes}`);
  await page.reload();
  await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
}

beforeAll(async () => {
  t = await openTerminalPage({ setupPage: recordNotifications });
  page = t.page;
  const market = t.sandbox.catalog.market(MARKET)!;
  [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
  await openMarket(t.mode.host.launchUrl);
  // The sandbox's test wallet, through the wallet menu as a first run does.
  await page.getByTestId('wallet-current').click();
  await page.getByTestId('wallet-sandbox').click();
  const dialog = page.getByTestId('sandbox-wallet-dialog');
  await dialog.getByTestId('wallet-label-input').fill(WALLET);
  await dialog.getByTestId('password-input').fill(PASSWORD);
  await dialog.getByTestId('password-repeat-input').fill(PASSWORD);
  await dialog.getByTestId('sandbox-wallet-submit').click();
  await dialog.waitFor({ state: 'detached' });
  // A position of 10 Yes bought from the maker (its bid for No at 60¢ is an ask for Yes at 40¢); then the maker bids 50¢ for Yes.
  maker = await marketMaker({
    sandbox: t.sandbox,
    profile: parseTradingProfile(t.sandbox.profile),
    stop: async () => undefined,
  });
  await maker.client.cancelAll();
  expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.6, size: 50 })).toMatchObject({
    success: true,
  });
  const before = await yesHeld();
  await call('placeOrder', {
    wallet: WALLET,
    marketId: MARKET,
    tokenId: yes,
    side: 'BUY',
    orderType: 'FOK',
    amountUsd: 4,
  });
  await eventually(async () => (await yesHeld()) === before + 10, 'the wallet holds 10 more Yes');
  await maker.client.cancelAll();
  expect(await makerOrder(maker.client, { tokenId: yes, side: 'BUY', price: 0.5, size: 100 })).toMatchObject({
    success: true,
    status: 'live',
  });
}, SLOW);

afterAll(async () => {
  await restarted?.stop().catch(() => undefined);
  await t?.stop();
});

describe('alerts and stops in the UI', () => {
  it(
    'an alert is set in the Alerts tab; the browser is asked for notifications',
    async () => {
      await page.getByTestId('account-tab-alerts').click();
      const tab = page.getByTestId('alerts-tab');
      await tab.getByTestId('alert-kind').selectOption('price');
      await tab.getByTestId('alert-price').selectOption('bid');
      await tab.getByTestId('alert-direction').selectOption('down');
      await tab.getByTestId('alert-level').fill('45');
      await tab.getByTestId('alert-create').click();
      const row = tab.locator('tr[data-alert]');
      await row.getByText(/^Best bid falls to 45¢ — Yes · /).waitFor();
      expect(await row.getAttribute('data-state')).toBe('armed');
      expect(await notificationsAsked()).toEqual([['permission asked']]);
    },
    SLOW,
  );

  it(
    'a stop-loss is armed from the Stops tab, saying it runs only while PM Desk is open',
    async () => {
      await page.getByTestId('account-tab-stops').click();
      await page.getByTestId('stop-new').click();
      const dialog = page.getByTestId('stop-dialog');
      expect(await dialog.getByTestId('stop-dialog-runs-only').innerText()).toMatch(/^Runs only while PM Desk is open/);
      await dialog.getByTestId('stop-kind').selectOption('stop-loss');
      await dialog.getByTestId('stop-level').fill('45');
      await dialog.getByTestId('stop-arm').click();
      await dialog.waitFor({ state: 'detached' });
      const row = page.getByTestId('stops-tab').locator('tr[data-stop]');
      await row.waitFor();
      expect(await row.locator('td').first().innerText()).toMatch(/^Stop-loss · Yes · .+ · desk\n/);
      expect(await row.getAttribute('data-state')).toBe('armed');
      expect(await row.innerText()).toContain('Runs only while PM Desk is open');
    },
    SLOW,
  );

  it(
    'after browser mode starts again on the same data folder, the stop is re-armed with a notice',
    async () => {
      // The same port: the page's origin (and the browser's notification permission for it) stays the same.
      const port = Number(new URL(t.mode.host.launchUrl).port);
      await t.mode.stop();
      const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
      restarted = await startBrowserMode({
        profile: t.sandbox.profile,
        rendererDir: t.rendererDir,
        dataDir: t.dataDir,
        vault,
        port,
      });
      await openMarket(restarted.host.launchUrl);
      await notices().getByText('1 stop re-armed (runs only while PM Desk is open).', { exact: true }).waitFor();
      await page.getByTestId('account-tab-stops').click();
      expect(await page.getByTestId('stops-tab').locator('tr[data-stop]').getAttribute('data-state')).toBe('armed');
      // The signer started again: the wallet is locked until the trader unlocks it.
      await call('unlockWallet', { label: WALLET, password: PASSWORD, autoLockMinutes: 0 });
    },
    SLOW,
  );

  it(
    'the bid falls: the alert fires (toast, log, browser notification) and the stop sells the position',
    async () => {
      const held = await yesHeld();
      expect(held).toBeGreaterThanOrEqual(10);
      await maker.client.cancelAll();
      expect(await makerOrder(maker.client, { tokenId: yes, side: 'BUY', price: 0.44, size: 100 })).toMatchObject({
        success: true,
        status: 'live',
      });
      const said = /The best bid of Yes on ".+" fell to 44¢, crossing 45¢\.$/;
      await notices().getByText(said).waitFor();
      const sold = new RegExp(
        `^Stop-loss fired: sold ${held} Yes of ".+" into a best bid of 44¢ \\(level 45¢, no lower than 1¢\\), FAK order 0x[0-9a-f]+\\.$`,
      );
      await notices().getByText(sold).waitFor();
      const row = page.getByTestId('stops-tab').locator('tr[data-stop]');
      await row.locator('.stop-result').getByText(sold).waitFor();
      expect(await row.getAttribute('data-state')).toBe('fired');
      await eventually(async () => (await yesHeld()) === 0, 'the position was sold');

      await page.getByTestId('account-tab-alerts').click();
      await page.getByTestId('alert-log').getByText(said).waitFor();
      expect(await page.getByTestId('alerts-tab').locator('tr[data-alert]').getAttribute('data-state')).toBe('fired');
      const asked = await notificationsAsked();
      expect(asked).toHaveLength(1);
      expect(asked[0]![0]).toMatch(/^Alert: /);
      expect(asked[0]![1]).toMatch(said);
    },
    SLOW,
  );
});
