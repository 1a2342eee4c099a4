// Unknown is never shown as empty (issue 15 point 7), in headless Chromium against the sandbox: with the
// exchange stopped under an open market (its WebSocket and GET /book both refused), the ladder keeps the last
// book marked "As of HH:MM:SS, exchange unreachable" (never "No asks / No bids") and the ticket says why it
// cannot trade; when an exchange answers on the same port again, the mark and the ticket's line go.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClobServer, type ClobServer } from '../../sandbox/clob/server';
import type { CatalogMarket } from '../../sandbox/market/catalog';
import { openTerminalPage, type TerminalPage } from '../helpers/terminal-page';

let t: TerminalPage;
let page: Page;
let market: CatalogMarket;
let restarted: ClobServer | undefined;

/** The ladder's rows as [side, price] pairs, top to bottom. */
const ladderRows = () =>
  page
    .locator('[data-testid="order-book"] .ladder-row')
    .evaluateAll((rows) =>
      rows.map(
        (row) => [row.getAttribute('data-side') ?? '', Number(row.getAttribute('data-price'))] as [string, number],
      ),
    );
const ladderText = async () => (await page.locator('[data-testid="order-book"]').textContent()) ?? '';

beforeAll(async () => {
  // Polymarket direct: the book is the exchange's own (its market WebSocket, GET /book when that is refused).
  t = await openTerminalPage({ simulate: 'manual' });
  const priced = (m: CatalogMarket) => t.sandbox.clob.book(m.tokens[0].tokenId);
  market = t.sandbox.catalog.events
    .flatMap((e) => e.markets)
    .find((m) => (priced(m)?.asks.length ?? 0) > 0 && (priced(m)?.bids.length ?? 0) > 0)!;
  expect(market).toBeDefined();
  const eventId = t.sandbox.catalog.events.find((e) => e.markets.includes(market))!.id;
  page = t.page;
  await page.goto('about:blank');
  await page.goto(`${t.mode.host.launchUrl}&market=${market.id}&event=${eventId}`);
  await page.waitForSelector('[data-testid="market-header"]');
}, 120_000);

afterAll(async () => {
  await restarted?.stop();
  await t?.stop();
});

describe('a book that cannot be read', () => {
  it('keeps the last book marked with when it was known, the ticket says why it cannot trade, and both clear when the exchange is back', async () => {
    await expect.poll(async () => (await ladderRows()).length, { timeout: 15_000 }).toBeGreaterThan(1);
    await expect
      .poll(() => page.locator('[data-testid="order-book"]').getAttribute('data-state'), { timeout: 15_000 })
      .toBe('open');
    const before = await ladderRows();
    expect(before.some(([side]) => side === 'ask')).toBe(true);
    expect(before.some(([side]) => side === 'bid')).toBe(true);
    expect(await page.locator('[data-testid="book-warning"]').count()).toBe(0);
    expect(await page.locator('[data-testid="ticket-book-unknown"]').count()).toBe(0);

    const port = Number(new URL(t.sandbox.clob.url).port);
    const stoppedAt = new Date();
    await t.sandbox.clob.stop();

    // Three refused connects (~3.5 s of back-off), then GET /book refused too: the exchange is unreachable.
    const warning = page.locator('[data-testid="book-warning"]');
    await expect
      .poll(() => warning.textContent(), { timeout: 20_000 })
      .toMatch(/^As of \d\d:\d\d:\d\d, exchange unreachable: /);
    const shown = (await warning.textContent())!.slice(6, 14);
    const [h, m, s] = shown.split(':').map(Number) as [number, number, number];
    const at = new Date(stoppedAt);
    at.setHours(h, m, s, 0);
    // The time is the page's local clock of the moment the feed was lost: within seconds of the stop.
    expect(Math.abs(at.getTime() - stoppedAt.getTime())).toBeLessThan(10_000);
    expect(await page.locator('[data-testid="order-book"]').getAttribute('data-unknown')).toBe('true');
    // The last book stays, never an empty market.
    expect(await ladderRows()).toEqual(before);
    const text = await ladderText();
    expect(text).not.toContain('No asks');
    expect(text).not.toContain('No bids');
    expect(text).not.toContain('No spread');
    expect(await page.locator('[data-testid="ticket-book-unknown"]').textContent()).toBe(
      `Cannot trade: the book is unknown (exchange unreachable since ${shown}).`,
    );
    // The ticket does not send against a book it cannot read: Submit says why.
    const submit = page.locator('[data-testid="ticket-submit"]');
    expect(await submit.isDisabled()).toBe(true);
    expect(await submit.getAttribute('title')).toBe(
      `Cannot trade: the book is unknown (exchange unreachable since ${shown}).`,
    );
    // The outcomes' prices come from those books: dimmed, saying since when.
    const prices = page.locator('[data-testid="outcomes"] .outcome-price');
    expect(
      await prices.evaluateAll((spans) => spans.map((s) => [s.getAttribute('data-stale'), s.getAttribute('title')])),
    ).toEqual(market.tokens.map(() => ['true', `As of ${shown}, exchange unreachable`]));

    // An exchange on the same port again (with no saved state: its book may differ): live, unmarked.
    restarted = await startClobServer({
      deployment: t.sandbox.deployment,
      catalog: t.sandbox.catalog,
      marketData: t.sandbox.marketData,
      port,
    });
    await expect.poll(() => page.locator('[data-testid="book-warning"]').count(), { timeout: 20_000 }).toBe(0);
    expect(await page.locator('[data-testid="order-book"]').getAttribute('data-unknown')).toBeNull();
    expect(await page.locator('[data-testid="order-book"]').getAttribute('data-state')).toBe('open');
    expect(await page.locator('[data-testid="ticket-book-unknown"]').count()).toBe(0);
    expect(await prices.evaluateAll((spans) => spans.map((s) => s.getAttribute('data-stale')))).toEqual(
      market.tokens.map(() => null),
    );
  });
});
