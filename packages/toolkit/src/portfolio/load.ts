// Reading a trader's book through a market source: every activity page (bounded), the open positions' prices
// and resolutions from Polymarket's positions, then the portfolio built and reconciled with Polymarket's figures.
import type { TraderActivity, TraderPosition } from '../model/market-model';
import type { MarketSource } from '../model/market-source';
import { buildPortfolio } from './build';
import { ledgerEntries, type FeeLookup } from './entries';
import { reconcile } from './reconcile';
import type { LedgerEntry, MarketResolution, Portfolio, TheirFigures } from './types';

/** Rows a page of activity asks for, and the most the Data API pages to (its 10,000 offset cap plus a page). */
export const ACTIVITY_PAGE = 500;
export const ACTIVITY_MAX_ROWS = 10_500;

export type ActivityReader = Pick<MarketSource, 'getTraderActivity'>;

export interface LedgerRead {
  entries: LedgerEntry[];
  /** True when the activity went past the rows the Data API pages to: the oldest history is missing. */
  truncated: boolean;
  notes: string[];
  /** The event tags of the rows' markets (condition id → labels), when `tagsFor` was given and answered. */
  tags?: ReadonlyMap<string, readonly string[]>;
}

/** Every activity row of the address, newest first, as far as the Data API pages. */
export async function readActivity(
  source: ActivityReader,
  address: string,
  maxRows = ACTIVITY_MAX_ROWS,
): Promise<{ rows: TraderActivity[]; truncated: boolean }> {
  const rows: TraderActivity[] = [];
  for (let offset = 0; offset < maxRows; offset += ACTIVITY_PAGE) {
    const page = await source.getTraderActivity(address, { limit: ACTIVITY_PAGE, offset });
    rows.push(...page);
    if (page.length < ACTIVITY_PAGE) return { rows, truncated: false };
  }
  return { rows, truncated: true };
}

/** The address's ledger (oldest first) with what it could not know said in `notes`. */
export async function readLedger(
  source: ActivityReader,
  address: string,
  options: Pick<LoadPortfolioOptions, 'fees' | 'feesFor' | 'tagsFor' | 'maxRows'> = {},
): Promise<LedgerRead> {
  const { rows, truncated } = await readActivity(source, address, options.maxRows);
  // Tags are a grouping, not money: a source that cannot tell them leaves the book whole, grouped per market only.
  const [fees, tags] = await Promise.all([
    options.fees ?? options.feesFor?.(rows),
    options.tagsFor?.(rows).catch(() => undefined),
  ]);
  const { entries, skipped, feesUnknown } = ledgerEntries(rows, fees);
  const notes: string[] = [];
  if (truncated)
    notes.push(`Only the newest ${rows.length} activity rows could be read: older history is not in this book.`);
  if (feesUnknown)
    notes.push(`${feesUnknown} trade(s) have no fee record here: their fees count as 0 (fees are set at match time).`);
  if (skipped) notes.push(`${skipped} row(s) of other kinds (deposits, withdrawals …) move no position.`);
  return { entries, truncated, notes, ...(tags ? { tags } : {}) };
}

/** Current prices by token, and resolutions of markets Polymarket calls redeemable, from its positions. */
export function pricesFromPositions(positions: readonly TraderPosition[]): {
  prices: Map<string, number>;
  resolutions: MarketResolution[];
} {
  const prices = new Map<string, number>();
  const resolutions = new Map<string, number[]>();
  for (const p of positions) {
    if (p.tokenId) prices.set(p.tokenId, p.currentPrice);
    if (p.redeemable && p.conditionId && p.outcomeIndex !== null && p.outcomeIndex !== undefined) {
      const payouts = resolutions.get(p.conditionId) ?? [];
      payouts[p.outcomeIndex] = p.currentPrice >= 0.5 ? 1 : 0;
      resolutions.set(p.conditionId, payouts);
    }
  }
  return {
    prices,
    resolutions: [...resolutions].map(([conditionId, payouts]) => ({
      conditionId,
      // The other outcome of a binary market pays what this one does not.
      payouts:
        payouts.length === 1 || payouts[1] === undefined
          ? [payouts[0]!, 1 - payouts[0]!]
          : [...payouts].map((v, i) => v ?? 1 - payouts[1 - i]!),
    })),
  };
}

export interface LoadPortfolioOptions {
  fees?: FeeLookup;
  /** A fee lookup built from the rows read (fees read from the chain for exactly those trades). */
  feesFor?: (rows: readonly TraderActivity[]) => Promise<FeeLookup | undefined>;
  tags?: ReadonlyMap<string, readonly string[]>;
  /** The event tags of the markets in the rows read (condition id → labels); `tags` wins when both are given. */
  tagsFor?: (rows: readonly TraderActivity[]) => Promise<ReadonlyMap<string, readonly string[]> | undefined>;
  resolutions?: readonly MarketResolution[];
  /** Polymarket's own figures; read by the caller (closed positions, value) where the source has them. */
  theirs?: TheirFigures;
  maxRows?: number;
}

/** The address's portfolio: ledger from activity, prices from positions, reconciled with `theirs`. */
export async function loadPortfolio(
  source: Pick<MarketSource, 'getTraderActivity' | 'getTraderPositions'>,
  address: string,
  options: LoadPortfolioOptions = {},
): Promise<Portfolio & { entries: LedgerEntry[] }> {
  const [ledger, positions] = await Promise.all([
    readLedger(source, address, options),
    source.getTraderPositions('polymarket', address),
  ]);
  const { prices, resolutions } = pricesFromPositions(positions);
  const portfolio = buildPortfolio(ledger.entries, {
    address,
    prices,
    resolutions: [...(options.resolutions ?? []), ...resolutions],
    tags: options.tags ?? ledger.tags,
  });
  nameOutcomes(portfolio, [
    ...positions.map((p) => ({ ...p, tokenId: p.tokenId ?? '' })),
    ...(options.theirs?.closed ?? []),
  ]);
  return {
    ...portfolio,
    reconciliation: options.theirs ? reconcile(portfolio, options.theirs) : [],
    notes: [...ledger.notes, ...portfolio.notes],
    entries: ledger.entries,
  };
}

/** What names an outcome: its market, index, token and name, as positions and closed positions state them. */
interface KnownOutcome {
  conditionId?: string | null;
  outcomeIndex?: number | null;
  tokenId: string;
  outcome?: string;
}

/**
 * Fills in the token and name of positions that only splits and merges spoke of (those rows name a market, not
 * an outcome) from Polymarket's positions of the same market and outcome index.
 */
export function nameOutcomes(portfolio: Portfolio, known: readonly KnownOutcome[]): void {
  const byOutcome = new Map<string, KnownOutcome>();
  for (const k of known)
    if (k.conditionId && k.outcomeIndex !== null && k.outcomeIndex !== undefined && k.tokenId)
      byOutcome.set(`${k.conditionId.toLowerCase()}:${k.outcomeIndex}`, k);
  for (const p of [...portfolio.open, ...portfolio.closed]) {
    if (p.tokenId && p.outcome) continue;
    const k = byOutcome.get(`${p.conditionId.toLowerCase()}:${p.outcomeIndex}`);
    if (!k) continue;
    p.tokenId ||= k.tokenId;
    p.outcome ||= k.outcome ?? '';
  }
}
