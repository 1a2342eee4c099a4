// The Portfolio tab in headless Chromium on the whole sandbox: the trader buys 10 Yes at 40¢ and sells 5 at 50¢
// against a maker in a fee-charging market; the tab shows the sold part's realized PnL and the fees the exchange
// recorded for the two fills, to the cent; the period switch changes the chart; Export activity writes a CSV whose
// rows are the two trades with the exchange's amounts, fees and settlement transactions; a built book is kept a
// while and built again after an order or a money action; a sale of the rest shows the position Sold without a
// Refresh; any address's book in the trader profile.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTradingProfile } from '../../src/main/trading/profile';
import {
  callTerminal,
  dismissNotices,
  importTestWallet,
  openTerminalPage,
  type TerminalPage,
} from '../helpers/terminal-page';
import { makerOrder, marketMaker } from '../helpers/trading-sandbox';

const MARKET = '90041'; // Will a new frontier AI model be released before 2027? Taker fee 4 %·p(1−p), 1¢ tick
const WALLET = 'portfolio-trader';
const PASSWORD = 'portfolio correct horse battery';
const SLOW = 180_000;

interface Trade {
  tokenId: string;
  side: 'BUY' | 'SELL';
  size: number;
  price: number;
  fee?: number | null;
  txHash?: string | null;
  pending: boolean;
}

let t: TerminalPage;
let page: Page;
let yes: string;
let trades: Trade[];

const call = <T>(op: string, input: unknown): Promise<T> => callTerminal<T>(page, op, input);
const portfolio = () => page.getByTestId('portfolio');
const cents = (dollars: number) => Math.round(dollars * 100);
/** Asks again, half a second apart (at most a minute), until the sandbox has done what the setup waits for. */
async function settled(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`never happened: ${what}`);
}
/** One CSV line's fields (RFC 4180: quoted fields may hold commas and doubled quotes). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  const pattern = /("(?:[^"]|"")*"|[^,]*)(,|$)/g;
  for (const match of line.matchAll(pattern)) {
    const raw = match[1]!;
    fields.push(raw.startsWith('"') ? raw.slice(1, -1).replace(/""/g, '"') : raw);
    if (match[2] === '') break;
  }
  return fields;
}
/** "+$0.40" / "$0.14" / "−$1.00" → cents. */
const shownCents = (text: string) => {
  const value = Math.round(Number(text.replace(/[^\d.]/g, '')) * 100);
  return text.startsWith('−') ? -value : value;
};

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  const market = t.sandbox.catalog.market(MARKET)!;
  yes = market.tokens[0].tokenId;
  await importTestWallet(t, WALLET, PASSWORD);
  const maker = await marketMaker({
    sandbox: t.sandbox,
    profile: parseTradingProfile(t.sandbox.profile),
    stop: async () => {},
  });
  // A bid for 10 No at 60¢ is an ask for 10 Yes at 40¢: what the trader buys, all of it.
  expect(
    await makerOrder(maker.client, { tokenId: market.tokens[1].tokenId, side: 'BUY', price: 0.6, size: 10 }),
  ).toMatchObject({ success: true });
  const order = { wallet: WALLET, marketId: MARKET, tokenId: yes, orderType: 'GTC' };
  await call('placeOrder', { ...order, side: 'BUY', price: 0.4, size: 10 });
  // The sale waits for the bought shares to reach the chain, as a trader's would.
  await settled(
    async () =>
      ((await call<{ outcomes: Record<string, number> }>('getBalances', { wallet: WALLET, marketId: MARKET })).outcomes[
        yes
      ] ?? 0) >= 5,
    'the bought shares on the chain',
  );
  // Only then the maker bids 50¢ for Yes (with the No bid still there, its own two bids would have crossed).
  expect(await makerOrder(maker.client, { tokenId: yes, side: 'BUY', price: 0.5, size: 200 })).toMatchObject({
    success: true,
  });
  await call('placeOrder', { ...order, side: 'SELL', price: 0.5, size: 5 });
  // The exchange's own record of the two fills, settled: their fees and transactions are what the tab must show.
  await settled(async () => {
    trades = await call<Trade[]>('listTrades', { wallet: WALLET });
    return trades.filter((x) => x.tokenId === yes && !x.pending && x.txHash).length === 2;
  }, 'both fills settled');
  await page.reload();
  await dismissNotices(page);
  await page.getByTestId('account-tab-portfolio').click();
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('the Portfolio tab', () => {
  it(
    "shows the sold part's realized PnL and the recorded fees to the cent",
    async () => {
      const feeCents = cents(trades.reduce((sum, x) => sum + (x.fee ?? 0), 0));
      // 4 %·p(1−p) a share: 10 × 0.04 × 0.4 × 0.6 + 5 × 0.04 × 0.5 × 0.5 = $0.096 + $0.05.
      expect(feeCents).toBe(15);
      const row = portfolio().getByTestId('portfolio-open').locator(`tr[data-token="${yes}"]`);
      // The activity feed reads the exchange's trades: read again until both fills are in the book.
      await expect
        .poll(
          async () => {
            await portfolio().getByTestId('portfolio-refresh').click();
            await page.locator('[data-testid="portfolio"]:not([data-state="loading"])').waitFor();
            return (await row.count()) ? row.locator('td').nth(2).innerText() : null;
          },
          { timeout: 60_000, interval: 1_000 },
        )
        .toBe('5');
      // 5 shares sold at 50¢ that cost 40¢: +$0.50, fees apart.
      expect(await row.getByTestId('open-realized').innerText()).toBe('+$0.50');
      expect(await row.getByTestId('open-realized').getAttribute('data-units')).toBe('500000');
      expect(shownCents(await row.getByTestId('open-fees').innerText())).toBe(feeCents);
      expect(await portfolio().getByTestId('portfolio-total-realized').innerText()).toBe('+$0.50');
      expect(shownCents(await portfolio().getByTestId('portfolio-total-fees').innerText())).toBe(feeCents);
      expect(await portfolio().getByTestId('portfolio-total-rewards').innerText()).toBe('$0.00');
      // Polymarket's value of the held shares is the book's; every trade's fee was on record (no note says otherwise).
      expect(await portfolio().getByTestId('portfolio-reconciliation').innerText()).toBe(
        'These figures agree with Polymarket’s own.',
      );
      expect(await portfolio().getByTestId('portfolio-notes').count()).toBe(0);
      // Nothing closed whole: the closed list says so in words.
      expect(await portfolio().getByText('Nothing has closed yet').count()).toBe(1);
    },
    SLOW,
  );

  it(
    'changes the chart with the period',
    async () => {
      const chart = portfolio().getByTestId('pnl-chart');
      await expect.poll(() => chart.getAttribute('data-period')).toBe('all');
      const allFirst = Number(await chart.getAttribute('data-first'));
      await portfolio().getByTestId('portfolio-period-week').click();
      await expect.poll(() => chart.getAttribute('data-period'), { timeout: 30_000 }).toBe('week');
      expect(await portfolio().getByTestId('portfolio-period-week').getAttribute('aria-checked')).toBe('true');
      const weekFirst = Number(await chart.getAttribute('data-first'));
      // The week's chart starts a week back; everything's starts at the first trade, minutes ago.
      expect(allFirst - weekFirst).toBeGreaterThan(6 * 86_400_000);
      await portfolio().getByTestId('portfolio-period-day').click();
      await expect.poll(() => chart.getAttribute('data-period'), { timeout: 30_000 }).toBe('day');
      expect(Number(await chart.getAttribute('data-points'))).toBeGreaterThan(2);
    },
    SLOW,
  );

  it(
    "groups by event tag, the tags of the traded market's event on Gamma",
    async () => {
      await portfolio().getByTestId('portfolio-grouping').selectOption('tag');
      const groups = portfolio().getByTestId('portfolio-groups');
      // The AI market's event is tagged Tech and AI: the one market counts in each, with its realized PnL.
      await expect
        .poll(() => groups.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-group'))), {
          timeout: 30_000,
        })
        .toEqual(expect.arrayContaining(['Tech', 'AI']));
      expect(await groups.locator('tbody tr').count()).toBe(2);
      expect(await groups.locator('tr[data-group="AI"]').innerText()).toContain('+$0.50');
      await portfolio().getByTestId('portfolio-grouping').selectOption('market');
    },
    SLOW,
  );

  it(
    'exports the activity of a date range as a CSV whose rows are the two trades',
    async () => {
      await portfolio().getByTestId('portfolio-export').click();
      const dialog = page.getByTestId('export-activity-dialog');
      const today = new Date().toISOString().slice(0, 10);
      await dialog.getByTestId('export-from').fill(today);
      await dialog.getByTestId('export-to').fill(today);
      const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('export-run').click()]);
      await expect.poll(() => dialog.getByTestId('export-progress').getAttribute('data-state')).toBe('done');
      expect(await dialog.getByTestId('export-progress').innerText()).toContain('Saved 2 rows');
      const csv = await readFile((await download.path())!, 'utf8');
      // More than a year and a day is refused in words, in the dialog.
      await dialog.getByTestId('export-from').fill('2020-01-01');
      await dialog.getByTestId('export-run').click();
      await dialog.getByTestId('export-error').waitFor();
      expect(await dialog.getByTestId('export-error').innerText()).toBe(
        'The export failed: An export covers at most 367 days; export a longer stretch in parts.',
      );
      const [header, ...lines] = csv.trimEnd().split('\r\n');
      expect(header).toBe('Date (UTC),Type,Market,Outcome,Shares,Price,Amount (USD),Fee (USD),Transaction hash');
      const rows = lines.map(csvFields);
      const buy = trades.find((x) => x.tokenId === yes && x.side === 'BUY')!;
      const sell = trades.find((x) => x.tokenId === yes && x.side === 'SELL')!;
      const question = t.sandbox.catalog.market(MARKET)!.question;
      expect(
        rows.map(([, type, market, outcome, shares, price, amount, , tx]) => [
          type,
          market,
          outcome,
          shares,
          price,
          amount,
          tx,
        ]),
      ).toEqual([
        ['TRADE BUY', question, 'Yes', '10.000000', '0.4', '-4.000000', buy.txHash],
        ['TRADE SELL', question, 'Yes', '5.000000', '0.5', '2.500000', sell.txHash],
      ]);
      // Each row's fee is the exchange's record of that fill.
      expect(rows.map((r) => cents(Number(r[7])))).toEqual([cents(buy.fee!), cents(sell.fee!)]);

      // Beside it, Polymarket's own accounting snapshot of the account: the ZIP its Data API serves, saved as is.
      const [zipDownload] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByTestId('export-snapshot').click(),
      ]);
      await expect.poll(() => dialog.getByTestId('export-progress').getAttribute('data-state')).toBe('done');
      expect(zipDownload.suggestedFilename()).toMatch(/^polymarket-snapshot-[0-9a-f]{8}-\d{4}-\d{2}-\d{2}\.zip$/);
      const zip = await readFile((await zipDownload.path())!);
      expect([...zip.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
      expect(zip.includes('positions.csv')).toBe(true);
      const funds = await call<{ account: string }>('getAccountFunds', { wallet: WALLET });
      const served = await fetch(`${t.sandbox.profile.dataUrl}/v1/accounting/snapshot?user=${funds.account}`);
      expect(zip.length).toBe(Buffer.from(await served.arrayBuffer()).length);
    },
    SLOW,
  );

  it(
    'keeps a built book a while, and shows a whole sale as Sold without a Refresh',
    async () => {
      const exportDialog = page.getByTestId('export-activity-dialog');
      if (await exportDialog.count()) await exportDialog.getByRole('button', { name: 'Close (Esc)' }).click();
      // Read twice in a row: the second is the kept book (built at the same moment).
      const once = await call<{ asOf: number }>('getPortfolio', { wallet: WALLET, period: 'month' });
      const again = await call<{ asOf: number }>('getPortfolio', { wallet: WALLET, period: 'month' });
      expect(again.asOf).toBe(once.asOf);
      // An order placed (here one resting far below the book) changes the account: main builds the book again.
      const resting = await call<{ orderId: string }>('placeOrder', {
        wallet: WALLET,
        marketId: MARKET,
        tokenId: yes,
        orderType: 'GTC',
        side: 'BUY',
        price: 0.01,
        size: 5,
      });
      const after = await call<{ asOf: number }>('getPortfolio', { wallet: WALLET, period: 'month' });
      expect(after.asOf).toBeGreaterThan(once.asOf);
      await call('cancelOrder', { wallet: WALLET, orderId: resting.orderId });

      await call('placeOrder', {
        wallet: WALLET,
        marketId: MARKET,
        tokenId: yes,
        orderType: 'GTC',
        side: 'SELL',
        price: 0.5,
        size: 5,
      });
      // The fill reaches the page as an account event: the tab reads the book again by itself.
      const closed = portfolio().getByTestId('portfolio-closed').locator(`tr[data-token="${yes}"]`);
      await closed.waitFor({ timeout: 60_000 });
      expect(await closed.getByTestId('closed-how').innerText()).toBe('Sold');
      // 10 shares that cost $4.00 sold for $2.50 + $2.50.
      expect(await closed.getByTestId('closed-realized').innerText()).toBe('+$1.00');
      expect(await portfolio().getByTestId('portfolio-open').count()).toBe(0);
      await settled(async () => {
        trades = await call<Trade[]>('listTrades', { wallet: WALLET });
        return trades.filter((x) => x.tokenId === yes && !x.pending && x.txHash).length === 3;
      }, 'the third fill settled');
      const feeCents = cents(trades.reduce((sum, x) => sum + (x.fee ?? 0), 0));
      await portfolio().getByTestId('portfolio-refresh').click();
      await expect
        .poll(async () => shownCents(await closed.getByTestId('closed-fees').innerText()), { timeout: 30_000 })
        .toBe(feeCents);
      expect(await portfolio().getByTestId('portfolio-total-realized').innerText()).toBe('+$1.00');
    },
    SLOW,
  );

  it(
    "shows any address's book in the trader profile's Portfolio section",
    async () => {
      const account = await call<{ account: { address: string } }>('getWalletAccount', { wallet: WALLET });
      await dismissNotices(page);
      await page.getByTestId('account-tab-trader').click();
      await page.getByTestId('trader-address').fill(account.account.address);
      await page.getByTestId('profile-tab-portfolio').click();
      const closed = portfolio().getByTestId('portfolio-closed').locator(`tr[data-token="${yes}"]`);
      await closed.waitFor({ timeout: 60_000 });
      expect(await closed.getByTestId('closed-how').innerText()).toBe('Sold');
      expect(await portfolio().getByTestId('portfolio-total-realized').innerText()).toBe('+$1.00');
    },
    SLOW,
  );

  it(
    'builds the book again after a money action',
    async () => {
      // No Portfolio view is open (it would read the book again itself): this is main's own doing.
      await dismissNotices(page);
      await page.getByTestId('account-tab-positions').click();
      await page.getByTestId('portfolio').waitFor({ state: 'detached' });
      const before = await call<{ asOf: number }>('getPortfolio', { wallet: WALLET, period: 'all' });
      const kept = await call<{ asOf: number }>('getPortfolio', { wallet: WALLET, period: 'all' });
      expect(kept.asOf).toBe(before.asOf);
      // A split sent from the account is told with its transaction: the kept book goes.
      const done = await call<{ txHashes: string[] }>('runMoneyAction', {
        wallet: WALLET,
        action: 'split',
        marketId: MARKET,
        amount: '1',
        via: 'key',
      });
      expect(done.txHashes.length).toBeGreaterThan(0);
      const after = await call<{ asOf: number }>('getPortfolio', { wallet: WALLET, period: 'all' });
      expect(after.asOf).toBeGreaterThan(before.asOf);
    },
    SLOW,
  );
});
