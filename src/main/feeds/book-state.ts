// One outcome token's live order book: a snapshot, then price-level deltas applied as they arrive (binary
// search into sorted levels; a size of 0 removes the level). Prices are kept as integer millionths and sizes as
// integer base units (6 decimals), parsed from the feed's decimal strings without floating point, so levels
// compare exactly and sums of sizes are exact.

export interface LevelText {
  price: string;
  size: string;
}

export interface BookLevelView {
  /** Price in millionths (0.45 → 450000). */
  price: number;
  /** Size in base units (12.5 shares → 12500000). */
  size: number;
}

import { ErrorCode, PmDeskError } from '@pmdesk/toolkit/model';

const SCALE = 1_000_000;

/** "0.45" → 450000, "12.5" → 12500000: exact for up to 6 decimals; NaN for anything else. */
export function parseMillionths(text: string): number {
  const match = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(text);
  if (!match) return Number.NaN;
  return Number(match[1]) * SCALE + Number((match[2] ?? '').padEnd(6, '0'));
}

export function formatMillionths(value: number): string {
  const whole = Math.floor(value / SCALE);
  const fraction = String(value % SCALE)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** One side's levels, sorted best first: descending prices for bids, ascending for asks. */
class Side {
  readonly prices: number[] = [];
  readonly sizes: number[] = [];

  constructor(private readonly descending: boolean) {}

  clear(): void {
    this.prices.length = 0;
    this.sizes.length = 0;
  }

  /** Index of `price`, or of where it would go (as ~index, a negative number). */
  private find(price: number): number {
    const prices = this.prices;
    let lo = 0;
    let hi = prices.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const p = prices[mid]!;
      if (p === price) return mid;
      if (this.descending ? p > price : p < price) lo = mid + 1;
      else hi = mid;
    }
    return ~lo;
  }

  set(price: number, size: number): void {
    const at = this.find(price);
    if (at >= 0) {
      if (size === 0) {
        this.prices.splice(at, 1);
        this.sizes.splice(at, 1);
      } else {
        this.sizes[at] = size;
      }
    } else if (size !== 0) {
      const index = ~at;
      this.prices.splice(index, 0, price);
      this.sizes.splice(index, 0, size);
    }
  }

  size(price: number): number {
    const at = this.find(price);
    return at >= 0 ? this.sizes[at]! : 0;
  }

  levels(limit = Number.POSITIVE_INFINITY): BookLevelView[] {
    const n = Math.min(limit, this.prices.length);
    const out: BookLevelView[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = { price: this.prices[i]!, size: this.sizes[i]! };
    return out;
  }
}

export class BookState {
  private readonly bids = new Side(true);
  private readonly asks = new Side(false);
  /** The server's hash of the last snapshot or change applied. */
  hash = '';
  /** Server time (ms) of the last message applied. */
  timestamp = 0;

  /** Replaces the whole book with a snapshot. Throws on a level that is not a decimal string. */
  applySnapshot(snapshot: {
    bids: readonly LevelText[];
    asks: readonly LevelText[];
    hash?: string;
    timestamp?: string | number;
  }): void {
    this.bids.clear();
    this.asks.clear();
    for (const level of snapshot.bids) this.bids.set(parsePrice(level.price), parseSize(level.size));
    for (const level of snapshot.asks) this.asks.set(parsePrice(level.price), parseSize(level.size));
    this.hash = snapshot.hash ?? '';
    this.timestamp = Number(snapshot.timestamp ?? 0);
  }

  /** Sets one level to the size now available there ("0" removes it). */
  applyChange(side: 'BUY' | 'SELL', price: string, size: string): void {
    (side === 'BUY' ? this.bids : this.asks).set(parsePrice(price), parseSize(size));
  }

  /** Same as applyChange with already-parsed integers (the hot path of a feed that parsed once). */
  setLevel(side: 'BUY' | 'SELL', price: number, size: number): void {
    (side === 'BUY' ? this.bids : this.asks).set(price, size);
  }

  get bestBid(): number | undefined {
    return this.bids.prices[0];
  }

  get bestAsk(): number | undefined {
    return this.asks.prices[0];
  }

  /** Midpoint in millionths, when both sides have a level. */
  get midpoint(): number | undefined {
    const bid = this.bestBid;
    const ask = this.bestAsk;
    return bid === undefined || ask === undefined ? undefined : (bid + ask) / 2;
  }

  get spread(): number | undefined {
    const bid = this.bestBid;
    const ask = this.bestAsk;
    return bid === undefined || ask === undefined ? undefined : ask - bid;
  }

  /** A book whose best bid meets or passes its best ask has drifted from the server's: resync it. */
  get crossed(): boolean {
    const bid = this.bestBid;
    const ask = this.bestAsk;
    return bid !== undefined && ask !== undefined && bid >= ask;
  }

  sizeAt(side: 'BUY' | 'SELL', price: number): number {
    return (side === 'BUY' ? this.bids : this.asks).size(price);
  }

  /** Levels best first, at most `depth` a side. */
  view(depth?: number): { bids: BookLevelView[]; asks: BookLevelView[] } {
    return { bids: this.bids.levels(depth), asks: this.asks.levels(depth) };
  }

  /** The book as the CLOB lists it (decimal strings, best level last), to compare with GET /book. */
  toLevels(): { bids: LevelText[]; asks: LevelText[] } {
    const text = (side: Side) =>
      side.prices.map((p, i) => ({ price: formatMillionths(p), size: formatMillionths(side.sizes[i]!) })).reverse();
    return { bids: text(this.bids), asks: text(this.asks) };
  }

  /** Whether this book holds exactly the levels of a server snapshot (prices and sizes compared as numbers). */
  sameLevelsAs(snapshot: { bids: readonly LevelText[]; asks: readonly LevelText[] }): boolean {
    const other = new BookState();
    other.applySnapshot(snapshot);
    const a = this.view();
    const b = other.view();
    const same = (x: BookLevelView[], y: BookLevelView[]) =>
      x.length === y.length && x.every((l, i) => l.price === y[i]!.price && l.size === y[i]!.size);
    return same(a.bids, b.bids) && same(a.asks, b.asks);
  }
}

function parsePrice(text: string): number {
  const value = parseMillionths(text);
  if (!(value > 0 && value < SCALE))
    throw new PmDeskError(ErrorCode.VALIDATION_ERROR, `The book feed sent an invalid price: ${text.slice(0, 20)}`);
  return value;
}

function parseSize(text: string): number {
  const value = parseMillionths(text);
  if (!(value >= 0))
    throw new PmDeskError(ErrorCode.VALIDATION_ERROR, `The book feed sent an invalid size: ${text.slice(0, 20)}`);
  return value;
}
