// The sandbox's live market state that more than one server reads: every token's fills (generated history,
// then each real trade), its current book as the CLOB serves it, and a feed of new fills.
import type { TradeRecord } from '@pmdesk/toolkit/aggregator-wire';
import type { Catalog } from './catalog';
import type { GeneratedHistory } from './history';

/** A book as Polymarket's CLOB serves it from GET /book: prices and sizes as decimal strings. */
export interface BookSnapshot {
  market: string;
  asset_id: string;
  timestamp: string;
  hash: string;
  bids: { price: string; size: string }[];
  asks: { price: string; size: string }[];
  min_order_size: string;
  tick_size: string;
  neg_risk: boolean;
  last_trade_price: string;
}

/** `mirror`: the same trade seen from the other outcome (recorded so each token's tape is whole). */
export type FillListener = (tokenId: string, fill: TradeRecord, mirror: boolean) => void;

export class MarketData {
  private readonly fillsByToken = new Map<string, TradeRecord[]>();
  private readonly books = new Map<string, BookSnapshot>();
  private readonly listeners = new Set<FillListener>();

  constructor(
    readonly catalog: Catalog,
    history?: GeneratedHistory,
  ) {
    for (const event of catalog.events) {
      for (const market of event.markets) {
        for (const token of market.tokens)
          this.fillsByToken.set(token.tokenId, [...(history?.fills.get(token.tokenId) ?? [])]);
      }
    }
  }

  /** A token's fills, oldest first. */
  fills(tokenId: string): readonly TradeRecord[] {
    return this.fillsByToken.get(tokenId) ?? [];
  }

  /** Records a real fill and tells every listener. */
  /** `mirror`: this fill repeats a trade already recorded on the other outcome (a market's stream sends it once). */
  recordFill(tokenId: string, fill: TradeRecord, { mirror = false }: { mirror?: boolean } = {}): void {
    const list = this.fillsByToken.get(tokenId);
    if (!list) throw new Error(`unknown token ${tokenId}`);
    list.push(fill);
    for (const listener of this.listeners) listener(tokenId, fill, mirror);
  }

  /**
   * Puts back real fills kept from an earlier run (the data folder), merged into each token's tape by time so
   * tapes and candles stay in order; nobody is told, these are not new. Unknown tokens are skipped.
   */
  restoreFills(fills: readonly { tokenId: string; fill: TradeRecord }[]): number {
    const touched = new Set<TradeRecord[]>();
    let restored = 0;
    for (const { tokenId, fill } of fills) {
      const list = this.fillsByToken.get(tokenId);
      if (!list) continue;
      list.push(fill);
      touched.add(list);
      restored++;
    }
    // Stable: at the same second a real fill stays after the generated ones and after its predecessors.
    for (const list of touched) list.sort((a, b) => a.timestamp - b.timestamp);
    return restored;
  }

  onFill(listener: FillListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  lastTradePrice(tokenId: string): number | undefined {
    return this.fillsByToken.get(tokenId)?.at(-1)?.price;
  }

  setBook(tokenId: string, book: BookSnapshot): void {
    this.books.set(tokenId, book);
  }

  book(tokenId: string): BookSnapshot | undefined {
    return this.books.get(tokenId);
  }

  /** Midpoint when both sides have a level, else the last trade: the price a market list shows. */
  displayPrice(tokenId: string): number | undefined {
    const book = this.books.get(tokenId);
    const bestBid = book?.bids.reduce((best, l) => Math.max(best, Number(l.price)), 0);
    const bestAsk = book?.asks.reduce((best, l) => Math.min(best, Number(l.price)), 1);
    if (book && book.bids.length && book.asks.length) return (bestBid! + bestAsk!) / 2;
    return this.lastTradePrice(tokenId);
  }
}
