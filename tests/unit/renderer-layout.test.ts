// The panel sizes the splitters set: defaults, bounds, a window too small for the saved sizes (squeezed, never
// below a minimum, the trader's sizes back when the window grows), and a double-click's reset.
import { describe, expect, it } from 'vitest';
import {
  boundedSize,
  COLUMNS_INITIAL_HEIGHT,
  fitPanels,
  initialMarketsWidth,
  MARKET_MIN_WIDTH,
  PANEL_BOUNDS,
  SPLITTER_PX,
  withoutPanel,
} from '../../src/renderer/src/components/shell/panel-sizes';

const big = { width: 1600, height: 960 };

describe('panel sizes', () => {
  it('start from the defaults when the trader has set none', () => {
    expect(fitPanels({}, big).sizes).toEqual({
      markets: PANEL_BOUNDS.markets.initial,
      ticket: PANEL_BOUNDS.ticket.initial,
      account: PANEL_BOUNDS.account.initial,
    });
  });

  it('on a wide screen the markets column starts wider, so market names use the room (1920×1080)', () => {
    expect(fitPanels({}, { width: 1920, height: 1040 }).sizes.markets).toBe(832);
    expect(initialMarketsWidth(1280)).toBe(PANEL_BOUNDS.markets.initial);
    expect(initialMarketsWidth(3840)).toBe(840);
    // A width the trader set stays theirs.
    expect(fitPanels({ markets: 500 }, { width: 1920, height: 1040 }).sizes.markets).toBe(500);
  });

  it("on a short screen the account row starts lower, so the columns keep the ticket's whole form (1280×800)", () => {
    const laptop = { width: 1280, height: 760 };
    const { account } = fitPanels({}, laptop).sizes;
    expect(laptop.height - account - SPLITTER_PX).toBe(COLUMNS_INITIAL_HEIGHT);
    expect(account).toBeGreaterThanOrEqual(PANEL_BOUNDS.account.min);
    // A height the trader set stays theirs.
    expect(fitPanels({ account: 300 }, laptop).sizes.account).toBe(300);
    expect(fitPanels({}, { width: 1280, height: 500 }).sizes.account).toBe(PANEL_BOUNDS.account.min);
  });

  it('draw the saved sizes, each within its bounds (a corrupt or huge value cannot hide a panel)', () => {
    expect(fitPanels({ markets: 700, ticket: 340, account: 300 }, big).sizes).toEqual({
      markets: 700,
      ticket: 340,
      account: 300,
    });
    const wild = fitPanels({ markets: 5, ticket: 99_999, account: Number.NaN }, { width: 4000, height: 3000 }).sizes;
    expect(wild).toEqual({
      markets: PANEL_BOUNDS.markets.min,
      ticket: PANEL_BOUNDS.ticket.max,
      account: PANEL_BOUNDS.account.initial,
    });
  });

  it('squeeze in a small window so the market column keeps its room: markets first, then the ticket', () => {
    const saved = { markets: 800, ticket: 400, account: 600 };
    const small = fitPanels(saved, { width: 1280, height: 700 });
    expect(small.sizes.markets + small.sizes.ticket + 2 * SPLITTER_PX + MARKET_MIN_WIDTH).toBe(1280);
    expect(small.sizes.ticket).toBe(400);
    expect(small.sizes.account).toBeLessThan(600);
    const tiny = fitPanels(saved, { width: 700, height: 300 }).sizes;
    expect(tiny.markets).toBe(PANEL_BOUNDS.markets.min);
    expect(tiny.ticket).toBe(PANEL_BOUNDS.ticket.min);
    expect(tiny.account).toBe(PANEL_BOUNDS.account.min);
    // Growing the window back gives the trader's layout again: the saved sizes were never changed.
    expect(fitPanels(saved, { width: 2400, height: 1400 }).sizes).toEqual(saved);
  });

  it('bound a drag by the room left in this window', () => {
    const { max } = fitPanels({ ticket: 300 }, big);
    expect(max.markets).toBe(1600 - MARKET_MIN_WIDTH - 2 * SPLITTER_PX - 300);
    expect(boundedSize('markets', 5000, max.markets)).toBe(max.markets);
    expect(boundedSize('markets', 10, max.markets)).toBe(PANEL_BOUNDS.markets.min);
    expect(boundedSize('ticket', 333.4, 700)).toBe(333);
  });

  it('reset one panel to its default by dropping its saved size', () => {
    expect(withoutPanel({ markets: 700, ticket: 340 }, 'markets')).toEqual({ ticket: 340 });
    expect(fitPanels(withoutPanel({ markets: 700 }, 'markets'), big).sizes.markets).toBe(PANEL_BOUNDS.markets.initial);
  });
});
