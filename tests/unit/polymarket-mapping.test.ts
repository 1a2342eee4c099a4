// Polymarket's wire schemas and their mapping onto the market model: JSON-string lists parsed, a neg-risk
// event kept as one event, a V2 market's positionIds as its tokens, unknown fields tolerated, malformed
// answers failing with the field's path, and nothing invented where the source says nothing.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ClobBookSchema, RtdsTradeSchema } from '../../packages/toolkit/src/polymarket/clob-schemas';
import {
  DataActivitySchema,
  DataPositionSchema,
  DataTradeSchema,
} from '../../packages/toolkit/src/polymarket/data-schemas';
import {
  GammaCommentSchema,
  GammaEventSchema,
  GammaMarketSchema,
} from '../../packages/toolkit/src/polymarket/gamma-schemas';
import { parseAnswer } from '../../packages/toolkit/src/polymarket/http';
import {
  fillKey,
  toComment,
  toMarket,
  toMarketTrade,
  toPredictionEvent,
  toTradeRecord,
  toTrader,
  toTraderActivity,
  toTraderPosition,
} from '../../packages/toolkit/src/polymarket/mapping';
import { PmDeskError } from '../../packages/toolkit/src/model/errors';
import {
  CONDITION_ID,
  NO_TOKEN,
  TX,
  V2_POSITION_NO,
  V2_POSITION_YES,
  WALLET,
  YES_TOKEN,
  clobBook,
  dataActivity,
  dataPosition,
  dataTrade,
  gammaComment,
  gammaMarket,
  negRiskEvent,
  profile,
  rtdsTrade,
  v2Market,
} from '../helpers/polymarket-fixtures';

/** The validation failure a parse raises, or a test failure when it parses. */
function rejection(schema: z.ZodType, data: unknown): PmDeskError {
  try {
    parseAnswer(schema, data, 'test');
  } catch (error) {
    expect(error).toBeInstanceOf(PmDeskError);
    return error as PmDeskError;
  }
  throw new Error('expected the answer to be rejected');
}

describe('Gamma market → Market', () => {
  it('parses the JSON-string lists and maps every trading field as the exchange states it', () => {
    const market = toMarket(parseAnswer(GammaMarketSchema, gammaMarket(), 'test'));
    expect(market).toEqual({
      id: '506729',
      name: 'Will the Fed cut rates by 25 bps in December?',
      question: 'Will the Fed cut rates by 25 bps in December?',
      end: '2026-12-10T19:00:00Z',
      description: 'Resolves YES if…',
      image: 'https://example.test/m.png',
      icon: 'https://example.test/m-icon.png',
      slug: 'fed-cut-25-bps-december',
      active: true,
      rewardsMinSize: null,
      rewardsMaxSpread: null,
      spread: 0.02,
      position_tokens: [
        { token_id: YES_TOKEN, name: 'Yes', price: '0.53' },
        { token_id: NO_TOKEN, name: 'No', price: '0.47' },
      ],
      groupItemTitle: '',
      neg_risk: false,
      conditionId: CONDITION_ID,
      minimum_tick_size: '0.01',
      minimum_order_size: 5,
      accepting_orders: true,
      closed: false,
      bestBid: 0.52,
      bestAsk: 0.54,
      lastTradePrice: 0.53,
      volume: 2831002.1,
      volume24hr: 120431.5,
      oneDayPriceChange: -0.015,
    });
  });

  it('keeps a tick of 0.001 as the string "0.001" and a string tick as sent', () => {
    expect(
      toMarket(parseAnswer(GammaMarketSchema, gammaMarket({ orderPriceMinTickSize: 0.001 }), 'test')).minimum_tick_size,
    ).toBe('0.001');
    expect(
      toMarket(parseAnswer(GammaMarketSchema, gammaMarket({ orderPriceMinTickSize: '0.0001' }), 'test'))
        .minimum_tick_size,
    ).toBe('0.0001');
  });

  it('uses a V2 market positionIds (a real array) as its token ids and states its version', () => {
    const market = toMarket(parseAnswer(GammaMarketSchema, v2Market(), 'test'));
    expect(market.version).toBe('v2');
    expect(market.position_tokens.map((t) => t.token_id)).toEqual([V2_POSITION_YES, V2_POSITION_NO]);
    expect(market.minimum_tick_size).toBe('0.001');
  });

  it('routes by version: a v2 market with both lists takes positionIds, a v1 market clobTokenIds', () => {
    const both = { positionIds: [V2_POSITION_YES, V2_POSITION_NO] };
    expect(
      toMarket(parseAnswer(GammaMarketSchema, gammaMarket({ ...both, version: 'v2' }), 'test')).position_tokens[0]!
        .token_id,
    ).toBe(V2_POSITION_YES);
    expect(
      toMarket(parseAnswer(GammaMarketSchema, gammaMarket({ ...both, version: 'v1' }), 'test')).position_tokens[0]!
        .token_id,
    ).toBe(YES_TOKEN);
  });

  it('leaves out what Gamma does not give instead of defaulting it', () => {
    const bare = { id: 7, question: 'Q?', outcomes: '["Yes","No"]', clobTokenIds: '["1","2"]' };
    const market = toMarket(parseAnswer(GammaMarketSchema, bare, 'test'));
    expect(market.id).toBe('7');
    expect(market.position_tokens).toEqual([
      { token_id: '1', name: 'Yes', price: '' },
      { token_id: '2', name: 'No', price: '' },
    ]);
    for (const field of [
      'conditionId',
      'minimum_tick_size',
      'minimum_order_size',
      'accepting_orders',
      'closed',
      'version',
      'neg_risk',
      'active',
    ] as const) {
      expect(market).not.toHaveProperty(field);
    }
    expect(market.bestBid).toBeNull();
    expect(market.volume).toBeNull();
  });

  it.each([
    ['clobTokenIds that are not JSON', { clobTokenIds: '[123, oops' }, 'clobTokenIds'],
    ['clobTokenIds holding numbers', { clobTokenIds: '[1, 2]' }, 'clobTokenIds'],
    ['outcomes that are a JSON object', { outcomes: '{"a":1}' }, 'outcomes'],
    ['a token count that differs from the outcomes', { clobTokenIds: JSON.stringify([YES_TOKEN]) }, 'clobTokenIds'],
    ['a price count that differs from the outcomes', { outcomePrices: '["0.5"]' }, 'outcomePrices'],
    ['a price that is not a number', { outcomePrices: '["0.5","abc"]' }, 'outcomePrices.1'],
    ['an active flag of the wrong type', { active: 'yes' }, 'active'],
    ['a best bid that is not a number', { bestBid: 'high' }, 'bestBid'],
  ])('rejects %s, naming the field', (_name, override, field) => {
    const error = rejection(GammaMarketSchema, gammaMarket(override));
    expect(error.code).toBe('ERR_VALIDATION');
    expect(error.detail).toContain(`: ${field}:`);
  });

  it('rejects a V2 market whose positionIds do not match its outcomes, naming positionIds', () => {
    const market = v2Market();
    market.positionIds = [V2_POSITION_YES];
    expect(rejection(GammaMarketSchema, market).detail).toContain(': positionIds:');
  });

  it('names the nested path of a bad market inside an event, e.g. markets.1.clobTokenIds', () => {
    const event = negRiskEvent();
    (event.markets as Record<string, unknown>[])[1]!.clobTokenIds = 'not json';
    expect(rejection(GammaEventSchema, event).detail).toContain(': markets.1.clobTokenIds:');
    expect(rejection(z.array(GammaEventSchema), [event]).detail).toContain(': 0.markets.1.clobTokenIds:');
  });
});

describe('Gamma event → PredictionEvent', () => {
  it('keeps a neg-risk multi-outcome event as one event with one market per outcome, labelled by groupItemTitle', () => {
    const event = toPredictionEvent(parseAnswer(GammaEventSchema, negRiskEvent(), 'test'));
    expect(event).toMatchObject({
      id: '12483',
      protocol: 'polymarket',
      region: '',
      slug: 'fed-decision-in-december',
      icon: '',
      liquidity: 153201.4,
      volume: 2831002.1,
      volume24hr: 120431.5,
      neg_risk: true,
      active: true,
      closed: false,
    });
    expect(
      event.markets.map((m) => [m.name, m.neg_risk, m.position_tokens[0]!.token_id, m.position_tokens[0]!.price]),
    ).toEqual([
      ['25 bps cut', true, '111', '0.61'],
      ['No change', true, '121', '0.35'],
      ['50+ bps cut', true, '131', '0.04'],
    ]);
  });

  it('gives an event without markets an empty list, and tolerates unknown fields', () => {
    const event = toPredictionEvent(
      parseAnswer(GammaEventSchema, { id: '5', title: 'T', markets: null, brandNew: [1] }, 'test'),
    );
    expect(event.markets).toEqual([]);
    expect(event.title).toBe('T');
  });
});

describe('comments, traders, positions, activity and trades', () => {
  it('maps a comment with its author, holder positions and thread parent', () => {
    const top = toComment(parseAnswer(GammaCommentSchema, gammaComment(), 'test'));
    expect(top).toEqual({
      id: '88001',
      parent_comment_id: null,
      name: 'alice',
      pseudonym: 'Bright-Owl',
      displayUsernamePublic: true,
      bio: '',
      baseAddress: WALLET,
      profileImage: '',
      positions: [{ position: YES_TOKEN, positionSize: '120500000', marketId: '' }],
      createdAt: '2026-11-20T10:00:00Z',
      reportCount: 0,
      reactionCount: 3,
      content: 'The dots say two cuts.',
    });
    const reply = toComment(
      parseAnswer(GammaCommentSchema, gammaComment({ id: '88002', parentCommentID: '88001', profile: null }), 'test'),
    );
    expect(reply.parent_comment_id).toBe('88001');
    expect(reply.baseAddress).toBe('0x00000000000000000000000000000000000000b2');
    expect(reply.name).toBe('');
  });

  it('builds a trader from a profile and the Data API figures, leaving unknown stats null', () => {
    expect(
      toTrader({
        address: '0xowner',
        profile: { ...profile, displayUsernamePublic: true, verifiedBadge: false, xUsername: null },
        value: 1234.56,
        marketsTraded: 17,
      }),
    ).toEqual({
      user: {
        tradingWallet: WALLET,
        name: 'alice',
        pseudonym: 'Bright-Owl',
        bio: 'macro',
        avatar: 'https://example.test/a.png',
        createdAt: '2025-01-02T03:04:05Z',
      },
      stats: {
        portfolioValue: 1234.56,
        cumulativeVolume: null,
        cumulativeProfit: null,
        totalTrades: null,
        marketsTraded: 17,
      },
    });
    expect(toTrader({ address: '0xowner', profile: null, value: null, marketsTraded: 0 }).user.tradingWallet).toBe(
      '0xowner',
    );
  });

  it('maps a Data API position', () => {
    expect(toTraderPosition(parseAnswer(DataPositionSchema, dataPosition(), 'test'))).toEqual({
      conditionId: CONDITION_ID,
      marketSlug: 'fed-cut-25-bps-december',
      title: 'Will the Fed cut rates by 25 bps in December?',
      tokenId: YES_TOKEN,
      outcome: 'Yes',
      outcomeIndex: 0,
      size: 120.5,
      averagePrice: 0.41,
      currentPrice: 0.53,
      currentValue: 63.865,
      initialValue: 49.405,
      cashPnl: 14.46,
      percentPnl: 29.27,
      icon: 'https://example.test/m-icon.png',
      endsOn: '2026-12-10',
      redeemable: false,
      // What converts a neg-risk position's No shares: the Data API's negativeRisk and the event's slug.
      negativeRisk: false,
      eventSlug: 'fed-decision-in-december',
    });
  });

  it('rejects a position without its current value rather than showing 0', () => {
    const position = dataPosition();
    delete position.currentValue;
    expect(rejection(DataPositionSchema, position).detail).toContain(': currentValue:');
  });

  it('maps activity: a trade with side and price, a redeem with neither', () => {
    const trade = toTraderActivity(parseAnswer(DataActivitySchema, dataActivity(), 'test'));
    expect(trade).toMatchObject({
      type: 'TRADE',
      side: 'BUY',
      price: 0.53,
      size: 25,
      usdcSize: 13.25,
      tokenId: YES_TOKEN,
      transactionHash: TX,
    });
    const redeem = toTraderActivity(
      parseAnswer(DataActivitySchema, dataActivity({ type: 'REDEEM', side: '', price: 0, usdcSize: 120.5 }), 'test'),
    );
    expect(redeem).toMatchObject({ type: 'REDEEM', side: null, price: null, usdcSize: 120.5 });
  });

  it('passes on no outcome index where Polymarket writes 999 ("not applicable"), in activity, trades and positions', () => {
    const redeem = toTraderActivity(
      parseAnswer(
        DataActivitySchema,
        dataActivity({ type: 'REDEEM', side: '', price: 0, outcome: '', outcomeIndex: 999 }),
        'test',
      ),
    );
    expect(redeem.outcomeIndex).toBeNull();
    expect(
      toMarketTrade(parseAnswer(DataTradeSchema, dataTrade({ outcomeIndex: 999 }), 'test')).outcomeIndex,
    ).toBeNull();
    expect(
      toTraderPosition(parseAnswer(DataPositionSchema, dataPosition({ outcomeIndex: 999 }), 'test')).outcomeIndex,
    ).toBeNull();
    // A real index stays as it is, 0 included.
    expect(toMarketTrade(parseAnswer(DataTradeSchema, dataTrade({ outcomeIndex: 0 }), 'test')).outcomeIndex).toBe(0);
  });

  it('maps a trade to a MarketTrade and to a fill with side, trader and transaction', () => {
    const wire = parseAnswer(DataTradeSchema, dataTrade({ side: 'sell', price: '0.47', name: '' }), 'test');
    expect(toMarketTrade(wire)).toEqual({
      trader: WALLET,
      traderName: 'Bright-Owl',
      side: 'SELL',
      conditionId: CONDITION_ID,
      tokenId: YES_TOKEN,
      title: 'Will the Fed cut rates by 25 bps in December?',
      slug: 'fed-cut-25-bps-december',
      outcome: 'Yes',
      outcomeIndex: 0,
      size: 25,
      price: 0.47,
      timestamp: 1_764_000_000,
      transactionHash: TX,
    });
    expect(toTradeRecord(wire)).toEqual({
      price: 0.47,
      volumeBase: 25,
      timestamp: 1_764_000_000,
      side: 'SELL',
      tokenId: YES_TOKEN,
      trader: WALLET,
      traderName: 'Bright-Owl',
      transactionHash: TX,
    });
  });

  it('rejects a trade without a side', () => {
    expect(rejection(DataTradeSchema, dataTrade({ side: '' })).detail).toContain(': side:');
  });

  it('parses a real-time trade to the same fill, and keys fills by transaction, token and size', () => {
    const payload = parseAnswer(RtdsTradeSchema, rtdsTrade().payload, 'test');
    const fill = toTradeRecord(payload);
    expect(fill).toMatchObject({
      price: 0.55,
      volumeBase: 10,
      side: 'SELL',
      tokenId: YES_TOKEN,
      trader: WALLET,
      traderName: 'alice',
    });
    expect(fillKey(fill)).toBe(`${'0x' + 'cd'.repeat(32)}|${YES_TOKEN}|10`);
    expect(fillKey({ ...fill, volumeBase: 11 })).not.toBe(fillKey(fill));
  });

  it('parses a CLOB book with string numbers into numeric levels, in the order sent', () => {
    const book = parseAnswer(ClobBookSchema, clobBook(YES_TOKEN), 'test');
    expect(book.bids).toEqual([
      { price: 0.5, size: 100 },
      { price: 0.52, size: 40.5 },
    ]);
    expect(book.asks.at(-1)).toEqual({ price: 0.54, size: 12 });
    expect(rejection(ClobBookSchema, { ...clobBook(YES_TOKEN), bids: [{ price: 'x', size: '1' }] }).detail).toContain(
      ': bids.0.price:',
    );
  });
});
