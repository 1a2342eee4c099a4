// The Portfolio view's pure model: the PnL chart's lines (measured stretches solid, estimated ones apart so they
// are drawn dashed), the export's default days and their checks, and the words for how a position closed.
import type { CloseKind, PnlPoint } from '../../../shared/contract';

/** Whose portfolio the view shows: a wallet's trading account, or any address. */
export type PortfolioOwner = { wallet: string } | { address: string };

export interface ChartLine {
  /** An SVG path ("M x y L x y …") in the chart's own coordinates. */
  d: string;
  estimated: boolean;
}

export interface PnlChartPlan {
  lines: ChartLine[];
  /** The y of $0, when it is inside the chart. */
  zeroY: number | null;
  /** The lowest and highest PnL shown, in base units. */
  low: bigint;
  high: bigint;
  first: number | null;
  last: number | null;
}

/**
 * Places the points in a `width` × `height` box (time across, PnL up) and cuts the line where it changes between
 * measured and estimated: a stretch is estimated when either of its ends is, so the dashed part covers every
 * span whose value was guessed. Amounts stay exact until they become pixels.
 */
export function planPnlChart(points: readonly PnlPoint[], width: number, height: number): PnlChartPlan {
  if (points.length === 0) return { lines: [], zeroY: null, low: 0n, high: 0n, first: null, last: null };
  const values = points.map((p) => BigInt(p.pnl.units));
  let low = values.reduce((a, b) => (b < a ? b : a));
  let high = values.reduce((a, b) => (b > a ? b : a));
  // A flat line sits mid-chart, and $0 stays in view so gains and losses read against it.
  if (low > 0n) low = 0n;
  if (high < 0n) high = 0n;
  const spread = high === low ? 1n : high - low;
  const first = points[0]!.at;
  const last = points[points.length - 1]!.at;
  const span = last === first ? 1 : last - first;
  const x = (at: number) => (points.length === 1 ? width / 2 : ((at - first) / span) * width);
  const y = (units: bigint) =>
    high === low ? height / 2 : height - (Number(((units - low) * 10_000n) / spread) / 10_000) * height;
  const round = (n: number) => Math.round(n * 10) / 10;
  const lines: ChartLine[] = [];
  if (points.length === 1) {
    const py = round(y(values[0]!));
    lines.push({ d: `M ${round(x(first)) - 2} ${py} L ${round(x(first)) + 2} ${py}`, estimated: points[0]!.estimated });
  }
  for (let i = 1; i < points.length; i++) {
    const estimated = points[i - 1]!.estimated || points[i]!.estimated;
    const from = `${round(x(points[i - 1]!.at))} ${round(y(values[i - 1]!))}`;
    const to = `${round(x(points[i]!.at))} ${round(y(values[i]!))}`;
    const open = lines[lines.length - 1];
    if (open && open.estimated === estimated) open.d += ` L ${to}`;
    else lines.push({ d: `M ${from} L ${to}`, estimated });
  }
  const zeroY = low <= 0n && high >= 0n ? round(y(0n)) : null;
  return { lines, zeroY, low, high, first, last };
}

/** Base units of collateral as a signed dollars-and-cents figure, rounded half away from zero ("+$1.25", "−$0.40"). */
export function signedCents(units: string | bigint): string {
  const value = typeof units === 'bigint' ? units : BigInt(units);
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const cents = (abs + 5_000n) / 10_000n;
  const dollars = (cents / 100n).toLocaleString('en-US');
  const text = `$${dollars}.${(cents % 100n).toString().padStart(2, '0')}`;
  if (cents === 0n) return text;
  return `${negative ? '−' : '+'}${text}`;
}

export const CLOSE_WORDS: Record<CloseKind, string> = {
  sold: 'Sold',
  redeemed: 'Redeemed',
  merged: 'Merged',
  converted: 'Converted',
  lost: 'Lost at resolution',
};

const DAY_MS = 86_400_000;
const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);

/** The export's days when the dialog opens: the last 30 days up to today (UTC). */
export function defaultExportDays(now: number): { from: string; to: string } {
  return { from: isoDay(now - 29 * DAY_MS), to: isoDay(now) };
}

/** Why the export cannot run with these days, in the trader's words; null when it can. */
export function exportDaysProblem(from: string, to: string): string | null {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  if (!day.test(from) || Number.isNaN(Date.parse(`${from}T00:00:00Z`))) return 'Choose the first day.';
  if (!day.test(to) || Number.isNaN(Date.parse(`${to}T00:00:00Z`))) return 'Choose the last day.';
  if (from > to) return 'The first day is after the last.';
  return null;
}
