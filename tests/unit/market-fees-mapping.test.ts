// Each source's fee terms onto the market model's `fees`: Gamma's feeSchedule (never its takerBaseFee, which is
// no rate), the aggregator's fee_schedule (null on a fee-free market); absent, nothing invented.
import { describe, expect, it } from 'vitest';
import { GammaMarketSchema } from '../../packages/toolkit/src/polymarket/gamma-schemas';
import { parseAnswer } from '../../packages/toolkit/src/polymarket/http';
import { toMarket as fromGamma } from '../../packages/toolkit/src/polymarket/mapping';
import { toMarket as fromAggregator } from '../../packages/toolkit/src/aggregator/source';
import { MarketSchema } from '../../packages/toolkit/src/model/aggregator';
import { gammaMarket } from '../helpers/polymarket-fixtures';
import { market } from '../helpers/aggregator-fixtures';

const gamma = (fields: Record<string, unknown>) =>
  fromGamma(parseAnswer(GammaMarketSchema, gammaMarket(fields), 'test'));
const aggregator = (fields: Record<string, unknown>) => fromAggregator(MarketSchema.parse({ ...market, ...fields }));

describe('fees from Gamma', () => {
  it('reads a feeSchedule, defaulting the exponent and taker-only', () => {
    expect(
      gamma({
        feesEnabled: true,
        takerBaseFee: 400,
        feeSchedule: { rate: 0.04, exponent: 1, takerOnly: true, rebateRate: 0 },
      }).fees,
    ).toEqual({ rate: 0.04, exponent: 1, takerOnly: true });
    expect(gamma({ feeSchedule: { rate: '0.072' } }).fees).toEqual({ rate: 0.072, exponent: 1, takerOnly: true });
  });

  it('never guesses a rate from takerBaseFee (issue 27): the schedule wins beside it, alone it says nothing', () => {
    // Real markets carry takerBaseFee 1000 beside a schedule of 0.07: takerBaseFee / 10 000 would say 0.1.
    expect(
      gamma({ feesEnabled: true, takerBaseFee: 1000, feeSchedule: { rate: 0.07, exponent: 1, takerOnly: true } }).fees,
    ).toEqual({ rate: 0.07, exponent: 1, takerOnly: true });
    expect(gamma({ feesEnabled: true, takerBaseFee: 1000 }).fees).toBeUndefined();
  });

  it('fees disabled is rate 0; nothing said is nothing', () => {
    expect(gamma({ feesEnabled: false, takerBaseFee: 0 }).fees).toEqual({ rate: 0, exponent: 1, takerOnly: true });
    expect(gamma({}).fees).toBeUndefined();
  });

  it('refuses a schedule of the wrong shape, naming the field', () => {
    expect(() => gamma({ feeSchedule: { rate: 'high' } })).toThrow(/feeSchedule\.rate/);
    expect(() => gamma({ feeSchedule: { rate: 0.04, exponent: 1.5 } })).toThrow(/feeSchedule\.exponent/);
  });
});

describe('fees from the aggregator', () => {
  it('reads fee_schedule; null is a fee-free market; absent says nothing', () => {
    expect(aggregator({ fee_schedule: { rate: 0.04, exponent: 1, taker_only: true } }).fees).toEqual({
      rate: 0.04,
      exponent: 1,
      takerOnly: true,
    });
    expect(aggregator({ fee_schedule: null }).fees).toEqual({ rate: 0, exponent: 1, takerOnly: true });
    expect(aggregator({}).fees).toBeUndefined();
    expect('fee_schedule' in aggregator({ fee_schedule: null })).toBe(false);
  });

  it('refuses a schedule of the wrong shape, naming the field', () => {
    const parsed = MarketSchema.safeParse({ ...market, fee_schedule: { rate: 'x' } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['fee_schedule', 'rate']);
  });
});
