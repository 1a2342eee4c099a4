// Followed books from the exchange's market WebSocket (when the profile names a wsUrl), with the same surface
// as the polling BookFeeds: a market's outcome tokens are learnt from one read of the source, then one shared
// MarketFeed keeps their books live and pushes coalesced `bookUpdate` events to the market's clients, a
// `tickSize` event when the exchange changes a market's tick, `lastTrade` for each trade it announces, and
// `feedStatus` with `source: 'polling'` while the socket cannot be reached and the feed reads GET /book instead.
import type { MarketOrderBooks } from '@pmdesk/toolkit/model';
import type { FeedState } from '../../shared/contract';
import { ErrorCode, wrapOnce } from '@pmdesk/toolkit/model';
import { MarketFeed, type BookView, type MarketFeedOptions, type MarketFeedState } from '../feeds/market-feed';
import type { EventHub } from '../ipc/event-hub';
import type { BookFollower } from '../ipc/services';
import type { BookSource } from './book-feeds';
import { Follower, type FollowedMarket } from './follower';

interface Followed extends FollowedMarket {
  clients: ReadonlySet<string>;
  tokens: string[];
  state: FeedState;
  source: 'live' | 'polling';
}

/** The feed's five states as the contract's four: reconnecting is connecting again; stale books also carry `stale`. */
const contractState = (state: MarketFeedState): FeedState =>
  state === 'live' ? 'open' : state === 'stale' ? 'stale' : state === 'closed' ? 'closed' : 'connecting';

export class LiveBookFeeds implements BookFollower {
  private readonly markets: Follower<Followed>;
  private readonly byToken = new Map<string, Followed>();
  private readonly feed: MarketFeed;

  constructor(
    /** The source's books of a market: read once, for its outcome tokens. */
    private readonly read: BookSource,
    private readonly hub: EventHub,
    feedOptions: Omit<MarketFeedOptions, 'handlers'>,
    /** Told every tick change the channel announces (the order flow keeps the new tick for the next order). */
    onTickSize?: (tokenId: string, tickSize: string) => void,
    /** Told when the channel says a token's market resolved (market states read it again at once). */
    onResolved?: (tokenId: string) => void,
  ) {
    this.feed = new MarketFeed({
      ...feedOptions,
      handlers: {
        onBook: (view) => this.onBook(view),
        // The channel's last trades of followed tokens go to their market's clients (the event board's last).
        onTrade: (trade) => {
          const followed = this.byToken.get(trade.tokenId);
          if (!followed) return;
          const { tokenId, price, size, side, timestamp } = trade;
          if (!Number.isFinite(price) || price <= 0 || price >= 1) return;
          this.hub.emit(
            'lastTrade',
            { marketId: followed.marketId, tokenId, price, size, side, timestamp },
            followed.clients,
          );
        },
        onState: () => this.announce(),
        onSource: () => this.announce(),
        onReachable: () => this.announce(),
        onWarning: (warning) => {
          if (warning.kind === 'market_resolved') return onResolved?.(warning.tokenId);
          if (warning.kind !== 'tick_size_change') return;
          onTickSize?.(warning.tokenId, warning.newTickSize);
          const followed = this.byToken.get(warning.tokenId);
          if (!followed) return;
          const { oldTickSize: previous, newTickSize: tickSize } = warning;
          this.hub.emit(
            'tickSize',
            {
              marketId: followed.marketId,
              tokenId: warning.tokenId,
              previous,
              tickSize,
              message: `The tick size changed from ${previous} to ${tickSize}: prices now move in steps of ${tickSize}.`,
            },
            followed.clients,
          );
        },
      },
    });
    this.markets = new Follower<Followed>(hub, (followed) => this.close(followed));
  }

  follow(clientId: string, protocol: string, marketId: string): { marketId: string; state: FeedState } {
    const followed = this.markets.follow(clientId, { protocol, marketId }, (clients) => {
      const opened: Followed = { protocol, marketId, clients, tokens: [], state: 'connecting', source: 'live' };
      void this.start(opened);
      return opened;
    });
    return { marketId, state: followed.state };
  }

  unfollow(clientId: string, marketId: string): boolean {
    return this.markets.unfollow(clientId, marketId);
  }

  releaseClient(clientId: string): void {
    this.markets.releaseClient(clientId);
  }

  followed(): string[] {
    return this.markets.followed();
  }

  subscriptions(): ReturnType<BookFollower['subscriptions']> {
    return this.markets.subscriptions();
  }

  liveBook(tokenId: string): ReturnType<MarketFeed['exchangeBook']> {
    return this.byToken.has(tokenId) ? this.feed.exchangeBook(tokenId) : undefined;
  }

  closeAll(): void {
    this.markets.closeAll();
    this.feed.close();
  }

  private async start(followed: Followed): Promise<void> {
    let books: MarketOrderBooks;
    try {
      books = await this.read(followed.protocol, followed.marketId);
    } catch (error) {
      if (this.markets.feedOf(followed) !== followed) return;
      const wrapped = wrapOnce(error, 'bookFeed');
      this.hub.emit(
        'feedStatus',
        {
          feed: 'book',
          marketId: followed.marketId,
          state: 'closed',
          error: { code: wrapped.code, message: wrapped.detail },
        },
        followed.clients,
      );
      this.markets.forget(followed, followed);
      return;
    }
    if (this.markets.feedOf(followed) !== followed) return;
    followed.tokens = Object.keys(books);
    for (const token of followed.tokens) this.byToken.set(token, followed);
    this.feed.subscribe(followed.tokens);
    this.feed.start();
    const state = this.current();
    if (state && (this.feed.state === 'live' || this.feed.source === 'polling')) this.setState(followed, state);
  }

  /**
   * The feed's state as the contract says it: polled books are open (slower, not stale), unless the polls get
   * no answer either: then the books are unknown (stale), and the exchange unreachable. Undefined while the
   * first round of polls is out: the state stays what it was until it is known.
   */
  private current(): FeedState | undefined {
    if (this.feed.source !== 'polling') return contractState(this.feed.state);
    const reachable = this.feed.exchangeReachable;
    return reachable === null ? undefined : reachable ? 'open' : 'stale';
  }

  private announce(): void {
    const state = this.current();
    if (!state) return;
    for (const followed of this.markets.feeds()) if (followed.tokens.length > 0) this.setState(followed, state);
  }

  private onBook(view: BookView): void {
    const followed = this.byToken.get(view.tokenId);
    if (!followed) return;
    // The feed's view is already the contract's Book (numbers, best first): it leaves as it is.
    this.hub.emit('bookUpdate', { marketId: followed.marketId, tokenId: view.tokenId, book: view }, followed.clients);
  }

  private setState(followed: Followed, state: FeedState): void {
    const source = this.feed.source;
    if (followed.state === state && followed.source === source) return;
    followed.state = state;
    followed.source = source;
    const unreachable = source === 'polling' && state === 'stale';
    const error = unreachable
      ? {
          error: {
            code: ErrorCode.NETWORK_ERROR,
            message: 'The exchange cannot be reached: neither its WebSocket nor GET /book answers.',
          },
        }
      : {};
    this.hub.emit(
      'feedStatus',
      { feed: 'book', marketId: followed.marketId, state, source, ...error },
      followed.clients,
    );
  }

  private close(followed: Followed): void {
    for (const token of followed.tokens) this.byToken.delete(token);
    if (followed.tokens.length > 0) this.feed.unsubscribe(followed.tokens);
    this.setState(followed, 'closed');
  }
}
