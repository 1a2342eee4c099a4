// The markets grid's rows and columns as plain data: one row per market (with its event's title, outcomes
// priced by the price model, its own volume, liquidity, 24 h change and end date), the protocol filter, sort
// orders, the column chooser's choices and the watchlist toggle. No React and no DOM here, so the unit tests
// check it directly and the grid stays a view. Grouping under events is in groups.ts.
import type { Market, MarketState, PredictionEvent, SearchMatch } from '@pmdesk/toolkit/model';
import { marketState } from '@pmdesk/toolkit/model';
import { PROTOCOLS, type Protocol } from '../../../shared/contract';
import { centsText } from '../format/numbers';
import { quoteCents, quoteFromRecord, type Quote } from './quote';

/** What the price model needs of a market record to price its outcomes (kept on the row, not the whole market). */
export type QuoteRecord = Pick<Market, 'position_tokens' | 'bestBid' | 'bestAsk' | 'lastTradePrice'>;

export interface OutcomePrice {
  name: string;
  /** The outcome's token: its live quote while its market is the one open. */
  tokenId: string;
  /** The listed snapshot's quote (quoteFromRecord): what the row shows when its market is not open. */
  quote: Quote;
}

/** The event a market came in, as its rows share it: what its group row shows. */
export interface EventFacts {
  id: string;
  title: string;
  /** How many markets the event has (not how many this list holds). */
  marketCount: number;
  volume: number | null;
  volume24h: number | null;
  liquidity: number | null;
  endDate: string;
}

/**
 * One line of the grid: a market, or (kind 'event') the head of a multi-market event whose markets follow it.
 * Rows are immutable: a change builds a new row with the same id.
 */
export interface MarketRow {
  kind: 'market' | 'event';
  /** The market id (the grid's row id, the watchlist's entry); an event row's id is "event:<protocol>:<id>". */
  id: string;
  protocol: Protocol;
  eventId: string | null;
  eventTitle: string;
  /** The market's own label: its outcome inside a multi-market event, else its question. */
  market: string;
  question: string;
  slug: string;
  outcomes: OutcomePrice[];
  /** The record the outcomes were priced from (null for an event row or a market that could not be read). */
  record: QuoteRecord | null;
  /** Dollars traded in this market (an event row: in the event), lifetime and over 24 h; never the event's on a market of several. */
  volume: number | null;
  volume24h: number | null;
  liquidity: number | null;
  /** The first outcome's price change over 24 h (0.03 = +3¢); null when unknown. */
  change24h: number | null;
  /** ISO date the market (or its event) ends; '' when unknown. */
  endDate: string;
  /** Unix ms of endDate, for sorting; null when unknown. */
  endTime: number | null;
  spread: number | null;
  event: EventFacts | null;
  /** The event row a market row sits under (set by groupRows); an event row's own id on the event row. */
  groupId: string | null;
  /** An event row's markets in this list, in list order, and the one priced highest (what its outcomes cell shows). */
  childIds?: string[];
  leader?: MarketRow | null;
  /** An event row's quick-filter text: its own and every market's, so a match on a market keeps its head. */
  searchText?: string;
  /** A market row's state in words (resolved, closed, not taking orders or open); absent on an event row. */
  state?: MarketState;
  /** A sentence when the market could not be loaded (a watchlist entry the aggregator no longer knows). */
  problem?: string;
  /** The market's condition id, when the source states it (what the exchange's reward list names). */
  conditionId?: string | null;
  /** Liquidity rewards paid per day in dollars when the market pays them, else null (set by withRewards). */
  rewardsDaily?: number | null;
}

export const PROTOCOL_FILTERS = ['all', ...PROTOCOLS] as const;
export type ProtocolFilter = (typeof PROTOCOL_FILTERS)[number];

function finite(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

function asProtocol(value: unknown): Protocol {
  return (PROTOCOLS as readonly string[]).includes(value as string) ? (value as Protocol) : 'polymarket';
}

function timeOf(iso: string): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isFinite(t) ? t : null;
}

function factsOf(event: PredictionEvent): EventFacts {
  return {
    id: event.id,
    title: event.title,
    marketCount: event.markets.length,
    volume: finite(event.volume),
    volume24h: finite(event.volume24hr),
    liquidity: finite(event.liquidity),
    endDate: event.endDate ?? '',
  };
}

/** A market's row; `event` when the market came inside one (listEvents, search, slugs), absent from getMarket. */
export function rowOfMarket(
  market: Market,
  event?: PredictionEvent,
  protocol?: Protocol,
  facts: EventFacts | null = event ? factsOf(event) : null,
): MarketRow {
  const endDate = market.end || event?.endDate || '';
  const question = market.question || market.name;
  // A market alone in its event is the event: the event's numbers are its own. A market of several has only
  // what its source states for it (the aggregator reports volume per event only: unknown, never the event's).
  const alone = facts !== null && facts.marketCount <= 1;
  const record: QuoteRecord = {
    position_tokens: market.position_tokens,
    bestBid: market.bestBid,
    bestAsk: market.bestAsk,
    lastTradePrice: market.lastTradePrice,
  };
  return {
    kind: 'market',
    id: market.id,
    protocol: asProtocol(event?.protocol ?? protocol),
    eventId: event?.id ?? null,
    eventTitle: event?.title ?? '',
    market: market.groupItemTitle || question || market.name || market.id,
    question,
    slug: market.slug ?? '',
    outcomes: market.position_tokens.map((t, i) => ({
      name: t.name,
      tokenId: t.token_id,
      quote: quoteFromRecord(record, i),
    })),
    record,
    volume: finite(market.volume) ?? (alone ? (facts?.volume ?? null) : null),
    volume24h: finite(market.volume24hr) ?? (alone ? (facts?.volume24h ?? null) : null),
    liquidity: alone ? (facts?.liquidity ?? null) : null,
    change24h: finite(market.oneDayPriceChange),
    endDate,
    endTime: timeOf(endDate),
    spread: finite(market.spread),
    event: facts,
    groupId: null,
    state: marketState(market),
    conditionId: market.conditionId ?? null,
  };
}

export function rowsOfEvent(event: PredictionEvent): MarketRow[] {
  const facts = factsOf(event);
  return event.markets.map((m) => rowOfMarket(m, event, undefined, facts));
}

/** Rows of several events, each market once (the first event that carries it wins). */
export function rowsOfEvents(events: readonly PredictionEvent[]): MarketRow[] {
  const seen = new Set<string>();
  const rows: MarketRow[] = [];
  for (const event of events) {
    for (const row of rowsOfEvent(event)) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      rows.push(row);
    }
  }
  return rows;
}

/** Search matches, best first, as rows in the same order. */
export function rowsOfMatches(matches: readonly SearchMatch[]): MarketRow[] {
  return rowsOfEvents(matches.map((m) => m.event));
}

/** A watchlist entry that could not be loaded, kept as a row so the trader can see why and unstar it. */
export function missingRow(marketId: string, problem: string): MarketRow {
  return {
    kind: 'market',
    id: marketId,
    protocol: 'polymarket',
    eventId: null,
    eventTitle: '',
    market: `Market ${marketId}`,
    question: '',
    slug: '',
    outcomes: [],
    record: null,
    volume: null,
    volume24h: null,
    liquidity: null,
    change24h: null,
    endDate: '',
    endTime: null,
    spread: null,
    event: null,
    groupId: null,
    problem,
  };
}

/**
 * Each market row's daily liquidity-reward rate from the paying markets (by lower-case condition id; base units
 * read once as dollars for display and sorting) and, with `paysOnly`, only the markets that pay.
 */
export function withRewards(
  rows: readonly MarketRow[],
  paying: Readonly<Record<string, { dailyRate: { units: string } }>>,
  paysOnly: boolean,
): readonly MarketRow[] {
  const out: MarketRow[] = [];
  for (const row of rows) {
    const reward = row.kind === 'market' && row.conditionId ? paying[row.conditionId.toLowerCase()] : undefined;
    if (paysOnly && !reward) continue;
    const rewardsDaily = reward ? Number(reward.dailyRate.units) / 1_000_000 : null;
    out.push((row.rewardsDaily ?? null) === rewardsDaily ? row : { ...row, rewardsDaily });
  }
  return out;
}

export function filterByProtocol(rows: readonly MarketRow[], filter: ProtocolFilter): readonly MarketRow[] {
  return filter === 'all' ? rows : rows.filter((r) => r.protocol === filter);
}

/** Appends `incoming` to `rows`, replacing a row with the same id in place (a page that repeats a market). */
export function mergeRows(rows: readonly MarketRow[], incoming: readonly MarketRow[]): MarketRow[] {
  const at = new Map(rows.map((r, i) => [r.id, i]));
  const out = [...rows];
  for (const row of incoming) {
    const i = at.get(row.id);
    if (i === undefined) {
      at.set(row.id, out.length);
      out.push(row);
    } else out[i] = row;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Sorting: numbers and dates sort with the unknown last in either direction, so a sort by volume shows the
// biggest markets first, not the ones the aggregator left blank.

/** Compares two optional numbers ascending; `descending` says which way the grid is sorting (nulls stay last). */
export function compareNullable(a: number | null, b: number | null, descending = false): number {
  if (a === null && b === null) return 0;
  if (a === null) return descending ? -1 : 1;
  if (b === null) return descending ? 1 : -1;
  return a - b;
}

/**
 * The first outcome's shown price (the YES price of a binary market): what sorting the outcomes column orders
 * by; an event row's is its leading market's.
 */
export function leadPrice(row: MarketRow): number | null {
  if (row.kind === 'event') return row.leader ? leadPrice(row.leader) : null;
  return row.outcomes[0]?.quote.price ?? null;
}

/** How numbers and dates sort on the first click: the biggest number first, the soonest date first. */
export const DESCENDING_FIRST = ['desc', 'asc', null] as const;
export const ASCENDING_FIRST = ['asc', 'desc', null] as const;

// ---------------------------------------------------------------------------------------------------------
// Columns the trader can choose (the star is always there)

export const MARKET_COLUMNS = [
  { id: 'title', label: 'Market' },
  { id: 'outcomes', label: 'Outcomes' },
  { id: 'change', label: '24h change' },
  { id: 'volume', label: 'Volume' },
  { id: 'volume24h', label: '24h volume' },
  { id: 'liquidity', label: 'Liquidity' },
  { id: 'endDate', label: 'Ends' },
  { id: 'spread', label: 'Spread' },
  { id: 'protocol', label: 'Protocol' },
  { id: 'rewards', label: 'Rewards' },
] as const;
export type MarketColumnId = (typeof MARKET_COLUMNS)[number]['id'];

const COLUMN_IDS = new Set<string>(MARKET_COLUMNS.map((c) => c.id));

/** The saved choice, cleaned: unknown ids (from an older version) dropped, each once; the market title always. */
export function chosenColumns(saved: readonly string[]): MarketColumnId[] {
  const out: MarketColumnId[] = [];
  for (const id of saved) if (COLUMN_IDS.has(id) && !out.includes(id as MarketColumnId)) out.push(id as MarketColumnId);
  if (!out.includes('title')) out.unshift('title');
  return out;
}

/** The choice after the trader ticks or unticks one column; the title cannot be hidden (rows need a name). */
export function toggleColumn(current: readonly string[], column: MarketColumnId): MarketColumnId[] {
  const chosen = chosenColumns(current);
  if (column === 'title') return chosen;
  if (chosen.includes(column)) return chosen.filter((c) => c !== column);
  // A column comes back where the chooser lists it, not at the end.
  const order = MARKET_COLUMNS.map((c) => c.id);
  return [...chosen, column].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}

// ---------------------------------------------------------------------------------------------------------
// Watchlist

export function toggleWatch(watchlist: readonly string[], marketId: string): string[] {
  return watchlist.includes(marketId) ? watchlist.filter((id) => id !== marketId) : [...watchlist, marketId];
}

// ---------------------------------------------------------------------------------------------------------
// Display

/** "Yes 55¢ · No 45¢": the listed prices as cents, the way traders read a binary market (a cell's hover text). */
export function outcomesText(outcomes: readonly Pick<OutcomePrice, 'name' | 'quote'>[]): string {
  return outcomes.map((o) => `${o.name} ${o.quote.price === null ? '–' : quoteCents(o.quote.price)}`).join(' · ');
}

/** "+3¢", "−1.5¢", "0¢": a 24 h change in cents with its sign; "–" when unknown. */
export function formatChange(change: number | null): string {
  if (change === null) return '–';
  const cents = Math.round(change * 1000) / 10;
  if (cents === 0) return '0¢';
  return `${cents > 0 ? '+' : '−'}${centsText(Math.abs(cents) / 100)}¢`;
}

/** "1 market", "3 markets". */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** $1.2M, $45.3K, $812: compact dollars for a narrow column. */
export function formatDollars(value: number | null): string {
  if (value === null) return '–';
  const abs = Math.abs(value);
  if (abs >= 1e9) return `$${(value / 1e9).toFixed(1)}B`;
  if (abs >= 1e6) return `$${(value / 1e6).toFixed(1)}M`;
  if (abs >= 1e3) return `$${(value / 1e3).toFixed(1)}K`;
  return `$${value.toFixed(0)}`;
}

/** "16 Dec 2026" in UTC, so the date is the market's and not shifted by the trader's time zone. */
export function formatEndDate(endTime: number | null): string {
  if (endTime === null) return '–';
  return new Date(endTime).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** What the grid's quick filter matches a row on: its names and outcomes, not its numbers. */
export function quickFilterTextOf(row: MarketRow): string {
  if (row.searchText !== undefined) return row.searchText;
  return `${row.eventTitle} ${row.market} ${row.question} ${row.slug} ${row.outcomes.map((o) => o.name).join(' ')} ${row.protocol}`;
}
