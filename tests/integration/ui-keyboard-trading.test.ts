// Keyboard trading in headless Chromium on the whole sandbox (real chain, CLOB, signer) with a maker on the
// other side: the help lists every trading key, the size presets are edited there and chosen by key, a key buys
// at the best ask with the preset size (confirmation → filled), ±1 tick moves the ticket's price within the
// bounds, a key sells at the best bid, the opt-in sends a keyboard order without the confirmation, flatten
// sells the whole position through the confirmation, the cancel-market key cancels that market's resting orders
// only, and a rebinding refused or taken survives a reload.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTradingProfile } from '../../src/main/trading/profile';
import {
  importTestWallet,
  dismissNotices as dismissPageNotices,
  callTerminal,
  openTerminalPage,
  type TerminalPage,
} from '../helpers/terminal-page';
import { makerOrder, marketMaker } from '../helpers/trading-sandbox';
import type { ClobClient } from '../../packages/toolkit/src/clob/client';

const MARKET = '90021'; // Bitcoin above $120k: a 1¢ tick, a minimum of 5 shares
const OTHER_MARKET = '90041';
const WALLET = 'key-trader';
const PASSWORD = 'keyboard trading correct horse';
const SLOW = 120_000;

let t: TerminalPage;
let page: Page;
let yes: string;
let no: string;
let maker: ClobClient;

const call = <T>(op: string, input: unknown): Promise<T> => callTerminal<T>(page, op, input);

const byId = (id: string) => page.getByTestId(id);
const ticket = (testId: string) => byId('order-ticket').getByTestId(testId);
const dialog = () => byId('ticket-confirm-dialog');

/** Leaves whatever field has the keyboard, so the next key is a shortcut. */
async function leaveFields(): Promise<void> {
  await page.keyboard.press('Escape');
}

/** Yes shares the wallet holds on chain. */
async function heldYes(): Promise<number> {
  const balances = await call<{ outcomes: Record<string, number> }>('getBalances', {
    wallet: WALLET,
    marketId: MARKET,
    tokenIds: [yes],
  });
  return balances.outcomes[yes] ?? 0;
}

const dismissNotices = (): Promise<void> => dismissPageNotices(page);

/** Waits for the ladder (the chosen outcome's live book) to show a level at this price on this side. */
async function bookShows(side: 'bid' | 'ask', price: number): Promise<void> {
  await expect
    .poll(
      () =>
        byId('order-book')
          .locator(`.ladder-row[data-side="${side}"]`)
          .evaluateAll((rows) =>
            rows.map((r) => Number((r as unknown as { getAttribute(n: string): string }).getAttribute('data-price'))),
          ),
      { timeout: 30_000 },
    )
    .toContain(price);
}

/** Confirms the open confirmation and waits for the ticket's answer. */
async function confirmAndWait(): Promise<string> {
  await byId('ticket-confirm').click();
  await dialog().waitFor({ state: 'detached' });
  await expect.poll(() => ticket('ticket-result').innerText(), { timeout: 90_000 }).not.toMatch(/^Sending/);
  return ticket('ticket-result').innerText();
}

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  const market = t.sandbox.catalog.market(MARKET)!;
  [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
  await importTestWallet(t, WALLET, PASSWORD);
  maker = (
    await marketMaker({ sandbox: t.sandbox, profile: parseTradingProfile(t.sandbox.profile), stop: async () => {} })
  ).client;
  await page.goto(`${t.mode.host.launchUrl}&market=${MARKET}&outcome=${yes}`);
  await page.reload();
  await byId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
  await byId('order-ticket').locator('button[aria-pressed="true"]', { hasText: /^Yes/ }).waitFor();
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('keyboard trading', () => {
  it('? lists every trading action with its key, in the shortcut table and in the Keyboard trading section', async () => {
    await leaveFields();
    await page.keyboard.press('?');
    const help = byId('shortcuts-help');
    await help.waitFor();
    const rows = help.getByTestId('trading-key');
    expect(
      await rows.evaluateAll((els) =>
        els.map((e) => (e as unknown as { getAttribute(n: string): string }).getAttribute('data-key')),
      ),
    ).toEqual(['B', 'S', '+', '-', 'F1', 'F2', 'F3', 'F4', 'F', 'C']);
    const text = await help.innerText();
    expect(text).toMatch(/Shift\+B\s+Buy the chosen outcome at the best ask, preset size/);
    expect(text).toMatch(/Shift\+C\s+Cancel this market’s open orders/);
    expect(text).toMatch(/F1\s+Size preset 1 \(10 shares\)/);
    expect(await help.locator('[data-testid="shortcut"][data-key="F"]').innerText()).toMatch(/Flatten/);
    // The terminal's other keys are all still there, each once.
    const keys = await help
      .getByTestId('shortcut')
      .evaluateAll((els) =>
        els.map((e) => (e as unknown as { getAttribute(n: string): string }).getAttribute('data-key')),
      );
    expect(keys).toEqual(
      expect.arrayContaining([
        'Escape',
        '?',
        '/',
        'j',
        'k',
        'b',
        's',
        'X',
        'f',
        'w',
        'n',
        '1',
        'B',
        'S',
        '+',
        '-',
        'F1',
        'F4',
        'F',
        'C',
      ]),
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('size presets are edited in the help (a bad one refused) and chosen by key', async () => {
    const help = byId('shortcuts-help');
    await help.getByTestId('size-preset-2').fill('-3');
    await help.getByTestId('size-presets-save').click();
    expect(await help.getByTestId('dialog-error').innerText()).toMatch(/^Preset 2: type a size above 0/);
    for (const [i, size] of ['5', '10', '20', '50'].entries())
      await help.getByTestId(`size-preset-${i + 1}`).fill(size);
    await help.getByTestId('size-presets-save').click();
    await expect
      .poll(() => call<{ sizePresets: unknown }>('getSettings', {}).then((s) => s.sizePresets))
      .toEqual({ unit: 'shares', sizes: [5, 10, 20, 50] });
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    await leaveFields();
    await page.keyboard.press('F2');
    await expect.poll(() => ticket('ticket-size').inputValue()).toBe('10');
    expect(await ticket('ticket-size-unit').inputValue()).toBe('shares');
    await page.keyboard.press('F4');
    await expect.poll(() => ticket('ticket-size').inputValue()).toBe('50');
    await page.keyboard.press('F1');
    await expect.poll(() => ticket('ticket-size').inputValue()).toBe('5');
  });

  it(
    'Shift+B buys at the best ask with the preset size, through the confirmation, and fills',
    async () => {
      // A maker's bid for No at 60¢ is an ask for Yes at 40¢.
      expect(await makerOrder(maker, { tokenId: no, side: 'BUY', price: 0.6, size: 200 })).toMatchObject({
        success: true,
      });
      await bookShows('ask', 0.4);
      await leaveFields();
      await page.keyboard.press('F2');
      await page.keyboard.press('Shift+B');
      await dialog().waitFor();
      expect(await ticket('ticket-side-buy').getAttribute('aria-pressed')).toBe('true');
      expect(await ticket('ticket-price').inputValue()).toBe('40');
      expect(await ticket('ticket-size').inputValue()).toBe('10');
      expect(await dialog().innerText()).toMatch(/40¢/);
      expect(await confirmAndWait()).toMatch(/^BUY order (filled|placed)/);
      await expect.poll(heldYes, { timeout: 60_000 }).toBe(10);
    },
    SLOW,
  );

  it(
    'Esc closes the confirmation a keyboard order opened from the instant it is on the page, before its first paint',
    async () => {
      await bookShows('ask', 0.4);
      await leaveFields();
      // Esc as the dialog's element is inserted (in the same turn, before the browser paints it or runs anything
      // else): the dialog's own Esc must already be listening, not the page's (which only leaves the field).
      const pressed = page.evaluate(
        () =>
          new Promise<boolean>((resolve) => {
            const w = globalThis as unknown as {
              document: { querySelector(s: string): unknown; body: unknown };
              MutationObserver: new (cb: () => void) => {
                observe(target: unknown, options: { childList: boolean; subtree: boolean }): void;
                disconnect(): void;
              };
              KeyboardEvent: new (type: string, init: { key: string; bubbles: boolean }) => unknown;
              dispatchEvent(event: unknown): boolean;
            };
            const observer = new w.MutationObserver(() => {
              if (!w.document.querySelector('[data-testid="ticket-confirm-dialog"]')) return;
              observer.disconnect();
              w.dispatchEvent(new w.KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
              resolve(true);
            });
            observer.observe(w.document.body, { childList: true, subtree: true });
          }),
      );
      await page.keyboard.press('Shift+B');
      expect(await pressed).toBe(true);
      await dialog().waitFor({ state: 'detached', timeout: 5_000 });
    },
    SLOW,
  );

  it('+ and − move the ticket price one tick, and stop at the market’s bounds', async () => {
    await leaveFields();
    await page.keyboard.press('+');
    await expect.poll(() => ticket('ticket-price').inputValue()).toBe('41');
    await page.keyboard.press('-');
    await page.keyboard.press('-');
    await expect.poll(() => ticket('ticket-price').inputValue()).toBe('39');
    await ticket('ticket-price').fill('99');
    await leaveFields();
    await page.keyboard.press('+');
    expect(await ticket('ticket-price').inputValue()).toBe('99');
    await ticket('ticket-price').fill('1');
    await leaveFields();
    await page.keyboard.press('-');
    expect(await ticket('ticket-price').inputValue()).toBe('1');
    // In a field the key is typed, not a shortcut.
    await ticket('ticket-price').fill('30');
    await ticket('ticket-price').press('+');
    expect(await ticket('ticket-price').inputValue()).toBe('30+');
    await ticket('ticket-price').fill('');
    await leaveFields();
  });

  it(
    'Shift+S sells at the best bid with the preset size, through the confirmation',
    async () => {
      expect(await makerOrder(maker, { tokenId: yes, side: 'BUY', price: 0.3, size: 5 })).toMatchObject({
        success: true,
      });
      await bookShows('bid', 0.3);
      await leaveFields();
      await page.keyboard.press('F1');
      await page.keyboard.press('Shift+S');
      await dialog().waitFor();
      expect(await ticket('ticket-side-sell').getAttribute('aria-pressed')).toBe('true');
      expect(await ticket('ticket-price').inputValue()).toBe('30');
      expect(await ticket('ticket-size').inputValue()).toBe('5');
      expect(await confirmAndWait()).toMatch(/^SELL order (filled|placed)/);
      await expect.poll(heldYes, { timeout: 60_000 }).toBe(5);
    },
    SLOW,
  );

  it(
    'with the opt-in, a buy key places the order without the confirmation (with a warning in the help)',
    async () => {
      await leaveFields();
      await page.keyboard.press('?');
      const help = byId('shortcuts-help');
      await help.waitFor();
      expect(await help.getByTestId('keyboard-no-confirm').isChecked()).toBe(false);
      await help.getByTestId('keyboard-no-confirm').check();
      expect(await help.getByTestId('keyboard-no-confirm-warning').innerText()).toMatch(/sends a real order/);
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });
      await dismissNotices();

      await leaveFields();
      await page.keyboard.press('F1');
      await page.keyboard.press('Shift+B');
      await expect
        .poll(() => ticket('ticket-result').innerText(), { timeout: 90_000 })
        .toMatch(/^BUY order (filled|placed)/);
      expect(await dialog().count()).toBe(0);
      await expect.poll(heldYes, { timeout: 60_000 }).toBe(10);

      await page.keyboard.press('?');
      await help.getByTestId('keyboard-no-confirm').uncheck();
      await expect
        .poll(() =>
          call<{ keyboardOrdersWithoutConfirm: boolean }>('getSettings', {}).then(
            (s) => s.keyboardOrdersWithoutConfirm,
          ),
        )
        .toBe(false);
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });
    },
    SLOW,
  );

  it(
    'Shift+F flattens the whole position at the market, through the confirmation; with nothing held it says so',
    async () => {
      expect(await makerOrder(maker, { tokenId: yes, side: 'BUY', price: 0.3, size: 20 })).toMatchObject({
        success: true,
      });
      await bookShows('bid', 0.3);
      // Flatten sells what the ticket knows is held: wait for it to have read the last buy.
      await leaveFields();
      await page.keyboard.press('s');
      await expect
        .poll(() => ticket('ticket-available').innerText(), { timeout: 30_000 })
        .toMatch(/^You hold 10 Yes shares/);
      await leaveFields();
      await page.keyboard.press('Shift+F');
      await dialog().waitFor({ timeout: 30_000 });
      expect(await ticket('ticket-side-sell').getAttribute('aria-pressed')).toBe('true');
      expect(await ticket('ticket-kind-market').getAttribute('aria-selected')).toBe('true');
      expect(await ticket('ticket-size').inputValue()).toBe('10');
      expect(await confirmAndWait()).toMatch(/^SELL order filled/);
      await expect.poll(heldYes, { timeout: 60_000 }).toBe(0);

      await dismissNotices();
      // Once the ticket has read the balance again, the key has nothing to sell: it says so, no confirmation.
      await expect
        .poll(() => ticket('ticket-available').innerText(), { timeout: 30_000 })
        .toMatch(/^You hold 0 Yes shares/);
      await leaveFields();
      await page.keyboard.press('Shift+F');
      await expect
        .poll(() => byId('notices').innerText())
        .toContain('You hold no Yes shares in this market: there is nothing to flatten.');
      expect(await dialog().count()).toBe(0);
    },
    SLOW,
  );

  it(
    'Shift+C cancels this market’s resting orders only; with none it says so and sends nothing',
    async () => {
      const other = t.sandbox.catalog.market(OTHER_MARKET)!;
      const here = await call<{ orderId: string }>('placeOrder', {
        wallet: WALLET,
        marketId: MARKET,
        tokenId: yes,
        side: 'BUY',
        price: 0.05,
        size: 10,
      });
      const there = await call<{ orderId: string }>('placeOrder', {
        wallet: WALLET,
        marketId: OTHER_MARKET,
        tokenId: other.tokens[0].tokenId,
        side: 'BUY',
        price: 0.05,
        size: 10,
      });
      await dismissNotices();
      await page.getByTestId('account-tab-orders').click();
      await expect.poll(() => byId('open-orders').locator('tr[data-order-id]').count(), { timeout: 30_000 }).toBe(2);
      await leaveFields();
      await page.keyboard.press('Shift+C');
      await expect
        .poll(() => byId('notices').innerText(), { timeout: 30_000 })
        .toContain('Cancelled 1 order in this market.');
      const open = await call<{ orderId: string }[]>('listOpenOrders', { wallet: WALLET });
      expect(open.map((o) => o.orderId.toLowerCase())).toEqual([there.orderId.toLowerCase()]);
      expect(open.map((o) => o.orderId.toLowerCase())).not.toContain(here.orderId.toLowerCase());

      await dismissNotices();
      await expect.poll(() => byId('open-orders').locator('tr[data-order-id]').count(), { timeout: 30_000 }).toBe(1);
      await leaveFields();
      await page.keyboard.press('Shift+C');
      await expect.poll(() => byId('notices').innerText()).toContain('No open orders in this market to cancel.');
      expect(await byId('cancel-all-dialog').count()).toBe(0);
      expect((await call<unknown[]>('listOpenOrders', { wallet: WALLET })).length).toBe(1);
    },
    SLOW,
  );

  it(
    'a rebinding refuses a key in use with a sentence naming it, takes a free one, and survives a reload',
    async () => {
      await dismissNotices();
      await leaveFields();
      await page.keyboard.press('?');
      const help = byId('shortcuts-help');
      await help.waitFor();
      await help.getByTestId('rebind-buyBest').click();
      await help.getByTestId('trading-key-box').waitFor();
      await page.keyboard.press('j');
      expect(await help.getByTestId('dialog-error').innerText()).toBe(
        'j already does “Next market”: choose another key.',
      );
      await page.keyboard.press('Shift+S');
      expect(await help.getByTestId('dialog-error').innerText()).toBe(
        'Shift+S already does “Sell the chosen outcome at the best bid, preset size”: choose another key.',
      );
      await page.keyboard.press('Shift+Q');
      await expect
        .poll(() => help.locator('[data-testid="trading-key"][data-action="buyBest"]').getAttribute('data-key'))
        .toBe('Q');
      await expect
        .poll(() => help.locator('[data-testid="shortcut"][data-key="Q"]').innerText())
        .toMatch(/Buy the chosen outcome/);
      expect(await help.locator('[data-testid="shortcut"][data-key="B"]').count()).toBe(0);
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });

      await page.reload();
      await byId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
      await expect
        .poll(() => call<{ keyBindings: Record<string, string> }>('getSettings', {}).then((s) => s.keyBindings.buyBest))
        .toBe('Q');
      await bookShows('ask', 0.4);
      await leaveFields();
      // The old key does nothing now; the new one fills the ticket at the best ask and opens the confirmation.
      await page.keyboard.press('Shift+B');
      expect(await dialog().count()).toBe(0);
      await page.keyboard.press('Shift+Q');
      await dialog().waitFor();
      expect(await ticket('ticket-price').inputValue()).toBe('40');
      expect(await ticket('ticket-size').inputValue()).toBe('5');
      await page.keyboard.press('Escape');
      await dialog().waitFor({ state: 'detached' });

      await page.keyboard.press('?');
      await help.getByTestId('reset-trading-keys').click();
      await expect
        .poll(() => help.locator('[data-testid="trading-key"][data-action="buyBest"]').getAttribute('data-key'))
        .toBe('B');
      await page.keyboard.press('Escape');
    },
    SLOW,
  );
});
