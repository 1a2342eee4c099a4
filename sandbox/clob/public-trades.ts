// The CLOB's trades as the public sees them (sandbox/market/public-trades.ts): the CLOB hands over each trade
// record when it records one and tells this feed when its settlement is on the chain; readers get the public
// view, always current (status, transaction hash), and hear of each trade once, when it is mined. A taker order
// that took several price levels is printed once per level, at that level's price: a trade price on a public tape
// is always a price on the market's tick, never the taker's average (which is the taker's own business).
import type { PublicTrade, PublicTradeSource } from '../market/public-trades';
import type { CatalogMarket } from '../market/catalog';
import { PRICE_ONE } from './engine';

/** What this feed reads of a CLOB trade record (the CLOB's own record, read live, never copied). */
export interface ClobTradeView {
  id: string;
  market: CatalogMarket;
  tokenId: string;
  outcome: 0 | 1;
  side: 'BUY' | 'SELL';
  /** Shares, 1e-6 units. */
  shares: bigint;
  /** Price in the taker's outcome, 1e-4 units. */
  price: number;
  status: PublicTrade['status'];
  /** Unix seconds. */
  matchTime: number;
  makerAddress: string;
  makers: {
    makerAddress: string;
    shares: bigint;
    price: number;
    tokenId: string;
    outcome: 0 | 1;
    side: 'BUY' | 'SELL';
  }[];
  transactionHash: string;
}

const shares = (units: bigint) => Number(units) / 1e6;
const price = (units: number) => units / PRICE_ONE;

export class ClobPublicTrades implements PublicTradeSource {
  private readonly records: ClobTradeView[] = [];
  private readonly announced = new Set<string>();
  private readonly listeners = new Set<(trade: PublicTrade) => void>();
  /** Each record's public view, made again only when its status or transaction hash changed (reads are frequent). */
  private readonly views = new WeakMap<ClobTradeView, readonly PublicTrade[]>();

  /** @param keep the most trades remembered (the CLOB's own retention), oldest forgotten first. */
  constructor(private readonly keep = 100_000) {}

  /** The CLOB recorded a trade (matched now, or loaded from its state file: those count as already announced). */
  recorded(trade: ClobTradeView, { loaded = false }: { loaded?: boolean } = {}): void {
    this.records.push(trade);
    if (loaded) this.announced.add(trade.id);
    while (this.records.length > this.keep) this.announced.delete(this.records.shift()!.id);
  }

  /**
   * The trade's settlement is on the chain: listeners hear of it now, once, with its transaction hash (a
   * public tape never shows a match that a failed settlement took back).
   */
  settled(trade: ClobTradeView): void {
    if (this.announced.has(trade.id) || !trade.transactionHash) return;
    this.announced.add(trade.id);
    for (const print of this.view(trade)) {
      for (const listener of this.listeners) {
        try {
          listener(print);
        } catch (error) {
          console.error('[sandbox clob] public trade listener failed', error);
        }
      }
    }
  }

  trades(): readonly PublicTrade[] {
    return this.records.filter((t) => t.status !== 'FAILED').flatMap((t) => this.view(t));
  }

  /** The trade's prints, one per price level it took, best level first (so the last print is the last level). */
  private view(trade: ClobTradeView): readonly PublicTrade[] {
    const cached = this.views.get(trade);
    if (cached && cached[0]!.status === trade.status && cached[0]!.transactionHash === trade.transactionHash)
      return cached;
    // Shared by every reader: frozen, so one cannot change what the others see.
    const prints = Object.freeze(
      publicPrints(trade).map((print) =>
        Object.freeze({ ...print, makers: Object.freeze(print.makers) as PublicTrade['makers'] }),
      ),
    );
    this.views.set(trade, prints);
    return prints;
  }

  onTrade(listener: (trade: PublicTrade) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/**
 * A trade as the public tape prints it: one print per price level the taker took (its makers at that level, the
 * level's price in the taker's outcome, the shares taken there), in the order matched. A one-level trade keeps its
 * id; the prints of a several-level trade are `<id>-<n>`.
 */
export function publicPrints(t: ClobTradeView): PublicTrade[] {
  const token = t.market.tokens[t.outcome];
  // A maker in the other outcome (a mint or merge) traded at the complement of the taker's price.
  const takerPrice = (m: ClobTradeView['makers'][number]) => (m.outcome === t.outcome ? m.price : PRICE_ONE - m.price);
  const levels: { price: number; makers: ClobTradeView['makers'] }[] = [];
  for (const m of t.makers) {
    const level = levels.find((l) => l.price === takerPrice(m));
    if (level) level.makers.push(m);
    else levels.push({ price: takerPrice(m), makers: [m] });
  }
  // A record without makers (none in the CLOB's records; kept for safety) prints once at its own price.
  if (levels.length === 0) levels.push({ price: t.price, makers: [] });
  return levels.map((level, n) => ({
    id: levels.length === 1 ? t.id : `${t.id}-${n + 1}`,
    conditionId: t.market.conditionId,
    tokenId: t.tokenId,
    outcome: token.name,
    outcomeIndex: t.outcome,
    side: t.side,
    price: price(level.price),
    size: level.makers.length ? shares(level.makers.reduce((sum, m) => sum + m.shares, 0n)) : shares(t.shares),
    taker: t.makerAddress,
    makers: level.makers.map((m) => ({
      address: m.makerAddress,
      side: m.side,
      tokenId: m.tokenId,
      outcomeIndex: m.outcome,
      price: price(m.price),
      size: shares(m.shares),
    })),
    transactionHash: t.transactionHash,
    timestamp: t.matchTime,
    status: t.status,
  }));
}
