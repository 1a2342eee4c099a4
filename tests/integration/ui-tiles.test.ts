// Several markets at once, in headless Chromium on the sandbox (Polymarket direct, bots quoting): two markets
// opened into two tiles keep both ladders live (an order resting on each market shows in its own tile only); a
// tile too narrow for the ladder beside the tape shows them as tabs; the ticket follows the focused tile (a click,
// Alt+←/→); tiles move by dragging their grip or with the arrow keys, resize with the splitter between them, close
// with × (one of two tiles of a market leaves the other live); a workspace is named, another made, Alt+1 / Alt+2
// switch between them, and a reload brings them back. Waits are on the page, never on time.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTerminalPage, testWalletKey, type TerminalPage } from '../helpers/terminal-page';

const PASSWORD = 'tiles test password';
let t: TerminalPage;
let page: Page;
const grid = '[data-testid="markets-grid"]';
const BTC = { id: '90021', question: 'Bitcoin above $120k on December 31, 2026?' };
const SNOW = { id: '90031', question: 'Will it snow in London on Christmas Day 2026?' };
const FED = { id: '90011', question: 'Will the Fed leave rates unchanged in December 2026?' };

const tiles = () => page.locator('[data-testid="tile"]');
const tileOf = (marketId: string) => page.locator(`[data-testid="tile"][data-market-id="${marketId}"]`);
const tileMarkets = () => tiles().evaluateAll((ts) => ts.map((el) => el.getAttribute('data-market-id')));
const focusedMarket = () => page.locator('[data-testid="tile"][aria-current="true"]').getAttribute('data-market-id');
const ticketQuestion = () => page.locator('.ticket-question').textContent();
const tileWidth = (marketId: string) => tileOf(marketId).evaluate((el) => Math.round(el.getBoundingClientRect().width));

/** What the sandbox CLOB holds for a market's first token: prices of each side, best first. */
function sandboxBook(marketId: string): { asks: number[]; bids: number[] } {
  const market = t.sandbox.catalog.events.flatMap((e) => e.markets).find((m) => m.id === marketId)!;
  const book = t.sandbox.marketData.book(market.tokens[0].tokenId);
  const prices = (levels: { price: string; size: string }[] | undefined) =>
    (levels ?? []).filter((l) => Number(l.size) > 0).map((l) => Number(l.price));
  return { asks: prices(book?.asks).sort((a, b) => a - b), bids: prices(book?.bids).sort((a, b) => b - a) };
}
const tokenOf = (marketId: string) =>
  t.sandbox.catalog.events.flatMap((e) => e.markets).find((m) => m.id === marketId)!.tokens[0].tokenId;

/** A bid price in neither book (nor `avoid`), below the market's best bid: a row at it can only come from an order placed at it. */
function freeBid(marketId: string, avoid: number[]): number {
  const taken = [BTC.id, SNOW.id].flatMap((id) => [...sandboxBook(id).bids, ...sandboxBook(id).asks]);
  for (let cents = Math.round(sandboxBook(marketId).bids[0]! * 100) - 1; cents > 0; cents -= 1) {
    const price = cents / 100;
    if (!taken.includes(price) && !avoid.includes(price)) return price;
  }
  throw new Error(`no free bid price in market ${marketId}`);
}

/** A tile's ladder as [side, price] rows, top to bottom. */
const ladderOf = (marketId: string) =>
  tileOf(marketId)
    .locator('[data-testid="order-book"] .ladder-row')
    .evaluateAll((rows) =>
      rows.map(
        (row) => [row.getAttribute('data-side') ?? '', Number(row.getAttribute('data-price'))] as [string, number],
      ),
    );
const wantLadder = (marketId: string) => {
  const want = sandboxBook(marketId);
  return [...want.asks.reverse().map((p) => ['ask', p]), ...want.bids.map((p) => ['bid', p])];
};

async function call(op: string, input: unknown): Promise<{ ok: boolean; error?: { message: string } }> {
  return page.evaluate(
    async ([op, input]) => {
      const api = (globalThis as unknown as { terminal: Record<string, (input: unknown) => Promise<unknown>> })
        .terminal;
      return (await api[op as string]!(input)) as { ok: boolean };
    },
    [op, input] as const,
  );
}

async function openFromGrid(marketId: string): Promise<void> {
  await page.locator(`${grid} .ag-row[row-id="${marketId}"] [col-id="title"]`).click();
}

/** The launch network's workspaces as settings.json keeps them (per network, by name). */
async function savedSettings(): Promise<{
  workspaces?: { name: string; tiles: { marketId?: string; width: number }[]; focused: number }[];
  activeWorkspace?: number;
}> {
  const file = JSON.parse(await readFile(join(t.dataDir, 'settings.json'), 'utf8').catch(() => '{}')) as {
    workspaces?: Record<
      string,
      { list: { name: string; tiles: { marketId?: string; width: number }[]; focused: number }[]; active: number }
    >;
  };
  const kept = file.workspaces?.[t.sandbox.profile.name];
  return { workspaces: kept?.list, activeWorkspace: kept?.active };
}

beforeAll(async () => {
  t = await openTerminalPage({ simulate: 'manual' });
  page = t.page;
  await page.waitForSelector(`${grid} .ag-row[row-id="${BTC.id}"]`, { timeout: 30_000 });
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('tiles', () => {
  it('open two markets side by side: the grid fills the focused tile, + Tile opens a new one', async () => {
    expect(await tiles().count()).toBe(1);
    await expect.poll(() => page.getByTestId('tile-close').isDisabled()).toBe(true);
    await openFromGrid(BTC.id);
    await expect.poll(tileMarkets).toEqual([BTC.id]);
    await page.getByTestId('tile-add').click();
    await expect.poll(tileMarkets).toEqual([BTC.id, '']);
    expect(await focusedMarket()).toBe('');
    expect(await tiles().nth(1).locator('.empty').textContent()).toMatch(/Pick a market/);
    await openFromGrid(SNOW.id);
    await expect.poll(tileMarkets).toEqual([BTC.id, SNOW.id]);
    await expect.poll(() => tileOf(SNOW.id).locator('.market-question').textContent()).toBe(SNOW.question);
    expect(await tileOf(BTC.id).locator('.market-question').textContent()).toBe(BTC.question);
  });

  it('shows the ladder and the tape as tabs in a tile too narrow for both, the book first; side by side in a wide one', async () => {
    const tile = tileOf(BTC.id);
    const ladder = tile.getByTestId('order-book');
    const tape = tile.getByTestId('trade-tape');
    const bookTab = tile.getByTestId('lower-tab-book');
    const tradesTab = tile.getByTestId('lower-tab-trades');
    // Two tiles beside the markets list: each well under the 480 px the two panels need side by side.
    expect(await tileWidth(BTC.id)).toBeLessThan(480);
    await expect.poll(() => bookTab.isVisible()).toBe(true);
    expect(await bookTab.getAttribute('aria-selected')).toBe('true');
    expect(await ladder.isVisible()).toBe(true);
    expect(await tape.isVisible()).toBe(false);
    // The ladder has the tile's width: every column of a row fits it, nothing scrolls sideways.
    const fits = () =>
      ladder.locator('.list-scroll').evaluate((el) => ({
        scroll: el.scrollWidth,
        client: el.clientWidth,
        width: Math.round(el.getBoundingClientRect().width),
      }));
    const shown = await fits();
    expect(shown.scroll).toBeLessThanOrEqual(shown.client);
    expect(shown.width).toBeGreaterThan((await tileWidth(BTC.id)) - 10);
    // Price and size only: the running total is the depth bar behind the row (its column is the wide ladder's).
    const row = ladder.locator('.ladder-row').first();
    expect(await row.locator('.ladder-total').isVisible()).toBe(false);
    expect(await ladder.locator('.ladder-head .ladder-total').isVisible()).toBe(false);
    expect(
      await row.evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundImage: string } }).getComputedStyle(el)
            .backgroundImage,
      ),
    ).toMatch(/^linear-gradient/);
    // The columns are the book's longest numbers wide, not each row's own: every row's cells line up.
    const columns = await ladder
      .locator('.ladder-row')
      .evaluateAll((rows) =>
        rows.map((r) =>
          [...r.children]
            .map((c) => `${Math.round(c.getBoundingClientRect().left)}+${Math.round(c.getBoundingClientRect().width)}`)
            .join(' '),
        ),
      );
    expect(columns.length).toBeGreaterThan(2);
    expect(new Set(columns).size).toBe(1);
    await tradesTab.click();
    await expect.poll(() => tape.isVisible()).toBe(true);
    expect(await ladder.isVisible()).toBe(false);
    expect(await tradesTab.getAttribute('aria-selected')).toBe('true');
    await bookTab.click();
    await expect.poll(() => ladder.isVisible()).toBe(true);
    expect(await tape.isVisible()).toBe(false);
    // A window wide enough for tiles of 480 px and more: no tabs, the ladder beside the tape.
    await page.setViewportSize({ width: 2600, height: 1000 });
    try {
      await expect
        .poll(() => tile.getByTestId('market-view').evaluate((el) => el.getBoundingClientRect().width))
        .toBeGreaterThanOrEqual(480);
      await expect.poll(() => bookTab.isVisible()).toBe(false);
      expect(await ladder.isVisible()).toBe(true);
      expect(await tape.isVisible()).toBe(true);
      const [l, r] = [await ladder.boundingBox(), await tape.boundingBox()];
      expect(r!.x).toBeGreaterThanOrEqual(l!.x + l!.width - 1);
      // Wide: the Total column again.
      await expect.poll(() => ladder.locator('.ladder-row .ladder-total').first().isVisible()).toBe(true);
    } finally {
      await page.setViewportSize({ width: 1600, height: 1000 });
    }
    await expect.poll(() => bookTab.isVisible()).toBe(true);
    // The ticket back on the tile it followed before these clicks.
    await tileOf(SNOW.id).locator('.market-question').click();
    await expect.poll(focusedMarket).toBe(SNOW.id);
  });

  it('keeps both ladders live at once: an order resting on each market shows in its own tile only', async () => {
    await expect.poll(() => ladderOf(BTC.id)).toEqual(wantLadder(BTC.id));
    await expect.poll(() => ladderOf(SNOW.id)).toEqual(wantLadder(SNOW.id));
    expect(
      await call('importWallet', {
        label: 'maker',
        password: PASSWORD,
        source: { kind: 'privateKey', privateKey: testWalletKey(t.sandbox) },
      }),
    ).toMatchObject({ ok: true });
    expect(await call('unlockWallet', { label: 'maker', password: PASSWORD })).toMatchObject({ ok: true });
    const btcPrice = freeBid(BTC.id, []);
    const snowPrice = freeBid(SNOW.id, [btcPrice]);
    const placed = await call('placeOrder', {
      wallet: 'maker',
      marketId: BTC.id,
      tokenId: tokenOf(BTC.id),
      side: 'BUY',
      price: btcPrice,
      size: 10,
    });
    expect(placed, JSON.stringify(placed.error)).toMatchObject({ ok: true });
    expect(
      await call('placeOrder', {
        wallet: 'maker',
        marketId: SNOW.id,
        tokenId: tokenOf(SNOW.id),
        side: 'BUY',
        price: snowPrice,
        size: 12,
      }),
    ).toMatchObject({ ok: true });
    const btcRow = tileOf(BTC.id).locator(
      `[data-testid="order-book"] .ladder-row[data-side="bid"][data-price="${btcPrice}"]`,
    );
    const snowRow = tileOf(SNOW.id).locator(
      `[data-testid="order-book"] .ladder-row[data-side="bid"][data-price="${snowPrice}"]`,
    );
    await btcRow.waitFor();
    await snowRow.waitFor();
    expect((await btcRow.locator('.ladder-size').textContent())?.trim()).toBe('10');
    expect((await snowRow.locator('.ladder-size').textContent())?.trim()).toBe('12');
    await expect.poll(() => ladderOf(BTC.id)).toEqual(wantLadder(BTC.id));
    await expect.poll(() => ladderOf(SNOW.id)).toEqual(wantLadder(SNOW.id));
    expect(await tileOf(SNOW.id).locator(`.ladder-row[data-price="${btcPrice}"]`).count()).toBe(0);
    expect(await tileOf(BTC.id).locator(`.ladder-row[data-price="${snowPrice}"]`).count()).toBe(0);
  });

  it('the ticket follows the focused tile: a click on a tile, a price in its ladder, Alt+← and Alt+→', async () => {
    expect(await focusedMarket()).toBe(SNOW.id);
    await expect.poll(ticketQuestion).toBe(SNOW.question);
    await tileOf(BTC.id).locator('.market-question').click();
    await expect.poll(focusedMarket).toBe(BTC.id);
    await expect.poll(ticketQuestion).toBe(BTC.question);
    // A price in the other tile's ladder: that tile is focused first, so the ticket trades the market clicked.
    const bid = tileOf(SNOW.id).locator('[data-testid="order-book"] .ladder-row[data-side="bid"]').first();
    await bid.locator('button').click();
    await expect.poll(focusedMarket).toBe(SNOW.id);
    await expect.poll(ticketQuestion).toBe(SNOW.question);
    await expect.poll(() => bid.getAttribute('aria-selected')).toBe('true');
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('Alt+ArrowLeft');
    await expect.poll(focusedMarket).toBe(BTC.id);
    await expect.poll(ticketQuestion).toBe(BTC.question);
    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(focusedMarket).toBe(SNOW.id);
    await expect.poll(ticketQuestion).toBe(SNOW.question);
    // The tile marks the focus in words too.
    expect(await tileOf(SNOW.id).locator('.tile-name').textContent()).toMatch(/ticket/);
    expect(await tileOf(BTC.id).locator('.tile-name').textContent()).not.toMatch(/ticket/);
  });

  it('moves a tile by dragging its grip onto another, and back with the arrow keys', async () => {
    const grip = tileOf(BTC.id).getByTestId('tile-grip');
    const from = (await grip.boundingBox())!;
    const to = (await tileOf(SNOW.id).locator('.market-question').boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + 20, to.y + to.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect.poll(tileMarkets).toEqual([SNOW.id, BTC.id]);
    // The ladders moved with their tiles, still live.
    await expect.poll(() => ladderOf(BTC.id)).toEqual(wantLadder(BTC.id));
    await tileOf(BTC.id).getByTestId('tile-grip').focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(tileMarkets).toEqual([BTC.id, SNOW.id]);
    // The grip keeps the focus, so the arrows move it on.
    await page.keyboard.press('ArrowRight');
    await expect.poll(tileMarkets).toEqual([SNOW.id, BTC.id]);
    await page.keyboard.press('Home');
    await expect.poll(tileMarkets).toEqual([BTC.id, SNOW.id]);
  });

  it('resizes two tiles with the splitter between them, by pointer and keyboard; a double-click shares the row evenly', async () => {
    const splitter = page.getByTestId('tile-splitter-1');
    const before = await tileWidth(BTC.id);
    const other = await tileWidth(SNOW.id);
    expect(Math.abs(before - other)).toBeLessThanOrEqual(2);
    const box = (await splitter.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 50, box.y + box.height / 2, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2 + 100, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => tileWidth(BTC.id)).toBeGreaterThanOrEqual(before + 98);
    expect(await tileWidth(BTC.id)).toBeLessThanOrEqual(before + 102);
    expect(Math.abs((await tileWidth(SNOW.id)) - (other - 100))).toBeLessThanOrEqual(2);
    const dragged = await tileWidth(BTC.id);
    await splitter.focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => tileWidth(BTC.id)).toBeLessThanOrEqual(dragged - 15);
    await splitter.dblclick();
    await expect
      .poll(async () => Math.abs((await tileWidth(BTC.id)) - (await tileWidth(SNOW.id))))
      .toBeLessThanOrEqual(2);
    // Back to a width of the trader's, kept for the reload below.
    await splitter.focus();
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(async () => (await tileWidth(BTC.id)) - (await tileWidth(SNOW.id))).toBeGreaterThan(100);
  });

  it('closes a tile with ×; its neighbours take the room; the last tile cannot be closed', async () => {
    await tileOf(SNOW.id).click();
    await page.getByTestId('tile-add').click();
    await expect.poll(tileMarkets).toEqual([BTC.id, SNOW.id, '']);
    expect(await focusedMarket()).toBe('');
    await expect
      .poll(() => page.locator('[data-testid="order-ticket"] .empty').textContent())
      .toBe('Choose a market to trade.');
    await tiles().nth(2).getByTestId('tile-close').click();
    await expect.poll(tileMarkets).toEqual([BTC.id, SNOW.id]);
    // The focus went to a tile still there, and the ticket with it.
    await expect.poll(focusedMarket).toBe(SNOW.id);
    await expect.poll(ticketQuestion).toBe(SNOW.question);
    expect(await tiles().nth(0).getByTestId('tile-close').isDisabled()).toBe(false);
  });

  it('shows one market in two tiles; closing one leaves the other live (the page follows the market once)', async () => {
    await page.getByTestId('tile-add').click();
    await expect.poll(tileMarkets).toEqual([BTC.id, SNOW.id, '']);
    await openFromGrid(BTC.id);
    await expect.poll(tileMarkets).toEqual([BTC.id, SNOW.id, BTC.id]);
    await expect
      .poll(() => tiles().nth(2).locator('[data-testid="order-book"] .ladder-row').count())
      .toBeGreaterThan(0);
    await tiles().nth(2).getByTestId('tile-close').click();
    await expect.poll(tileMarkets).toEqual([BTC.id, SNOW.id]);
    const price = freeBid(BTC.id, []);
    expect(
      await call('placeOrder', {
        wallet: 'maker',
        marketId: BTC.id,
        tokenId: tokenOf(BTC.id),
        side: 'BUY',
        price,
        size: 11,
      }),
    ).toMatchObject({ ok: true });
    const row = tileOf(BTC.id).locator(
      `[data-testid="order-book"] .ladder-row[data-side="bid"][data-price="${price}"]`,
    );
    await row.waitFor();
    expect((await row.locator('.ladder-size').textContent())?.trim()).toBe('11');
    await expect.poll(() => ladderOf(BTC.id)).toEqual(wantLadder(BTC.id));
  });
});

describe('workspaces', () => {
  it('names the workspace, makes another, and switches between them with Alt+1 and Alt+2', async () => {
    await page.getByTestId('workspace-rename').click();
    await page.getByTestId('workspace-name').fill('  ');
    await expect.poll(() => page.getByTestId('workspace-name-problem').textContent()).toBe('A workspace needs a name.');
    await page.getByTestId('workspace-name').press('Enter');
    expect(await page.getByTestId('workspace-name').isVisible()).toBe(true);
    await page.getByTestId('workspace-name').fill('Pair');
    expect(await page.getByTestId('workspace-name-problem').count()).toBe(0);
    await page.getByTestId('workspace-name').press('Enter');
    await expect
      .poll(() => page.getByTestId('workspace-choice').locator('option:checked').textContent())
      .toMatch(/^Pair/);
    await page.getByTestId('workspace-new').click();
    await expect.poll(tileMarkets).toEqual(['']);
    await expect
      .poll(() => page.getByTestId('workspace-choice').locator('option:checked').textContent())
      .toMatch(/^Workspace 2/);
    await expect
      .poll(() => page.locator('[data-testid="order-ticket"] .empty').textContent())
      .toBe('Choose a market to trade.');
    // The last tile of a workspace stays.
    expect(await page.getByTestId('tile-close').isDisabled()).toBe(true);
    await openFromGrid(FED.id);
    await expect.poll(tileMarkets).toEqual([FED.id]);
    await expect.poll(ticketQuestion).toBe(FED.question);

    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('Alt+1');
    await expect.poll(tileMarkets).toEqual([BTC.id, SNOW.id]);
    await expect.poll(focusedMarket).toBe(SNOW.id);
    await expect.poll(ticketQuestion).toBe(SNOW.question);
    // Both ladders live again after the switch.
    await expect.poll(() => ladderOf(BTC.id)).toEqual(wantLadder(BTC.id));
    await expect.poll(() => ladderOf(SNOW.id)).toEqual(wantLadder(SNOW.id));
    await page.keyboard.press('Alt+2');
    await expect.poll(tileMarkets).toEqual([FED.id]);
    await expect.poll(ticketQuestion).toBe(FED.question);
  });

  it('lists the tile and workspace keys in the keyboard help', async () => {
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('?');
    const help = page.getByRole('dialog');
    await expect.poll(() => help.textContent()).toMatch(/Alt\+1.*Show workspace 1/);
    const text = (await help.textContent()) ?? '';
    expect(text).toMatch(/Alt\+9.*Show workspace 9/);
    expect(text).toMatch(/Alt\+→.*Focus the next tile/);
    expect(text).toMatch(/Alt\+←.*Focus the previous tile/);
    await page.keyboard.press('Escape');
  });

  it('keeps the workspaces across a reload: names, tiles, their markets, widths and focus, and the one shown', async () => {
    await expect
      .poll(async () => {
        const s = await savedSettings();
        return {
          names: s.workspaces?.map((w) => w.name),
          markets: s.workspaces?.map((w) => w.tiles.map((tile) => tile.marketId)),
          active: s.activeWorkspace,
        };
      })
      .toEqual({ names: ['Pair', 'Workspace 2'], markets: [[BTC.id, SNOW.id], [FED.id]], active: 1 });
    await page.keyboard.press('Alt+1');
    await expect.poll(tileMarkets).toEqual([BTC.id, SNOW.id]);
    await expect.poll(async () => (await savedSettings()).activeWorkspace).toBe(0);
    const widths = { btc: await tileWidth(BTC.id), snow: await tileWidth(SNOW.id) };

    await page.reload();
    await page.waitForSelector(`${grid} .ag-row[row-id="${BTC.id}"]`, { timeout: 30_000 });
    await expect.poll(tileMarkets).toEqual([BTC.id, SNOW.id]);
    await expect
      .poll(() => page.getByTestId('workspace-choice').locator('option:checked').textContent())
      .toMatch(/^Pair/);
    await expect.poll(focusedMarket).toBe(SNOW.id);
    await expect.poll(ticketQuestion).toBe(SNOW.question);
    await expect.poll(() => tileWidth(BTC.id)).toBeGreaterThanOrEqual(widths.btc - 2);
    expect(Math.abs((await tileWidth(BTC.id)) - widths.btc)).toBeLessThanOrEqual(2);
    expect(Math.abs((await tileWidth(SNOW.id)) - widths.snow)).toBeLessThanOrEqual(2);
    await expect.poll(() => ladderOf(BTC.id)).toEqual(wantLadder(BTC.id));
    await expect.poll(() => ladderOf(SNOW.id)).toEqual(wantLadder(SNOW.id));
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('Alt+2');
    await expect.poll(tileMarkets).toEqual([FED.id]);
  });
});
