// The page's one number-format module: each format at its edges (zero, negatives, sub-cent, huge) and a figure
// that is not a number (null, undefined, NaN, Infinity), which reads as a dash and never as "NaN".
import { describe, expect, it } from 'vitest';
import {
  UNKNOWN,
  centDecimals,
  centsText,
  formatCents,
  formatShares,
  formatTickCents,
  formatUsd,
  priceToCents,
  sharesTextLength,
  signedPercent,
  signedUsd,
} from '../../src/renderer/src/format/numbers';

const notNumbers = [null, undefined, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];

describe('the number formats of the page', () => {
  it('a figure that is not a number reads as a dash in every format', () => {
    expect(UNKNOWN).toBe('—');
    for (const value of notNumbers) {
      expect(formatCents(value)).toBe('—');
      expect(formatTickCents(value, '0.01')).toBe('—');
      expect(centsText(value)).toBe('—');
      expect(formatShares(value)).toBe('—');
      expect(formatUsd(value)).toBe('—');
      expect(sharesTextLength(value)).toBe(1);
      expect(signedUsd(value)).toBe('—');
      expect(signedPercent(value)).toBe('—');
    }
    expect(priceToCents(Number.NaN)).toBe('—');
  });

  it('cents at the ladder decimals: zero, sub-cent, negative, above a dollar', () => {
    expect(formatCents(0)).toBe('0.0¢');
    expect(formatCents(0, 0)).toBe('0¢');
    expect(formatCents(0.52, 0)).toBe('52¢');
    expect(formatCents(0.523, 0)).toBe('52.3¢');
    expect(formatCents(0.0005, 0)).toBe('0.05¢');
    expect(formatCents(0.00001, 0)).toBe('0¢');
    expect(formatCents(-0.25, 0)).toBe('-25¢');
    expect(formatCents(12345.6789, 1)).toBe('1234567.89¢');
    expect(centDecimals('0.01')).toBe(0);
    expect(centDecimals('0.001')).toBe(1);
    expect(centDecimals(undefined)).toBe(0);
  });

  it('cents on a tick: the tick decimals, no trailing zeros', () => {
    expect(formatTickCents(0.455, '0.001')).toBe('45.5¢');
    expect(formatTickCents(0.455, '0.01')).toBe('46¢');
    expect(formatTickCents(0.5, '0.001')).toBe('50¢');
    expect(formatTickCents(0.0001)).toBe('0.01¢');
    expect(formatTickCents(0)).toBe('0¢');
    expect(formatTickCents(-0.1, '0.01')).toBe('-10¢');
    expect(priceToCents(0.455, '0.001')).toBe('45.5');
  });

  it('bare cents for the grid: a whole cent or one decimal', () => {
    expect(centsText(0)).toBe('0');
    expect(centsText(0.53)).toBe('53');
    expect(centsText(0.027)).toBe('2.7');
    expect(centsText(0.0001)).toBe('0');
    expect(centsText(-0.015)).toBe('-1.5');
    expect(centsText(1e6)).toBe('100000000');
  });

  it('shares: grouped, two decimals at most, and the width counted without formatting', () => {
    for (const [value, text] of [
      [0, '0'],
      [1234.5, '1,234.5'],
      [0.004, '0'],
      [0.005, '0.01'],
      [9.995, '10'],
      [-12.34, '-12.34'],
      [-0.001, '0'],
      [1e12, '1,000,000,000,000'],
    ] as const) {
      expect(formatShares(value)).toBe(text);
      expect(sharesTextLength(value)).toBe(text.length);
    }
  });

  it('dollars: grouped cents, a true minus for a loss, never a negative zero', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(-3.2)).toBe('−$3.20');
    expect(formatUsd(-0.001)).toBe('$0.00');
    expect(formatUsd(0.005)).toBe('$0.01');
    expect(formatUsd(1e12)).toBe('$1,000,000,000,000.00');
  });

  it('a profit or loss and a change as a share: signed with a true minus, no sign on what rounds to zero', () => {
    expect(signedUsd(3)).toBe('+$3.00');
    expect(signedUsd(-1234.5)).toBe('−$1,234.50');
    expect(signedUsd(0)).toBe('$0.00');
    expect(signedUsd(0.001)).toBe('$0.00');
    expect(signedUsd(-0.001)).toBe('$0.00');
    expect(signedPercent(37.5)).toBe('+37.5 %');
    expect(signedPercent(-6.666)).toBe('−6.67 %');
    expect(signedPercent(0.004)).toBe('0 %');
    expect(signedPercent(-0.004)).toBe('0 %');
    expect(signedPercent(123456)).toBe('+123,456 %');
  });
});
