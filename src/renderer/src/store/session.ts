// The session's state every panel reads: the network, the settings main keeps, the wallets and which one is
// active, the live feeds' states, and the notices shown to the trader. Panels own their own stores
// (markets, market, ticket, account); this one is what they share.
import { create } from 'zustand';
import { DEFAULT_MARKET_SLIPPAGE_TICKS } from '../../../shared/contract';
import type {
  FeedState,
  NetworkChoice,
  NetworkInfo,
  Settings,
  TerminalEvents,
  WalletInfo,
} from '../../../shared/contract';
import { DEFAULT_KEY_BINDINGS, DEFAULT_SIZE_PRESETS } from '../../../shared/key-bindings';
import { ask, listen, messageOf } from '../bridge/terminal';

export const DEFAULT_SETTINGS: Settings = {
  theme: 'dark',
  watchlist: [],
  cancelAllKey: 'X',
  marketColumns: ['title', 'outcomes', 'volume', 'liquidity', 'endDate'],
  activeWallet: null,
  panelSizes: {},
  keyBindings: { ...DEFAULT_KEY_BINDINGS },
  sizePresets: { unit: DEFAULT_SIZE_PRESETS.unit, sizes: [...DEFAULT_SIZE_PRESETS.sizes] },
  keyboardOrdersWithoutConfirm: false,
  marketSlippageTicks: DEFAULT_MARKET_SLIPPAGE_TICKS,
  workspaces: {},
};

export type FeedStatus = TerminalEvents['feedStatus'];

export interface Notice {
  id: number;
  tone: 'info' | 'success' | 'error';
  message: string;
  txHash?: string;
  at: number;
}

export interface SessionState {
  network: NetworkInfo | null;
  networks: NetworkChoice[];
  settings: Settings;
  wallets: WalletInfo[];
  /** True once the wallet list was read: an empty list means "none yet", not "not asked yet". */
  walletsLoaded: boolean;
  activeWallet: string | null;
  /** Per `${feed}:${marketId}`: the latest state of each live feed. */
  feeds: Record<string, FeedStatus>;
  notices: Notice[];
  /** True once main answered at least once. */
  connected: boolean;
  /** True once the kept settings were read (or could not be): what was saved may be restored from then on. */
  settingsLoaded: boolean;

  notify(tone: Notice['tone'], message: string, txHash?: string): void;
  dismiss(id: number): void;
  saveSettings(patch: Partial<Settings>): Promise<void>;
  refreshWallets(): Promise<void>;
  setActiveWallet(label: string | null): void;
  refreshNetworks(): Promise<void>;
}

let noticeId = 0;

export const useSession = create<SessionState>()((set, get) => ({
  network: null,
  networks: [],
  settings: DEFAULT_SETTINGS,
  wallets: [],
  walletsLoaded: false,
  activeWallet: null,
  feeds: {},
  notices: [],
  connected: false,
  settingsLoaded: false,

  notify(tone, message, txHash) {
    const notice: Notice = { id: ++noticeId, tone, message, txHash, at: Date.now() };
    // The newest eight: older ones have been read or are in the log.
    set((s) => ({ notices: [...s.notices, notice].slice(-8) }));
  },
  dismiss(id) {
    set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
  },
  async saveSettings(patch) {
    // Shown at once; main keeps it (and answers with what it kept). Workspaces are per network: one network's
    // patch leaves the others', as main merges them.
    set((s) => ({
      settings: {
        ...s.settings,
        ...patch,
        ...(patch.workspaces ? { workspaces: { ...s.settings.workspaces, ...patch.workspaces } } : {}),
      },
    }));
    try {
      const saved = await ask('saveSettings', patch);
      set({ settings: saved });
    } catch (error) {
      get().notify('error', `Settings were not saved: ${messageOf(error)}`);
    }
  },
  async refreshWallets() {
    try {
      const wallets = await ask('listWallets', {});
      const active = get().activeWallet;
      set({
        wallets,
        walletsLoaded: true,
        activeWallet: active && wallets.some((w) => w.label === active) ? active : (wallets[0]?.label ?? null),
      });
    } catch (error) {
      get().notify('error', messageOf(error));
    }
  },
  setActiveWallet(label) {
    set({ activeWallet: label });
    void get().saveSettings({ activeWallet: label });
  },
  async refreshNetworks() {
    try {
      set({ networks: await ask('listNetworks', {}) });
    } catch (error) {
      get().notify('error', messageOf(error));
    }
  },
}));

/** The active wallet's record, if any. */
export function activeWalletInfo(state: SessionState): WalletInfo | undefined {
  return state.wallets.find((w) => w.label === state.activeWallet);
}

export function feedKey(feed: FeedStatus['feed'], marketId: string): string {
  return `${feed}:${marketId}`;
}

/**
 * The book and fill feeds this page follows now (feedKey; store/market.ts keeps it). Only they are in the status
 * bar: after a network switch main may still tell of a market the page followed on the old network (its ids name
 * other markets, or none, here) until the page lets it go.
 */
export const followedFeeds = new Set<string>();

/** A feed the page no longer follows leaves the status bar. */
export function forgetFeed(key: string): void {
  followedFeeds.delete(key);
  if (useSession.getState().feeds[key]) {
    useSession.setState((s) => {
      const { [key]: _gone, ...rest } = s.feeds;
      return { feeds: rest };
    });
  }
}

/** The worst state among the live feeds (what the status bar shows). */
export function overallFeedState(feeds: Record<string, FeedStatus>): FeedState | 'idle' {
  const states = Object.values(feeds).map((f) => f.state);
  if (states.length === 0) return 'idle';
  for (const worst of ['closed', 'stale', 'connecting'] as const) if (states.includes(worst)) return worst;
  return 'open';
}

/** Loads what main knows and follows its session events; called once at start. */
export async function startSession(): Promise<void> {
  const { notify } = useSession.getState();
  // Another network's feeds are other books: the old network's leave the status bar with it (main closed them).
  listen('network', (network) => {
    const switched = useSession.getState().network?.name !== network.name;
    useSession.setState(switched ? { network, connected: true, feeds: {} } : { network, connected: true });
    if (!switched) return;
    // The watchlist is the network's own (main keeps one per network): the new network's is read.
    void ask('getSettings', {})
      .then(
        (kept) =>
          useSession.getState().network?.name === network.name &&
          useSession.setState((s) => ({ settings: { ...s.settings, watchlist: kept.watchlist } })),
      )
      .catch(() => undefined);
  });
  listen('feedStatus', (status) =>
    useSession.setState((s) => {
      const key = feedKey(status.feed, status.marketId);
      if ((status.state === 'closed' && !status.error) || (status.feed !== 'user' && !followedFeeds.has(key))) {
        // A feed closed on purpose is no longer followed: it leaves the status bar.
        const { [key]: _gone, ...rest } = s.feeds;
        return { feeds: rest };
      }
      return { feeds: { ...s.feeds, [key]: status } };
    }),
  );
  listen('walletLock', (lock) => {
    useSession.setState((s) => ({
      wallets: s.wallets.map((w) =>
        w.address.toLowerCase() === lock.address.toLowerCase() ? { ...w, unlocked: !lock.locked } : w,
      ),
    }));
    if (lock.reason === 'idle') notify('info', `${lock.label ?? 'A wallet'} locked itself after its idle time.`);
    if (lock.reason === 'signer-stopped')
      notify('error', 'The signer stopped: every wallet is locked. Unlock again to trade.');
  });
  listen('notice', (notice) =>
    notify(notice.kind === 'info' || notice.kind === 'cancelled' ? 'info' : 'success', notice.message, notice.txHash),
  );
  listen('tickSize', (change) => notify('info', change.message));

  try {
    const network = await ask('getNetwork', {});
    useSession.setState({ network, connected: true });
  } catch (error) {
    notify('error', messageOf(error));
    return;
  }
  try {
    const settings = await ask('getSettings', {});
    useSession.setState({ settings, activeWallet: settings.activeWallet, settingsLoaded: true });
  } catch {
    // Settings not kept in this session: the defaults stand.
    useSession.setState({ settingsLoaded: true });
  }
  await Promise.all([useSession.getState().refreshWallets(), useSession.getState().refreshNetworks()]);
}
