// Puts the terminal's services together once, for either shell: the aggregator client of the profile, the
// event hub, followed fills and books, wallets over the signer the shell started, trading over the order flow,
// and the router over all of them.
import type { NetworkInfo } from '../../shared/contract';
import { AggregatorClient } from '../toolkit/aggregator/client';
import { silentLogger, type Logger } from '../toolkit/logger';
import type { SignerClient } from '../wallets/signer-client';
import { Wallets } from '../wallets/wallets';
import { EventHub } from './event-hub';
import { BookFeeds } from './book-feeds';
import { LiveBookFeeds, type BookFollower } from './live-book-feeds';
import { ClobClient } from '../toolkit/clob/client';
import { isClobError } from '../toolkit/clob/transport';
import type { RestBook } from '../feeds/market-feed';
import { FillFeeds } from './fill-feeds';
import { networkInfo, type AppProfile } from './profile';
import { createRouter, type Router, type SenderPolicy } from './router';
import type { TradingService as OrderFlow } from '../trading/service';
import { createHandlers, type MarketReader, type TerminalServices } from './services';
import { tradingAccess } from './trading-access';
import { walletAccess } from './wallet-access';
import { AccountFeeds, accountOpener, type AccountFeedTuning } from './account-feeds';
import { DeadManSwitches, heartbeatOpener } from './dead-man-switches';

export interface TerminalOptions {
  profile: AppProfile;
  shell: NetworkInfo['shell'];
  allowSender: SenderPolicy;
  /** The wallets' data folder and the signer the shell started (a utility process, a worker thread). */
  wallets?: { dataDir: string; signer: SignerClient; scryptN?: number };
  /** The order flow (src/main/trading) for this profile; trading answers ERR_NOT_AVAILABLE without it or without wallets. */
  orderFlow?: OrderFlow;
  logger?: Logger;
  /** Another aggregator reader (tests hand in a client with a short timeout). */
  markets?: MarketReader & Pick<AggregatorClient, 'subscribeToFills'>;
  /** How often followed books are read from the aggregator (1 s unless told). */
  bookPollMs?: number;
  /** Watched accounts' feeds and the dead-man switches' beat interval (tests shorten them). */
  accountFeeds?: AccountFeedTuning & { heartbeatMs?: number };
}

export interface Terminal {
  router: Router;
  hub: EventHub;
  services: TerminalServices;
  close(): Promise<void>;
}

export function openTerminal(options: TerminalOptions): Terminal {
  const logger = options.logger ?? silentLogger;
  const client =
    options.markets ??
    new AggregatorClient({ apiUrl: options.profile.aggregatorUrl, sseUrl: options.profile.sseUrl || undefined, logger, timeoutMs: 15_000 });
  const hub = new EventHub(logger);
  const feeds = new FillFeeds((protocol, marketId, handlers) => client.subscribeToFills(protocol, marketId, handlers), hub);
  const readBooks = (protocol: string, marketId: string) => client.getOrderBooks(protocol, marketId);
  const books: BookFollower =
    options.profile.wsUrl && options.profile.clobUrl ? liveBooks(options.profile.wsUrl, options.profile.clobUrl, options.profile.chainId, readBooks, hub, logger) : new BookFeeds(readBooks, hub, options.bookPollMs);
  const wallets = options.wallets ? new Wallets({ dataDir: options.wallets.dataDir, signer: options.wallets.signer, scryptN: options.wallets.scryptN }) : undefined;
  const services: TerminalServices = {
    network: networkInfo(options.profile, options.shell),
    markets: client,
    feeds,
    books,
    hub,
    wallets: wallets && options.wallets ? walletAccess(wallets, options.wallets.signer, hub) : undefined,
    trading: wallets && options.wallets && options.orderFlow ? tradingAccess(options.orderFlow, { list: () => wallets.list(), signer: options.wallets.signer }, hub) : undefined,
  };
  // Live account data and dead-man switches go through the order flow's credentials, so only with it.
  const tradingWallets = wallets && options.wallets ? { list: () => wallets.list(), signer: options.wallets.signer } : undefined;
  if (tradingWallets && options.orderFlow) {
    const { heartbeatMs, ...tuning } = options.accountFeeds ?? {};
    if (options.profile.wsUrl) services.accounts = new AccountFeeds(accountOpener(options.orderFlow, tradingWallets), hub, { wsUrl: options.profile.wsUrl, ...tuning });
    services.deadManSwitches = new DeadManSwitches(heartbeatOpener(options.orderFlow, tradingWallets), hub, { intervalMs: heartbeatMs });
  }
  const router = createRouter({ handlers: createHandlers(services), allowSender: options.allowSender, logger });
  return {
    router,
    hub,
    services,
    close: async () => {
      feeds.closeAll();
      books.closeAll();
      services.accounts?.closeAll();
      services.deadManSwitches?.closeAll();
      options.orderFlow?.close();
      await options.wallets?.signer.close();
    },
  };
}

/** Books from the exchange's market WebSocket, resynced from its GET /book when in doubt. */
function liveBooks(wsUrl: string, clobUrl: string, chainId: number, read: (protocol: string, marketId: string) => ReturnType<AggregatorClient['getOrderBooks']>, hub: EventHub, logger: Logger): BookFollower {
  const clob = new ClobClient({ host: clobUrl, chainId, logger, timeoutMs: 15_000 });
  const fetchBook = async (tokenId: string): Promise<RestBook> => {
    const book = await clob.getOrderBook(tokenId);
    if (isClobError(book)) throw new Error(`GET /book failed: ${typeof book.error === 'string' ? book.error : JSON.stringify(book.error)}`);
    return book as RestBook;
  };
  // 50 levels a side: a deep ladder, still a small message when pushed once a frame.
  return new LiveBookFeeds(read, hub, { wsUrl, fetchBook, depth: 50 });
}
