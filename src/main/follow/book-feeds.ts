// Order books for the clients that follow a market, polled from the market-data source: the fallback for a
// profile with no exchange WebSocket (live-book-feeds.ts follows it otherwise). One poll loop per market, shared
// by its clients, pushing a `bookUpdate` only when an outcome's book hash changed. Like the fill stream it never
// retries on its own: a failed read closes the feed with a `feedStatus` that says why, and the client decides
// whether to follow again.
import type { MarketOrderBooks } from '@pmdesk/toolkit/model';
import type { FeedState } from '../../shared/contract';
import { wrapOnce } from '@pmdesk/toolkit/model';
import type { EventHub } from '../ipc/event-hub';

export type BookSource = (protocol: string, marketId: string) => Promise<MarketOrderBooks>;

interface Feed {
  protocol: string;
  marketId: string;
  clients: Set<string>;
  state: FeedState;
  hashes: Map<string, string>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export const DEFAULT_BOOK_POLL_MS = 1000;

export class BookFeeds {
  private readonly feeds = new Map<string, Feed>();
  private readonly stopListening: () => void;

  constructor(
    private readonly read: BookSource,
    private readonly hub: EventHub,
    private readonly intervalMs = DEFAULT_BOOK_POLL_MS,
  ) {
    this.stopListening = hub.onClientGone((clientId) => this.releaseClient(clientId));
  }

  follow(clientId: string, protocol: string, marketId: string): { marketId: string; state: FeedState } {
    const key = `${protocol}:${marketId}`;
    let feed = this.feeds.get(key);
    if (!feed) {
      feed = { protocol, marketId, clients: new Set(), state: 'connecting', hashes: new Map(), timer: undefined };
      this.feeds.set(key, feed);
      void this.poll(key, feed);
    }
    feed.clients.add(clientId);
    return { marketId, state: feed.state };
  }

  unfollow(clientId: string, marketId: string): boolean {
    let was = false;
    for (const [key, feed] of this.feeds) {
      if (feed.marketId !== marketId || !feed.clients.delete(clientId)) continue;
      was = true;
      if (feed.clients.size === 0) this.close(key, feed);
    }
    return was;
  }

  releaseClient(clientId: string): void {
    for (const [key, feed] of this.feeds) if (feed.clients.delete(clientId) && feed.clients.size === 0) this.close(key, feed);
  }

  followed(): string[] {
    return [...this.feeds.keys()];
  }

  closeAll(): void {
    this.stopListening();
    for (const [key, feed] of this.feeds) this.close(key, feed);
  }

  private async poll(key: string, feed: Feed): Promise<void> {
    let books: MarketOrderBooks;
    try {
      books = await this.read(feed.protocol, feed.marketId);
    } catch (error) {
      if (this.feeds.get(key) !== feed) return;
      const wrapped = wrapOnce(error, 'bookFeed');
      this.hub.emit('feedStatus', { feed: 'book', marketId: feed.marketId, state: 'closed', error: { code: wrapped.code, message: wrapped.detail } }, feed.clients);
      this.feeds.delete(key);
      return;
    }
    if (this.feeds.get(key) !== feed) return;
    if (feed.state === 'connecting') {
      feed.state = 'open';
      this.hub.emit('feedStatus', { feed: 'book', marketId: feed.marketId, state: 'open' }, feed.clients);
    }
    for (const [tokenId, book] of Object.entries(books)) {
      // A book without a hash is compared by content, so an unchanged book is never pushed twice.
      const fingerprint = book.hash || JSON.stringify([book.bids, book.asks]);
      if (feed.hashes.get(tokenId) === fingerprint) continue;
      feed.hashes.set(tokenId, fingerprint);
      this.hub.emit('bookUpdate', { marketId: feed.marketId, tokenId, book }, feed.clients);
    }
    feed.timer = setTimeout(() => void this.poll(key, feed), this.intervalMs);
  }

  private close(key: string, feed: Feed): void {
    this.feeds.delete(key);
    clearTimeout(feed.timer);
    if (feed.state !== 'closed') {
      feed.state = 'closed';
      this.hub.emit('feedStatus', { feed: 'book', marketId: feed.marketId, state: 'closed' }, feed.clients);
    }
  }
}
