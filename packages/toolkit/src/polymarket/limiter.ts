// Client-side request budgets: a sliding window per host and endpoint class, shared by every client that
// talks to the same host, so PM Desk stays under Polymarket's published limits instead of meeting them.
import type { RateBudget } from './endpoints';

/** At most `limit` starts in any `windowMs`; a caller over budget waits its turn, in arrival order. */
export class SlidingWindowLimiter {
  private readonly starts: number[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly budget: RateBudget,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves when one more request may start now. */
  take(): Promise<void> {
    const turn = this.queue.then(() => this.waitForRoom());
    this.queue = turn;
    return turn;
  }

  private async waitForRoom(): Promise<void> {
    for (;;) {
      const now = this.now();
      while (this.starts.length && this.starts[0]! <= now - this.budget.windowMs) this.starts.shift();
      if (this.starts.length < this.budget.limit) {
        this.starts.push(now);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, this.starts[0]! + this.budget.windowMs - now + 1));
    }
  }
}

/** One host's budgets: the general one and one per endpoint class; a request takes both. */
export class HostLimiter {
  private readonly classes = new Map<string, SlidingWindowLimiter>();
  private readonly general: SlidingWindowLimiter | undefined;

  constructor(budgets: Readonly<Record<string, RateBudget>>, now?: () => number) {
    for (const [name, budget] of Object.entries(budgets)) {
      if (name !== 'general') this.classes.set(name, new SlidingWindowLimiter(budget, now));
    }
    this.general = budgets.general ? new SlidingWindowLimiter(budgets.general, now) : undefined;
  }

  async take(endpointClass?: string): Promise<void> {
    const own = endpointClass ? this.classes.get(endpointClass) : undefined;
    if (own) await own.take();
    if (this.general) await this.general.take();
  }
}

const shared = new Map<string, HostLimiter>();

/** The limiter every client of this host shares (keyed by origin and API, so Gamma and Data never share). */
export function limiterFor(api: string, baseUrl: string, budgets: Readonly<Record<string, RateBudget>>): HostLimiter {
  let origin = baseUrl;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    // A URL that does not parse fails at the request with its own error; the limiter keys by the text.
  }
  const key = `${api} ${origin}`;
  let limiter = shared.get(key);
  if (!limiter) {
    limiter = new HostLimiter(budgets);
    shared.set(key, limiter);
  }
  return limiter;
}
