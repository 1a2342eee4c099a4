// Our book against Polymarket's own figures (/closed-positions realizedPnl per outcome, /value): every
// difference returned with its size and a reason in words, so a trader sees why two numbers disagree.
import { ErrorCode, PmDeskError } from '../model/errors';
import { unitsOf } from './entries';
import type { ClosedPosition, Portfolio, Reconciliation, TheirFigures } from './types';

/** Polymarket rounds its dollar figures; differences this small are its rounding, not a disagreement. */
const ROUNDING_UNITS = 10n;

function signedUnits(dollars: number): bigint {
  return dollars < 0 ? -unitsOf(-dollars, 'figure') : unitsOf(dollars, 'figure');
}

function closedReason(ours: ClosedPosition[], theirs: bigint | undefined): string {
  if (theirs === undefined) {
    if (ours.some((c) => c.how === 'lost'))
      return 'Polymarket lists no closed position for this outcome: a loss by resolution that was never redeemed stays a position there.';
    return 'Polymarket lists no closed position for this outcome (it leaves out positions under $1 and may not have indexed it yet).';
  }
  if (ours.length === 0)
    return 'The activity read has no closed position here: its history reaches further back than the rows the Data API pages, or the shares came by transfer.';
  if (ours.some((c) => c.split || c.exits.includes('merged') || c.exits.includes('converted')))
    return "Split, merged or converted shares: Polymarket counts each outcome's side of a split or merge at 0.50 a share, the book shares a merge's collateral between the outcomes by their cost (the two outcomes' total is the same).";
  if (ours.some((c) => c.how === 'redeemed' || c.how === 'lost'))
    return "Redeemed after resolution: Polymarket's figure comes from its rounded average price, the book's from exact base units.";
  return "Polymarket's realizedPnl comes from its rounded average price; the book keeps exact average cost in base units.";
}

/** The differences between the portfolio and Polymarket's figures (none when every figure agrees). */
export function reconcile(portfolio: Portfolio, theirs: TheirFigures): Reconciliation[] {
  const out: Reconciliation[] = [];
  if (theirs.closed) {
    const oursByToken = new Map<string, ClosedPosition[]>();
    for (const c of portfolio.closed) {
      const key = c.tokenId || `${c.conditionId}:${c.outcomeIndex}`;
      oursByToken.set(key, [...(oursByToken.get(key) ?? []), c]);
    }
    const theirsByToken = new Map<string, { units: bigint; title: string }>();
    for (const row of theirs.closed) {
      const prior = theirsByToken.get(row.tokenId);
      theirsByToken.set(row.tokenId, {
        units: (prior?.units ?? 0n) + signedUnits(row.realizedPnl),
        title: row.title ?? row.tokenId,
      });
    }
    for (const key of new Set([...oursByToken.keys(), ...theirsByToken.keys()])) {
      const mine = oursByToken.get(key) ?? [];
      const ours = mine.reduce((s, c) => s + c.realizedPnl, 0n);
      const their = theirsByToken.get(key);
      const difference = ours - (their?.units ?? 0n);
      if (their && (difference < 0n ? -difference : difference) <= ROUNDING_UNITS) continue;
      if (!their && ours === 0n) continue;
      out.push({
        subject: `closed:${key}`,
        label: mine[0] ? `${mine[0].title} — ${mine[0].outcome}` : (their?.title ?? key),
        ours,
        theirs: their?.units ?? 0n,
        difference,
        reason: closedReason(mine, their?.units),
      });
    }
  }
  if (theirs.value !== undefined) {
    const their = theirs.value === null ? 0n : signedUnits(theirs.value);
    const difference = portfolio.totals.value - their;
    if ((difference < 0n ? -difference : difference) > ROUNDING_UNITS)
      out.push({
        subject: 'value',
        label: 'Value of open positions',
        ours: portfolio.totals.value,
        theirs: their,
        difference,
        reason:
          theirs.value === null
            ? 'Polymarket has no value for this address.'
            : 'The prices differ in time (Polymarket values at its own last price), or positions under its size threshold are left out there.',
      });
  }
  return out;
}

/** What Polymarket's figures are read through: its Data API client (`PolymarketSource.data`), structurally. */
export interface FiguresReader {
  getPositions(
    user: string,
    query: { status: 'CLOSED' },
  ): Promise<
    readonly {
      asset: string;
      conditionId?: string | null;
      title?: string;
      realizedPnl?: number | null;
      outcomeIndex?: number | null;
      outcome?: string;
    }[]
  >;
  getValue(user: string): Promise<number | null>;
}

/**
 * Polymarket's own figures for an address: its closed positions' realized PnL (the Data API v2 only) and the value
 * of what it holds. A host without the v2 feed has no closed positions to compare: the value is still compared.
 */
export async function readTheirFigures(data: FiguresReader, address: string): Promise<TheirFigures> {
  const [closed, value] = await Promise.all([
    data.getPositions(address, { status: 'CLOSED' }).catch((error: unknown) => {
      if (error instanceof PmDeskError && error.code === ErrorCode.NOT_AVAILABLE) return undefined;
      throw error;
    }),
    data.getValue(address),
  ]);
  return {
    closed: closed?.map((p) => ({
      tokenId: p.asset,
      conditionId: p.conditionId ?? '',
      title: p.title,
      realizedPnl: p.realizedPnl ?? 0,
      outcomeIndex: p.outcomeIndex,
      outcome: p.outcome,
    })),
    value,
  };
}
