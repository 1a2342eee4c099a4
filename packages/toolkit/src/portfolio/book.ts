// The average-cost book (docs/toolkit.md#portfolio): ledger entries applied in time order to one lot per
// outcome, giving open positions, closed positions with how they closed, and realized PnL in base units.
import type { ClosedPosition, CloseHow, LedgerEntry, MarketResolution, OpenPosition, PositionKey } from './types';

const SCALE = 1_000_000n;

/** One outcome's lot: what is held and its cost, and what its current life has bought, returned and paid. */
interface Lot extends PositionKey {
  shares: bigint;
  cost: bigint;
  sharesBought: bigint;
  costTotal: bigint;
  proceeds: bigint;
  realized: bigint;
  fees: bigint;
  openedAt: number;
  /** The last trade price seen for the token (for pricing history when no price history is given). */
  lastPrice: number | null;
  exits: CloseHow[];
  split: boolean;
}

/** A price 0..1 as millionths, so a value is shares × micro / 1e6 in integers. */
export function priceMicros(price: number): bigint {
  return BigInt(Math.round(Math.min(1, Math.max(0, price)) * 1_000_000));
}

/** shares × price, rounded down to the base unit. */
export function valueAt(shares: bigint, price: number): bigint {
  return (shares * priceMicros(price)) / SCALE;
}

/** Splits `amount` in proportion to `weights` (rounded down; the remainder to the largest weight). */
function shareOut(amount: bigint, weights: bigint[]): bigint[] {
  const total = weights.reduce((s, w) => s + w, 0n);
  if (total === 0n) {
    const even = weights.map(() => amount / BigInt(Math.max(1, weights.length)));
    if (even.length) even[0]! += amount - even.reduce((s, v) => s + v, 0n);
    return even;
  }
  const parts = weights.map((w) => (amount * w) / total);
  let largest = 0;
  weights.forEach((w, i) => {
    if (w > weights[largest]!) largest = i;
  });
  parts[largest]! += amount - parts.reduce((s, v) => s + v, 0n);
  return parts;
}

export class Book {
  private readonly lots = new Map<string, Lot>();
  readonly closed: ClosedPosition[] = [];
  rewards = 0n;
  /** Rewards by condition id ('' for rewards not tied to a market). */
  readonly rewardsByMarket = new Map<string, bigint>();
  /** Every fee booked (each also counts on its position). */
  fees = 0n;
  /** Sentences on what the book had to assume. */
  readonly notes = new Set<string>();
  private readonly resolutions: Map<string, MarketResolution>;

  constructor(resolutions: readonly MarketResolution[] = []) {
    this.resolutions = new Map(resolutions.map((r) => [r.conditionId.toLowerCase(), r]));
  }

  /** Applies one entry (entries must come oldest first). */
  apply(e: LedgerEntry): void {
    switch (e.kind) {
      case 'TRADE':
        return this.trade(e);
      case 'SPLIT':
        return this.split(e);
      case 'MERGE':
        return this.merge(e);
      case 'REDEEM':
        return this.redeem(e);
      case 'CONVERSION':
        return this.conversion(e);
      case 'REWARD':
      case 'MAKER_REBATE':
        this.rewards += e.amount;
        this.rewardsByMarket.set(e.conditionId, (this.rewardsByMarket.get(e.conditionId) ?? 0n) + e.amount);
        return;
    }
  }

  /** Holdings of markets resolved by `time` whose outcome pays nothing close as lost. */
  settleLosses(time: number, fallbackAt = time): void {
    for (const lot of this.lots.values()) {
      if (lot.shares === 0n) continue;
      const resolution = this.resolutions.get(lot.conditionId.toLowerCase());
      if (!resolution || lot.outcomeIndex === null) continue;
      const at = resolution.resolvedAt ?? fallbackAt;
      if (at > time || (resolution.payouts[lot.outcomeIndex] ?? 0) !== 0) continue;
      this.exit(lot, lot.shares, 0n, 'lost', at, '');
    }
  }

  /** The lots still held, valued by `price` (undefined: no price known). */
  open(price: (lot: PositionKey, lastPrice: number | null) => number | undefined): OpenPosition[] {
    const out: OpenPosition[] = [];
    for (const lot of this.lots.values()) {
      if (lot.shares === 0n) continue;
      const p = price(lot, lot.lastPrice);
      const value = p === undefined ? null : valueAt(lot.shares, p);
      out.push({
        ...keyOf(lot),
        shares: lot.shares,
        cost: lot.cost,
        averagePrice: Number(lot.cost) / Number(lot.shares),
        currentPrice: p ?? null,
        value,
        unrealizedPnl: value === null ? null : value - lot.cost,
        realizedPnl: lot.realized,
        fees: lot.fees,
        openedAt: lot.openedAt,
      });
    }
    return out;
  }

  /** Realized so far: closed positions' and open positions' partial exits. */
  realized(): bigint {
    let sum = this.closed.reduce((s, c) => s + c.realizedPnl, 0n);
    for (const lot of this.lots.values()) sum += lot.realized;
    return sum;
  }

  private lot(e: Pick<LedgerEntry, 'conditionId' | 'outcomeIndex' | 'tokenId' | 'outcome' | 'title' | 'slug'>): Lot {
    const id = `${e.conditionId.toLowerCase()}:${e.outcomeIndex ?? e.tokenId}`;
    let lot = this.lots.get(id);
    if (!lot) {
      lot = {
        conditionId: e.conditionId,
        tokenId: e.tokenId,
        outcome: e.outcome,
        outcomeIndex: e.outcomeIndex,
        title: e.title,
        slug: e.slug,
        shares: 0n,
        cost: 0n,
        sharesBought: 0n,
        costTotal: 0n,
        proceeds: 0n,
        realized: 0n,
        fees: 0n,
        openedAt: 0,
        lastPrice: null,
        exits: [],
        split: false,
      };
      this.lots.set(id, lot);
    }
    // Rows about a whole condition (splits, merges) name no token: a later trade fills the names in.
    if (!lot.tokenId && e.tokenId) lot.tokenId = e.tokenId;
    if (!lot.outcome && e.outcome) lot.outcome = e.outcome;
    if (!lot.title && e.title) lot.title = e.title;
    if (!lot.slug && e.slug) lot.slug = e.slug;
    return lot;
  }

  /** The lots of both outcomes of a binary condition (created empty when never seen). */
  private pair(e: LedgerEntry): [Lot, Lot] {
    const named = (index: 0 | 1) =>
      this.lot({ ...e, outcomeIndex: index, tokenId: '', outcome: e.outcomeIndex === index ? e.outcome : '' });
    return [named(0), named(1)];
  }

  private acquire(lot: Lot, shares: bigint, cost: bigint, at: number): void {
    if (lot.shares === 0n && lot.sharesBought === 0n) lot.openedAt = at;
    lot.shares += shares;
    lot.cost += cost;
    lot.sharesBought += shares;
    lot.costTotal += cost;
  }

  /** `shares` leave the lot for `proceeds`; the lot's average cost of them is realized against it. */
  private exit(lot: Lot, shares: bigint, proceeds: bigint, how: CloseHow, at: number, tx: string): void {
    let leaving = shares;
    if (leaving > lot.shares) {
      // More shares left than the activity shows arriving (history cut short, or shares received by transfer):
      // the missing shares are taken at zero cost.
      this.notes.add(
        'Some shares left a position without the activity showing them arrive (older history or a transfer); they are counted at zero cost.',
      );
      const missing = leaving - lot.shares;
      if (lot.sharesBought === 0n) lot.openedAt = at;
      lot.shares += missing;
      lot.sharesBought += missing;
      leaving = shares;
    }
    const removedCost = leaving === lot.shares ? lot.cost : (lot.cost * leaving) / lot.shares;
    lot.shares -= leaving;
    lot.cost -= removedCost;
    lot.proceeds += proceeds;
    lot.realized += proceeds - removedCost;
    if (!lot.exits.includes(how)) lot.exits.push(how);
    if (lot.shares > 0n) return;
    this.closed.push({
      ...keyOf(lot),
      sharesBought: lot.sharesBought,
      cost: lot.costTotal,
      proceeds: lot.proceeds,
      realizedPnl: lot.realized,
      fees: lot.fees,
      openedAt: lot.openedAt,
      closedAt: at,
      how,
      exits: [...lot.exits],
      split: lot.split,
      transactionHash: tx,
    });
    lot.exits = [];
    lot.split = false;
    lot.sharesBought = 0n;
    lot.costTotal = 0n;
    lot.proceeds = 0n;
    lot.realized = 0n;
    lot.fees = 0n;
  }

  private trade(e: LedgerEntry): void {
    const lot = this.lot(e);
    if (e.price !== null) lot.lastPrice = e.price;
    lot.fees += e.fee;
    this.fees += e.fee;
    if (e.side === 'BUY') this.acquire(lot, e.shares, e.amount, e.timestamp);
    else this.exit(lot, e.shares, e.amount, 'sold', e.timestamp, e.transactionHash);
  }

  /** n collateral becomes n shares of each outcome: the cost is split half and half (the odd unit to index 0). */
  private split(e: LedgerEntry): void {
    const [yes, no] = this.pair(e);
    const half = e.amount / 2n;
    this.acquire(yes, e.shares, e.amount - half, e.timestamp);
    this.acquire(no, e.shares, half, e.timestamp);
    yes.split = true;
    no.split = true;
  }

  /** n shares of each outcome become n collateral: the proceeds go to each side in proportion to its cost. */
  private merge(e: LedgerEntry): void {
    const [yes, no] = this.pair(e);
    const costOf = (lot: Lot) =>
      lot.shares === 0n ? 0n : e.shares >= lot.shares ? lot.cost : (lot.cost * e.shares) / lot.shares;
    const [toYes, toNo] = shareOut(e.amount, [costOf(yes), costOf(no)]);
    this.exit(yes, e.shares, toYes!, 'merged', e.timestamp, e.transactionHash);
    this.exit(no, e.shares, toNo!, 'merged', e.timestamp, e.transactionHash);
  }

  /**
   * Redeeming burns every outcome held in the condition: the payout goes to the outcomes the resolution pays (in
   * proportion to what each pays), else to the outcome whose shares equal the payout, else by shares held.
   */
  private redeem(e: LedgerEntry): void {
    const held = [...this.lots.values()].filter(
      (l) => l.conditionId.toLowerCase() === e.conditionId.toLowerCase() && l.shares > 0n,
    );
    if (held.length === 0) {
      // A redeem of shares the activity never showed arriving: a position of zero cost.
      const lot = this.lot(e.outcomeIndex === null ? { ...e, outcomeIndex: 0 } : e);
      this.exit(lot, e.shares, e.amount, e.amount > 0n ? 'redeemed' : 'lost', e.timestamp, e.transactionHash);
      return;
    }
    const resolution = this.resolutions.get(e.conditionId.toLowerCase());
    let weights: bigint[];
    if (resolution) {
      weights = held.map((l) => (l.shares * priceMicros(resolution.payouts[l.outcomeIndex ?? -1] ?? 0)) / SCALE);
    } else {
      const exact = held.filter((l) => l.shares === e.amount);
      weights =
        exact.length === 1 ? held.map((l) => (l === exact[0] ? 1n : 0n)) : held.map((l) => (e.amount ? l.shares : 0n));
      if (exact.length !== 1 && e.amount > 0n)
        this.notes.add('A redemption was shared among outcomes by shares held: the resolution was not given.');
    }
    const parts = weights.every((w) => w === 0n) ? held.map(() => 0n) : shareOut(e.amount, weights);
    held.forEach((lot, i) =>
      this.exit(lot, lot.shares, parts[i]!, parts[i]! > 0n ? 'redeemed' : 'lost', e.timestamp, e.transactionHash),
    );
  }

  /**
   * A neg-risk conversion: the No shares given leave their lot for the collateral the row states (how:
   * converted); the Yes shares received enter at the row's amount (zero: their value is realized when they leave).
   */
  private conversion(e: LedgerEntry): void {
    if (e.outcomeIndex === null && !e.tokenId) {
      this.notes.add('A conversion row named no outcome; it was left out of the book.');
      return;
    }
    const lot = this.lot(e);
    if (e.side === 'BUY') this.acquire(lot, e.shares, e.amount, e.timestamp);
    else this.exit(lot, e.shares, e.amount, 'converted', e.timestamp, e.transactionHash);
  }
}

function keyOf(lot: Lot): PositionKey {
  return {
    conditionId: lot.conditionId,
    tokenId: lot.tokenId,
    outcome: lot.outcome,
    outcomeIndex: lot.outcomeIndex,
    title: lot.title,
    slug: lot.slug,
  };
}
