// The trader service of one network, where it reads Polymarket direct (the aggregator has no leaderboard,
// holders or trader feed): its followed traders kept in the settings file under the network's name (in memory
// without a data folder), their trades pushed to the windows, and alerts told on the desktop and as notices.
import { PolymarketSource, type Logger, type MarketSource } from '@pmdesk/toolkit';
import type { EventHub } from '../ipc/event-hub';
import type { DesktopNotifier } from '../alerts/notifier';
import type { SettingsStore } from '../settings/settings';
import { TraderService, memoryStore, type FollowedStore } from './traders';

export interface TraderServiceParts {
  network: string;
  source: MarketSource;
  settings?: SettingsStore;
  hub: EventHub;
  notifier?: DesktopNotifier;
  logger: Logger;
}

export function openTraderService(parts: TraderServiceParts): TraderService | undefined {
  const { source, settings, network, hub } = parts;
  if (!(source instanceof PolymarketSource)) return undefined;
  const store: FollowedStore = settings
    ? {
        load: () => settings.followedTraders(network),
        save: (traders) => settings.saveFollowedTraders(network, traders),
      }
    : memoryStore();
  return new TraderService({
    reads: {
      leaderboard: (query) => source.traders.getLeaderboard(query),
      holders: (conditionId) => source.traders.getHolders(conditionId),
      market: (protocol, marketId) => source.getMarket(protocol, marketId),
      follow: (wallets, handlers) => source.followTraders(wallets, handlers),
    },
    store,
    emit: (payload) => hub.emit('followedTrade', payload),
    alert: (title, body) => {
      parts.notifier?.show(title, body);
      // Every window hears it too (browser mode has no desktop notifications in main).
      hub.emit('notice', { kind: 'info', message: `${title}: ${body}` });
    },
    logger: parts.logger,
  });
}
