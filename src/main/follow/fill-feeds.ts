// Live fills for the clients that follow a market: one stream of the network's market-data source per market,
// shared by every client that asked for it and closed when the last one leaves or goes away (follower.ts counts). A source never
// reconnects on its own, so each stream runs in a TradeTape (feeds/tape.ts), which opens it again with backoff
// while the market is followed: `feedStatus` says connecting (with why it dropped), open (with `source:
// 'polling'` while the source polls because its live feed is unreachable), closed, and once the stream is back
// a `tapeGap` gives the time it was down, so the tape shows a gap marker and the renderer re-reads its candles.
import type { FeedState, ResultError } from '../../shared/contract';
import type { PmDeskError } from '@pmdesk/toolkit/model';
import type { SourceFillHandlers as FillHandlers, SourceFillSubscription as FillSubscription } from '@pmdesk/toolkit';
import { TradeTape, type TapeState } from '../feeds/tape';
import type { Scheduler } from '../feeds/scheduler';
import type { EventHub } from '../ipc/event-hub';
import type { FillFollower } from '../ipc/services';
import { Follower } from './follower';

export type FillSource = (protocol: string, marketId: string, handlers: FillHandlers) => FillSubscription;

export interface FillFeedOptions {
  scheduler?: Scheduler;
  /** Between attempts to open a dropped stream (1 s doubling to 30 s unless told). */
  backoffMs?: { initial: number; max: number };
}

const asResultError = (error: PmDeskError): ResultError => ({ code: error.code, message: error.detail });
const contractState = (state: TapeState): FeedState =>
  state === 'live' ? 'open' : state === 'closed' ? 'closed' : 'connecting';
/** Only the gap markers are read from the tape here; a short tape keeps its memory small. */
const TAPE_ENTRIES = 200;

export class FillFeeds implements FillFollower {
  private readonly feeds: Follower<TradeTape>;

  constructor(
    private readonly source: FillSource,
    private readonly hub: EventHub,
    private readonly options: FillFeedOptions = {},
  ) {
    this.feeds = new Follower<TradeTape>(hub, (tape) => tape.close());
  }

  follow(clientId: string, protocol: string, marketId: string): { marketId: string; state: FeedState } {
    const tape = this.feeds.follow(clientId, { protocol, marketId }, (clients) => {
      let dropped: PmDeskError | undefined;
      /** How the source delivers fills now: its live feed, or polling while that is unreachable (a new stream starts live). */
      let mode: 'live' | 'polling' = 'live';
      /** A polling stream says so on each of its states; a live one as before (no `source`). */
      const sourceField = () => (mode === 'polling' ? { source: 'polling' as const } : {});
      const tape = new TradeTape({
        subscribe: (handlers) => this.source(protocol, marketId, handlers),
        // Candles are the renderer's (getCandles): after a tapeGap it reads them again, gap included.
        candleMs: 60_000,
        maxEntries: TAPE_ENTRIES,
        scheduler: this.options.scheduler,
        backoffMs: this.options.backoffMs,
        onFill: (fill) => this.hub.emit('fill', { marketId, fill }, clients),
        onDrop: (error) => {
          dropped = error;
          this.hub.emit(
            'feedStatus',
            { feed: 'fills', marketId, state: 'connecting', error: asResultError(error) },
            clients,
          );
        },
        onEntry: (entry) => {
          if (entry.kind === 'gap')
            this.hub.emit('tapeGap', { marketId, from: entry.gapFrom, to: entry.gapTo }, clients);
        },
        onState: (state) => {
          if (state !== 'live') mode = 'live';
          // 'reconnecting' was said by onDrop with its reason, right after this.
          if (state === 'reconnecting') return;
          if (state === 'live') dropped = undefined;
          this.hub.emit(
            'feedStatus',
            {
              feed: 'fills',
              marketId,
              state: contractState(state),
              ...(state === 'live' ? sourceField() : {}),
              ...(state === 'closed' && dropped ? { error: asResultError(dropped) } : {}),
            },
            clients,
          );
        },
        onMode: (next) => {
          if (next === mode) return;
          mode = next;
          if (tape.state === 'live')
            this.hub.emit('feedStatus', { feed: 'fills', marketId, state: 'open', source: next }, clients);
        },
      });
      tape.start();
      return tape;
    });
    return { marketId, state: contractState(tape.state) };
  }

  unfollow(clientId: string, marketId: string): boolean {
    return this.feeds.unfollow(clientId, marketId);
  }

  releaseClient(clientId: string): void {
    this.feeds.releaseClient(clientId);
  }

  /** Markets followed right now (for tests and the status bar). */
  followed(): string[] {
    return this.feeds.followed();
  }

  subscriptions(): ReturnType<FillFollower['subscriptions']> {
    return this.feeds.subscriptions();
  }

  closeAll(): void {
    this.feeds.closeAll();
  }
}
