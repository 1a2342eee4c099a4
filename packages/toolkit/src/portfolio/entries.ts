// Activity rows into ledger entries: each amount converted once into integer base units, each kind checked,
// each trade's fee taken from a record of the match (never recomputed from a rate).
import { invalidParameter } from '../model/errors';
import type { TraderActivity } from '../model/market-model';
import { LEDGER_KINDS, type LedgerEntry, type LedgerKind } from './types';

const SCALE = 1_000_000n;

/**
 * A trade's recorded fee, in collateral base units, for one activity row (the exchange's OrderFilled `fee`, the
 * CLOB's trade record …); undefined when no record is known for it.
 */
export type FeeLookup = (row: TraderActivity) => bigint | undefined;

/** Dollars or shares (a number with at most 6 meaningful decimals) as base units, rounded half up once. */
export function unitsOf(x: number, what = 'amount'): bigint {
  if (!Number.isFinite(x) || x < 0 || x > 1e15) throw invalidParameter(`The ${what} ${String(x)} is not an amount.`);
  const [whole, fraction = ''] = x.toFixed(6).split('.');
  return BigInt(whole!) * SCALE + BigInt(fraction.padEnd(6, '0'));
}

/** Base units as dollars (or shares) with exactly 6 decimals, signed: -12.340000. */
export function unitsText(units: bigint): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  return `${negative ? '-' : ''}${abs / SCALE}.${(abs % SCALE).toString().padStart(6, '0')}`;
}

function kindOf(type: string): LedgerKind | undefined {
  const upper = type.toUpperCase();
  return (LEDGER_KINDS as readonly string[]).includes(upper) ? (upper as LedgerKind) : undefined;
}

/**
 * The ledger of an address's activity, oldest first (rows of one transaction keep their order). Rows of a kind
 * the book does not know are left out and counted in `skipped` (deposits and withdrawals move no position).
 */
export function ledgerEntries(
  rows: readonly TraderActivity[],
  fees?: FeeLookup,
): { entries: LedgerEntry[]; skipped: number; feesUnknown: number } {
  const entries: LedgerEntry[] = [];
  let skipped = 0;
  let feesUnknown = 0;
  rows.forEach((row) => {
    const kind = kindOf(row.type);
    if (!kind) {
      skipped++;
      return;
    }
    const recorded = kind === 'TRADE' ? fees?.(row) : undefined;
    if (kind === 'TRADE' && recorded === undefined) feesUnknown++;
    entries.push({
      kind,
      timestamp: row.timestamp,
      conditionId: row.conditionId,
      tokenId: row.tokenId,
      outcome: row.outcome,
      outcomeIndex: row.outcomeIndex,
      title: row.title,
      slug: row.slug,
      // A conversion row says whether its shares were given (SELL) or received (BUY).
      side: kind === 'TRADE' || kind === 'CONVERSION' ? row.side : null,
      shares: unitsOf(row.size, 'share count'),
      price: kind === 'TRADE' ? row.price : null,
      amount: unitsOf(row.usdcSize, 'collateral amount'),
      fee: recorded ?? 0n,
      feeKnown: kind !== 'TRADE' || recorded !== undefined,
      transactionHash: row.transactionHash,
    });
  });
  // Activity is read newest first; the book is kept oldest first. The sort is stable, so the reversed order
  // keeps rows of one second in the order they happened.
  entries.reverse();
  entries.sort((a, b) => a.timestamp - b.timestamp);
  return { entries, skipped, feesUnknown };
}
