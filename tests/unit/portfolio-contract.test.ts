// The Portfolio operations refuse what they cannot serve before it reaches main: exactly one owner (a wallet or
// an address), a known period, and export days that exist, in order.
import { describe, expect, it } from 'vitest';
import { dayProblem, operations } from '../../src/shared/contract';

const A = `0x${'ab'.repeat(20)}`;
const portfolio = (input: unknown) => operations.getPortfolio.input.safeParse(input);
const exporting = (input: unknown) => operations.exportActivity.input.safeParse(input);

describe('getPortfolio input', () => {
  it('takes a wallet or an address, with the period defaulting to all', () => {
    expect(portfolio({ wallet: 'main' })).toMatchObject({ success: true, data: { wallet: 'main', period: 'all' } });
    expect(portfolio({ address: A, period: 'week' })).toMatchObject({ success: true, data: { period: 'week' } });
  });

  it('refuses both owners, neither, a wrong address and an unknown period', () => {
    expect(portfolio({ wallet: 'main', address: A }).success).toBe(false);
    expect(portfolio({}).success).toBe(false);
    expect(portfolio({ address: '0x1234' }).success).toBe(false);
    expect(portfolio({ wallet: 'main', period: 'year' }).success).toBe(false);
  });
});

describe('exportActivity input', () => {
  it('takes two days in order', () => {
    expect(exporting({ address: A, from: '2026-01-01', to: '2026-12-31' }).success).toBe(true);
    expect(exporting({ wallet: 'main', from: '2026-11-28', to: '2026-11-28' }).success).toBe(true);
  });

  it('refuses days out of order, days not on the calendar and other shapes', () => {
    expect(exporting({ address: A, from: '2026-11-28', to: '2026-11-01' }).success).toBe(false);
    expect(exporting({ address: A, from: '2026-02-30', to: '2026-03-01' }).success).toBe(false);
    expect(exporting({ address: A, from: '28/11/2026', to: '2026-12-01' }).success).toBe(false);
    expect(exporting({ from: '2026-11-01', to: '2026-11-28' }).success).toBe(false);
  });

  it('names a day that is not on the calendar', () => {
    expect(dayProblem('2026-02-29')).toBe('2026-02-29 is not a day of the calendar.');
    expect(dayProblem('2028-02-29')).toBeNull();
  });
});
