// Positions that act: a position's figures at the shown price and the totals row, signed money and percent,
// the ticket's fields for Close and Limit sell and which loaded market they apply to, and main's side — a
// trade's fee from the market's terms, its outcome, question and transaction, and a position's question,
// token and market id.
import { describe, expect, it } from 'vitest';
import { balanceText, positionFigures, positionTotals } from '../../src/renderer/src/model/account-math';
import { signedPercent, signedUsd } from '../../src/renderer/src/format/numbers';
import { positionSellFields, requestedOutcome } from '../../src/renderer/src/components/ticket/position-sell';
import { TradeFacts, tradeDetails, tradeFee, type MarketFactReads } from '../../src/main/trading/trade-facts';
import { describedPosition, describedTrades, tradeAsSeenBy } from '../../src/main/trading/trading-access';
import type { TraderPosition } from '../../packages/toolkit/src/model/market-model';

describe('a balance as a trader reads it', () => {
  it('to the cent, rounded down, thousands grouped', () => {
    expect(balanceText('99895399918')).toBe('$99,895.39');
    expect(balanceText('1000000')).toBe('$1.00');
    expect(balanceText('9999')).toBe('$0.00');
    expect(balanceText('1234567890123456')).toBe('$1,234,567,890.12');
    expect(balanceText('-2500000')).toBe('−$2.50');
    expect(balanceText('0')).toBe('$0.00');
    expect(balanceText('12.5')).toBe('–');
  });
});

describe('a position at the price shown', () => {
  it('values size × current, costs size × average, PnL in dollars and percent of the cost', () => {
    expect(positionFigures({ size: 20, averagePrice: 0.4, currentValue: 9 }, 0.55)).toEqual({
      value: 11,
      cost: 8,
      pnl: 3,
      pnlPercent: 37.5,
    });
    expect(positionFigures({ size: 10, averagePrice: 0.7, currentValue: 3 }, 0.3)).toEqual({
      value: 3,
      cost: 7,
      pnl: -4,
      pnlPercent: -57.14,
    });
  });

  it("uses the source's value when no price is shown, and says PnL unknown without an average", () => {
    expect(positionFigures({ size: 10, averagePrice: 0.5, currentValue: 4.2 }, null)).toEqual({
      value: 4.2,
      cost: 5,
      pnl: -0.8,
      pnlPercent: -16,
    });
    expect(positionFigures({ size: 10, averagePrice: null, currentValue: 3 }, 0.3)).toEqual({
      value: 3,
      cost: null,
      pnl: null,
      pnlPercent: null,
    });
    // A cost of nothing has no percent.
    expect(positionFigures({ size: 10, averagePrice: 0, currentValue: 3 }, 0.3).pnlPercent).toBeNull();
  });

  it('totals value of all; cost, PnL and PnL % of those with a known cost', () => {
    const a = positionFigures({ size: 20, averagePrice: 0.4, currentValue: 0 }, 0.55);
    const b = positionFigures({ size: 10, averagePrice: 0.7, currentValue: 0 }, 0.3);
    const unknown = positionFigures({ size: 5, averagePrice: null, currentValue: 2 }, null);
    expect(positionTotals([a, b, unknown])).toEqual({
      value: 16,
      cost: 15,
      pnl: -1,
      pnlPercent: -6.67,
      unknownCost: 1,
    });
    expect(positionTotals([unknown])).toEqual({ value: 2, cost: null, pnl: null, pnlPercent: null, unknownCost: 1 });
    expect(positionTotals([])).toEqual({ value: 0, cost: null, pnl: null, pnlPercent: null, unknownCost: 0 });
  });

  it('signs money and percent with a real minus, none on zero', () => {
    expect(signedUsd(3)).toBe('+$3.00');
    expect(signedUsd(-1234.5)).toBe('−$1,234.50');
    expect(signedUsd(0)).toBe('$0.00');
    expect(signedUsd(-0.001)).toBe('$0.00');
    expect(signedPercent(37.5)).toBe('+37.5 %');
    expect(signedPercent(-6.67)).toBe('−6.67 %');
    expect(signedPercent(0)).toBe('0 %');
  });
});

describe('Close and Limit sell fill the ticket', () => {
  const request = {
    marketId: '501',
    conditionId: '0xc0',
    tokenId: '11',
    outcome: 'Yes',
    size: 12.5,
    kind: 'market' as const,
  };
  it('Close: a market SELL (FOK) of the whole size in shares, no price', () => {
    expect(positionSellFields(request)).toEqual({
      side: 'SELL',
      kind: 'market',
      orderType: 'FOK',
      sizeUnit: 'shares',
      amount: '12.5',
      priceCents: '',
      postOnly: false,
      expiry: '',
    });
  });
  it('Limit sell: a GTC limit SELL of the whole size at the price given', () => {
    expect(positionSellFields({ ...request, kind: 'limit', priceCents: '48' })).toMatchObject({
      side: 'SELL',
      kind: 'limit',
      orderType: 'GTC',
      amount: '12.5',
      priceCents: '48',
    });
  });

  const market = {
    marketId: '501',
    conditionId: '0xc0',
    outcomes: [
      { tokenId: '11', name: 'Yes', price: 0.5 },
      { tokenId: '12', name: 'No', price: 0.5 },
    ],
  };
  it('applies to the loaded market only (by id or condition id), on the named outcome', () => {
    expect(requestedOutcome(request, market)).toEqual(market.outcomes[0]);
    expect(requestedOutcome({ ...request, marketId: 'slug-of-it' }, market)).toEqual(market.outcomes[0]);
    expect(requestedOutcome({ ...request, marketId: '999', conditionId: '0xother' }, market)).toBeUndefined();
    // No token id from the source: the outcome by name; a name the market lacks: null (said, not guessed).
    expect(requestedOutcome({ ...request, tokenId: null, outcome: 'no' }, market)).toEqual(market.outcomes[1]);
    expect(requestedOutcome({ ...request, tokenId: null, outcome: 'Maybe' }, market)).toBeNull();
  });
});

const ME = '0x00000000000000000000000000000000000000aa';
const OTHER = '0x00000000000000000000000000000000000000bb';
const TERMS = { rate: 0.04, exponent: 1, takerOnly: true };

describe("a trade's fee, names and transaction (main)", () => {
  const takerRow = {
    id: 't1',
    market: '0xc0',
    asset_id: '11',
    side: 'BUY',
    price: '0.6',
    size: '10',
    status: 'CONFIRMED',
    match_time: '1790000000',
    trader_side: 'TAKER',
    outcome: 'Yes',
    transaction_hash: '0xabc123',
    maker_orders: [
      { maker_address: OTHER, asset_id: '11', price: '0.5', matched_amount: '4', side: 'SELL' },
      { maker_address: OTHER, asset_id: '12', price: '0.4', matched_amount: '6', side: 'BUY' },
    ],
  };

  it("the taker pays rate × p(1−p) per share on each fill, at each maker's price", () => {
    // 4 × 0.04 × 0.25 + 6 × 0.04 × 0.24 = 0.04 + 0.0576
    expect(tradeFee(ME, takerRow, TERMS)).toBeCloseTo(0.0976, 10);
  });

  it('a maker on a taker-only market pays nothing; no terms: nothing; unknown terms: null', () => {
    const makerRow = {
      ...takerRow,
      trader_side: 'MAKER',
      maker_orders: [{ maker_address: ME, asset_id: '11', price: '0.5', matched_amount: '4', side: 'SELL' }],
    };
    expect(tradeFee(ME, makerRow, TERMS)).toBe(0);
    expect(tradeFee(ME, makerRow, { ...TERMS, takerOnly: false })).toBeCloseTo(0.04, 10);
    expect(tradeFee(ME, takerRow, null)).toBe(0);
    expect(tradeFee(ME, takerRow, undefined)).toBeNull();
  });

  it('adds the question, the outcome name, the fee and the transaction to the trade as the wallet lived it', () => {
    const facts = { question: 'Will it?', slug: 'will-it', outcomes: { '11': 'Yes', '12': 'No' }, feeTerms: TERMS };
    const trade = tradeAsSeenBy(ME, takerRow);
    expect(tradeDetails(ME, takerRow, trade, facts)).toMatchObject({
      tradeId: 't1',
      question: 'Will it?',
      outcome: 'Yes',
      txHash: '0xabc123',
    });
    // Facts not read: the row's own outcome, no question, fee unknown; a hash that is not one is none.
    expect(tradeDetails(ME, { ...takerRow, transaction_hash: '' }, trade, undefined)).toMatchObject({
      outcome: 'Yes',
      fee: null,
      txHash: null,
    });
    expect(tradeDetails(ME, takerRow, trade, undefined)).not.toHaveProperty('question');
  });
});

/** The exchange's answers as the sandbox gives them, counted (the facts of a market are read once). */
function reads(
  markets: Record<
    string,
    { question: string; slug: string; tokens: [string, string][]; fd?: { r: number; e: number; to: boolean } | 'fails' }
  >,
) {
  const asked = { market: 0, clob: 0 };
  const r: MarketFactReads = {
    exchangeMarket: async (cid) => {
      asked.market++;
      const m = markets[cid];
      if (!m) throw new Error('not found');
      return {
        condition_id: cid,
        question: m.question,
        market_slug: m.slug,
        tokens: m.tokens.map(([token_id, outcome]) => ({ token_id, outcome })),
      };
    },
    exchangeClobMarket: async (cid) => {
      asked.clob++;
      const fd = markets[cid]?.fd;
      if (fd === 'fails') throw new Error('no /clob-markets here');
      return { c: cid, t: [], fd: fd ?? null };
    },
  };
  return { reads: r, asked };
}

describe('market facts (main)', () => {
  it('reads each market once, validates the answer, and keeps terms it could not read unknown', async () => {
    const { reads: r, asked } = reads({
      '0xc0': {
        question: 'Will it?',
        slug: 'will-it',
        tokens: [
          ['11', 'Yes'],
          ['12', 'No'],
        ],
        fd: { r: 0.04, e: 1, to: true },
      },
      '0xc1': {
        question: 'Other?',
        slug: 'other',
        tokens: [
          ['21', 'Up'],
          ['22', 'Down'],
        ],
        fd: 'fails',
      },
    });
    const facts = new TradeFacts(r);
    await Promise.all([facts.load('0xc0'), facts.load('0xC0'), facts.loadAll(['0xc0', '0xc1', '0xc1'])]);
    expect(asked).toEqual({ market: 2, clob: 2 });
    expect(facts.cached('0xc0')).toEqual({
      question: 'Will it?',
      slug: 'will-it',
      outcomes: { '11': 'Yes', '12': 'No' },
      feeTerms: { rate: 0.04, exponent: 1, takerOnly: true },
    });
    expect(facts.cached('0xc1')?.feeTerms).toBeUndefined();
    // Unknown to the exchange: nothing kept, asked again next time.
    expect(await facts.load('0xdead')).toBeUndefined();
    await facts.load('0xdead');
    expect(asked.market).toBe(4);
  });

  it('a wrong shape from the exchange is not taken for facts', async () => {
    const facts = new TradeFacts({
      exchangeMarket: async () => ({ condition_id: '0xc0', question: 42 }),
      exchangeClobMarket: async () => ({}),
    });
    expect(await facts.load('0xc0')).toBeUndefined();
  });

  it("names the wallet's trades and a position's question, token and market id", async () => {
    const { reads: r } = reads({
      '0xc0': {
        question: 'Will it?',
        slug: 'will-it',
        tokens: [
          ['11', 'Yes'],
          ['12', 'No'],
        ],
        fd: { r: 0.04, e: 1, to: true },
      },
    });
    const facts = new TradeFacts(r);
    const row = {
      id: 't1',
      market: '0xc0',
      asset_id: '12',
      side: 'SELL',
      price: '0.4',
      size: '5',
      status: 'MATCHED',
      match_time: '1',
      trader_side: 'TAKER',
      maker_orders: [],
    };
    const [trade] = await describedTrades(ME, [row], facts);
    expect(trade).toMatchObject({ question: 'Will it?', outcome: 'No', side: 'SELL', txHash: null });
    expect(trade!.fee).toBeCloseTo(5 * 0.04 * 0.24, 10);

    const bare: TraderPosition = {
      conditionId: '0xc0',
      marketSlug: null,
      outcome: 'no',
      size: 5,
      averagePrice: 0.4,
      currentPrice: 0.5,
      currentValue: 2.5,
      initialValue: 2,
      icon: '',
      endsOn: '',
    };
    const slugs: string[] = [];
    const found = await describedPosition(bare, facts, async (slug) => (slugs.push(slug), '501'));
    expect(found).toMatchObject({ question: 'Will it?', tokenId: '12', marketId: '501', conditionId: '0xc0', size: 5 });
    expect(slugs).toEqual(['will-it']);
    // The source's own title and token win over the exchange's.
    expect(
      await describedPosition({ ...bare, title: 'Titled', tokenId: '99', marketSlug: 's' }, facts, async () => null),
    ).toMatchObject({ question: 'Titled', tokenId: '99', marketId: null });
  });
});
