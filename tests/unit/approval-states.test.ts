// The approvals missing from what the chain showed (read before the order's amount is known, judged after it): a
// collateral allowance below what the order needs (any allowance at all when it needs none now), an operator not
// approved; what is enough is left out.
import { describe, expect, it } from 'vitest';
import { missingOf, type ApprovalState } from '../../src/main/trading/allowances';

const target = (kind: 'collateral' | 'outcome-tokens', spender: string) => ({
  kind,
  token: '0xtoken',
  spender,
  spenderName: spender,
});

describe('approvals missing from the chain state', () => {
  const states: ApprovalState[] = [
    { target: target('collateral', 'exchange'), allowance: 5_000_000n },
    { target: target('collateral', 'neg-risk exchange'), allowance: 0n },
    { target: target('outcome-tokens', 'exchange'), approved: true },
    { target: target('outcome-tokens', 'neg-risk exchange'), approved: false },
  ];

  it('judges each allowance against the order’s need', () => {
    expect(missingOf(states, 5_000_000n).map((m) => [m.kind, m.spender])).toEqual([
      ['collateral', 'neg-risk exchange'],
      ['outcome-tokens', 'neg-risk exchange'],
    ]);
    expect(missingOf(states, 5_000_001n).map((m) => [m.kind, m.spender])).toEqual([
      ['collateral', 'exchange'],
      ['collateral', 'neg-risk exchange'],
      ['outcome-tokens', 'neg-risk exchange'],
    ]);
    expect(missingOf(states, 5_000_001n)[0]).toMatchObject({ current: 5_000_000n });
  });

  it('asks for some allowance even when the order needs no collateral now (a sell)', () => {
    expect(missingOf(states, 0n).map((m) => m.spender)).toEqual(['neg-risk exchange', 'neg-risk exchange']);
    expect(missingOf([{ target: target('collateral', 'exchange'), allowance: 1n }], 0n)).toEqual([]);
  });
});
