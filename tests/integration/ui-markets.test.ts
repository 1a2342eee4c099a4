// The markets panel in headless Chromium against the sandbox's five events, read from Polymarket directly (the
// sandbox's Gamma; the terminal's default source): the grid lists their markets, search finds and filters, the
// star keeps a market in the watchlist across a reload (main keeps the settings), a click and the j/k keys choose
// a market, and the grid follows the app's theme.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_EVENTS } from '../../sandbox/market/catalog';
import { callTerminal, openTerminalPage, type TerminalPage } from '../helpers/terminal-page';

/** The few DOM members the page-side code below uses (the Node typecheck has no DOM types). */
interface PageElement {
  getAttribute(name: string): string | null;
  style: { background: string };
  remove(): void;
}
declare const document: {
  activeElement: PageElement | null;
  documentElement: { dataset: Record<string, string | undefined> };
  querySelector(selector: string): PageElement | null;
  createElement(tag: 'div'): PageElement;
  body: { append(node: PageElement): void };
};
declare function getComputedStyle(element: PageElement): { backgroundColor: string };

let terminal: TerminalPage;
let page: Page;

/** Every market of the sandbox's events. The order they come in is the source's (Gamma lists by 24 h volume). */
const ALL_MARKETS = SANDBOX_EVENTS.flatMap((e) => e.markets.map((m) => m.id)).sort();
const panel = '[data-testid="markets-grid"]';

/** The market row ids the grid shows, top to bottom (an event's head row is not a market). */
async function shownRows(p: Page = page): Promise<string[]> {
  return p.$$eval(`${panel} .ag-row[row-id]:not(.event-row)`, (rows) =>
    rows
      .map((r) => ({ id: r.getAttribute('row-id') ?? '', index: Number(r.getAttribute('row-index')) }))
      .sort((a, b) => a.index - b.index)
      .map((r) => r.id),
  );
}

async function waitRows(expected: string[], p: Page = page): Promise<void> {
  await expect
    .poll(() => shownRows(p).then((ids) => [...ids].sort()), { timeout: 10_000 })
    .toEqual([...expected].sort());
}

const selectedRow = (p: Page = page) =>
  p.$eval(`${panel} .ag-root`, (c) => c.querySelector('.ag-row-selected[row-id]')?.getAttribute('row-id') ?? null);
const cell = (marketId: string, column: string) => `${panel} .ag-row[row-id="${marketId}"] [col-id="${column}"]`;
const star = (marketId: string) => `${panel} .ag-row[row-id="${marketId}"] [data-testid="watch-star"]`;

beforeAll(async () => {
  terminal = await openTerminalPage();
  page = terminal.page;
  await page.waitForSelector(`${panel} .ag-row`, { timeout: 30_000 });
}, 120_000);

afterAll(async () => {
  await terminal?.stop();
});

describe('the markets panel', () => {
  it('lists every market of the sandbox events with its event, outcomes and end date', async () => {
    await waitRows(ALL_MARKETS);
    // A market of the Fed event sits under the event's row: its own label shown, the question and event on hover.
    expect(await page.textContent(cell('90012', 'title'))).toContain('25 bps cut');
    expect(await page.getAttribute(`${cell('90012', 'title')} .market-title`, 'title')).toContain(
      'Fed decision in December 2026?',
    );
    expect(await page.textContent(cell('event:polymarket:9001', 'title'))).toContain('Fed decision in December 2026?');
    expect(await page.textContent(cell('90012', 'outcomes'))).toMatch(/Yes\s+\d+(\.\d)?¢.*No\s+\d+(\.\d)?¢/);
    expect(await page.textContent(cell('90012', 'endDate'))).toBe('16 Dec 2026');
    expect(await page.textContent('[data-testid="markets-count"]')).toBe(`${ALL_MARKETS.length} markets`);
    // Five events fill less than a page: nothing more to read, and the button says why it is disabled.
    const more = `${panel} .markets-footer button`;
    await expect.poll(() => page.textContent(more)).toBe('All loaded');
    expect(await page.isDisabled(more)).toBe(true);
    expect(await page.getAttribute(more, 'title')).toBe('Every ongoing event is listed');
    // Listed through Gamma's keyset list: no fallback to the deprecated offset list, nothing deprecated heard.
    expect((await callTerminal<{ notices: unknown[] }>(page, 'getDiagnostics', {})).notices).toEqual([]);
  });

  it('offers no protocol filter: read straight from Polymarket, every market is a Polymarket one', async () => {
    expect(await page.locator('[data-testid="search-input"]').count()).toBe(1);
    expect(await page.locator('[data-testid="protocol-filter"]').count()).toBe(0);
  });

  it('sorts by a column header', async () => {
    const header = `${panel} .ag-header-cell[col-id="endDate"] .ag-header-cell-label`;
    const ends = async () => (await shownRows()).map(endOf);
    const sourceOrder = await shownRows();
    expect([...sourceOrder].sort()).toEqual(ALL_MARKETS);
    await page.click(header);
    await expect.poll(ends).toEqual([...ALL_MARKETS.map(endOf)].sort((a, b) => a - b));
    await page.click(header);
    await expect.poll(ends).toEqual([...ALL_MARKETS.map(endOf)].sort((a, b) => b - a));
    expect((await shownRows())[0]).toBe('90051');
    // A third click goes back to the order the source listed them in.
    await page.click(header);
    await expect.poll(() => shownRows()).toEqual(sourceOrder);
  });

  it('narrows the rows with the quick filter and says so when none is left', async () => {
    await page.fill('[data-testid="grid-filter"]', 'christmas');
    await waitRows(['90031']);
    expect(await page.textContent('[data-testid="markets-count"]')).toBe(`1 of ${ALL_MARKETS.length} markets`);
    await page.fill('[data-testid="grid-filter"]', 'zzzz no such market');
    await waitRows([]);
    expect(await page.textContent('[data-testid="markets-empty"]')).toBe(
      'No rows match the filter “zzzz no such market”.',
    );
    await page.fill('[data-testid="grid-filter"]', '');
    await waitRows(ALL_MARKETS);
  });

  it('searches while typing, and says when nothing matches', async () => {
    await page.click('[data-testid="search-input"]');
    await page.keyboard.type('bitcoin', { delay: 30 });
    await waitRows(['90021']);

    await page.fill('[data-testid="search-input"]', 'federal funds rate cut');
    await waitRows(['90011', '90012', '90013']);
    await page.fill('[data-testid="search-input"]', 'qwertyuiop');
    await expect.poll(() => page.textContent('[data-testid="markets-empty"]')).toBe('No markets match “qwertyuiop”.');

    // Clearing the text goes back to the list.
    await page.fill('[data-testid="search-input"]', '');
    await waitRows(ALL_MARKETS);
  });

  it('chooses the clicked market: its row is marked as the selected one', async () => {
    await page.click(cell('90041', 'title'));
    await expect.poll(() => selectedRow()).toBe('90041');
    await page.click(cell('90021', 'title'));
    await expect.poll(() => selectedRow()).toBe('90021');
  });

  it('/ focuses the search, Esc leaves it, j and k walk the rows and choose each market', async () => {
    await page.click('.top-bar .brand');
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('search-input');
    expect(await page.inputValue('[data-testid="search-input"]')).toBe('');
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)).toBeNull();

    // From a row with two below it, wherever the source put 90021 (the market chosen last).
    const order = await shownRows();
    const at = Math.min(order.indexOf('90021'), order.length - 3);
    if (order[at] !== '90021') {
      await page.click(cell(order[at]!, 'title'));
      await expect.poll(() => selectedRow()).toBe(order[at]);
      await page.click('.top-bar .brand');
    }
    await page.keyboard.press('j');
    await expect.poll(() => selectedRow()).toBe(order[at + 1]);
    await page.keyboard.press('j');
    await expect.poll(() => selectedRow()).toBe(order[at + 2]);
    await page.keyboard.press('k');
    await expect.poll(() => selectedRow()).toBe(order[at + 1]);

    // Enter in the search opens the best match, even when pressed before the search has answered.
    await page.keyboard.press('/');
    await page.keyboard.type('snow london');
    await page.keyboard.press('Enter');
    await expect.poll(() => selectedRow()).toBe('90031');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)).not.toBe(
      'search-input',
    );
    await page.fill('[data-testid="search-input"]', '');
    await waitRows(ALL_MARKETS);

    // Enter on a focused row chooses it.
    await page.click(cell('90013', 'volume'));
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => selectedRow()).toBe(order[order.indexOf('90013') + 1]);
  });

  it('keeps a starred market in the Watchlist tab, also after a reload', async () => {
    await page.click(star('90031'));
    expect(await page.getAttribute(star('90031'), 'aria-pressed')).toBe('true');
    await page.click('[data-testid="markets-tab-watchlist"]');
    await waitRows(['90031']);
    expect(await page.textContent('[data-testid="markets-tab-watchlist"]')).toBe('Watchlist 1');

    await page.reload();
    await page.waitForSelector(`${panel} .ag-row`, { timeout: 30_000 });
    await page.click('[data-testid="markets-tab-watchlist"]');
    await waitRows(['90031']);
    expect(await page.getAttribute(star('90031'), 'aria-pressed')).toBe('true');

    // Unstarring empties it again, with a sentence saying what the tab is for.
    await page.click(star('90031'));
    await waitRows([]);
    expect(await page.textContent('[data-testid="markets-empty"]')).toBe(
      'Your watchlist is empty: star a market (☆) to keep it here.',
    );
    await page.click('[data-testid="markets-tab-markets"]');
    await waitRows(ALL_MARKETS);
  });

  it('reads the watchlist kept from an earlier session, and says in its row when a market cannot be read', async () => {
    // A watchlist kept from an earlier session: one market the sandbox knows, one it no longer does.
    const saved = await page.evaluate(() =>
      (
        globalThis as unknown as { terminal: { saveSettings(p: unknown): Promise<{ ok: boolean }> } }
      ).terminal.saveSettings({ watchlist: ['90051', '424242'] }),
    );
    expect(saved.ok).toBe(true);
    await page.reload();
    await page.click('[data-testid="markets-tab-watchlist"]');
    await waitRows(['90051', '424242']);
    expect(await page.textContent(cell('424242', 'title'))).toMatch(
      /^Market 424242: Could not load this market: .*not found/i,
    );
    expect(await page.textContent(cell('90051', 'title'))).toContain('Real Madrid');
    // Choosing the broken row does nothing; unstarring it is how it goes.
    await page.click(cell('424242', 'title'));
    expect(await selectedRow()).toBeNull();
    await page.click(star('424242'));
    await page.click(star('90051'));
    await waitRows([]);
    await page.click('[data-testid="markets-tab-markets"]');
    await waitRows(ALL_MARKETS);
  });

  it('saves the chosen columns with the settings', async () => {
    const headers = () =>
      page.$$eval(`${panel} .ag-header-cell[col-id]`, (cells) => cells.map((c) => c.getAttribute('col-id')));
    expect(await headers()).toContain('liquidity');
    await page.click('[data-testid="column-chooser"]');
    await page.click('[data-testid="column-liquidity"]');
    await page.click('[data-testid="column-spread"]');
    await expect.poll(headers).toEqual(['watch', 'title', 'outcomes', 'volume', 'endDate', 'spread']);
    expect(await page.isDisabled('[data-testid="column-title"]')).toBe(true);

    // Dragging a header puts the column elsewhere, and that order is kept too.
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="column-menu"]', { state: 'detached' });
    const box = async (col: string) => (await page.$(`${panel} .ag-header-cell[col-id="${col}"]`))!.boundingBox();
    const from = (await box('volume'))!;
    const to = (await box('outcomes'))!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 - 10, from.y + from.height / 2, { steps: 5 });
    await page.mouse.move(to.x + 5, to.y + to.height / 2, { steps: 15 });
    await page.mouse.up();
    await expect.poll(headers).toEqual(['watch', 'title', 'volume', 'outcomes', 'endDate', 'spread']);

    const again = await terminal.newPage();
    await again.waitForSelector(`${panel} .ag-row`, { timeout: 30_000 });
    await expect
      .poll(() =>
        again.$$eval(`${panel} .ag-header-cell[col-id]`, (cells) => cells.map((c) => c.getAttribute('col-id'))),
      )
      .toEqual(['watch', 'title', 'volume', 'outcomes', 'endDate', 'spread']);
    await again.close();
  });

  it('shows the markets of a slug', async () => {
    await page.click('[data-testid="markets-tab-slugs"]');
    await page.waitForSelector('[data-testid="slug-select"] option[value="white-christmas-in-london-2026"]', {
      state: 'attached',
    });
    expect(await page.textContent('[data-testid="markets-empty"]')).toBe(
      'Choose a slug to see its events and markets.',
    );
    await page.selectOption('[data-testid="slug-select"]', 'fed-decision-in-december-2026');
    await waitRows(['90011', '90012', '90013']);
    await page.click('[data-testid="markets-tab-markets"]');
    await waitRows(ALL_MARKETS);
  });

  it('draws the grid in the theme’s colours', async () => {
    const colours = () =>
      page.evaluate(() => {
        const grid = document.querySelector('[data-testid="markets-grid"] .ag-root-wrapper')!;
        const probe = document.createElement('div');
        probe.style.background = 'var(--panel)';
        document.body.append(probe);
        const panelColour = getComputedStyle(probe).backgroundColor;
        probe.remove();
        return { grid: getComputedStyle(grid).backgroundColor, panel: panelColour };
      });
    const dark = await colours();
    expect(dark.grid).toBe(dark.panel);
    await page.click('[data-testid="theme-toggle"]');
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    const light = await colours();
    expect(light.grid).toBe(light.panel);
    expect(light.grid).not.toBe(dark.grid);
  });

  // Last: it stops the sandbox under the page.
  it('says in a sentence when the market source cannot be reached', async () => {
    await terminal.sandbox.stop();
    await page.fill('[data-testid="search-input"]', 'bitcoin');
    await expect
      .poll(() => page.textContent('[data-testid="markets-error"]'), { timeout: 15_000 })
      .toMatch(/^Search failed: \S.*[.!]$/);
    expect(await page.$('[data-testid="markets-empty"]')).toBeNull();
  });
});

function endOf(marketId: string): number {
  const event = SANDBOX_EVENTS.find((e) => e.markets.some((m) => m.id === marketId))!;
  return Date.parse(event.endDate);
}
