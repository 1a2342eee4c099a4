// The terminal without the mouse, and the dead-man switch's way off, in headless Chromium on the whole sandbox:
// `?` lists every shortcut, `w` and `n` open the wallet menu and the network list (↑/↓ and Esc inside, the focus
// back on the button after), 1–5 pick the account tabs, the cancel-all key asks first and can be changed in the
// help (a key in use refused); the dead-man switch is
// turned on from the keyboard (its badge says what ON means), and turning it off first says that the exchange
// will cancel the wallet's one open order, which it then does.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTerminalPage, testWalletKey, type TerminalPage } from '../helpers/terminal-page';

const MARKET = '90021';
const WALLET = 'keys-only';
const PASSWORD = 'keyboard correct horse battery';
const SLOW = 120_000;

interface PageTerminal {
  [op: string]: (input: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>;
}
interface DOMRectLike {
  top: number;
  bottom: number;
  right: number;
}
interface PageDocument {
  document: { activeElement: { closest(selector: string): unknown; getAttribute(name: string): string | null } | null };
}

let t: TerminalPage;
let page: Page;
let orderId: string;

async function call<T>(op: string, input: unknown): Promise<T> {
  const answer = await page.evaluate(
    async ([op, input]) => (globalThis as unknown as { terminal: PageTerminal }).terminal[op as string]!(input),
    [op, input] as const,
  );
  if (!answer.ok) throw new Error(`${op}: ${answer.error?.message}`);
  return answer.value as T;
}

const byId = (id: string) => page.getByTestId(id);
/** The data-testid of the element holding the focus, and whether it sits inside `selector`. */
const focused = (selector = 'body') =>
  page.evaluate((sel) => {
    const el = (globalThis as unknown as PageDocument).document.activeElement;
    return { testId: el?.getAttribute('data-testid') ?? null, inside: !!el?.closest(sel) };
  }, selector);

/** Leaves whatever field has the keyboard, as Esc does, so the next key is a shortcut. */
async function leaveFields(): Promise<void> {
  await page.keyboard.press('Escape');
}

/** Opens the wallet menu with `w` and walks ↓ to the dead-man switch's toggle. */
async function toDeadManToggle(): Promise<void> {
  await leaveFields();
  await page.keyboard.press('w');
  await byId('wallet-dropdown').waitFor();
  for (let i = 0; i < 12 && (await focused()).testId !== 'dms-toggle'; i += 1) await page.keyboard.press('ArrowDown');
  expect((await focused()).testId).toBe('dms-toggle');
}

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  const yes = t.sandbox.catalog.market(MARKET)!.tokens[0].tokenId;
  await call('importWallet', {
    label: WALLET,
    password: PASSWORD,
    source: { kind: 'privateKey', privateKey: testWalletKey(t.sandbox) },
  });
  await call('unlockWallet', { label: WALLET, password: PASSWORD });
  orderId = (
    await call<{ orderId: string }>('placeOrder', {
      wallet: WALLET,
      marketId: MARKET,
      tokenId: yes,
      side: 'BUY',
      price: 0.05,
      size: 10,
    })
  ).orderId;
  await page.reload();
  await byId('wallet-label').getByText(WALLET).waitFor();
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('the keyboard', () => {
  it('? lists every shortcut; Esc closes the list', async () => {
    await leaveFields();
    await page.keyboard.press('?');
    await byId('shortcuts-help').waitFor();
    const keys = await byId('shortcuts-help')
      .locator('[data-testid="shortcut"]')
      .evaluateAll((rows) =>
        rows.map((r) => (r as unknown as PageDocument['document']['activeElement'])!.getAttribute('data-key')),
      );
    expect(keys).toEqual(
      expect.arrayContaining(['Escape', '?', '/', 'j', 'k', 'b', 's', 'X', 'f', 'w', 'n', '1', '2', '3', '4', '5']),
    );
    expect(new Set(keys).size).toBe(keys.length);
    expect(await byId('shortcuts-help').innerText()).toMatch(/Shift\+X\s+Cancel all open orders/);
    await page.keyboard.press('Escape');
    await byId('shortcuts-help').waitFor({ state: 'detached' });
  });

  it('? opens the help at its top, inside a 1280×800 window, nothing past its right edge', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    try {
      await leaveFields();
      await page.keyboard.press('?');
      const help = byId('shortcuts-help');
      await help.waitFor();
      const fit = await help.evaluate((dialog) => {
        const d = dialog as unknown as {
          scrollTop: number;
          scrollWidth: number;
          clientWidth: number;
          getBoundingClientRect(): DOMRectLike;
          querySelectorAll(s: string): ArrayLike<{ getBoundingClientRect(): DOMRectLike; textContent: string | null }>;
        };
        const box = d.getBoundingClientRect();
        const past = Array.from(d.querySelectorAll('button, input, select, td')).filter(
          (el) => el.getBoundingClientRect().right > box.right + 0.5,
        );
        return {
          scrollTop: d.scrollTop,
          sideways: d.scrollWidth - d.clientWidth,
          top: box.top,
          bottom: box.bottom,
          right: box.right,
          past: past.map((el) => el.textContent),
        };
      });
      expect(fit).toMatchObject({ scrollTop: 0, sideways: 0, past: [] });
      expect(fit.top).toBeGreaterThanOrEqual(0);
      expect(fit.bottom).toBeLessThanOrEqual(800);
      expect(fit.right).toBeLessThanOrEqual(1280);
      expect((await focused()).testId).toBeNull(); // Close (no test id) has the keyboard, as before
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });
    } finally {
      await page.setViewportSize({ width: 1600, height: 1000 });
    }
  });

  it('w opens the wallet menu with the focus inside; ↓ moves; Esc closes it and gives the focus back', async () => {
    await leaveFields();
    await page.keyboard.press('w');
    await byId('wallet-dropdown').waitFor();
    expect(await focused('[data-testid="wallet-dropdown"]')).toMatchObject({ testId: 'wallet-option', inside: true });
    await page.keyboard.press('ArrowDown');
    expect((await focused('[data-testid="wallet-dropdown"]')).inside).toBe(true);
    await page.keyboard.press('Escape');
    await byId('wallet-dropdown').waitFor({ state: 'detached' });
    expect((await focused()).testId).toBe('wallet-current');
    // Where the keyboard is shows: a ring around the focused button.
    const ring = await byId('wallet-current').evaluate((el) => {
      const style = (
        globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string } }
      ).getComputedStyle(el);
      return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
    });
    expect(ring.style).not.toBe('none');
    expect(ring.width).toBeGreaterThanOrEqual(2);
  });

  it('n opens the network list on the current network; Esc closes it and gives the focus back', async () => {
    await leaveFields();
    await page.keyboard.press('n');
    await byId('network-list').waitFor();
    expect(await focused('[data-testid="network-list"]')).toMatchObject({ testId: 'network-option', inside: true });
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as PageDocument).document.activeElement?.getAttribute('data-name'),
      ),
    ).toBe('sandbox');
    await page.keyboard.press('Escape');
    await byId('network-list').waitFor({ state: 'detached' });
    expect((await focused()).testId).toBe('network-switch');
  });

  it('1–5 pick the account tabs', async () => {
    await leaveFields();
    await page.keyboard.press('2');
    expect(await byId('account-tab-orders').getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.locator(`tr[data-order-id="${orderId}"]`).count()).toBe(1);
    await page.keyboard.press('5');
    expect(await byId('account-tab-trader').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('1');
    expect(await byId('account-tab-positions').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('2');
  });

  it('j chooses a market, f stars it into the watchlist and f again takes it out', async () => {
    await leaveFields();
    await page.keyboard.press('j');
    await expect.poll(() => byId('market-view').locator('.market-header').count()).toBe(1);
    const settings = async () => (await call<{ watchlist: string[] }>('getSettings', {})).watchlist;
    expect(await settings()).toEqual([]);
    await page.keyboard.press('f');
    await expect.poll(settings).toHaveLength(1);
    await expect.poll(() => byId('markets-tab-watchlist').innerText()).toMatch(/Watchlist\s+1/);
    await page.keyboard.press('f');
    await expect.poll(settings).toEqual([]);
  });

  it('the cancel-all key asks first; Esc keeps the orders', async () => {
    await leaveFields();
    await page.keyboard.press('Shift+X');
    await byId('cancel-all-dialog').waitFor();
    expect(await byId('cancel-all-dialog').innerText()).toContain('One open order');
    await page.keyboard.press('Escape');
    await byId('cancel-all-dialog').waitFor({ state: 'detached' });
    expect((await call<{ orderId: string }[]>('listOpenOrders', { wallet: WALLET })).map((o) => o.orderId)).toEqual([
      orderId,
    ]);
  });

  it('the cancel-all key is chosen in the help: a key in use is refused with its use, a free one is kept and works', async () => {
    await leaveFields();
    await page.keyboard.press('?');
    await byId('shortcuts-help').waitFor();
    // The help opens on its Close button, not on the key box: a key pressed by habit changes nothing.
    expect((await focused('[data-testid="shortcuts-help"]')).inside).toBe(true);
    expect(await byId('cancel-all-key').count()).toBe(0);
    await page.keyboard.press('Shift+Tab');
    expect((await focused()).testId).toBe('change-cancel-all-key');
    await page.keyboard.press('Enter');
    expect((await focused()).testId).toBe('cancel-all-key');
    await page.keyboard.press('j');
    expect(await byId('shortcuts-help').getByTestId('dialog-error').innerText()).toBe(
      'j already does “Next market”: choose another key.',
    );
    await page.keyboard.press('Shift+Z');
    await expect.poll(async () => (await call<{ cancelAllKey: string }>('getSettings', {})).cancelAllKey).toBe('Z');
    await expect
      .poll(() => byId('shortcuts-help').locator('[data-testid="shortcut"][data-key="Z"]').innerText())
      .toMatch(/Cancel all open orders/);
    expect(await byId('shortcuts-help').locator('[data-testid="shortcut"][data-key="X"]').count()).toBe(0);
    await page.keyboard.press('Escape');
    await byId('shortcuts-help').waitFor({ state: 'detached' });
    await page.keyboard.press('Shift+X');
    expect(await byId('cancel-all-dialog').count()).toBe(0);
    await page.keyboard.press('Shift+Z');
    await byId('cancel-all-dialog').waitFor();
    await page.keyboard.press('Escape');
    await byId('cancel-all-dialog').waitFor({ state: 'detached' });
    expect((await call<{ orderId: string }[]>('listOpenOrders', { wallet: WALLET })).map((o) => o.orderId)).toEqual([
      orderId,
    ]);
  });
});

describe('the dead-man switch, from the keyboard', () => {
  it(
    'turned on: the badge shows ON and says what it means',
    async () => {
      await toDeadManToggle();
      await page.keyboard.press('Space');
      await byId('dms-badge').waitFor();
      expect(await byId('dms-badge').innerText()).toBe('DMS ON');
      expect(await byId('dms-badge').getAttribute('title')).toMatch(
        /heartbeat.*the exchange cancels this wallet’s open orders about 10 s later/,
      );
      expect(await byId('dms-toggle').isChecked()).toBe(true);
      await page.keyboard.press('Escape');
    },
    SLOW,
  );

  it(
    'turning it off says first that the one open order will be cancelled; Esc keeps it on',
    async () => {
      await toDeadManToggle();
      await page.keyboard.press('Space');
      await byId('dms-off-dialog').waitFor();
      expect(await byId('dms-off-text').innerText()).toMatch(
        /about 10 s later the exchange cancels its one open order/,
      );
      await page.keyboard.press('Escape');
      await byId('dms-off-dialog').waitFor({ state: 'detached' });
      expect(await byId('dms-badge').count()).toBe(1);
      expect((await call<{ enabled: boolean }>('getDeadManSwitch', { wallet: WALLET })).enabled).toBe(true);
    },
    SLOW,
  );

  it(
    'confirmed: the badge goes, and the exchange cancels the order',
    async () => {
      await toDeadManToggle();
      await page.keyboard.press('Space');
      await byId('dms-off-dialog').waitFor();
      // The confirming button has the focus: Enter turns it off.
      expect((await focused()).testId).toBe('dms-off-confirm');
      await page.keyboard.press('Enter');
      await byId('dms-badge').waitFor({ state: 'detached' });
      expect((await call<{ enabled: boolean }>('getDeadManSwitch', { wallet: WALLET })).enabled).toBe(false);
      await expect
        .poll(() => page.locator(`tr[data-order-id="${orderId}"]`).count(), { timeout: 40_000, interval: 1_000 })
        .toBe(0);
    },
    SLOW,
  );
});
