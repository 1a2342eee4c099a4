// The connection upkeep MarketFeed and UserFeed share: doubling backoff between reconnects (capped at 2 s), a PING every interval
// while open, and the REST polling that stands in for a socket that cannot be reached (after enough connects in a
// row that never opened), so both feeds recover the same way and their tests drive it on one injected clock.
import type { Scheduler } from './scheduler';

export type FeedSource = 'live' | 'polling';

export interface RedialOptions {
  backoffMs?: { initial: number; max: number };
  pingMs?: number;
  /** Failed connects in a row (never opened) after which REST is polled until the socket is back (3). */
  pollAfterFailures?: number;
  /** Between REST polls while the socket is unreachable (1 s). */
  pollMs?: number;
}

/**
 * The longest wait between reconnects. A trading screen must be live again within seconds of the exchange
 * answering (issue 16: after a 30 s outage a 30 s cap left the terminal polling for 29 s more), so the doubling
 * stops at 2 s: one connect attempt every 2 s per feed at worst, and books and account feeds live within ~2 s
 * of the exchange's return (docs/decisions/0018-back-quickly-after-an-outage-the-reconnect-back.md).
 */
export const MAX_RECONNECT_BACKOFF_MS = 2_000;
export const DEFAULT_BACKOFF_MS = { initial: 500, max: MAX_RECONNECT_BACKOFF_MS };
export const DEFAULT_PING_MS = 10_000;
export const DEFAULT_POLL_AFTER_FAILURES = 3;
export const DEFAULT_POLL_MS = 1_000;

export class Redial {
  private attempt = 0;
  private failedConnects = 0;
  private reconnectTimer: unknown;
  private pingTimer: unknown;
  private pollTimer: unknown;
  private pollRound: (() => Promise<void> | undefined) | undefined;
  private polling = false;
  private sourceValue: FeedSource = 'live';
  /** REST polls started (for tests that wait on the feed rather than on the clock). */
  polls = 0;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly options: RedialOptions,
    /** Told when the data starts or stops coming from REST polls. */
    private readonly onSource: (source: FeedSource) => void,
  ) {}

  get source(): FeedSource {
    return this.sourceValue;
  }

  /** Starting afresh: the first reconnect waits the shortest time. */
  reset(): void {
    this.attempt = 0;
  }

  /** The server spoke: the next drop starts from the shortest wait again. */
  heard(): void {
    this.attempt = 0;
  }

  /** A connect opened: polling (if any) ends, after the caller has said it is live. */
  opened(): void {
    this.failedConnects = 0;
    this.stopPolling();
  }

  /**
   * The socket closed (`opened` false: a connect that never opened). Calls `connect` after the backoff, and from
   * enough failed connects in a row on, polls with `round` meanwhile.
   */
  closed(opened: boolean, connect: () => void, round: () => Promise<void> | undefined): void {
    if (!opened) this.failedConnects++;
    const { initial, max } = this.options.backoffMs ?? DEFAULT_BACKOFF_MS;
    const delay = Math.min(max, initial * 2 ** this.attempt);
    this.attempt++;
    this.reconnectTimer = this.scheduler.setTimeout(() => {
      this.reconnectTimer = undefined;
      connect();
    }, delay);
    if (
      this.failedConnects >= (this.options.pollAfterFailures ?? DEFAULT_POLL_AFTER_FAILURES) &&
      this.sourceValue === 'live'
    ) {
      this.sourceValue = 'polling';
      this.pollRound = round;
      this.onSource('polling');
      this.poll();
    }
  }

  /** Sends PING every interval while `send` says the socket is still open. */
  ping(send: () => boolean): void {
    this.pingTimer = this.scheduler.setTimeout(() => {
      this.pingTimer = undefined;
      if (send()) this.ping(send);
    }, this.options.pingMs ?? DEFAULT_PING_MS);
  }

  /** Something new to read while polling (a token subscribed): a round now, unless one is on its way or due. */
  pollNow(): void {
    if (this.sourceValue === 'polling' && this.pollTimer === undefined) this.poll();
  }

  /** Clears the reconnect and PING timers (the socket closed, or the feed did). */
  clearTimers(): void {
    for (const timer of [this.reconnectTimer, this.pingTimer])
      if (timer !== undefined) this.scheduler.clearTimeout(timer);
    this.reconnectTimer = this.pingTimer = undefined;
  }

  /** The feed closed: every timer goes, and polling ends without a word (a closed feed has no source to report). */
  close(): void {
    this.clearTimers();
    this.stopPolling(false);
  }

  private poll(): void {
    this.pollTimer = undefined;
    if (this.sourceValue !== 'polling' || this.polling || !this.pollRound) return;
    const round = this.pollRound();
    if (!round) return; // nothing to read now; pollNow() starts again when there is
    this.polling = true;
    this.polls++;
    void round
      .catch(() => undefined) // a failed round is tried again next time; what was read before stays
      .then(() => {
        this.polling = false;
        if (this.sourceValue === 'polling' && this.pollTimer === undefined)
          this.pollTimer = this.scheduler.setTimeout(() => this.poll(), this.options.pollMs ?? DEFAULT_POLL_MS);
      });
  }

  private stopPolling(announce = true): void {
    if (this.pollTimer !== undefined) this.scheduler.clearTimeout(this.pollTimer);
    this.pollTimer = undefined;
    this.pollRound = undefined;
    if (this.sourceValue === 'live') return;
    this.sourceValue = 'live';
    if (announce) this.onSource('live');
  }
}
