// Live fills for the clients that follow a market: one aggregator stream per market, shared by every client
// that asked for it and closed when the last one leaves (or goes away). The toolkit never reconnects on its
// own, so a closed stream is reported as a `feedStatus` event and the client decides whether to follow again.
import type { FeedState, ResultError } from '../../shared/contract';
import type { PmDeskError } from '../../shared/errors';
import type { FillHandlers, FillSubscription } from '../toolkit/aggregator/fills';
import type { EventHub } from './event-hub';

export type FillSource = (protocol: string, marketId: string, handlers: FillHandlers) => FillSubscription;

interface Feed {
  subscription: FillSubscription;
  clients: Set<string>;
}

const asResultError = (error: PmDeskError): ResultError => ({ code: error.code, message: error.detail });

export class FillFeeds {
  private readonly feeds = new Map<string, Feed>();
  private readonly stopListening: () => void;

  constructor(
    private readonly source: FillSource,
    private readonly hub: EventHub,
  ) {
    this.stopListening = hub.onClientGone((clientId) => this.releaseClient(clientId));
  }

  follow(clientId: string, protocol: string, marketId: string): { marketId: string; state: FeedState } {
    const key = `${protocol}:${marketId}`;
    let feed = this.feeds.get(key);
    if (!feed || feed.subscription.state === 'closed') {
      const clients = new Set<string>(feed?.clients ?? []);
      const status = (state: FeedState, error?: PmDeskError) =>
        this.hub.emit('feedStatus', { feed: 'fills', marketId, state, ...(error ? { error: asResultError(error) } : {}) }, this.feeds.get(key)?.clients ?? clients);
      const subscription = this.source(protocol, marketId, {
        onOpen: () => status('open'),
        onFill: (fill) => this.hub.emit('fill', { marketId, fill }, this.feeds.get(key)?.clients ?? []),
        onClose: (error) => {
          status('closed', error);
          if (this.feeds.get(key)?.subscription === subscription) this.feeds.delete(key);
        },
      });
      feed = { subscription, clients };
      this.feeds.set(key, feed);
    }
    feed.clients.add(clientId);
    return { marketId, state: feed.subscription.state };
  }

  unfollow(clientId: string, marketId: string): boolean {
    let was = false;
    for (const [key, feed] of this.feeds) {
      if (!key.endsWith(`:${marketId}`) || !feed.clients.delete(clientId)) continue;
      was = true;
      if (feed.clients.size === 0) this.close(key, feed);
    }
    return was;
  }

  releaseClient(clientId: string): void {
    for (const [key, feed] of this.feeds) {
      if (feed.clients.delete(clientId) && feed.clients.size === 0) this.close(key, feed);
    }
  }

  /** Markets followed right now (for tests and the status bar). */
  followed(): string[] {
    return [...this.feeds.keys()];
  }

  closeAll(): void {
    this.stopListening();
    for (const [key, feed] of this.feeds) this.close(key, feed);
  }

  private close(key: string, feed: Feed): void {
    this.feeds.delete(key);
    feed.subscription.close();
  }
}
