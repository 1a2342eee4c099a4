// Other traders for the windows, per network: the leaderboard and a market's top holders read from Polymarket's
// Data API, and the traders the trader follows, kept in the settings, whose live trades (the real-time feed,
// polled while it is away: the toolkit's followTraders) are pushed to every window as `followedTrade` events,
// kept as a short tape for windows that open later, and told as a desktop notification where the trader asked.
import type {
  FollowHandlers,
  FollowMode,
  FollowedTrade,
  LeaderboardEntry,
  Logger,
  OutcomeHolders,
  TraderFollow,
} from '@pmdesk/toolkit';
import { formatUsd, sharesText } from '@pmdesk/toolkit';
import type { Market } from '@pmdesk/toolkit/model';
import type {
  FollowedFeedMode,
  FollowedTradeInfo,
  FollowedTraderInfo,
  FollowedTraders,
  LeaderboardRow,
  OutcomeHolderList,
  ParsedInput,
  TerminalEvents,
} from '../../shared/contract';
import { FOLLOWED_TRADERS_MAX } from '../../shared/contract';
import { invalidParameter } from '@pmdesk/toolkit/model';
import type { TraderAccess } from '../ipc/services';

/** What the service reads through: the network's Polymarket Data API and real-time feed, and its markets. */
export interface TraderReads {
  leaderboard(query: {
    by: 'pnl' | 'volume';
    period: 'day' | 'week' | 'month' | 'all';
    limit: number;
  }): Promise<LeaderboardEntry[]>;
  holders(conditionId: string): Promise<OutcomeHolders[]>;
  market(protocol: string, marketId: string): Promise<Market>;
  follow(wallets: readonly string[], handlers: FollowHandlers): TraderFollow;
}

/** Where one network's followed traders are kept (the settings file, or memory without a data folder). */
export interface FollowedStore {
  load(): Promise<FollowedTraderInfo[]>;
  save(traders: FollowedTraderInfo[]): Promise<FollowedTraderInfo[]>;
}

export interface TraderServiceOptions {
  reads: TraderReads;
  store: FollowedStore;
  emit: (payload: TerminalEvents['followedTrade']) => void;
  /** A followed trader's trade, told where their alert is on (a desktop notification, a notice in the windows). */
  alert: (title: string, body: string) => void;
  logger: Logger;
  now?: () => number;
}

/** Trades kept for a window that opens later: this session's newest. */
export const FOLLOWED_TAPE_MAX = 200;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A store that forgets on quitting: a session with no data folder. */
export function memoryStore(): FollowedStore {
  let kept: FollowedTraderInfo[] = [];
  return {
    load: async () => kept.map((t) => ({ ...t })),
    save: async (traders) => (kept = traders.map((t) => ({ ...t }))).map((t) => ({ ...t })),
  };
}

export class TraderService implements TraderAccess {
  private traders: FollowedTraderInfo[] = [];
  private readonly tape: FollowedTradeInfo[] = [];
  private feed: TraderFollow | undefined;
  private mode: FollowedFeedMode = 'idle';
  private loaded: Promise<void> | undefined;
  /** Changes to the list one after another, each on what the previous one left. */
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: TraderServiceOptions) {}

  /** Reads the kept list and follows it (at start, and again after a network switch back). */
  start(): Promise<void> {
    this.loaded ??= this.options.store.load().then((traders) => {
      this.traders = traders;
      this.refollow();
    });
    return this.loaded;
  }

  async leaderboard(input: ParsedInput<'getLeaderboard'>): Promise<LeaderboardRow[]> {
    return (await this.options.reads.leaderboard(input)).map((r) => ({
      rank: r.rank,
      wallet: r.wallet,
      name: r.name,
      pnl: r.pnl,
      volume: r.volume,
    }));
  }

  async holders({ protocol, marketId }: ParsedInput<'getMarketHolders'>): Promise<OutcomeHolderList[]> {
    const market = await this.options.reads.market(protocol, marketId);
    if (!market.conditionId) return [];
    const lists = await this.options.reads.holders(market.conditionId);
    // In the market's outcome order, each named; an outcome nobody holds is an empty list.
    return market.position_tokens.map((token) => ({
      tokenId: token.token_id,
      outcome: token.name,
      holders: (lists.find((l) => l.token === token.token_id)?.holders ?? []).map((h) => ({
        wallet: h.wallet,
        name: h.name,
        amount: h.amount,
      })),
    }));
  }

  async list(): Promise<FollowedTraders> {
    await this.start();
    return this.snapshot();
  }

  follow({ address, name, alert }: ParsedInput<'followTrader'>): Promise<FollowedTraders> {
    return this.change((traders) => {
      const known = traders.find((t) => same(t.address, address));
      if (known) return traders.map((t) => (t === known ? { ...t, alert, name: name || t.name } : t));
      if (traders.length >= FOLLOWED_TRADERS_MAX)
        throw invalidParameter(
          `At most ${FOLLOWED_TRADERS_MAX} traders can be followed on a network: unfollow one first.`,
          'followTrader',
        );
      return [...traders, { address, name, alert, since: (this.options.now ?? Date.now)() }];
    });
  }

  unfollow(address: string): Promise<FollowedTraders> {
    return this.change((traders) => traders.filter((t) => !same(t.address, address)));
  }

  setAlert(address: string, alert: boolean): Promise<FollowedTraders> {
    return this.change((traders) => {
      if (!traders.some((t) => same(t.address, address)))
        throw invalidParameter(`${address} is not followed on this network.`, 'setFollowedTraderAlert');
      return traders.map((t) => (same(t.address, address) ? { ...t, alert } : t));
    });
  }

  close(): void {
    this.closed = true;
    this.feed?.close();
    this.feed = undefined;
  }

  private change(edit: (traders: FollowedTraderInfo[]) => FollowedTraderInfo[]): Promise<FollowedTraders> {
    const run = this.queue.then(async () => {
      await this.start();
      this.traders = await this.options.store.save(edit(this.traders));
      this.refollow();
      return this.snapshot();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private snapshot(): FollowedTraders {
    return { traders: this.traders.map((t) => ({ ...t })), tape: [...this.tape], mode: this.mode };
  }

  /** One feed for the whole list: opened with the first trader, told of each change, closed with the last. */
  private refollow(): void {
    if (this.closed) return;
    const wallets = this.traders.map((t) => t.address);
    if (wallets.length === 0) {
      this.feed?.close();
      this.feed = undefined;
      this.setMode('idle');
      return;
    }
    if (this.feed) {
      this.feed.setWallets(wallets);
      return;
    }
    this.setMode('connecting');
    this.feed = this.options.reads.follow(wallets, {
      onTrade: (trade) => this.traded(trade),
      onMode: (mode) => this.setMode(modeOf(mode)),
      onError: (error) => this.options.logger.warn(`followed traders: ${error.message}`),
    });
  }

  private setMode(mode: FollowedFeedMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    this.options.emit({ mode });
  }

  private traded(t: FollowedTrade): void {
    const trader = this.traders.find((x) => same(x.address, t.wallet));
    if (!trader) return;
    const trade: FollowedTradeInfo = {
      key: t.key,
      wallet: t.wallet,
      name: t.name || trader.name,
      side: t.side,
      outcome: t.outcome,
      market: t.market,
      conditionId: t.conditionId,
      tokenId: t.tokenId,
      price: t.price,
      size: t.size,
      timestamp: t.timestamp,
      transactionHash: t.transactionHash,
    };
    this.tape.unshift(trade);
    if (this.tape.length > FOLLOWED_TAPE_MAX) this.tape.length = FOLLOWED_TAPE_MAX;
    this.options.emit({ trade, mode: this.mode });
    if (trader.alert) {
      const who = trade.name || `${trade.wallet.slice(0, 6)}…${trade.wallet.slice(-4)}`;
      const cents = Math.round(trade.price * 1000) / 10;
      this.options.alert(
        `${who} ${trade.side === 'BUY' ? 'bought' : 'sold'} ${trade.outcome}`,
        `${sharesText(BigInt(trade.size))} shares at ${cents}¢ (${formatUsd((BigInt(trade.size) * BigInt(Math.round(trade.price * 1e6))) / 1_000_000n)}) — ${trade.market}`,
      );
    }
  }
}

const modeOf = (mode: FollowMode): FollowedFeedMode => (mode === 'closed' ? 'idle' : mode);
