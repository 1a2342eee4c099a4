// What the account tables need beyond the exchange's ids: a market's question and outcome names (the exchange's
// own market record, by condition id), its fee terms (`/clob-markets` `fd`), the fee each of the wallet's trades
// paid and its settlement transaction, and the source's market id of a position (so the terminal can open it).
// Read once per market and kept for the network's session: a market's question, outcomes and terms do not move.
import { z } from 'zod';
import type { TradeInfo } from '../../shared/contract';
import { COLLATERAL_TOKEN_DECIMALS } from '@pmdesk/toolkit';
import { fillFee, type FeeTerms } from '@pmdesk/toolkit';
import { parseAnswer } from '@pmdesk/toolkit';
import { feeTermsOfClobMarket } from './order-fees';

/** The exchange's market record (GET /markets/{conditionId}): only what names the market and its outcomes. */
const ExchangeMarketSchema = z.looseObject({
  question: z.string(),
  market_slug: z.string().nullish(),
  tokens: z.array(z.looseObject({ token_id: z.string(), outcome: z.string() })).default([]),
});

/** A market as the account tables name it; `feeTerms` null: no fee; undefined: the terms could not be read. */
export interface MarketFacts {
  question: string;
  slug: string | null;
  /** Outcome names by token id. */
  outcomes: Record<string, string>;
  feeTerms: FeeTerms | null | undefined;
}

/** The exchange reads the facts come from (the order flow's public client). */
export interface MarketFactReads {
  exchangeMarket(conditionId: string): Promise<unknown>;
  exchangeClobMarket(conditionId: string): Promise<unknown>;
}

const ONE = 10 ** COLLATERAL_TOKEN_DECIMALS;
const units = (x: unknown): bigint => BigInt(Math.round(Number(x) * ONE));

/**
 * The fee one trade cost the wallet, in dollars: the platform fee on each fill of its leg (p·(1−p) is the same
 * seen from either outcome, so a maker's price serves the taker too). A maker leg pays only on a market whose
 * terms charge makers. Null when the terms are unknown or the row's numbers are not.
 */
export function tradeFee(
  address: string,
  r: Record<string, unknown>,
  terms: FeeTerms | null | undefined,
): number | null {
  if (terms === undefined) return null;
  if (terms === null) return 0;
  const makers = Array.isArray(r.maker_orders) ? (r.maker_orders as Record<string, unknown>[]) : [];
  const mine =
    r.trader_side === 'MAKER'
      ? makers.filter((m) => String(m.maker_address ?? '').toLowerCase() === address.toLowerCase())
      : [];
  const role = mine.length > 0 ? 'maker' : 'taker';
  const fills = mine.length > 0 ? mine : makers.length > 0 ? makers : [{ price: r.price, matched_amount: r.size }];
  try {
    const total = fills.reduce(
      (sum, f) => sum + fillFee({ price: String(f.price), shares: units(f.matched_amount), terms, role }).total,
      0n,
    );
    return Number(total) / ONE;
  } catch {
    // A price or size the fee math refuses (not a number): the fee is unknown, not zero.
    return null;
  }
}

/** The trade's own facts: outcome name, fee, settlement transaction, question (what `tradeAsSeenBy` leaves out). */
export function tradeDetails(
  address: string,
  r: Record<string, unknown>,
  trade: TradeInfo,
  facts: MarketFacts | undefined,
): TradeInfo {
  const hash =
    typeof r.transaction_hash === 'string' && /^0x[0-9a-fA-F]+$/.test(r.transaction_hash) ? r.transaction_hash : null;
  const outcome =
    facts?.outcomes[trade.tokenId] ??
    (trade.tokenId === String(r.asset_id ?? '') && typeof r.outcome === 'string' ? r.outcome : undefined);
  return {
    ...trade,
    ...(outcome ? { outcome } : {}),
    ...(facts ? { question: facts.question } : {}),
    fee: facts ? tradeFee(address, r, facts.feeTerms) : null,
    txHash: hash,
  };
}

/** Market facts by condition id, read once each (a failed read is tried again on the next ask). */
export class TradeFacts {
  private readonly known = new Map<string, MarketFacts>();
  private readonly loading = new Map<string, Promise<MarketFacts | undefined>>();

  constructor(private readonly reads: MarketFactReads) {}

  /** What is already known of a market (no read). */
  cached(conditionId: string): MarketFacts | undefined {
    return this.known.get(conditionId.toLowerCase());
  }

  /** The market's facts, read if not yet known; undefined when the exchange does not know the market. */
  load(conditionId: string): Promise<MarketFacts | undefined> {
    const key = conditionId.toLowerCase();
    const known = this.known.get(key);
    if (known) return Promise.resolve(known);
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.read(conditionId).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  /** Every market of these trades, read (in parallel) where not yet known. */
  async loadAll(conditionIds: Iterable<string>): Promise<void> {
    await Promise.all([...new Set(conditionIds)].filter((c) => c && !this.cached(c)).map((c) => this.load(c)));
  }

  private async read(conditionId: string): Promise<MarketFacts | undefined> {
    let market: z.output<typeof ExchangeMarketSchema>;
    try {
      market = parseAnswer(ExchangeMarketSchema, await this.reads.exchangeMarket(conditionId), 'getMarket');
    } catch {
      // Unknown to the exchange, or unreadable now: the tables fall back to ids, and ask again next time.
      return undefined;
    }
    // Terms the exchange will not state (a version 1 exchange has no /clob-markets) stay unknown: the fee shows "—".
    const feeTerms = await this.reads.exchangeClobMarket(conditionId).then(
      (answer) => feeTermsOfClobMarket(answer) ?? null,
      () => undefined,
    );
    const facts: MarketFacts = {
      question: market.question,
      slug: market.market_slug || null,
      outcomes: Object.fromEntries(market.tokens.map((t) => [t.token_id, t.outcome])),
      feeTerms,
    };
    this.known.set(conditionId.toLowerCase(), facts);
    return facts;
  }
}
