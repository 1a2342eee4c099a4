// The order ticket and the account panel in headless Chromium, on the whole sandbox (real chain, CLOB,
// aggregator, signer): a market opened by its link, a resting limit BUY placed through the ticket and
// cancelled from Open orders, cancel-all by its key with a confirmation, a market BUY that fills against a
// maker's liquidity, the fill in Trades and the position in Positions, and CSV exports that download.
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

const MARKET = '90021'; // Bitcoin above $120k: a 1¢ tick, a minimum of 5 shares
const WALLET = 'ticket-trader';
const PASSWORD = 'ticket correct horse battery';
const SLOW = 120_000;

/** The few DOM members the page-side code uses (the Node typecheck has no DOM types). */
interface PageWindow {
  document: { querySelector(selector: string): { textContent: string | null } | null; activeElement: unknown };
}

let t: TerminalPage;
let page: Page;
let yes: string;
let no: string;

const call = <T>(op: string, input: unknown): Promise<T> => callTerminal<T>(page, op, input);

const ticket = (testId: string) => page.getByTestId('order-ticket').getByTestId(testId);

const dismissNotices = (): Promise<void> => dismissPageNotices(page);

async function openTab(name: 'positions' | 'orders' | 'trades' | 'balances' | 'trader'): Promise<void> {
  await dismissNotices();
  await page.getByTestId(`account-tab-${name}`).click();
}

/** What the last confirmation said of the order once main answered: made ready ('yes') or not ('no'). */
let lastReady: string | null = null;

async function placeThroughTicket(fill: () => Promise<void>): Promise<string> {
  await fill();
  await expect.poll(() => ticket('ticket-submit').isEnabled()).toBe(true);
  await ticket('ticket-submit').click();
  const dialog = page.getByTestId('ticket-confirm-dialog');
  await dialog.waitFor();
  const shown = await dialog.innerText();
  // While the trader reads, main makes a limit order ready (checked and signed, not sent).
  await page.locator('[data-testid="ticket-confirm-dialog"]:not([data-order-ready="pending"])').waitFor();
  lastReady = await dialog.getAttribute('data-order-ready');
  await page.getByTestId('ticket-confirm').click();
  await dialog.waitFor({ state: 'detached' });
  // The first order of a wallet may send approvals first: the answer can take a while.
  await page.waitForFunction(
    () => {
      const doc = (globalThis as unknown as PageWindow).document;
      const text = doc.querySelector('[data-testid="ticket-result"]')?.textContent ?? '';
      return text !== '' && !text.startsWith('Sending');
    },
    undefined,
    { timeout: 90_000 },
  );
  return shown;
}

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  const market = t.sandbox.catalog.market(MARKET)!;
  [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
  await importTestWallet(t, WALLET, PASSWORD);
  // The "open this market" link; a fragment change alone does not reload, so the page is reloaded on it.
  await page.goto(`${t.mode.host.launchUrl}&market=${MARKET}&outcome=${yes}`);
  await page.reload();
  await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('the order ticket and the account panel', () => {
  it('opens on the linked market and outcome, and says why Submit is disabled', async () => {
    await expect
      .poll(() => page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).getAttribute('aria-pressed'))
      .toBe('true');
    expect(await ticket('ticket-submit').isDisabled()).toBe(true);
    expect(await ticket('ticket-submit').getAttribute('title')).toBe('Type a limit price in cents.');
    await ticket('ticket-price').fill('5');
    await ticket('ticket-size').fill('3');
    await expect
      .poll(() => ticket('ticket-submit').getAttribute('title'))
      .toBe("This market's minimum order is 5 shares; this is 3.");
    await ticket('ticket-size').fill('5');
    await expect.poll(() => ticket('ticket-submit').isEnabled()).toBe(true);
    // 5 shares at 5¢ before sending: from main's preview, or the ticket's own estimate while main has none.
    expect(await ticket('ticket-cost').innerText()).toBe('$0.25');
    expect(await ticket('ticket-payout').innerText()).toBe('$5.00');
    await expect
      .poll(async () => `${await ticket('ticket-summary').innerText()} ${await ticket('ticket-problems').innerText()}`)
      .toMatch(/From main’s preview|Pre-trade checks run when you submit/);
  });

  it('an off-tick price is refused with the two nearest valid prices, and changes only when one is chosen', async () => {
    await ticket('ticket-size').fill('5');
    for (const typed of ['0.5', '1.5']) {
      await ticket('ticket-price').fill(typed);
      await ticket('ticket-size').focus();
      await expect
        .poll(() => ticket('ticket-submit').getAttribute('title'))
        .toBe(`${typed}¢ is not on this market's 1¢ tick: choose 1¢ or 2¢.`);
      expect(await ticket('ticket-price-choice').allInnerTexts()).toEqual(['1¢', '2¢']);
      // Leaving the field changes nothing: the trader's price stays until a valid one is picked.
      expect(await ticket('ticket-price').inputValue()).toBe(typed);
      expect(await ticket('ticket-submit').isDisabled()).toBe(true);
    }
    await ticket('ticket-price-choice').filter({ hasText: '2¢' }).click();
    expect(await ticket('ticket-price').inputValue()).toBe('2');
    await expect.poll(() => ticket('ticket-submit').isEnabled()).toBe(true);
    expect(await ticket('ticket-price-choices').count()).toBe(0);
  });

  it('0¢ and 100¢ are refused with the prices this market takes', async () => {
    for (const typed of ['0', '100']) {
      await ticket('ticket-price').fill(typed);
      await expect
        .poll(() => ticket('ticket-submit').getAttribute('title'))
        .toBe(`${typed}¢ is not a price this market takes: choose from 1¢ to 99¢.`);
      expect(await ticket('ticket-price-choices').count()).toBe(0);
    }
  });

  it('Post-only is shown for limit orders only', async () => {
    await ticket('ticket-kind-market').click();
    expect(await ticket('ticket-post-only').count()).toBe(0);
    await ticket('ticket-kind-limit').click();
    await ticket('ticket-post-only').waitFor();
  });

  it('quick amounts: +$10 and +$100 add dollars, 25 %, 50 % and Max take part of what is available; To win with the gain', async () => {
    await ticket('ticket-side-buy').click();
    await ticket('ticket-price').fill('5');
    await ticket('ticket-size').fill('');
    await ticket('ticket-quick-10').click();
    expect(await ticket('ticket-size').inputValue()).toBe('10');
    expect(await ticket('ticket-size-unit').inputValue()).toBe('usd');
    await ticket('ticket-quick-100').click();
    expect(await ticket('ticket-size').inputValue()).toBe('110');
    // $110 at 5¢ is 2,200 shares paying $2,200 if Yes wins: +1,900 %.
    await expect.poll(() => ticket('ticket-to-win').innerText()).toBe('$2,200.00 (+1,900 %)');
    const available = Number(
      (await ticket('ticket-available').innerText()).match(/^Available \$([\d,.]+)/)![1]!.replace(/,/g, ''),
    );
    expect(available).toBeGreaterThan(110);
    await ticket('ticket-quick-max').click();
    expect(Number(await ticket('ticket-size').inputValue())).toBe(available);
    await ticket('ticket-quick-50').click();
    expect(Number(await ticket('ticket-size').inputValue())).toBe(Math.floor(available * 50) / 100);
    await ticket('ticket-quick-25').click();
    expect(Number(await ticket('ticket-size').inputValue())).toBe(Math.floor(available * 25) / 100);
    await ticket('ticket-size-unit').selectOption('shares');
    await ticket('ticket-size').fill('5');
    await expect.poll(() => ticket('ticket-to-win').innerText()).toBe('$5.00 (+1,900 %)');
  });

  it('a buy the balance cannot pay is refused once, in dollars written like the rest of the screen', async () => {
    await ticket('ticket-price').fill('99');
    await ticket('ticket-size').fill('100000000');
    const problems = ticket('ticket-problems');
    await expect
      .poll(() => problems.innerText(), { timeout: 20_000 })
      .toMatch(/^This buy needs \$99,000,000\.00 but the wallet holds \$[\d,]+\.\d\d: deposit more or buy less\./);
    const sentence = (await problems.innerText()).split('\n')[0]!;
    expect(await ticket('ticket-submit').getAttribute('title')).toBe(sentence);
    // Once in the ticket: not again under the button.
    const all = await page.getByTestId('order-ticket').innerText();
    expect(all.split(sentence).length - 1).toBe(1);
    expect(await ticket('ticket-why-not').count()).toBe(0);
    await ticket('ticket-size').fill('5');
    await expect.poll(() => ticket('ticket-submit').isEnabled()).toBe(true);
  });

  it('a locked wallet disables Submit and says so; unlocking enables it again', async () => {
    await call('lockWallet', { label: WALLET });
    await expect.poll(() => ticket('ticket-submit').getAttribute('title')).toBe(`Unlock ${WALLET} to trade.`);
    expect(await ticket('ticket-submit').isDisabled()).toBe(true);
    // Main's preview of the same order while locked says so; unlocking checks it again (no stale refusal).
    await expect.poll(() => ticket('ticket-problems').innerText(), { timeout: 20_000 }).toMatch(/is locked/);
    await call('unlockWallet', { label: WALLET, password: PASSWORD });
    await expect.poll(() => ticket('ticket-submit').isEnabled()).toBe(true);
  });

  it('b and s pick and focus the side from anywhere; Esc closes the confirmation without sending', async () => {
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('s');
    expect(await ticket('ticket-side-sell').getAttribute('aria-pressed')).toBe('true');
    expect(
      await ticket('ticket-side-sell').evaluate(
        (el) => el === (globalThis as unknown as PageWindow).document.activeElement,
      ),
    ).toBe(true);
    await page.keyboard.press('b');
    expect(await ticket('ticket-side-buy').getAttribute('aria-pressed')).toBe('true');
    await ticket('ticket-size').fill('10');
    await ticket('ticket-submit').click();
    await page.getByTestId('ticket-confirm-dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('ticket-confirm-dialog').waitFor({ state: 'detached' });
    expect(await call<unknown[]>('listOpenOrders', { wallet: WALLET })).toEqual([]);
  });

  let restingId: string;
  it(
    'places a resting limit BUY through the ticket, after a confirmation with the exact amounts',
    async () => {
      const shown = await placeThroughTicket(async () => {
        await ticket('ticket-side-buy').click();
        // 5.4¢ is off the 1¢ tick: the trader picks 5¢ from the two offered.
        await ticket('ticket-price').fill('5.4');
        await ticket('ticket-size').fill('10');
        await ticket('ticket-price-choice').filter({ hasText: /^5¢$/ }).click();
        expect(await ticket('ticket-price').inputValue()).toBe('5');
      });
      expect(shown).toMatch(/BUY\s+Yes/);
      expect(shown).toContain('5¢');
      expect(shown).toContain('$0.50'); // 10 shares at 5¢
      expect(shown).toContain('$10.00'); // paid out if Yes wins
      expect(await ticket('ticket-result').innerText()).toMatch(/BUY order placed: LIVE/i);
      // Made ready while the confirmation was open, then posted as made by Confirm.
      expect(lastReady).toBe('yes');

      const open = await call<{ orderId: string; price: number; originalSize: number }[]>('listOpenOrders', {
        wallet: WALLET,
      });
      expect(open).toHaveLength(1);
      expect(open[0]).toMatchObject({ price: 0.05, originalSize: 10 });
      restingId = open[0]!.orderId;

      // Available is the balance less the $0.50 this order holds.
      await expect
        .poll(() => ticket('ticket-available').innerText())
        .toMatch(/^Available \$[\d,]+\.\d\d \(\$0\.50 held by open orders\)$/);
      const { collateral } = await call<{ collateral: number }>('getBalances', { wallet: WALLET });
      const shownAvailable = (await ticket('ticket-available').innerText()).match(/^Available (\$[\d,.]+)/)![1];
      expect(shownAvailable).toBe(
        `$${(Math.round(collateral * 100 - 50) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
      );

      // The result speaks of that order: editing the next one clears it.
      await ticket('ticket-size').fill('11');
      expect(await ticket('ticket-result').count()).toBe(0);

      await openTab('orders');
      const row = page.getByTestId('open-orders').locator(`tr[data-order-id="${restingId}"]`);
      await row.waitFor();
      expect(await row.innerText()).toMatch(/Yes[\s\S]*BUY[\s\S]*5¢[\s\S]*10/);
    },
    SLOW,
  );

  it(
    'cancels it from Open orders',
    async () => {
      const row = page.getByTestId('open-orders').locator(`tr[data-order-id="${restingId}"]`);
      await dismissNotices();
      await row.getByTestId('cancel-order').click();
      await row.waitFor({ state: 'detached' });
      expect(await call<unknown[]>('listOpenOrders', { wallet: WALLET })).toEqual([]);
      await page.getByTestId('open-orders').getByText('No open orders.').waitFor();
    },
    SLOW,
  );

  it(
    'cancels all by the cancel-all key, only after the confirmation',
    async () => {
      await placeThroughTicket(async () => {
        await ticket('ticket-price').fill('6');
        await ticket('ticket-size').fill('5');
      });
      await page.getByTestId('open-orders').locator('tr[data-order-id]').waitFor();
      await page.locator('body').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('Shift+X');
      const dialog = page.getByTestId('cancel-all-dialog');
      await dialog.waitFor();
      expect(await dialog.innerText()).toContain('One open order');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await call<unknown[]>('listOpenOrders', { wallet: WALLET })).toHaveLength(1);
      await page.keyboard.press('Shift+X');
      await page.getByTestId('confirm-cancel-all').click();
      await page.getByTestId('open-orders').getByText('No open orders.').waitFor();
      expect(await call<unknown[]>('listOpenOrders', { wallet: WALLET })).toEqual([]);
    },
    SLOW,
  );

  it(
    'rests a GTD order until its expiry, and cancels it with the market’s other orders',
    async () => {
      const at = new Date(Date.now() + 2 * 86_400_000);
      const pad = (n: number) => String(n).padStart(2, '0');
      const local = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
      const shown = await placeThroughTicket(async () => {
        await ticket('ticket-price').fill('7');
        await ticket('ticket-size').fill('5');
        await ticket('ticket-order-type').selectOption('GTD');
        await ticket('ticket-expiry').fill(local);
      });
      expect(shown).toContain('limit GTD');
      expect(lastReady).toBe('yes');
      expect(shown).toContain('Expires');
      const open = await call<{ orderType: string; price: number }[]>('listOpenOrders', { wallet: WALLET });
      expect(open).toMatchObject([{ orderType: 'GTD', price: 0.07 }]);
      await page.getByTestId('open-orders').locator('tr[data-order-id]').waitFor();
      expect(await page.getByTestId('open-orders').locator('tr[data-order-id]').innerText()).toContain('GTD');
      // Its expiry in the row: the day and the minute chosen in the ticket (the exchange keeps it as signed).
      const expires = page.getByTestId('open-orders').locator('tr[data-order-id] [data-testid="order-expires"]');
      expect(await expires.innerText()).toBe(
        `${at.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })}, ${pad(at.getHours())}:${pad(at.getMinutes())}`,
      );
      await dismissNotices();
      await page.getByTestId('cancel-market').click();
      await page.getByTestId('open-orders').getByText('No open orders.').waitFor();
      expect(await call<unknown[]>('listOpenOrders', { wallet: WALLET })).toEqual([]);
      await ticket('ticket-order-type').selectOption('GTC');
    },
    SLOW,
  );

  it(
    'buys at market against resting liquidity; the fill shows in Trades and the position in Positions',
    async () => {
      // A maker's bid for No at 60¢ is an ask for Yes at 40¢.
      const maker = await marketMaker({
        sandbox: t.sandbox,
        profile: parseTradingProfile(t.sandbox.profile),
        stop: async () => {},
      });
      expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.6, size: 200 })).toMatchObject({
        success: true,
        status: 'live',
      });

      const shown = await placeThroughTicket(async () => {
        await ticket('ticket-kind-market').click();
        // The trader's own max price: the maker's ask, no slippage (the exchange fills a market buy's shares at its price).
        await ticket('ticket-price').fill('40');
        await ticket('ticket-size-unit').selectOption('usd');
        await ticket('ticket-size').fill('4');
        expect(await ticket('ticket-order-type').inputValue()).toBe('FOK');
      });
      expect(shown).toContain('market order (FOK)');
      expect(shown).toMatch(/Max price\s+40¢/);
      expect(shown).toMatch(/You spend\s+at most \$4\.00/);
      expect(shown).toMatch(/You get\s+at least 10 shares/);
      // Made ready at the trader's max price, which the live book still fills at the click.
      expect(lastReady).toBe('yes');
      expect(await ticket('ticket-result').innerText()).toMatch(/BUY order filled: MATCHED/i);

      await openTab('trades');
      const trade = page.getByTestId('trades').locator('tr[data-trade-id]');
      await trade.first().waitFor({ timeout: 30_000 });
      expect(await trade.count()).toBe(1);
      expect(await trade.first().innerText()).toMatch(/Yes[\s\S]*BUY[\s\S]*40¢[\s\S]*10/);
      // Pending until the exchange says CONFIRMED, then confirmed.
      await page.getByTestId('trades').locator('[data-status="confirmed"]').waitFor({ timeout: 60_000 });

      await openTab('positions');
      const position = page.getByTestId('positions').locator('tr[data-position]');
      await position.first().waitFor({ timeout: 60_000 });
      const text = await position.first().innerText();
      expect(text).toContain('Bitcoin above $120k on December 31, 2026?');
      expect(text).toMatch(/Yes\s+10\s+40¢/);

      await openTab('balances');
      await page.getByTestId('collateral').waitFor();
      expect(await page.getByTestId('collateral').innerText()).toMatch(/^\$[\d,]+\.\d\d$/);
      await expect.poll(() => page.getByTestId('balances').innerText()).toMatch(/Yes[\s\S]*10 shares/);
    },
    SLOW,
  );

  it(
    'a market SELL with no bid to sell into: the ticket says so before Review, and a typed min price is refused in the confirmation',
    async () => {
      await ticket('ticket-side-sell').click();
      await ticket('ticket-price').fill('');
      await ticket('ticket-size-unit').selectOption('shares');
      await ticket('ticket-size').fill('5');
      await expect
        .poll(() => ticket('ticket-size').locator('xpath=../..').innerText())
        .toContain('You hold 10 Yes shares');
      // No bid, no min price to default to: nothing to review.
      await expect
        .poll(() => ticket('ticket-submit').getAttribute('title'))
        .toBe(
          'The book has no bids: a market sell has nothing to fill against. Type a min price, or place a limit order.',
        );
      expect(await ticket('ticket-submit').isDisabled()).toBe(true);
      await ticket('ticket-price').fill('10');
      await expect.poll(() => ticket('ticket-submit').isEnabled()).toBe(true);
      await ticket('ticket-submit').click();
      const dialog = page.getByTestId('ticket-confirm-dialog');
      await expect
        .poll(() =>
          dialog
            .getByTestId('confirm-problems')
            .innerText()
            .catch(() => ''),
        )
        .toMatch(/The book has no bids at 10¢ or better for "Yes"/);
      expect(await page.getByTestId('ticket-confirm').isDisabled()).toBe(true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await ticket('ticket-price').fill('');
      expect(await call<{ size: number }[]>('getPositions', { wallet: WALLET })).toMatchObject([{ size: 10 }]);
    },
    SLOW,
  );

  it(
    'a post-only BUY that would take the best ask is refused before Review, in the trader’s words',
    async () => {
      await ticket('ticket-side-buy').click();
      await ticket('ticket-kind-limit').click();
      await ticket('ticket-size-unit').selectOption('shares');
      // The maker's bid for No at 60¢ is an ask for Yes at 40¢: a post-only bid at 45¢ would take it.
      await ticket('ticket-price').fill('45');
      await ticket('ticket-size').fill('5');
      await ticket('ticket-post-only').check();
      try {
        const sentence =
          'Post-only: this buy at 45¢ would take the best ask (40¢) — lower the price or turn post-only off.';
        await expect.poll(() => ticket('ticket-submit').getAttribute('title')).toBe(sentence);
        expect(await ticket('ticket-submit').isDisabled()).toBe(true);
        expect(await ticket('ticket-why-not').innerText()).toBe(sentence);
        // Under the best ask it rests: Review is open again.
        await ticket('ticket-price').fill('39');
        await expect.poll(() => ticket('ticket-submit').isEnabled()).toBe(true);
        expect(await call<unknown[]>('listOpenOrders', { wallet: WALLET })).toEqual([]);
      } finally {
        await ticket('ticket-post-only').uncheck();
      }
    },
    SLOW,
  );

  it(
    'exports positions and trades as CSV downloads with a header row',
    async () => {
      await openTab('positions');
      await dismissNotices();
      const [positions] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('export-positions').click(),
      ]);
      expect(positions.suggestedFilename()).toMatch(/^positions-.*\.csv$/);
      const positionLines = (await readFile((await positions.path())!, 'utf8')).split('\r\n');
      expect(positionLines[0]).toBe(
        'market,outcome,size,average_price,current_price,value,pnl_usd,pnl_percent,condition_id,token_id',
      );
      expect(positionLines[1]).toMatch(/^"Bitcoin above \$120k on December 31, 2026\?",Yes,10,0\.4,/);

      await openTab('trades');
      await dismissNotices();
      const [trades] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-trades').click()]);
      const tradeLines = (await readFile((await trades.path())!, 'utf8')).split('\r\n');
      expect(tradeLines[0]).toBe(
        'time_utc,market,outcome,side,price,size,fee_usd,status,tx_hash,trade_id,condition_id,token_id',
      );
      expect(tradeLines[1]).toMatch(
        new RegExp(
          `^[^,]+,"Bitcoin above \\$120k on December 31, 2026\\?",Yes,BUY,0\\.4,10,0,CONFIRMED,0x[0-9a-f]{64},[^,]+,0x[0-9a-f]{64},${yes}$`,
        ),
      );
    },
    SLOW,
  );

  it(
    'looks up a trader’s positions by address',
    async () => {
      await openTab('trader');
      const address = t.sandbox.profile.testWallets[0]!.address;
      expect(await page.getByTestId('trader-lookup-submit').getAttribute('title')).toBe('Type an address.');
      await page.getByTestId('trader-address').fill(address);
      await dismissNotices();
      await page.getByTestId('trader-lookup-submit').click();
      await page.getByTestId('trader-lookup').locator('tr[data-position]').first().waitFor();
      expect(await page.getByTestId('trader-lookup').innerText()).toMatch(/Yes\s+10/);
    },
    SLOW,
  );

  it(
    'a new market starts a fresh ticket: side, size, kind and price do not carry over',
    async () => {
      await ticket('ticket-side-sell').click();
      await ticket('ticket-kind-market').click();
      await ticket('ticket-size').fill('7');
      await dismissNotices();
      await page.locator('[data-testid="markets-grid"] .ag-row[row-id="90041"]').first().click();
      await expect.poll(() => ticket('ticket-side-buy').getAttribute('aria-pressed')).toBe('true');
      expect(await ticket('ticket-kind-limit').getAttribute('aria-selected')).toBe('true');
      expect(await ticket('ticket-size').inputValue()).toBe('');
      expect(await ticket('ticket-price').inputValue()).toBe('');
      expect(await ticket('ticket-order-type').inputValue()).toBe('GTC');
    },
    SLOW,
  );

  it(
    'shows the taker fee the exchange will take and its terms on a fee market (90041), from main’s preview',
    async () => {
      const fee = t.sandbox.catalog.market('90041')!;
      const maker = await marketMaker({
        sandbox: t.sandbox,
        profile: parseTradingProfile(t.sandbox.profile),
        stop: async () => {},
      });
      // A bid for No at 0.50 is an ask for Yes at 0.50: a limit BUY at 50¢ takes it.
      expect(
        await makerOrder(maker.client, { tokenId: fee.tokens[1].tokenId, side: 'BUY', price: 0.5, size: 50 }),
      ).toMatchObject({ success: true });
      await page.goto(`${t.mode.host.launchUrl}&market=90041&outcome=${fee.tokens[0].tokenId}`);
      await page.reload();
      await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
      await ticket('ticket-side-buy').click();
      await ticket('ticket-price').fill('50');
      await ticket('ticket-size').fill('10');
      // 10 shares × 0.04 × 0.5 × 0.5, taken from the book as a taker.
      await expect
        .poll(() => ticket('ticket-fees').innerText(), { timeout: 20_000 })
        .toBe('$0.10 (taker fee 4 %·p(1−p))');
      // At 30¢ the order only rests: a maker pays nothing on a taker-only market.
      await ticket('ticket-price').fill('30');
      await ticket('ticket-size').click();
      await expect
        .poll(() => ticket('ticket-fees').innerText(), { timeout: 20_000 })
        .toBe('$0.00 (taker fee 4 %·p(1−p))');
    },
    SLOW,
  );
});
