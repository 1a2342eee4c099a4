// The portfolio of an account (the one a wallet trades from, or any address): open and closed positions with
// realized PnL and how each closed, totals, groups by market and event tag, a PnL series, the reconciliation with
// Polymarket's own figures, and the accounting export of a date range as CSV.
import { z } from 'zod';
import type { MoneyAmount } from './account';
import { label, op } from './inputs';

/** The stretches the PnL chart covers: the last day, week, month, or everything the account did. */
export const PORTFOLIO_PERIODS = ['day', 'week', 'month', 'all'] as const;
export type PortfolioPeriod = (typeof PORTFOLIO_PERIODS)[number];

/** How a position closed: sold, redeemed after resolution, merged back into collateral, converted, or lost. */
export const CLOSE_KINDS = ['sold', 'redeemed', 'merged', 'converted', 'lost'] as const;
export type CloseKind = (typeof CLOSE_KINDS)[number];

/** The four totals, each exact (base units) with its dollars-and-cents text. */
export interface PortfolioTotals {
  realized: MoneyAmount;
  unrealized: MoneyAmount;
  feesPaid: MoneyAmount;
  rewardsEarned: MoneyAmount;
}

export interface PortfolioOpenPosition {
  conditionId: string;
  tokenId: string | null;
  question: string;
  outcome: string;
  /** Shares held (6-decimal base units). */
  shares: MoneyAmount;
  /** What the held shares cost, fees excluded. */
  cost: MoneyAmount;
  /** What they are worth at the current price; null when no price is known for the outcome. */
  value: MoneyAmount | null;
  unrealized: MoneyAmount | null;
  /** Realized so far on the part already sold out of this position (fees not included). */
  realized: MoneyAmount;
  /** Fees paid on this position's trades so far. */
  feesPaid: MoneyAmount;
  /** The price the value is taken at (0..1), or null when none is known. */
  price: number | null;
  tags: string[];
}

export interface PortfolioClosedPosition {
  conditionId: string;
  tokenId: string | null;
  question: string;
  outcome: string;
  how: CloseKind;
  /** When it closed (Unix ms). */
  closedAt: number;
  /** Shares that went out (sold, redeemed, merged, converted or lost). */
  shares: MoneyAmount;
  realized: MoneyAmount;
  feesPaid: MoneyAmount;
  /** The transaction that closed it, when known. */
  txHash: string | null;
  tags: string[];
}

/** One market's or one event tag's sums. */
export interface PortfolioGroup {
  key: string;
  label: string;
  realized: MoneyAmount;
  unrealized: MoneyAmount;
  feesPaid: MoneyAmount;
  openCount: number;
  closedCount: number;
}

/** A point of the PnL series: cumulative PnL (realized + unrealized) at a time; `estimated` where it was priced without a recorded price. */
export interface PnlPoint {
  at: number;
  pnl: MoneyAmount;
  estimated: boolean;
}

export interface PnlSeries {
  period: PortfolioPeriod;
  points: PnlPoint[];
  /** What is estimated and why, in a sentence; null when every point is priced from a recorded price. */
  estimatedNote: string | null;
}

/** Where our figures and Polymarket's differ, said in words (one line a difference); `agrees` when none do. */
export interface PortfolioReconciliation {
  /** False when the source has no figures of its own to compare with. */
  compared: boolean;
  agrees: boolean;
  lines: string[];
}

export interface Portfolio {
  /** The account the figures are about. */
  address: string;
  /** The wallet whose trading account it is, when asked by wallet. */
  wallet: string | null;
  /** When it was built (Unix ms); it is kept a short while and built again after the account's fills and money actions. */
  asOf: number;
  totals: PortfolioTotals;
  open: PortfolioOpenPosition[];
  closed: PortfolioClosedPosition[];
  byMarket: PortfolioGroup[];
  byTag: PortfolioGroup[];
  series: PnlSeries;
  reconciliation: PortfolioReconciliation;
  /** What the book could not know (history past the pages read, fees without a record), in sentences. */
  notes: string[];
}

/** The CSV of an account's activity between two days, for the page to save as a file. */
export interface ActivityExport {
  address: string;
  fileName: string;
  csv: string;
  rows: number;
  from: string;
  to: string;
}

/** Polymarket's own accounting snapshot of an account: the ZIP its Data API serves, as base64 for the page to save. */
export interface AccountingSnapshot {
  address: string;
  fileName: string;
  /** The ZIP's bytes, base64. */
  zipBase64: string;
  bytes: number;
}

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an address is 0x and 40 hex digits');
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day is written YYYY-MM-DD');
/** Whose portfolio: a wallet's trading account, or any address (the trader profile's); exactly one. */
const whose = {
  wallet: label.optional(),
  address: address.optional(),
};
const oneOwner = (v: { wallet?: string; address?: string }) => (v.wallet === undefined) !== (v.address === undefined);
const ONE_OWNER = { message: 'name a wallet or an address, not both and not neither' };

/** A calendar day as given, checked to exist (no 2026-02-30). */
export function dayProblem(text: string): string | null {
  const at = Date.parse(`${text}T00:00:00Z`);
  if (Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== text)
    return `${text} is not a day of the calendar.`;
  return null;
}

export const portfolioOperations = {
  getPortfolio: op<Portfolio>()(
    z
      .strictObject({ ...whose, period: z.enum(PORTFOLIO_PERIODS).default('all'), fresh: z.boolean().optional() })
      .refine(oneOwner, ONE_OWNER),
    {
      summary:
        "An account's portfolio: open and closed positions, realized and unrealized PnL, fees, rewards, groups and a PnL series.",
    },
  ),
  exportActivity: op<ActivityExport>()(
    z
      .strictObject({ ...whose, from: day, to: day })
      .refine(oneOwner, ONE_OWNER)
      .refine((v) => dayProblem(v.from) === null && dayProblem(v.to) === null, {
        message: 'from and to must be days of the calendar',
      })
      .refine((v) => v.from <= v.to, { message: 'from must not be after to' }),
    {
      summary:
        "An account's trades, fees, redemptions, splits, merges, conversions and rewards between two days (UTC), as CSV.",
    },
  ),
  downloadAccountingSnapshot: op<AccountingSnapshot>()(z.strictObject(whose).refine(oneOwner, ONE_OWNER), {
    summary:
      "Polymarket's own accounting snapshot of an account (a ZIP of its positions and equity), where the source has one.",
  }),
} as const;
