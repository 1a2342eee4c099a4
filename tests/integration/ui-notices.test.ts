// The first run and notices that tell the truth, in headless Chromium on the whole sandbox: the empty wallet
// menu offers the sandbox's funded test wallet, which main imports (its key never reaches the page) and
// unlocks; the cancel-all key with nothing open
// offers nothing to confirm; cancels are counted in words that read right ("1 order", "2 orders"); and when the
// exchange cancels an order the trader did not click (the dead-man switch's heartbeats stopped getting through),
// a notice and a line in Open orders say so, with the reason.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTerminal, openTerminalPage, testWalletKey, type TerminalPage } from '../helpers/terminal-page';

const MARKET = '90021'; // Bitcoin above $120k: a 1¢ tick, a minimum of 5 shares
const WALLET = 'first-run';
const PASSWORD = 'notice correct horse battery';
const SLOW = 120_000;

let t: TerminalPage;
let page: Page;
let yes: string;

const call = <T>(op: string, input: unknown): Promise<T> => callTerminal<T>(page, op, input);

const notices = () => page.getByTestId('notices');
const orderRows = () => page.getByTestId('open-orders').locator('tr[data-order-id]');

async function dismissNotices(): Promise<void> {
  const dismiss = notices().getByRole('button', { name: 'Dismiss' });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
}

async function rest(price: number): Promise<string> {
  const placed = await call<{ orderId: string }>('placeOrder', {
    wallet: WALLET,
    marketId: MARKET,
    tokenId: yes,
    side: 'BUY',
    price,
    size: 5,
  });
  await page.getByTestId('open-orders').locator(`tr[data-order-id="${placed.orderId}"]`).waitFor();
  return placed.orderId;
}

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  yes = t.sandbox.catalog.market(MARKET)!.tokens[0].tokenId;
  // The market open, as a trader would have it, so the account row follows the wallet once there is one.
  await page.goto(`${t.mode.host.launchUrl}&market=${MARKET}&outcome=${yes}`);
  await page.reload();
  await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('the first run', () => {
  it(
    'the account row and the empty wallet menu on the sandbox offer its test wallet; main imports and unlocks it, the key never reaching the page',
    async () => {
      // The first screen points at the funded test wallet, not only "No wallet".
      const firstRun = page.getByTestId('first-run');
      expect(await firstRun.innerText()).toMatch(
        /^No wallet yet\. This sandbox has a funded test wallet ready to trade with:\s+Use the sandbox test wallet…\s+or create or import one from the Wallet menu \(w\)\.$/,
      );
      await page.getByTestId('wallet-current').click();
      await page.getByTestId('wallet-dropdown').waitFor();
      expect(await page.getByTestId('no-wallets').innerText()).toBe(
        'No wallets yet: use the sandbox test wallet, or create or import one.',
      );
      await page.keyboard.press('Escape');
      await page.getByTestId('wallet-dropdown').waitFor({ state: 'detached' });
      await firstRun.getByTestId('first-run-sandbox-wallet').click();
      const dialog = page.getByTestId('sandbox-wallet-dialog');
      await dialog.getByTestId('wallet-label-input').fill(WALLET);
      await dialog.getByTestId('password-input').fill(PASSWORD);
      await dialog.getByTestId('password-repeat-input').fill(PASSWORD + 'x');
      expect(await dialog.getByTestId('sandbox-wallet-submit').getAttribute('title')).toBe('The two passwords differ.');
      await dialog.getByTestId('password-repeat-input').fill(PASSWORD);
      await dialog.getByTestId('sandbox-wallet-submit').click();
      await dialog.waitFor({ state: 'detached' });
      await firstRun.waitFor({ state: 'detached' });
      const address = t.sandbox.profile.testWallets[0]!.address;
      expect(await call('listWallets', {})).toEqual([{ label: WALLET, address, unlocked: true }]);
      await notices()
        .getByText(
          `${WALLET} (${address}) is the sandbox's funded test wallet, unlocked: ready to trade on the sandbox.`,
        )
        .waitFor();
      const held = await page.evaluate(() => {
        const g = globalThis as unknown as {
          document: { documentElement: { outerHTML: string } };
          localStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null };
        };
        const local = Array.from(
          { length: g.localStorage.length },
          (_, i) => g.localStorage.getItem(g.localStorage.key(i)!) ?? '',
        ).join(' ');
        return `${g.document.documentElement.outerHTML} ${local}`;
      });
      const key = testWalletKey(t.sandbox);
      expect(held.toLowerCase()).not.toContain(key.slice(2).toLowerCase());
      // A second time, the wallet is already there: main says so.
      await expect(call('importSandboxWallet', { label: 'again', password: PASSWORD })).rejects.toThrow(
        /importSandboxWallet: /,
      );
      await dismissNotices();
      await page.getByTestId('account-tab-orders').click();
      await page.getByTestId('open-orders').getByText('No open orders.').waitFor();
    },
    SLOW,
  );
});

describe('notices that tell the truth', () => {
  it('the cancel-all key with nothing open offers nothing to confirm, and says why', async () => {
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Shift+X');
    await notices().getByText('No open orders to cancel.').waitFor();
    expect(await page.getByTestId('cancel-all-dialog').count()).toBe(0);
    await dismissNotices();
  });

  it(
    'counts cancels in words that read right: 2 orders, 1 order',
    async () => {
      await rest(0.02);
      await rest(0.03);
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('Shift+X');
      const dialog = page.getByTestId('cancel-all-dialog');
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain('All 2 open orders in every market');
      await page.getByTestId('confirm-cancel-all').click();
      await notices().getByText('Cancelled 2 orders.', { exact: true }).waitFor();
      await page.getByTestId('open-orders').getByText('No open orders.').waitFor();
      await dismissNotices();

      await rest(0.02);
      await page.getByTestId('cancel-order').click();
      await notices().getByText('Cancelled 1 order.', { exact: true }).waitFor();
      await page.getByTestId('open-orders').getByText('No open orders.').waitFor();
      await dismissNotices();
      // The trader's own cancels are never told as cancels nobody clicked.
      expect(await page.getByTestId('unasked-cancel').count()).toBe(0);
    },
    SLOW,
  );

  it(
    'the dead-man switch cancelling an order gets a notice and a line in Open orders, with the reason',
    async () => {
      const faults = t.sandbox.clob.exchangeFaults();
      expect(await call('setDeadManSwitch', { wallet: WALLET, enabled: true })).toMatchObject({
        enabled: true,
        state: 'beating',
      });
      const orderId = await rest(0.04);
      faults.failHeartbeats(true);
      try {
        // The exchange waits about 10 s without a heartbeat before it cancels.
        const said = `The exchange cancelled 1 order of ${WALLET} that you did not cancel here: the dead-man switch's heartbeats stopped getting through.`;
        await notices().getByText(said).waitFor({ timeout: 60_000 });
        await page.getByTestId('unasked-cancel').getByText(said).waitFor();
        await page.getByTestId('open-orders').locator(`tr[data-order-id="${orderId}"]`).waitFor({ state: 'detached' });
        expect(await orderRows().count()).toBe(0);
      } finally {
        faults.failHeartbeats(false);
        await call('setDeadManSwitch', { wallet: WALLET, enabled: false });
      }
    },
    SLOW,
  );
});
