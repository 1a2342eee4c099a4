// Positions that act, in headless Chromium on the whole sandbox: two positions bought against a maker's
// liquidity (a fee-charging market, open in the terminal, and another), shown by question and outcome with
// size, average, the current price through the price model (labelled), value, PnL $ and %, and totals; Limit
// sell filling the ticket for review in the other market; Close selling the whole position at the market
// through the ticket's own confirmation, after which the position is gone and the sale is in Trades; Balances
// listing every holding and gas; CSV exports naming question, outcome, side, fee and transaction.
import { readFile } from 'node:fs/promises';
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

const OPEN = '90041'; // Will a new frontier AI model be released before 2027? Taker fee 4 %·p(1−p), 1¢ tick, minimum 5
const OTHER = '90021'; // Bitcoin above $120k on December 31, 2026? fee-free
const WALLET = 'positions-trader';
const PASSWORD = 'positions correct horse battery';
const SLOW = 120_000;

/** The few DOM members the page-side code uses (the Node typecheck has no DOM types). */
interface PageWindow {
  document: { activeElement: { id?: string } | null };
}

let t: TerminalPage;
let page: Page;
let question: Record<string, string>;
let yesOpen: string;
let yesOther: string;

const call = <T>(op: string, input: unknown): Promise<T> => callTerminal<T>(page, op, input);

const ticket = (testId: string) => page.getByTestId('order-ticket').getByTestId(testId);
const positionRow = (tokenId: string) => page.getByTestId('positions').locator(`tr[data-token="${tokenId}"]`);
const cell = (tokenId: string, testId: string) => positionRow(tokenId).getByTestId(testId);
const money = (text: string) => Number(text.replace(/[^\d.−-]/g, '').replace('−', '-'));

const dismissNotices = (): Promise<void> => dismissPageNotices(page);

async function openTab(name: 'positions' | 'trades' | 'balances'): Promise<void> {
  await dismissNotices();
  await page.getByTestId(`account-tab-${name}`).click();
}

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  const [open, other] = [t.sandbox.catalog.market(OPEN)!, t.sandbox.catalog.market(OTHER)!];
  question = { [OPEN]: open.question, [OTHER]: other.question };
  yesOpen = open.tokens[0].tokenId;
  yesOther = other.tokens[0].tokenId;
  await importTestWallet(t, WALLET, PASSWORD);

  // A maker's bids for No at 60¢ are asks for Yes at 40¢; its Yes bid at 30¢ is what Close sells into.
  const maker = await marketMaker({
    sandbox: t.sandbox,
    profile: parseTradingProfile(t.sandbox.profile),
    stop: async () => {},
  });
  for (const [market, noIndex] of [
    [open, 1],
    [other, 1],
  ] as const) {
    expect(
      await makerOrder(maker.client, { tokenId: market.tokens[noIndex].tokenId, side: 'BUY', price: 0.6, size: 200 }),
    ).toMatchObject({ success: true });
  }
  expect(await makerOrder(maker.client, { tokenId: yesOpen, side: 'BUY', price: 0.3, size: 200 })).toMatchObject({
    success: true,
  });
  // The two positions: 10 Yes here and 5 Yes in the other market, each bought at 40¢ as a taker.
  await call('placeOrder', {
    wallet: WALLET,
    marketId: OPEN,
    tokenId: yesOpen,
    side: 'BUY',
    orderType: 'GTC',
    price: 0.4,
    size: 10,
  });
  await call('placeOrder', {
    wallet: WALLET,
    marketId: OTHER,
    tokenId: yesOther,
    side: 'BUY',
    orderType: 'GTC',
    price: 0.4,
    size: 5,
  });

  await page.goto(`${t.mode.host.launchUrl}&market=${OPEN}&outcome=${yesOpen}`);
  await page.reload();
  await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('positions that act', () => {
  it(
    'shows each position by question and outcome with size, average, the labelled current price, value, PnL $ and %, and totals',
    async () => {
      await openTab('positions');
      await positionRow(yesOpen).waitFor({ timeout: 60_000 });
      await positionRow(yesOther).waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('positions-current-header').innerText()).toBe('Current (mid/last)');

      // The open market's position: its live quote, the midpoint of 30¢ and 40¢ (a 10¢ spread is not wider than 10¢).
      const open = positionRow(yesOpen);
      expect(await open.getByTestId('position-open-market').innerText()).toBe(question[OPEN]);
      expect(await cell(yesOpen, 'position-outcome').innerText()).toBe('Yes');
      expect(await cell(yesOpen, 'position-size').innerText()).toBe('10');
      expect(await cell(yesOpen, 'position-avg').innerText()).toBe('40¢');
      const quote = cell(yesOpen, 'position-current').locator('[data-quote-token]');
      await expect.poll(() => quote.getAttribute('data-quote-basis'), { timeout: 30_000 }).toBe('midpoint');
      expect(await quote.getAttribute('data-quote-value')).toBe('0.35');
      expect(await quote.innerText()).toBe('35¢ mid');
      expect(await cell(yesOpen, 'position-value').innerText()).toBe('$3.50');
      expect(await cell(yesOpen, 'position-pnl').innerText()).toBe('−$0.50');
      expect(await cell(yesOpen, 'position-pnl').locator('span').getAttribute('class')).toBe('ask');
      expect(await cell(yesOpen, 'position-pnl-percent').innerText()).toBe('−12.5 %');
      // The same number as the market view shows for the same token at the same moment.
      const elsewhere = await page
        .locator(`[data-quote-token="${yesOpen}"]`)
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-quote-value')));
      expect(new Set(elsewhere)).toEqual(new Set(['0.35']));

      // The other market's position: no tile shows it, so it is priced as the grid prices its row (both read again on
      // the shown markets' schedule): one number and basis for the token on the page; value = size × that price.
      const listed = cell(yesOther, 'position-current').locator('[data-quote-token]');
      const shownOther = () =>
        page
          .locator(`[data-quote-token="${yesOther}"]`)
          .evaluateAll((els) => [
            ...new Set(
              els.map((el) => `${el.getAttribute('data-quote-value')}|${el.getAttribute('data-quote-basis')}`),
            ),
          ]);
      await expect.poll(shownOther, { timeout: 30_000 }).toHaveLength(1);
      const otherPrice = Number(await listed.getAttribute('data-quote-value'));
      expect(otherPrice).toBeGreaterThan(0);
      const otherValue = Math.round(5 * otherPrice * 100) / 100;
      expect(money(await cell(yesOther, 'position-value').innerText())).toBe(otherValue);
      expect(money(await cell(yesOther, 'position-pnl').innerText())).toBe(Math.round((otherValue - 2) * 100) / 100);

      // Totals: value of both, cost $4 + $2, PnL and its percent of the cost.
      const totals = page.getByTestId('positions-totals');
      const totalValue = Math.round((3.5 + otherValue) * 100) / 100;
      expect(money(await totals.getByTestId('positions-total-value').innerText())).toBe(totalValue);
      expect(await totals.getByTestId('positions-total-cost').innerText()).toContain('$6.00');
      expect(money(await totals.getByTestId('positions-total-pnl').innerText())).toBe(
        Math.round((totalValue - 6) * 100) / 100,
      );
      const percent = Math.round(((totalValue - 6) / 6) * 10_000) / 100;
      expect(money(await totals.getByTestId('positions-total-pnl-percent').innerText())).toBe(percent);
    },
    SLOW,
  );

  it(
    'Limit sell opens the position’s market and fills the ticket: SELL, limit, the whole size, its price, focused for review',
    async () => {
      const price = Number(
        await cell(yesOther, 'position-current').locator('[data-quote-token]').getAttribute('data-quote-value'),
      );
      await dismissNotices();
      await positionRow(yesOther).getByTestId('position-limit-sell').click();
      await expect
        .poll(() => page.getByTestId('order-ticket').locator('.ticket-question').innerText())
        .toBe(question[OTHER]);
      await expect.poll(() => ticket('ticket-side-sell').getAttribute('aria-pressed')).toBe('true');
      expect(await ticket('ticket-kind-limit').getAttribute('aria-selected')).toBe('true');
      expect(await ticket('ticket-size').inputValue()).toBe('5');
      expect(await ticket('ticket-size-unit').inputValue()).toBe('shares');
      expect(Number(await ticket('ticket-price').inputValue())).toBe(Math.round(price * 10_000) / 100);
      expect(
        await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).getAttribute('aria-pressed'),
      ).toBe('true');
      await expect
        .poll(() => page.evaluate(() => (globalThis as unknown as PageWindow).document.activeElement?.id))
        .toBe('ticket-price');
      // Nothing is sent until the trader reviews and places it.
      expect(await page.getByTestId('ticket-confirm-dialog').count()).toBe(0);
      expect(await call<unknown[]>('listOpenOrders', { wallet: WALLET })).toEqual([]);
    },
    SLOW,
  );

  it(
    'Stop… opens the stop dialog for the position, saying it runs only while PM Desk is open',
    async () => {
      await dismissNotices();
      await positionRow(yesOther).getByTestId('position-stop').click();
      const dialog = page.getByTestId('stop-dialog');
      await dialog.waitFor();
      expect(await dialog.getByTestId('stop-dialog-runs-only').innerText()).toMatch(/runs only while PM Desk is open/i);
      expect(await dialog.innerText()).toContain(question[OTHER]);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    },
    SLOW,
  );

  it(
    'Close sells the whole position at the market through the confirmation; the position goes and the sale shows in Trades',
    async () => {
      await openTab('positions');
      await positionRow(yesOpen).getByTestId('position-close').click();
      // Back in the position's market, the ticket's own confirmation: a market SELL (FOK) of all 10 shares.
      const dialog = page.getByTestId('ticket-confirm-dialog');
      await dialog.waitFor({ timeout: 30_000 });
      const shown = await dialog.innerText();
      expect(shown).toMatch(/SELL\s+Yes — market order \(FOK\)/);
      expect(shown).toContain(question[OPEN]);
      // Bounded (issue 28): the best bid 30¢ less three ticks of slippage, and what that promises.
      expect(shown).toMatch(/Min price\s+27¢/);
      expect(shown).toMatch(/You sell\s+10 shares/);
      expect(shown).toMatch(/You receive\s+at least \$2\.70/);
      expect(await ticket('ticket-side-sell').getAttribute('aria-pressed')).toBe('true');
      expect(await ticket('ticket-kind-market').getAttribute('aria-selected')).toBe('true');
      await expect.poll(() => page.getByTestId('ticket-confirm').isEnabled()).toBe(true);
      await page.getByTestId('ticket-confirm').click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => ticket('ticket-result').innerText(), { timeout: 90_000 }).toMatch(/SELL order filled/i);
      // After the Close the ticket reflects what is held now: the same SELL is refused before Review (issue 28, point 7).
      await expect
        .poll(() => ticket('ticket-submit').getAttribute('title'), { timeout: 30_000 })
        .toBe('You hold 0 Yes shares: this sell needs 10.');
      expect(await ticket('ticket-submit').isDisabled()).toBe(true);

      await openTab('positions');
      await positionRow(yesOpen).waitFor({ state: 'detached', timeout: 60_000 });
      await positionRow(yesOther).waitFor();
      expect(await call<{ tokenId: string }[]>('getPositions', { wallet: WALLET })).toMatchObject([
        { tokenId: yesOther },
      ]);

      await openTab('trades');
      const sale = page.getByTestId('trades').locator('tr[data-trade-id]').filter({ hasText: 'SELL' });
      await sale.first().waitFor({ timeout: 30_000 });
      expect(await sale.first().innerText()).toMatch(
        new RegExp(`Yes[\\s\\S]*${question[OPEN]!.replace(/[?$]/g, '\\$&')}[\\s\\S]*SELL[\\s\\S]*30¢[\\s\\S]*10`),
      );
    },
    SLOW,
  );

  it(
    'Balances lists every holding by question and outcome, not only the open market’s, and the gas',
    async () => {
      await openTab('balances');
      const holding = page.getByTestId('balances').locator(`[data-testid="balance-holding"][data-token="${yesOther}"]`);
      await holding.waitFor({ timeout: 30_000 });
      await expect
        .poll(() => holding.innerText())
        .toMatch(new RegExp(`Yes\\s*·\\s*${question[OTHER]!.replace(/[?$]/g, '\\$&')}[\\s\\S]*5 shares`));
      await expect.poll(() => page.getByTestId('funds-gas').innerText(), { timeout: 30_000 }).toMatch(/POL/);
      expect(await page.getByTestId('collateral').innerText()).toMatch(/^\$[\d,]+\.\d\d$/);
    },
    SLOW,
  );

  it(
    'a click on a position’s question opens its market',
    async () => {
      await openTab('positions');
      expect(await page.getByTestId('order-ticket').locator('.ticket-question').innerText()).toBe(question[OPEN]);
      await positionRow(yesOther).getByTestId('position-open-market').click();
      await expect
        .poll(() => page.getByTestId('order-ticket').locator('.ticket-question').innerText())
        .toBe(question[OTHER]);
      // A fresh ticket there: opening a market is not an order.
      expect(await ticket('ticket-side-buy').getAttribute('aria-pressed')).toBe('true');
    },
    SLOW,
  );

  it(
    'exports trades with question, outcome, side, fee and transaction, and positions with question and PnL',
    async () => {
      await openTab('trades');
      // Settled: every trade has its transaction.
      await expect
        .poll(
          async () =>
            (await page.getByTestId('trades').getByTestId('trade-tx').allInnerTexts()).every((text) =>
              text.startsWith('0x'),
            ),
          { timeout: 60_000 },
        )
        .toBe(true);
      await page
        .getByTestId('trades')
        .locator('[data-status="pending"]')
        .waitFor({ state: 'detached', timeout: 60_000 });
      await dismissNotices();
      const [trades] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-trades').click()]);
      const lines = (await readFile((await trades.path())!, 'utf8')).split('\r\n').filter((line) => line.length > 0);
      expect(lines[0]).toBe(
        'time_utc,market,outcome,side,price,size,fee_usd,status,tx_hash,trade_id,condition_id,token_id',
      );
      expect(lines).toHaveLength(4);
      // The Close: 10 shares at 30¢ as the taker on a 4 %·p(1−p) market pay 10 × 0.04 × 0.3 × 0.7 = $0.084.
      const sale = lines.find((line) => line.includes(',SELL,'))!;
      expect(sale).toMatch(
        new RegExp(
          `^\\d{4}-[^,]+,${question[OPEN]!.replace(/[?$]/g, '\\$&')},Yes,SELL,0\\.3,10,0\\.084,CONFIRMED,0x[0-9a-f]{64},[^,]+,0x[0-9a-f]{64},${yesOpen}$`,
        ),
      );
      // The other market charges no fee.
      const other = lines.find((line) => line.includes(`,${yesOther}`))!;
      expect(other).toContain(
        `${question[OTHER]!.includes(',') ? `"${question[OTHER]}"` : question[OTHER]},Yes,BUY,0.4,5,0,CONFIRMED,0x`,
      );

      await openTab('positions');
      await dismissNotices();
      const [positions] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('export-positions').click(),
      ]);
      const rows = (await readFile((await positions.path())!, 'utf8')).split('\r\n').filter((line) => line.length > 0);
      expect(rows[0]).toBe(
        'market,outcome,size,average_price,current_price,value,pnl_usd,pnl_percent,condition_id,token_id',
      );
      expect(rows[1]).toMatch(
        new RegExp(
          `^"?${question[OTHER]!.replace(/[?$]/g, '\\$&')}"?,Yes,5,0\\.4,[\\d.]+,[\\d.]+,-?[\\d.]+,-?[\\d.]+,0x[0-9a-f]{64},${yesOther}$`,
        ),
      );
    },
    SLOW,
  );
});
