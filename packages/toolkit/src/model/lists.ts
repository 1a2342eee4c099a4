// The fixed lists of names the toolkit and its callers share (providers, market-data sources, chart widths), kept
// in the pure model so a page or the app's contract takes them from here instead of keeping a copy that drifts.

/** The providers the aggregator lists (one at a time); Polymarket direct has only polymarket. */
export const PROTOCOLS = ['polymarket', 'limitless', 'truemarket'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** Where a network reads markets: Polymarket's own APIs, or the aggregator. */
export const MARKET_SOURCE_KINDS = ['polymarket', 'aggregator'] as const;
export type MarketSourceKind = (typeof MARKET_SOURCE_KINDS)[number];

/** The chart ranges the terminal offers, a minute to a week; each source turns one into its own query. */
export const CHART_INTERVALS = ['1m', '5m', '15m', '1h', '6h', '1d', '1w'] as const;
export type ChartInterval = (typeof CHART_INTERVALS)[number];
