// One outcome's order book as main hands it to the page (the `bookUpdate` event and `getOrderBook`) and the ladder
// draws it: prices (0..1) and sizes (shares) as numbers, one level a price, each side best first (bids from the
// highest price down, asks from the lowest up), so the page neither parses nor sorts. Main builds it once: from
// the live feed's sorted levels, or from a source's book (any order, strings or numbers) by `bookFromLevels`.

/** One price level: a price between 0 and 1 and the shares resting there (always more than 0). */
export interface BookLevel {
  price: number;
  size: number;
}

export interface Book {
  tokenId: string;
  /** The market's condition id, as the exchange names it. */
  market: string;
  /** Highest price first. */
  bids: BookLevel[];
  /** Lowest price first. */
  asks: BookLevel[];
  /** The exchange's hash of this book ('' when the source gives none). */
  hash: string;
  /** Server time of the book (ms; 0 when the source gives none). */
  timestamp: number;
  /** The market's tick, when the live feed learnt it from the exchange. */
  tickSize?: string;
  /** The live feed has heard nothing for a while: this book may be behind. */
  stale?: boolean;
}

type LevelIn = { price: number | string; size: number | string };

/** A side of a source's book as a Book's: levels of one price folded, empty or unreadable ones dropped, best first. */
function sideOf(levels: readonly LevelIn[], bestFirst: (a: BookLevel, b: BookLevel) => number): BookLevel[] {
  const byPrice = new Map<number, BookLevel>();
  for (const level of levels) {
    const price = Number(level.price);
    const size = Number(level.size);
    if (!(price > 0 && price < 1) || !(size > 0) || !Number.isFinite(size)) continue;
    // Keyed to the 1/10,000th: two texts of one price ("0.5", "0.50") are one level.
    const key = Math.round(price * 10_000);
    const found = byPrice.get(key);
    if (found) found.size += size;
    else byPrice.set(key, { price, size });
  }
  return [...byPrice.values()].sort(bestFirst);
}

/**
 * A source's book (the aggregator's, Polymarket's GET /book: levels in any order, as strings or numbers, with
 * snake_case names) as the one Book shape.
 */
export function bookFromLevels(
  tokenId: string,
  source: {
    market?: string;
    bids: readonly LevelIn[];
    asks: readonly LevelIn[];
    hash?: string;
    timestamp?: string | number;
  },
): Book {
  const timestamp = Number(source.timestamp ?? 0);
  return {
    tokenId,
    market: source.market ?? '',
    bids: sideOf(source.bids, (a, b) => b.price - a.price),
    asks: sideOf(source.asks, (a, b) => a.price - b.price),
    hash: source.hash ?? '',
    timestamp: Number.isFinite(timestamp) ? timestamp : 0,
  };
}
