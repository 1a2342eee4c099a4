// Long lists in the account panel, in headless Chromium on browser mode and the sandbox: a wallet whose
// account holds 1,000 trades and 600 open orders (pushed as the `account` event main sends when its user feed
// changes). Only the rows in view are in the page — every frame of a busy book would otherwise pay for all of
// them (bench/ui-frames.ts with BENCH_HISTORY) — yet scrolling reaches every row, in order, and the CSV export
// still holds them all.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAndFollow, longAccount } from '../helpers/long-account';
import { openTerminalPage, testWalletKey, type TerminalPage } from '../helpers/terminal-page';

const WALLET = 'long-history';
const PASSWORD = 'long lists correct horse';
const SLOW = 120_000;
const TRADES = 1_000;
const ORDERS = 600;

let t: TerminalPage;
let page: Page;

async function openTab(id: string): Promise<void> {
  await page.getByTestId(`account-tab-${id}`).click();
}

/** The account panel's scroller, scrolled to its end; then the last row of `rows` is the list's last. */
async function scrollAccountToEnd(): Promise<void> {
  await page.locator('.account-row .panel-body').evaluate((el) => el.scrollTo(0, el.scrollHeight));
}

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  await importAndFollow(page, WALLET, PASSWORD, testWalletKey(t.sandbox, 3));
  await openTab('trades');
  // The wallet is followed once its first read has answered: none (its trades), or why none could be read (it is
  // locked: no exchange credentials yet), never "No trades." for trades unread.
  await page
    .locator('.account-row')
    .getByText(/^(No trades\.|Orders and trades could not be read: )/)
    .waitFor();
  t.mode.hub.emit('account', { wallet: WALLET, ...longAccount(TRADES, ORDERS), state: 'open' });
  await page.locator('[data-testid="trades"] [data-trade-id]').first().waitFor();
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('long lists in the account panel', () => {
  it('renders a window of 1,000 trades, newest first, and scrolls to the oldest', async () => {
    const rows = page.locator('[data-testid="trades"] [data-trade-id]');
    expect(await rows.first().getAttribute('data-trade-id')).toBe('long-trade-0');
    expect(await rows.count()).toBeLessThan(60);
    await scrollAccountToEnd();
    await expect.poll(() => rows.last().getAttribute('data-trade-id')).toBe(`long-trade-${TRADES - 1}`);
    expect(await rows.count()).toBeLessThan(60);
    // A screen reader hears how many rows there are and where each rendered one sits (the header is row 1).
    expect(await page.locator('[data-testid="trades"] table').getAttribute('aria-rowcount')).toBe(String(TRADES + 1));
    expect(await rows.last().getAttribute('aria-rowindex')).toBe(String(TRADES + 1));
    // Rows keep their order across the window: consecutive ids, oldest last.
    const ids = (await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-trade-id')))).map((id) =>
      Number(id!.split('-').pop()),
    );
    expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
    // Halfway down, the rows in view are the middle of the list.
    await page.locator('.account-row .panel-body').evaluate((el) => el.scrollTo(0, el.scrollHeight / 2));
    await expect
      .poll(async () =>
        Math.abs(Number((await rows.first().getAttribute('data-trade-id'))!.split('-').pop()) - TRADES / 2),
      )
      .toBeLessThan(40);
  });

  it('exports every trade, not just the rows in view', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-trades').click()]);
    const lines = (await readFile((await download.path())!, 'utf8')).split('\r\n').filter((line) => line.length > 0);
    expect(lines).toHaveLength(TRADES + 1);
  });

  it('renders a window of 600 open orders, every row as tall as the rest', async () => {
    await openTab('orders');
    const rows = page.locator('[data-testid="open-orders"] [data-order-id]');
    await rows.first().waitFor();
    expect(await rows.count()).toBeLessThan(60);
    await scrollAccountToEnd();
    await expect.poll(() => rows.last().getAttribute('data-order-id')).toBe(`long-order-${ORDERS - 1}`);
    // Every rendered row is as tall as the rest (the window's arithmetic counts on it), its Cancel button too.
    const heights = await rows.evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height));
    expect(new Set(heights).size).toBe(1);
  });
});
