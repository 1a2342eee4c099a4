import { describe, expect, it } from 'vitest';
import {
  EventSchema,
  FillHistorySchema,
  MarketOrderBooksSchema,
  MarketSchema,
  TraderSchema,
} from '../../packages/toolkit/src/model/aggregator';
import { parseFillMessage } from '../../packages/toolkit/src/aggregator/fills';
import { books, event, fillHistory, market, trader } from '../helpers/aggregator-fixtures';

describe('aggregator response schemas', () => {
  it('coerce numbers that arrive as strings, keep token prices as strings, keep unknown fields', () => {
    const parsed = EventSchema.parse({ ...event, newField: 'kept' });
    expect(parsed.liquidity).toBe(153201.4);
    expect(parsed.markets[0]!.rewardsMaxSpread).toBe(3.5);
    expect(parsed.markets[0]!.position_tokens[0]!.price).toBe('0.53');
    expect((parsed as Record<string, unknown>).newField).toBe('kept');
    expect(
      MarketSchema.parse({ ...market, id: 506729, position_tokens: [{ token_id: 1, name: 'Yes', price: 0.5 }] }),
    ).toMatchObject({
      id: '506729',
      position_tokens: [{ token_id: '1', name: 'Yes', price: '0.5' }],
    });
  });

  it('accept nullable stats and text', () => {
    const parsed = TraderSchema.parse(trader);
    expect(parsed.stats).toMatchObject({
      portfolioValue: 1234.5,
      cumulativeVolume: 98765.4,
      cumulativeProfit: null,
      totalTrades: 152,
    });
    expect(MarketSchema.parse({ ...market, description: null }).description).toBe('');
  });

  it('coerce book levels and fill records', () => {
    const parsed = MarketOrderBooksSchema.parse(books);
    expect(Object.values(parsed)[0]!.bids[0]).toEqual({ price: 0.52, size: 1200 });
    expect(FillHistorySchema.parse(fillHistory)[0]![1]).toEqual({ price: 0.55, volumeBase: 20, timestamp: 1747390500 });
  });

  it('fail with a path when a field changed shape', () => {
    const result = MarketSchema.safeParse({ ...market, position_tokens: { yes: 1 } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['position_tokens']);
    expect(FillHistorySchema.safeParse([[{ price: 'cheap', volumeBase: 1, timestamp: 1 }]]).success).toBe(false);
  });
});

describe('fill messages', () => {
  it('accept a JSON string with numeric price, volumeBase and timestamp', () => {
    expect(parseFillMessage('{"price":0.53,"volumeBase":120,"timestamp":1747400000}')).toEqual({
      ok: true,
      fill: { price: 0.53, volumeBase: 120, timestamp: 1747400000 },
    });
  });

  it.each([
    [42, 'Received non-string SSE message data.'],
    ['{"price":"0.5","volumeBase":1,"timestamp":1}', 'Received SSE message with unexpected data structure.'],
    ['{"price":0.5,"timestamp":1}', 'Received SSE message with unexpected data structure.'],
    ['null', 'Received SSE message with unexpected data structure.'],
    ['[1,2,3]', 'Received SSE message with unexpected data structure.'],
  ])('refuse %j: %s', (data, reason) => {
    expect(parseFillMessage(data)).toMatchObject({ ok: false, reason });
  });

  it('refuse text that is not JSON, keeping the first 100 characters as raw data', () => {
    const data = `not json ${'x'.repeat(200)}`;
    const result = parseFillMessage(data);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.reason).toMatch(/JSON|Unexpected token/);
      expect(result.raw).toBe(`${data.slice(0, 100)}...`);
    }
  });
});
