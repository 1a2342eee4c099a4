// The trader boards' money in `pmdesk traders leaderboard`: base units shown in dollars and cents, exactly,
// rounded half away from zero, a loss with its sign and nothing that rounds to zero shown as a loss.
import { describe, expect, it } from 'vitest';
import { dollarsAndCents } from '../../src/cli/traders-commands';

describe('dollars and cents from base units', () => {
  it('rounds to the cent, half away from zero, with the sign of a loss', () => {
    expect(dollarsAndCents('4000000')).toBe('$4.00');
    expect(dollarsAndCents('1234567')).toBe('$1.23');
    expect(dollarsAndCents('5000')).toBe('$0.01');
    expect(dollarsAndCents('4999')).toBe('$0.00');
    expect(dollarsAndCents('-1235000')).toBe('-$1.24');
    expect(dollarsAndCents('-4999')).toBe('$0.00');
    // Past what a float holds exactly: still to the cent.
    expect(dollarsAndCents('123456789012345678')).toBe('$123456789012.35');
  });
});
