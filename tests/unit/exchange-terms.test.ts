// The exchange terms kept for orders, on a hand-moved clock and counted reads: a market's /clob-markets answer and
// its tokens' ticks are read once per TTL (one read shared by orders asking at once), a failed read is not kept,
// a tick_size_change replaces the tick at once and drops the market's answer, forget makes the next order ask
// again; an exchange refusal for price and tick is told from other refusals.
import { describe, expect, it } from 'vitest';
import { ErrorCode, PmDeskError } from '@pmdesk/toolkit/model';
import { ExchangeTerms, isTickRefusal } from '../../src/main/trading/exchange-terms';

const COND = '0xcond';
const YES = '111';
const NO = '222';

function setup(
  answer: () => unknown = () => ({ t: [{ t: YES }, { t: NO }], mts: 0.01, nr: false, fd: { r: 0.02, e: 1 } }),
) {
  let time = 1_000;
  const reads = { markets: 0, ticks: 0 };
  let tick = '0.01';
  let failNext = false;
  const terms = new ExchangeTerms(
    {
      clobMarket: async () => {
        reads.markets++;
        if (failNext) {
          failNext = false;
          throw new PmDeskError(ErrorCode.NETWORK_ERROR, 'no answer');
        }
        return answer();
      },
      tickSize: async () => {
        reads.ticks++;
        return tick as '0.01';
      },
    },
    () => time,
    60_000,
  );
  return {
    terms,
    reads,
    advance: (ms: number) => (time += ms),
    setTick: (t: string) => (tick = t),
    failNextMarket: () => (failNext = true),
  };
}

describe('exchange terms', () => {
  it('reads a market and its ticks once per TTL, sharing one read between orders asking at once', async () => {
    const t = setup();
    const [a, b] = await Promise.all([t.terms.clobMarket(COND), t.terms.clobMarket(COND)]);
    expect(a).toBe(b);
    expect(t.reads.markets).toBe(1);
    // The answer's mts is each of its tokens' tick: no GET /tick-size for them.
    expect(await t.terms.tickSize(YES)).toBe('0.01');
    expect(await t.terms.tickSize(NO)).toBe('0.01');
    expect(t.reads.ticks).toBe(0);
    t.advance(59_999);
    await t.terms.clobMarket(COND);
    await t.terms.tickSize(YES);
    expect(t.reads).toEqual({ markets: 1, ticks: 0 });
    // The TTL is up: the exchange is asked again.
    t.advance(1);
    await t.terms.clobMarket(COND);
    expect(t.reads.markets).toBe(2);
    t.advance(60_000);
    await t.terms.tickSize('333'); // a token no answer named: GET /tick-size
    await t.terms.tickSize('333');
    expect(t.reads.ticks).toBe(1);
  });

  it('keeps no failed read: the next order asks again', async () => {
    const t = setup();
    t.failNextMarket();
    await expect(t.terms.clobMarket(COND)).rejects.toThrow('no answer');
    await expect(t.terms.clobMarket(COND)).resolves.toMatchObject({ mts: 0.01 });
    expect(t.reads.markets).toBe(2);
  });

  it('takes a tick_size_change at once and drops the market answer that named the old tick', async () => {
    const t = setup();
    await t.terms.clobMarket(COND);
    t.terms.tickChanged(YES, '0.001');
    expect(await t.terms.tickSize(YES)).toBe('0.001');
    expect(t.reads.ticks).toBe(0); // the channel said it: nothing asked
    await t.terms.clobMarket(COND); // its mts was the old tick: read again
    expect(t.reads.markets).toBe(2);
    // A tick the toolkit has no rule for is not kept: the exchange is asked.
    t.setTick('0.0001');
    t.terms.tickChanged(NO, '0.5');
    expect(await t.terms.tickSize(NO)).toBe('0.0001');
    expect(t.reads.ticks).toBe(1);
  });

  it('forgets a token (a refusal for its tick): the next order reads its tick and market again', async () => {
    const t = setup();
    await t.terms.clobMarket(COND);
    expect(await t.terms.tickSize(YES)).toBe('0.01');
    t.setTick('0.001');
    t.terms.forget(YES);
    expect(await t.terms.tickSize(YES)).toBe('0.001');
    expect(t.reads.ticks).toBe(1);
    await t.terms.clobMarket(COND);
    expect(t.reads.markets).toBe(2);
  });

  it('tells a refusal for price and tick from other refusals and from errors without an answer', () => {
    const refused = (detail: string, status?: number) =>
      new PmDeskError(ErrorCode.INVALID_PARAMETER, detail, { statusCode: status });
    expect(
      isTickRefusal(refused('invalid price (0.455): the price must be a multiple of the tick size 0.01', 400)),
    ).toBe(true);
    expect(isTickRefusal(refused('invalid price (0.995), min: 0.01 - max: 0.99', 400))).toBe(true);
    expect(isTickRefusal(refused('not enough balance / allowance', 400))).toBe(false);
    // Not an exchange answer (the toolkit's own check before sending) or the exchange failing: not a refusal.
    expect(isTickRefusal(refused('invalid price (0.455): the price must be a multiple of the tick size 0.01'))).toBe(
      false,
    );
    expect(isTickRefusal(refused('invalid tick size', 502))).toBe(false);
  });
});
