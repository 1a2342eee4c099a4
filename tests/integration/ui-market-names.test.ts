// Market names use the room they have: on a 1920×1080 screen with the default layout, the longest sandbox
// question is shown whole in the markets grid and the ticket's header (both cut it before), and wherever a
// name is still cut for lack of room, hovering gives it whole.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTerminalPage, type TerminalPage } from '../helpers/terminal-page';

const MARKET = '90041';
const QUESTION = 'Will a new frontier AI model be released before 2027?';
const SLOW = 120_000;

/** The few DOM members the page-side code reads (the Node typecheck has no DOM types). */
interface Box {
  scrollWidth: number;
  clientWidth: number;
  scrollHeight: number;
  clientHeight: number;
  textContent: string | null;
}

let t: TerminalPage;
let page: Page;

/** Whether an element shows all of its text: nothing overflows it sideways or downwards. */
const whole = (selector: string) =>
  page.$eval(selector, (el) => {
    const box = el as unknown as Box;
    return {
      text: box.textContent,
      whole: box.scrollWidth <= box.clientWidth + 1 && box.scrollHeight <= box.clientHeight + 1,
    };
  });

beforeAll(async () => {
  t = await openTerminalPage({ viewport: { width: 1920, height: 1080 } });
  page = t.page;
  await page.goto(`${t.mode.host.launchUrl}&market=${MARKET}`);
  await page.reload();
  await page.getByTestId('order-ticket').getByRole('button', { name: /^Yes/ }).waitFor();
}, SLOW);

afterAll(async () => {
  await t?.stop();
});

describe('market names at 1920×1080, default layout', () => {
  it('the markets grid shows the long question whole, with the full name on hover', async () => {
    const row = `[data-testid="markets-grid"] .ag-row[row-id="${MARKET}"] [col-id="title"]`;
    await page.locator(row).first().waitFor({ timeout: 30_000 });
    await expect.poll(() => whole(`${row} .market-name`)).toEqual({ text: QUESTION, whole: true });
    expect(await page.getAttribute(`${row} .market-title`, 'title')).toContain(QUESTION);
  });

  it('the ticket’s header shows the whole question', async () => {
    const header = '[data-testid="ticket-question"]';
    await expect.poll(() => whole(header)).toEqual({ text: QUESTION, whole: true });
    expect(await page.getAttribute(header, 'title')).toBe(QUESTION);
  });
});
