// Market orders are bounded (issue 28, point 1), in headless Chromium on the whole sandbox (real chain, CLOB,
// signer): the ticket prices a market buy from the live book (Max price: the price the book reaches and the
// slippage in ticks) and follows the book; a buy whose book moves past the confirmed max price between the
// confirmation and the click is not sent, and the dialog says why and offers the new numbers; a fill is never
// worse than the confirmed max price, read on the chain. And after a fill the ticket reflects what the trader holds
// now (point 7): a sell of more than that is refused before Review, never after Confirm.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTradingProfile } from '../../src/main/trading/profile';
import {
  importTestWallet,
  dismissNotices,
  callTerminal,
  openTerminalPage,
  type TerminalPage,
} from '../helpers/terminal-page';
import { makerOrder, marketMaker } from '../helpers/trading-sandbox';

const MARKET = '90021'; // Bitcoin above $120k: a 1¢ tick, no resting orders at the start
const WALLET = 'bounds-trader';
const PASSWORD = 'bounds correct horse battery';
const SLOW = 120_000;

let t: TerminalPage;
let page: Page;
let yes: string;
let no: string;
let maker: Awaited<ReturnType<typeof marketMaker>>;

const ticket = (testId: string) => page.getByTestId('order-ticket').getByTestId(testId);
const dialog = (testId: string) => page.getByTestId('ticket-confirm-dialog').getByTestId(testId);
const text = (locator: ReturnType<typeof ticket>) => () => locator.innerText().catch(() => '');

/** Another trader's ask for Yes at `price` (a bid for No at 1 − price, as the exchange shows it); its order id. */
async function offerYes(price: number, size: number): Promise<string> {
  const answer = await makerOrder(maker.client, {
    tokenId: no,
    side: 'BUY',
    price: Math.round((1 - price) * 100) / 100,
    size,
  });
  expect(answer).toMatchObject({ success: true, status: 'live' });
  return answer.orderID!;
}

/** The trader's collateral and Yes shares, read from the chain by main. */
async function holdings(): Promise<{ collateral: number; yes: number }> {
  const b = await callTerminal<{ collateral: number; outcomes: Record<string, number> }>(page, 'getBalances', {
    wallet: WALLET,
    tokenIds: [yes],
  });
  return { collateral: b.collateral, yes: b.outcomes[yes] ?? 0 };
}

async function openConfirmation(): Promise<void> {
  await expect.poll(() => ticket('ticket-submit').isEnabled(), { timeout: 20_000 }).toBe(true);
  await dismissNotices(page);
  await ticket('ticket-submit').click();
  await page.getByTestId('ticket-confirm-dialog').waitFor();
  await page
    .locator('[data-testid="ticket-confirm-dialog"]:not([data-order-ready="pending"])')
    .waitFor({ timeout: 60_000 });
}

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  const market = t.sandbox.catalog.market(MARKET)!;
  [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
  await importTestWallet(t, WALLET, PASSWORD);
  maker = await marketMaker({
    sandbox: t.sandbox,
    profile: parseTradingProfile(t.sandbox.profile),
    stop: async () => {},
  });
  await page.goto(`${t.mode.host.launchUrl}&market=${MARKET}&outcome=${yes}`);
  await page.reload();
  await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('market orders are bounded', () => {
  let cheap: string;
  let cheaper: string;

  it(
    'prices a market buy from the live book: Max price is the price reached plus the slippage, and follows the book',
    async () => {
      cheap = await offerYes(0.3, 20); // $6 at 30¢
      await offerYes(0.7, 200);
      await ticket('ticket-kind-market').click();
      await ticket('ticket-side-buy').click();
      await ticket('ticket-size-unit').selectOption('usd');
      await ticket('ticket-size').fill('4');
      expect(await page.getByTestId('order-ticket').getByText('Max price (¢)').count()).toBe(1);
      await expect
        .poll(text(ticket('ticket-worst-auto')), { timeout: 20_000 })
        .toBe('The book reaches 30¢: max 33¢ with 3 ticks of slippage.');
      expect(await ticket('ticket-price').getAttribute('placeholder')).toBe('33');
      await expect.poll(text(ticket('ticket-worst'))).toBe('33¢');
      await expect.poll(text(ticket('ticket-average'))).toBe('30¢');

      // A cheaper ask arrives: the ticket follows the book, its Max price and its figures with it.
      cheaper = await offerYes(0.25, 40); // $10 at 25¢
      await expect
        .poll(text(ticket('ticket-worst-auto')), { timeout: 20_000 })
        .toBe('The book reaches 25¢: max 28¢ with 3 ticks of slippage.');
      await expect.poll(text(ticket('ticket-worst'))).toBe('28¢');
      await expect.poll(text(ticket('ticket-summary')), { timeout: 20_000 }).toMatch(/Shares\s+16\b/);

      // The slippage is the trader's setting, changed here and kept by main.
      await ticket('ticket-slippage').fill('5');
      await expect.poll(text(ticket('ticket-worst'))).toBe('30¢');
      await expect
        .poll(
          async () =>
            (await callTerminal<{ marketSlippageTicks: number }>(page, 'getSettings', {})).marketSlippageTicks,
        )
        .toBe(5);
      await ticket('ticket-slippage').fill('3');
      await expect.poll(text(ticket('ticket-worst'))).toBe('28¢');
    },
    SLOW,
  );

  it(
    'a market buy whose book moves past the confirmed max price before the click is not sent; the dialog says why and offers the new numbers',
    async () => {
      const before = await holdings();
      await openConfirmation();
      expect(await dialog('confirm-worst').innerText()).toBe('28¢');
      expect(await dialog('confirm-bound-amount').innerText()).toBe('at most $4.00');
      expect(await dialog('confirm-bound-result').innerText()).toBe('at least 14.28 shares');
      expect(await page.getByTestId('ticket-confirm').isEnabled()).toBe(true);

      // The asks at 25¢ and 30¢ go while the trader reads: what is left is at 70¢.
      await maker.client.cancelOrder(cheaper);
      await maker.client.cancelOrder(cheap);
      await expect
        .poll(text(dialog('confirm-book-moved')), { timeout: 20_000 })
        .toMatch(
          /^The book moved past your max price 28¢: it has no asks at 28¢ or better\. Nothing is sent at these numbers\./,
        );
      expect(await page.getByTestId('ticket-confirm').isDisabled()).toBe(true);
      // The new numbers, from the book as it is: 70¢ and three ticks.
      await dialog('confirm-use-new').click();
      await expect.poll(text(dialog('confirm-worst'))).toBe('73¢');
      expect(await dialog('confirm-book-moved').count()).toBe(0);
      await page.keyboard.press('Escape');
      await page.getByTestId('ticket-confirm-dialog').waitFor({ state: 'detached' });
      // Nothing was sent: no money moved, no share bought.
      expect(await holdings()).toEqual(before);
      expect(await callTerminal<unknown[]>(page, 'listOpenOrders', { wallet: WALLET })).toEqual([]);
    },
    SLOW,
  );

  it(
    'a fill is never worse than the confirmed max price, read on the chain (FAK: the book moved, part of it within the bound)',
    async () => {
      const ask = await offerYes(0.3, 20);
      await ticket('ticket-order-type').selectOption('FAK');
      await ticket('ticket-size').fill('4');
      await expect.poll(text(ticket('ticket-worst')), { timeout: 20_000 }).toBe('33¢');
      const before = await holdings();
      await openConfirmation();
      expect(await dialog('confirm-worst').innerText()).toBe('33¢');
      // The book moves before the click: 5 shares at 32¢ ($1.60) within the bound, the rest at 70¢.
      await maker.client.cancelOrder(ask);
      await offerYes(0.32, 5);
      await expect.poll(text(dialog('confirm-live')), { timeout: 20_000 }).toBe('5 shares for $1.60, average 32¢');
      await page.getByTestId('ticket-confirm').click();
      await page.getByTestId('ticket-confirm-dialog').waitFor({ state: 'detached' });
      await expect.poll(text(ticket('ticket-result')), { timeout: 60_000 }).toMatch(/^BUY order filled/);
      await expect.poll(async () => (await holdings()).yes, { timeout: 30_000 }).toBeGreaterThan(before.yes);
      const after = await holdings();
      const spent = before.collateral - after.collateral;
      const bought = after.yes - before.yes;
      expect(spent).toBeGreaterThan(0);
      expect(spent / bought).toBeLessThanOrEqual(0.33);
      expect(bought).toBe(5);
    },
    SLOW,
  );

  it(
    'after a fill, the ticket reflects what the trader holds now: a sell of more is refused before Review, never after Confirm',
    async () => {
      // Another trader's bid for Yes at 20¢; the trader sells the 5 shares bought above into it with a limit order.
      expect(await makerOrder(maker.client, { tokenId: yes, side: 'BUY', price: 0.2, size: 100 })).toMatchObject({
        success: true,
        status: 'live',
      });
      await ticket('ticket-kind-limit').click();
      await ticket('ticket-side-sell').click();
      await ticket('ticket-size-unit').selectOption('shares');
      await ticket('ticket-price').fill('20');
      await ticket('ticket-size').fill('5');
      await expect.poll(text(ticket('ticket-available')), { timeout: 30_000 }).toBe('You hold 5 Yes shares');
      await openConfirmation();
      await page.getByTestId('ticket-confirm').click();
      await page.getByTestId('ticket-confirm-dialog').waitFor({ state: 'detached' });
      await expect.poll(text(ticket('ticket-result')), { timeout: 60_000 }).toMatch(/^SELL order filled/);
      // The same SELL of 5 is still typed: the ticket now says what is held, and why it cannot be reviewed.
      await expect.poll(text(ticket('ticket-available')), { timeout: 30_000 }).toBe('You hold 0 Yes shares');
      await expect.poll(() => ticket('ticket-submit').isDisabled(), { timeout: 20_000 }).toBe(true);
      expect(await ticket('ticket-submit').getAttribute('title')).toBe('You hold 0 Yes shares: this sell needs 5.');
      expect(await text(ticket('ticket-why-not'))()).toBe('You hold 0 Yes shares: this sell needs 5.');
      expect(await page.getByTestId('ticket-confirm-dialog').count()).toBe(0);
    },
    SLOW,
  );

  it(
    'shares that leave by another way (another window’s order) are seen by the ticket before Review, from main’s check too',
    async () => {
      // The trader buys 5 Yes again (at a maker's 30¢ ask), and types a SELL of 5 at 90¢: nothing crosses it.
      await offerYes(0.3, 5);
      await callTerminal(page, 'placeOrder', {
        wallet: WALLET,
        marketId: MARKET,
        tokenId: yes,
        side: 'BUY',
        orderType: 'FOK',
        amountUsd: 1.5,
        price: 0.3,
      });
      await ticket('ticket-price').fill('90');
      await ticket('ticket-size').fill('5');
      await expect.poll(text(ticket('ticket-available')), { timeout: 30_000 }).toBe('You hold 5 Yes shares');
      await expect.poll(() => ticket('ticket-submit').isEnabled(), { timeout: 20_000 }).toBe(true);
      await expect.poll(text(ticket('ticket-summary')), { timeout: 20_000 }).toContain('From main’s preview.');
      // Another window sells them into the 20¢ bid: the ticket's order did not change, what the account holds did.
      await callTerminal(page, 'placeOrder', {
        wallet: WALLET,
        marketId: MARKET,
        tokenId: yes,
        side: 'SELL',
        orderType: 'FOK',
        size: 5,
        price: 0.2,
      });
      await expect.poll(text(ticket('ticket-available')), { timeout: 30_000 }).toBe('You hold 0 Yes shares');
      await expect.poll(() => ticket('ticket-submit').isDisabled(), { timeout: 20_000 }).toBe(true);
      // Main checked the same order again: its sentence is in the problems, before any Review.
      await expect
        .poll(text(ticket('ticket-problems')), { timeout: 20_000 })
        .toMatch(/^This sell needs 5 "Yes" shares but the wallet holds 0/);
    },
    SLOW,
  );
});
