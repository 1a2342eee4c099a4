// The market view in headless Chromium against the sandbox (bots quoting, not trading): a link opens a market;
// the ladder shows the sandbox CLOB's book and moves when an order rests; a click on a price picks it; the
// chart draws candles and refetches when the range changes; the tape starts from history and shows a live
// fill (its side unknown: the aggregator states none); the second outcome shows its own book and
// complementary prices; a trader's profile shows what the aggregator states. Waits are on the page, never on
// time.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogMarket } from '../../sandbox/market/catalog';
import { openTerminalPage, testWalletKey, type TerminalPage } from '../helpers/terminal-page';
import { bookHash } from '../../sandbox/clob/book-snapshot';

const PASSWORD = 'market view test password';
let t: TerminalPage;
let page: Page;
let market: CatalogMarket;
let eventId: string;

/** What the sandbox CLOB holds for a token: prices (numbers) of each side, best first. */
function sandboxBook(tokenId: string): { asks: number[]; bids: number[] } {
  const book = t.sandbox.marketData.book(tokenId);
  const prices = (levels: { price: string; size: string }[] | undefined) =>
    (levels ?? []).filter((l) => Number(l.size) > 0).map((l) => Number(l.price));
  return { asks: prices(book?.asks).sort((a, b) => a - b), bids: prices(book?.bids).sort((a, b) => b - a) };
}

/** The ladder's rows as [side, price] pairs, top to bottom. */
async function ladderRows(): Promise<[string, number][]> {
  const rows = await page
    .locator('[data-testid="order-book"] .ladder-row')
    .evaluateAll((rows) =>
      rows.map(
        (row) => [row.getAttribute('data-side') ?? '', Number(row.getAttribute('data-price'))] as [string, number],
      ),
    );
  return rows;
}

/** How far (px) the spread row sits from where the ladder centres it (the scroll range clamps that), and the range. */
async function spreadPlace(): Promise<{ off: number; range: number }> {
  return page.locator('[data-testid="order-book"] .list-scroll').evaluate((scroller) => {
    const mid = scroller.querySelector('[data-testid="spread"]') as unknown as {
      offsetTop: number;
      offsetHeight: number;
    };
    const range = scroller.scrollHeight - scroller.clientHeight;
    const want = Math.min(Math.max(0, mid.offsetTop - (scroller.clientHeight - mid.offsetHeight) / 2), range);
    return { off: Math.abs(scroller.scrollTop - want), range };
  });
}

/** Calls one operation through the page's window.terminal (as a trader's click would, minus the panel). */
async function terminalCall(
  op: string,
  input: unknown,
): Promise<{ ok: boolean; value?: unknown; error?: { message: string } }> {
  return page.evaluate(
    async ([op, input]) => {
      const terminal = (globalThis as unknown as { terminal: Record<string, (input: unknown) => Promise<unknown>> })
        .terminal;
      return (await terminal[op as string]!(input)) as { ok: boolean };
    },
    [op, input] as const,
  );
}

const attr = (locator: Locator, name: string) => locator.getAttribute(name);

beforeAll(async () => {
  // The aggregator: the tape tests inject fills into the sandbox's market data (recordFill) and drop the
  // aggregator's fill stream, and that data reaches the aggregator's history and stream only. Polymarket direct
  // reads the tape from the Data API and the real-time feed, which carry the sandbox exchange's own settled
  // trades (none here: the bots quote but do not trade); ui-e2e covers the tape on that source.
  t = await openTerminalPage({ simulate: 'manual', source: 'aggregator' });
  // The market priced nearest the middle, so there is room in its book for an order below the bids.
  const distance = (m: CatalogMarket) => Math.abs((t.sandbox.marketData.displayPrice(m.tokens[0].tokenId) ?? 0) - 0.5);
  const event = [...t.sandbox.catalog.events].sort(
    (a, b) => Math.min(...a.markets.map(distance)) - Math.min(...b.markets.map(distance)),
  )[0]!;
  eventId = event.id;
  market = [...event.markets].sort((a, b) => distance(a) - distance(b))[0]!;
  page = t.page;
  // A link that opens the market: the launch URL's fragment plus market and event. Only the fragment
  // differs, so leave the page first to load it afresh.
  await page.goto('about:blank');
  await page.goto(`${t.mode.host.launchUrl}&market=${market.id}&event=${eventId}`);
  await page.waitForSelector('[data-testid="market-header"]');
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('the market view', () => {
  it('opens the market a link names: its question, status, outcomes (the first chosen) and discussion', async () => {
    await expect.poll(() => page.locator('.market-question').textContent()).toBe(market.question);
    expect(await page.locator('[data-testid="market-status"]').textContent()).toBe('Open');
    const outcomes = page.locator('[data-testid="outcomes"] button');
    expect(
      await outcomes.evaluateAll((bs) => bs.map((b) => [b.getAttribute('data-token'), b.getAttribute('aria-checked')])),
    ).toEqual([
      [market.tokens[0].tokenId, 'true'],
      [market.tokens[1].tokenId, 'false'],
    ]);
    // An outcome's price sits in a fixed box (so a new price lays out that box alone): the widest quote the
    // price model prints (a price and its basis tag) fits it unclipped.
    const fits = await page
      .locator('[data-testid="outcomes"] .outcome-price > span')
      .first()
      .evaluate((box) => {
        const shown = box.innerHTML;
        box.innerHTML = '49.88¢<small class="quote-basis muted"> listed</small>';
        const fit = box.scrollWidth <= box.clientWidth;
        box.innerHTML = shown;
        return fit;
      });
    expect(fits).toBe(true);
    await page.getByRole('tab', { name: /Discussion/ }).click();
    const comments = t.sandbox.catalog.events.find((e) => e.id === eventId)!.comments;
    await expect.poll(() => page.locator('[data-testid="discussion"] li').count()).toBe(comments.length);
    expect(await page.locator('[data-testid="discussion"]').textContent()).toContain(comments[0]!.text);
    await page.getByRole('tab', { name: 'Rules' }).click();
    expect(await page.locator('[data-testid="market-rules"]').textContent()).toBe(market.description);
    await page.getByRole('tab', { name: 'Chart' }).click();
  });

  it('shows the sandbox book: asks above, bids below, best prices at the middle, spread and midpoint', async () => {
    const want = sandboxBook(market.tokens[0].tokenId);
    expect(want.asks.length).toBeGreaterThan(0);
    expect(want.bids.length).toBeGreaterThan(0);
    await expect
      .poll(ladderRows)
      .toEqual([...want.asks.reverse().map((p) => ['ask', p]), ...want.bids.map((p) => ['bid', p])]);
    const spreadCents = Math.round((sandboxBook(market.tokens[0].tokenId).asks[0]! - want.bids[0]!) * 100);
    expect(await page.locator('[data-testid="spread"]').textContent()).toContain(`Spread ${spreadCents}¢`);
    // Cumulative sizes grow away from the middle, and so do the depth bars.
    const bidTotals = await page
      .locator('[data-testid="order-book"] .ladder-row[data-side="bid"] .ladder-total')
      .allTextContents();
    const numbers = bidTotals.map((s) => Number(s.replace(/,/g, '')));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    // A bar is the row's background, as wide as the level's share of the deepest total.
    const widths = await page
      .locator('[data-testid="order-book"] .ladder-row[data-side="bid"]')
      .evaluateAll((rows) =>
        rows.map(
          (r) =>
            (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundSize: string } }).getComputedStyle(r)
              .backgroundSize,
        ),
      );
    expect(widths.every((w) => /^\d+% 20px$/.test(w))).toBe(true);
    expect(Number.parseFloat(widths.at(-1)!)).toBeGreaterThan(Number.parseFloat(widths[0]!));
    // The numbers stand in columns: every row's cells start and end where the others' do, however long its numbers.
    const columns = await page
      .locator('[data-testid="order-book"] .ladder-row')
      .evaluateAll((rows) =>
        rows.map((r) =>
          [...r.children]
            .map((c) => `${Math.round(c.getBoundingClientRect().left)}+${Math.round(c.getBoundingClientRect().width)}`)
            .join(' '),
        ),
      );
    expect(columns.length).toBeGreaterThan(2);
    expect(new Set(columns).size).toBe(1);
  });

  it('moves when an order comes to rest in the book', async () => {
    const lowestBid = sandboxBook(market.tokens[0].tokenId).bids.at(-1)!;
    const price = Math.round((lowestBid - 0.03) * 100) / 100;
    expect(price).toBeGreaterThan(0);
    await expect
      .poll(() =>
        page.locator(`[data-testid="order-book"] .ladder-row[data-side="bid"][data-price="${price}"]`).count(),
      )
      .toBe(0);
    expect(
      await terminalCall('importWallet', {
        label: 'maker',
        password: PASSWORD,
        source: { kind: 'privateKey', privateKey: testWalletKey(t.sandbox) },
      }),
    ).toMatchObject({ ok: true });
    expect(await terminalCall('unlockWallet', { label: 'maker', password: PASSWORD })).toMatchObject({ ok: true });
    const placed = await terminalCall('placeOrder', {
      wallet: 'maker',
      marketId: market.id,
      tokenId: market.tokens[0].tokenId,
      side: 'BUY',
      price,
      size: 10,
    });
    expect(placed, JSON.stringify(placed.error)).toMatchObject({ ok: true });
    const row = page.locator(`[data-testid="order-book"] .ladder-row[data-side="bid"][data-price="${price}"]`);
    await row.waitFor();
    expect((await row.locator('.ladder-size').textContent())?.trim()).toBe('10');
  });

  it('keeps each level in its row when the book moves: a new ask above the others leaves the best ask row as it was', async () => {
    const asks = sandboxBook(market.tokens[0].tokenId).asks;
    const bestAsk = asks[0]!;
    const newAsk = Math.round((asks.at(-1)! + 0.02) * 100) / 100;
    expect(newAsk).toBeLessThan(1);
    const best = (await page
      .locator(`[data-testid="order-book"] .ladder-row[data-side="ask"][data-price="${bestAsk}"]`)
      .elementHandle())!;
    // A bid for No at 1 − p is an ask for Yes at p; the asks are drawn worst first, so it comes in at the top.
    const noPrice = Math.round((1 - newAsk) * 100) / 100;
    const placed = await terminalCall('placeOrder', {
      wallet: 'maker',
      marketId: market.id,
      tokenId: market.tokens[1].tokenId,
      side: 'BUY',
      price: noPrice,
      size: 10,
    });
    expect(placed, JSON.stringify(placed.error)).toMatchObject({ ok: true });
    await page.locator(`[data-testid="order-book"] .ladder-row[data-side="ask"][data-price="${newAsk}"]`).waitFor();
    expect((await ladderRows()).filter(([side]) => side === 'ask')[0]).toEqual(['ask', newAsk]);
    // The rows are keyed by price: the best ask's row is the same element, still showing the best ask (keyed by
    // place, it would now show the next ask up, and every row's price would have been written again).
    expect(await best.evaluate((el) => [el.isConnected, el.getAttribute('data-price')])).toEqual([
      true,
      String(bestAsk),
    ]);
  });

  it('writes a level’s new size into its row in place, with the running totals and depth bars beyond it', async () => {
    const bids = page.locator('[data-testid="order-book"] .ladder-row[data-side="bid"]');
    const read = () =>
      bids.evaluateAll((rows) =>
        rows.map((r) => ({
          price: r.getAttribute('data-price'),
          size: Number(r.querySelector('.ladder-size')!.textContent!.replace(/,/g, '')),
          total: Number(r.querySelector('.ladder-total')!.textContent!.replace(/,/g, '')),
          bar: (r as unknown as { style: { backgroundSize: string } }).style.backgroundSize,
        })),
      );
    const before = await read();
    expect(before.length).toBeGreaterThan(2);
    const bestBid = Number(before[0]!.price);
    const row = (await bids.first().elementHandle())!;
    // Five more shares bid at the best bid: its size, and every total from it outwards, grow by five.
    const placed = await terminalCall('placeOrder', {
      wallet: 'maker',
      marketId: market.id,
      tokenId: market.tokens[0].tokenId,
      side: 'BUY',
      price: bestBid,
      size: 5,
    });
    expect(placed, JSON.stringify(placed.error)).toMatchObject({ ok: true });
    await expect.poll(async () => (await read())[0]!.size).toBe(before[0]!.size + 5);
    const after = await read();
    expect(after.map((r) => r.price)).toEqual(before.map((r) => r.price));
    expect(after.map((r) => Math.round((r.total - 5) * 100) / 100)).toEqual(before.map((r) => r.total));
    // The same row element, written in place (a level that stays keeps its row).
    expect(await row.evaluate((el) => [el.isConnected, el.getAttribute('data-price')])).toEqual([
      true,
      String(bestBid),
    ]);
    // The bars follow the totals: the best bid's share of the deepest total grew, so its bar is no narrower.
    expect(Number.parseFloat(after[0]!.bar)).toBeGreaterThanOrEqual(Number.parseFloat(before[0]!.bar));
    expect(after.every((r) => /^\d+% 20px$/.test(r.bar))).toBe(true);
  });

  it('keeps the spread in the middle of the ladder as the panel resizes, until the trader scrolls; a click on the spread brings it back', async () => {
    const ladder = page.getByTestId('order-book');
    try {
      // A short window: the ladder scrolls, and the spread starts in its middle.
      await page.setViewportSize({ width: 1600, height: 700 });
      await expect.poll(async () => (await spreadPlace()).range).toBeGreaterThan(40);
      await expect.poll(async () => (await spreadPlace()).off).toBeLessThanOrEqual(2);
      expect(await attr(ladder, 'data-follows-spread')).toBe('true');
      // Taller: the ladder centres the spread again (it used to stay where it was scrolled when the book first showed).
      await page.setViewportSize({ width: 1600, height: 780 });
      await expect.poll(async () => (await spreadPlace()).range).toBeGreaterThan(40);
      await expect.poll(async () => (await spreadPlace()).off).toBeLessThanOrEqual(2);

      // The trader scrolls the ladder: it stops following, says how to come back, and a resize leaves it alone.
      const box = (await ladder.locator('.list-scroll').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, -400);
      await expect.poll(() => attr(ladder, 'data-follows-spread')).toBe('false');
      await expect.poll(async () => (await spreadPlace()).off).toBeGreaterThan(20);
      expect(await ladder.getByTestId('spread').innerText()).toContain('click to centre');
      await page.setViewportSize({ width: 1600, height: 700 });
      await expect.poll(async () => (await spreadPlace()).range).toBeGreaterThan(40);
      expect((await spreadPlace()).off).toBeGreaterThan(20);

      await page.setViewportSize({ width: 1600, height: 780 });
      // Centre (in the panel's header, where the spread row may be out of sight): centred and following again.
      await ladder.getByTestId('ladder-centre').click();
      expect(await attr(ladder, 'data-follows-spread')).toBe('true');
      await expect.poll(async () => (await spreadPlace()).off).toBeLessThanOrEqual(2);
      expect(await ladder.getByTestId('spread').innerText()).not.toContain('click to centre');
      expect(await ladder.getByTestId('ladder-centre').count()).toBe(0);
      // The spread row itself does the same when it is in sight.
      const tall = (await ladder.locator('.list-scroll').boundingBox())!;
      await page.mouse.move(tall.x + tall.width / 2, tall.y + tall.height / 2);
      await page.mouse.wheel(0, 40);
      await expect.poll(() => attr(ladder, 'data-follows-spread')).toBe('false');
      await ladder.getByTestId('spread').click();
      await expect.poll(() => attr(ladder, 'data-follows-spread')).toBe('true');
      await expect.poll(async () => (await spreadPlace()).off).toBeLessThanOrEqual(2);

      // Following, the book grows above the spread (a new ask at the top, the maker's bid for No): still centred.
      const newAsk = Math.round((sandboxBook(market.tokens[0].tokenId).asks.at(-1)! + 0.01) * 100) / 100;
      expect(newAsk).toBeLessThan(1);
      const drawn = await attr(ladder, 'data-book-ts');
      const placed = await terminalCall('placeOrder', {
        wallet: 'maker',
        marketId: market.id,
        tokenId: market.tokens[1].tokenId,
        side: 'BUY',
        price: Math.round((1 - newAsk) * 100) / 100,
        size: 10,
      });
      expect(placed, JSON.stringify(placed.error)).toMatchObject({ ok: true });
      // (Far above the view: a ladder following the spread has only the rows in view and one either side in the page.)
      await expect.poll(() => attr(ladder, 'data-book-ts')).not.toBe(drawn);
      await expect.poll(async () => (await spreadPlace()).off).toBeLessThanOrEqual(2);
    } finally {
      await page.setViewportSize({ width: 1600, height: 1000 });
    }
  });

  it('puts only the ladder rows in view (and a few either side) in the page, the spread row in one place: scrolled to, the far asks come in; each row says its place', async () => {
    const ladder = page.getByTestId('order-book');
    // A deep book (the maker's, imported above): 12 levels a side, more than a short window shows.
    const cents = (p: number) => Math.round(p * 100);
    const before = sandboxBook(market.tokens[0].tokenId);
    // Each side has 12 places: asks and bids coming do not move the spread row (a busy book never scrolls the ladder).
    const spreadTop = () =>
      ladder.getByTestId('spread').evaluate((row) => (row as unknown as { offsetTop: number }).offsetTop);
    const spreadWas = await spreadTop();
    const deepening: Awaited<ReturnType<typeof terminalCall>>[] = [];
    for (let c = cents(before.bids.at(-1)!) - 1, n = before.bids.length; n < 12 && c >= 1; c -= 1, n += 1) {
      deepening.push(
        await terminalCall('placeOrder', {
          wallet: 'maker',
          marketId: market.id,
          tokenId: market.tokens[0].tokenId,
          side: 'BUY',
          price: c / 100,
          size: 5,
        }),
      );
    }
    for (let c = cents(before.asks.at(-1)!) + 1, n = before.asks.length; n < 12 && c <= 99; c += 1, n += 1) {
      deepening.push(
        await terminalCall('placeOrder', {
          wallet: 'maker',
          marketId: market.id,
          tokenId: market.tokens[1].tokenId,
          side: 'BUY',
          price: (100 - c) / 100,
          size: 5,
        }),
      );
    }
    for (const placed of deepening) expect(placed, JSON.stringify(placed.error)).toMatchObject({ ok: true });
    await expect
      .poll(() => sandboxBook(market.tokens[0].tokenId).asks.length + sandboxBook(market.tokens[0].tokenId).bids.length)
      .toBeGreaterThanOrEqual(24);
    // (Only the rows in view are in the page: the deeper book shows once the trader scrolls to it, below.)
    const book = sandboxBook(market.tokens[0].tokenId);
    // The ladder shows 12 levels a side at most.
    const [asks, bids] = [Math.min(12, book.asks.length), Math.min(12, book.bids.length)];
    const inPage = () => ladderRows();
    // How many rows in the page lie wholly above and wholly below the ladder's view.
    const outside = () =>
      ladder.locator('.list-scroll').evaluate((scroller) => {
        const view = scroller.getBoundingClientRect();
        const rows = [...scroller.querySelectorAll('.ladder-row')].map((r) => r.getBoundingClientRect());
        return [rows.filter((r) => r.bottom <= view.top).length, rows.filter((r) => r.top >= view.bottom).length];
      });
    try {
      await expect.poll(async () => (await spreadPlace()).range).toBeGreaterThan(40);
      await expect.poll(async () => (await spreadPlace()).off).toBeLessThanOrEqual(2);
      const shows = await ladder.locator('.list-scroll').evaluate((scroller) => Math.ceil(scroller.clientHeight / 22));
      expect(asks + bids, 'the book is longer than the ladder shows').toBeGreaterThan(shows + 8);
      // The header, 12 places a side and the spread row.
      expect(await attr(ladder.getByRole('table'), 'aria-rowcount')).toBe(String(asks + bids + 2));
      // Centred on the spread and following it (nothing scrolls the ladder then): the rows in view and one either side.
      await expect.poll(async () => (await inPage()).length).toBeLessThanOrEqual(shows + 2);
      expect(Math.max(...(await outside()))).toBeLessThanOrEqual(1);
      const farAsk = book.asks[asks - 1]!;
      expect((await inPage()).some(([side, price]) => side === 'ask' && price === farAsk)).toBe(false);
      expect((await inPage()).some(([side, price]) => side === 'ask' && price === book.asks[0])).toBe(true);
      expect((await inPage()).some(([side, price]) => side === 'bid' && price === book.bids[0])).toBe(true);
      // The trader scrolls to the top: the farthest ask is the first row (row 2, under the header), where it belongs.
      const box = (await ladder.locator('.list-scroll').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, -2000);
      const farRow = ladder.locator(`.ladder-row[data-side="ask"][data-price="${farAsk}"]`);
      await expect.poll(() => ladder.locator('.list-scroll').evaluate((scroller) => scroller.scrollTop)).toBe(0);
      await farRow.waitFor();
      expect(await attr(farRow, 'aria-rowindex')).toBe('2');
      expect(await spreadTop()).toBe(spreadWas);
      // In sight, under the header (the scroller measured again: a wheel at the top may scroll what holds it).
      const [rowBox, view] = [(await farRow.boundingBox())!, (await ladder.locator('.list-scroll').boundingBox())!];
      expect(rowBox.y).toBeGreaterThanOrEqual(view.y + 21);
      expect(rowBox.y + rowBox.height).toBeLessThanOrEqual(view.y + view.height);
      // Every row in the page sits where its place says: the spacers stand for the rows left out, to the pixel.
      const places = await ladder
        .locator('.ladder-row')
        .evaluateAll((rows) =>
          rows.map((r) => [Number(r.getAttribute('aria-rowindex')), (r as unknown as { offsetTop: number }).offsetTop]),
        );
      for (const [index, top] of places) if (index! <= asks + 1) expect(top).toBe(22 * (index! - 1));
      // Scrolled by the trader: more rows beyond the view (below it, here at the top; up to three), so a wheel draws
      // no blank space before the window moves.
      expect((await outside())[1]).toBeGreaterThanOrEqual(2);
      expect((await inPage()).length).toBeLessThanOrEqual(shows + 6);
      await ladder.getByTestId('ladder-centre').click();
      await expect.poll(async () => (await spreadPlace()).off).toBeLessThanOrEqual(2);
      await expect.poll(async () => Math.max(...(await outside()))).toBeLessThanOrEqual(1);
      await expect
        .poll(async () => (await inPage()).some(([side, price]) => side === 'ask' && price === farAsk))
        .toBe(false);
    } finally {
      // The book as the later tests know it.
      const ids = deepening
        .map((p) => (p.value as { orderId?: string } | undefined)?.orderId)
        .filter((id): id is string => !!id);
      for (const orderId of ids)
        expect(await terminalCall('cancelOrder', { wallet: 'maker', orderId })).toMatchObject({ ok: true });
      await expect.poll(() => sandboxBook(market.tokens[0].tokenId)).toEqual(before);
    }
  });

  it('picks the price a trader clicks: an ask to buy at, a bid to sell at', async () => {
    const bestAsk = sandboxBook(market.tokens[0].tokenId).asks[0]!;
    const askRow = page.locator(`[data-testid="order-book"] .ladder-row[data-side="ask"][data-price="${bestAsk}"]`);
    const button = askRow.locator('button');
    expect(await attr(button, 'title')).toMatch(/^Buy at \d+¢: fills the ticket$/);
    await button.click();
    await expect.poll(() => attr(askRow, 'aria-selected')).toBe('true');
    const bidRow = page.locator('[data-testid="order-book"] .ladder-row[data-side="bid"]').first();
    expect(await attr(bidRow.locator('button'), 'title')).toMatch(/^Sell at \d+¢/);
    await bidRow.locator('button').click();
    await expect.poll(() => attr(bidRow, 'aria-selected')).toBe('true');
    expect(await attr(askRow, 'aria-selected')).toBeNull();
  });

  it('charts candles on a canvas and refetches them when the range changes', async () => {
    const chart = page.locator('[data-testid="price-chart"]');
    await expect.poll(() => attr(chart, 'data-state')).toBe('ready');
    expect(await chart.locator('canvas').count()).toBeGreaterThan(0);
    const count = async (interval: string) => {
      const answer = await terminalCall('getCandles', { marketId: market.id, outcomeIndex: 0, interval });
      return String((answer.value as unknown[]).length);
    };
    expect(await attr(chart, 'data-interval')).toBe('1d');
    expect(await attr(chart, 'data-candles')).toBe(await count('1d'));
    // Pointing at a candle puts it in the legend in place of the latest.
    const canvasBox = (await chart.locator('.chart-canvas').boundingBox())!;
    await page.mouse.move(canvasBox.x + canvasBox.width * 0.4, canvasBox.y + canvasBox.height / 2);
    await page.locator('[data-testid="chart-hovered"]').waitFor();
    expect(await page.locator('[data-testid="chart-last"]').count()).toBe(0);
    await page.mouse.move(canvasBox.x + canvasBox.width / 2, canvasBox.y - 200);
    await page.locator('[data-testid="chart-last"]').waitFor();
    await chart.locator('button[data-range="1w"]').click();
    await expect.poll(() => attr(chart, 'data-interval')).toBe('1h');
    expect(await attr(chart, 'data-candles')).toBe(await count('1h'));
    await chart.locator('button[data-range="1h"]').click();
    await expect.poll(() => attr(chart, 'data-interval')).toBe('1m');
    expect(await attr(chart, 'data-candles')).toBe(await count('1m'));
    expect(Number(await attr(chart, 'data-candles'))).toBeGreaterThan(Number(await count('1d')));
  });

  it('draws the chart in the theme’s colours, and again when the theme changes', async () => {
    /** The chart pane's background pixel and the page's --panel colour, both as [r, g, b]. */
    const colours = () =>
      page.evaluate(() => {
        interface Canvas {
          width: number;
          height: number;
          getContext(
            kind: '2d',
          ): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
        }
        const doc = (
          globalThis as unknown as {
            document: { querySelectorAll(s: string): ArrayLike<Canvas>; documentElement: unknown };
          }
        ).document;
        const style = (
          globalThis as unknown as { getComputedStyle(e: unknown): { getPropertyValue(n: string): string } }
        ).getComputedStyle(doc.documentElement);
        const opaque = Array.from(doc.querySelectorAll('[data-testid="price-chart"] canvas'))
          .map((c) => ({
            area: c.width * c.height,
            pixel: Array.from(c.getContext('2d')?.getImageData(2, 2, 1, 1).data ?? []),
          }))
          .filter((c) => c.pixel[3] === 255)
          .sort((a, b) => b.area - a.area);
        // A hex colour; the built stylesheet may shorten #ffffff to #fff.
        const raw = style.getPropertyValue('--panel').trim();
        const hex = raw.length === 4 ? `#${[...raw.slice(1)].map((d) => d + d).join('')}` : raw;
        return {
          pane: opaque[0]?.pixel.slice(0, 3),
          panel: [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)),
        };
      });
    const dark = await colours();
    expect(dark.pane).toEqual(dark.panel);
    await page.locator('[data-testid="theme-toggle"]').click();
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (globalThis as unknown as { document: { documentElement: { dataset: { theme?: string } } } }).document
              .documentElement.dataset.theme,
        ),
      )
      .toBe('light');
    await expect.poll(async () => (await colours()).pane).toEqual((await colours()).panel);
    expect((await colours()).panel).not.toEqual(dark.panel);
    await page.locator('[data-testid="theme-toggle"]').click();
    await expect.poll(async () => (await colours()).pane).toEqual(dark.panel);
  });

  it('resizes the chart with its container', async () => {
    const width = async () =>
      (await page.locator('[data-testid="price-chart"] .chart-canvas canvas').first().boundingBox())!.width;
    const wide = await width();
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: viewport.width - 300, height: viewport.height });
    try {
      await expect.poll(width).toBeLessThan(wide - 200);
    } finally {
      await page.setViewportSize(viewport);
    }
    await expect.poll(width).toBe(wide);
  });

  it('starts the tape from recent history; a live fill goes on top and into the chart’s last candle', async () => {
    const tape = page.locator('[data-testid="trade-tape"]');
    await expect.poll(() => attr(tape, 'data-feed')).toBe('open');
    const history = t.sandbox.marketData.fills(market.tokens[0].tokenId);
    const shown = Math.min(200, history.length);
    await expect.poll(() => attr(tape.locator('[role="table"]'), 'data-fills')).toBe(String(shown));
    expect(await attr(tape.locator('[data-kind="fill"]').first(), 'data-price')).toBe(String(history.at(-1)!.price));
    // Only the rows in view, and a few either side, are in the page; scrolled to the end, the oldest shows.
    expect(shown).toBeGreaterThan(60);
    expect(await tape.locator('[data-kind="fill"]').count()).toBeLessThan(60);
    const scroller = tape.locator('.list-scroll');
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const last = tape.locator('[data-kind="fill"]').last();
    await expect.poll(() => attr(last, 'aria-rowindex')).toBe(String(shown + 1));
    expect(await attr(last, 'data-price')).toBe(String(history.at(-shown)!.price));
    await scroller.evaluate((el) => el.scrollTo(0, 0));
    const close = page.locator('[data-testid="chart-last"] [data-close]');
    expect(await close.getAttribute('data-price')).not.toBe('0.42');
    t.sandbox.marketData.recordFill(market.tokens[0].tokenId, {
      price: 0.42,
      volumeBase: 7,
      timestamp: Math.floor(Date.now() / 1000) + 1,
    });
    const first = tape.locator('[data-kind="fill"]').first();
    await expect.poll(() => attr(first, 'data-price')).toBe('0.42');
    expect(await attr(first, 'data-size')).toBe('7');
    // The ladder's precision (the market's tick), and the dollars of the fill.
    const tickDecimals = Math.max(0, (market.tickSize.split('.')[1] ?? '').length - 2);
    const cells = first.locator('[role="cell"]');
    expect(await cells.nth(2).textContent()).toBe(`${(42).toFixed(tickDecimals)}¢`);
    expect(await cells.nth(4).textContent()).toBe('$2.94');
    // The aggregator states no aggressor and no trader: the tape says so, and guesses neither.
    expect(await cells.nth(1).textContent()).toBe('unknown');
    expect(await attr(first, 'data-side')).toBe('unknown');
    expect(await attr(cells.nth(1), 'title')).toMatch(/does not state which side/);
    expect(await cells.nth(5).textContent()).toBe('—');
    expect(
      await tape.locator('[data-kind="fill"][data-side="BUY"], [data-kind="fill"][data-side="SELL"]').count(),
    ).toBe(0);
    // The chart's last candle took the fill: it closes at its price.
    await expect.poll(() => close.getAttribute('data-price')).toBe('0.42');
    expect(await close.textContent()).toBe('42¢');
    expect(
      Number((await page.locator('[data-testid="chart-last"] [data-volume]').textContent())!.replace(/,/g, '')),
    ).toBeGreaterThanOrEqual(7);
  });

  it('marks a gap in the tape when the fill stream drops, and refills the chart from history', async () => {
    const tape = page.locator('[data-testid="trade-tape"]');
    const close = page.locator('[data-testid="chart-last"] [data-close]');
    expect(await tape.locator('[data-kind="gap"]').count()).toBe(0);
    // The stream ends and, before anyone can reconnect, a trade happens: it reaches the history only.
    expect(t.sandbox.aggregator.dropFillStreams()).toBeGreaterThan(0);
    t.sandbox.marketData.recordFill(market.tokens[0].tokenId, {
      price: 0.37,
      volumeBase: 3,
      timestamp: Math.floor(Date.now() / 1000) + 2,
    });
    await tape.locator('[data-kind="gap"]').first().waitFor({ timeout: 30_000 });
    // Main followed the market again and said where the hole is; the chart read its candles again and has the trade.
    await expect.poll(() => attr(tape, 'data-feed'), { timeout: 30_000 }).toBe('open');
    await expect.poll(() => close.getAttribute('data-price'), { timeout: 30_000 }).toBe('0.37');
  });

  it('shows the second outcome’s own book and the tape in its prices', async () => {
    await page.locator(`[data-testid="outcomes"] button[data-token="${market.tokens[1].tokenId}"]`).click();
    const want = sandboxBook(market.tokens[1].tokenId);
    await expect
      .poll(ladderRows)
      .toEqual([...want.asks.reverse().map((p) => ['ask', p]), ...want.bids.map((p) => ['bid', p])]);
    const first = page.locator('[data-testid="trade-tape"] [data-kind="fill"]').first();
    await expect.poll(() => attr(first, 'data-price')).toBe('0.58');
    const chart = page.locator('[data-testid="price-chart"]');
    await expect.poll(() => attr(chart, 'data-state')).toBe('ready');
  });

  it('opens another market from a link pasted into the open tab, and stops following the previous one', async () => {
    const other = t.sandbox.catalog.events
      .flatMap((e) => e.markets.map((m) => ({ event: e, market: m })))
      .find(
        (x) =>
          x.market.id !== market.id && (t.sandbox.marketData.book(x.market.tokens[0].tokenId)?.bids.length ?? 0) > 0,
      )!;
    // Every book update the page hears from here on, with the market it is for.
    await page.evaluate(() => {
      const w = globalThis as unknown as {
        heardBooks: string[];
        terminal: { on: (e: string, l: (p: { marketId: string }) => void) => void };
      };
      w.heardBooks = [];
      w.terminal.on('bookUpdate', (update) => w.heardBooks.push(update.marketId));
    });
    await page.evaluate(
      (hash) => {
        (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
      },
      `${new URL(t.mode.host.launchUrl).hash}&market=${other.market.id}&event=${other.event.id}`,
    );
    await expect.poll(() => page.locator('.market-question').textContent()).toBe(other.market.question);
    const want = sandboxBook(other.market.tokens[0].tokenId);
    await expect
      .poll(ladderRows)
      .toEqual([...want.asks.reverse().map((p) => ['ask', p]), ...want.bids.map((p) => ['bid', p])]);
    const switched = await page.evaluate(() => (globalThis as unknown as { heardBooks: string[] }).heardBooks.length);

    // An order on each market: the new one's book moves on the ladder, the old one's is no longer sent here.
    const below = (m: CatalogMarket, offset: number) =>
      Math.round((sandboxBook(m.tokens[0].tokenId).bids.at(-1)! - offset) * 100) / 100;
    const oldPrice = below(market, 0.04);
    const newPrice = below(other.market, 0.01);
    expect(Math.min(oldPrice, newPrice)).toBeGreaterThan(0);
    expect(
      await terminalCall('placeOrder', {
        wallet: 'maker',
        marketId: market.id,
        tokenId: market.tokens[0].tokenId,
        side: 'BUY',
        price: oldPrice,
        size: 10,
      }),
    ).toMatchObject({ ok: true });
    expect(
      await terminalCall('placeOrder', {
        wallet: 'maker',
        marketId: other.market.id,
        tokenId: other.market.tokens[0].tokenId,
        side: 'BUY',
        price: newPrice,
        size: 10,
      }),
    ).toMatchObject({ ok: true });
    await page.locator(`[data-testid="order-book"] .ladder-row[data-side="bid"][data-price="${newPrice}"]`).waitFor();
    const after = await page.evaluate(
      (from) => (globalThis as unknown as { heardBooks: string[] }).heardBooks.slice(from),
      switched,
    );
    expect(after).toContain(other.market.id);
    expect(after).not.toContain(market.id);
  });

  it('shows a trader’s profile from the aggregator: the stats it states, and that it has no activity', async () => {
    const address = t.sandbox.profile.testWallets[0]!.address;
    await page.getByTestId('account-tab-trader').click();
    await page.getByTestId('trader-address').fill(address);
    await expect.poll(() => page.getByTestId('profile-name').textContent()).toBe('sandbox-trader-1');
    const stat = (key: string) => page.getByTestId('profile-stats').locator(`[data-stat="${key}"] dd`);
    // The maker's orders only rested: no volume yet; the aggregator does not count markets traded.
    expect(await stat('volume').textContent()).toBe('$0.00');
    expect(await stat('markets').textContent()).toBe('—');
    expect(await stat('markets').getAttribute('title')).toBe('This source does not state it.');
    await page.getByTestId('profile-tab-activity').click();
    expect(await page.getByTestId('profile-unavailable').textContent()).toMatch(
      /^The aggregator has no trader activity/,
    );
    await page.getByTestId('profile-tab-positions').click();
  });

  it('an empty book says so in its places, the spread row where a full ladder has it', async () => {
    const other = t.sandbox.catalog.events
      .flatMap((e) => e.markets)
      .find((m) => m.id !== market.id && !m.closed && m.tokens.length === 2)!;
    await page.evaluate(
      (hash) => {
        (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
      },
      `${new URL(t.mode.host.launchUrl).hash}&market=${other.id}`,
    );
    await expect.poll(() => page.locator('.market-question').textContent()).toBe(other.question);
    const ladder = page.getByTestId('order-book');
    await ladder.locator('[data-testid="spread"]').waitFor();
    // The exchange empties the book of the outcome shown (its last level of each side goes).
    const token = other.tokens[0].tokenId;
    const now = t.sandbox.marketData.book(token)!;
    const summary = {
      ...now,
      timestamp: String(Math.max(Date.now(), Number(now.timestamp) + 1)),
      hash: '',
      bids: [],
      asks: [],
    };
    t.sandbox.clob.publishBooks(other.conditionId, [{ ...summary, hash: bookHash(summary) }]);
    const notes = ladder.locator('.ladder-note');
    await expect.poll(() => notes.allTextContents()).toEqual(['No asks', 'No bids']);
    // The asks' note in the last ask place, the bids' in the first bid place, the spread row between: where it is
    // on a full ladder (the header, then 12 places of 22 px).
    expect(await notes.evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-rowindex')))).toEqual(['13', '15']);
    const offsets = await ladder
      .locator('.ladder-note, [data-testid="spread"]')
      .evaluateAll((rows) => rows.map((r) => (r as unknown as { offsetTop: number }).offsetTop));
    expect(offsets.slice(0, 2)).toEqual([22 * 12, 22 * 13]);
    expect(await ladder.getByTestId('spread').textContent()).toContain('No spread: one side is empty');
  });

  it('says in a sentence when a linked market cannot be loaded', async () => {
    await page.evaluate(
      (hash) => {
        (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
      },
      `${new URL(t.mode.host.launchUrl).hash}&market=no-such-market`,
    );
    const header = page.locator('.market-header[role="alert"]');
    await header.waitFor();
    expect(await header.textContent()).toMatch(/^This market could not be loaded: [A-Z][^\n]*\.$/);
    expect(await header.textContent()).toContain('no-such-market');
    const ladder = page.locator('[data-testid="order-book"]');
    await expect.poll(() => ladder.textContent()).toMatch(/The order book could not be loaded: [A-Z]/);
    expect(await ladder.textContent()).not.toMatch(/\bat \w+ \(|Error:/);
  });
});

describe('the markets list read through the aggregator', () => {
  const grid = '[data-testid="markets-grid"]';
  /** The market rows the grid shows (an event's head row is not a market). */
  const shown = () =>
    page.$$eval(`${grid} .ag-row[row-id]:not(.event-row)`, (rows) =>
      rows.map((r) => r.getAttribute('row-id') ?? '').sort(),
    );
  const every = () => t.sandbox.catalog.events.flatMap((e) => e.markets.map((m) => m.id)).sort();

  it('offers its protocols; the sandbox has no Limitless events, and says so, in the list and in search', async () => {
    const filter = page.getByTestId('protocol-filter');
    expect(await filter.locator('option').allTextContents()).toEqual([
      'All protocols',
      'Polymarket',
      'Limitless',
      'TrueMarket',
    ]);
    await expect.poll(shown).toEqual(every());
    await filter.selectOption('limitless');
    await expect.poll(shown).toEqual([]);
    expect(await page.textContent('[data-testid="markets-empty"]')).toBe('No ongoing events on Limitless.');
    await page.fill('[data-testid="search-input"]', 'bitcoin');
    await expect
      .poll(() => page.textContent('[data-testid="markets-empty"]'))
      .toBe('No markets match “bitcoin” on Limitless. 1 market matches on other protocols.');
    await filter.selectOption('all');
    await expect.poll(shown).toEqual(['90021']);
    await page.fill('[data-testid="search-input"]', '');
    await expect.poll(shown).toEqual(every());
  });
});
