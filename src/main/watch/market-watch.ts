// How main itself follows markets (for alerts and stops): as one more client of the event hub, so the books,
// fills, account feeds and market states it asks for are the same shared, ref-counted feeds the windows use. A book a window
// still shows stays open when main stops watching it, and the other way round. Closing the watch lets go of all.
import type { TerminalEvents } from '../../shared/contract';
import type { EventHub } from '../ipc/event-hub';
import type { AccountFollower, BookFollower, FillFollower } from '../ipc/services';
import type { MarketStates } from '../follow/market-states';

export interface WatchFeeds {
  books: BookFollower;
  /** Markets' states (open, closed, resolved), pushed as they change. */
  states?: Pick<MarketStates, 'follow' | 'unfollow'>;
  fills?: Pick<FillFollower, 'follow' | 'unfollow'>;
  accounts?: AccountFollower;
}

export interface WatchHandlers {
  onBook?(update: TerminalEvents['bookUpdate']): void;
  onFill?(update: TerminalEvents['fill']): void;
  onAccount?(update: TerminalEvents['account']): void;
  onWalletLock?(update: TerminalEvents['walletLock']): void;
  onMarketState?(update: TerminalEvents['marketState']): void;
}

export class MarketWatch {
  private readonly books = new Map<string, number>();
  private readonly fills = new Map<string, number>();
  private readonly accounts = new Map<string, number>();
  private readonly states = new Map<string, number>();
  private closed = false;
  /** Takes this watch off the hub, and only this one: a later watch may have connected under the same id. */
  private readonly leave: () => void;

  constructor(
    hub: EventHub,
    /** Main's own client id on the hub (`main:alerts`, `main:stops`): never a window's. */
    readonly clientId: string,
    private readonly feeds: WatchFeeds,
    handlers: WatchHandlers,
  ) {
    // A handler that throws must not get this client dropped from the hub: it would stop watching everything.
    const safely = <A>(run: ((arg: A) => void) | undefined, arg: A) => {
      try {
        run?.(arg);
      } catch {
        /* one bad reading is skipped; the next one is read again */
      }
    };
    this.leave = hub.connect(clientId, (event, payload) => {
      if (event === 'bookUpdate') safely(handlers.onBook, payload as TerminalEvents['bookUpdate']);
      else if (event === 'fill') safely(handlers.onFill, payload as TerminalEvents['fill']);
      else if (event === 'account') safely(handlers.onAccount, payload as TerminalEvents['account']);
      else if (event === 'walletLock') safely(handlers.onWalletLock, payload as TerminalEvents['walletLock']);
      else if (event === 'marketState') safely(handlers.onMarketState, payload as TerminalEvents['marketState']);
    });
  }

  followBook(protocol: string, marketId: string): void {
    if (this.closed) return;
    const count = this.books.get(marketId) ?? 0;
    this.books.set(marketId, count + 1);
    if (count === 0) this.feeds.books.follow(this.clientId, protocol, marketId);
  }

  unfollowBook(marketId: string): void {
    const count = this.books.get(marketId) ?? 0;
    if (count <= 1) {
      this.books.delete(marketId);
      if (count === 1) this.feeds.books.unfollow(this.clientId, marketId);
    } else this.books.set(marketId, count - 1);
  }

  /** False when this network has no fill stream to follow. */
  followFills(protocol: string, marketId: string): boolean {
    if (this.closed || !this.feeds.fills) return false;
    const count = this.fills.get(marketId) ?? 0;
    this.fills.set(marketId, count + 1);
    if (count === 0) this.feeds.fills.follow(this.clientId, protocol, marketId);
    return true;
  }

  unfollowFills(marketId: string): void {
    const count = this.fills.get(marketId) ?? 0;
    if (count <= 1) {
      this.fills.delete(marketId);
      if (count === 1) this.feeds.fills?.unfollow(this.clientId, marketId);
    } else this.fills.set(marketId, count - 1);
  }

  /** Follows a market's state; answers it now (undefined where this network pushes no states, or it cannot be read). */
  async followState(protocol: string, marketId: string): Promise<TerminalEvents['marketState'] | undefined> {
    if (this.closed || !this.feeds.states) return undefined;
    const count = this.states.get(marketId) ?? 0;
    this.states.set(marketId, count + 1);
    try {
      return await this.feeds.states.follow(this.clientId, protocol, marketId);
    } catch {
      return undefined;
    }
  }

  unfollowState(marketId: string): void {
    const count = this.states.get(marketId) ?? 0;
    if (count <= 1) {
      this.states.delete(marketId);
      if (count === 1) this.feeds.states?.unfollow(this.clientId, marketId);
    } else this.states.set(marketId, count - 1);
  }

  /** Follows a wallet's own orders and trades (throws the feed's sentence when it cannot: locked, no exchange WebSocket). */
  async followAccount(wallet: string): Promise<void> {
    if (this.closed) return;
    if (!this.feeds.accounts)
      throw new Error('this network has no live account feed (its profile names no exchange WebSocket)');
    const key = wallet.toLowerCase();
    const count = this.accounts.get(key) ?? 0;
    this.accounts.set(key, count + 1);
    if (count > 0) return;
    try {
      await this.feeds.accounts.follow(this.clientId, wallet);
    } catch (error) {
      this.accounts.delete(key);
      throw error;
    }
  }

  unfollowAccount(wallet: string): void {
    const key = wallet.toLowerCase();
    const count = this.accounts.get(key) ?? 0;
    if (count <= 1) {
      this.accounts.delete(key);
      if (count === 1) this.feeds.accounts?.unfollow(this.clientId, wallet);
    } else this.accounts.set(key, count - 1);
  }

  /** Lets go of every feed (the hub tells each service this client is gone). */
  close(): void {
    this.closed = true;
    this.books.clear();
    this.fills.clear();
    this.accounts.clear();
    this.states.clear();
    this.leave();
  }
}
