// The order ticket's state. Other panels only fill it (a click on a ladder price) or focus a side (`b`/`s`);
// the ticket itself owns the rest (src/renderer/src/components/ticket).
import { create } from 'zustand';

export type TicketSide = 'BUY' | 'SELL';

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

  set(patch: Partial<Omit<TicketState, 'set' | 'fillFromLadder' | 'focusSide' | 'reset'>>): void;
  /** A fresh ticket (another market was chosen): BUY, limit GTC, no price, no size. */
  reset(): void;
  /** A click on a ladder price: a limit order at that price, on the side that would rest against it. */
  fillFromLadder(price: number, side: TicketSide): void;
  focusSide(side: TicketSide): void;
}

const FRESH = { side: 'BUY', kind: 'limit', priceCents: '', amount: '', sizeUnit: 'shares', orderType: 'GTC', expiry: '', postOnly: false } as const;

export const useTicket = create<TicketState>()((set) => ({
  ...FRESH,
  focusRequest: 0,
  set: (patch) => set(patch),
  reset: () => set(FRESH),
  fillFromLadder: (price, side) => set({ side, kind: 'limit', priceCents: String(Math.round(price * 10_000) / 100), orderType: 'GTC', sizeUnit: 'shares' }),
  focusSide: (side) => set((s) => ({ side, focusRequest: s.focusRequest + 1 })),
}));
