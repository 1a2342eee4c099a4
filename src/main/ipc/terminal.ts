// Puts the terminal's services together once, for either shell: the aggregator client of the profile, the
// event hub, live fill feeds, wallets over the signer the shell started, and the router over all of them.
import type { NetworkInfo } from '../../shared/contract';
import { AggregatorClient } from '../toolkit/aggregator/client';
import { silentLogger, type Logger } from '../toolkit/logger';
import type { SignerClient } from '../wallets/signer-client';
import { Wallets } from '../wallets/wallets';
import { EventHub } from './event-hub';
import { FillFeeds } from './fill-feeds';
import { networkInfo, type AppProfile } from './profile';
import { createRouter, type Router, type SenderPolicy } from './router';
import { createHandlers, type MarketReader, type TerminalServices, type TradingService } from './services';
import { walletAccess } from './wallet-access';

export interface TerminalOptions {
  profile: AppProfile;
  shell: NetworkInfo['shell'];
  allowSender: SenderPolicy;
  /** The wallets' data folder and the signer the shell started (a utility process, a worker thread). */
  wallets?: { dataDir: string; signer: SignerClient; scryptN?: number };
  trading?: TradingService;
  logger?: Logger;
  /** Another aggregator reader (tests hand in a client with a short timeout). */
  markets?: MarketReader & Pick<AggregatorClient, 'subscribeToFills'>;
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
  const services: TerminalServices = {
    network: networkInfo(options.profile, options.shell),
    markets: client,
    feeds,
    hub,
    wallets: options.wallets
      ? walletAccess(new Wallets({ dataDir: options.wallets.dataDir, signer: options.wallets.signer, scryptN: options.wallets.scryptN }), options.wallets.signer, hub)
      : undefined,
    trading: options.trading,
  };
  const router = createRouter({ handlers: createHandlers(services), allowSender: options.allowSender, logger });
  return {
    router,
    hub,
    services,
    close: async () => {
      feeds.closeAll();
      await options.wallets?.signer.close();
    },
  };
}
