// The toolkit's own "why not" for liquidity rewards (Polymarket only says yes or no) and its exact reading of the
// decimal amounts the exchange writes.
import { describe, expect, it } from 'vitest';
import { collateralUnitsOf, rewardScoringVerdict } from '../../packages/toolkit/src/clob/rewards';

const terms = { maxSpreadCents: 3.5, minSize: 50 };
const book = { bestBid: 0.41, bestAsk: 0.44 };

describe('rewardScoringVerdict', () => {
  it('scores within the maximum spread of the midpoint with the minimum size', () => {
    expect(rewardScoringVerdict({ price: 0.4, size: 60 }, book, terms)).toEqual({ scores: true, distanceCents: 2.5 });
    expect(rewardScoringVerdict({ price: 0.44, size: 50 }, book, terms)).toEqual({ scores: true, distanceCents: 1.5 });
  });

  it('says why not: too far, too small, no midpoint, no rewards', () => {
    expect(rewardScoringVerdict({ price: 0.3, size: 60 }, book, terms)).toMatchObject({
      scores: false,
      reason: 'too-far',
    });
    // Exactly at the maximum spread is out (it would weigh nothing).
    expect(rewardScoringVerdict({ price: 0.39, size: 60 }, book, terms).reason).toBe('too-far');
    expect(rewardScoringVerdict({ price: 0.4, size: 49.99 }, book, terms).reason).toBe('too-small');
    expect(rewardScoringVerdict({ price: 0.4, size: 60 }, { bestBid: 0.41 }, terms).reason).toBe('no-midpoint');
    expect(rewardScoringVerdict({ price: 0.4, size: 60 }, book, undefined).reason).toBe('no-rewards');
    expect(rewardScoringVerdict({ price: 0.4, size: 60 }, book, { maxSpreadCents: 0, minSize: 0 }).reason).toBe(
      'no-rewards',
    );
  });
});

describe('collateralUnitsOf', () => {
  it('reads the decimal text exactly, never through a float product', () => {
    expect(collateralUnitsOf(13.043478)).toBe(13_043_478n);
    expect(collateralUnitsOf('86.956521')).toBe(86_956_521n);
    expect(collateralUnitsOf(0.29)).toBe(290_000n);
    expect(collateralUnitsOf(1e-7)).toBe(0n);
    expect(collateralUnitsOf('0.1234567')).toBe(123_456n);
    expect(collateralUnitsOf(100)).toBe(100_000_000n);
    expect(() => collateralUnitsOf('-1')).toThrow(/amount of collateral/);
  });
});
