// The rounding table and amount algorithms with concrete numbers (the official clients' own test expectations).
import { describe, expect, it } from 'vitest';
import {
  ROUNDING,
  decimalPlaces,
  limitOrderRawAmounts,
  marketOrderRawAmounts,
  roundDown,
  roundNormal,
  roundUp,
  toBaseUnits,
  toTickSize,
  type OrderSide,
  type TickSize,
} from '../../packages/toolkit/src/orders/rounding';

const limit = (tick: TickSize, side: OrderSide, price: number, size: number) => {
  const raw = limitOrderRawAmounts(side, size, price, ROUNDING[tick]);
  return `${toBaseUnits(raw.maker)}/${toBaseUnits(raw.taker)}`;
};
const market = (tick: TickSize, side: OrderSide, price: number, amount: number) => {
  const raw = marketOrderRawAmounts(side, amount, price, ROUNDING[tick]);
  return `${toBaseUnits(raw.maker)}/${toBaseUnits(raw.taker)}`;
};

describe('rounding table', () => {
  it('has the version 1 rows plus the version 2 ticks', () => {
    expect(ROUNDING).toEqual({
      '0.1': { price: 1, size: 2, amount: 3 },
      '0.01': { price: 2, size: 2, amount: 4 },
      '0.005': { price: 3, size: 2, amount: 5 },
      '0.0025': { price: 4, size: 2, amount: 6 },
      '0.001': { price: 3, size: 2, amount: 5 },
      '0.0001': { price: 4, size: 2, amount: 6 },
    });
  });

  it('reads a tick the server sends as a number, and refuses unknown ticks', () => {
    expect(toTickSize(0.01)).toBe('0.01');
    expect(toTickSize('0.0025')).toBe('0.0025');
    expect(() => toTickSize('0.02')).toThrow(/invalid tick size \(0.02\)/);
  });

  it('rounds normal, down and up, leaving short numbers alone', () => {
    expect(decimalPlaces(949.9970999999999)).toBe(13);
    expect(decimalPlaces(5)).toBe(0);
    expect(decimalPlaces(1e-7)).toBe(0);
    expect(roundNormal(0.555, 2)).toBe(0.56);
    expect(roundNormal(0.12345, 4)).toBe(0.1235);
    expect(roundDown(0.555, 2)).toBe(0.55);
    expect(roundDown(2435.899, 2)).toBe(2435.89);
    expect(roundUp(11.782399999999999, 8)).toBe(11.7824);
    expect(roundUp(0.5, 2)).toBe(0.5);
  });
});

describe('limit order amounts', () => {
  it('BUY 21.04 shares on every tick', () => {
    expect(limit('0.1', 'BUY', 0.5, 21.04)).toBe('10520000/21040000');
    expect(limit('0.01', 'BUY', 0.56, 21.04)).toBe('11782400/21040000');
    expect(limit('0.001', 'BUY', 0.056, 21.04)).toBe('1178240/21040000');
    expect(limit('0.0001', 'BUY', 0.0056, 21.04)).toBe('117824/21040000');
    expect(limit('0.005', 'BUY', 0.505, 21.04)).toBe('10625200/21040000');
  });

  it('SELL swaps maker and taker', () => {
    expect(limit('0.01', 'SELL', 0.56, 21.04)).toBe('21040000/11782400');
    expect(limit('0.0025', 'SELL', 0.9975, 33.33)).toBe('33330000/33246675');
  });

  it('real cases from the official tests', () => {
    expect(limit('0.1', 'BUY', 0.7, 170)).toBe('119000000/170000000');
    expect(limit('0.1', 'BUY', 0.7, 12.8205)).toBe('8974000/12820000');
    expect(limit('0.1', 'BUY', 0.3, 2435.89)).toBe('730767000/2435890000');
    expect(limit('0.01', 'BUY', 0.82, 101)).toBe('82820000/101000000');
    expect(limit('0.01', 'BUY', 0.78, 12.8205)).toBe('9999600/12820000');
    expect(limit('0.01', 'BUY', 0.39, 2435.89)).toBe('949997100/2435890000');
    expect(limit('0.001', 'BUY', 0.078, 12.8205)).toBe('999960/12820000');
    expect(limit('0.0001', 'BUY', 0.0039, 2435.89)).toBe('9499971/2435890000');
    expect(limit('0.01', 'BUY', 0.82, 20)).toBe('16400000/20000000');
  });

  it('rounds an off-grid price to nearest and a size of 0.001 to nothing', () => {
    expect(limit('0.01', 'BUY', 0.555, 10)).toBe('5600000/10000000');
    expect(limit('0.01', 'BUY', 0.5, 0.001)).toBe('0/0');
  });
});

describe('market order amounts', () => {
  it('BUY $100 and SELL 100 shares on every old tick', () => {
    expect(market('0.1', 'BUY', 0.5, 100)).toBe('100000000/200000000');
    expect(market('0.01', 'BUY', 0.56, 100)).toBe('100000000/178571400');
    expect(market('0.001', 'BUY', 0.056, 100)).toBe('100000000/1785714280');
    expect(market('0.0001', 'BUY', 0.0056, 100)).toBe('100000000/17857142857');
    expect(market('0.1', 'SELL', 0.5, 100)).toBe('100000000/50000000');
    expect(market('0.01', 'SELL', 0.56, 100)).toBe('100000000/56000000');
    expect(market('0.001', 'SELL', 0.056, 100)).toBe('100000000/5600000');
    expect(market('0.0001', 'SELL', 0.0056, 100)).toBe('100000000/560000');
  });

  it('real cases from the official tests', () => {
    expect(market('0.1', 'BUY', 0.7, 9.9996)).toBe('9990000/14271000');
    expect(market('0.1', 'BUY', 0.3, 949.9971)).toBe('949990000/3166633000');
    expect(market('0.01', 'BUY', 0.78, 9.9996)).toBe('9990000/12807600');
    expect(market('0.01', 'BUY', 0.56, 1)).toBe('1000000/1785700');
    expect(market('0.01', 'BUY', 0.57, 1)).toBe('1000000/1754300');
    expect(market('0.001', 'BUY', 0.039, 949.9971)).toBe('949990000/24358717940');
    expect(market('0.0001', 'BUY', 0.0057, 1)).toBe('1000000/175438596');
  });

  it('rounds the price down, not to nearest', () => {
    expect(market('0.01', 'SELL', 0.559, 100)).toBe('100000000/55000000');
  });
});

describe('base units', () => {
  it('turns decimal text into integer 6-decimal units, rounding extra digits half up', () => {
    expect(toBaseUnits(0)).toBe('0');
    expect(toBaseUnits(11.7824)).toBe('11782400');
    expect(toBaseUnits(17857.142857)).toBe('17857142857');
    expect(toBaseUnits(1.0000005)).toBe('1000001');
    expect(toBaseUnits(1.0000004)).toBe('1000000');
    expect(toBaseUnits(0.9999995)).toBe('1000000');
  });

  it('gives the exact digits for every number of up to 6 decimals (the fast path) and for leading zeros', () => {
    expect(toBaseUnits(0.000001)).toBe('1');
    expect(toBaseUnits(0.5)).toBe('500000');
    expect(toBaseUnits(100)).toBe('100000000');
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let k = 0; k < 2000; k++) {
      const text = `${next() % 100000}.${String(next() % 1000000).padStart(6, '0')}`;
      const x = Number(text);
      // Only numbers whose shortest text is these digits (trailing zeros aside) are a fair check of the digits.
      if (x.toString() !== text.replace(/\.?0+$/, '')) continue;
      const [i, f] = text.split('.') as [string, string];
      expect(toBaseUnits(x)).toBe((BigInt(i) * 1_000_000n + BigInt(f)).toString());
    }
  });

  it('refuses exponent notation and negatives rather than guessing', () => {
    expect(() => toBaseUnits(1e-7)).toThrow(/cannot be expressed in base units/);
    expect(() => toBaseUnits(-1)).toThrow(/cannot be expressed in base units/);
    expect(() => toBaseUnits(1e21)).toThrow(/cannot be expressed in base units/);
  });
});
