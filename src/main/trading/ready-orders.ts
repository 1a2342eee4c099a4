// Orders made ready while the trader reads their confirmation: checked, built and signed (in the signer), not
// sent. The click then only posts (docs/decisions/0028-ready-orders-the-confirmation-is-where-the-order.md). This is the shelf they wait on, and what
// makes one stale: its age, or any order of the same account sent since it was made.

/** How long a ready order may wait for its click; later, the click makes the order again from scratch. */
export const READY_FOR_MS = 15_000;
/** At most this many wait at once (one per open confirmation is the norm): the oldest is dropped. */
const MAX_READY = 8;

interface OnShelf<T> {
  at: number;
  account: string;
  epoch: number;
  made: Promise<T | undefined>;
}

/**
 * Ready orders by the order's key (wallet + order as asked). `made` resolves to the order or undefined (it could
 * not be made ready: the click makes it the usual way and says why). An entry is taken once: a second click on
 * the same order makes a new one.
 */
export class ReadyOrders<T> {
  private readonly shelf = new Map<string, OnShelf<T>>();
  /** Per account: bumped by every order sent and every money action, so what was checked before is not trusted. */
  private readonly epochs = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly keepMs: number = READY_FOR_MS,
  ) {}

  put(key: string, account: string, made: Promise<T | undefined>): void {
    this.prune();
    this.shelf.delete(key);
    while (this.shelf.size >= MAX_READY) this.shelf.delete(this.shelf.keys().next().value!);
    const acc = account.toLowerCase();
    this.shelf.set(key, { at: this.now(), account: acc, epoch: this.epochOf(acc), made });
  }

  /** The ready order for `key`, if it is still fresh and nothing of its account changed since; it leaves the shelf. */
  take(key: string): Promise<T | undefined> | undefined {
    const entry = this.shelf.get(key);
    if (!entry) return undefined;
    this.shelf.delete(key);
    if (this.now() - entry.at > this.keepMs || entry.epoch !== this.epochOf(entry.account)) return undefined;
    return entry.made;
  }

  /** The account's balance or orders changed (an order sent, money moved): its ready orders are made again. */
  changed(account: string): void {
    const acc = account.toLowerCase();
    this.epochs.set(acc, this.epochOf(acc) + 1);
  }

  clear(): void {
    this.shelf.clear();
  }

  private epochOf(account: string): number {
    return this.epochs.get(account) ?? 0;
  }

  private prune(): void {
    const now = this.now();
    for (const [key, entry] of this.shelf) if (now - entry.at > this.keepMs) this.shelf.delete(key);
  }
}
