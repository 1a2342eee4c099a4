// Liquidity rewards in headless Chromium on the whole sandbox: the grid's Rewards column and "Pays rewards"
// filter, the ticket saying whether a limit order would score, a maker's scoring and non-scoring orders in Open
// orders with the reason, and after the sandbox's payout the Rewards tab showing exactly what the chain paid.
import type { Page } from 'playwright-core';
import { Contract } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { sandboxProvider } from '../../sandbox/chain/index';
import { formatUsd } from '../../packages/toolkit/src/positions/resolution';
import {
  callTerminal,
  dismissNotices,
  importTestWallet,
  openTerminalPage,
  type TerminalPage,
} from '../helpers/terminal-page';
import { makerOrder, marketMaker } from '../helpers/trading-sandbox';

const MARKET = '90021'; // Bitcoin above $120k: pays $100 a day, 3.5¢, 50 shares
const WALLET = 'rewards-maker';
const PASSWORD = 'rewards correct horse battery';
const SLOW = 120_000;

let t: TerminalPage;
let page: Page;
let yes: string;
const placed: { near: string; far: string } = { near: '', far: '' };

const call = <T>(op: string, input: unknown): Promise<T> => callTerminal<T>(page, op, input);
const ticket = (testId: string) => page.getByTestId('order-ticket').getByTestId(testId);

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  const market = t.sandbox.catalog.market(MARKET)!;
  yes = market.tokens[0].tokenId;
  // The other side of the book, from another test wallet: a YES ask at 0.44 (a NO bid at 0.56, 100 shares, which
  // scores) and a YES bid at 0.41 (10 shares: too small). The midpoint is 0.425.
  const other = await marketMaker({
    sandbox: t.sandbox,
    profile: parseTradingProfile(t.sandbox.profile),
    stop: t.stop,
  });
  await makerOrder(other.client, { tokenId: market.tokens[1].tokenId, side: 'BUY', price: 0.56, size: 100 });
  await makerOrder(other.client, { tokenId: yes, side: 'BUY', price: 0.41, size: 10 });
  await importTestWallet(t, WALLET, PASSWORD);
  await page.goto(`${t.mode.host.launchUrl}&market=${MARKET}&outcome=${yes}`);
  await page.reload();
  await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('liquidity rewards in the terminal', () => {
  it('the grid shows each paying market’s daily rate and filters to the markets that pay', async () => {
    await page.getByTestId('column-chooser').click();
    await page.getByTestId('column-rewards').click();
    await page.keyboard.press('Escape');
    const cell = (id: string) =>
      page.$$eval(`[data-testid="markets-grid"] .ag-row[row-id="${id}"] [col-id="rewards"]`, (cells) =>
        cells.map((c) => c.textContent?.trim() ?? ''),
      );
    await expect.poll(() => cell(MARKET), { timeout: 30_000 }).toEqual(['$100.00/day']);
    expect(await cell('90031')).toEqual(['$10.50/day']);
    // A market that pays nothing shows a blank cell.
    expect(await cell('90051')).toEqual(['']);
    await page.getByTestId('filter-pays-rewards').check();
    const rowIds = () =>
      page.$$eval('[data-testid="markets-grid"] .ag-row[row-id]:not(.event-row)', (rows) =>
        [...new Set(rows.map((r) => r.getAttribute('row-id')))].sort(),
      );
    await expect.poll(rowIds).toEqual(['90012', '90021', '90031']);
    await page.getByTestId('filter-pays-rewards').uncheck();
  });

  it('the ticket says whether a limit order being entered would score, from the live book', async () => {
    await ticket('ticket-price').fill('40');
    await ticket('ticket-size').fill('60');
    await expect
      .poll(() => ticket('ticket-reward-scoring').innerText())
      .toBe('Would earn liquidity rewards while it rests.');
    await ticket('ticket-price').fill('30');
    await expect
      .poll(() => ticket('ticket-reward-scoring').innerText())
      .toBe('Would not earn liquidity rewards: too far from the midpoint.');
    await ticket('ticket-price').fill('40');
    await ticket('ticket-size').fill('20');
    await expect
      .poll(() => ticket('ticket-reward-scoring').innerText())
      .toBe('Would not earn liquidity rewards: too small.');
  });

  it(
    'Open orders shows the scoring order and the one too far from the midpoint, with the reason',
    async () => {
      const order = (price: number) =>
        call<{ orderId: string }>('placeOrder', {
          wallet: WALLET,
          marketId: MARKET,
          tokenId: yes,
          side: 'BUY',
          orderType: 'GTC',
          price,
          size: 60,
        });
      placed.near = (await order(0.4)).orderId;
      placed.far = (await order(0.3)).orderId;
      await dismissNotices(page);
      await page.getByTestId('account-tab-orders').click();
      const scoring = (id: string) => page.locator(`[data-order-id="${id}"] [data-testid="order-scoring"]`);
      await expect.poll(() => scoring(placed.near).innerText(), { timeout: 60_000 }).toBe('Scoring');
      await expect
        .poll(() => scoring(placed.far).innerText(), { timeout: 60_000 })
        .toBe('No — too far from the midpoint');
    },
    SLOW,
  );

  it(
    'after the payout the Rewards tab shows what the chain paid, to the cent',
    async () => {
      const provider = sandboxProvider(t.sandbox.profile.rpcUrl, t.sandbox.profile.chainId);
      try {
        const pusd = new Contract(
          t.sandbox.profile.contracts.collateral,
          ['function balanceOf(address) view returns (uint256)'],
          provider,
        );
        const funds = await call<{ account: string }>('getAccountFunds', { wallet: WALLET });
        const before = (await pusd.getFunction('balanceOf')(funds.account)) as bigint;
        const report = await t.sandbox.clob.payRewards();
        const mine = report.payments.filter((p) => p.maker.toLowerCase() === funds.account.toLowerCase());
        expect(mine).toHaveLength(1);
        // The split depends on how long each order rested (the sandbox samples the books every minute); what
        // counts here is that the terminal shows exactly what the chain paid.
        expect(mine[0]!.amount).toBeGreaterThan(0n);
        const after = (await pusd.getFunction('balanceOf')(funds.account)) as bigint;
        expect(after - before).toBe(mine[0]!.amount);

        await dismissNotices(page);
        await page.getByTestId('account-tab-rewards').click();
        await page.getByTestId('rewards-day').fill(report.day);
        await page.getByTestId('rewards-refresh').click();
        const total = page.getByTestId('reward-total');
        await expect.poll(() => total.getAttribute('data-units'), { timeout: 30_000 }).toBe(String(after - before));
        expect(await total.innerText()).toBe(`Total on ${report.day}: ${formatUsd(after - before)}`);
        expect(await page.getByTestId('reward-earned').allInnerTexts()).toEqual([formatUsd(after - before)]);
        // The Portfolio's rewards earned are the account's REWARD activity: the same payment, to the base unit.
        await page.getByTestId('account-tab-portfolio').click();
        await page.getByTestId('portfolio-refresh').click();
        await expect
          .poll(() => page.getByTestId('portfolio-total-rewards').getAttribute('data-units'), { timeout: 30_000 })
          .toBe(String(after - before));
      } finally {
        provider.destroy();
      }
    },
    SLOW,
  );
});
