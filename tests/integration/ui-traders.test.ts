// Other traders in headless Chromium on the whole sandbox (Polymarket's own APIs, the product's default source):
// the Traders tab's leaderboard ranks real trades made on the sandbox exchange and switches metric and period;
// following a trader from it keeps them (per network, in main) and their next trade appears in the tape of
// followed traders from the real-time feed; a market's Holders tab shows the test wallet's holding. Waits are
// on the page, never on time.
import { Wallet } from 'ethers';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTerminal, dismissNotices, openTerminalPage, type TerminalPage } from '../helpers/terminal-page';
import { limitOrder, postOrder, type ClobSandbox } from '../helpers/sandbox-clob';
import type { FollowedTraders } from '../../src/shared/contract';

const MARKET = '90021'; // Bitcoin above $120k: a 1¢ tick, a minimum of 5 shares
const EVENT = '9002';
const SLOW = 120_000;

let t: TerminalPage;
let page: Page;
let sb: ClobSandbox;
let taker: Wallet;
let maker: Wallet;
let yes: string;
let no: string;

/** Waits on the real clock (the chain mines for real) until the Data API lists `count` trades of the wallet. */
async function settled(wallet: Wallet, count: number): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    const rows = (await (await fetch(`${t.sandbox.profile.dataUrl}/trades?user=${wallet.address}`)).json()) as [];
    if (rows.length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${wallet.address}: fewer than ${count} settled trades`);
}

const board = () => page.getByTestId('leaderboard');
const row = (wallet: string) => page.locator(`[data-testid="leaderboard-row"][data-wallet="${wallet}"]`);

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  sb = { chain: t.sandbox.deployment, server: t.sandbox.clob } as unknown as ClobSandbox;
  const market = t.sandbox.catalog.market(MARKET)!;
  [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
  [taker, maker] = t.sandbox.profile.testWallets.map((w) => new Wallet(w.privateKey)) as [Wallet, Wallet];
  // The maker bids 0.60 for NO (a YES ask at 0.40); the taker buys 10 YES at 0.40 and holds them.
  await postOrder(sb, maker, limitOrder(no, 'BUY', 0.6, 100));
  await postOrder(sb, taker, limitOrder(yes, 'BUY', 0.4, 10));
  await settled(taker, 1);
}, SLOW);
afterAll(() => t?.stop());

describe('other traders in the terminal', () => {
  it(
    'ranks the traders by profit and by volume, over each period',
    async () => {
      await dismissNotices(page);
      await page.getByTestId('account-tab-traders').click();
      await board().locator('[data-testid="leaderboard-table"]').waitFor();
      expect(await board().getAttribute('data-by')).toBe('pnl');
      await row(taker.address).waitFor();

      await page.getByTestId('leaderboard-by-volume').click();
      await page.locator('[data-testid="leaderboard"][data-by="volume"] [data-testid="leaderboard-table"]').waitFor();
      // 10 shares at 0.40: $4.00 traded by the taker, to the cent.
      expect(await row(taker.address).getByTestId('leaderboard-volume').textContent()).toBe('$4.00');
      await page.getByTestId('leaderboard-period-all').click();
      await page.locator('[data-testid="leaderboard"][data-period="all"] [data-testid="leaderboard-table"]').waitFor();
      // The maker bought 10 NO at 0.60: $6.00.
      expect(await row(maker.address).getByTestId('leaderboard-volume').textContent()).toBe('$6.00');
      const ranks = await board().locator('[data-testid="leaderboard-row"] td:first-child').allTextContents();
      expect(ranks).toEqual(ranks.map((_, i) => String(i + 1)));
    },
    SLOW,
  );

  it(
    'follows a trader from the leaderboard and shows their next trade in the followed tape',
    async () => {
      await row(taker.address).getByTestId('follow-trader').click();
      await page.locator(`[data-testid="followed-trader"][data-wallet="${taker.address}"]`).waitFor();
      await page.locator('[data-testid="followed-traders"][data-mode="live"]').waitFor({ timeout: 30_000 });
      // Main keeps it for this network.
      const kept = await callTerminal<FollowedTraders>(page, 'listFollowedTraders', {});
      expect(kept.traders.map((x) => x.address)).toEqual([taker.address]);

      await postOrder(sb, taker, limitOrder(yes, 'BUY', 0.4, 7));
      // The 7-share trade, once (the feed and the catch-up read both see it); the trade before following is not new.
      const trade = page
        .locator(`[data-testid="followed-trade"][data-wallet="${taker.address}"]`)
        .filter({ has: page.locator('[data-testid="followed-trade-size"]', { hasText: /^7$/ }) });
      await trade.first().waitFor({ timeout: 30_000 });
      expect(await trade.count()).toBe(1);
      expect(await page.locator('[data-testid="followed-trade"]').count()).toBe(1);
      const cells = await trade.first().locator('td').allTextContents();
      expect(cells.slice(2)).toEqual(['Buy', 'Yes', t.sandbox.catalog.market(MARKET)!.question, '40.0¢', '7']);
      // Unfollowed: gone from the list and from main's.
      await page.getByTestId('unfollow').click();
      await page.locator('[data-testid="followed-traders"][data-mode="idle"]').waitFor();
      expect((await callTerminal<FollowedTraders>(page, 'listFollowedTraders', {})).traders).toEqual([]);

      // A leaderboard row opens the trader's profile, which follows them too.
      await row(maker.address).locator('button.link').click();
      await page.locator(`[data-testid="trader-lookup"][data-address="${maker.address}"]`).waitFor();
      await page.getByTestId('profile-header').getByTestId('follow-trader').click();
      await page
        .locator('[data-testid="profile-header"] [data-testid="follow-trader"][data-following="true"]')
        .waitFor();
      const following = await callTerminal<FollowedTraders>(page, 'listFollowedTraders', {});
      expect(following.traders.map((x) => x.address)).toEqual([maker.address]);
    },
    SLOW,
  );

  it(
    "shows the test wallet's holding in the market's Holders tab",
    async () => {
      await page.goto(`${t.mode.host.launchUrl}&market=${MARKET}&event=${EVENT}&outcome=${yes}`);
      await page.reload();
      await page.getByTestId('market-tab-holders').first().click();
      const holding = page.locator(`[data-testid="holder-row"][data-wallet="${taker.address}"]`);
      await holding.waitFor({ timeout: 30_000 });
      expect(await holding.getAttribute('data-outcome')).toBe('Yes');
      expect(await holding.getByTestId('holder-amount').textContent()).toBe('17');
      const makerRow = page.locator(`[data-testid="holder-row"][data-wallet="${maker.address}"]`);
      expect(await makerRow.getAttribute('data-outcome')).toBe('No');
    },
    SLOW,
  );
});
