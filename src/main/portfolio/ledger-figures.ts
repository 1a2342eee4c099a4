// The toolkit's portfolio engine turned into what the Portfolio view shows: the account's ledger read from its
// activity through the network's market source, each trade's fee as the chain recorded it (else the exchange's
// own trade records where the wallet is ours), prices and resolutions from its positions, Polymarket's own
// figures to reconcile with, the PnL series over the period, and the amounts as exact base units with their
// dollars-and-cents text.
import {
  accountingCsv,
  accountingRows,
  buildPortfolio,
  feeLookup,
  nameOutcomes,
  pnlSeries,
  pricesFromPositions,
  readLedger,
  reconcile,
  type FeeLookup,
  type MarketSource,
  type PnlPoint as LedgerPoint,
  type PortfolioBreakdown,
  type TheirFigures,
  type TraderActivity,
} from '@pmdesk/toolkit';
import type { MoneyAmount, PnlPoint, PortfolioGroup, PortfolioPeriod, TradeInfo } from '../../shared/contract';
import type { PortfolioFigures, PortfolioLedger } from './portfolio-service';

const SCALE = 1_000_000n;

/** Base units as the view shows them: dollars and cents, rounded half away from zero ("$1,234.57", "-$0.40"). */
export function centsText(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const cents = (abs + 5_000n) / 10_000n;
  const text = `$${(cents / 100n).toLocaleString('en-US')}.${(cents % 100n).toString().padStart(2, '0')}`;
  return negative && cents > 0n ? `-${text}` : text;
}

export const usd = (units: bigint): MoneyAmount => ({ units: units.toString(), text: centsText(units) });
/** Shares in base units as "12.5". */
export const sharesAmount = (units: bigint): MoneyAmount => {
  const whole = units / SCALE;
  const fraction = (units % SCALE).toString().padStart(6, '0').replace(/0+$/, '');
  return { units: units.toString(), text: fraction ? `${whole}.${fraction}` : `${whole}` };
};

/** A fee in dollars (as the exchange's trade record gives it) as base units, once. */
function feeUnits(dollars: number): bigint {
  return BigInt(Math.round(dollars * 1_000_000));
}

/**
 * Fees by settlement transaction and token, from the wallet's own trades on the exchange: an activity row is
 * matched to the trade of the same transaction, token and side. Legs of one transaction are summed.
 */
export function feesFromTrades(trades: readonly TradeInfo[]): FeeLookup {
  const byLeg = new Map<string, bigint>();
  for (const t of trades) {
    if (!t.txHash || t.fee === null || t.fee === undefined) continue;
    const key = `${t.txHash.toLowerCase()}|${t.tokenId}|${t.side}`;
    byLeg.set(key, (byLeg.get(key) ?? 0n) + feeUnits(t.fee));
  }
  return (row) => byLeg.get(`${row.transactionHash.toLowerCase()}|${row.tokenId}|${row.side ?? ''}`);
}

const PERIOD_MS: Record<Exclude<PortfolioPeriod, 'all'>, number> = {
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
};

/** A point is drawn as estimated when something open at that time had no price of its own time. */
function isEstimated(point: LedgerPoint): boolean {
  return !point.exact && point.pricing === 'last-trade';
}

function group(
  breakdown: readonly PortfolioBreakdown[],
  counts: (key: string) => { open: number; closed: number },
): PortfolioGroup[] {
  return breakdown.map((b) => {
    const { open, closed } = counts(b.key);
    return {
      key: b.key,
      label: b.label,
      realized: usd(b.realized),
      unrealized: usd(b.unrealized),
      feesPaid: usd(b.fees),
      openCount: open,
      closedCount: closed,
    };
  });
}

export interface LedgerFiguresOptions {
  source: Pick<MarketSource, 'getTraderActivity' | 'getTraderPositions'>;
  /** The fee `address` paid in each of these transactions, from the exchange's OrderFilled events on the chain. */
  chainFees?(address: string, transactionHashes: string[]): Promise<ReadonlyMap<string, bigint>>;
  /** The trades of the wallet whose account this is, when it is one of ours (their fees are recorded); else undefined. */
  ownTrades?(address: string): Promise<readonly TradeInfo[] | undefined>;
  /** The event tags of the rows' markets (condition id → labels), for the totals per tag; undefined where unknown. */
  tagsOf?(rows: readonly TraderActivity[]): Promise<ReadonlyMap<string, readonly string[]> | undefined>;
  /** Polymarket's own figures for the address (closed positions' realized PnL, value); undefined where the source has none. */
  theirs?(address: string): Promise<TheirFigures | undefined>;
  now?: () => number;
}

export function ledgerFigures(options: LedgerFiguresOptions): PortfolioLedger {
  const now = options.now ?? Date.now;
  /** The chain's record of each trade's fee; without a chain (or when it does not answer), the exchange's. */
  const feesFor = async (address: string, rows: readonly TraderActivity[]): Promise<FeeLookup | undefined> => {
    if (options.chainFees) {
      const hashes = rows.filter((r) => r.type.toUpperCase() === 'TRADE').map((r) => r.transactionHash);
      const fees = await options.chainFees(address, hashes).catch(() => undefined);
      if (fees) return feeLookup(fees);
    }
    const trades = await options.ownTrades?.(address);
    return trades ? feesFromTrades(trades) : undefined;
  };
  const ledgerOf = (address: string) =>
    readLedger(options.source, address, { feesFor: (rows) => feesFor(address, rows), tagsFor: options.tagsOf });
  return {
    async figures(address, period): Promise<PortfolioFigures> {
      const [ledger, positions, theirs] = await Promise.all([
        ledgerOf(address),
        options.source.getTraderPositions('polymarket', address),
        options.theirs?.(address),
      ]);
      const { prices, resolutions } = pricesFromPositions(positions);
      const book = buildPortfolio(ledger.entries, { address, prices, resolutions, tags: ledger.tags });
      // Positions only splits and merges spoke of are named from Polymarket's positions of the same outcome.
      nameOutcomes(book, [...positions.map((p) => ({ ...p, tokenId: p.tokenId ?? '' })), ...(theirs?.closed ?? [])]);
      const differences = theirs ? reconcile(book, theirs) : [];
      const tagsOf = (conditionId: string) => [...(ledger.tags?.get(conditionId.toLowerCase()) ?? [])];
      const at = now();
      const points = pnlSeries(ledger.entries, { range: period, now: Math.floor(at / 1000), prices, resolutions });
      const from = period === 'all' ? -Infinity : at - PERIOD_MS[period];
      const series: PnlPoint[] = points
        .filter((p) => p.timestamp * 1000 >= from)
        .map((p) => ({ at: p.timestamp * 1000, pnl: usd(p.total), estimated: isEstimated(p) }));
      const estimates = [...new Set(points.filter(isEstimated).map((p) => p.estimate))].filter(Boolean);
      const openOf = (key: string) => book.open.filter((p) => p.conditionId === key).length;
      const closedOf = (key: string) => book.closed.filter((p) => p.conditionId === key).length;
      return {
        totals: {
          realized: usd(book.totals.realized),
          unrealized: usd(book.totals.unrealized),
          feesPaid: usd(book.totals.fees),
          rewardsEarned: usd(book.totals.rewards),
        },
        open: book.open.map((p) => ({
          conditionId: p.conditionId,
          tokenId: p.tokenId || null,
          question: p.title,
          outcome: p.outcome,
          shares: sharesAmount(p.shares),
          cost: usd(p.cost),
          value: p.value === null ? null : usd(p.value),
          unrealized: p.unrealizedPnl === null ? null : usd(p.unrealizedPnl),
          realized: usd(p.realizedPnl),
          feesPaid: usd(p.fees),
          price: p.currentPrice,
          tags: tagsOf(p.conditionId),
        })),
        closed: [...book.closed]
          .sort((a, b) => b.closedAt - a.closedAt)
          .map((p) => ({
            conditionId: p.conditionId,
            tokenId: p.tokenId || null,
            question: p.title,
            outcome: p.outcome,
            how: p.how,
            closedAt: p.closedAt * 1000,
            shares: sharesAmount(p.sharesBought),
            realized: usd(p.realizedPnl),
            feesPaid: usd(p.fees),
            txHash: p.transactionHash || null,
            tags: tagsOf(p.conditionId),
          })),
        byMarket: group(book.byMarket, (key) => ({ open: openOf(key), closed: closedOf(key) })),
        byTag: group(book.byTag, () => ({ open: 0, closed: 0 })),
        series: {
          period,
          points: series,
          estimatedNote: estimates.length ? `Where dashed, ${estimates.join('; ')}.` : null,
        },
        reconciliation: {
          compared: theirs !== undefined,
          agrees: differences.length === 0,
          lines: differences.map(
            (r) =>
              `${r.label}: ours ${centsText(r.ours)}, Polymarket's ${centsText(r.theirs)} (a difference of ${centsText(r.difference)}). ${r.reason}`,
          ),
        },
        notes: [...ledger.notes, ...book.notes],
      };
    },
    async activityCsv(address, fromMs, toMs) {
      const ledger = await ledgerOf(address);
      // The engine's range is inclusive in seconds; the service's end is the start of the day after.
      const rows = accountingRows(ledger.entries, { from: Math.floor(fromMs / 1000), to: Math.floor(toMs / 1000) - 1 });
      return { csv: accountingCsv(rows), rows: rows.length };
    },
  };
}
