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

/**
 * One host's budgets: the general one and one per endpoint class; a request takes both. The host can also say
 * itself that the budget is spent (`Poly-RateLimit-Remaining: 0` until `Poly-RateLimit-Reset`): then every
 * request waits for the reset, so PM Desk stops before the 429 instead of after it.
 */
export class HostLimiter {
  private readonly classes = new Map<string, SlidingWindowLimiter>();
  private readonly general: SlidingWindowLimiter | undefined;
  private heldUntil = 0;

  constructor(
    budgets: Readonly<Record<string, RateBudget>>,
    private readonly now: () => number = Date.now,
  ) {
    for (const [name, budget] of Object.entries(budgets)) {
      if (name !== 'general') this.classes.set(name, new SlidingWindowLimiter(budget, now));
    }
    this.general = budgets.general ? new SlidingWindowLimiter(budgets.general, now) : undefined;
  }

  async take(endpointClass?: string): Promise<void> {
    const own = endpointClass ? this.classes.get(endpointClass) : undefined;
    if (own) await own.take();
    if (this.general) await this.general.take();
    // Re-read the clock after each short sleep: a hold can be extended meanwhile, and tests move the clock.
    for (let wait = this.heldFor(); wait > 0; wait = this.heldFor()) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait, 250)));
    }
  }

  /**
   * No request starts before `at` (ms since the epoch), nor more than `maxMs` from now; a later hold extends an
   * earlier one, never shortens it.
   */
  holdUntil(at: number, maxMs: number): void {
    if (!Number.isFinite(at)) return;
    this.heldUntil = Math.max(this.heldUntil, Math.min(at, this.now() + maxMs));
  }

  /** How long a request starting now would wait for the host's own hold, in ms (0 when there is none). */
  heldFor(): number {
    return Math.max(0, this.heldUntil - this.now());
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
