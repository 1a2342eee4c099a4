// The markets grid's plain logic: rows built from the aggregator's shapes (parsed by the real schemas, mapped onto
// the market model as the aggregator source maps them), the protocol filter, merging pages, sort order with
// unknowns last, the column chooser and the watchlist toggle.
import { describe, expect, it } from 'vitest';
import { EventSchema, MarketSchema } from '../../packages/toolkit/src/model/aggregator';
import { toEvent, toMarket } from '../../packages/toolkit/src/aggregator/source';
import {
  chosenColumns,
  compareNullable,
  filterByProtocol,
  formatDollars,
  formatEndDate,
  leadPrice,
  mergeRows,
  missingRow,
  outcomesText,
  quickFilterTextOf,
  rowOfMarket,
  rowsOfEvents,
  rowsOfMatches,
  toggleColumn,
  toggleWatch,
} from '../../src/renderer/src/model/market-rows';
import { emptySentence, type GridView } from '../../src/renderer/src/components/markets/sentences';
import { centsText } from '../../src/renderer/src/format/numbers';

const market = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Market ${id}`,
  question: `Will ${id} happen?`,
  end: '',
  slug: `m-${id}`,
  spread: '0.02',
  position_tokens: [
    { token_id: `${id}1`, name: 'Yes', price: '0.53' },
    { token_id: `${id}2`, name: 'No', price: 0.47 },
  ],
  ...extra,
});

const event = (id: string, protocol: string, markets: unknown[], extra: Record<string, unknown> = {}) =>
  toEvent(
    EventSchema.parse({
      id,
      protocol,
      title: `Event ${id}`,
      slug: `e-${id}`,
      endDate: '2026-12-16T19:00:00Z',
      volume: '1250000',
      liquidity: 4200,
      markets,
      ...extra,
    }),
  );

describe('markets rows', () => {
  it('builds one row per market with its event title, outcomes, volume, liquidity and end date', () => {
    const fed = event('9001', 'polymarket', [
      market('1', { groupItemTitle: '25 bps cut' }),
      market('2', { end: '2026-12-20T00:00:00Z' }),
    ]);
    const [a, b] = rowsOfEvents([fed]);
    expect(a).toMatchObject({
      kind: 'market',
      id: '1',
      protocol: 'polymarket',
      eventId: '9001',
      eventTitle: 'Event 9001',
      market: '25 bps cut',
      question: 'Will 1 happen?',
      outcomes: [
        { name: 'Yes', tokenId: '11', quote: { price: 0.53, basis: 'listed' } },
        { name: 'No', tokenId: '12', quote: { price: 0.47, basis: 'listed' } },
      ],
      // The aggregator reports volume and liquidity per event only: a market of two has none of its own.
      volume: null,
      liquidity: null,
      event: { id: '9001', title: 'Event 9001', marketCount: 2, volume: 1_250_000, liquidity: 4200 },
      endDate: '2026-12-16T19:00:00Z',
      endTime: Date.parse('2026-12-16T19:00:00Z'),
      spread: 0.02,
    });
    // Without a group title the question names the market; its own end date wins over the event's.
    expect(b).toMatchObject({ market: 'Will 2 happen?', endDate: '2026-12-20T00:00:00Z' });
    // A market alone in its event is the event: the event's volume and liquidity are its own.
    const [alone] = rowsOfEvents([event('9002', 'polymarket', [market('3')])]);
    expect(alone).toMatchObject({ volume: 1_250_000, liquidity: 4200 });
  });

  it('reads unknown numbers as null and an unknown protocol as polymarket', () => {
    const odd = event(
      '7',
      'somewhere-else',
      [market('3', { position_tokens: [{ token_id: '31', name: 'Yes', price: 'n/a' }], spread: null })],
      {
        volume: null,
        liquidity: undefined,
        endDate: 'not a date',
      },
    );
    const [row] = rowsOfEvents([odd]);
    expect(row).toMatchObject({
      protocol: 'polymarket',
      volume: null,
      liquidity: null,
      endTime: null,
      spread: null,
      change24h: null,
      outcomes: [{ name: 'Yes', quote: { price: null, basis: null } }],
    });
  });

  it('makes a row of a market read alone, with the protocol it was read from', () => {
    const row = rowOfMarket(toMarket(MarketSchema.parse(market('5'))), undefined, 'limitless');
    expect(row).toMatchObject({ id: '5', protocol: 'limitless', eventId: null, eventTitle: '', volume: null });
  });

  it('lists each market once across events, and search matches in their order', () => {
    const e1 = event('1', 'polymarket', [market('a'), market('b')]);
    const e2 = event('2', 'limitless', [market('b'), market('c')]);
    expect(rowsOfEvents([e1, e2]).map((r) => `${r.id}:${r.eventId}`)).toEqual(['a:1', 'b:1', 'c:2']);
    const matches = [e2, e1].map((e, i) => ({ event: e, cosineSimilarity: 1 - i / 10 }));
    expect(rowsOfMatches(matches).map((r) => r.id)).toEqual(['b', 'c', 'a']);
  });

  it('filters by protocol', () => {
    const rows = rowsOfEvents([
      event('1', 'polymarket', [market('a')]),
      event('2', 'limitless', [market('b')]),
      event('3', 'truemarket', [market('c')]),
    ]);
    expect(filterByProtocol(rows, 'all')).toBe(rows);
    expect(filterByProtocol(rows, 'limitless').map((r) => r.id)).toEqual(['b']);
    expect(filterByProtocol(rows, 'truemarket').map((r) => r.id)).toEqual(['c']);
  });

  it('merges a page into the rows: new markets appended, repeated ones replaced in place', () => {
    const first = rowsOfEvents([event('1', 'polymarket', [market('a'), market('b')])]);
    const again = rowsOfEvents([event('2', 'polymarket', [market('b', { question: 'Updated?' }), market('c')])]);
    const merged = mergeRows(first, again);
    expect(merged.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(merged[1]!.question).toBe('Updated?');
    expect(merged[0]).toBe(first[0]);
    expect(first.map((r) => r.id)).toEqual(['a', 'b']);
  });

  it('sorts unknown numbers last in both directions', () => {
    const values = [3, null, 1, 2];
    const asc = [...values].sort((a, b) => compareNullable(a, b, false));
    expect(asc).toEqual([1, 2, 3, null]);
    // The grid reverses the comparator's result when descending, so null must compare "smallest" then.
    const desc = [...values].sort((a, b) => -compareNullable(a, b, true));
    expect(desc).toEqual([3, 2, 1, null]);
    expect(leadPrice(missingRow('9', 'gone'))).toBeNull();
  });
});

describe('the column chooser', () => {
  it('keeps known columns once, and always the market name', () => {
    expect(chosenColumns(['volume', 'volume', 'retired-column', 'endDate'])).toEqual(['title', 'volume', 'endDate']);
    expect(chosenColumns(['outcomes', 'title'])).toEqual(['outcomes', 'title']);
  });

  it('hides a column, and brings it back where the chooser lists it', () => {
    const start = ['title', 'outcomes', 'volume', 'liquidity', 'endDate'];
    const hidden = toggleColumn(start, 'volume');
    expect(hidden).toEqual(['title', 'outcomes', 'liquidity', 'endDate']);
    expect(toggleColumn(hidden, 'volume')).toEqual(start);
    expect(toggleColumn(start, 'spread')).toEqual([...start, 'spread']);
    expect(toggleColumn(start, 'title')).toEqual(start);
  });
});

describe('the watchlist', () => {
  it('adds a market at the end and removes it again, keeping the order of the rest', () => {
    expect(toggleWatch(['1', '2'], '3')).toEqual(['1', '2', '3']);
    expect(toggleWatch(['1', '2', '3'], '2')).toEqual(['1', '3']);
  });
});

describe('display', () => {
  it('shows prices in cents, dollars compactly and end dates in UTC', () => {
    expect(centsText(0.53)).toBe('53');
    expect(centsText(0.027)).toBe('2.7');
    const [row] = rowsOfEvents([
      event('1', 'polymarket', [
        market('a', {
          position_tokens: [
            { token_id: 'a1', name: 'Yes', price: '0.53' },
            { token_id: 'a2', name: 'No', price: 'n/a' },
          ],
        }),
      ]),
    ]);
    expect(outcomesText(row!.outcomes)).toBe('Yes 53¢ · No –');
    expect([formatDollars(812.4), formatDollars(45_300), formatDollars(1_250_000), formatDollars(null)]).toEqual([
      '$812',
      '$45.3K',
      '$1.3M',
      '–',
    ]);
    expect(formatEndDate(Date.parse('2026-12-31T23:59:00Z'))).toBe('31 Dec 2026');
    expect(formatEndDate(null)).toBe('–');
  });

  it('quick-filters on names and outcomes, not numbers', () => {
    const [row] = rowsOfEvents([event('1', 'polymarket', [market('a', { groupItemTitle: '25 bps cut' })])]);
    const text = quickFilterTextOf(row!);
    expect(text).toContain('Event 1');
    expect(text).toContain('25 bps cut');
    expect(text).toContain('Yes');
    expect(text).not.toContain('0.53');
  });
});

describe('what an empty grid says', () => {
  const base: GridView = {
    view: 'markets',
    rows: 0,
    rowsOnProtocol: 0,
    rowsDrawn: 0,
    protocolFilter: 'all',
    filterText: '',
    query: '',
    searchedFor: '',
    loading: false,
    error: null,
    watchlistSize: 0,
    slug: null,
  };

  it('says nothing while rows are drawn, and names the filter that hides them all', () => {
    expect(emptySentence({ ...base, rows: 3, rowsOnProtocol: 3, rowsDrawn: 3 })).toBeNull();
    expect(emptySentence({ ...base, rows: 3, rowsOnProtocol: 3, rowsDrawn: 0, filterText: ' snow ' })).toBe(
      'No rows match the filter “snow”.',
    );
  });

  it('tells searching from finding nothing, and counts matches the protocol filter hides', () => {
    const search: GridView = { ...base, view: 'search', query: 'bitcoin ', searchedFor: 'bitcoin' };
    expect(emptySentence({ ...search, loading: true })).toBe('Searching for “bitcoin”…');
    expect(emptySentence(search)).toBe('No markets match “bitcoin”.');
    expect(emptySentence({ ...search, rows: 1, protocolFilter: 'limitless' })).toBe(
      'No markets match “bitcoin” on Limitless. 1 market matches on other protocols.',
    );
    expect(emptySentence({ ...search, rows: 4, protocolFilter: 'truemarket' })).toBe(
      'No markets match “bitcoin” on TrueMarket. 4 markets match on other protocols.',
    );
    // A failed search is said on its own line; the grid adds nothing.
    expect(emptySentence({ ...search, error: 'Search failed: the aggregator did not answer.' })).toBeNull();
  });

  it('explains an empty watchlist, slug view and listing', () => {
    expect(emptySentence({ ...base, view: 'watchlist' })).toBe(
      'Your watchlist is empty: star a market (☆) to keep it here.',
    );
    expect(emptySentence({ ...base, view: 'watchlist', watchlistSize: 2, protocolFilter: 'limitless' })).toBe(
      'None of your watched markets is on Limitless.',
    );
    expect(emptySentence({ ...base, view: 'watchlist', watchlistSize: 2, loading: true })).toBe(
      'Loading your watchlist…',
    );
    expect(emptySentence({ ...base, view: 'slugs' })).toBe('Choose a slug to see its events and markets.');
    expect(emptySentence({ ...base, view: 'slugs', slug: 'fed-decision', loading: true })).toBe(
      'Loading the events of fed-decision…',
    );
    expect(emptySentence({ ...base, view: 'markets', loading: true })).toBe('Loading markets…');
    expect(emptySentence({ ...base, view: 'markets', protocolFilter: 'limitless' })).toBe(
      'No ongoing events on Limitless.',
    );
    expect(
      emptySentence({ ...base, view: 'markets', error: 'Polymarket events could not be loaded: offline.' }),
    ).toBeNull();
  });
});
