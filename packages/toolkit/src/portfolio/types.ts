// The public shape of a trader's book (docs/toolkit.md#portfolio): ledger entries read from activity, open and
// closed positions, totals, breakdowns, the PnL series and the reconciliation with Polymarket's own figures.
// Every amount is an integer number of collateral base units (6 decimals) or share base units (6 decimals).

/** The kinds of activity a book is built from, as Polymarket's Data API names them. */
export const LEDGER_KINDS = ['TRADE', 'SPLIT', 'MERGE', 'REDEEM', 'CONVERSION', 'REWARD', 'MAKER_REBATE'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** One line of a trader's activity, converted once into base units. */
export interface LedgerEntry {
  kind: LedgerKind;
  /** Unix seconds. */
  timestamp: number;
  conditionId: string;
  /** The outcome token; '' where the row is about a whole condition (split, merge, redeem, reward). */
  tokenId: string;
  outcome: string;
  outcomeIndex: number | null;
  title: string;
  slug: string;
  /** BUY or SELL for trades; for a conversion, the shares received (BUY) or given (SELL); null otherwise. */
  side: 'BUY' | 'SELL' | null;
  /** Shares in base units (6 decimals). */
  shares: bigint;
  /** The price the row states (trades), for display; amounts are never derived from it. */
  price: number | null;
  /** Collateral moved, base units, unsigned, as recorded (the row's usdcSize). */
  amount: bigint;
  /** The fee the trade paid in collateral base units, as recorded at match time; 0n when none or not known. */
  fee: bigint;
  /** Whether `fee` was read from a record (true) or is unknown and taken as 0 (false). */
  feeKnown: boolean;
  transactionHash: string;
}

/** How a position closed: sold on the book, redeemed after resolution, merged into collateral, converted
 * (neg-risk), or lost (its market resolved against it and its shares are worthless). */
export const CLOSE_HOWS = ['sold', 'redeemed', 'merged', 'converted', 'lost'] as const;
export type CloseHow = (typeof CLOSE_HOWS)[number];

/** What identifies a position: one outcome token of one market. */
export interface PositionKey {
  conditionId: string;
  tokenId: string;
  outcome: string;
  outcomeIndex: number | null;
  title: string;
  slug: string;
}

/** A position still held: the average-cost lot left and what it is worth at the price given. */
export interface OpenPosition extends PositionKey {
  /** Share base units held. */
  shares: bigint;
  /** What the shares held cost (average cost), collateral base units. */
  cost: bigint;
  /** cost / shares in dollars per share, for display only. */
  averagePrice: number;
  /** The price it is valued at (0..1), or null when no price is known. */
  currentPrice: number | null;
  /** shares × currentPrice, rounded down to the base unit; null without a price. */
  value: bigint | null;
  /** value − cost; null without a price. */
  unrealizedPnl: bigint | null;
  /** Realized by partial exits so far (fees excluded). */
  realizedPnl: bigint;
  /** Fees paid on this position's trades. */
  fees: bigint;
  openedAt: number;
}

/** A position no longer held: what it cost, what it returned and how it ended. */
export interface ClosedPosition extends PositionKey {
  /** Share base units bought or received over the position's life. */
  sharesBought: bigint;
  /** Total cost of those shares, collateral base units. */
  cost: bigint;
  /** Total collateral received for them (sales, redemptions, merges, conversions). */
  proceeds: bigint;
  /** proceeds − cost (fees excluded: they are in `fees`). */
  realizedPnl: bigint;
  fees: bigint;
  openedAt: number;
  closedAt: number;
  /** How the last shares left. */
  how: CloseHow;
  /** Every way shares left during the position's life, in order of first use (sold, merged … then `how`). */
  exits: CloseHow[];
  /** Some shares came from splitting collateral (at half its cost each) rather than from buying. */
  split: boolean;
  /** The transaction of the closing entry ('' for a loss by resolution, which has none). */
  transactionHash: string;
}

/** Totals in collateral base units. `net` = realized + unrealized − fees + rewards. */
export interface PortfolioTotals {
  realized: bigint;
  unrealized: bigint;
  fees: bigint;
  rewards: bigint;
  /** What the open positions are worth at the prices given (positions without a price count 0). */
  value: bigint;
  net: bigint;
}

/** Totals of one market (key: its condition id) or one event tag (key: the tag). */
export interface PortfolioBreakdown {
  key: string;
  label: string;
  realized: bigint;
  unrealized: bigint;
  fees: bigint;
  rewards: bigint;
}

/** Where Polymarket's own figure and ours differ, by how much and why, in words. */
export interface Reconciliation {
  /** What was compared: `closed:<tokenId>`, `value`. */
  subject: string;
  label: string;
  ours: bigint;
  theirs: bigint;
  /** ours − theirs. */
  difference: bigint;
  reason: string;
}

export interface Portfolio {
  address: string;
  open: OpenPosition[];
  closed: ClosedPosition[];
  totals: PortfolioTotals;
  byMarket: PortfolioBreakdown[];
  byTag: PortfolioBreakdown[];
  /** Differences with Polymarket's figures (empty when they agree or none were given). */
  reconciliation: Reconciliation[];
  /** Plain sentences on what the book could not know (fees not recorded, conversions estimated …). */
  notes: string[];
}

/** A market's resolution: the payout per share of each outcome index, as fractions (1 and 0 for a binary). */
export interface MarketResolution {
  conditionId: string;
  /** Payout per share by outcome index, 0..1. */
  payouts: number[];
  /** Unix seconds; when unknown the last entry's time is used. */
  resolvedAt?: number;
}

export interface PortfolioOptions {
  address: string;
  /** Current price per outcome token (0..1): what open positions are valued at. */
  prices?: ReadonlyMap<string, number>;
  /** Markets that resolved: holdings of a losing outcome close as `lost`, a winner's REDEEM attributes to it. */
  resolutions?: readonly MarketResolution[];
  /** The event tags of each market (condition id → tag labels) for the per-tag breakdown. */
  tags?: ReadonlyMap<string, readonly string[]>;
}

/** What the series spans: the last day (hourly points), week and month (daily points), or all (daily/weekly). */
export const PNL_RANGES = ['day', 'week', 'month', 'all'] as const;
export type PnlRange = (typeof PNL_RANGES)[number];

/** How a point's unrealized part was priced. */
export type PointPricing = 'exact' | 'price-history' | 'last-trade' | 'current-price';

export interface PnlPoint {
  /** Unix seconds: the end of the step. */
  timestamp: number;
  /** Realized so far, fees excluded. */
  realized: bigint;
  /** The open positions at that time, valued as `pricing` says. */
  unrealized: bigint;
  fees: bigint;
  rewards: bigint;
  /** realized + unrealized − fees + rewards. */
  total: bigint;
  /** True when nothing was open at that time (every figure is a recorded amount). */
  exact: boolean;
  pricing: PointPricing;
  /** What was estimated, in words; '' for an exact point. */
  estimate: string;
}

export interface PnlSeriesOptions {
  range: PnlRange;
  /** Unix seconds of "now" (the last point). */
  now: number;
  /** Only points from this time on (Unix seconds). */
  since?: number;
  /** The price of a token at a time, from price history; undefined when history has none. */
  priceAt?: (tokenId: string, timestamp: number) => number | undefined;
  /** Current prices for the last point. */
  prices?: ReadonlyMap<string, number>;
  resolutions?: readonly MarketResolution[];
}

/** Polymarket's own figures to reconcile with. */
export interface TheirFigures {
  /** /closed-positions rows: realizedPnl in dollars per outcome token. */
  closed?: readonly {
    tokenId: string;
    conditionId: string;
    title?: string;
    realizedPnl: number;
    /** The outcome's index and name: they name positions whose rows (splits, merges) did not. */
    outcomeIndex?: number | null;
    outcome?: string;
  }[];
  /** /value: the open positions' value in dollars, or null when the API has no row. */
  value?: number | null;
}

/** One row of the accounting export. */
export interface AccountingRow {
  /** ISO 8601 UTC. */
  date: string;
  type: string;
  market: string;
  outcome: string;
  /** Shares, 6 decimals exact ('' where the row has none). */
  shares: string;
  /** Price as recorded ('' where the row has none). */
  price: string;
  /** Collateral in (+) or out (−) of the wallet, dollars with 6 decimals exact; fees not included. */
  amount: string;
  /** Fee paid, dollars with 6 decimals exact. */
  fee: string;
  transactionHash: string;
}

export interface AccountingExportOptions {
  /** Unix seconds, inclusive. */
  from?: number;
  /** Unix seconds, inclusive. */
  to?: number;
}
