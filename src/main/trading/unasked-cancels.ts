// Orders the exchange cancelled that the trader did not cancel from this terminal (the dead-man switch's
// heartbeats stopped, another app, the exchange itself): told as a `notice` so nothing vanishes silently.
//
// The exchange's CANCELLATION may arrive on the user feed before the cancel call answers, so a wallet's
// cancellations wait a moment (settleMs) and wait longer while one of the trader's cancels is on its way; the
// ids the trader's cancels answered are then left out.
import { countOf } from '../../shared/words';
import { realScheduler, type Scheduler } from '../feeds/scheduler';
import type { EventHub } from '../ipc/event-hub';

/** Why the exchange may have cancelled a wallet's orders, when the terminal knows (the dead-man switch). */
export type CancelCause = (wallet: string) => string | undefined;

interface Pending {
  label: string;
  ids: Set<string>;
  timer: unknown;
}

export const DEFAULT_SETTLE_MS = 1_500;

export class UnaskedCancels {
  private readonly inFlight = new Map<string, number>();
  /** Ids the trader's cancels answered, per wallet, kept until the next settle leaves them out. */
  private readonly asked = new Map<string, Set<string>>();
  private readonly pending = new Map<string, Pending>();
  private readonly scheduler: Scheduler;
  private readonly settleMs: number;

  constructor(
    private readonly hub: EventHub,
    options: { scheduler?: Scheduler; settleMs?: number; cause?: CancelCause } = {},
    private cause: CancelCause | undefined = options.cause,
  ) {
    this.scheduler = options.scheduler ?? realScheduler;
    this.settleMs = options.settleMs ?? DEFAULT_SETTLE_MS;
  }

  /** Says why, when it can (set once the dead-man switches exist). */
  explainWith(cause: CancelCause): void {
    this.cause = cause;
  }

  /** Runs one of the trader's cancels; the ids it answers are not told as unasked. */
  async byTrader<T extends { cancelled: string[] }>(wallet: string, work: () => Promise<T>): Promise<T> {
    const key = wallet.trim().toLowerCase();
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
    try {
      const answer = await work();
      const asked = this.asked.get(key) ?? new Set<string>();
      for (const id of answer.cancelled) asked.add(id.toLowerCase());
      this.asked.set(key, asked);
      return answer;
    } finally {
      const left = (this.inFlight.get(key) ?? 1) - 1;
      if (left > 0) this.inFlight.set(key, left);
      else this.inFlight.delete(key);
    }
  }

  /** The user feed saw the exchange cancel this order of the wallet. */
  cancelled(wallet: string, orderId: string): void {
    const key = wallet.trim().toLowerCase();
    let pending = this.pending.get(key);
    if (!pending) {
      pending = { label: wallet.trim(), ids: new Set(), timer: undefined };
      this.pending.set(key, pending);
      this.settleLater(key, pending);
    }
    pending.ids.add(orderId.toLowerCase());
  }

  close(): void {
    for (const pending of this.pending.values()) this.scheduler.clearTimeout(pending.timer);
    this.pending.clear();
  }

  private settleLater(key: string, pending: Pending): void {
    pending.timer = this.scheduler.setTimeout(() => this.settle(key, pending), this.settleMs);
  }

  private settle(key: string, pending: Pending): void {
    if (this.pending.get(key) !== pending) return;
    if ((this.inFlight.get(key) ?? 0) > 0) return this.settleLater(key, pending);
    this.pending.delete(key);
    const asked = this.asked.get(key);
    this.asked.delete(key);
    const unasked = [...pending.ids].filter((id) => !asked?.has(id));
    if (unasked.length === 0) return;
    const why = this.cause?.(pending.label);
    const message = `The exchange cancelled ${countOf(unasked.length, 'order')} of ${pending.label} that you did not cancel here${why ? `: ${why}` : ' (from another app, or by the exchange)'}.`;
    this.hub.emit('notice', { wallet: pending.label, kind: 'cancelled', message, orderIds: unasked });
  }
}
