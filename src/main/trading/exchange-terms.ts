// The exchange's terms for a market that an order is built on (its tick size, its `/clob-markets` answer with the
// fee terms and neg-risk flag), kept a short while so an order does not ask for them again between the
// trader's click and the post. The official client keeps them per token too (tick size with a 5-minute TTL in
// v1, for the session in v2); here the TTL is shorter, the market channel's `tick_size_change` updates the tick
// at once, and a placement refused for its tick drops what was kept (see isTickRefusal).
import type { TickSize } from '@pmdesk/toolkit';
import { isTickSize } from '@pmdesk/toolkit';

/** How long a market's terms are trusted without the exchange saying anything about them. */
export const TERMS_TTL_MS = 60_000;

/** The exchange reads the terms come from (the flow's public client). */
export interface TermsReads {
  /** The CLOB's `/clob-markets/{conditionId}` answer. */
  clobMarket(conditionId: string): Promise<unknown>;
  /** GET /tick-size: the token's minimum tick. */
  tickSize(tokenId: string): Promise<TickSize>;
}

interface Kept<T> {
  value: Promise<T>;
  at: number;
}

export class ExchangeTerms {
  private readonly markets = new Map<string, Kept<unknown>>();
  private readonly ticks = new Map<string, Kept<TickSize>>();
  /** Which market's answer named a token: a new tick for the token makes that answer's `mts` old. */
  private readonly marketOfToken = new Map<string, string>();

  constructor(
    private readonly reads: TermsReads,
    private readonly now: () => number = Date.now,
    private readonly ttlMs = TERMS_TTL_MS,
  ) {}

  /** The market's `/clob-markets` answer, read at most once per TTL (one read shared by orders asking at once). */
  clobMarket(conditionId: string): Promise<unknown> {
    return this.kept(this.markets, conditionId, () =>
      this.reads.clobMarket(conditionId).then((answer) => {
        this.learnFrom(conditionId, answer);
        return answer;
      }),
    );
  }

  /** The token's tick: kept from a tick_size_change, a `/clob-markets` answer or GET /tick-size, for the TTL. */
  tickSize(tokenId: string): Promise<TickSize> {
    return this.kept(this.ticks, tokenId, () => this.reads.tickSize(tokenId));
  }

  /** The exchange said the token's tick changed (its market channel): the new tick is kept, the market's answer dropped. */
  tickChanged(tokenId: string, tickSize: string): void {
    const market = this.marketOfToken.get(tokenId);
    if (market !== undefined) this.markets.delete(market);
    if (isTickSize(tickSize)) this.ticks.set(tokenId, { value: Promise.resolve(tickSize), at: this.now() });
    else this.ticks.delete(tokenId);
  }

  /** Forgets what was kept about a token (and its market's answer): the next order reads the exchange again. */
  forget(tokenId: string): void {
    const market = this.marketOfToken.get(tokenId);
    if (market !== undefined) this.markets.delete(market);
    this.ticks.delete(tokenId);
  }

  private kept<T>(map: Map<string, Kept<T>>, key: string, read: () => Promise<T>): Promise<T> {
    const hit = map.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value;
    const entry: Kept<T> = { value: read(), at: this.now() };
    map.set(key, entry);
    // A failed read is not kept: the next order asks again.
    entry.value.catch(() => {
      if (map.get(key) === entry) map.delete(key);
    });
    return entry.value;
  }

  /** A `/clob-markets` answer names its tokens and (as `mts`) their tick: kept alongside, so no GET /tick-size follows. */
  private learnFrom(conditionId: string, answer: unknown): void {
    const info = answer as { t?: { t?: unknown }[]; mts?: unknown } | null | undefined;
    const tick = typeof info?.mts === 'number' ? String(info.mts) : info?.mts;
    for (const token of Array.isArray(info?.t) ? info.t : []) {
      if (typeof token?.t !== 'string') continue;
      this.marketOfToken.set(token.t, conditionId);
      if (isTickSize(tick)) this.ticks.set(token.t, { value: Promise.resolve(tick), at: this.now() });
    }
  }
}

/**
 * Whether an exchange refusal is about the order's price and the market's tick ("invalid price (…): the price
 * must be a multiple of the tick size …", "invalid price (…), min: … - max: …", "invalid tick size …"): the
 * tick kept for it may be old. Such an order is never sent again at another price; the trader is told.
 */
export function isTickRefusal(error: unknown): boolean {
  const status = (error as { statusCode?: unknown })?.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return false;
  const message = error instanceof Error ? error.message : String(error);
  return /invalid (price|tick size)|tick size/i.test(message);
}
