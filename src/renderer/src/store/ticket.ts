// The order ticket's state. Other panels only fill it (a click on a ladder price) or focus a side (`b`/`s`);
// the ticket itself owns the rest (src/renderer/src/components/ticket).
import { create } from 'zustand';

export type TicketSide = 'BUY' | 'SELL';

/**
 * A sell of a whole position asked from the Positions table (Close, Limit sell): the ticket applies it once
 * the position's market is the one it has loaded, then opens its own confirmation (Close) or focuses the price
 * for review (Limit sell). One order path: the ticket's own review, confirmation and placeOrder.
 */
export interface PositionSellRequest {
  /** The source's market id (what selects the market) and its condition id (what matches it once loaded). */
  marketId: string;
  conditionId: string | null;
  /** The outcome token, or its name when the source gave no token id. */
  tokenId: string | null;
  outcome: string;
  /** Shares: the whole position. */
  size: number;
  /** Market: FOK at the book, confirmation opened at once. Limit: GTC at `priceCents`, left for the trader to place. */
  kind: 'market' | 'limit';
  priceCents?: string;
}

export interface TicketState {
  side: TicketSide;
  /** Limit: the trader names a price; market: FOK/FAK at the book. */
  kind: 'limit' | 'market';
  /** The price in cents as typed (snapped to the tick before it is sent). */
  priceCents: string;
  /** Shares (limit, and market SELL) or dollars (market BUY), as typed. */
  amount: string;
  sizeUnit: 'shares' | 'usd';
  orderType: 'GTC' | 'GTD' | 'FOK' | 'FAK';
  /** GTD expiry, as a local date-time string. */
  expiry: string;
  postOnly: boolean;
  /** Bumped to ask the ticket to focus its side (so `b`/`s` work from anywhere). */
  focusRequest: number;
  /** The size preset keyboard orders use (an index into the settings' presets), kept from market to market. */
  presetIndex: number;
  /** A position's sell waiting for its market to load in the ticket (null once applied). */
  sellRequest: (PositionSellRequest & { id: number }) | null;
  /**
   * A price picked for another market than the ticket's (an event board's outcome): applied by the fresh start the
   * ticket makes when that market becomes its own, instead of being wiped by it.
   */
  pendingFill: { marketId: string; price: number; side: TicketSide } | null;

  set(
    patch: Partial<
      Omit<TicketState, 'set' | 'fillFromLadder' | 'fillForMarket' | 'focusSide' | 'reset' | 'sellPosition'>
    >,
  ): void;
  /**
   * A fresh ticket (another market was chosen): BUY, limit GTC, no price, no size — or, when a price was picked for
   * that market before it became the ticket's (`fillForMarket`), that price's limit order.
   */
  reset(marketId?: string): void;
  /** A click on a ladder price: a limit order at that price, on the side that would rest against it. */
  fillFromLadder(price: number, side: TicketSide): void;
  /** A click on a price of a market the ticket is about to take (`reset(marketId)` applies it). */
  fillForMarket(marketId: string, price: number, side: TicketSide): void;
  focusSide(side: TicketSide): void;
  /** Close or Limit sell from the Positions table (the caller opens the position's market first). */
  sellPosition(request: PositionSellRequest): void;
}

const FRESH = {
  side: 'BUY',
  kind: 'limit',
  priceCents: '',
  amount: '',
  sizeUnit: 'shares',
  orderType: 'GTC',
  expiry: '',
  postOnly: false,
} as const;

const ladderFill = (price: number, side: TicketSide) =>
  ({
    side,
    kind: 'limit',
    priceCents: String(Math.round(price * 10_000) / 100),
    orderType: 'GTC',
    sizeUnit: 'shares',
  }) as const;

export const useTicket = create<TicketState>()((set) => ({
  ...FRESH,
  focusRequest: 0,
  presetIndex: 0,
  sellRequest: null,
  pendingFill: null,
  set: (patch) => set(patch),
  reset: (marketId) =>
    set((s) =>
      s.pendingFill && s.pendingFill.marketId === marketId
        ? { ...FRESH, ...ladderFill(s.pendingFill.price, s.pendingFill.side), pendingFill: null }
        : { ...FRESH, pendingFill: null },
    ),
  fillFromLadder: (price, side) => set({ ...ladderFill(price, side), pendingFill: null }),
  fillForMarket: (marketId, price, side) => set({ pendingFill: { marketId, price, side } }),
  focusSide: (side) => set((s) => ({ side, focusRequest: s.focusRequest + 1 })),
  sellPosition: (request) => set((s) => ({ sellRequest: { ...request, id: (s.sellRequest?.id ?? 0) + 1 } })),
}));
