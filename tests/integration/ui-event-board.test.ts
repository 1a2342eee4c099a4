// The event board in headless Chromium on the sandbox (issue 33 point 1): the negative-risk Fed event opened from
// its group in the markets grid shows every outcome with the CLOB's own best Yes bid and ask, highest first, the
// sums of the asks and bids exact and in words; a maker's order moves one outcome's bid live; a click on an ask
// fills the shared ticket with that outcome, side and price; the keys move the chosen row and s sells at its bid;
// a market of the event opens the same board; the board is saved with the workspace as an event tile; with the
// exchange stopped, the last books stay, marked, and the ticket refuses to trade on them; saved boards come back at
// the next start, one of an unknown event saying so. Waits are on the page, never on time.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { callTerminal, openTerminalPage, type TerminalPage } from '../helpers/terminal-page';
import { makerOrder, marketMaker } from '../helpers/trading-sandbox';

const EVENT = '9001';
const OUTCOMES = { '90011': 'No change', '90012': '25 bps cut', '90013': '50+ bps cut' } as const;
type OutcomeId = keyof typeof OUTCOMES;
/** What a maker quotes on each outcome's Yes (50+ bps has a tenth-of-a-cent tick). */
const QUOTES: Record<OutcomeId, { bid: number; ask: number }> = {
  '90011': { bid: 0.52, ask: 0.55 },
  '90012': { bid: 0.33, ask: 0.36 },
  '90013': { bid: 0.061, ask: 0.065 },
};
const grid = '[data-testid="markets-grid"]';
const SLOW = 150_000;

let t: TerminalPage;
let page: Page;
let maker: Awaited<ReturnType<typeof marketMaker>>;

const boardTile = () => page.locator('[data-testid="tile"][data-tile-kind="event"]');
const board = () => boardTile().getByTestId('event-board');
const rowOf = (marketId: string) => board().locator(`[data-testid="board-row"][data-market-id="${marketId}"]`);
const units = (p: number) => Math.round(p * 10_000);

const tokensOf = (marketId: string) =>
  t.sandbox.catalog.events.flatMap((e) => e.markets).find((m) => m.id === marketId)!.tokens;
const yesOf = (marketId: string) => tokensOf(marketId)[0].tokenId;
const noOf = (marketId: string) => tokensOf(marketId)[1].tokenId;

/** The sandbox CLOB's best Yes bid and ask of an outcome. */
function sandboxTop(marketId: string): { bid: number | null; ask: number | null } {
  const book = t.sandbox.marketData.book(yesOf(marketId));
  const prices = (levels: { price: string; size: string }[] | undefined) =>
    (levels ?? []).filter((l) => Number(l.size) > 0).map((l) => Number(l.price));
  const bids = prices(book?.bids);
  const asks = prices(book?.asks);
  return { bid: bids.length ? Math.max(...bids) : null, ask: asks.length ? Math.min(...asks) : null };
}

/** The board as the page shows it: each row's market, name, bid and ask (data-price of its buttons). */
const shownRows = () =>
  board()
    .locator('[data-testid="board-row"]')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const price = (id: string) => {
          const text = row.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-price');
          return text === null || text === undefined ? null : Number(text);
        };
        return {
          marketId: row.getAttribute('data-market-id') ?? '',
          name: row.querySelector('[role="rowheader"]')?.textContent ?? '',
          bid: price('board-bid'),
          ask: price('board-ask'),
        };
      }),
    );

/** The launch network's first workspace's tiles as settings.json keeps them. */
async function savedTiles(): Promise<Record<string, unknown>[]> {
  const file = JSON.parse(await readFile(join(t.dataDir, 'settings.json'), 'utf8').catch(() => '{}')) as {
    workspaces?: Record<string, { list: { tiles: Record<string, unknown>[] }[] }>;
  };
  return file.workspaces?.[t.sandbox.profile.name]?.list[0]?.tiles ?? [];
}

const chosenRow = () =>
  board().locator('[data-testid="board-row"][aria-selected="true"]').getAttribute('data-market-id');

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  maker = await marketMaker({
    sandbox: t.sandbox,
    profile: parseTradingProfile(t.sandbox.profile),
    stop: async () => {},
  });
  await page.waitForSelector(`${grid} .ag-row[row-id="event:polymarket:${EVENT}"]`, { timeout: 30_000 });
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('the event board', () => {
  it(
    "opens from the event's group in the grid: every outcome with the CLOB's best bid and ask, highest first, the sums exact",
    async () => {
      await page
        .locator(`${grid} .ag-row[row-id="event:polymarket:${EVENT}"] [data-testid="event-board-open"]`)
        .click();
      await expect.poll(() => boardTile().count()).toBe(1);
      expect(await board().getByTestId('board-title').textContent()).toBe('Fed decision in December 2026?');
      // A negative-risk event: its actions offer the conversion of No shares (the dialog is ui-convert's).
      expect(await board().getByTestId('board-actions').getByTestId('board-convert').textContent()).toBe('Convert…');
      // The sandbox's books start empty: every row says so, and so do the sums.
      await expect
        .poll(() => board().getByTestId('board-asks-sum').textContent(), { timeout: 30_000 })
        .toBe(
          'The Yes asks add up to 0¢ over 0 of 3 outcomes: 25 bps cut, No change and 50+ bps cut have no ask, so the sum is incomplete and says nothing about a dollar.',
        );
      expect(await rowOf('90012').getByText('no ask').count()).toBe(1);

      // A maker quotes every outcome: a Yes bid, and a No bid that is a Yes ask at its complement.
      for (const [id, q] of Object.entries(QUOTES) as [OutcomeId, { bid: number; ask: number }][]) {
        expect(
          await makerOrder(maker.client, { tokenId: yesOf(id), side: 'BUY', price: q.bid, size: 50 }),
        ).toMatchObject({ success: true });
        const noPrice = Math.round((1 - q.ask) * 1000) / 1000;
        expect(
          await makerOrder(maker.client, { tokenId: noOf(id), side: 'BUY', price: noPrice, size: 50 }),
        ).toMatchObject({ success: true });
      }
      const want = (Object.keys(OUTCOMES) as OutcomeId[]).map((id) => ({
        marketId: id,
        name: OUTCOMES[id],
        ...sandboxTop(id),
      }));
      expect(want.map((r) => ({ bid: r.bid, ask: r.ask }))).toEqual(Object.values(QUOTES));
      // Live, highest first: No change, 25 bps cut, 50+ bps cut.
      await expect.poll(shownRows, { timeout: 30_000 }).toEqual(want);
      // The sums, to the ten-thousandth of a dollar, and their words.
      const asksSum = board().getByTestId('board-asks-sum');
      const bidsSum = board().getByTestId('board-bids-sum');
      expect(Number(await asksSum.getAttribute('data-units'))).toBe(9750);
      expect(Number(await bidsSum.getAttribute('data-units'))).toBe(9110);
      expect(await asksSum.textContent()).toBe(
        'The Yes asks add up to 97.5¢: buying one Yes of every outcome costs 97.5¢ and pays $1 — 2.5¢ under a dollar before fees.',
      );
      expect(await bidsSum.textContent()).toBe(
        'The Yes bids add up to 91.1¢: selling one Yes of every outcome brings 91.1¢ for a set that pays $1 — 8.9¢ under a dollar, nothing to gain.',
      );
      // Screen readers hear what a price does.
      expect(await rowOf('90012').getByTestId('board-ask').getAttribute('aria-label')).toBe(
        'Buy Yes of 25 bps cut at 36¢: fills the ticket',
      );
    },
    SLOW,
  );

  it(
    "a maker's order moves an outcome's bid on the board live, and the bids' sum with it",
    async () => {
      const before = sandboxTop('90012');
      const bid = Math.round((before.bid! + 0.01) * 100) / 100;
      expect(bid).toBeLessThan(before.ask!);
      const sumBefore = Number(await board().getByTestId('board-bids-sum').getAttribute('data-units'));
      expect(
        await makerOrder(maker.client, { tokenId: yesOf('90012'), side: 'BUY', price: bid, size: 50 }),
      ).toMatchObject({ success: true });
      await expect
        .poll(() => rowOf('90012').getByTestId('board-bid').getAttribute('data-price'), { timeout: 30_000 })
        .toBe(String(bid));
      await expect
        .poll(async () => Number(await board().getByTestId('board-bids-sum').getAttribute('data-units')))
        .toBe(sumBefore - units(before.bid!) + units(bid));
      // The grid reads the outcome's price from the board's live books too: one price on the screen.
      const mid = Math.round(((bid + before.ask!) / 2) * 10_000) / 10_000;
      await expect
        .poll(() =>
          page
            .locator(`${grid} .ag-row[row-id="90012"] [data-quote-token="${yesOf('90012')}"]`)
            .getAttribute('data-quote-value'),
        )
        .toBe(String(mid));
    },
    SLOW,
  );

  it(
    'a click on an ask fills the ticket with that outcome, Buy, at that price',
    async () => {
      const ask = Number(await rowOf('90013').getByTestId('board-ask').getAttribute('data-price'));
      await rowOf('90013').getByTestId('board-ask').click();
      await expect
        .poll(() => page.getByTestId('ticket-question').textContent())
        .toBe('Will the Fed cut rates by 50+ bps in December 2026?');
      await expect
        .poll(() => page.getByTestId('ticket-price').inputValue())
        .toBe(String(Math.round(ask * 10_000) / 100));
      expect(await page.getByTestId('ticket-side-buy').getAttribute('aria-pressed')).toBe('true');
      expect(
        await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).getAttribute('aria-pressed'),
      ).toBe('true');
      expect(await boardTile().getAttribute('data-market-id')).toBe('90013');
    },
    SLOW,
  );

  it(
    'the keys move the chosen row; s sells its Yes at its bid in the ticket',
    async () => {
      const order = (await shownRows()).map((r) => r.marketId);
      await board().getByTestId('board-grid').focus();
      // The chosen row starts on the outcome picked last (50+ bps cut, the last row); ↑ to the top, and no further.
      await expect.poll(chosenRow).toBe('90013');
      for (let i = 0; i < order.length; i += 1) await page.keyboard.press('ArrowUp');
      await expect.poll(chosenRow).toBe(order[0]);
      await page.keyboard.press('ArrowDown');
      await expect.poll(chosenRow).toBe(order[1]);
      await page.keyboard.press('ArrowUp');
      await expect.poll(chosenRow).toBe(order[0]);
      // s: that outcome's Yes, Sell, at its best bid.
      const bid = Number(await rowOf(order[0]!).getByTestId('board-bid').getAttribute('data-price'));
      await page.keyboard.press('s');
      await expect.poll(() => page.getByTestId('ticket-side-sell').getAttribute('aria-pressed')).toBe('true');
      await expect
        .poll(() => page.getByTestId('ticket-price').inputValue())
        .toBe(String(Math.round(bid * 10_000) / 100));
      expect(await boardTile().getAttribute('data-market-id')).toBe(order[0]);
      // Enter on a price Tabbed to presses it: the second outcome's ask, Buy.
      const ask = rowOf(order[1]!).getByTestId('board-ask');
      const askPrice = Number(await ask.getAttribute('data-price'));
      await ask.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByTestId('ticket-side-buy').getAttribute('aria-pressed')).toBe('true');
      await expect
        .poll(() => page.getByTestId('ticket-price').inputValue())
        .toBe(String(Math.round(askPrice * 10_000) / 100));
      await expect.poll(() => boardTile().getAttribute('data-market-id')).toBe(order[1]);
    },
    SLOW,
  );

  it(
    'a market of the event opens the same board (no second one), and the board is saved as an event tile',
    async () => {
      // A market tile of the event: the grid fills the first (market) tile once it is focused.
      await page
        .locator('[data-testid="tile"][data-tile-kind="market"]')
        .first()
        .click({ position: { x: 5, y: 5 } });
      await page.locator(`${grid} .ag-row[row-id="90011"] [col-id="title"]`).click();
      const marketTile = page.locator('[data-testid="tile"][data-market-id="90011"][data-tile-kind="market"]');
      await expect.poll(() => marketTile.getAttribute('aria-current')).toBe('true');
      // e: the focused tile's market's event, on the board already open (focused, the market picked on it).
      await page.keyboard.press('e');
      await expect.poll(() => boardTile().getAttribute('aria-current')).toBe('true');
      await expect.poll(() => boardTile().getAttribute('data-market-id')).toBe('90011');
      expect(await boardTile().count()).toBe(1);
      // The header's button does the same from the market's tile.
      await marketTile.click({ position: { x: 5, y: 5 } });
      await expect.poll(() => marketTile.getAttribute('aria-current')).toBe('true');
      await marketTile.getByTestId('open-event-board').click();
      expect(await boardTile().count()).toBe(1);
      expect(await boardTile().getAttribute('aria-current')).toBe('true');
      await expect.poll(() => boardTile().getAttribute('data-market-id')).toBe('90011');
      // A trade is the board's last once the event's record says it (read again every 15 s): another wallet buys 5
      // Yes of No change at the 55¢ ask.
      const taker = await marketMaker(
        { sandbox: t.sandbox, profile: parseTradingProfile(t.sandbox.profile), stop: async () => {} },
        2,
      );
      expect(
        await makerOrder(taker.client, { tokenId: yesOf('90011'), side: 'BUY', price: 0.55, size: 5 }, 'FOK'),
      ).toMatchObject({ success: true });
      await expect.poll(() => rowOf('90011').getByTestId('board-last').textContent(), { timeout: 45_000 }).toBe('55¢');
      // Saved (a moment after the change) as an event tile with the outcome picked on it.
      await expect
        .poll(async () => (await savedTiles()).filter((tile) => 'kind' in tile), { timeout: 30_000 })
        .toEqual([
          expect.objectContaining({ kind: 'event', protocol: 'polymarket', eventId: EVENT, marketId: '90011' }),
        ]);
    },
    SLOW,
  );

  it(
    'with the exchange gone, the board keeps its last books marked, and the ticket will not trade on them',
    async () => {
      // The board is focused, its picked outcome the ticket's (the test before).
      const before = await shownRows();
      expect(await board().getByTestId('board-warning').count()).toBe(0);
      await t.sandbox.clob.stop();
      await expect
        .poll(() => board().getByTestId('board-warning').textContent(), { timeout: 30_000 })
        .toMatch(/^As of \d\d:\d\d:\d\d, exchange unreachable: these books may no longer be the exchange's\.$/);
      expect(await shownRows()).toEqual(before);
      await expect
        .poll(() => page.getByTestId('ticket-book-unknown').textContent())
        .toMatch(/^Cannot trade: the book is unknown \(exchange unreachable since /);
    },
    SLOW,
  );

  it(
    'a saved board comes back at the next start; an event that cannot be read says so, on its own board',
    async () => {
      // A fresh page (the old one closed, so nothing of it saves over this), its workspace two saved boards: the
      // Fed event's, and one of an event the source does not have.
      const next = await t.newPage();
      await page.close();
      page = next;
      const network = t.sandbox.profile.name;
      const tiles = [
        { kind: 'event', protocol: 'polymarket', eventId: EVENT, marketId: '90012', width: 0.5 },
        { kind: 'event', protocol: 'polymarket', eventId: '99999999', width: 0.5 },
      ];
      await callTerminal(page, 'saveSettings', {
        workspaces: { [network]: { list: [{ name: 'Boards', tiles, focused: 0 }], active: 0 } },
      });
      await page.reload();
      const boards = page.locator('[data-testid="tile"][data-tile-kind="event"]');
      await expect.poll(() => boards.count(), { timeout: 30_000 }).toBe(2);
      const fed = page.locator('[data-testid="event-board"][data-event-id="9001"]');
      await expect
        .poll(() => fed.locator('[data-testid="board-row"] [role="rowheader"]').allTextContents(), { timeout: 30_000 })
        .toEqual(expect.arrayContaining(Object.values(OUTCOMES)));
      expect(await boards.first().getAttribute('data-market-id')).toBe('90012');
      const unknown = page.locator('[data-testid="event-board"][data-event-id="99999999"]');
      await expect
        .poll(() => unknown.getByTestId('board-error').textContent(), { timeout: 30_000 })
        .toMatch(/^This event could not be loaded: /);
      expect(await unknown.getByTestId('board-error').getAttribute('role')).toBe('alert');
    },
    SLOW,
  );
});
