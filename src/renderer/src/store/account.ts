// The active wallet's account: open orders, trades (pending until CONFIRMED), positions and balances. The
// account panel fills it (and follows `account` events); the ladder reads `openOrders` to mark own orders.
import { create } from 'zustand';
import type { Balances, OpenOrder, PositionInfo, TradeInfo } from '../../../shared/contract';

export interface AccountState {
  wallet: string | null;
  openOrders: OpenOrder[];
  trades: TradeInfo[];
  positions: PositionInfo[];
  balances: Balances | null;
  set(patch: Partial<Omit<AccountState, 'set'>>): void;
}

export const useAccount = create<AccountState>()((set) => ({
  wallet: null,
  openOrders: [],
  trades: [],
  positions: [],
  balances: null,
  set: (patch) => set(patch),
}));
