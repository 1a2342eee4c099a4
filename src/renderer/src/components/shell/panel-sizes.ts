// The terminal's panel sizes as the splitters set them: each panel's bounds, its size when the trader has set
// none, and the sizes actually drawn in a window of a given size (the saved ones, squeezed so the market in the
// middle and the columns above the account never vanish). Pure, so the unit tests check it directly.

/** The panels a splitter sizes: the markets and ticket columns' widths, the account row's height. */
export const PANEL_NAMES = ['markets', 'ticket', 'account'] as const;
export type PanelName = (typeof PANEL_NAMES)[number];
export type PanelSizes = Record<PanelName, number>;

export interface PanelBounds {
  min: number;
  max: number;
  /** The size before the trader drags it (and after a double-click on its splitter). */
  initial: number;
}

/** Wide enough at the start for the grid's default columns; the ticket as it always was; the account a third. */
export const PANEL_BOUNDS: Record<PanelName, PanelBounds> = {
  markets: { min: 260, max: 1400, initial: 560 },
  ticket: { min: 260, max: 700, initial: 300 },
  account: { min: 120, max: 1000, initial: 260 },
};

/** The chosen market's column keeps at least this width; the three columns at least this height. */
export const MARKET_MIN_WIDTH = 360;
export const COLUMNS_MIN_HEIGHT = 220;
/** A splitter's thickness (the grab area between two panels). */
export const SPLITTER_PX = 6;

export interface Fitted {
  /** The sizes to draw. */
  sizes: PanelSizes;
  /** How big each panel may be dragged in this window (never under its min). */
  max: PanelSizes;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
/** Past this window width the markets column starts wider, so the grid's market names use the room a big screen has. */
export const WIDE_WINDOW = 1600;
/**
 * The markets column's width before the trader sets one: its usual 560 px up to a 1600 px window, then most of
 * every pixel more, up to 840. A 1920 px window gets 832: the grid's default columns (prices, volume, liquidity,
 * end date) and a question of some 55 characters whole; the tiles keep about 780 px.
 */
export function initialMarketsWidth(areaWidth: number): number {
  const { initial } = PANEL_BOUNDS.markets;
  return clamp(Math.round(initial + (areaWidth - WIDE_WINDOW) * 0.85), initial, 840);
}

const wanted = (
  saved: Readonly<Record<string, number>>,
  name: PanelName,
  initial = PANEL_BOUNDS[name].initial,
): number => {
  const size = saved[name];
  const { min, max } = PANEL_BOUNDS[name];
  return typeof size === 'number' && Number.isFinite(size) ? clamp(Math.round(size), min, max) : initial;
};

/** Before the trader sizes the account row, the columns above it keep this height (the ticket's whole form). */
export const COLUMNS_INITIAL_HEIGHT = 560;
/** The account row's height before the trader sets one: its usual 260 px, less on a short screen. */
export function initialAccountHeight(areaHeight: number): number {
  const { min, initial } = PANEL_BOUNDS.account;
  return clamp(Math.round(areaHeight - COLUMNS_INITIAL_HEIGHT - SPLITTER_PX), min, initial);
}

/**
 * The sizes drawn in an area of `width` × `height` (below the top bar). The saved sizes are kept as the trader
 * set them; a window too small for them squeezes the markets column first, then the ticket, then the account,
 * never below their minimum, so shrinking the window and growing it back gives the trader's layout again.
 */
export function fitPanels(saved: Readonly<Record<string, number>>, area: { width: number; height: number }): Fitted {
  const b = PANEL_BOUNDS;
  let markets = wanted(saved, 'markets', initialMarketsWidth(area.width));
  let ticket = wanted(saved, 'ticket');
  // On a laptop screen (1280×800) a fixed 260 px row left the ticket's submit button below the columns' fold.
  let account = wanted(saved, 'account', initialAccountHeight(area.height));
  const sideRoom = Math.max(0, area.width - MARKET_MIN_WIDTH - 2 * SPLITTER_PX);
  let over = markets + ticket - sideRoom;
  if (over > 0) {
    const take = Math.min(over, markets - b.markets.min);
    markets -= take;
    over -= take;
  }
  if (over > 0) ticket -= Math.min(over, ticket - b.ticket.min);
  const accountRoom = Math.max(b.account.min, area.height - COLUMNS_MIN_HEIGHT - SPLITTER_PX);
  account = Math.min(account, accountRoom);
  return {
    sizes: { markets, ticket, account },
    max: {
      markets: clamp(sideRoom - ticket, b.markets.min, b.markets.max),
      ticket: clamp(sideRoom - markets, b.ticket.min, b.ticket.max),
      account: clamp(accountRoom, b.account.min, b.account.max),
    },
  };
}

/** A size after a keyboard step or a drag, within the panel's bounds in this window. */
export function boundedSize(name: PanelName, size: number, max: number): number {
  return clamp(Math.round(size), PANEL_BOUNDS[name].min, Math.max(PANEL_BOUNDS[name].min, max));
}

/** The saved sizes with one panel back to its default (a double-click on its splitter): the entry is removed. */
export function withoutPanel(saved: Readonly<Record<string, number>>, name: PanelName): Record<string, number> {
  const { [name]: _dropped, ...rest } = saved;
  return rest;
}
