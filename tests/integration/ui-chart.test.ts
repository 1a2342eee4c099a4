// The price chart in headless Chromium against the sandbox (markets from the aggregator, whose candles carry the
// fills' volume): it opens on the probability line in ¢ with dates on Max's axis; 1H is drawn in minute candles,
// one slot a minute, so minutes without a trade stay gaps on a linear axis; candles switch in and stay chosen
// for the session; the legend follows the pointer; a live fill grows the last candle, or fills an empty slot
// already drawn; a range without trades says so. The series are read as the library holds them, through the
// hook the chart sets on the sandbox only.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogMarket } from '../../sandbox/market/catalog';
import { openTerminalPage, type TerminalPage } from '../helpers/terminal-page';

let t: TerminalPage;
let page: Page;
let market: CatalogMarket;
let eventId: string;
/** When the test's own fills were made (unix seconds): 50, 20 and 3 minutes ago. */
let now: number;

interface Point {
  time: number;
  open?: number;
  close?: number;
  value?: number;
}

/** The chart's hook (PriceChart's ChartProbe), called in the page. */
async function probe<T>(call: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    ([call, args]) => {
      const hook = (globalThis as unknown as { __pmdeskChart?: Record<string, (...a: unknown[]) => unknown> })
        .__pmdeskChart;
      if (!hook) throw new Error('no chart hook on this page');
      return hook[call as string]!(...(args as unknown[])) as T;
    },
    [call, args] as const,
  );
}
const series = () => probe<{ candles: Point[]; line: Point[]; volume: Point[] }>('series');
const attr = (locator: Locator, name: string) => locator.getAttribute(name);
const minute = (t: number) => Math.floor(t / 60) * 60;

/** The market's fills per minute bucket from `from` on, as the sandbox holds them: open, close (in 0..1) and volume. */
function sandboxMinutes(from: number): Map<number, { open: number; close: number; volume: number }> {
  const byMinute = new Map<number, { open: number; close: number; volume: number }>();
  // By time, in the order recorded where two share a second (as the candles are made).
  const fills = [...t.sandbox.marketData.fills(market.tokens[0].tokenId)]
    .filter((f) => f.timestamp >= from)
    .sort((a, b) => a.timestamp - b.timestamp);
  for (const fill of fills) {
    const known = byMinute.get(minute(fill.timestamp));
    if (known) Object.assign(known, { close: fill.price, volume: known.volume + fill.volumeBase });
    else byMinute.set(minute(fill.timestamp), { open: fill.price, close: fill.price, volume: fill.volumeBase });
  }
  return byMinute;
}

beforeAll(async () => {
  t = await openTerminalPage({ source: 'aggregator' });
  page = t.page;
  const event = t.sandbox.catalog.events.find((e) => !e.negRisk)!;
  eventId = event.id;
  market = event.markets[0]!;
  // Trades of our own in the last hour: two in one minute, then one 30 minutes later, and one just now.
  now = Math.floor(Date.now() / 1000);
  const token = market.tokens[0].tokenId;
  for (const [ago, price, size] of [
    [50 * 60, 0.41, 5],
    [50 * 60 - 1, 0.43, 6],
    [20 * 60, 0.46, 9],
    [3 * 60, 0.44, 4],
  ] as const) {
    t.sandbox.marketData.recordFill(token, { price, volumeBase: size, timestamp: now - ago });
  }
  await page.goto('about:blank');
  await page.goto(`${t.mode.host.launchUrl}&market=${market.id}&event=${eventId}`);
  await page.waitForSelector('[data-testid="market-header"]');
}, 120_000);

afterAll(async () => {
  await t?.stop();
});

describe('the price chart', () => {
  it('opens on the probability line over Max in daily buckets, prices in ¢, dates on the axis, volume beneath', async () => {
    const chart = page.getByTestId('price-chart');
    await expect.poll(() => attr(chart, 'data-state')).toBe('ready');
    expect(await attr(chart, 'data-mode')).toBe('line');
    expect(await attr(chart, 'data-interval')).toBe('1d');
    expect(await chart.locator('.chart-modes button[aria-pressed="true"]').textContent()).toBe('Line');
    expect(await probe('visible')).toEqual({ candles: false, line: true, volume: true });
    const { line, volume } = await series();
    expect(line.length).toBe(Number(await attr(chart, 'data-slots')));
    expect(new Set(line.slice(1).map((p, i) => p.time - line[i]!.time))).toEqual(new Set([86_400]));
    expect(volume.some((p) => (p.value ?? 0) > 0)).toBe(true);
    // The axis and crosshair speak cents; the axis marks days as dates, not bare numbers.
    expect(await probe('priceLabel', 42)).toMatch(/^42(\.0)?¢$/);
    expect(await probe('timeLabel', line[0]!.time, 2)).toMatch(
      /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)$/,
    );
    expect(await probe('timeLabel', line[0]!.time, 3)).toMatch(/^\d\d:\d\d$/);
    // The library's credit is a line of text beside the legend, not a logo on the plot.
    expect(await chart.getByTestId('chart-credit').textContent()).toContain('TradingView Lightweight Charts');
    expect(await chart.locator('.chart-canvas a').count()).toBe(0);
  });

  it('draws 1H in minute buckets, a slot every minute: minutes without a trade stay gaps', async () => {
    const chart = page.getByTestId('price-chart');
    // The chart's hour ends when it is read, somewhere between the click and its being ready (not at the trades
    // recorded before the tests: a minute may turn in between on a slow machine).
    const clicked = Math.floor(Date.now() / 1000);
    await chart.locator('button[data-range="1h"]').click();
    await expect.poll(() => attr(chart, 'data-interval')).toBe('1m');
    await expect.poll(() => attr(chart, 'data-state')).toBe('ready');
    const ready = Math.floor(Date.now() / 1000);
    const slots = await probe<{ time: number; traded: boolean }[]>('slots');
    // An hour and a bit of minutes, evenly spaced, up to this minute.
    expect(slots.length).toBeGreaterThanOrEqual(61);
    expect(new Set(slots.slice(1).map((s, i) => s.time - slots[i]!.time))).toEqual(new Set([60]));
    expect(slots[0]!.time).toBeLessThanOrEqual(minute(ready - 3_600));
    expect(slots.at(-1)!.time).toBeGreaterThanOrEqual(minute(clicked));
    // Candles exactly where the sandbox has trades, several of them; every other minute an empty slot.
    const { candles, line, volume } = await series();
    const traded = sandboxMinutes(slots[0]!.time);
    expect(candles.map((p) => p.time)).toEqual([...traded.keys()].sort((a, b) => a - b));
    expect(slots.filter((s) => s.traded).map((s) => s.time)).toEqual(candles.map((p) => p.time));
    expect(candles.length).toBeGreaterThanOrEqual(3);
    expect(slots.length - candles.length).toBeGreaterThan(40);
    expect(await attr(chart, 'data-trades')).toBe(String(candles.length));
    // On the axis, empty minutes keep their width: every minute is the same distance from the next.
    const xs = await Promise.all(slots.map((s) => probe<number | null>('x', s.time)));
    expect(xs.every((x) => x !== null)).toBe(true);
    const steps = xs.slice(1).map((x, i) => x! - xs[i]!);
    expect(Math.max(...steps) - Math.min(...steps)).toBeLessThan(0.01);
    // Our two fills in one minute: one candle from the first price to the second, their volume together.
    const ours = minute(now - 3_000);
    expect(candles.find((p) => p.time === ours)).toMatchObject({
      open: traded.get(ours)!.open * 100,
      close: traded.get(ours)!.close * 100,
    });
    expect(traded.get(ours)!.volume).toBeGreaterThanOrEqual(11);
    expect(volume.find((p) => p.time === ours)!.value).toBe(traded.get(ours)!.volume);
    expect(volume.map((p) => p.time)).toEqual(candles.map((p) => p.time));
    // The line has a point every minute from the first trade on, carrying the last price across empty ones.
    const firstTrade = line.findIndex((p) => p.value !== undefined);
    expect(line.map((p) => p.time)).toEqual(slots.slice(slots.length - line.length).map((s) => s.time));
    for (let i = Math.max(1, firstTrade); i < line.length; i++) {
      const price = traded.get(line[i]!.time);
      expect(line[i]!.value, `line at ${line[i]!.time}`).toBe(price ? price.close * 100 : line[i - 1]!.value);
    }
  });

  it('switches to candles, keeps that for the session, and the legend follows the pointer', async () => {
    const chart = page.getByTestId('price-chart');
    await chart.locator('.chart-modes button[data-mode="candles"]').click();
    await expect.poll(() => attr(chart, 'data-mode')).toBe('candles');
    expect(await probe('visible')).toEqual({ candles: true, line: false, volume: true });
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage.getItem(
          'pmdesk.chart.mode',
        ),
      ),
    ).toBe('candles');

    const box = (await chart.locator('.chart-canvas').boundingBox())!;
    const pointAt = async (time: number) => {
      const x = await probe<number | null>('x', time);
      expect(x, `bucket ${time} in view`).not.toBeNull();
      await page.mouse.move(box.x + x!, box.y + box.height / 2);
    };
    const ours = minute(now - 3_000);
    const traded = sandboxMinutes(ours);
    await pointAt(ours);
    const hovered = page.getByTestId('chart-hovered');
    await expect.poll(() => attr(hovered, 'data-time')).toBe(String(ours));
    expect(await page.getByTestId('chart-last').count()).toBe(0);
    const text = (await hovered.textContent())!;
    expect(text).toMatch(/O \d+(\.\d)?¢ H \d+(\.\d)?¢ L \d+(\.\d)?¢ C \d+(\.\d)?¢/);
    expect(await attr(hovered.locator('[data-close]'), 'data-price')).toBe(String(traded.get(ours)!.close));
    expect(await hovered.locator('[data-volume]').textContent()).toBe(String(traded.get(ours)!.volume));
    // Another bucket: the legend moves with the pointer; an empty one says there was no trade.
    const empty = [...Array(20).keys()].map((i) => ours + 60 * (i + 1)).find((m) => !traded.has(m))!;
    await pointAt(empty);
    await expect.poll(() => attr(hovered, 'data-time')).toBe(String(empty));
    expect(await hovered.locator('[data-no-trades]').count()).toBe(1);
    // Off the plot: the latest bucket again.
    await page.mouse.move(box.x + box.width / 2, box.y - 150);
    await page.getByTestId('chart-last').waitFor();

    // A reload in the same tab opens on candles again.
    await page.reload();
    await page.waitForSelector('[data-testid="market-header"]');
    await expect.poll(() => attr(page.getByTestId('price-chart'), 'data-state')).toBe('ready');
    expect(await attr(page.getByTestId('price-chart'), 'data-mode')).toBe('candles');
  });

  it('grows the last candle with a live fill', async () => {
    const chart = page.getByTestId('price-chart');
    await chart.locator('button[data-range="1h"]').click();
    await expect.poll(() => attr(chart, 'data-interval')).toBe('1m');
    await expect.poll(() => attr(chart, 'data-state')).toBe('ready');
    await expect.poll(() => attr(page.getByTestId('trade-tape'), 'data-feed')).toBe('open');
    const at = Math.floor(Date.now() / 1000) + 1;
    t.sandbox.marketData.recordFill(market.tokens[0].tokenId, { price: 0.47, volumeBase: 8, timestamp: at });
    const last = page.getByTestId('chart-last');
    await expect.poll(() => attr(last.locator('[data-close]'), 'data-price')).toBe('0.47');
    const { candles } = await series();
    expect(candles.at(-1)).toMatchObject({ time: minute(at), close: 47 });
    // The slots still run a minute apart up to it.
    const slots = await probe<{ time: number; traded: boolean }[]>('slots');
    expect(slots.at(-1)).toEqual({ time: minute(at), traded: true });
    expect(new Set(slots.slice(1).map((s, i) => s.time - slots[i]!.time))).toEqual(new Set([60]));
  });

  it('says when a range has no trades, and still spans the range', async () => {
    // A market with no trade in the last hour.
    const quiet = t.sandbox.catalog.events
      .flatMap((e) => e.markets.map((m) => ({ event: e, market: m })))
      .find(
        (x) =>
          x.market.id !== market.id &&
          t.sandbox.marketData.fills(x.market.tokens[0].tokenId).every((f) => f.timestamp < now - 3_700),
      );
    expect(quiet, 'a market without trades in the last hour').toBeDefined();
    await page.evaluate(
      (hash) => {
        (globalThis as unknown as { location: { hash: string } }).location.hash = hash;
      },
      `${new URL(t.mode.host.launchUrl).hash}&market=${quiet!.market.id}&event=${quiet!.event.id}`,
    );
    await expect.poll(() => page.locator('.market-question').textContent()).toBe(quiet!.market.question);
    const chart = page.getByTestId('price-chart');
    await chart.locator('button[data-range="1h"]').click();
    await expect.poll(() => attr(chart, 'data-state')).toBe('ready');
    await expect.poll(() => chart.getByTestId('chart-empty').textContent()).toBe('No trades in this range.');
    const slots = await probe<{ time: number; traded: boolean }[]>('slots');
    expect(slots.length).toBeGreaterThanOrEqual(61);
    expect(slots.some((s) => s.traded)).toBe(false);
    const { candles, line } = await series();
    expect(candles).toEqual([]);
    expect(line).toHaveLength(slots.length);
    // The line carries the price from before the range: flat, and there.
    expect(new Set(line.map((p) => p.value)).size).toBe(1);
    expect(line[0]!.value).toBeGreaterThan(0);

    // A fill heard live two minutes back, in a slot the clock has already drawn empty: it takes its place there.
    await expect.poll(() => attr(page.getByTestId('trade-tape'), 'data-feed')).toBe('open');
    const at = Math.floor(Date.now() / 1000) - 120;
    t.sandbox.marketData.recordFill(quiet!.market.tokens[0].tokenId, { price: 0.27, volumeBase: 3, timestamp: at });
    await expect.poll(() => attr(chart, 'data-trades')).toBe('1');
    expect(await chart.getByTestId('chart-empty').count()).toBe(0);
    const after = await probe<{ time: number; traded: boolean }[]>('slots');
    expect(after.filter((s) => s.traded).map((s) => s.time)).toEqual([minute(at)]);
    expect(new Set(after.slice(1).map((s, i) => s.time - after[i]!.time))).toEqual(new Set([60]));
    const redrawn = await series();
    expect(redrawn.candles).toEqual([{ time: minute(at), open: 27, high: 27, low: 27, close: 27 }]);
    // From there on the line is at the new price.
    expect(redrawn.line.filter((p) => p.time >= minute(at)).every((p) => p.value === 27)).toBe(true);
  });

  it('is fitted again when it narrows or widens: the whole range stays in view, first slot to last', async () => {
    const chart = page.getByTestId('price-chart');
    await chart.locator('button[data-range="1h"]').click();
    await expect.poll(() => attr(chart, 'data-state')).toBe('ready');
    /** The first and last slot's places across the plot, and the plot's width. */
    const ends = async () => {
      const slots = await probe<{ time: number }[]>('slots');
      const [first, last, width] = await Promise.all([
        probe<number | null>('x', slots[0]!.time),
        probe<number | null>('x', slots.at(-1)!.time),
        probe<number>('plotWidth'),
      ]);
      return { first, last, width };
    };
    const inView = ({ first, last, width }: { first: number | null; last: number | null; width: number }) =>
      first !== null && last !== null && first >= 0 && first < 40 && last <= width && last > width - 40;
    await expect.poll(async () => inView(await ends())).toBe(true);
    const wide = (await ends()).width;
    await page.setViewportSize({ width: 1000, height: 700 });
    await expect.poll(async () => (await ends()).width).toBeLessThan(wide);
    await expect.poll(async () => inView(await ends()), { message: 'the range in view once narrowed' }).toBe(true);
    const narrow = (await ends()).width;
    await page.setViewportSize({ width: 1600, height: 1000 });
    await expect.poll(async () => (await ends()).width).toBeGreaterThan(narrow);
    await expect.poll(async () => inView(await ends()), { message: 'the range in view once widened' }).toBe(true);
  });
});
