// Every path PM Desk reads from Polymarket's public APIs (Gamma, Data API, CLOB public reads), the page sizes it
// asks for, and the request budgets it keeps per host: one table a reader can check against docs/protocol.md#endpoints.
import { CLOB_PATHS } from '../clob/endpoints';

export const GAMMA_PATHS = {
  /** Deprecated offset lists (Sunset 2026-05-01): read only when their keyset list answers 404. */
  events: '/events',
  markets: '/markets',
  eventsKeyset: '/events/keyset',
  marketsKeyset: '/markets/keyset',
  event: '/events/{id}',
  eventBySlug: '/events/slug/{slug}',
  market: '/markets/{id}',
  marketBySlug: '/markets/slug/{slug}',
  publicSearch: '/public-search',
  comments: '/comments',
  publicProfile: '/public-profile',
} as const;

export const DATA_PATHS = {
  positions: '/positions',
  activity: '/activity',
  trades: '/trades',
  value: '/value',
  /** Polymarket's accounting snapshot of a wallet: a ZIP of CSV files (positions, equity). */
  accountingSnapshot: '/v1/accounting/snapshot',
  traded: '/traded',
} as const;

/** The Data API v2 feeds: server cursors, no offsets (Polymarket/ts-sdk `client/src/actions/{activity,portfolio}.ts`). */
export const DATA_V2_PATHS = {
  positions: '/v2/positions',
  activity: '/v2/activity',
  trades: '/v2/trades',
} as const;
/** A v2 page holds at most 1000 rows (more is refused, not clamped). */
export const DATA_V2_PAGE_MAX = 1000;
/** The Data API's shared selector cap: at most 20 distinct condition ids a request. */
export const DATA_V2_MAX_CONDITION_IDS = 20;

export const CLOB_READ_PATHS = {
  book: CLOB_PATHS.GET_ORDER_BOOK,
  pricesHistory: CLOB_PATHS.GET_PRICES_HISTORY,
  liveActivity: `${CLOB_PATHS.GET_MARKET_TRADES_EVENTS_V2}{conditionId}`,
} as const;

/** Per-request timeout for Polymarket's public reads: they answer in well under a second when healthy. */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** The largest answer accepted from a public read (a page of events with all their markets stays far below). */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

export const EVENTS_PAGE_SIZE = 50;
/** Gamma's keyset lists answer at most 100 rows a page; a larger limit is read as several pages. */
export const KEYSET_PAGE_MAX = 100;
/**
 * Rows a list may skip to reach an offset by walking keyset pages from the nearest known cursor: ten pages.
 * Past it the caller continues with the cursor (`--cursor`), which costs one request.
 */
export const KEYSET_MAX_SKIP = 1_000;
export const COMMENTS_PAGE_SIZE = 100;
/** Gamma refuses a comments offset past 200 (a 422; issue 27): offset paging stops at that page. */
export const COMMENTS_MAX_OFFSET = 200;
/** Comments read for one event at most: every page offset paging can reach (offsets 0, 100 and 200), newest first. */
export const MAX_COMMENTS = COMMENTS_MAX_OFFSET + COMMENTS_PAGE_SIZE;
export const POSITIONS_PAGE_SIZE = 500;
/** The Data API refuses an offset above 10,000 (docs/protocol.md#data-api). */
export const DATA_MAX_OFFSET = 10_000;
export const TRADES_PAGE_SIZE = 100;
/** Recent fills read for a market's tape seed and chart volume. */
export const FILL_HISTORY_LIMIT = 500;
export const SEARCH_PAGES_MAX = 5;

/** One budget: at most `limit` requests in any `windowMs`. */
export interface RateBudget {
  limit: number;
  windowMs: number;
}

/**
 * Budgets per host and endpoint class, each about 80 % of the published limit per 10 s (docs/protocol.md#rate-limits), so
 * Cloudflare's throttling is not where PM Desk learns it asked too much. `general` applies to every request to
 * the host as well as its class's own budget.
 */
export const RATE_BUDGETS = {
  gamma: {
    general: { limit: 3_200, windowMs: 10_000 },
    events: { limit: 400, windowMs: 10_000 },
    markets: { limit: 240, windowMs: 10_000 },
    comments: { limit: 160, windowMs: 10_000 },
    search: { limit: 280, windowMs: 10_000 },
  },
  data: {
    general: { limit: 800, windowMs: 10_000 },
    trades: { limit: 160, windowMs: 10_000 },
    positions: { limit: 120, windowMs: 10_000 },
  },
  clob: {
    general: { limit: 7_200, windowMs: 10_000 },
    book: { limit: 1_200, windowMs: 10_000 },
    pricesHistory: { limit: 800, windowMs: 10_000 },
  },
} as const satisfies Record<string, Record<string, RateBudget>>;

/** Retries of a throttled GET (429, or 503 with Retry-After): the toolkit's one policy (http/retry.ts). */
export { RETRY_POLICY } from '../http/retry';
