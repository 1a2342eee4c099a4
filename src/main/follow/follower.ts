// Who follows what, counted once for every feed of main: each followed market (or wallet) keeps the set of clients
// (windows, tabs) that follow it; what the first one opens is closed when the last one leaves or goes away. Books
// (polled or live), fills, market states and account feeds count their followers here, and a network switch reads
// `subscriptions()` to follow the same markets again on the new network.

/** What a client follows: a protocol's market. */
export interface FollowedMarket {
  protocol: string;
  marketId: string;
}

interface Entry<T, K> {
  key: K;
  feed: T;
  clients: Set<string>;
}

/** A hub's word that a client went away (the EventHub fits). */
export interface ClientGone {
  onClientGone(listener: (clientId: string) => void): () => void;
}

/**
 * Followers of markets by default; of anything else given how to name it (`keyOf`): account feeds follow wallets,
 * by their lower-cased label.
 */
export class Follower<T, K = FollowedMarket> {
  private readonly entries = new Map<string, Entry<T, K>>();
  private readonly stopListening: () => void;

  constructor(
    hub: ClientGone,
    /** Ends a feed nobody follows any more (or every feed, on closeAll). */
    private readonly close: (feed: T, key: K) => void,
    private readonly keyOf: (key: K) => string = marketKey as unknown as (key: K) => string,
  ) {
    this.stopListening = hub.onClientGone((clientId) => this.releaseClient(clientId));
  }

  /**
   * Adds a client to a market's followers; the first one opens its feed with `open`, which is handed the live set
   * of the market's clients (the feed pushes its events to them; the first client is in it already, so a feed that
   * says something as it opens is heard).
   */
  follow(clientId: string, market: K, open: (clients: ReadonlySet<string>) => T): T {
    const key = this.keyOf(market);
    const found = this.entries.get(key);
    if (found) {
      found.clients.add(clientId);
      return found.feed;
    }
    const clients = new Set<string>([clientId]);
    const entry: Entry<T, K> = { key: market, clients, feed: undefined as T };
    this.entries.set(key, entry);
    try {
      entry.feed = open(clients);
    } catch (error) {
      this.entries.delete(key);
      throw error;
    }
    return entry.feed;
  }

  /** Removes a client from a market (of any protocol), or from what `keyOf` names it; whether it followed it. */
  unfollow(clientId: string, marketId: string): boolean {
    let was = false;
    for (const [key, entry] of this.entries) {
      if (marketIdOf(entry.key) !== marketId || !entry.clients.delete(clientId)) continue;
      was = true;
      if (entry.clients.size === 0) this.end(key, entry);
    }
    return was;
  }

  /** A client went away: every market it followed loses it. */
  releaseClient(clientId: string): void {
    for (const [key, entry] of this.entries)
      if (entry.clients.delete(clientId) && entry.clients.size === 0) this.end(key, entry);
  }

  /** The feed of a market while it is followed (a feed that ended on its own checks it is still the one). */
  feedOf(market: K): T | undefined {
    return this.entries.get(this.keyOf(market))?.feed;
  }

  /** Whether a client follows it now. */
  follows(clientId: string, market: K): boolean {
    return this.entries.get(this.keyOf(market))?.clients.has(clientId) ?? false;
  }

  /** Forgets a market whose feed ended on its own (it said so to its clients): it is not closed again. */
  forget(market: K, feed: T): void {
    const key = this.keyOf(market);
    if (this.entries.get(key)?.feed === feed) this.entries.delete(key);
  }

  /**
   * Opens a followed market's feed again for the same clients (`open` is handed their live set), without closing
   * the old one: the caller does, quietly, as nobody stopped following. The old feed, or undefined when unfollowed.
   */
  reopen(market: K, open: (clients: ReadonlySet<string>) => T): T | undefined {
    const entry = this.entries.get(this.keyOf(market));
    if (!entry) return undefined;
    const old = entry.feed;
    entry.feed = open(entry.clients);
    return old;
  }

  /** The feeds open now, one a followed market. */
  feeds(): T[] {
    return [...this.entries.values()].map((entry) => entry.feed);
  }

  /** The markets followed now, as `protocol:marketId`. */
  followed(): string[] {
    return [...this.entries.keys()];
  }

  /** Every client's every market, to follow them again elsewhere (after a network switch). */
  subscriptions(): { clientId: string; protocol: string; marketId: string }[] {
    return [...this.entries.values()].flatMap(({ key, clients }) =>
      [...clients].map((clientId) => ({
        clientId,
        protocol: (key as FollowedMarket).protocol,
        marketId: marketIdOf(key),
      })),
    );
  }

  closeAll(): void {
    this.stopListening();
    for (const [key, entry] of this.entries) this.end(key, entry);
  }

  private end(key: string, entry: Entry<T, K>): void {
    this.entries.delete(key);
    this.close(entry.feed, entry.key);
  }
}

const marketKey = ({ protocol, marketId }: FollowedMarket) => `${protocol}:${marketId}`;
/** A market's id, or the key itself when it names something else (a wallet). */
const marketIdOf = (key: unknown): string =>
  typeof key === 'object' && key !== null && 'marketId' in key ? String(key.marketId) : String(key);
