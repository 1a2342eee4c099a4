// One price on the whole screen (issue 15 point 1): the grid, the market header, the ticket, the wallet's
// Positions and the trader profile show an outcome's price from one model, labelled with its basis, and at one
// instant — read in one synchronous pass over the page — they all say the same number and the same basis. A
// tight book shows the midpoint; a spread wider than 10¢ shows the last trade, as Polymarket does.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { callTerminal, importTestWallet, openTerminalPage, type TerminalPage } from '../helpers/terminal-page';
import { makerOrder, marketMaker } from '../helpers/trading-sandbox';

const MARKET = '90021'; // Bitcoin above $120k: a 1¢ tick, a minimum of 5 shares
const OTHER = '90031'; // a market no tile shows
const WALLET = 'one-price';
const PASSWORD = 'one price correct horse';
const SLOW = 150_000;

let t: TerminalPage;
let page: Page;
let yes: string;
let no: string;
let maker: Awaited<ReturnType<typeof marketMaker>>;

const ticket = (testId: string) => page.getByTestId('order-ticket').getByTestId(testId);

interface Seen {
  place: string;
  value: string;
  basis: string;
  text: string;
}

/**
 * Every shown price of a token, read in one synchronous pass (one instant: no frame can land between two
 * reads), each named by the panel it sits in.
 */
async function pricesOf(tokenId: string): Promise<Seen[]> {
  return page.evaluate((token) => {
    const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<PageElement> } })
      .document;
    interface PageElement {
      getAttribute(name: string): string | null;
      closest(selector: string): PageElement | null;
      textContent: string | null;
    }
    const places: [string, string][] = [
      ['grid', '[data-testid="markets-grid"]'],
      ['header', '[data-testid="outcomes"]'],
      ['ticket', '[data-testid="order-ticket"]'],
      ['positions', '[data-testid="positions"]'],
      ['profile', '[data-testid="trader-profile"], [data-testid="trader-lookup"]'],
    ];
    return Array.from(doc.querySelectorAll(`[data-quote-token="${token}"]`)).map((el) => ({
      place: places.find(([, selector]) => el.closest(selector))?.[0] ?? 'elsewhere',
      value: el.getAttribute('data-quote-value') ?? '',
      basis: el.getAttribute('data-quote-basis') ?? '',
      text: el.textContent ?? '',
    }));
  }, tokenId);
}

/** Waits until the token's prices agree on `value` (the feed takes a moment), then checks one instant again. */
async function expectOnePrice(tokenId: string, value: number, basis: string, mustInclude: string[]): Promise<Seen[]> {
  await expect
    .poll(async () => [...new Set((await pricesOf(tokenId)).map((s) => `${s.value}|${s.basis}`))], { timeout: 30_000 })
    .toEqual([`${value}|${basis}`]);
  const seen = await pricesOf(tokenId);
  expect(seen.map((s) => s.place)).toEqual(expect.arrayContaining(mustInclude));
  // One text too: the same number everywhere, and its tag where one is drawn (the grid's dense column leaves the
  // midpoint untagged: its header says "mid").
  const texts = seen.map((s) => s.text.replace(/\s+/g, ' ').trim());
  expect(new Set(texts.map((text) => text.split(' ')[0])).size).toBe(1);
  const tag = { midpoint: 'mid', last: 'last', listed: 'listed' }[basis];
  for (const [i, text] of texts.entries())
    expect(
      text === `${texts[0]!.split(' ')[0]} ${tag}` ||
        (seen[i]!.place === 'grid' && basis === 'midpoint' && !text.includes(' ')),
    ).toBe(true);
  return seen;
}

beforeAll(async () => {
  t = await openTerminalPage();
  page = t.page;
  const market = t.sandbox.catalog.market(MARKET)!;
  [yes, no] = [market.tokens[0].tokenId, market.tokens[1].tokenId];
  maker = await marketMaker({
    sandbox: t.sandbox,
    profile: parseTradingProfile(t.sandbox.profile),
    stop: async () => {},
  });
  await importTestWallet(t, WALLET, PASSWORD);
  await page.goto(`${t.mode.host.launchUrl}&market=${MARKET}&outcome=${yes}`);
  await page.reload();
  await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('one price on the whole screen', () => {
  it(
    'a tight book: every panel shows the midpoint, tagged "mid", the same at one instant',
    async () => {
      // A maker's bid for No at 61¢ is an ask for Yes at 39¢; its bid for Yes at 37¢: spread 2¢, midpoint 38¢.
      expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.61, size: 300 })).toMatchObject({
        success: true,
      });
      expect(await makerOrder(maker.client, { tokenId: yes, side: 'BUY', price: 0.37, size: 300 })).toMatchObject({
        success: true,
      });
      const seen = await expectOnePrice(yes, 0.38, 'midpoint', ['grid', 'header', 'ticket']);
      expect(seen.find((s) => s.place === 'header')!.text).toMatch(/^38¢ mid$/);
      // The header says what the price is made of.
      expect(await page.getByTestId('quote-facts').innerText()).toMatch(/Bid\s+37¢\s+Ask\s+39¢\s+Spread\s+2¢/);
      // No: the complement, by the same rule.
      await expectOnePrice(no, 0.62, 'midpoint', ['grid', 'header', 'ticket']);
    },
    SLOW,
  );

  it(
    'every price that moves with the book lays out a box of its own, never the page around it',
    async () => {
      // A box that contains its size and layout is where Chromium roots the layout of a change inside it; without
      // one, each new price laid out the whole document on every frame of a busy book (docs/decisions/0011-busy-books-in-the-ui-what-cost-the-frames.md).
      const unbounded = await page.evaluate(() => {
        interface El {
          parentElement: El | null;
          getAttribute(name: string): string | null;
          closest(selector: string): El | null;
        }
        const g = globalThis as unknown as {
          document: { querySelectorAll(s: string): ArrayLike<El> };
          getComputedStyle(el: El): { contain: string };
        };
        const bounded = (el: El) => {
          // The value itself or one of the two boxes around it (a quote's own span, the box it sits in).
          for (let at: El | null = el, up = 0; at && up < 3; at = at.parentElement, up++) {
            const contain = g.getComputedStyle(at).contain;
            if (contain === 'strict' || (contain.includes('size') && contain.includes('layout'))) return true;
          }
          return false;
        };
        const live = [
          ...Array.from(
            g.document.querySelectorAll(
              '[data-testid="markets-grid"] [data-quote-token], [data-testid="outcomes"] [data-quote-token], [data-testid="order-ticket"] [data-quote-token]',
            ),
          ),
          ...Array.from(g.document.querySelectorAll('[data-testid="quote-facts"] .num > span')),
        ];
        const where = (el: El) =>
          (el.closest('[data-testid]')?.getAttribute('data-testid') ?? '?') +
          ' ' +
          (el.getAttribute('data-quote-token') ?? 'fact');
        return { count: live.length, unbounded: live.filter((el) => !bounded(el)).map(where) };
      });
      // Both outcomes in the grid, the header and the ticket, and the four facts.
      expect(unbounded.count).toBeGreaterThanOrEqual(10);
      expect(unbounded.unbounded).toEqual([]);
    },
    SLOW,
  );

  it(
    'after a buy, the position and the profile show the same live price as the header and the ticket',
    async () => {
      await ticket('ticket-kind-market').click();
      await ticket('ticket-size-unit').selectOption('usd');
      await ticket('ticket-size').fill('3.9');
      await expect.poll(() => ticket('ticket-submit').isEnabled()).toBe(true);
      await ticket('ticket-submit').click();
      await page.getByTestId('ticket-confirm').click();
      await expect.poll(() => ticket('ticket-result').innerText(), { timeout: 90_000 }).toMatch(/filled/i);
      await page.getByTestId('account-tab-positions').click();
      await page.getByTestId('positions').locator('tr[data-position]').first().waitFor({ timeout: 60_000 });
      await expectOnePrice(yes, 0.38, 'midpoint', ['grid', 'header', 'ticket', 'positions']);

      // The wallet's own public profile, opened from Positions: its positions priced the same way.
      const address = t.sandbox.profile.testWallets[0]!.address;
      await page.getByTestId('own-profile-link').getByRole('button').click();
      await expect.poll(() => page.getByTestId('trader-address').inputValue()).toBe(address);
      await page.getByTestId('profile-positions').waitFor({ timeout: 30_000 });
      await expectOnePrice(yes, 0.38, 'midpoint', ['grid', 'header', 'ticket', 'profile']);
    },
    SLOW,
  );

  it(
    'a spread wider than 10¢: every panel shows the last trade, tagged "last", the same at one instant',
    async () => {
      // The maker takes its Yes bid away: the best bid falls to nothing, so there is no midpoint; the last trade (39¢) shows.
      const open = (await maker.client.getOpenOrders({ asset_id: yes })) as { id: string }[];
      for (const order of open) await maker.client.cancelOrder(order.id);
      expect(await makerOrder(maker.client, { tokenId: yes, side: 'BUY', price: 0.2, size: 300 })).toMatchObject({
        success: true,
      });
      await page.getByTestId('account-tab-positions').click();
      // First no bid at all (one side empty), then the 20¢ bid: a 19¢ spread. Both show the last trade.
      await expect.poll(() => page.getByTestId('quote-bid').innerText(), { timeout: 30_000 }).toMatch(/20¢/);
      const seen = await expectOnePrice(yes, 0.39, 'last', ['grid', 'header', 'ticket', 'positions']);
      expect(seen.map((s) => s.text.trim())).toEqual(seen.map(() => '39¢ last'));
      expect(await page.locator('[data-testid="outcomes"] [data-quote-token]').first().getAttribute('title')).toMatch(
        /spread \(19¢\) is wider than 10¢/,
      );
    },
    SLOW,
  );

  it(
    'a market live in a tile that is not focused: Positions price it from that tile, as the grid and its header do',
    async () => {
      // A second tile takes the focus (empty): the market stays live in the first one only.
      await page.getByTestId('tile-add').click();
      await expect.poll(() => page.locator('[data-testid="tile"]').count()).toBe(2);
      // The book moves: asks for Yes at 44¢ (the maker's No bid at 56¢), a Yes bid at 42¢: midpoint 43¢.
      for (const token of [yes, no])
        for (const order of (await maker.client.getOpenOrders({ asset_id: token })) as { id: string }[])
          await maker.client.cancelOrder(order.id);
      expect(await makerOrder(maker.client, { tokenId: no, side: 'BUY', price: 0.56, size: 300 })).toMatchObject({
        success: true,
      });
      expect(await makerOrder(maker.client, { tokenId: yes, side: 'BUY', price: 0.42, size: 300 })).toMatchObject({
        success: true,
      });
      await page.getByTestId('account-tab-positions').click();
      const seen = await expectOnePrice(yes, 0.43, 'midpoint', ['grid', 'header', 'positions']);
      expect(seen.find((s) => s.place === 'positions')!.text.trim()).toBe('43¢ mid');
    },
    SLOW,
  );

  it(
    'a market no tile follows: the grid, the watchlist, Positions and the profile read it again on one schedule, and agree',
    async () => {
      const other = t.sandbox.catalog.market(OTHER)!;
      const [otherYes, otherNo] = [other.tokens[0].tokenId, other.tokens[1].tokenId];
      for (const token of [otherYes, otherNo])
        for (const order of (await maker.client.getOpenOrders({ asset_id: token })) as { id: string }[])
          await maker.client.cancelOrder(order.id);
      // Yes asks at 40¢ (the maker's No bid at 60¢): the wallet buys 10 there. It holds the market, no tile shows it.
      expect(await makerOrder(maker.client, { tokenId: otherNo, side: 'BUY', price: 0.6, size: 300 })).toMatchObject({
        success: true,
      });
      expect(
        await callTerminal(page, 'placeOrder', {
          wallet: WALLET,
          marketId: OTHER,
          tokenId: otherYes,
          side: 'BUY',
          orderType: 'FOK',
          amountUsd: 4,
        }),
      ).toMatchObject({ status: 'MATCHED' });
      await page.click(`[data-testid="markets-grid"] .ag-row[row-id="${OTHER}"] [data-testid="watch-star"]`);
      await page.getByTestId('account-tab-positions').click();
      await page.locator(`[data-testid="positions"] tr[data-token="${otherYes}"]`).waitFor({ timeout: 60_000 });
      // Then its book moves, with nothing on the page following it: asks at 48¢, a bid at 44¢, midpoint 46¢.
      for (const order of (await maker.client.getOpenOrders({ asset_id: otherNo })) as { id: string }[])
        await maker.client.cancelOrder(order.id);
      expect(await makerOrder(maker.client, { tokenId: otherNo, side: 'BUY', price: 0.52, size: 300 })).toMatchObject({
        success: true,
      });
      expect(await makerOrder(maker.client, { tokenId: otherYes, side: 'BUY', price: 0.44, size: 300 })).toMatchObject({
        success: true,
      });
      // Read again within one round (15 s): the grid's row and Positions say the new midpoint together.
      await expectOnePrice(otherYes, 0.46, 'midpoint', ['grid', 'positions']);
      // The watchlist's row, and the wallet's profile, the same.
      await page.click('[data-testid="markets-tab-watchlist"]');
      await page.getByTestId('own-profile-link').getByRole('button').click();
      await page.getByTestId('profile-positions').waitFor({ timeout: 30_000 });
      await expectOnePrice(otherYes, 0.46, 'midpoint', ['grid', 'profile']);
    },
    SLOW,
  );
});
