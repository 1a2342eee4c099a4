// The order flow's fee estimate: reading the exchange's `fd` terms (and refusing a wrong shape), which terms win,
// the taker fills an order would take from the book, their fee, the terms in words, and the market BUY's shrink.
import { formatDollars } from '../../src/main/trading/checks';
import { describe, expect, it } from 'vitest';
import { ErrorCode, PmDeskError } from '../../packages/toolkit/src/model/errors';
import {
  chooseFeeTerms,
  describeFeeTerms,
  expectedTakerFills,
  feeTermsOfClobMarket,
  planOrderFee,
  shrinkMarketBuy,
  takerFeeUnits,
  type OrderFeeReads,
} from '../../src/main/trading/order-fees';
import type { OrderPlan, TradedMarket } from '../../src/main/trading/order-input';

const TECH = { rate: 0.04, exponent: 1, takerOnly: true };
// Best level last, as Polymarket lists them: asks 0.50 (10), 0.52 (20), 0.60 (100); bids 0.45 (10), 0.40 (50).
const BOOK = {
  asks: [
    { price: '0.6', size: '100' },
    { price: '0.52', size: '20' },
    { price: '0.5', size: '10' },
  ],
  bids: [
    { price: '0.4', size: '50' },
    { price: '0.45', size: '10' },
  ],
};
const limit = (side: 'BUY' | 'SELL', price: number, size: number, postOnly = false): OrderPlan => ({
  kind: 'limit',
  side,
  price,
  size,
  orderType: 'GTC',
  expiration: 0,
  postOnly,
});
const market = (side: 'BUY' | 'SELL', amount: number, price?: number): OrderPlan => ({
  kind: 'market',
  side,
  price,
  amount,
  orderType: 'FOK',
  estimatedSize: 0,
  estimatedPrice: 0.5,
});

describe('fee terms', () => {
  it('reads the CLOB market’s fd, a missing, null or zero-rate fd as no fee', () => {
    expect(feeTermsOfClobMarket({ c: '0x1', fd: { r: 0.072, e: 1, to: true } })).toEqual({
      rate: 0.072,
      exponent: 1,
      takerOnly: true,
    });
    expect(feeTermsOfClobMarket({ fd: { r: '0.04', e: 2 } })).toEqual({ rate: '0.04', exponent: 2, takerOnly: true });
    expect(feeTermsOfClobMarket({ fd: { r: 0, e: 0, to: true } })).toBeUndefined();
    expect(feeTermsOfClobMarket({ fd: null })).toBeUndefined();
    expect(feeTermsOfClobMarket({})).toBeUndefined();
  });

  it('refuses a wrong fd shape with ERR_VALIDATION naming the field', () => {
    const wrong = () => feeTermsOfClobMarket({ fd: { r: 0.04, e: 1.5 } });
    expect(wrong).toThrow(PmDeskError);
    expect(wrong).toThrow(/fd\.e/);
    const thrown = (() => {
      try {
        feeTermsOfClobMarket({ fd: { r: 'four', e: 1 } });
      } catch (error) {
        return error as PmDeskError;
      }
      return undefined;
    })();
    expect(thrown?.code).toBe(ErrorCode.VALIDATION_ERROR);
    expect(thrown?.message).toContain('fd.r');
  });

  it('lets the exchange’s answer win over the source, and falls back to the source without one', () => {
    expect(chooseFeeTerms({ terms: undefined }, TECH)).toEqual({ terms: undefined, source: 'none' });
    expect(chooseFeeTerms({ terms: { rate: 0.072, exponent: 1 } }, TECH)).toEqual({
      terms: { rate: 0.072, exponent: 1 },
      source: 'exchange',
    });
    expect(chooseFeeTerms(undefined, TECH)).toEqual({ terms: TECH, source: 'market' });
    expect(chooseFeeTerms(undefined, { rate: 0, exponent: 1, takerOnly: true })).toEqual({
      terms: undefined,
      source: 'none',
    });
    // Neither the exchange nor the market said: unknown, not "no fee" (issue 27, defect 2).
    expect(chooseFeeTerms(undefined, undefined)).toEqual({ terms: undefined, source: 'unknown' });
  });

  it('says the terms in the trader’s words', () => {
    expect(describeFeeTerms(TECH)).toBe('taker fee 4 %·p(1−p)');
    expect(describeFeeTerms({ rate: 0.072, exponent: 1 })).toBe('taker fee 7.2 %·p(1−p)');
    expect(describeFeeTerms({ rate: 0.25, exponent: 2, takerOnly: false })).toBe('fee 25 %·(p(1−p))^2');
  });
});

describe('expected taker fills and their fee', () => {
  it('walks a market BUY’s dollars across the asks, best first', () => {
    // $5 at 0.50 takes the 10 shares; $5.20 more takes 10 of the 20 at 0.52.
    expect(expectedTakerFills(BOOK, market('BUY', 10.2))).toEqual([
      { price: '0.5', shares: 10_000_000n },
      { price: '0.52', shares: 10_000_000n },
    ]);
    // 10 × 0.04 × 0.25 + 10 × 0.04 × 0.52 × 0.48 = 0.1 + 0.09984
    expect(takerFeeUnits(TECH, expectedTakerFills(BOOK, market('BUY', 10.2)))).toBe(199_840n);
  });

  it('stops at a market order’s worst price and a limit order’s limit; the rest of a limit order rests without fee', () => {
    expect(expectedTakerFills(BOOK, market('BUY', 100, 0.5))).toEqual([{ price: '0.5', shares: 10_000_000n }]);
    expect(expectedTakerFills(BOOK, limit('BUY', 0.52, 50))).toEqual([
      { price: '0.5', shares: 10_000_000n },
      { price: '0.52', shares: 20_000_000n },
    ]);
    expect(expectedTakerFills(BOOK, limit('BUY', 0.49, 50))).toEqual([]);
    expect(expectedTakerFills(BOOK, limit('SELL', 0.42, 30))).toEqual([{ price: '0.45', shares: 10_000_000n }]);
    expect(expectedTakerFills(BOOK, market('SELL', 30))).toEqual([
      { price: '0.45', shares: 10_000_000n },
      { price: '0.4', shares: 20_000_000n },
    ]);
  });

  it('gives a post-only order no taker fill, and no terms no fee', () => {
    expect(expectedTakerFills(BOOK, limit('BUY', 0.6, 50, true))).toEqual([]);
    expect(takerFeeUnits(undefined, [{ price: '0.5', shares: 10_000_000n }])).toBe(0n);
  });
});

describe('the market BUY shrink', () => {
  it('is the official client’s (vector F01: rate 0.25, exponent 2, at 0.5, $50 of a $50 balance → 48.4375)', () => {
    expect(shrinkMarketBuy(50, 0.5, 50_000_000n, { rate: 0.25, exponent: 2 })).toBe(48.4375);
    expect(shrinkMarketBuy(50, 0.5, 60_000_000n, { rate: 0.25, exponent: 2 })).toBeUndefined();
    expect(shrinkMarketBuy(50, 0.5, 50_000_000n, undefined)).toBeUndefined();
  });
});

describe('planOrderFee', () => {
  const traded = (fees?: TradedMarket['fees']): TradedMarket => ({
    id: '1',
    question: 'Q?',
    conditionId: '0xabc',
    negRisk: false,
    tickSize: '0.01',
    minimumOrderSize: 5,
    acceptingOrders: true,
    closed: false,
    tokens: [],
    ...(fees ? { fees } : {}),
  });
  const reads = (clob: () => Promise<unknown>, balance = 1_000_000_000n): OrderFeeReads & { asked: string[] } => {
    const asked: string[] = [];
    return {
      asked,
      clobMarket: (id) => (asked.push(`clob ${id}`), clob()),
      book: async () => (asked.push('book'), BOOK),
      balance: async () => (asked.push('balance'), balance),
    };
  };
  const down = () => Promise.reject(new PmDeskError(ErrorCode.NETWORK_ERROR, 'down'));

  it('charges nothing on version 1 (the order signs its fee) and asks nothing', async () => {
    const r = reads(async () => ({ fd: { r: 0.04, e: 1 } }));
    expect((await planOrderFee(r, traded(TECH), 't', limit('BUY', 0.6, 10), 1)).fee).toMatchObject({
      units: 0n,
      source: 'none',
    });
    expect(r.asked).toEqual([]);
  });

  it('uses the exchange’s terms over the source’s, and the source’s when the exchange does not answer', async () => {
    const fromExchange = await planOrderFee(
      reads(async () => ({ fd: { r: 0.072, e: 1, to: true } })),
      traded(TECH),
      't',
      limit('BUY', 0.5, 10),
      2,
    );
    expect(fromExchange.fee).toMatchObject({ source: 'exchange', units: 180_000n }); // 10 × 0.072 × 0.25
    const fromMarket = await planOrderFee(reads(down), traded(TECH), 't', limit('BUY', 0.5, 10), 3);
    expect(fromMarket.fee).toMatchObject({ source: 'market', units: 100_000n });
    await expect(
      planOrderFee(
        reads(async () => ({ fd: { r: 0.04, e: 'one' } })),
        traded(TECH),
        't',
        limit('BUY', 0.5, 10),
        2,
      ),
    ).rejects.toThrow(/fd\.e/);
  });

  it('says the fee is unknown when the exchange does not answer and the market states no terms', async () => {
    const unknown = await planOrderFee(reads(down), traded(), 't', limit('BUY', 0.5, 10), 2);
    expect(unknown.fee).toMatchObject({ source: 'unknown', terms: undefined, units: 0n });
    // The exchange answering without fee details is a fee-free market, known as such.
    expect(
      (
        await planOrderFee(
          reads(async () => ({ fd: null })),
          traded(),
          't',
          limit('BUY', 0.5, 10),
          2,
        )
      ).fee,
    ).toMatchObject({ source: 'none' });
  });

  it('shrinks a market BUY only when amount and fee exceed the balance', async () => {
    const rich = reads(async () => ({ fd: { r: 0.04, e: 1 } }));
    const untouched = await planOrderFee(rich, traded(), 't', market('BUY', 5), 2);
    expect(untouched.plan).toMatchObject({ amount: 5 });
    expect(untouched.fee.shrunkFrom).toBeUndefined();
    const poor = await planOrderFee(
      reads(async () => ({ fd: { r: 0.04, e: 1 } }), 5_000_000n),
      traded(),
      't',
      market('BUY', 5),
      2,
    );
    expect(poor.plan).toMatchObject({ amount: 4.9, estimatedSize: 9.8 });
    expect(poor.fee).toMatchObject({ shrunkFrom: 5, units: 98_000n });
  });
});

describe('dollars in the pre-trade checks’ sentences', () => {
  it('are written as the screens write them, from base units, keeping a fee’s sub-cent digits', () => {
    expect(formatDollars(100_000_000n)).toBe('$100.00');
    expect(formatDollars(1_234_567_500_000n)).toBe('$1,234,567.50');
    expect(formatDollars(5_100_000n)).toBe('$5.10');
    expect(formatDollars(2_500n)).toBe('$0.0025');
    expect(formatDollars(0n)).toBe('$0.00');
  });
});
