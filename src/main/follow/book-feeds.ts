// Order books for the clients that follow a market, polled from the market-data source: the fallback for a
// profile with no exchange WebSocket (live-book-feeds.ts follows it otherwise). One poll loop per market, shared
// by its clients (counted by follower.ts), pushing a `bookUpdate` only when an outcome's book hash changed. Like
// the fill stream it never retries on its own: a failed read closes the feed with a `feedStatus` that says why, and the client decides
// whether to follow again.
import type { MarketOrderBooks } from '@pmdesk/toolkit/model';
import type { FeedState } from '../../shared/contract';
import { bookFromLevels } from '../../shared/book';
import { wrapOnce } from '@pmdesk/toolkit/model';
import type { EventHub } from '../ipc/event-hub';
import type { BookFollower } from '../ipc/services';
import { Follower, type FollowedMarket } from './follower';

export type BookSource = (protocol: string, marketId: string) => Promise<MarketOrderBooks>;

interface Feed extends FollowedMarket {
  clients: ReadonlySet<string>;
  state: FeedState;
  hashes: Map<string, string>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export const DEFAULT_BOOK_POLL_MS = 1000;

export class BookFeeds implements BookFollower {
  private readonly follower: Follower<Feed>;

  constructor(
    private readonly read: BookSource,
    private readonly hub: EventHub,
    private readonly intervalMs = DEFAULT_BOOK_POLL_MS,
  ) {
    this.follower = new Follower<Feed>(hub, (feed) => this.close(feed));
  }

  follow(clientId: string, protocol: string, marketId: string): { marketId: string; state: FeedState } {
    const feed = this.follower.follow(clientId, { protocol, marketId }, (clients) => {
      const opened: Feed = { protocol, marketId, clients, state: 'connecting', hashes: new Map(), timer: undefined };
      void this.poll(opened);
      return opened;
    });
    return { marketId, state: feed.state };
  }

  unfollow(clientId: string, marketId: string): boolean {
    return this.follower.unfollow(clientId, marketId);
  }

  releaseClient(clientId: string): void {
    this.follower.releaseClient(clientId);
  }

  followed(): string[] {
    return this.follower.followed();
  }

  subscriptions(): ReturnType<BookFollower['subscriptions']> {
    return this.follower.subscriptions();
  }

  closeAll(): void {
    this.follower.closeAll();
  }

  private async poll(feed: Feed): Promise<void> {
    let books: MarketOrderBooks;
    try {
      books = await this.read(feed.protocol, feed.marketId);
    } catch (error) {
      if (this.follower.feedOf(feed) !== feed) return;
      const wrapped = wrapOnce(error, 'bookFeed');
      this.hub.emit(
        'feedStatus',
        {
          feed: 'book',
          marketId: feed.marketId,
          state: 'closed',
          error: { code: wrapped.code, message: wrapped.detail },
        },
        feed.clients,
      );
      this.follower.forget(feed, feed);
      return;
    }
    if (this.follower.feedOf(feed) !== feed) return;
    if (feed.state === 'connecting') {
      feed.state = 'open';
      this.hub.emit('feedStatus', { feed: 'book', marketId: feed.marketId, state: 'open' }, feed.clients);
    }
    for (const [tokenId, book] of Object.entries(books)) {
      // A book without a hash is compared by content, so an unchanged book is never pushed twice.
      const fingerprint = book.hash || JSON.stringify([book.bids, book.asks]);
      if (feed.hashes.get(tokenId) === fingerprint) continue;
      feed.hashes.set(tokenId, fingerprint);
      this.hub.emit(
        'bookUpdate',
        { marketId: feed.marketId, tokenId, book: bookFromLevels(tokenId, book) },
        feed.clients,
      );
    }
    feed.timer = setTimeout(() => void this.poll(feed), this.intervalMs);
  }

  private close(feed: Feed): void {
    clearTimeout(feed.timer);
    if (feed.state !== 'closed') {
      feed.state = 'closed';
      this.hub.emit('feedStatus', { feed: 'book', marketId: feed.marketId, state: 'closed' }, feed.clients);
    }
  }
}
