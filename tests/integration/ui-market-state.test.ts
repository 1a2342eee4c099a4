// A resolved market in headless Chromium on Polymarket direct (issue 27, defect 1): Gamma keeps `active: true`
// after resolution, and the terminal's header and ticket still say what the market is — resolved, with the
// winning outcome's name — from its closing and resolution status. Waits are on the page, never on time.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogMarket } from '../../sandbox/market/catalog';
import { openTerminalPage, type TerminalPage } from '../helpers/terminal-page';

let t: TerminalPage;
let page: Page;
let market: CatalogMarket;

beforeAll(async () => {
  t = await openTerminalPage({ source: 'polymarket' });
  page = t.page;
  const event = t.sandbox.catalog.events.find((e) => e.markets.length > 0)!;
  market = event.markets[0]!;
  await t.sandbox.resolveMarket(market.id, 0);
  // The link that opens the market; only the fragment differs from the launch URL, so load it afresh.
  await page.goto('about:blank');
  await page.goto(`${t.mode.host.launchUrl}&market=${market.id}&event=${event.id}`);
  await page.waitForSelector('[data-testid="market-header"]');
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('a resolved market', () => {
  it('reads "Resolved: <winner>" in the header and the ticket, though Gamma still calls it active', async () => {
    const winner = market.tokens[0].name;
    await expect.poll(() => page.locator('[data-testid="market-status"]').textContent()).toBe(`Resolved: ${winner}`);
    await expect
      .poll(() => page.locator('[data-testid="ticket-market-state"]').textContent())
      .toBe(`This market is not taking orders (Resolved: ${winner}).`);
  });
});
