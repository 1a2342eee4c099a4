// The markets grid's events of several markets: grouped under an event row with the event's numbers and each
// market's own volume, kept together under any sort, folded and counted as markets; the 24 h change, the
// plurals, the sort orders and each outcome's price from the price model.
import { describe, expect, it } from 'vitest';
import type { Market, PredictionEvent } from '../../packages/toolkit/src/model/market-model';
import {
  countOf,
  formatChange,
  leadPrice,
  MARKET_COLUMNS,
  rowOfMarket,
  rowsOfEvents,
  type MarketRow,
} from '../../src/renderer/src/model/market-rows';
import {
  eventRowId,
  groupRows,
  keepGroupsTogether,
  marketCount,
  marketsShown,
  rowVisible,
} from '../../src/renderer/src/components/markets/groups';
import { quoteFromRecord } from '../../src/renderer/src/model/quote';

const market = (id: string, extra: Partial<Market> = {}): Market => ({
  id,
  name: `Market ${id}`,
  question: `Will ${id} happen?`,
  end: '2026-12-16T19:00:00Z',
  description: '',
  image: '',
  icon: '',
  groupItemTitle: `Outcome ${id}`,
  position_tokens: [
    { token_id: `${id}-yes`, name: 'Yes', price: '0.5' },
    { token_id: `${id}-no`, name: 'No', price: '0.5' },
  ],
  ...extra,
});

const event = (id: string, markets: Market[], extra: Partial<PredictionEvent> = {}): PredictionEvent =>
  ({
    id,
    protocol: 'polymarket',
    title: `Event ${id}`,
    slug: `e-${id}`,
    endDate: '2026-12-16T19:00:00Z',
    volume: 900_000,
    liquidity: 50_000,
    volume24hr: 12_000,
    markets,
    ...extra,
  }) as PredictionEvent;

const fed = event('9001', [
  market('a', { volume: 500_000, volume24hr: 8_000, bestBid: 0.54, bestAsk: 0.56, oneDayPriceChange: 0.03 }),
  market('b', { volume: 300_000, volume24hr: 3_000, bestBid: 0.34, bestAsk: 0.36, oneDayPriceChange: -0.015 }),
  market('c', { volume: 100_000, volume24hr: 1_000, bestBid: 0.06, bestAsk: 0.08 }),
]);
const btc = event('9002', [market('x', { bestBid: 0.4, bestAsk: 0.42 })], { volume: 2_000_000, liquidity: 80_000 });

describe('rows of a multi-market event', () => {
  it('carry each market its own volume, never the event one repeated', () => {
    const rows = rowsOfEvents([fed]);
    expect(rows.map((r) => r.volume)).toEqual([500_000, 300_000, 100_000]);
    expect(rows.map((r) => r.volume24h)).toEqual([8_000, 3_000, 1_000]);
    expect(rows.every((r) => r.volume !== fed.volume)).toBe(true);
    // Alone in its event, a market without a volume of its own has the event's.
    expect(rowsOfEvents([btc])[0]).toMatchObject({ volume: 2_000_000, liquidity: 80_000 });
  });

  it('price each outcome by the price model from the record (binary: the No side is the complement)', () => {
    const [a] = rowsOfEvents([fed]);
    const record = fed.markets[0]!;
    expect(a!.outcomes[0]).toEqual({ name: 'Yes', tokenId: 'a-yes', quote: quoteFromRecord(record, 0) });
    expect(a!.outcomes[0]!.quote).toMatchObject({ price: 0.55, basis: 'midpoint' });
    expect(a!.outcomes[1]!.quote).toMatchObject({ price: 0.45, basis: 'midpoint', bestBid: 0.44, bestAsk: 0.46 });
    expect(leadPrice(a!)).toBe(0.55);
    expect(a!.change24h).toBe(0.03);
  });

  it('go under one event row: title, event volume and liquidity, the count, the leader; markets right after', () => {
    const rows = groupRows([...rowsOfEvents([btc]), ...rowsOfEvents([fed])]);
    expect(rows.map((r) => `${r.kind}:${r.id}`)).toEqual([
      'market:x',
      'event:event:polymarket:9001',
      'market:a',
      'market:b',
      'market:c',
    ]);
    expect(eventRowId(rows[2]!)).toBe(rows[1]!.id);
    const head = rows[1]!;
    expect(head).toMatchObject({
      kind: 'event',
      eventTitle: 'Event 9001',
      volume: 900_000,
      liquidity: 50_000,
      volume24h: 12_000,
      childIds: ['a', 'b', 'c'],
      change24h: null,
    });
    expect(head.leader?.id).toBe('a');
    expect(leadPrice(head)).toBe(0.55);
    expect(rows.slice(2).every((r) => r.groupId === head.id)).toBe(true);
    // The plain market is untouched (same object: the grid does not redraw it).
    const plain = rowsOfEvents([btc])[0]!;
    expect(groupRows([plain])[0]).toBe(plain);
    expect(marketCount(rows)).toBe(4);
  });

  it('leave a market alone in the list as a plain row, and gather an event whose markets came apart', () => {
    const [a, b] = rowsOfEvents([fed]);
    const x = rowsOfEvents([btc])[0]!;
    expect(groupRows([a!]).map((r) => r.kind)).toEqual(['market']);
    expect(groupRows([a!, x, b!]).map((r) => r.id)).toEqual(['event:polymarket:9001', 'a', 'b', 'x']);
    // A market read alone (no event) never groups.
    expect(groupRows([rowOfMarket(fed.markets[0]!, undefined, 'polymarket')])[0]!.kind).toBe('market');
  });
});

describe('sorting grouped rows', () => {
  const nodes = (rows: MarketRow[]) => rows.map((data) => ({ data }));
  const ids = (list: { data?: MarketRow }[]) => list.map((n) => n.data!.id);

  it('keeps each event’s markets under it, in the order the sort gave them', () => {
    const rows = groupRows([...rowsOfEvents([fed]), ...rowsOfEvents([btc])]);
    // As a sort by volume, biggest first, would leave them: x ($2M), the event ($900K), a, b, c — scattered.
    const byId = new Map(rows.map((r) => [r.id, r]));
    const sorted = nodes(['c', 'x', 'b', 'event:polymarket:9001', 'a'].map((id) => byId.get(id)!));
    keepGroupsTogether(sorted);
    expect(ids(sorted)).toEqual(['x', 'event:polymarket:9001', 'c', 'b', 'a']);
    const unsorted = nodes(rows);
    keepGroupsTogether(unsorted);
    expect(ids(unsorted)).toEqual(rows.map((r) => r.id));
  });
});

describe('folding an event', () => {
  const rows = groupRows(rowsOfEvents([fed, btc]));
  const head = rows[0]!;
  const folded = new Set([head.id]);

  it('hides its markets, unless a filter is typed (then matches show)', () => {
    expect(rows.filter((r) => rowVisible(r, folded, false)).map((r) => r.id)).toEqual([head.id, 'x']);
    expect(rows.filter((r) => rowVisible(r, folded, true))).toHaveLength(rows.length);
    expect(rows.filter((r) => rowVisible(r, new Set(), false))).toHaveLength(rows.length);
  });

  it('still counts its markets as shown: the footer counts markets, not rows', () => {
    expect(marketsShown([head, rows[4]!], folded, false)).toBe(4);
    expect(marketsShown(rows, new Set(), false)).toBe(4);
    expect(marketsShown([head, rows[2]!], folded, true)).toBe(1);
  });
});

describe('display', () => {
  it('shows the 24 h change in cents with its sign, unknown as –', () => {
    expect([
      formatChange(0.03),
      formatChange(-0.015),
      formatChange(0),
      formatChange(0.0004),
      formatChange(null),
    ]).toEqual(['+3¢', '−1.5¢', '0¢', '0¢', '–']);
  });

  it('says 1 market, 3 markets', () => {
    expect([countOf(1, 'market'), countOf(3, 'market'), countOf(0, 'market'), countOf(1200, 'slug')]).toEqual([
      '1 market',
      '3 markets',
      '0 markets',
      '1,200 slugs',
    ]);
  });

  it('offers the 24 h change and 24 h volume in the column chooser', () => {
    expect(MARKET_COLUMNS.map((c) => c.id)).toEqual(expect.arrayContaining(['change', 'volume24h']));
  });
});
