// The layout a trader shapes, in headless Chromium on the sandbox (Polymarket direct, bots quoting): splitters
// resize the panels by pointer and keyboard and the sizes survive a reload; the markets grid at the default
// window shows its default columns whole (or scrolls sideways with a visible scrollbar); the Fed event's three
// markets sit under an event row with each market's own volume; Volume sorts biggest first; and the open
// market's price in the grid is its live quote, the same number every panel shows.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_EVENTS } from '../../sandbox/market/catalog';
import { openTerminalPage, testWalletKey, type TerminalPage } from '../helpers/terminal-page';
import { formatDollars } from '../../src/renderer/src/model/market-rows';
import { MARKET_MIN_WIDTH, PANEL_BOUNDS } from '../../src/renderer/src/components/shell/panel-sizes';
import { quoteFromBook } from '../../src/renderer/src/model/quote';

/** The few DOM members the page-side code below uses (the Node typecheck has no DOM types). */
interface Box {
  left: number;
  right: number;
  width: number;
}
interface PageElement {
  scrollWidth: number;
  clientWidth: number;
  offsetHeight: number;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Box;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  textContent: string | null;
}
declare const document: { querySelector(selector: string): PageElement | null };

const PASSWORD = 'layout test password';
let terminal: TerminalPage;
let page: Page;
const panel = '[data-testid="markets-grid"]';
const EVENT_ROW = 'event:polymarket:9001';
const FED_MARKETS = ['90011', '90012', '90013'];
const cell = (rowId: string, column: string) => `${panel} .ag-row[row-id="${rowId}"] [col-id="${column}"]`;
const splitter = (name: string) => `[data-testid="splitter-${name}"]`;
const valueOf = async (name: string, p: Page = page) => Number(await p.getAttribute(splitter(name), 'aria-valuenow'));
const columnWidth = (p: Page = page) =>
  p.$eval('section.markets-column', (el) => Math.round((el as unknown as PageElement).getBoundingClientRect().width));

/** Calls one operation through the page's window.terminal (as a trader's click would, minus the panel). */
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

async function waitForGrid(p: Page): Promise<void> {
  await p.waitForSelector(`${panel} .ag-row[row-id="${EVENT_ROW}"]`, { timeout: 30_000 });
}

beforeAll(async () => {
  terminal = await openTerminalPage({ simulate: 'manual' });
  page = terminal.page;
  await waitForGrid(page);
}, 120_000);

afterAll(async () => {
  await terminal?.stop();
});

describe('the layout', () => {
  it('shows the default columns of the grid whole at the default window, or scrolls them with a visible scrollbar', async () => {
    const check = await page.evaluate((sel) => {
      const root = document.querySelector(`${sel} .ag-root-wrapper`)!;
      const gridRight = root.getBoundingClientRect().right;
      const headers = Array.from(root.querySelectorAll('.ag-header-cell[col-id]')).map((h) => {
        const text = h.querySelector('.ag-header-cell-text');
        return {
          id: h.getAttribute('col-id'),
          cut: text ? text.scrollWidth > text.clientWidth : false,
          right: h.getBoundingClientRect().right,
          label: text?.textContent ?? '',
        };
      });
      const scroller = root.querySelector('.ag-body-horizontal-scroll-viewport');
      const bar = root.querySelector('.ag-body-horizontal-scroll');
      return {
        headers,
        gridRight,
        scrolls: scroller ? scroller.scrollWidth > scroller.clientWidth : false,
        barShown: bar ? bar.offsetHeight > 0 : false,
      };
    }, panel);
    expect(check.headers.map((h) => h.id)).toEqual(['watch', 'title', 'outcomes', 'volume', 'liquidity', 'endDate']);
    // No header is cut ("Liqu"), whatever the panel's width.
    expect(check.headers.filter((h) => h.cut)).toEqual([]);
    expect(check.headers.find((h) => h.id === 'liquidity')?.label).toBe('Liquidity');
    const offScreen = check.headers.filter((h) => h.right > check.gridRight + 1);
    if (offScreen.length > 0) {
      expect(check.scrolls).toBe(true);
      expect(check.barShown).toBe(true);
    }
    // A binary market's two prices fit their cell (the No price was clipped before).
    const outcomes = await page.$eval(cell('90021', 'outcomes'), (c) => {
      const el = c as unknown as PageElement;
      const prices = el.querySelector('.outcome-prices')!;
      return {
        inner: prices.scrollWidth,
        room: el.clientWidth,
        quotes: el.querySelectorAll('[data-quote-token]').length,
      };
    });
    expect(outcomes.quotes).toBe(2);
    expect(outcomes.inner).toBeLessThanOrEqual(outcomes.room);
  });

  it('resizes the markets column by dragging its splitter, and keeps the size after a reload', async () => {
    const before = await valueOf('markets');
    expect(before).toBe(PANEL_BOUNDS.markets.initial);
    expect(await page.getAttribute(splitter('markets'), 'role')).toBe('separator');
    const bar = (await page.$(splitter('markets')))!;
    const box = (await bar.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + box.height / 2, { steps: 4 });
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    await expect.poll(() => valueOf('markets')).toBe(before + 120);
    await expect.poll(() => columnWidth()).toBe(before + 120);
    // Saved with the settings once the drag pauses.
    const file = join(terminal.dataDir, 'settings.json');
    await expect
      .poll(async () => JSON.parse(await readFile(file, 'utf8').catch(() => '{}')).panelSizes?.markets, {
        timeout: 5_000,
      })
      .toBe(before + 120);

    await page.reload();
    await waitForGrid(page);
    await expect.poll(() => valueOf('markets')).toBe(before + 120);
    expect(await columnWidth()).toBe(before + 120);
  });

  it('resizes from the keyboard within bounds, and a double-click gives the default back', async () => {
    const ticket = await valueOf('ticket');
    await page.focus(splitter('ticket'));
    // The ticket is on the right: moving its splitter left makes it wider.
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => valueOf('ticket')).toBe(ticket + 16);
    await page.keyboard.press('Home');
    await expect.poll(() => valueOf('ticket')).toBe(PANEL_BOUNDS.ticket.min);
    const account = await valueOf('account');
    await page.focus(splitter('account'));
    await page.keyboard.press('Shift+ArrowUp');
    await expect.poll(() => valueOf('account')).toBe(account + 64);
    // No drag hides a panel: the markets column stops at its minimum.
    const bar = (await (await page.$(splitter('markets')))!.boundingBox())!;
    await page.mouse.move(bar.x + 3, bar.y + 40);
    await page.mouse.down();
    await page.mouse.move(2, bar.y + 40, { steps: 6 });
    await page.mouse.up();
    await expect.poll(() => valueOf('markets')).toBe(PANEL_BOUNDS.markets.min);
    await page.dblclick(splitter('markets'));
    await expect.poll(() => valueOf('markets')).toBe(PANEL_BOUNDS.markets.initial);
    await page.dblclick(splitter('ticket'));
    await page.dblclick(splitter('account'));
    await expect.poll(() => valueOf('ticket')).toBe(PANEL_BOUNDS.ticket.initial);
  });

  it('keeps the panels sane when the window shrinks, and gives the sizes back when it grows', async () => {
    await page.focus(splitter('markets'));
    await page.keyboard.press('End');
    const wide = await valueOf('markets');
    expect(wide).toBeGreaterThan(PANEL_BOUNDS.markets.initial);
    await page.setViewportSize({ width: 1000, height: 640 });
    const middle = () =>
      page.$eval('section.market-column', (el) =>
        Math.round((el as unknown as PageElement).getBoundingClientRect().width),
      );
    await expect.poll(middle).toBeGreaterThanOrEqual(MARKET_MIN_WIDTH);
    for (const name of ['markets', 'ticket', 'account'] as const)
      expect(await valueOf(name)).toBeGreaterThanOrEqual(PANEL_BOUNDS[name].min);
    expect(await valueOf('markets')).toBeLessThan(wide);
    await page.setViewportSize({ width: 1600, height: 1000 });
    await expect.poll(() => valueOf('markets')).toBe(wide);
    await page.dblclick(splitter('markets'));
    await expect.poll(() => valueOf('markets')).toBe(PANEL_BOUNDS.markets.initial);
  });

  it('paints each column, the account row and each tile on its own (positioned boxes: a number changing in one does not repaint the page)', async () => {
    await page.waitForSelector('[data-testid="tile"]');
    const unpositioned = await page.evaluate(() => {
      const doc = document as unknown as {
        querySelectorAll(s: string): ArrayLike<PageElement & { className: string }>;
      };
      const style = globalThis as unknown as { getComputedStyle(el: unknown): { position: string } };
      const boxes = [
        ...Array.from(doc.querySelectorAll('.workspace > *')),
        ...Array.from(doc.querySelectorAll('.columns > *')),
        ...Array.from(doc.querySelectorAll('[data-testid="tile"]')),
      ];
      return {
        count: boxes.length,
        static: boxes.filter((el) => style.getComputedStyle(el).position === 'static').map((el) => el.className),
      };
    });
    // Three rows (columns, splitter, account), five columns (markets, splitter, tiles, splitter, ticket), a tile.
    expect(unpositioned.count).toBeGreaterThanOrEqual(9);
    expect(unpositioned.static).toEqual([]);
  });
});

describe('the markets grid', () => {
  it('groups an event of several markets under its row, each market with its own volume', async () => {
    const answer = await fetch(`${terminal.sandbox.profile.gammaUrl}/events/9001`);
    const event = (await answer.json()) as { volume: number; markets: { id: string; volumeNum: number }[] };
    expect(await page.textContent(cell(EVENT_ROW, 'title'))).toMatch(/Fed decision in December 2026\?\s*3 markets/);
    expect(await page.textContent(cell(EVENT_ROW, 'volume'))).toBe(formatDollars(event.volume));
    const eventVolume = formatDollars(event.volume);
    for (const id of FED_MARKETS) {
      const own = event.markets.find((m) => m.id === id)!.volumeNum;
      expect(await page.textContent(cell(id, 'volume'))).toBe(formatDollars(own));
      expect(formatDollars(own)).not.toBe(eventVolume);
    }
    // The markets follow their event row.
    const order = await page.$$eval(`${panel} .ag-row[row-id]`, (rows) =>
      rows
        .map((r) => ({ id: r.getAttribute('row-id') ?? '', index: Number(r.getAttribute('row-index')) }))
        .sort((a, b) => a.index - b.index)
        .map((r) => r.id),
    );
    const at = order.indexOf(EVENT_ROW);
    expect(order.slice(at + 1, at + 4).sort()).toEqual(FED_MARKETS);

    // Folding hides them; the footer still counts markets, not rows.
    const count = await page.textContent('[data-testid="markets-count"]');
    expect(count).toMatch(/^\d+ markets$/);
    await page.click(`${cell(EVENT_ROW, 'title')} [data-testid="event-toggle"]`);
    await expect.poll(() => page.$$(`${panel} .ag-row[row-id="90012"]`).then((r) => r.length)).toBe(0);
    expect(await page.getAttribute(`${cell(EVENT_ROW, 'title')} [data-testid="event-toggle"]`, 'aria-expanded')).toBe(
      'false',
    );
    expect(await page.textContent('[data-testid="markets-count"]')).toBe(count);
    await page.click(`${cell(EVENT_ROW, 'title')} [data-testid="event-toggle"]`);
    await page.waitForSelector(`${panel} .ag-row[row-id="90012"]`);
  });

  it('sorts Volume biggest first on the first click, events among markets and markets within their event', async () => {
    await page.click(`${panel} .ag-header-cell[col-id="volume"] .ag-header-cell-label`);
    await expect
      .poll(() => page.getAttribute(`${panel} .ag-header-cell[col-id="volume"]`, 'aria-sort'))
      .toBe('descending');
    const rows = await page.$$eval(`${panel} .ag-row[row-id]`, (list) =>
      list
        .map((r) => ({
          id: r.getAttribute('row-id') ?? '',
          index: Number(r.getAttribute('row-index')),
          grouped: (r.getAttribute('class') ?? '').includes('grouped-row'),
        }))
        .sort((a, b) => a.index - b.index),
    );
    const events = await Promise.all(
      SANDBOX_EVENTS.map(
        async (e) =>
          (await (await fetch(`${terminal.sandbox.profile.gammaUrl}/events/${e.id}`)).json()) as {
            id: string;
            volume: number;
            markets: { id: string; volumeNum: number }[];
          },
      ),
    );
    const volumeOf = (id: string): number => {
      if (id.startsWith('event:')) return events.find((e) => `event:polymarket:${e.id}` === id)!.volume;
      for (const e of events) {
        const m = e.markets.find((x) => x.id === id);
        if (m) return m.volumeNum;
      }
      throw new Error(`no market ${id}`);
    };
    const top = rows.filter((r) => !r.grouped).map((r) => volumeOf(r.id));
    expect(top).toEqual([...top].sort((a, b) => b - a));
    const fed = rows.filter((r) => r.grouped).map((r) => volumeOf(r.id));
    expect(fed).toHaveLength(3);
    expect(fed).toEqual([...fed].sort((a, b) => b - a));
    // The second click turns it around; the third goes back to the source's order.
    await page.click(`${panel} .ag-header-cell[col-id="volume"] .ag-header-cell-label`);
    await expect
      .poll(() => page.getAttribute(`${panel} .ag-header-cell[col-id="volume"]`, 'aria-sort'))
      .toBe('ascending');
    await page.click(`${panel} .ag-header-cell[col-id="volume"] .ag-header-cell-label`);
  });

  it("shows the open market's live quote, the same number as every other panel showing that outcome", async () => {
    const market = terminal.sandbox.catalog.events.flatMap((e) => e.markets).find((m) => m.id === '90021')!;
    const yes = market.tokens[0].tokenId;
    await page.click(cell('90021', 'title'));
    await page.waitForSelector('[data-testid="market-header"]');
    await page.locator('[data-testid="order-book"] .ladder-row').first().waitFor({ timeout: 30_000 });
    const book = (await (await fetch(`${terminal.sandbox.profile.clobUrl}/book?token_id=${yes}`)).json()) as {
      bids: { price: string; size: string }[];
      asks: { price: string; size: string }[];
    };
    const live = quoteFromBook(
      {
        bids: book.bids.map((l) => ({ price: Number(l.price), size: Number(l.size) })),
        asks: book.asks.map((l) => ({ price: Number(l.price), size: Number(l.size) })),
      },
      null,
    );
    expect(live.price).not.toBeNull();
    const gridPrice = `${cell('90021', 'outcomes')} [data-quote-token="${yes}"]`;
    await expect.poll(() => page.getAttribute(gridPrice, 'data-quote-basis')).toBe(live.basis);
    expect(Number(await page.getAttribute(gridPrice, 'data-quote-value'))).toBe(live.price);
    // Every place on the screen that shows this outcome's price says the same number.
    const shown = await page.$$eval(`[data-quote-token="${yes}"]`, (els) =>
      els.map((e) => e.getAttribute('data-quote-value')),
    );
    expect(new Set(shown)).toEqual(new Set([String(live.price)]));
    // The market header names the market in full, with its event.
    expect(await page.getAttribute('[data-testid="market-question"]', 'title')).toContain(market.question);

    // A bid comes to rest inside the spread: the grid follows the live book, not the listed snapshot it loaded.
    const tick = Number(market.tickSize);
    const bid = Math.round(((live.bestBid ?? 0) + tick) * 1e4) / 1e4;
    expect(bid).toBeLessThan(live.bestAsk!);
    expect(
      await call('importWallet', {
        label: 'maker',
        password: PASSWORD,
        source: { kind: 'privateKey', privateKey: testWalletKey(terminal.sandbox) },
      }),
    ).toMatchObject({ ok: true });
    expect(await call('unlockWallet', { label: 'maker', password: PASSWORD })).toMatchObject({ ok: true });
    const placed = await call('placeOrder', {
      wallet: 'maker',
      marketId: market.id,
      tokenId: yes,
      side: 'BUY',
      price: bid,
      size: 10,
    });
    expect(placed, JSON.stringify(placed.error)).toMatchObject({ ok: true });
    const moved = quoteFromBook({ bids: [{ price: bid, size: 10 }], asks: [{ price: live.bestAsk!, size: 1 }] }, null);
    expect(moved.price).not.toBe(live.price);
    await expect
      .poll(() => page.getAttribute(gridPrice, 'data-quote-value'), { timeout: 15_000 })
      .toBe(String(moved.price));
    const after = await page.$$eval(`[data-quote-token="${yes}"]`, (els) =>
      els.map((e) => e.getAttribute('data-quote-value')),
    );
    expect(new Set(after)).toEqual(new Set([String(moved.price)]));
  });
});

describe('a laptop screen (1280×800)', () => {
  it("keeps the ticket's submit button in view, and three tiles at a useful width, the row scrolling sideways", async () => {
    const ids = ['90021', '90031', '90011'];
    await page.locator(cell(ids[0]!, 'title')).click();
    await page.getByTestId('ticket-submit').waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });
    try {
      // Nothing saved for the account row here (the tests above gave it back its default): its default height fits.
      const submit = await page.getByTestId('ticket-submit').boundingBox();
      expect(submit!.y).toBeGreaterThanOrEqual(0);
      expect(submit!.y + submit!.height).toBeLessThanOrEqual(800);
      const ticketBottom = await page.$eval(
        'section.ticket-column',
        (el) => (el as unknown as { getBoundingClientRect(): { bottom: number } }).getBoundingClientRect().bottom,
      );
      expect(submit!.y + submit!.height).toBeLessThanOrEqual(ticketBottom);
      // A market order's form is taller (its bound, slippage and figures): Submit stays in view all the same.
      await page.getByTestId('ticket-kind-market').click();
      await page.getByTestId('ticket-size').fill('10');
      await page.getByTestId('ticket-slippage').waitFor();
      const marketSubmit = await page.getByTestId('ticket-submit').boundingBox();
      expect(marketSubmit!.y).toBeGreaterThanOrEqual(0);
      expect(marketSubmit!.y + marketSubmit!.height).toBeLessThanOrEqual(ticketBottom);
      await page.getByTestId('ticket-kind-limit').click();

      for (const id of ids.slice(1)) {
        await page.getByTestId('tile-add').click();
        await page.locator(cell(id, 'title')).click();
      }
      await expect.poll(() => page.locator('[data-testid="tile"]').count()).toBe(3);
      const widths = await page
        .locator('[data-testid="tile"]')
        .evaluateAll((tiles) =>
          tiles.map((t) => Math.round((t as unknown as PageElement).getBoundingClientRect().width)),
        );
      for (const width of widths) expect(width).toBeGreaterThanOrEqual(176);
      const row = await page.getByTestId('tile-row').evaluate((el) => ({
        scroll: (el as unknown as PageElement).scrollWidth,
        client: (el as unknown as PageElement).clientWidth,
      }));
      expect(row.scroll).toBeGreaterThan(row.client);
    } finally {
      while ((await page.locator('[data-testid="tile"]').count()) > 1)
        await page.locator('[data-testid="tile"]').last().getByTestId('tile-close').click();
      await page.setViewportSize({ width: 1600, height: 1000 });
    }
  });
});
