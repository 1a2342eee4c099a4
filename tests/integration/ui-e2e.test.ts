// A trader's whole session, end to end, in headless Chromium on browser mode and the local sandbox with its
// bots trading: import a wallet, unlock it, search, open a market, watch the book move, place a limit order, see
// it in open orders and on the ladder, cancel it, buy at market, see the fill in trades and the position, lock
// the wallet. Every frame the page receives from main is kept and scanned for secrets at the end.
// The same session runs twice, each on its own sandbox: markets read from Polymarket directly (Gamma, Data API,
// CLOB, real-time feed: the product's default) and from the aggregator. The market is found by what the page
// shows (its question in the grid), never by an id one source happens to use.
// With PMDESK_SCREENSHOTS_DIR set (`npm run screenshots`), the main screens of the Polymarket session are saved
// there for the README, each at 1280×800, 1600×1000 and 1920×1080.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxSource } from '../../sandbox/index';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { findSecrets } from '../helpers/contract-examples';
import { openTerminalPage, testWalletKey, type TerminalPage } from '../helpers/terminal-page';
import { makerOrder, marketMaker } from '../helpers/trading-sandbox';

/** The market the trader looks for: a 1¢ tick, a minimum of 5 shares. */
const QUESTION = 'Bitcoin above $120k on December 31, 2026?';
const WALLET = 'desk';
const PASSWORD = 'e2e correct horse battery staple';
/** For the session's start and each step that waits on the exchange (its polls wait up to 90 s on a busy machine). */
const SLOW = 120_000;
const SCREENSHOTS = process.env.PMDESK_SCREENSHOTS_DIR;
/** The session's window; the screenshots are also taken at a small laptop's and a full-HD monitor's size. */
const VIEWPORT = { width: 1600, height: 1000 };
const SCREENSHOT_SIZES = [{ width: 1280, height: 800 }, VIEWPORT, { width: 1920, height: 1080 }];

describe.each<SandboxSource>(['polymarket', 'aggregator'])(
  'a trader’s session in the terminal, markets from %s',
  (source) => {
    let t: TerminalPage;
    let page: Page;
    /** Every text frame the page received over the bridge. */
    const frames: string[] = [];
    const sentFrames: string[] = [];
    /** The market's id as the grid keys its row (read from the page once the search finds it). */
    let marketId = '';
    const shots = source === 'polymarket' ? SCREENSHOTS : undefined;

    const byId = (id: string) => page.getByTestId(id);
    const ticket = (id: string) => byId('order-ticket').getByTestId(id);

    /** Each screen at the window sizes traders use, named by size (`terminal-dark-1280x800.png`); the session's own size last. */
    async function screenshot(name: string): Promise<void> {
      if (!shots) return;
      await mkdir(shots, { recursive: true });
      for (const size of [...SCREENSHOT_SIZES.filter((s) => s.width !== VIEWPORT.width), VIEWPORT]) {
        await page.setViewportSize(size);
        // Let the layout settle and the last frame paint (the chart refits and draws on the next animation frame).
        await page.waitForTimeout(600);
        await page.screenshot({ path: join(shots, `${name}-${size.width}x${size.height}.png`) });
      }
    }

    async function dismissNotices(): Promise<void> {
      const dismiss = byId('notices').getByRole('button', { name: 'Dismiss' });
      while ((await dismiss.count()) > 0) await dismiss.first().click();
    }

    async function openWalletMenu(): Promise<void> {
      if ((await byId('wallet-dropdown').count()) === 0) await byId('wallet-current').click();
      await byId('wallet-dropdown').waitFor();
    }

    /** Fills the ticket, submits, confirms in the dialog, and waits for main's answer in the ticket. */
    async function placeThroughTicket(fill: () => Promise<void>, shot?: string): Promise<string> {
      await fill();
      await expect.poll(() => ticket('ticket-submit').isEnabled(), { timeout: 15_000 }).toBe(true);
      await ticket('ticket-submit').click();
      const dialog = byId('ticket-confirm-dialog');
      await dialog.waitFor();
      if (shot) await screenshot(shot);
      await byId('ticket-confirm').click();
      await dialog.waitFor({ state: 'detached' });
      await expect
        .poll(
          async () => {
            const text = (await ticket('ticket-result').textContent()) ?? '';
            return text !== '' && !text.startsWith('Sending');
          },
          { timeout: 90_000 },
        )
        .toBe(true);
      return (await ticket('ticket-result').innerText()).trim();
    }

    async function openAccountTab(name: 'positions' | 'orders' | 'trades'): Promise<void> {
      await dismissNotices();
      await byId(`account-tab-${name}`).click();
    }

    /** The ladder's rows as `side price size`, top to bottom. */
    const ladderRows = () =>
      byId('order-book')
        .locator('.ladder-row')
        .evaluateAll((rows) =>
          rows.map((r) => (r as unknown as { innerText: string }).innerText.replace(/\s+/g, ' ')).join('|'),
        );

    beforeAll(async () => {
      t = await openTerminalPage({
        source,
        simulate: 'run',
        simIntervalMs: 700,
        viewport: VIEWPORT,
        setupPage: (p) =>
          p.on('websocket', (socket) => {
            socket.on('framereceived', (frame) => typeof frame.payload === 'string' && frames.push(frame.payload));
            socket.on('framesent', (frame) => typeof frame.payload === 'string' && sentFrames.push(frame.payload));
          }),
      });
      page = t.page;
      await byId('network-badge').locator('.tag').getByText('SANDBOX').waitFor();
    }, SLOW);

    afterAll(async () => {
      await t?.stop();
    });

    it('shows the network, its market source, the feeds and the markets from the first screen', async () => {
      expect(await byId('network-badge').innerText()).toMatch(/sandbox[\s\S]*chain 31338[\s\S]*SANDBOX/);
      expect(await byId('network-source').innerText()).toBe(source === 'polymarket' ? 'Polymarket' : 'aggregator');
      await byId('feed-status').waitFor();
      await page.locator('[data-testid="markets-grid"] .ag-row').first().waitFor({ timeout: 30_000 });
    });

    it(
      'imports a wallet and unlocks it',
      async () => {
        await openWalletMenu();
        await byId('wallet-import').click();
        await byId('import-tab-privateKey').click();
        await byId('wallet-label-input').fill(WALLET);
        await byId('import-private-key').fill(testWalletKey(t.sandbox));
        await byId('password-input').fill(PASSWORD);
        await byId('password-repeat-input').fill(PASSWORD);
        await byId('import-submit').click();
        await byId('import-dialog').waitFor({ state: 'detached' });
        await expect.poll(() => byId('wallet-label').textContent()).toBe(WALLET);

        await byId('wallet-unlock').click();
        await byId('password-input').fill(PASSWORD);
        await byId('unlock-submit').click();
        await byId('unlock-dialog').waitFor({ state: 'detached' });
        await expect.poll(() => byId('wallet-state').textContent()).toBe('Unlocked');
        // Unlocked, the wallet gets its exchange credentials and the account follows the exchange's user channel.
        await expect.poll(() => page.locator('.account-status').innerText(), { timeout: 30_000 }).toMatch(/· live$/);
      },
      SLOW,
    );

    it(
      'searches, opens the market and watches its book move',
      async () => {
        await page.locator('.top-bar .brand').click();
        await page.keyboard.press('/');
        await page.keyboard.type('bitcoin', { delay: 20 });
        const found = page.locator('[data-testid="markets-grid"] .ag-row').filter({ hasText: QUESTION });
        await found.first().waitFor({ timeout: 15_000 });
        marketId = (await found.first().getAttribute('row-id'))!;
        expect(marketId).toBeTruthy();
        await found.first().locator('[col-id="title"]').click();
        await byId('order-book').locator('.ladder-row').first().waitFor({ timeout: 30_000 });
        await byId('price-chart').locator('canvas').first().waitFor();
        await byId('trade-tape').waitFor();

        // The sandbox's bots quote and trade: the ladder changes while we watch.
        const before = await ladderRows();
        await expect.poll(ladderRows, { timeout: 60_000, interval: 250 }).not.toBe(before);
        await expect.poll(() => byId('feed-status').getAttribute('data-state')).toBe('open');
        await screenshot('terminal-dark');
      },
      SLOW,
    );

    it('fills the ticket from the ladder: a click on a bid is a SELL at that price, on an ask a BUY', async () => {
      // Rows are keyed by side and price, so a handle keeps its price while the bots move the rest of the book.
      const clickRow = async (side: 'bid' | 'ask'): Promise<number> => {
        const row = (await byId('order-book').locator(`.ladder-row[data-side="${side}"]`).first().elementHandle())!;
        const price = Number(await row.getAttribute('data-price'));
        await (await row.$('button.price-button'))!.click();
        return price;
      };
      const bidPrice = await clickRow('bid');
      await expect.poll(() => ticket('ticket-side-sell').getAttribute('aria-pressed')).toBe('true');
      expect(Number(await ticket('ticket-price').inputValue())).toBeCloseTo(bidPrice * 100, 6);
      const askPrice = await clickRow('ask');
      await expect.poll(() => ticket('ticket-side-buy').getAttribute('aria-pressed')).toBe('true');
      expect(Number(await ticket('ticket-price').inputValue())).toBeCloseTo(askPrice * 100, 6);
    });

    let restingId = '';

    it('tells main when its frames begin, which then hands busy books out just before them', async () => {
      // The page measures its frames and reports them every 2 s; main answers that it aligns its live books to them.
      const reports = () =>
        sentFrames
          .map((f) => JSON.parse(f) as { id: number; op?: string; input?: { frameAt: number; intervalMs: number } })
          .filter((f) => f.op === 'reportFrames');
      await expect.poll(() => reports().length, { timeout: 10_000 }).toBeGreaterThan(0);
      const report = reports()[0]!;
      expect(report.input!.intervalMs).toBeGreaterThan(4);
      expect(Math.abs(report.input!.frameAt - Date.now())).toBeLessThan(60_000);
      const answers = () =>
        frames
          .flatMap((f) => [JSON.parse(f)].flat() as { id?: number; result?: unknown }[])
          .filter((m) => m.id === report.id);
      await expect.poll(() => answers()[0]?.result).toEqual({ ok: true, value: { aligned: true } });
    });

    it(
      'places a limit order: it rests in open orders and is marked on the ladder',
      async () => {
        const answer = await placeThroughTicket(async () => {
          await ticket('ticket-side-buy').click();
          await ticket('ticket-price').fill('1');
          await ticket('ticket-size').fill('20');
        }, 'order-ticket-confirm');
        expect(answer).toMatch(/BUY order/i);

        await openAccountTab('orders');
        const order = byId('open-orders').locator('tr[data-order-id]');
        await order.first().waitFor({ timeout: 30_000 });
        restingId = (await order.first().getAttribute('data-order-id'))!;
        expect(restingId).toMatch(/^0x[0-9a-f]+$/);
        expect(await order.first().innerText()).toMatch(/BUY[\s\S]*1¢[\s\S]*20/);
        await byId('order-book')
          .locator('.ladder-row[data-own="true"][data-price="0.01"]')
          .waitFor({ timeout: 15_000 });
      },
      SLOW,
    );

    it(
      'cancels it from open orders',
      async () => {
        await byId('open-orders').locator(`tr[data-order-id="${restingId}"]`).getByTestId('cancel-order').click();
        await byId('open-orders').getByText('No open orders.').waitFor({ timeout: 30_000 });
        await byId('order-book')
          .locator('.ladder-row[data-own="true"]')
          .waitFor({ state: 'detached', timeout: 15_000 });
      },
      SLOW,
    );

    it(
      'buys at market: the fill shows in trades, pending then confirmed, and the position in positions',
      async () => {
        // Liquidity that stays put while the bots trade: a maker's bid for No at 60¢ is an ask for Yes at 40¢.
        const market = t.sandbox.catalog.market(marketId)!;
        expect(market.question).toBe(QUESTION);
        const maker = await marketMaker({
          sandbox: t.sandbox,
          profile: parseTradingProfile(t.sandbox.profile),
          stop: async () => {},
        });
        expect(
          await makerOrder(maker.client, { tokenId: market.tokens[1].tokenId, side: 'BUY', price: 0.6, size: 500 }),
        ).toMatchObject({ success: true });

        const answer = await placeThroughTicket(async () => {
          await ticket('ticket-side-buy').click();
          await ticket('ticket-kind-market').click();
          await ticket('ticket-price').fill('');
          await ticket('ticket-size-unit').selectOption('usd');
          await ticket('ticket-size').fill('4');
        });
        expect(answer).toMatch(/filled|MATCHED/i);

        await openAccountTab('trades');
        const trade = byId('trades').locator('tr[data-trade-id]');
        await trade.first().waitFor({ timeout: 30_000 });
        expect(await trade.first().innerText()).toMatch(/BUY/);
        await byId('trades').locator('[data-status="confirmed"]').first().waitFor({ timeout: 60_000 });

        await openAccountTab('positions');
        const position = byId('positions').locator('tr[data-position]');
        await position.first().waitFor({ timeout: 60_000 });
        expect(await position.first().innerText()).toMatch(/Yes/);
        await screenshot('account-positions');
      },
      SLOW,
    );

    it('locks the wallet', async () => {
      await byId('wallet-lock').click();
      await expect.poll(() => byId('wallet-state').textContent()).toBe('Locked');
      await expect.poll(() => ticket('ticket-submit').getAttribute('title')).toMatch(/unlock/i);
    });

    it('looks the same in the light theme', async () => {
      await byId('theme-toggle').click();
      await expect
        .poll(() =>
          page.evaluate(
            () =>
              (globalThis as unknown as { document: { documentElement: { dataset: { theme?: string } } } }).document
                .documentElement.dataset.theme,
          ),
        )
        .toBe('light');
      await screenshot('terminal-light');
      await byId('theme-toggle').click();
    });

    it('never received a secret from main: no key, no password, no API secret in any frame or storage', async () => {
      expect(frames.length).toBeGreaterThan(50);
      const key = testWalletKey(t.sandbox).replace(/^0x/, '').toLowerCase();
      const findings = frames.flatMap((frame, i) =>
        findSecrets(JSON.parse(frame), [testWalletKey(t.sandbox), PASSWORD], `frame ${i}`),
      );
      expect(findings).toEqual([]);
      const stored = await page.evaluate(() => {
        const w = globalThis as unknown as {
          localStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null };
        };
        const out: string[] = [];
        for (let i = 0; i < w.localStorage.length; i++)
          out.push(`${w.localStorage.key(i)}=${w.localStorage.getItem(w.localStorage.key(i)!)}`);
        return out.join('\n');
      });
      expect(stored.toLowerCase().includes(key)).toBe(false);
      expect(stored.includes(PASSWORD)).toBe(false);
    });
  },
);
