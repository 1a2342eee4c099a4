// Who follows what, counted once for every feed of main: each followed market keeps the set of clients (windows,
// tabs) that follow it; what the first one opens is closed when the last one leaves or goes away. Books (polled
// or live), fills and market states count their followers here (account feeds, keyed by wallet, not yet), and a
// network switch reads `subscriptions()` to follow the same markets again on the new network.

/** What a client follows: a protocol's market. */
export interface FollowedMarket {
  protocol: string;
  marketId: string;
}

interface Entry<T> extends FollowedMarket {
  feed: T;
  clients: Set<string>;
}

/** A hub's word that a client went away (the EventHub fits). */
export interface ClientGone {
  onClientGone(listener: (clientId: string) => void): () => void;
}

export class Follower<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly stopListening: () => void;

  constructor(
    hub: ClientGone,
    /** Ends a feed nobody follows any more (or every feed, on closeAll). */
    private readonly close: (feed: T, market: FollowedMarket) => void,
  ) {
    this.stopListening = hub.onClientGone((clientId) => this.releaseClient(clientId));
  }

  /**
   * Adds a client to a market's followers; the first one opens its feed with `open`, which is handed the live set
   * of the market's clients (the feed pushes its events to them; the first client is in it already, so a feed that
   * says something as it opens is heard).
   */
  follow(clientId: string, market: FollowedMarket, open: (clients: ReadonlySet<string>) => T): T {
    const key = keyOf(market);
    const found = this.entries.get(key);
    if (found) {
      found.clients.add(clientId);
      return found.feed;
    }
    const clients = new Set<string>([clientId]);
    const entry: Entry<T> = { protocol: market.protocol, marketId: market.marketId, clients, feed: undefined as T };
    this.entries.set(key, entry);
    try {
      entry.feed = open(clients);
    } catch (error) {
      this.entries.delete(key);
      throw error;
    }
    return entry.feed;
  }

  /** Removes a client from a market (of any protocol); whether it followed it. */
  unfollow(clientId: string, marketId: string): boolean {
    let was = false;
    for (const [key, entry] of this.entries) {
      if (entry.marketId !== marketId || !entry.clients.delete(clientId)) continue;
      was = true;
      if (entry.clients.size === 0) this.end(key, entry);
    }
    return was;
  }

  /** A client went away: every market it followed loses it. */
  releaseClient(clientId: string): void {
    for (const [key, entry] of this.entries) if (entry.clients.delete(clientId) && entry.clients.size === 0) this.end(key, entry);
  }

  /** The feed of a market while it is followed (a feed that ended on its own checks it is still the one). */
  feedOf(market: FollowedMarket): T | undefined {
    return this.entries.get(keyOf(market))?.feed;
  }

  /** Forgets a market whose feed ended on its own (it said so to its clients): it is not closed again. */
  forget(market: FollowedMarket, feed: T): void {
    const key = keyOf(market);
    if (this.entries.get(key)?.feed === feed) this.entries.delete(key);
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
    return [...this.entries.values()].flatMap(({ protocol, marketId, clients }) => [...clients].map((clientId) => ({ clientId, protocol, marketId })));
  }

  closeAll(): void {
    this.stopListening();
    for (const [key, entry] of this.entries) this.end(key, entry);
  }

  private end(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.close(entry.feed, entry);
  }
}

const keyOf = ({ protocol, marketId }: FollowedMarket) => `${protocol}:${marketId}`;
