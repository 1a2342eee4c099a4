// Live account data for the clients that watch a wallet: one UserFeed (the exchange's /ws/user, level 2
// credentials kept in main) per wallet, shared by its clients and stopped when the last one leaves, pushed as
// whole `account` snapshots at most once a frame and `feedStatus { feed: 'user' }` events.
//
// Positions are not pushed here: they come from getPositions (the chain and the aggregator), which the renderer
// reads again when an `account` event shows a new trade or a trade whose status moved.
import { ErrorCode } from '@pmdesk/toolkit/model';
import type { FeedState, TradeInfo } from '../../shared/contract';
import { Coalescer, FRAME_MS } from '../feeds/coalescer';
import type { Scheduler } from '../feeds/scheduler';
import {
  UserFeed,
  type FeedSource,
  type UserCredentials,
  type UserFeedOptions,
  type UserFeedState,
  type UserOrder,
  type UserTrade,
} from '../feeds/user-feed';
import type { TradingService as OrderFlow } from '../trading/service';
import { Follower } from './follower';
import type { EventHub } from '../ipc/event-hub';
import type { AccountFollower } from '../ipc/services';
import {
  openOrderOf,
  tradeAsSeenBy,
  tradingWalletNamed,
  withCredentials,
  type TradingWallets,
} from '../trading/trading-access';
import { tradeDetails, type TradeFacts } from '../trading/trade-facts';

/** What the feed of one wallet needs: its address, its level 2 credentials and the REST reads it reconciles with. */
export interface WatchedWallet {
  address: string;
  credentials: UserCredentials;
  fetchOpenOrders(): Promise<UserOrder[]>;
  fetchTrades(): Promise<UserTrade[]>;
}

/** Opens a wallet named by its label (throws a sentence the trader can act on when it cannot). */
export type WalletOpener = (label: string) => Promise<WatchedWallet>;

/** Tuning of the user feeds (tests shorten the backoff and the polling). */
export type AccountFeedTuning = Pick<UserFeedOptions, 'backoffMs' | 'pingMs' | 'pollAfterFailures' | 'pollMs'> & {
  scheduler?: Scheduler;
  frameMs?: number;
};

/** Told of every order the exchange says it cancelled (UnaskedCancels fits). */
export interface CancelWatch {
  cancelled(wallet: string, orderId: string): void;
}

interface Watched {
  label: string;
  address: string;
  /** The follower's live set of the wallet's clients. */
  clients: ReadonlySet<string>;
  feed: UserFeed | undefined;
  ready: Promise<void>;
  state: FeedState;
  source: FeedSource;
  /** The first snapshot went out (after the first reconciliation); later ones follow changes only. */
  announced: boolean;
}

/** Whether an order's own expiry (GTD; `expiration` in seconds, 0 for none) has come by `nowMs`. */
export function expiredBy(order: Record<string, unknown>, nowMs: number): boolean {
  const at = Number(order.expiration ?? 0);
  return Number.isFinite(at) && at > 0 && at * 1000 <= nowMs + 1_000;
}

/** Wallets opened through the order flow: credentials derived or created on first use, exactly as for an order. */
export function accountOpener(flow: OrderFlow, wallets: TradingWallets): WalletOpener {
  return async (label) => {
    const wallet = await tradingWalletNamed(wallets, label);
    const creds = await withCredentials(wallets, wallet, label, () => flow.credentialsFor(wallet));
    return {
      // Trades are seen from the account's side: it is the maker the exchange names.
      address: flow.fundsAddress(wallet),
      credentials: { apiKey: creds.key, secret: creds.secret, passphrase: creds.passphrase },
      fetchOpenOrders: async () => (await flow.openOrders(wallet)) as unknown as UserOrder[],
      fetchTrades: async () => (await flow.trades(wallet)) as unknown as UserTrade[],
    };
  };
}

/** The user feed's five states as the contract's four; polled data is open (slower, not stale). */
function contractState(state: UserFeedState, source: FeedSource): FeedState {
  if (state === 'unauthorized' || state === 'closed') return 'closed';
  if (source === 'polling') return 'open';
  return state === 'live' ? 'open' : 'connecting';
}

export class AccountFeeds implements AccountFollower {
  /** By wallet (its label lower-cased): who follows it, counted by main's one follower (it hears clients go away). */
  private readonly wallets: Follower<Watched, string>;
  private readonly coalescer: Coalescer<string>;

  constructor(
    private readonly open: WalletOpener,
    private readonly hub: EventHub,
    /** `facts`: names each trade's market and outcome and works out its fee (shared with listTrades). */
    private readonly options: { wsUrl: string; cancels?: CancelWatch; facts?: TradeFacts } & AccountFeedTuning,
  ) {
    this.coalescer = new Coalescer((key) => this.emitAccount(key), options.scheduler, options.frameMs ?? FRAME_MS);
    this.wallets = new Follower<Watched, string>(
      hub,
      (watched, key) => this.close(key, watched),
      (key) => key,
    );
  }

  async follow(clientId: string, wallet: string): Promise<{ wallet: string; state: FeedState }> {
    const key = wallet.trim().toLowerCase();
    const joining = !this.wallets.follows(clientId, key);
    let opened: Watched | undefined;
    const watched = this.wallets.follow(clientId, key, (clients) => (opened = this.fresh(wallet.trim(), clients)));
    // Started once it is in the follower: a start that fails at once finds it there to forget.
    if (opened) opened.ready = this.start(key, opened);
    try {
      await watched.ready;
    } catch (error) {
      this.wallets.unfollow(clientId, key);
      throw error;
    }
    // A client joining a feed that already sent its first snapshot gets the account as it is now (next frame),
    // not only at its next change: what it sees first is then what was there before it came.
    if (joining && watched.announced && this.wallets.feedOf(key) === watched) this.coalescer.mark(key);
    return { wallet: watched.label, state: watched.state };
  }

  unfollow(clientId: string, wallet: string): boolean {
    return this.wallets.unfollow(clientId, wallet.trim().toLowerCase());
  }

  releaseClient(clientId: string): void {
    this.wallets.releaseClient(clientId);
  }

  watched(): string[] {
    return this.wallets.feeds().map((w) => w.label);
  }

  /**
   * Opens a followed wallet's feed again, for the same pages, quietly (no "closed" in between): after the trader
   * chose another account its trades are seen from that account's side, with the credentials it authenticates with.
   */
  async reopen(wallet: string): Promise<void> {
    const key = wallet.trim().toLowerCase();
    const label = this.wallets.feedOf(key)?.label;
    if (label === undefined) return;
    let made: Watched | undefined;
    const old = this.wallets.reopen(key, (clients) => (made = this.fresh(label, clients)));
    const fresh = made;
    if (!old || !fresh) return;
    this.coalescer.forget(key);
    old.feed?.close();
    old.feed = undefined;
    fresh.ready = this.start(key, fresh);
    // A wallet that cannot be opened now (locked without credentials) is simply no longer followed; its pages ask again.
    await fresh.ready.catch(() => {
      if (this.wallets.feedOf(key) !== fresh)
        this.hub.emit('feedStatus', { feed: 'user', marketId: fresh.label, state: 'closed' }, fresh.clients);
    });
  }

  closeAll(): void {
    this.wallets.closeAll();
    this.coalescer.close();
  }

  /** A wallet's feed before it starts: connecting, nothing announced. */
  private fresh(label: string, clients: ReadonlySet<string>): Watched {
    return {
      label,
      address: '',
      clients,
      feed: undefined,
      ready: Promise.resolve(),
      state: 'connecting',
      source: 'live',
      announced: false,
    };
  }

  private async start(key: string, watched: Watched): Promise<void> {
    let opened: WatchedWallet;
    try {
      opened = await this.open(watched.label);
    } catch (error) {
      this.wallets.forget(key, watched);
      throw error;
    }
    // Everyone left while the credentials were being fetched.
    if (this.wallets.feedOf(key) !== watched) return;
    watched.address = opened.address;
    const { wsUrl, backoffMs, pingMs, pollAfterFailures, pollMs, scheduler } = this.options;
    const feed = new UserFeed({
      wsUrl,
      credentials: opened.credentials,
      fetchOpenOrders: opened.fetchOpenOrders,
      fetchTrades: opened.fetchTrades,
      backoffMs,
      pingMs,
      pollAfterFailures,
      pollMs,
      scheduler,
      handlers: {
        onOrder: (order, open) => {
          // Only the exchange's own word (status CANCELED) counts: an order that left the open orders at a
          // reconciliation may as well have filled.
          // A GTD order leaving at its expiry is what the trader asked for: not told as a cancel.
          if (!open && String(order.status).toUpperCase() === 'CANCELED' && !expiredBy(order, Date.now()))
            this.options.cancels?.cancelled(watched.label, order.id);
          this.coalescer.mark(key);
        },
        onTrade: () => this.coalescer.mark(key),
        onReconciled: () => {
          if (watched.announced) return;
          watched.announced = true;
          this.coalescer.mark(key);
        },
        onState: () => this.updateState(key, watched),
        onSource: () => this.updateState(key, watched),
      },
    });
    watched.feed = feed;
    feed.start();
  }

  private updateState(key: string, watched: Watched): void {
    const feed = watched.feed;
    if (!feed || this.wallets.feedOf(key) !== watched) return;
    const state = contractState(feed.state, feed.source);
    if (state === watched.state && feed.source === watched.source) return;
    watched.state = state;
    watched.source = feed.source;
    const error =
      feed.state === 'unauthorized'
        ? {
            code: ErrorCode.UNAUTHORIZED,
            message:
              'The exchange refused the API credentials of this wallet: its orders and trades are no longer followed live.',
          }
        : undefined;
    this.hub.emit(
      'feedStatus',
      { feed: 'user', marketId: watched.label, state, source: feed.source, ...(error ? { error } : {}) },
      watched.clients,
    );
    if (watched.announced) this.coalescer.mark(key);
  }

  private emitAccount(key: string): void {
    const watched = this.wallets.feedOf(key);
    const feed = watched?.feed;
    if (!watched || !feed) return;
    const openOrders = feed.openOrders().map(openOrderOf);
    const facts = this.options.facts;
    const trades: TradeInfo[] = feed.tradeViews().map((view) => {
      const trade = tradeAsSeenBy(watched.address, view.trade);
      return facts ? tradeDetails(watched.address, view.trade, trade, facts.cached(trade.conditionId)) : trade;
    });
    // A market not read yet: its facts are read once, and the snapshot goes out again with them.
    const unknown = facts
      ? trades.filter((t) => t.conditionId && !facts.cached(t.conditionId)).map((t) => t.conditionId)
      : [];
    if (facts && unknown.length > 0) {
      void facts.loadAll(unknown).then(() => {
        if (this.wallets.feedOf(key) === watched && unknown.some((c) => facts.cached(c))) this.coalescer.mark(key);
      });
    }
    this.hub.emit('account', { wallet: watched.label, openOrders, trades, state: watched.state }, watched.clients);
  }

  /** The follower ended it: the last client left, or everything closes. */
  private close(key: string, watched: Watched): void {
    this.coalescer.forget(key);
    const feed = watched.feed;
    watched.feed = undefined;
    feed?.close();
    if (watched.state !== 'closed') {
      watched.state = 'closed';
      this.hub.emit('feedStatus', { feed: 'user', marketId: watched.label, state: 'closed' }, watched.clients);
    }
  }
}
