// The tape and trader profiles in headless Chromium, on the whole sandbox with Polymarket's own APIs (the
// product's default source): trades made on the sandbox exchange show in the tape with the exchange's taker
// side, its price, shares, dollars and the trader who took it, live and again from history after a reload, in
// either outcome; a trader's name opens their profile (positions with the price model's current price,
// activity); typing another address drops the old result at once; a wrong address says so and shows nothing
// stale; a discussion's author opens their profile. Waits are on the page, never on time.
import type { Locator, Page } from 'playwright-core';
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

const MARKET = '90021'; // Bitcoin above $120k: a 1¢ tick, a minimum of 5 shares
const EVENT = '9002';
const WALLET = 'tape-trader';
const PASSWORD = 'tape trader correct horse battery';
const SLOW = 120_000;

let t: TerminalPage;
let page: Page;
let yes: string;
let no: string;
let maker: Awaited<ReturnType<typeof marketMaker>>;

const call = <T>(op: string, input: unknown): Promise<T> => callTerminal<T>(page, op, input);

const tape = () => page.getByTestId('trade-tape');
const profile = () => page.getByTestId('trader-lookup');
const cell = (row: Locator, n: number) => row.locator('[role="cell"]').nth(n);
/** The tape's fill row of one size (each trade here has its own size, so a row is found whatever came before it). */
const fillOfSize = (size: number) => tape().locator(`[data-kind="fill"][data-size="${size}"]`).first();

const dismissNotices = (): Promise<void> => dismissPageNotices(page);

async function openMarket(): Promise<void> {
  await page.goto(`${t.mode.host.launchUrl}&market=${MARKET}&event=${EVENT}&outcome=${yes}`);
  await page.reload();
  await page.locator('[data-testid="trade-tape"][data-feed="open"]').waitFor({ timeout: 30_000 });
}

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  const market = t.sandbox.catalog.market(MARKET)!;
  [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
  maker = await marketMaker({
    sandbox: t.sandbox,
    profile: parseTradingProfile(t.sandbox.profile),
    stop: async () => {},
  });
  await importTestWallet(t, WALLET, PASSWORD);
  await openMarket();
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('the tape and trader profiles', () => {
  let trader: string;

  it(
    'shows a trade as the exchange recorded it: the taker’s side, price at the ladder’s precision, shares, dollars, the trader',
    async () => {
      // A maker's bid for No at 60¢ is an ask for Yes at 40¢; our limit BUY of Yes at 40¢ takes it.
      expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.6, size: 200 })).toMatchObject({
        success: true,
        status: 'live',
      });
      await call('placeOrder', { wallet: WALLET, marketId: MARKET, tokenId: yes, side: 'BUY', price: 0.4, size: 11 });
      const row = fillOfSize(11);
      await row.waitFor({ timeout: 60_000 });
      expect(await row.getAttribute('data-side')).toBe('BUY');
      expect(await cell(row, 1).textContent()).toBe('Buy');
      expect(await cell(row, 1).getAttribute('class')).toContain('bid');
      expect(await cell(row, 2).textContent()).toBe('40¢');
      expect(await cell(row, 3).textContent()).toBe('11');
      expect(await cell(row, 4).textContent()).toBe('$4.40');
      // The sandbox names its test wallets: the trader shows by name, the address on hover and in the link.
      const link = cell(row, 5).locator('button.trader-link');
      expect(await link.textContent()).toBe('sandbox-trader-1');
      trader = (await link.getAttribute('data-trader'))!;
      expect(trader).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(await row.getAttribute('data-trader')).toBe(trader);
      // The whole tape states its sides: nothing reads "unknown" on this source.
      expect(await tape().locator('[data-kind="fill"][data-side="unknown"]').count()).toBe(0);
    },
    SLOW,
  );

  it(
    'shows a trade of the second outcome in the first one’s terms (a buy of No is a sell of Yes), and flips both in the No view',
    async () => {
      // A maker's bid for Yes at 35¢ is an ask for No at 65¢; our BUY of No at 65¢ takes it.
      expect(await makerOrder(maker.client, { tokenId: yes, side: 'BUY', price: 0.35, size: 200 })).toMatchObject({
        success: true,
        status: 'live',
      });
      await call('placeOrder', { wallet: WALLET, marketId: MARKET, tokenId: no, side: 'BUY', price: 0.65, size: 7 });
      const row = fillOfSize(7);
      await row.waitFor({ timeout: 60_000 });
      expect(await row.getAttribute('data-side')).toBe('SELL');
      expect(await cell(row, 1).textContent()).toBe('Sell');
      expect(await cell(row, 2).textContent()).toBe('35¢');
      expect(await cell(row, 4).textContent()).toBe('$2.45');

      await page.locator(`[data-testid="outcomes"] button[data-token="${no}"]`).click();
      await expect.poll(() => fillOfSize(7).getAttribute('data-side')).toBe('BUY');
      expect(await cell(fillOfSize(7), 2).textContent()).toBe('65¢');
      expect(await cell(fillOfSize(7), 4).textContent()).toBe('$4.55');
      expect(await fillOfSize(11).getAttribute('data-side')).toBe('SELL');
      expect(await cell(fillOfSize(11), 2).textContent()).toBe('60¢');
      expect(await cell(fillOfSize(11), 4).textContent()).toBe('$6.60');
      await page.locator(`[data-testid="outcomes"] button[data-token="${yes}"]`).click();
      await expect.poll(() => fillOfSize(7).getAttribute('data-side')).toBe('SELL');
    },
    SLOW,
  );

  it(
    'reads both trades back from history, with their sides and trader, after a reload',
    async () => {
      await page.reload();
      await expect.poll(() => tape().getAttribute('data-feed'), { timeout: 30_000 }).toBe('open');
      await fillOfSize(7).waitFor();
      expect(await fillOfSize(11).getAttribute('data-side')).toBe('BUY');
      expect(await fillOfSize(7).getAttribute('data-side')).toBe('SELL');
      expect(await fillOfSize(7).getAttribute('data-trader')).toBe(trader);
      expect(await cell(fillOfSize(7), 2).textContent()).toBe('35¢');
    },
    SLOW,
  );

  it(
    'opens the trader’s profile from the tape: name, address, stats, positions through the price model, activity',
    async () => {
      await dismissNotices();
      await cell(fillOfSize(11), 5).locator('button.trader-link').click();
      await expect.poll(() => page.getByTestId('account-tab-trader').getAttribute('aria-selected')).toBe('true');
      expect(await profile().getAttribute('data-address')).toBe(trader);
      expect(await page.getByTestId('trader-address').inputValue()).toBe(trader);
      await expect.poll(() => page.getByTestId('profile-header').getAttribute('data-state')).toBe('done');
      expect(await page.getByTestId('profile-name').textContent()).toBe('sandbox-trader-1');
      expect(await page.getByTestId('profile-header').textContent()).toContain(trader);
      const stat = (key: string) => page.getByTestId('profile-stats').locator(`[data-stat="${key}"] dd`);
      await expect.poll(() => stat('markets').textContent()).toBe('1');
      expect(await stat('value').textContent()).toMatch(/^\$\d/);

      const positions = page.getByTestId('profile-positions');
      await positions.locator('tr[data-position]').first().waitFor();
      const yesRow = positions.locator(`tr[data-position="${yes}"]`);
      expect(await yesRow.innerText()).toMatch(/Yes\s+11/);
      // The current price is the price model's: the open market's live quote, with its basis.
      const current = yesRow.locator('[data-quote-token]');
      expect(await current.getAttribute('data-quote-token')).toBe(yes);
      expect(await current.getAttribute('data-quote-basis')).toMatch(/^(midpoint|last|listed)$/);
      expect(await yesRow.locator('td').last().textContent()).toMatch(/^[+−]\$\d+\.\d\d( \([+−]\d+\.\d%\))?$/);

      await page.getByTestId('profile-tab-activity').click();
      const activity = page.getByTestId('profile-activity');
      await activity.locator('tr[data-activity]').first().waitFor();
      const bought = activity.locator(`tr[data-activity="TRADE"][data-token="${yes}"]`).first();
      expect(await bought.getAttribute('data-side')).toBe('BUY');
      expect(await bought.innerText()).toMatch(/Buy\s+Yes\s+40\s*¢\s+11\s+\$4\.40/);
      expect(await activity.locator(`tr[data-activity="TRADE"][data-token="${no}"]`).first().innerText()).toMatch(
        /Buy\s+No\s+65\s*¢\s+7\s+\$4\.55/,
      );
      await page.getByTestId('profile-tab-positions').click();
    },
    SLOW,
  );

  it(
    'drops the old result the moment another address is typed, and shows the new trader’s',
    async () => {
      const other = maker.address;
      await page.getByTestId('trader-address').fill(other);
      // At once: nothing of the previous trader is left under the new address.
      const now = await profile().evaluate((el) => ({
        address: el.getAttribute('data-address'),
        text: (el as unknown as { textContent: string }).textContent,
      }));
      expect(now.address).toBe(other);
      expect(now.text).not.toContain('sandbox-trader-1');
      expect(now.text).not.toContain(trader);
      await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('sandbox-trader-2');
      await page.getByTestId('profile-positions').locator('tr[data-position]').first().waitFor();
    },
    SLOW,
  );

  it('says a wrong address is wrong and shows nothing under it', async () => {
    await page.getByTestId('trader-address').fill('0x1234');
    expect(await page.getByTestId('profile-invalid').textContent()).toBe('An address is 0x and 40 hex digits.');
    expect(await page.getByTestId('profile-header').count()).toBe(0);
    expect(await profile().locator('tr[data-position], tr[data-activity]').count()).toBe(0);
    expect(await profile().getAttribute('data-address')).toBe('');
    expect(await page.getByTestId('trader-lookup-submit').isDisabled()).toBe(true);
    await page.getByTestId('trader-address').fill('');
    expect(await page.getByTestId('profile-invalid').count()).toBe(0);
    expect(await page.getByTestId('trader-lookup-submit').getAttribute('title')).toBe('Type an address.');
  });

  it(
    'opens a discussion author’s profile',
    async () => {
      await page.getByRole('tab', { name: /Discussion/ }).click();
      const author = page.getByTestId('discussion').locator('button.trader-link').first();
      await author.waitFor();
      const name = (await author.textContent())!;
      const address = (await author.getAttribute('data-trader'))!;
      expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
      await page.getByTestId('account-tab-positions').click();
      await author.click();
      await expect.poll(() => page.getByTestId('account-tab-trader').getAttribute('aria-selected')).toBe('true');
      expect(await profile().getAttribute('data-address')).toBe(address);
      await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe(name);
      // A commenter who never traded here: said in words, not an empty table.
      await expect.poll(() => profile().textContent()).toContain('This trader holds no positions.');
    },
    SLOW,
  );
  it(
    'keeps its columns in place whatever the digits: a trade of 1,234 shares lines up with one of 7',
    async () => {
      // Last: the trade changes the position the profile tests above read.
      await openMarket();
      expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.6, size: 1500 })).toMatchObject({
        success: true,
        status: 'live',
      });
      await call('placeOrder', { wallet: WALLET, marketId: MARKET, tokenId: yes, side: 'BUY', price: 0.4, size: 1234 });
      await fillOfSize(1234).waitFor({ timeout: 60_000 });
      expect(await cell(fillOfSize(1234), 4).textContent()).toBe('$493.60');
      /** Where each cell of a row starts, across the tape. */
      const starts = (row: Locator) =>
        row
          .locator('> span')
          .evaluateAll((cells) =>
            cells.map((c) =>
              Math.round((c as unknown as { getBoundingClientRect(): { left: number } }).getBoundingClientRect().left),
            ),
          );
      const head = await starts(tape().locator('.tape-head'));
      expect(head).toHaveLength(6);
      for (const size of [1234, 11, 7])
        expect(await starts(fillOfSize(size)), `the row of ${size} shares`).toEqual(head);
    },
    SLOW,
  );
});
