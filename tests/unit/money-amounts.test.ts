// Money amounts as the trader types and reads them: exact dollar text to base units (never through a float), and
// share counts without trailing zeros.
import { describe, expect, it } from 'vitest';
import { dollarUnits } from '../../src/main/trading/money';
import { baseUnitsOf, sharesText } from '../../packages/toolkit/src/positions/money-calls';
import { ErrorCode } from '../../packages/toolkit/src/model/errors';

describe('dollarUnits', () => {
  it.each([
    ['12.5', 12_500_000n],
    ['0.000001', 1n],
    ['5', 5_000_000n],
    ['2.000001', 2_000_001n],
    ['999999999999.999999', 999_999_999_999_999_999n],
  ])('%s dollars are %s base units', (text, units) => {
    expect(dollarUnits(text, 'wrap')).toBe(units);
  });

  it.each(['0', '0.000000', '1.0000001', '-1', '1e3', '', ' ', '0x10', '1,5'])('refuses %j', (text) => {
    expect(() => dollarUnits(text, 'wrap')).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_PARAMETER }));
  });
});

describe('baseUnitsOf and sharesText', () => {
  it('takes only positive whole base units', () => {
    expect(baseUnitsOf('1', 'split')).toBe(1n);
    for (const bad of ['0', '-1', '1.5', 7, undefined])
      expect(() => baseUnitsOf(bad, 'split')).toThrow(expect.objectContaining({ code: ErrorCode.INVALID_PARAMETER }));
  });

  it.each([
    [1_500_000n, '1.5'],
    [3_000_000n, '3'],
    [1n, '0.000001'],
    [10_250_000n, '10.25'],
    [0n, '0'],
  ])('%s base units read %s shares', (units, text) => {
    expect(sharesText(units)).toBe(text);
  });
});
