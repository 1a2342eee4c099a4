// A trader's portfolio from their ledger: open and closed positions, totals, per-market and per-tag breakdowns
// (buildPortfolio), and the PnL series over a day, week, month or all time with each point's pricing said.
import { Book, valueAt } from './book';
import type {
  LedgerEntry,
  OpenPosition,
  PnlPoint,
  PnlSeriesOptions,
  PointPricing,
  Portfolio,
  PortfolioBreakdown,
  PortfolioOptions,
  PositionKey,
} from './types';

/** The book of `entries` (oldest first) as it stands now, valued at `options.prices`. */
export function buildPortfolio(entries: readonly LedgerEntry[], options: PortfolioOptions): Portfolio {
  const book = new Book(options.resolutions);
  for (const e of entries) book.apply(e);
  const last = entries.length ? entries[entries.length - 1]!.timestamp : 0;
  book.settleLosses(Number.MAX_SAFE_INTEGER, last);
  const payout = payoutOf(options.resolutions ?? []);
  const open = book.open((lot) => payout(lot) ?? options.prices?.get(lot.tokenId));
  const unrealized = open.reduce((s, p) => s + (p.unrealizedPnl ?? 0n), 0n);
  const value = open.reduce((s, p) => s + (p.value ?? 0n), 0n);
  const realized = book.realized();
  const notes = [...book.notes];
  const unpriced = open.filter((p) => p.value === null).length;
  if (unpriced)
    notes.push(`${unpriced} open position(s) have no current price and count 0 in value and unrealized PnL.`);
  return {
    address: options.address,
    open,
    closed: [...book.closed].sort((a, b) => b.closedAt - a.closedAt),
    totals: {
      realized,
      unrealized,
      fees: book.fees,
      rewards: book.rewards,
      value,
      net: realized + unrealized - book.fees + book.rewards,
    },
    byMarket: breakdown(book, open, (c) => [c], entries),
    byTag: breakdown(
      book,
      open,
      (c) => [...(options.tags?.get(c) ?? options.tags?.get(c.toLowerCase()) ?? [])],
      entries,
    ),
    reconciliation: [],
    notes,
  };
}

/** What a resolved market pays a share of the lot's outcome, or undefined when it has not resolved. */
function payoutOf(resolutions: PortfolioOptions['resolutions'] & object) {
  const byCondition = new Map(resolutions.map((r) => [r.conditionId.toLowerCase(), r]));
  return (lot: PositionKey, at = Number.MAX_SAFE_INTEGER): number | undefined => {
    const r = byCondition.get(lot.conditionId.toLowerCase());
    if (!r || lot.outcomeIndex === null || (r.resolvedAt !== undefined && r.resolvedAt > at)) return undefined;
    return r.payouts[lot.outcomeIndex] ?? 0;
  };
}

/** Totals per group: each condition id maps to the groups it counts in (itself, or its event's tags). */
function breakdown(
  book: Book,
  open: OpenPosition[],
  groupsOf: (conditionId: string) => string[],
  entries: readonly LedgerEntry[],
): PortfolioBreakdown[] {
  const rows = new Map<string, PortfolioBreakdown>();
  const titles = new Map(entries.map((e) => [e.conditionId, e.title]));
  const add = (conditionId: string, part: Partial<Record<'realized' | 'unrealized' | 'fees' | 'rewards', bigint>>) => {
    for (const key of groupsOf(conditionId)) {
      const row = rows.get(key) ?? {
        key,
        label: titles.get(key) ?? key,
        realized: 0n,
        unrealized: 0n,
        fees: 0n,
        rewards: 0n,
      };
      row.realized += part.realized ?? 0n;
      row.unrealized += part.unrealized ?? 0n;
      row.fees += part.fees ?? 0n;
      row.rewards += part.rewards ?? 0n;
      rows.set(key, row);
    }
  };
  for (const c of book.closed) add(c.conditionId, { realized: c.realizedPnl, fees: c.fees });
  for (const p of open)
    add(p.conditionId, { realized: p.realizedPnl, unrealized: p.unrealizedPnl ?? 0n, fees: p.fees });
  for (const [conditionId, amount] of book.rewardsByMarket) if (conditionId) add(conditionId, { rewards: amount });
  return [...rows.values()].sort((a, b) => (b.realized + b.unrealized > a.realized + a.unrealized ? 1 : -1));
}

const HOUR = 3600;
const DAY = 24 * HOUR;

/** The step and the first point of a range. */
function steps(options: PnlSeriesOptions, first: number): { start: number; step: number } {
  switch (options.range) {
    case 'day':
      return { start: options.now - DAY, step: HOUR };
    case 'week':
      return { start: options.now - 7 * DAY, step: 6 * HOUR };
    case 'month':
      return { start: options.now - 30 * DAY, step: DAY };
    case 'all': {
      const span = Math.max(DAY, options.now - first);
      return { start: first, step: span > 400 * DAY ? 7 * DAY : DAY };
    }
  }
}

const PRICING_ORDER: PointPricing[] = ['exact', 'current-price', 'price-history', 'last-trade'];
const ESTIMATES: Record<PointPricing, string> = {
  exact: '',
  'current-price': 'open positions valued at the current price',
  'price-history': "open positions valued at the outcome's price of that time (price history)",
  'last-trade': "open positions valued at the trader's last trade price before that time (no price history)",
};

/**
 * The PnL over time, replaying the ledger: one point per step from the range's start to now (the last point at
 * now). Realized, fees and rewards are recorded amounts; open positions at each point are valued at the price
 * history's price of the time, else the last trade price seen, and the last point at the current price.
 */
export function pnlSeries(entries: readonly LedgerEntry[], options: PnlSeriesOptions): PnlPoint[] {
  const first = entries.length ? entries[0]!.timestamp : options.now;
  const { start: rangeStart, step } = steps(options, first);
  const start = Math.max(rangeStart, options.since ?? rangeStart);
  const times: number[] = [];
  for (let t = start; t < options.now; t += step) times.push(t);
  times.push(options.now);
  const book = new Book(options.resolutions);
  const payout = payoutOf(options.resolutions ?? []);
  let next = 0;
  return times.map((t, i) => {
    while (next < entries.length && entries[next]!.timestamp <= t) book.apply(entries[next++]!);
    book.settleLosses(t);
    const isLast = i === times.length - 1;
    let pricing: PointPricing = 'exact';
    const worse = (p: PointPricing) => {
      if (PRICING_ORDER.indexOf(p) > PRICING_ORDER.indexOf(pricing)) pricing = p;
    };
    const open = book.open((lot, lastPrice) => {
      const paid = payout(lot, t);
      if (paid !== undefined) return paid;
      const current = isLast ? options.prices?.get(lot.tokenId) : undefined;
      if (current !== undefined) {
        worse('current-price');
        return current;
      }
      const historic = options.priceAt?.(lot.tokenId, t);
      if (historic !== undefined) {
        worse('price-history');
        return historic;
      }
      worse('last-trade');
      return lastPrice ?? 0;
    });
    const unrealized = open.reduce((s, p) => s + (p.value ?? 0n) - p.cost, 0n);
    const realized = book.realized();
    return {
      timestamp: t,
      realized,
      unrealized,
      fees: book.fees,
      rewards: book.rewards,
      total: realized + unrealized - book.fees + book.rewards,
      exact: open.length === 0,
      pricing,
      estimate: ESTIMATES[pricing],
    };
  });
}

export { valueAt };
