// The Portfolio view's pure model: the PnL chart cut into measured and estimated stretches with $0 in view,
// signed dollars and cents from exact base units, and the export's days and their checks.
import { describe, expect, it } from 'vitest';
import type { PnlPoint } from '../../src/shared/contract';
import {
  defaultExportDays,
  exportDaysProblem,
  planPnlChart,
  signedCents,
} from '../../src/renderer/src/model/portfolio';

const point = (at: number, units: number, estimated = false): PnlPoint => ({
  at,
  pnl: { units: String(units), text: '' },
  estimated,
});

describe('the PnL chart plan', () => {
  it('draws nothing for no points', () => {
    expect(planPnlChart([], 100, 50)).toMatchObject({ lines: [], zeroY: null, first: null });
  });

  it('cuts the line where it turns estimated and back, an estimated end making its stretch estimated', () => {
    const plan = planPnlChart(
      [point(0, 0), point(10, 1_000_000), point(20, 2_000_000, true), point(30, 1_000_000), point(40, 3_000_000)],
      400,
      100,
    );
    expect(plan.lines.map((l) => l.estimated)).toEqual([false, true, false]);
    // Measured 0→10, estimated 10→20→30, measured 30→40.
    expect(plan.lines[0]!.d).toBe('M 0 100 L 100 66.7');
    expect(plan.lines[1]!.d).toBe('M 100 66.7 L 200 33.3 L 300 66.7');
    expect(plan.lines[2]!.d).toBe('M 300 66.7 L 400 0');
    expect(plan.zeroY).toBe(100);
    expect([plan.low, plan.high]).toEqual([0n, 3_000_000n]);
  });

  it('keeps $0 in view for losses only, and places it between gains and losses', () => {
    expect(planPnlChart([point(0, -2_000_000), point(1, -1_000_000)], 10, 100).zeroY).toBe(0);
    expect(planPnlChart([point(0, -1_000_000), point(1, 3_000_000)], 10, 100).zeroY).toBe(75);
  });

  it('draws a lone point as a short flat mark', () => {
    const plan = planPnlChart([point(5, 1_250_000, true)], 100, 50);
    expect(plan.lines).toEqual([{ d: 'M 48 0 L 52 0', estimated: true }]);
  });
});

describe('signed dollars and cents', () => {
  it('rounds base units to the cent, half away from zero, with a sign', () => {
    expect(signedCents('1234567')).toBe('+$1.23');
    expect(signedCents('1235000')).toBe('+$1.24');
    expect(signedCents(-405_000n)).toBe('−$0.41');
    expect(signedCents('1234567890000')).toBe('+$1,234,567.89');
    expect(signedCents('4999')).toBe('$0.00');
  });
});

describe('the export days', () => {
  it('defaults to the last 30 days up to today (UTC)', () => {
    expect(defaultExportDays(Date.parse('2026-11-28T21:00:00Z'))).toEqual({ from: '2026-10-30', to: '2026-11-28' });
  });

  it('says what is wrong with the days, in words', () => {
    expect(exportDaysProblem('2026-11-01', '2026-11-28')).toBeNull();
    expect(exportDaysProblem('2026-11-01', '2026-11-01')).toBeNull();
    expect(exportDaysProblem('', '2026-11-28')).toBe('Choose the first day.');
    expect(exportDaysProblem('2026-11-01', '')).toBe('Choose the last day.');
    expect(exportDaysProblem('2026-11-28', '2026-11-01')).toBe('The first day is after the last.');
  });
});
