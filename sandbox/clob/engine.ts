// The sandbox CLOB's matching engine for one binary market: price-time priority over a single book kept in
// the first outcome's prices, so that the two outcome books always agree. A BUY of the second outcome at q
// rests as an ask at 1 − q and a SELL of it as a bid at 1 − q; a cross between two BUYs is a MINT, between
// two SELLs a MERGE, otherwise NORMAL (docs/protocol.md#matching-and-server-rules). Makers set the price; any improvement
// goes to the taker. Quantities are shares in base units (6 decimals); prices are in 1e-4 units, which every
// tick size (0.1 … 0.0001, 0.005, 0.0025) divides.

export type Side = 'BUY' | 'SELL';
export type OrderType = 'GTC' | 'GTD' | 'FOK' | 'FAK';
export type MatchType = 'NORMAL' | 'MINT' | 'MERGE';

/** 1.0 in price units. */
export const PRICE_ONE = 10_000;

export interface RestingOrder {
  id: string;
  owner: string;
  maker: string;
  /** 0 for the first outcome token, 1 for the second. */
  outcome: 0 | 1;
  side: Side;
  /** Limit price in the order's own outcome, in 1e-4 units. */
  price: number;
  /** Original size in shares (base units). */
  size: bigint;
  remaining: bigint;
  type: OrderType;
  /** Unix seconds; 0 for none. */
  expiration: number;
  createdAt: number;
  /** Arrival order, for time priority. */
  seq: number;
}

export interface NewOrder {
  id: string;
  owner: string;
  maker: string;
  outcome: 0 | 1;
  side: Side;
  price: number;
  size: bigint;
  type: OrderType;
  expiration?: number;
  postOnly?: boolean;
}

export interface Fill {
  takerId: string;
  makerId: string;
  /** Shares that change hands (base units). */
  shares: bigint;
  /** The maker's price, in the maker's outcome (1e-4 units). */
  makerPrice: number;
  /** The same trade priced in the taker's outcome. */
  takerPrice: number;
  matchType: MatchType;
  makerOutcome: 0 | 1;
  takerOutcome: 0 | 1;
}

export type SubmitResult =
  | { ok: true; status: 'live' | 'matched'; fills: Fill[]; resting?: RestingOrder }
  | { ok: false; reason: RejectReason; message: string };

export type RejectReason = 'POST_ONLY_CROSSES' | 'FOK_NOT_FILLED' | 'FAK_NO_MATCH' | 'DUPLICATE' | 'INVALID';

export const REJECT_MESSAGES: Record<RejectReason, string> = {
  POST_ONLY_CROSSES: 'invalid post-only order: order crosses book',
  FOK_NOT_FILLED: "order couldn't be fully filled. FOK orders are fully filled or killed.",
  FAK_NO_MATCH:
    'no orders found to match with FAK order. FAK orders are partially filled or killed if no match is found.',
  DUPLICATE: 'order already exists',
  INVALID: 'invalid order',
};

/** An order seen from the first outcome: does it want to buy it (bid) or sell it (ask), and at what price? */
function asFirstOutcome(order: { outcome: 0 | 1; side: Side; price: number }): { bid: boolean; price: number } {
  if (order.outcome === 0) return { bid: order.side === 'BUY', price: order.price };
  return { bid: order.side === 'SELL', price: PRICE_ONE - order.price };
}

function matchType(taker: { outcome: number; side: Side }, maker: { outcome: number; side: Side }): MatchType {
  if (taker.outcome === maker.outcome) return 'NORMAL';
  return taker.side === 'BUY' ? 'MINT' : 'MERGE';
}

export interface BookLevel {
  /** 1e-4 units, in the outcome asked for. */
  price: number;
  size: bigint;
}

export class MarketBook {
  /** First-outcome bids, best (highest) first, then by arrival. */
  private readonly bids: RestingOrder[] = [];
  /** First-outcome asks, best (lowest) first, then by arrival. */
  private readonly asks: RestingOrder[] = [];
  private readonly byId = new Map<string, RestingOrder>();
  private seq = 0;

  get size(): number {
    return this.byId.size;
  }

  order(id: string): RestingOrder | undefined {
    return this.byId.get(id);
  }

  orders(): RestingOrder[] {
    return [...this.byId.values()];
  }

  /**
   * Matches an incoming order against the book and rests what is left (GTC/GTD). FOK fills completely or
   * not at all; FAK fills what it can and drops the rest; a post-only order that would cross is refused.
   */
  submit(incoming: NewOrder, now: number): SubmitResult {
    if (this.byId.has(incoming.id)) return reject('DUPLICATE');
    if (!(incoming.price > 0 && incoming.price < PRICE_ONE) || incoming.size <= 0n) return reject('INVALID');
    this.expire(now);
    const view = asFirstOutcome(incoming);
    const opposite = view.bid ? this.asks : this.bids;
    const crosses = (maker: RestingOrder) => {
      const m = asFirstOutcome(maker).price;
      return view.bid ? m <= view.price : m >= view.price;
    };

    if (incoming.postOnly && opposite.length && crosses(opposite[0]!)) return reject('POST_ONLY_CROSSES');
    if (incoming.type === 'FOK') {
      let available = 0n;
      for (const maker of opposite) {
        if (!crosses(maker)) break;
        available += maker.remaining;
        if (available >= incoming.size) break;
      }
      if (available < incoming.size) return reject('FOK_NOT_FILLED');
    }

    const fills: Fill[] = [];
    let remaining = incoming.size;
    while (remaining > 0n && opposite.length && crosses(opposite[0]!)) {
      const maker = opposite[0]!;
      const shares = remaining < maker.remaining ? remaining : maker.remaining;
      const makerPrice = maker.price;
      const takerPrice = maker.outcome === incoming.outcome ? makerPrice : PRICE_ONE - makerPrice;
      fills.push({
        takerId: incoming.id,
        makerId: maker.id,
        shares,
        makerPrice,
        takerPrice,
        matchType: matchType(incoming, maker),
        makerOutcome: maker.outcome,
        takerOutcome: incoming.outcome,
      });
      remaining -= shares;
      maker.remaining -= shares;
      if (maker.remaining === 0n) this.remove(maker.id);
    }

    if (incoming.type === 'FAK' && fills.length === 0) return reject('FAK_NO_MATCH');
    if (remaining > 0n && (incoming.type === 'GTC' || incoming.type === 'GTD')) {
      const resting: RestingOrder = {
        id: incoming.id,
        owner: incoming.owner,
        maker: incoming.maker,
        outcome: incoming.outcome,
        side: incoming.side,
        price: incoming.price,
        size: incoming.size,
        remaining,
        type: incoming.type,
        expiration: incoming.expiration ?? 0,
        createdAt: now,
        seq: this.seq++,
      };
      this.insert(resting);
      return { ok: true, status: fills.length ? 'matched' : 'live', fills, resting };
    }
    return { ok: true, status: 'matched', fills };
  }

  /** Removes an order from the book; the order, or undefined if it was not resting. */
  cancel(id: string): RestingOrder | undefined {
    const order = this.byId.get(id);
    if (order) this.remove(id);
    return order;
  }

  /**
   * Gives an order back shares a failed settlement took from it: added to its remaining if it still rests,
   * otherwise the order rests again with its original time priority (its `seq`). Also how a saved order
   * goes back on a fresh book after a restart, so later arrivals must still queue behind it.
   */
  restore(order: RestingOrder, shares: bigint): void {
    if (shares <= 0n) return;
    const resting = this.byId.get(order.id);
    if (resting) {
      resting.remaining += shares;
      return;
    }
    order.remaining = shares;
    this.seq = Math.max(this.seq, order.seq + 1);
    this.insert(order);
  }

  /** Drops GTD orders whose expiration has passed; returns them. */
  expire(now: number): RestingOrder[] {
    const expired = [...this.byId.values()].filter((o) => o.type === 'GTD' && o.expiration > 0 && o.expiration <= now);
    for (const o of expired) this.remove(o.id);
    return expired;
  }

  /**
   * The book of one outcome, aggregated by price: bids best (highest) first, asks best (lowest) first.
   * The second outcome's book is the first's mirrored (a first-outcome bid at p is a second-outcome ask at 1 − p).
   */
  levels(outcome: 0 | 1): { bids: BookLevel[]; asks: BookLevel[] } {
    const aggregate = (orders: RestingOrder[], invert: boolean) => {
      const levels: BookLevel[] = [];
      for (const o of orders) {
        const first = asFirstOutcome(o).price;
        const price = invert ? PRICE_ONE - first : first;
        const last = levels.at(-1);
        if (last && last.price === price) last.size += o.remaining;
        else levels.push({ price, size: o.remaining });
      }
      return levels;
    };
    return outcome === 0
      ? { bids: aggregate(this.bids, false), asks: aggregate(this.asks, false) }
      : { bids: aggregate(this.asks, true), asks: aggregate(this.bids, true) };
  }

  private insert(order: RestingOrder): void {
    const view = asFirstOutcome(order);
    const list = view.bid ? this.bids : this.asks;
    // Binary search for the first order that this one must stand behind.
    const before = (other: RestingOrder) => {
      const p = asFirstOutcome(other).price;
      return view.bid
        ? p > view.price || (p === view.price && other.seq < order.seq)
        : p < view.price || (p === view.price && other.seq < order.seq);
    };
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(list[mid]!)) lo = mid + 1;
      else hi = mid;
    }
    list.splice(lo, 0, order);
    this.byId.set(order.id, order);
  }

  private remove(id: string): void {
    const order = this.byId.get(id);
    if (!order) return;
    this.byId.delete(id);
    const list = asFirstOutcome(order).bid ? this.bids : this.asks;
    const index = list.indexOf(order);
    if (index >= 0) list.splice(index, 1);
  }
}

function reject(reason: RejectReason): SubmitResult {
  return { ok: false, reason, message: REJECT_MESSAGES[reason] };
}
