// Puts the terminal's services together once, for either shell: the event hub, wallets over the signer the
// shell started, settings, and for the network in use its market-data source (the aggregator or Polymarket
// direct, as its profile names), followed fills and books and trading over its order flow, swapped whole when
// the trader switches networks; the router over all of them.
import { ApiDiagnostics } from './api-diagnostics';
import type { NetworkInfo } from '../../shared/contract';
import { createMarketSource } from '@pmdesk/toolkit';
import { retryNoticeText, type RetryNotice } from '@pmdesk/toolkit';
import type { MarketSource } from '@pmdesk/toolkit';
import { silentLogger, type Logger } from '@pmdesk/toolkit';
import type { SignerClient } from '../wallets/signer-client';
import { Wallets } from '../wallets/wallets';
import { setAsideNotices } from '../wallets/set-aside-notice';
import { EventHub } from '../ipc/event-hub';
import { BookFeeds } from '../follow/book-feeds';
import { LiveBookFeeds } from '../follow/live-book-feeds';
import { ClobClient } from '@pmdesk/toolkit';
import { isClobError } from '@pmdesk/toolkit';
import type { RestBook } from '../feeds/market-feed';
import { FillFeeds } from '../follow/fill-feeds';
import { networkInfo, parseAppProfile, type AppProfile } from '../settings/profile';
import { OPERATION_NAMES } from '../../shared/contract';
import { invalidParameter } from '@pmdesk/toolkit/model';
import { NetworkBook } from '../settings/networks';
import {
  createRouter,
  ServiceUnavailable,
  type CallContext,
  type Handlers,
  type Router,
  type SenderPolicy,
} from '../ipc/router';
import { SettingsStore } from '../settings/settings';
import type { OrderGate, TradingService as OrderFlow } from '../trading/service';
import { createHandlers, type BookFollower, type NetworkAccess, type TerminalServices } from '../ipc/services';
import { tradingAccess } from '../trading/trading-access';
import { moneyAccess } from '../trading/money-access';
import { rewardsAccess } from '../trading/rewards-access';

import { convertAccess } from '../trading/convert-access';
import { walletAccess } from '../wallets/wallet-access';
import { WalletAccounts } from '../trading/wallet-accounts';
import { walletConfigFor } from '@pmdesk/toolkit';
import { AccountFeeds, accountOpener, type AccountFeedTuning } from '../follow/account-feeds';
import { DeadManSwitches, heartbeatOpener } from '../trading/dead-man-switches';
import { UnaskedCancels } from '../trading/unasked-cancels';
import { sandboxTestWallet } from '../settings/sandbox-wallet';
import { RegionCheck, closedOnlyAsker, walletNamedIn } from '../trading/region-check';
import { TradeFacts } from '../trading/trade-facts';
import { AlertService, alertsFile } from '../alerts/alerts';
import type { DesktopNotifier } from '../alerts/notifier';
import { StopService, stopsFile } from '../stops/stops';
import { FrameClock } from '../feeds/frame-clock';
import { MarketStates, chainResolution } from '../follow/market-states';
import { openTraderService } from '../traders/open';
import { openPortfolio } from '../portfolio/open-portfolio';

/** How main's own hub clients are named (the alerts' and stops' watchers); a page's id never starts so. */
const MAIN_CLIENT_PREFIX = 'main:';

export interface TerminalOptions {
  profile: AppProfile;
  /** The launch profile's JSON as given (the sandbox's, a file's), contracts included: listed, and switched back to. */
  rawProfile?: unknown;
  shell: NetworkInfo['shell'];
  allowSender: SenderPolicy;
  /** The wallets' data folder and the signer the shell started (a utility process, a worker thread). */
  wallets?: { dataDir: string; signer: SignerClient; scryptN?: number };
  /** The order flow (src/main/trading) for the launch profile; trading answers ERR_NOT_AVAILABLE without it or without wallets. */
  orderFlow?: OrderFlow;
  /**
   * Opens the order flow of a network (the launch one when `orderFlow` is not given, and each one switched to),
   * reading markets through the network's source the terminal uses; undefined for a network that cannot trade.
   * Without it, only the launch network trades.
   */
  openOrderFlow?: (
    rawProfile: unknown,
    markets: MarketSource,
    exchangeWatch?: ReturnType<ApiDiagnostics['listeners']>,
  ) => OrderFlow | undefined;
  /** Where settings.json and networks.json live; the wallets' data folder unless given. Without one, settings are not kept. */
  dataDir?: string;
  logger?: Logger;
  /** The launch network's market-data source, instead of the one its profile names (tests hand in their own). */
  markets?: MarketSource;
  /** How often followed books are read from the source when there is no exchange WebSocket (1 s unless told). */
  bookPollMs?: number;
  /** Watched accounts' feeds and the dead-man switches' beat interval (tests shorten them). */
  accountFeeds?: AccountFeedTuning & { heartbeatMs?: number };
  /** How often the region (geoblock) and close-only checks run again (5 minutes unless told; tests shorten it). */
  regionCheckMs?: number;
  /** Desktop notifications for alerts (Electron's); browser mode has none in main: its page asks the browser. */
  notifier?: DesktopNotifier;
  /** Alerts' and stops' timings (tests shorten them): a resolving market's check, a stop's retry after a failed sell. */
  watchTuning?: { resolveCheckMs?: number; stopRetryMs?: number; marketStateMs?: number };
}

export interface Terminal {
  router: Router;
  hub: EventHub;
  /** The services of the network in use now (they change when the network is switched). */
  readonly services: TerminalServices;
  /** Trade on another network: its feeds, market-data source and order flow replace the current ones; wallets stay. */
  switchNetwork(name: string): Promise<NetworkInfo>;
  close(): Promise<void>;
}

/** What belongs to one network: rebuilt whole by a switch, while the router, hub, wallets and settings stay. */
interface NetworkServices {
  services: TerminalServices;
  handlers: Handlers;
  close(): void;
}

export function openTerminal(options: TerminalOptions): Terminal {
  const logger = options.logger ?? silentLogger;
  const hub = new EventHub(logger);
  // One for the session: a network switch keeps where the windows' frames are.
  const frameClock = new FrameClock();
  // A damaged wallet file the store sets aside is told to every window, once, with where it went.
  const onSetAside = setAsideNotices((message) => hub.emit('notice', { kind: 'info', message }));
  const wallets = options.wallets
    ? new Wallets({
        dataDir: options.wallets.dataDir,
        signer: options.wallets.signer,
        scryptN: options.wallets.scryptN,
        onSetAside,
      })
    : undefined;
  const walletServices = wallets && options.wallets ? walletAccess(wallets, options.wallets.signer, hub) : undefined;
  const tradingWallets =
    wallets && options.wallets ? { list: () => wallets.list(), signer: options.wallets.signer } : undefined;
  const dataDir = options.dataDir ?? options.wallets?.dataDir;
  // Workspaces saved before they were kept per network belong to the network the terminal starts on.
  const settings = dataDir ? new SettingsStore(dataDir, logger, options.profile.name) : undefined;
  const launchRaw = (
    options.rawProfile && typeof options.rawProfile === 'object' ? options.rawProfile : options.profile
  ) as Record<string, unknown>;
  // Alerts and stops live in their own files in the data folder, shared by every network the terminal switches to.
  const keptAlerts = dataDir ? alertsFile(dataDir, logger) : undefined;
  const keptStops = dataDir ? stopsFile(dataDir, logger) : undefined;
  const book = new NetworkBook({ raw: launchRaw, profile: options.profile }, dataDir, logger);
  // A throttled read waits before its retry: the trader sees "rate limited, retrying in N s", not a frozen panel.
  const onRetry = (notice: RetryNotice) => hub.emit('notice', { kind: 'info', message: retryNoticeText(notice) });
  // Deprecated endpoints and lists read through their fallback are told once as notices; the diagnostics keep them.
  const diagnostics = new ApiDiagnostics(hub);
  const sourceOf = (profile: AppProfile): MarketSource =>
    createMarketSource(profile, { logger, timeoutMs: 15_000, onRetry, ...diagnostics.listeners(profile.name) });
  const launchSource = options.markets ?? sourceOf(options.profile);
  const launchFlow =
    options.orderFlow ?? options.openOrderFlow?.(launchRaw, launchSource, diagnostics.listeners(options.profile.name));

  let current: NetworkServices;
  let switching: Promise<unknown> = Promise.resolve();
  let closed = false;

  const networks: NetworkAccess = {
    list: () => book.list(current.services.network.name),
    add: (input) => book.add(input, current.services.network.name),
    switchTo: (name) => switchNetwork(name),
  };

  const open = (
    profile: AppProfile,
    flow: OrderFlow | undefined,
    source: MarketSource,
    raw: unknown,
  ): NetworkServices => {
    const feeds = new FillFeeds(
      (protocol, marketId, handlers) => source.subscribeToFills(protocol, marketId, handlers),
      hub,
    );
    const readBooks = (protocol: string, marketId: string) => source.getOrderBooks(protocol, marketId);
    // Markets' states pushed to the windows: resolution read on the chain where this network has one.
    const ctf = flow?.profile.network.contracts.conditionalTokens;
    const marketStates = new MarketStates(
      hub,
      {
        getMarket: (protocol, marketId) => source.getMarket(protocol, marketId),
        resolution: flow && ctf ? chainResolution(flow.provider, ctf) : undefined,
      },
      { chainEveryMs: options.watchTuning?.marketStateMs },
    );
    const books: BookFollower =
      profile.wsUrl && profile.clobUrl
        ? liveBooks(
            profile.wsUrl,
            profile.clobUrl,
            profile.chainId,
            readBooks,
            hub,
            logger,
            (tokenId, tickSize) => flow?.tickSizeChanged(tokenId, tickSize),
            frameClock,
            diagnostics.listeners(profile.name),
            (tokenId) => marketStates.nudgeToken(tokenId),
          )
        : new BookFeeds(readBooks, hub, options.bookPollMs);
    const network = networkInfo(profile, options.shell);
    // Each wallet trades from its Polymarket account on this network (found, or the trader's kept choice).
    const walletAccounts =
      tradingWallets && flow
        ? new WalletAccounts(
            {
              name: network.name,
              wallets: walletConfigFor(flow.profile.network),
              collateral: [flow.profile.network.contracts.collateral!],
              chain: flow.provider,
            },
            tradingWallets,
            source,
            settings,
            logger,
          )
        : undefined;
    const traders =
      tradingWallets && walletAccounts
        ? { ...tradingWallets, accountOf: (owner: string) => walletAccounts.tradingAccount(owner) }
        : undefined;
    // Each market's question, outcome names and fee terms, read once for this network (trades and positions share them).
    const facts = flow ? new TradeFacts(flow) : undefined;
    const services: TerminalServices = {
      network,
      markets: source,
      feeds,
      books,
      marketStates,
      frameClock: profile.wsUrl && profile.clobUrl ? frameClock : undefined,
      hub,
      wallets: walletServices,
      trading: traders && flow ? tradingAccess(flow, traders, hub, facts) : undefined,
      money: traders && flow ? moneyAccess(flow, traders, hub) : undefined,
      rewards: traders && flow ? rewardsAccess(flow, traders) : undefined,

      convert: traders && flow ? convertAccess(flow, traders, hub) : undefined,
      walletAccounts,
      // Kept for every network in one file; the watchlist each network reads and writes is its own.
      settings: settings?.forNetwork(network.name),
      networks,
      diagnostics,
      // Only the sandbox hands its test wallet out (to main, on the trader's request): nothing there is real money.
      sandboxWallet: network.sandbox ? sandboxTestWallet(raw) : undefined,
    };
    // Live account data and dead-man switches go through the order flow's credentials, so only with it.
    if (traders && flow) {
      const { heartbeatMs, ...tuning } = options.accountFeeds ?? {};
      const switches = new DeadManSwitches(heartbeatOpener(flow, traders), hub, { intervalMs: heartbeatMs });
      // Orders the exchange cancels that the trader did not cancel here are told (the dead-man switch…).
      const unasked = new UnaskedCancels(hub, {
        scheduler: tuning.scheduler,
        cause: (wallet) => switches.cancelCause(wallet),
      });
      services.unaskedCancels = unasked;
      if (profile.wsUrl)
        services.accounts = new AccountFeeds(accountOpener(flow, traders), hub, {
          wsUrl: profile.wsUrl,
          cancels: unasked,
          facts,
          ...tuning,
        });
      services.deadManSwitches = switches;
    }
    // Region and close-only checks for this network: asked at its start (here, and so on each switch) and every
    // few minutes; the order flow asks them again before each new order.
    const regionCheck = new RegionCheck({
      geoblockUrl: profile.geoblockUrl || undefined,
      closedOnly: tradingWallets && flow ? closedOnlyAsker(flow, tradingWallets) : undefined,
      walletNamed: tradingWallets ? walletNamedIn(tradingWallets) : undefined,
      emit: (info) => hub.emit('tradingAccess', info),
      intervalMs: options.regionCheckMs,
      logger,
    });
    services.tradingAccess = regionCheck;
    regionCheck.start();
    const gate: OrderGate = (wallet, side, credentialed) => regionCheck.refusal(wallet, side, credentialed);
    if (flow) flow.orderGate = gate;
    // A market order made ready is priced from this network's live books (the windows' own feeds).
    const liveBook = books.liveBook?.bind(books);
    if (flow) flow.liveBook = liveBook;
    // This network's alerts and stops are armed now (re-armed after a restart or a switch back), in main, so they
    // run while no window is open or one is reloading; they follow the same feeds the windows share.
    const watchFeeds = { books, fills: feeds, accounts: services.accounts, states: marketStates };
    const alerts = keptAlerts
      ? new AlertService({
          hub,
          network: network.name,
          feeds: watchFeeds,
          markets: source,
          file: keptAlerts,
          notifier: options.notifier,
          // A fill alert names its market from the same facts the account tables read (once per market).
          marketFacts: facts ? (conditionId) => facts.load(conditionId) : undefined,
          logger,
          resolveCheckMs: options.watchTuning?.resolveCheckMs,
        })
      : undefined;
    const stops = keptStops
      ? new StopService({
          hub,
          network: network.name,
          feeds: watchFeeds,
          markets: source,
          trading: services.trading,
          file: keptStops,
          logger,
          retryMs: options.watchTuning?.stopRetryMs,
        })
      : undefined;
    services.alerts = alerts;
    services.stops = stops;
    // The Portfolio view: any address's book read through this network's source; a wallet's own fees from its trades.
    const contracts = flow?.profile.network.contracts;
    const portfolio = openPortfolio({
      source,
      hub,
      chain:
        flow && contracts
          ? {
              reader: flow.provider,
              exchanges: [
                contracts.exchange,
                contracts.negRiskExchange,
                contracts.exchangeV2,
                contracts.negRiskExchangeV2,
                contracts.exchangeV3,
              ].filter((a): a is string => Boolean(a)),
            }
          : undefined,
      wallets: () => (tradingWallets ? tradingWallets.list() : Promise.resolve([])),
      accountOf: async (wallet) => {
        if (!walletAccounts)
          throw new ServiceUnavailable('This network has no trading accounts to read a wallet’s portfolio from.');
        return (await walletAccounts.accountOf(wallet)).account.address;
      },
      trades: services.trading ? (wallet) => services.trading!.listTrades({ wallet }) : undefined,
    });
    services.portfolio = portfolio;
    const warn = (what: string) => (error: unknown) =>
      logger.warn(`The ${what} could not be loaded: ${(error as Error).message}`);
    void alerts?.start().catch(warn('alerts'));
    void stops?.start().catch(warn('stops'));
    // Other traders (leaderboard, holders, followed traders kept per network): where it reads Polymarket direct.
    const otherTraders = openTraderService({
      network: network.name,
      source,
      settings,
      hub,
      notifier: options.notifier,
      logger,
    });
    services.traders = otherTraders;
    void otherTraders?.start().catch(warn('followed traders'));
    return {
      services,
      handlers: createHandlers(services),
      close: () => {
        // Their files settle on the shared KeptFile queues, which the terminal's own close waits for.
        void alerts?.close();
        portfolio.close();
        void stops?.close();
        otherTraders?.close();
        feeds.closeAll();
        books.closeAll();
        marketStates.close();
        // A switch away stops this network's heartbeats: its exchange cancels the orders it was guarding.
        services.accounts?.closeAll();
        services.deadManSwitches?.closeAll();
        services.unaskedCancels?.close();
        regionCheck.close();
        if (flow?.orderGate === gate) flow.orderGate = undefined;
        if (flow && flow.liveBook === liveBook) flow.liveBook = undefined;
        // The launch flow given by the caller stays open for switching back when no other can be opened.
        if (flow && (flow !== options.orderFlow || options.openOrderFlow)) flow.close();
      },
    };
  };

  const switchNetwork = (name: string): Promise<NetworkInfo> => {
    const run = switching.then(async () => {
      if (closed) throw new ServiceUnavailable('PM Desk is closing.');
      const entry = await book.find(name);
      if (entry.unavailable) throw invalidParameter(entry.unavailable);
      if (entry.name === current.services.network.name) return current.services.network;
      const profile = parseAppProfile(entry.raw);
      const source = entry.origin === 'launch' ? launchSource : sourceOf(profile);
      const flow =
        entry.origin === 'launch' && !options.openOrderFlow
          ? options.orderFlow
          : options.openOrderFlow?.(entry.raw, source, diagnostics.listeners(profile.name));
      const previous = current;
      // Who follows which market's fills and books, read before the old network's feeds close: the pages only,
      // as main's own watchers (`main:alerts`, `main:stops`) arm the new network's alerts and stops themselves.
      const ofPages = (subscription: { clientId: string }) => !subscription.clientId.startsWith(MAIN_CLIENT_PREFIX);
      const fills = previous.services.feeds.subscriptions().filter(ofPages);
      const books = previous.services.books.subscriptions().filter(ofPages);
      current = open(profile, flow, source, entry.raw);
      previous.close();
      logger.debug(`switched to the network ${entry.name}`);
      hub.emit('network', current.services.network);
      // Every market a page followed is followed again on the new network; its feedStatus events say how
      // that went (a market the new network does not have closes with its source's sentence).
      for (const { clientId, protocol, marketId } of fills) current.services.feeds.follow(clientId, protocol, marketId);
      for (const { clientId, protocol, marketId } of books) current.services.books.follow(clientId, protocol, marketId);
      return current.services.network;
    });
    switching = run.catch(() => undefined);
    return run;
  };

  current = open(options.profile, launchFlow, launchSource, launchRaw);
  // The router and its sender policy stay for the whole session; each call reads the network in use then.
  const handlers = Object.fromEntries(
    OPERATION_NAMES.map((name) => [
      name,
      (input: unknown, context: CallContext) =>
        (current.handlers[name] as (input: unknown, context: CallContext) => unknown)(input, context),
    ]),
  ) as Handlers;
  const router = createRouter({ handlers, allowSender: options.allowSender, logger });
  return {
    router,
    hub,
    get services() {
      return current.services;
    },
    switchNetwork,
    close: async () => {
      closed = true;
      await switching;
      current.close();
      if (options.orderFlow && !options.openOrderFlow) options.orderFlow.close();
      // An alert that fired or a stop that triggered just before quitting is written before the terminal says it closed.
      await Promise.all([keptAlerts?.settled(), keptStops?.settled(), options.wallets?.signer.close()]);
    },
  };
}

/** Books from the exchange's market WebSocket, resynced from its GET /book when in doubt. */
function liveBooks(
  wsUrl: string,
  clobUrl: string,
  chainId: number,
  read: MarketSource['getOrderBooks'],
  hub: EventHub,
  logger: Logger,
  onTickSize: (tokenId: string, tickSize: string) => void,
  frameClock: FrameClock,
  exchangeWatch: ReturnType<ApiDiagnostics['listeners']>,
  onResolved: (tokenId: string) => void,
): BookFollower {
  const clob = new ClobClient({ host: clobUrl, chainId, logger, timeoutMs: 15_000, ...exchangeWatch });
  const fetchBook = async (tokenId: string): Promise<RestBook> => {
    const book = await clob.getOrderBook(tokenId);
    if (isClobError(book))
      throw new Error(`GET /book failed: ${typeof book.error === 'string' ? book.error : JSON.stringify(book.error)}`);
    return book as RestBook;
  };
  // 50 levels a side: a deep ladder, still a small message when pushed once a frame.
  return new LiveBookFeeds(read, hub, { wsUrl, fetchBook, depth: 50, frameClock }, onTickSize, onResolved);
}
