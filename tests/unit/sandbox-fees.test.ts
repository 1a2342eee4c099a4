// The sandbox's taker fee (docs/protocol.md#fees): shares × r × (p(1−p))^e in collateral base units, exact and
// rounded down once; the parameters the catalog may carry; and the rate in basis points the CLOB reports.
import { describe, expect, it } from 'vitest';
import { checkFees, feeRateBps, takerFee, type MarketFees } from '../../sandbox/market/fees';
import { SANDBOX_EVENTS } from '../../sandbox/market/catalog';

const CRYPTO: MarketFees = { rate: 0.072, exponent: 1, takerOnly: true };
const POLITICS: MarketFees = { rate: 0.04, exponent: 1, takerOnly: true };
const shares = (n: number) => BigInt(Math.round(n * 1e6));

describe('takerFee', () => {
  it('charges the documented example: $100 at 0.30 on a crypto market costs $5.04', () => {
    // $100 buys 333.333333 shares at 0.30; the documented figure is for the exact notional.
    expect(takerFee(CRYPTO, [{ shares: shares(1000), takerPrice: 3000 }])).toBe(15_120_000n);
    expect(takerFee(CRYPTO, [{ shares: 333_333_333n, takerPrice: 3000 }])).toBe(5_039_999n);
  });

  it('rounds down to the base unit, once over all the fills, each at its own price', () => {
    // 10 shares at 0.37: 10 × 0.04 × 0.37 × 0.63 = 0.09324 exactly.
    expect(takerFee(POLITICS, [{ shares: shares(10), takerPrice: 3700 }])).toBe(93_240n);
    // 1 base unit at 0.5 is 0.0000072 base units: nothing.
    expect(takerFee(CRYPTO, [{ shares: 1n, takerPrice: 5000 }])).toBe(0n);
    // Two fills of 0.9 units each round to 0 alone but 1 together (50 × 0.072 × 0.25 = 0.9).
    const small = { shares: 50n, takerPrice: 5000 };
    expect(takerFee(CRYPTO, [small])).toBe(0n);
    expect(takerFee(CRYPTO, [small, small])).toBe(1n);
    expect(
      takerFee(POLITICS, [
        { shares: shares(10), takerPrice: 3000 },
        { shares: shares(20), takerPrice: 3100 },
      ]),
    ).toBe(84_000n + 171_120n);
  });

  it('raises p(1−p) to the exponent and is symmetric in p and 1−p', () => {
    const squared: MarketFees = { rate: 0.25, exponent: 2, takerOnly: true };
    // 100 × 0.25 × (0.2 × 0.8)² = 0.64.
    expect(takerFee(squared, [{ shares: shares(100), takerPrice: 2000 }])).toBe(640_000n);
    expect(takerFee(squared, [{ shares: shares(100), takerPrice: 8000 }])).toBe(640_000n);
    expect(takerFee(CRYPTO, [{ shares: shares(100), takerPrice: 9900 }])).toBe(
      takerFee(CRYPTO, [{ shares: shares(100), takerPrice: 100 }]),
    );
  });

  it('charges nothing without fees or at a zero rate', () => {
    expect(takerFee(undefined, [{ shares: shares(100), takerPrice: 5000 }])).toBe(0n);
    expect(takerFee({ rate: 0, exponent: 1, takerOnly: true }, [{ shares: shares(100), takerPrice: 5000 }])).toBe(0n);
  });
});

describe('fee parameters', () => {
  it('states the rate in basis points', () => {
    expect(feeRateBps(CRYPTO)).toBe(720);
    expect(feeRateBps(POLITICS)).toBe(400);
    expect(feeRateBps(undefined)).toBe(0);
  });

  it('refuses rates, exponents and maker fees the exchange cannot charge', () => {
    expect(() => checkFees({ rate: 1.2, exponent: 1, takerOnly: true })).toThrow(/fee rate/);
    expect(() => checkFees({ rate: 0.0000001, exponent: 1, takerOnly: true })).toThrow(/6 decimals/);
    expect(() => checkFees({ rate: 0.04, exponent: 1.5, takerOnly: true })).toThrow(/exponent/);
    expect(() => checkFees({ rate: 0.04, exponent: 1, takerOnly: false as true })).toThrow(/taker/);
    expect(checkFees(CRYPTO)).toBe(CRYPTO);
  });

  it('gives the tech market a 0.04 taker fee and leaves the others fee-free', () => {
    const withFees = SANDBOX_EVENTS.flatMap((e) => e.markets).filter((m) => m.fees);
    expect(withFees.map((m) => [m.id, m.fees])).toEqual([['90041', POLITICS]]);
  });
});
