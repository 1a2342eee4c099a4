// Whether new orders may be placed now, for the active wallet: main's region (geoblock) and close-only checks,
// asked again when main says an answer changed, on a network switch, and when the active wallet changes or
// unlocks. The top bar's banner and the ticket read it; reading markets never depends on it.
import { create } from 'zustand';
import type { TradingAccessInfo } from '../../../shared/contract';
import { ask, listen } from '../bridge/terminal';
import { activeWalletInfo, useSession } from './session';

export interface TradingAccessState {
  /** The latest answer for the active wallet (or the region alone without one); null until main answered. */
  access: TradingAccessInfo | null;
}

export const useTradingAccess = create<TradingAccessState>()(() => ({ access: null }));

/** Only the newest question's answer counts: an older one may come back later. */
let asked = 0;

export async function refreshTradingAccess(): Promise<void> {
  const session = useSession.getState();
  const wallet = activeWalletInfo(session)?.label;
  const mine = ++asked;
  try {
    const access = await ask('getTradingAccess', wallet ? { wallet } : {});
    if (mine === asked) useTradingAccess.setState({ access });
  } catch {
    // No answer (an older main, a session without the checks): nothing is known, so nothing is shown or held back;
    // main refuses what it must when the order is sent.
    if (mine === asked) useTradingAccess.setState({ access: null });
  }
}

/** Follows main's answers; called once at start. */
export function startTradingAccess(): void {
  listen('tradingAccess', (info) => {
    const active = useSession.getState().activeWallet;
    if (info.wallet === null || info.wallet.toLowerCase() === active?.toLowerCase()) void refreshTradingAccess();
  });
  listen('network', () => void refreshTradingAccess());
  // The active wallet, and whether it is unlocked (its account is asked only then).
  const key = () => {
    const wallet = activeWalletInfo(useSession.getState());
    return wallet ? `${wallet.label}:${wallet.unlocked}` : '';
  };
  let last = key();
  useSession.subscribe(() => {
    const now = key();
    if (now === last) return;
    last = now;
    void refreshTradingAccess();
  });
  void refreshTradingAccess();
}

/** Why the ticket must not send this side now, or null (close-only still sells). */
export function refusedSide(access: TradingAccessInfo | null, side: 'BUY' | 'SELL'): string | null {
  if (!access || access.allowed) return null;
  if (access.state === 'close-only' && side === 'SELL') return null;
  return access.reason;
}
