// The CLOB's trades as the public sees them (sandbox/market/public-trades.ts): the CLOB hands over each trade
// record when it records one and tells this feed when its settlement is on the chain; readers get the public
// view, always current (status, transaction hash), and hear of each trade once, when it is mined.
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
  makers: { makerAddress: string; shares: bigint; price: number; tokenId: string; outcome: 0 | 1; side: 'BUY' | 'SELL' }[];
  transactionHash: string;
}

const shares = (units: bigint) => Number(units) / 1e6;
const price = (units: number) => units / PRICE_ONE;

export class ClobPublicTrades implements PublicTradeSource {
  private readonly records: ClobTradeView[] = [];
  private readonly announced = new Set<string>();
  private readonly listeners = new Set<(trade: PublicTrade) => void>();
  /** Each record's public view, made again only when its status or transaction hash changed (reads are frequent). */
  private readonly views = new WeakMap<ClobTradeView, PublicTrade>();

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
    const view = this.view(trade);
    for (const listener of this.listeners) {
      try {
        listener(view);
      } catch (error) {
        console.error('[sandbox clob] public trade listener failed', error);
      }
    }
  }

  trades(): readonly PublicTrade[] {
    return this.records.filter((t) => t.status !== 'FAILED').map((t) => this.view(t));
  }

  private view(trade: ClobTradeView): PublicTrade {
    const cached = this.views.get(trade);
    if (cached && cached.status === trade.status && cached.transactionHash === trade.transactionHash) return cached;
    // Shared by every reader: frozen, so one cannot change what the others see.
    const view = Object.freeze(publicTrade(trade));
    Object.freeze(view.makers);
    this.views.set(trade, view);
    return view;
  }

  onTrade(listener: (trade: PublicTrade) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function publicTrade(t: ClobTradeView): PublicTrade {
  const token = t.market.tokens[t.outcome];
  return {
    id: t.id,
    conditionId: t.market.conditionId,
    tokenId: t.tokenId,
    outcome: token.name,
    outcomeIndex: t.outcome,
    side: t.side,
    price: price(t.price),
    size: shares(t.shares),
    taker: t.makerAddress,
    makers: t.makers.map((m) => ({ address: m.makerAddress, side: m.side, tokenId: m.tokenId, outcomeIndex: m.outcome, price: price(m.price), size: shares(m.shares) })),
    transactionHash: t.transactionHash,
    timestamp: t.matchTime,
    status: t.status,
  };
}
