// The services behind the contract, as the small interfaces the handlers need, and the handlers themselves:
// each operation of src/shared/contract.ts mapped to one service call. Trading is an interface here, served by
// the order flow (trading/trading-access.ts); where a session has none, its operations answer ERR_NOT_AVAILABLE,
// never a made-up result. Every service is named here by the small interface the handlers call (a port), never
// by its class: the capability folders import this table's interfaces, so it may import none of them back.
import type { BookSides, MarketSource } from '@pmdesk/toolkit';
import { ErrorCode, PmDeskError } from '@pmdesk/toolkit/model';
import type { FrameClock } from '../feeds/frame-clock';
import type {
  AccountFunds,
  Balances,
  DeadManSwitchInfo,
  FeedState,
  MoneyActionDone,
  RelayerLogin,
  MoneyActionPreview,
  NetworkChoice,
  NetworkInfo,
  OpenOrder,
  OperationName,
  OperationOutput,
  OrderPreview,
  ParsedInput,
  PlacedOrder,
  PositionInfo,
  Settings,
  TradeInfo,
  TradingAccessInfo,
  WalletAccount,
  WalletInfo,
} from '../../shared/contract';
import type { EventHub } from './event-hub';
import { conversionHandlers, type ConvertService } from './convert-service';
import { ServiceUnavailable, type Handlers } from './router';
import { bookFromLevels } from '../../shared/book';

/** Followed fills (follow/fill-feeds.ts fits). */
export interface FillFollower {
  follow(clientId: string, protocol: string, marketId: string): { marketId: string; state: FeedState };
  unfollow(clientId: string, marketId: string): boolean;
  releaseClient(clientId: string): void;
  followed(): string[];
  /** Who follows which market now, to follow them again on another network. */
  subscriptions(): { clientId: string; protocol: string; marketId: string }[];
  closeAll(): void;
}

/** What subscribeBook and friends need (follow/book-feeds.ts and follow/live-book-feeds.ts both fit). */
export interface BookFollower extends FillFollower {
  /**
   * A followed token's whole book as the exchange lists it, while the market's socket keeps it live and checked by
   * hash (LiveBookFeeds only; polled books are never fresh enough to price an order by).
   */
  liveBook?(tokenId: string): BookSides | undefined;
}

/** What watchAccount and unwatchAccount need (follow/account-feeds.ts fits). */
export interface AccountFollower {
  follow(clientId: string, wallet: string): Promise<{ wallet: string; state: FeedState }>;
  unfollow(clientId: string, wallet: string): boolean;
  releaseClient(clientId: string): void;
  watched(): string[];
  closeAll(): void;
  /** The wallet now trades from another Polymarket account: its feed, if followed, opens again for that account. */
  reopen?(wallet: string): Promise<void>;
}

/** Per-wallet dead-man switches (trading/dead-man-switches.ts fits). */
export interface DeadManSwitchService {
  set(wallet: string, enabled: boolean): Promise<DeadManSwitchInfo>;
  get(wallet: string): DeadManSwitchInfo;
  closeAll(): void;
}

/** The markets' states pushed to the windows (follow/market-states.ts fits). */
export interface MarketStateFollower {
  follow(clientId: string, protocol: string, marketId: string): Promise<OperationOutput<'watchMarketState'>>;
  unfollow(clientId: string, marketId: string): boolean;
}

export interface WalletSummary {
  label: string;
  address: string;
}

/** The wallet operations of src/main/wallets (its Wallets class plus the signer's list of unlocked addresses). */
export interface WalletAccess {
  list(): Promise<WalletSummary[]>;
  unlockedAddresses(): Promise<string[]>;
  create(label: string, password: string): Promise<WalletSummary & { mnemonic: string }>;
  importMnemonic(label: string, phrase: string, password: string, options: { index?: number }): Promise<WalletSummary>;
  importPrivateKey(label: string, privateKey: string, password: string): Promise<WalletSummary>;
  importKeystore(label: string, keystoreText: string, password: string): Promise<WalletSummary>;
  unlock(label: string, password: string, options: { autoLockMs?: number }): Promise<WalletSummary>;
  lock(label: string): Promise<WalletSummary>;
  checkPassword(label: string, password: string): Promise<WalletSummary>;
  exportKeystore(label: string): Promise<string>;
}

/** Which Polymarket account each wallet trades from on the network in use (trading/wallet-accounts.ts). */
export interface WalletAccountAccess {
  accountOf(label: string): Promise<WalletAccount>;
  choose(label: string, account: string | null): Promise<WalletAccount>;
  /** Looks again for a key's accounts (after an unlock or import), in the background. */
  refresh(owner: string): void;
}

/** The order flow (credentials, allowances, build, sign, post, status), implemented by src/main/trading. */
export interface TradingService {
  previewOrder(input: ParsedInput<'previewOrder'>): Promise<OrderPreview>;
  readyOrder(input: ParsedInput<'readyOrder'>): Promise<{ ready: boolean }>;
  placeOrder(input: ParsedInput<'placeOrder'>): Promise<PlacedOrder>;
  cancelOrder(input: ParsedInput<'cancelOrder'>): Promise<{ cancelled: string[] }>;
  cancelAll(input: ParsedInput<'cancelAll'>): Promise<{ cancelled: string[] }>;
  cancelMarket(input: ParsedInput<'cancelMarket'>): Promise<{ cancelled: string[] }>;
  listOpenOrders(input: ParsedInput<'listOpenOrders'>): Promise<OpenOrder[]>;
  listTrades(input: ParsedInput<'listTrades'>): Promise<TradeInfo[]>;
  getBalances(input: ParsedInput<'getBalances'>): Promise<Balances>;
  getPositions(input: ParsedInput<'getPositions'>): Promise<PositionInfo[]>;
}
export const TRADING_OPERATIONS = [
  'previewOrder',
  'readyOrder',
  'placeOrder',
  'cancelOrder',
  'cancelAll',
  'cancelMarket',
  'listOpenOrders',
  'listTrades',
  'getBalances',
  'getPositions',
] as const satisfies readonly (OperationName & keyof TradingService)[];

/** The account's pUSD, USDC.e and gas, and the money actions sent as it (trading/money-access.ts). */
export interface MoneyService {
  funds(input: ParsedInput<'getAccountFunds'>): Promise<AccountFunds>;
  preview(input: ParsedInput<'previewMoneyAction'>): Promise<MoneyActionPreview>;
  run(input: ParsedInput<'runMoneyAction'>): Promise<MoneyActionDone>;
  saveRelayer(input: ParsedInput<'saveRelayerCredentials'>): Promise<RelayerLogin>;
  forgetRelayer(input: ParsedInput<'forgetRelayerCredentials'>): Promise<{ wallet: string; forgotten: boolean }>;
}

/** The region and close-only checks of the network in use (trading/region-check.ts). */
export interface TradingAccessService {
  access(wallet?: string): Promise<TradingAccessInfo>;
}

/** What the terminal remembers across restarts (settings/settings.ts). */
export interface SettingsAccess {
  get(): Promise<Settings>;
  save(patch: ParsedInput<'saveSettings'>): Promise<Settings>;
}

/** The networks the terminal knows and the switch between them (settings/networks.ts, terminal/terminal.ts). */
export interface NetworkAccess {
  list(): Promise<NetworkChoice[]>;
  add(input: ParsedInput<'addNetwork'>): Promise<NetworkChoice>;
  switchTo(name: string): Promise<NetworkInfo>;
}

export interface TerminalServices {
  network: NetworkInfo;
  /** The network's market-data source (the aggregator, or Polymarket direct): every market read goes through it. */
  markets: MarketSource;
  feeds: FillFollower;
  /** Books polled from the source, or the exchange's live books when the profile has a wsUrl. */
  books: BookFollower;
  /** Where the windows' frames are, for the live books' hand-outs (feeds/frame-clock.ts); absent where books are polled. */
  frameClock?: FrameClock;
  hub: EventHub;
  /** Absent when no signer could start: wallet operations then answer ERR_NOT_AVAILABLE. */
  wallets?: WalletAccess;
  /** Absent until the order flow lands. */
  trading?: TradingService;
  /** Wrap, unwrap, split, merge, redeem; absent without the order flow or wallets (as trading). */
  money?: MoneyService;
  /** Converting No shares of a negative-risk event (ipc/convert-service.ts); absent as money. */
  convert?: ConvertService;
  /** The wallets' Polymarket accounts on this network; absent without the order flow (no chain to read). */
  walletAccounts?: WalletAccountAccess;
  /** Absent without a data folder: settings then answer ERR_NOT_AVAILABLE. */
  settings?: SettingsAccess;
  /** Absent where the terminal cannot switch: only the network in use is listed. */
  networks?: NetworkAccess;
  /** Watched wallets' live orders and trades; absent without the order flow or an exchange WebSocket. */
  accounts?: AccountFollower;
  /** The sandbox's funded test wallet (its profile's testWallets[0]); absent on any other network. */
  sandboxWallet?: { address: string; privateKey: string };
  /** Tells the orders the exchange cancelled that the trader did not cancel here; absent without the order flow. */
  unaskedCancels?: {
    byTrader<T extends { cancelled: string[] }>(wallet: string, work: () => Promise<T>): Promise<T>;
    close(): void;
  };
  /** Per-wallet dead-man switches; absent without the order flow. */
  deadManSwitches?: DeadManSwitchService;
  /** Whether new orders may be placed (region, close-only accounts); absent where nothing checks it. */
  tradingAccess?: TradingAccessService;
  /** Each followed market's state (open, closed, resolved), pushed as it changes. */
  marketStates: MarketStateFollower;
  /** Alerts and client-side stops, watched in main; absent without a data folder to keep them in. */
  alerts?: {
    list(): Promise<OperationOutput<'listAlerts'>>;
    create(input: ParsedInput<'createAlert'>): Promise<OperationOutput<'createAlert'>>;
    remove(id: string): Promise<OperationOutput<'deleteAlert'>>;
  };
  stops?: {
    list(): Promise<OperationOutput<'listStops'>>;
    create(input: ParsedInput<'createStop'>): Promise<OperationOutput<'createStop'>>;
    cancel(id: string): Promise<OperationOutput<'cancelStop'>>;
  };
  /** Portfolios and the activity export (portfolio/portfolio-service.ts); absent without the order flow. */
  portfolio?: {
    portfolio(input: ParsedInput<'getPortfolio'>): Promise<OperationOutput<'getPortfolio'>>;
    exportActivity(input: ParsedInput<'exportActivity'>): Promise<OperationOutput<'exportActivity'>>;
    accountingSnapshot(
      input: ParsedInput<'downloadAccountingSnapshot'>,
    ): Promise<OperationOutput<'downloadAccountingSnapshot'>>;
  };
  /** What the APIs said about themselves this session (deprecations, fallbacks, rate limits); absent: nothing kept. */
  diagnostics?: { snapshot(): OperationOutput<'getDiagnostics'> };
  /** Liquidity rewards: markets that pay, order scoring, earnings (trading/rewards-access.ts); absent without the order flow. */
  rewards?: {
    markets(): Promise<OperationOutput<'listRewardMarkets'>>;
    scoring(wallet: string): Promise<OperationOutput<'getOrderScoring'>>;
    earnings(wallet: string, day?: string): Promise<OperationOutput<'getRewardEarnings'>>;
  };
  /** The leaderboard, holders and followed traders (traders/traders.ts); absent on an aggregator network. */
  traders?: TraderAccess;
}

export const TRADING_UNAVAILABLE =
  'Trading is not available in this session: its network profile names no exchange, chain node or order version to trade with (or no signer started).';
export const SANDBOX_WALLET_UNAVAILABLE =
  'This network has no sandbox test wallet (only the local sandbox PM Desk starts has one): create or import a wallet.';
export const ACCOUNT_FEED_UNAVAILABLE =
  'Live account data is not available in this session: its network profile names no exchange WebSocket (wsUrl).';
export const WALLETS_UNAVAILABLE = 'Wallets are not available in this session: the signer did not start.';

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function createHandlers(services: TerminalServices): Handlers {
  const { markets, feeds, books, hub, network } = services;
  const wallets = (): WalletAccess => {
    if (!services.wallets) throw new ServiceUnavailable(WALLETS_UNAVAILABLE);
    return services.wallets;
  };
  const trading = (): TradingService => {
    if (!services.trading) throw new ServiceUnavailable(TRADING_UNAVAILABLE);
    return services.trading;
  };
  const money = (): MoneyService => {
    if (!services.money) throw new ServiceUnavailable(TRADING_UNAVAILABLE);
    return services.money;
  };
  const settings = (): SettingsAccess => {
    if (!services.settings)
      throw new ServiceUnavailable(
        'Settings are not available in this session: it has no data folder to keep them in.',
      );
    return services.settings;
  };
  const networks = (): NetworkAccess => {
    if (!services.networks) throw new ServiceUnavailable('Switching networks is not available in this session.');
    return services.networks;
  };
  const accounts = (): AccountFollower => {
    if (!services.accounts)
      throw new ServiceUnavailable(services.trading ? ACCOUNT_FEED_UNAVAILABLE : TRADING_UNAVAILABLE);
    return services.accounts;
  };
  // The trader's own cancels, so the exchange's word on them is not told again as a cancel nobody asked for.
  const byTrader = (wallet: string, work: () => Promise<{ cancelled: string[] }>) =>
    services.unaskedCancels ? services.unaskedCancels.byTrader(wallet, work) : work();
  const deadManSwitches = (): DeadManSwitchService => {
    if (!services.deadManSwitches) throw new ServiceUnavailable(TRADING_UNAVAILABLE);
    return services.deadManSwitches;
  };
  const rewards = () => {
    if (!services.rewards) throw new ServiceUnavailable(TRADING_UNAVAILABLE);
    return services.rewards;
  };
  const walletAccounts = (): WalletAccountAccess => {
    if (!services.walletAccounts) throw new ServiceUnavailable(TRADING_UNAVAILABLE);
    return services.walletAccounts;
  };
  const portfolio = () => {
    if (!services.portfolio)
      throw new ServiceUnavailable(
        'The portfolio is not available in this session: its network profile names no chain or Data API to build it from.',
      );
    return services.portfolio;
  };
  const alerts = () => {
    if (!services.alerts)
      throw new ServiceUnavailable('Alerts are not available in this session: it has no data folder to keep them in.');
    return services.alerts;
  };
  const stops = () => {
    if (!services.stops)
      throw new ServiceUnavailable('Stops are not available in this session: it has no data folder to keep them in.');
    return services.stops;
  };
  const withLockState = async (summary: WalletSummary): Promise<WalletInfo> => {
    const unlocked = await wallets().unlockedAddresses();
    return {
      label: summary.label,
      address: summary.address,
      unlocked: unlocked.some((a) => sameAddress(a, summary.address)),
    };
  };

  // The terminal lists and looks up markets per protocol it knows (Polymarket, Limitless, TrueMarket); a source
  // that reads Polymarket only has none of another protocol's, which is an empty list or "not found" for the
  // page, never the source's refusal of a protocol it was not built for.
  const hasProtocol = (protocol: string) => markets.kind !== 'polymarket' || protocol === 'polymarket';

  return {
    getNetwork: () => network,
    getDiagnostics: () => services.diagnostics?.snapshot() ?? { notices: [], rateLimits: [] },
    listEvents: async ({ protocol, page, limit }) => {
      if (!hasProtocol(protocol)) return { events: [], page, limit, hasMore: false };
      const events = await markets.listEvents({ protocol, page, limit });
      return { events, page, limit, hasMore: events.length === limit };
    },
    searchMarkets: ({ query, topK, threshold }) => markets.search(query, { topK, threshold }),
    getEvent: ({ protocol, eventId }) => markets.getEvent(protocol, eventId),
    getMarket: async ({ protocol, marketId }) => {
      if (!hasProtocol(protocol))
        throw new PmDeskError(
          ErrorCode.NOT_FOUND,
          `Market '${marketId}' not found: this network reads Polymarket's markets only.`,
          { methodName: 'getMarket' },
        );
      return markets.getMarket(protocol, marketId);
    },
    getEventComments: ({ protocol, eventId }) => markets.getEventComments(protocol, eventId),
    getOrderBook: async ({ protocol, marketId }) => {
      // Each book leaves main in the one shape the page draws (src/shared/book.ts).
      const books = await markets.getOrderBooks(protocol, marketId);
      return Object.fromEntries(
        Object.entries(books).map(([tokenId, book]) => [tokenId, bookFromLevels(tokenId, book)]),
      );
    },
    getPriceHistory: ({ protocol, marketId }) => markets.getFillHistory(protocol, marketId),
    getCandles: ({ protocol, marketId, outcomeIndex, interval }) =>
      markets.getCandles(protocol, marketId, outcomeIndex, interval),
    subscribeFills: ({ protocol, marketId }, { clientId }) => feeds.follow(clientId, protocol, marketId),
    unsubscribeFills: ({ marketId }, { clientId }) => ({ marketId, wasSubscribed: feeds.unfollow(clientId, marketId) }),
    subscribeBook: ({ protocol, marketId }, { clientId }) => books.follow(clientId, protocol, marketId),
    watchMarketState: ({ protocol, marketId }, { clientId }) =>
      services.marketStates.follow(clientId, protocol, marketId),
    unwatchMarketState: ({ marketId }, { clientId }) => ({
      marketId,
      wasWatched: services.marketStates.unfollow(clientId, marketId),
    }),
    unsubscribeBook: ({ marketId }, { clientId }) => ({ marketId, wasSubscribed: books.unfollow(clientId, marketId) }),
    reportFrames: ({ frameAt, intervalMs }) => {
      const clock = services.frameClock;
      clock?.tell(frameAt, intervalMs, Date.now());
      return { aligned: clock?.known(Date.now()) ?? false };
    },

    listWallets: async () => {
      const [list, unlocked] = await Promise.all([wallets().list(), wallets().unlockedAddresses()]);
      return list.map((w) => ({
        label: w.label,
        address: w.address,
        unlocked: unlocked.some((a) => sameAddress(a, w.address)),
      }));
    },
    createWallet: async ({ label, password }) => {
      const { mnemonic, ...summary } = await wallets().create(label, password);
      return {
        wallet: { label: summary.label, address: summary.address, unlocked: false },
        recoveryPhrase: { shownOnce: true, value: mnemonic },
      };
    },
    importWallet: async ({ label, password, source }) => {
      const access = wallets();
      const summary =
        source.kind === 'mnemonic'
          ? await access.importMnemonic(label, source.phrase, password, { index: source.index })
          : source.kind === 'privateKey'
            ? await access.importPrivateKey(label, source.privateKey, password)
            : await access.importKeystore(label, source.keystoreJson, password);
      services.walletAccounts?.refresh(summary.address);
      return withLockState(summary);
    },
    importSandboxWallet: async ({ label, password }) => {
      // The key never leaves main: the trader only names the wallet and chooses its password.
      const test = services.sandboxWallet;
      if (!test) throw new ServiceUnavailable(SANDBOX_WALLET_UNAVAILABLE);
      const summary = await wallets().importPrivateKey(label, test.privateKey, password);
      services.walletAccounts?.refresh(summary.address);
      return withLockState(summary);
    },
    unlockWallet: async ({ label, password, autoLockMinutes }) => {
      const summary = await wallets().unlock(label, password, { autoLockMs: autoLockMinutes * 60_000 });
      // The account behind the key is looked for now, so the wallet menu and the first order find it ready.
      services.walletAccounts?.refresh(summary.address);
      hub.emit('walletLock', { address: summary.address, label: summary.label, locked: false, reason: 'unlock' });
      return { label: summary.label, address: summary.address, unlocked: true };
    },
    lockWallet: async ({ label }) => {
      const summary = await wallets().lock(label);
      hub.emit('walletLock', { address: summary.address, label: summary.label, locked: true, reason: 'lock' });
      return { label: summary.label, address: summary.address, unlocked: false };
    },
    getWalletAccount: ({ wallet }) => walletAccounts().accountOf(wallet),
    chooseWalletAccount: async ({ wallet, account }) => {
      const chosen = await walletAccounts().choose(wallet, account);
      // A followed wallet's live orders and trades are now another account's.
      await services.accounts?.reopen?.(wallet);
      return chosen;
    },
    exportWallet: async ({ label, password }) => {
      // The password is proven first (and throttled): a page script holding the UI cannot walk off with the
      // keystore to guess its password offline.
      const summary = await wallets().checkPassword(label, password);
      const keystoreJson = await wallets().exportKeystore(label);
      return {
        fileName: `${summary.label.replace(/[^A-Za-z0-9._-]+/g, '_')}-${summary.address.slice(2, 10).toLowerCase()}.json`,
        keystoreJson,
      };
    },

    previewOrder: (input) => trading().previewOrder(input),
    readyOrder: (input) => trading().readyOrder(input),
    placeOrder: (input) => trading().placeOrder(input),
    cancelOrder: (input) => byTrader(input.wallet, () => trading().cancelOrder(input)),
    cancelAll: (input) => byTrader(input.wallet, () => trading().cancelAll(input)),
    cancelMarket: (input) => byTrader(input.wallet, () => trading().cancelMarket(input)),
    listOpenOrders: (input) => trading().listOpenOrders(input),
    listTrades: (input) => trading().listTrades(input),
    getBalances: (input) => trading().getBalances(input),
    getPositions: (input) => trading().getPositions(input),
    getAccountFunds: (input) => money().funds(input),
    previewMoneyAction: (input) => money().preview(input),
    runMoneyAction: (input) => money().run(input),
    saveRelayerCredentials: (input) => money().saveRelayer(input),
    forgetRelayerCredentials: (input) => money().forgetRelayer(input),
    ...conversionHandlers(() => services.convert, TRADING_UNAVAILABLE),

    listSlugs: ({ page, limit }) => markets.listSlugs({ page, limit }),
    getEventsBySlug: ({ slug }) => markets.getEventsBySlug(slug),
    getTraderPositions: ({ protocol, address }) => markets.getTraderPositions(protocol, address),
    getTrader: ({ protocol, address }) => markets.getTrader(protocol, address),
    getTraderActivity: ({ address, limit }) => markets.getTraderActivity(address, { limit }),

    watchAccount: ({ wallet }, { clientId }) => accounts().follow(clientId, wallet),
    unwatchAccount: ({ wallet }, { clientId }) => ({ wallet, wasWatched: accounts().unfollow(clientId, wallet) }),
    setDeadManSwitch: ({ wallet, enabled }) => deadManSwitches().set(wallet, enabled),
    getDeadManSwitch: ({ wallet }) => deadManSwitches().get(wallet),
    getTradingAccess: ({ wallet }) => {
      if (!services.tradingAccess)
        throw new ServiceUnavailable('The region and account checks are not available in this session.');
      return services.tradingAccess.access(wallet);
    },
    listAlerts: () => alerts().list(),
    createAlert: (input) => alerts().create(input),
    deleteAlert: ({ id }) => alerts().remove(id),
    listStops: () => stops().list(),
    createStop: (input) => stops().create(input),
    cancelStop: ({ id }) => stops().cancel(id),
    getSettings: () => settings().get(),
    saveSettings: (patch) => settings().save(patch),
    listNetworks: () =>
      services.networks
        ? services.networks.list()
        : [
            {
              name: network.name,
              chainId: network.chainId,
              source: network.source,
              sandbox: network.sandbox,
              current: true,
              available: true,
            },
          ],
    switchNetwork: ({ name }) => networks().switchTo(name),
    addNetwork: (input) => networks().add(input),
    // Liquidity rewards, read through the order flow's exchange clients.
    listRewardMarkets: () => rewards().markets(),
    getOrderScoring: ({ wallet }) => rewards().scoring(wallet),
    getRewardEarnings: ({ wallet, day }) => rewards().earnings(wallet, day),
    getPortfolio: (input) => portfolio().portfolio(input),
    exportActivity: (input) => portfolio().exportActivity(input),
    downloadAccountingSnapshot: (input) => portfolio().accountingSnapshot(input),
    ...traderHandlers(services),
  };
}

/** Other traders: the leaderboard, a market's holders, the followed traders of this network (traders/traders.ts). */
export interface TraderAccess {
  leaderboard(input: ParsedInput<'getLeaderboard'>): Promise<OperationOutput<'getLeaderboard'>>;
  holders(input: ParsedInput<'getMarketHolders'>): Promise<OperationOutput<'getMarketHolders'>>;
  list(): Promise<OperationOutput<'listFollowedTraders'>>;
  follow(input: ParsedInput<'followTrader'>): Promise<OperationOutput<'followTrader'>>;
  unfollow(address: string): Promise<OperationOutput<'unfollowTrader'>>;
  setAlert(address: string, alert: boolean): Promise<OperationOutput<'setFollowedTraderAlert'>>;
}

type TraderOperation =
  | 'getLeaderboard'
  | 'getMarketHolders'
  | 'listFollowedTraders'
  | 'followTrader'
  | 'unfollowTrader'
  | 'setFollowedTraderAlert';

/** Their handlers: only where the network reads Polymarket direct. */
function traderHandlers(services: TerminalServices): Pick<Handlers, TraderOperation> {
  const traders = (): TraderAccess => {
    if (!services.traders)
      throw new ServiceUnavailable(
        "Other traders are not available on this network: they are read from Polymarket's Data API, and it reads the aggregator.",
      );
    return services.traders;
  };
  return {
    getLeaderboard: (input) => traders().leaderboard(input),
    getMarketHolders: (input) => traders().holders(input),
    listFollowedTraders: () => traders().list(),
    followTrader: (input) => traders().follow(input),
    unfollowTrader: ({ address }) => traders().unfollow(address),
    setFollowedTraderAlert: ({ address, alert }) => traders().setAlert(address, alert),
  };
}
