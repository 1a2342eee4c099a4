// Generated past fills, so charts and tapes are full from the first start: a seeded random walk per
// market (in log-odds, so prices stay inside (0, 1)), fills at random times, snapped to the market's tick.
// The complement outcome trades at 1 − p with the same size, as on Polymarket. These fills are history
// only; every trade made in the running sandbox is real and settles on the chain.
import type { TradeRecord } from '@pmdesk/toolkit/aggregator-wire';
import type { Catalog, CatalogMarket } from './catalog';
import { SeededRandom } from './random';

export interface HistoryOptions {
  seed: number;
  /** End of the history (ms); the sandbox uses its start time. */
  now: number;
  /** How far back the history goes. */
  days?: number;
  /** Mean minutes between fills. */
  meanGapMinutes?: number;
}

export interface GeneratedHistory {
  /** Fills per token id, oldest first; timestamps in seconds. */
  fills: Map<string, TradeRecord[]>;
  /** The first outcome's last traded price per market id. */
  lastPrice: Map<string, number>;
}

const logit = (p: number) => Math.log(p / (1 - p));
const logistic = (x: number) => 1 / (1 + Math.exp(-x));

export function snapToTick(price: number, tickSize: string): number {
  const tick = Number(tickSize);
  const decimals = tickSize.split('.')[1]?.length ?? 0;
  const snapped = Math.min(1 - tick, Math.max(tick, Math.round(price / tick) * tick));
  return Number(snapped.toFixed(decimals));
}

export function generateHistory(catalog: Catalog, options: HistoryOptions): GeneratedHistory {
  const days = options.days ?? 21;
  const meanGapMs = (options.meanGapMinutes ?? 25) * 60_000;
  const start = options.now - days * 86_400_000;
  const fills = new Map<string, TradeRecord[]>();
  const lastPrice = new Map<string, number>();

  for (const event of catalog.events) {
    const random = new SeededRandom(options.seed ^ hash(event.id));
    const markets = event.markets;
    // Neg-risk: exactly one market resolves YES, so the YES prices move together and add up to 1 (a softmax
    // over one walk per market). Binary markets walk on their own in log-odds.
    const walk = markets.map((m) => (event.negRisk ? Math.log(m.startPrice) : logit(m.startPrice)));
    const yesPrice = (i: number) => {
      if (!event.negRisk) return logistic(walk[i]!);
      const total = walk.reduce((sum, x) => sum + Math.exp(x), 0);
      return Math.exp(walk[i]!) / total;
    };
    const series = markets.map(() => ({ yes: [] as TradeRecord[], no: [] as TradeRecord[] }));
    const price = markets.map((m) => snapToTick(m.startPrice, m.tickSize));
    let t = start + random.next() * meanGapMs;
    while (t < options.now) {
      for (let i = 0; i < walk.length; i++) walk[i]! += random.normal(0, 0.035);
      const i = random.int(0, markets.length - 1);
      const market = markets[i]!;
      price[i] = snapToTick(yesPrice(i), market.tickSize);
      const size = sizeFor(random, market);
      const timestamp = Math.floor(t / 1000);
      series[i]!.yes.push({ price: price[i]!, volumeBase: size, timestamp });
      series[i]!.no.push({ price: snapToTick(1 - price[i]!, market.tickSize), volumeBase: size, timestamp });
      t += (-Math.log(1 - random.next()) * meanGapMs) / markets.length;
    }
    markets.forEach((market, i) => {
      fills.set(market.tokens[0].tokenId, series[i]!.yes);
      fills.set(market.tokens[1].tokenId, series[i]!.no);
      lastPrice.set(market.id, price[i]!);
    });
  }
  return { fills, lastPrice };
}

/** Mostly small tickets, now and then a large one; whole shares at or above the market's minimum. */
function sizeFor(random: SeededRandom, market: CatalogMarket): number {
  const base = market.minOrderSize + Math.floor(-Math.log(1 - random.next()) * 60);
  return random.next() < 0.05 ? base * 10 : base;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}
