// A market's trading rules as the exchange states them, for every side (the toolkit's rounding table, the order
// flow's checks and the ticket): the tick sizes there are, the price decimals of each, and how a market of the
// market model (whichever source read it) gives its tick and minimum order size. One list, so the ticket
// cannot know fewer ticks than the order builder.
import type { Market, MarketFees, PositionToken } from './market-model';

export const TICK_SIZES = ['0.1', '0.01', '0.005', '0.0025', '0.001', '0.0001'] as const;
export type TickSize = (typeof TICK_SIZES)[number];

/** Decimals of a price on each tick (docs/protocol.md#rounding-and-amounts, plus version 2's 0.005 and 0.0025). */
export const PRICE_DECIMALS: Readonly<Record<TickSize, number>> = {
  '0.1': 1,
  '0.01': 2,
  '0.005': 3,
  '0.0025': 4,
  '0.001': 3,
  '0.0001': 4,
};

export function isTickSize(value: unknown): value is TickSize {
  return typeof value === 'string' && (TICK_SIZES as readonly string[]).includes(value);
}

/** The market's tick, or undefined when it names none we know. */
export function marketTickSize(market: Market): TickSize | undefined {
  return isTickSize(market.minimum_tick_size) ? market.minimum_tick_size : undefined;
}

/** The market's minimum order size in shares, or undefined when it states none. */
export function marketMinimumOrderSize(market: Market): number | undefined {
  const size = market.minimum_order_size;
  return size !== undefined && Number.isFinite(size) && size > 0 ? size : undefined;
}

/** The market as the order flow and the ticket need it, from the market model (read once, here). */
export interface TradedMarket {
  id: string;
  question: string;
  conditionId: string | undefined;
  negRisk: boolean;
  tickSize: TickSize | undefined;
  minimumOrderSize: number | undefined;
  acceptingOrders: boolean;
  closed: boolean;
  tokens: readonly PositionToken[];
  /** The fee terms the source states for the market (the exchange's own, where it answers, win: trading/order-fees.ts). */
  fees?: MarketFees;
}

export function tradedMarket(market: Market): TradedMarket {
  return {
    id: market.id,
    question: market.question || market.name,
    conditionId: market.conditionId || undefined,
    negRisk: market.neg_risk === true,
    tickSize: marketTickSize(market),
    minimumOrderSize: marketMinimumOrderSize(market),
    // Absent flags are read as the open market a source lists.
    acceptingOrders: market.accepting_orders !== false && market.active !== false,
    closed: market.closed === true,
    tokens: market.position_tokens,
    ...(market.fees ? { fees: market.fees } : {}),
  };
}
