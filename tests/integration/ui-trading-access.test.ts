// The trading-access banner and the ticket in headless Chromium, on the whole sandbox: when the sandbox's
// geoblock check says blocked, a banner under the top bar says so in main's sentence and the ticket's Submit is
// disabled with the same reason, while the market, its book and chart stay; unblocked, both go away. A
// close-only account disables BUY with its sentence but not SELL.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTestWallet, openTerminalPage, type TerminalPage } from '../helpers/terminal-page';

const MARKET = '90021'; // Bitcoin above $120k: a 1¢ tick, a minimum of 5 shares
const WALLET = 'access-trader';
const PASSWORD = 'access correct horse battery';
const BLOCKED =
  'Trading is not available from your region (US-NY): Polymarket blocks new orders there. You can still browse markets.';
const CLOSE_ONLY =
  'This account is in close-only mode: you can cancel orders and sell positions, but not open new ones.';
const SLOW = 120_000;

let t: TerminalPage;
let page: Page;

const ticket = (testId: string) => page.getByTestId('order-ticket').getByTestId(testId);
const banner = () => page.getByTestId('trading-access-banner');

beforeAll(async () => {
  // Main checks the region and the account again every 300 ms, so a switch of the sandbox shows at once.
  t = await openTerminalPage({ regionCheckMs: 300 });
  page = t.page;
  const yes = t.sandbox.catalog.market(MARKET)!.tokens[0].tokenId;
  await importTestWallet(t, WALLET, PASSWORD);
  await page.goto(`${t.mode.host.launchUrl}&market=${MARKET}&outcome=${yes}`);
  await page.reload();
  await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('the trading-access banner and the ticket', () => {
  it('shows no banner and lets a valid order be reviewed while the region is allowed', async () => {
    await ticket('ticket-price').fill('5');
    await ticket('ticket-size').fill('5');
    await expect.poll(() => ticket('ticket-submit').isEnabled(), { timeout: 20_000 }).toBe(true);
    expect(await banner().count()).toBe(0);
    expect(await ticket('ticket-access').count()).toBe(0);
  });

  it('blocked: the banner and the disabled ticket say why, and the market stays readable', async () => {
    t.sandbox.polymarket.geoblock({ blocked: true, country: 'US', region: 'NY' });
    await expect.poll(() => banner().count(), { timeout: 20_000 }).toBe(1);
    expect(await banner().innerText()).toBe(BLOCKED);
    expect(await banner().getAttribute('data-state')).toBe('blocked');
    await expect.poll(() => ticket('ticket-submit').isDisabled()).toBe(true);
    expect(await ticket('ticket-submit').getAttribute('title')).toBe(BLOCKED);
    expect(await ticket('ticket-access').innerText()).toBe(BLOCKED);
    // SELL is no way around it.
    await ticket('ticket-side-sell').click();
    expect(await ticket('ticket-submit').isDisabled()).toBe(true);
    expect(await ticket('ticket-submit').getAttribute('title')).toBe(BLOCKED);
    await ticket('ticket-side-buy').click();
    // Reading stays: the market, its book and its chart.
    for (const id of ['market-header', 'order-book', 'price-chart'])
      expect(await page.getByTestId(id).isVisible()).toBe(true);
  });

  it('unblocked: the banner goes away and Submit comes back', async () => {
    t.sandbox.polymarket.geoblock({ blocked: false, country: 'IE', region: 'L' });
    await expect.poll(() => banner().count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => ticket('ticket-submit').isEnabled()).toBe(true);
    expect(await ticket('ticket-access').count()).toBe(0);
  });

  it('close-only: BUY is disabled with the account’s sentence, SELL is not held back by it; released, both clear', async () => {
    const faults = t.sandbox.clob.exchangeFaults();
    const address = t.sandbox.profile.testWallets[0]!.address;
    faults.closedOnly(address, true);
    try {
      await expect
        .poll(
          () =>
            banner()
              .innerText()
              .catch(() => ''),
          { timeout: 20_000 },
        )
        .toBe(CLOSE_ONLY);
      await expect.poll(() => ticket('ticket-submit').getAttribute('title')).toBe(CLOSE_ONLY);
      expect(await ticket('ticket-submit').isDisabled()).toBe(true);
      await ticket('ticket-side-sell').click();
      await expect.poll(() => ticket('ticket-submit').getAttribute('title')).not.toBe(CLOSE_ONLY);
      await ticket('ticket-side-buy').click();
    } finally {
      faults.closedOnly(address, false);
    }
    await expect.poll(() => banner().count(), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => ticket('ticket-submit').isEnabled()).toBe(true);
  });
});
