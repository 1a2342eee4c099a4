// Split/merge/redeem calldata per market kind (docs/protocol.md#positions-and-resolution) decoded back with ethers and checked against
// the documented selectors; bytes31 condition ids; resolution read from a reader answering fixed words; what
// redeeming pays, exact in base units.
import { Interface, toBeHex } from 'ethers';
import { describe, expect, it } from 'vitest';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { POLYGON_ACTION_CONTRACTS, type ActionContracts } from '../../packages/toolkit/src/accounts/action-contracts';
import {
  mergeCalls,
  mergeableAmount,
  positionRoute,
  redeemCalls,
  splitCalls,
  type PositionMarket,
} from '../../packages/toolkit/src/positions/calls';
import { conditionId31 } from '../../packages/toolkit/src/positions/condition-id';
import {
  formatUsd,
  positionBalances,
  redeemPlan,
  resolutionOf,
  type Resolution,
} from '../../packages/toolkit/src/positions/resolution';

const SELECTOR = {
  splitPosition: '0x72ce4275',
  mergePositions: '0x9e7212ad',
  redeemPositions: '0x01b7037c',
  routerSplit: '0x82d3b9f1',
  routerMerge: '0x5b63685e',
  routerRedeem: '0xd217a3cc',
  negRiskRedeem: '0xdbeccb23',
};
const ZERO32 = `0x${'0'.repeat(64)}`;
const CID = `0x${'ab'.repeat(32)}`;
const CID31 = `0x${'cd'.repeat(31)}`;
const P = POLYGON_ACTION_CONTRACTS;
/** The local sandbox: one collateral, ConditionalTokens and a NegRiskAdapter, no adapters or Router. */
const SANDBOX: ActionContracts = {
  collateral: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  conditionalTokens: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  negRiskAdapter: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
};

const abi = new Interface([
  'function splitPosition(address collateralToken, bytes32 parentCollectionId, bytes32 conditionId, uint256[] partition, uint256 amount)',
  'function mergePositions(address collateralToken, bytes32 parentCollectionId, bytes32 conditionId, uint256[] partition, uint256 amount)',
  'function redeemPositions(address collateralToken, bytes32 parentCollectionId, bytes32 conditionId, uint256[] indexSets)',
  'function split(bytes31 conditionId, uint256 amount)',
  'function merge(bytes31 conditionId, uint256 amount)',
  'function redeem(bytes31 conditionId, uint256 outcomeIndex, uint256 amount)',
  'function redeemPositions(bytes32 conditionId, uint256[] amounts)',
]);
const decode = (signature: string, data: string) => abi.decodeFunctionData(signature, data).toArray(true) as unknown[];

const fail = (run: () => unknown): PmDeskError => {
  try {
    run();
  } catch (error) {
    return error as PmDeskError;
  }
  throw new Error('expected a refusal');
};

const standard: PositionMarket = { conditionId: CID, negRisk: false, version: 'v1' };
const negRisk: PositionMarket = { conditionId: CID, negRisk: true, version: 'v1' };
const v2: PositionMarket = { conditionId: CID31, negRisk: false, version: 'v2' };
const RESOLVED_YES: Resolution = { state: 'resolved', numerators: [1n, 0n], denominator: 1n };

describe('positionRoute', () => {
  it('standard and neg-risk CTF markets go to their collateral adapters with pUSD; Protocol V2 to the Router', () => {
    expect(positionRoute(standard, P)).toEqual({
      route: 'ctf-adapter',
      target: P.ctfCollateralAdapter,
      collateral: P.collateral,
    });
    expect(positionRoute(negRisk, P)).toEqual({
      route: 'neg-risk-adapter',
      target: P.negRiskCtfCollateralAdapter,
      collateral: P.collateral,
    });
    expect(positionRoute(v2, P)).toEqual({ route: 'router', target: P.router });
    expect(positionRoute({ ...v2, negRisk: true }, P).route).toBe('router');
  });

  it('without adapters (the sandbox), or when asked for pre-V2 positions, takes the legacy ConditionalTokens / NegRiskAdapter paths', () => {
    expect(positionRoute(standard, SANDBOX)).toEqual({
      route: 'legacy-ctf',
      target: SANDBOX.conditionalTokens,
      collateral: SANDBOX.collateral,
    });
    expect(positionRoute(negRisk, SANDBOX)).toEqual({
      route: 'legacy-neg-risk',
      target: SANDBOX.negRiskAdapter,
      collateral: SANDBOX.collateral,
    });
    // Pre-V2 positions on Polygon were minted on USDC.e.
    expect(positionRoute(standard, P, { legacy: true })).toEqual({
      route: 'legacy-ctf',
      target: P.conditionalTokens,
      collateral: P.usdcE,
    });
  });

  it('refuses a Protocol V2 market on a network without a Router, naming the field', () => {
    expect(fail(() => positionRoute(v2, SANDBOX)).detail).toBe(
      "This network has no router address, which a standard Protocol V2 market's split, merge or redeem needs.",
    );
  });
});

describe('split and merge', () => {
  it('adapters: CTF-shaped splitPosition/mergePositions(pUSD, 0x0, conditionId, [1,2], amount)', () => {
    const [split] = splitCalls(standard, P, 10_000_000n);
    expect(split!.to).toBe(P.ctfCollateralAdapter);
    expect(split!.data.slice(0, 10)).toBe(SELECTOR.splitPosition);
    expect(decode('splitPosition', split!.data)).toEqual([P.collateral, ZERO32, CID, [1n, 2n], 10_000_000n]);
    const [merge] = mergeCalls(negRisk, P, 4n);
    expect(merge!.to).toBe(P.negRiskCtfCollateralAdapter);
    expect(merge!.data.slice(0, 10)).toBe(SELECTOR.mergePositions);
    expect(decode('mergePositions', merge!.data)).toEqual([P.collateral, ZERO32, CID, [1n, 2n], 4n]);
  });

  it('Router: split/merge(bytes31 conditionId, amount)', () => {
    const [split] = splitCalls(v2, P, 5n);
    expect(split!.data.slice(0, 10)).toBe(SELECTOR.routerSplit);
    expect(decode('split', split!.data)).toEqual([CID31, 5n]);
    const [merge] = mergeCalls(v2, P, 6n);
    expect(merge!.data.slice(0, 10)).toBe(SELECTOR.routerMerge);
    expect(decode('merge', merge!.data)).toEqual([CID31, 6n]);
  });

  it('legacy: ConditionalTokens and the neg-risk adapter’s CTF-compatible overload with the network’s collateral', () => {
    const [split] = splitCalls(negRisk, SANDBOX, 7n);
    expect(split!.to).toBe(SANDBOX.negRiskAdapter);
    expect(decode('splitPosition', split!.data)).toEqual([SANDBOX.collateral, ZERO32, CID, [1n, 2n], 7n]);
    const [merge] = mergeCalls(standard, SANDBOX, 7n);
    expect(merge!.to).toBe(SANDBOX.conditionalTokens);
  });

  it('refuses zero or negative amounts and malformed condition ids', () => {
    expect(fail(() => splitCalls(standard, P, 0n)).detail).toMatch(/positive number of base units/);
    expect(fail(() => mergeCalls(standard, P, -1n)).code).toBe('ERR_INVALID_PARAM');
    expect(fail(() => splitCalls({ ...standard, conditionId: '0x12' }, P, 1n)).detail).toMatch(/32 bytes of hex/);
  });

  it('mergeableAmount is the smaller balance: a full set needs one of each', () => {
    expect(mergeableAmount([5n, 3n])).toBe(3n);
    expect(mergeableAmount([0n, 3n])).toBe(0n);
    expect(mergeableAmount([])).toBe(0n);
  });
});

describe('conditionId31', () => {
  it('keeps a bytes31 id, drops a 32-byte id’s trailing outcome byte 00/01, refuses anything else', () => {
    expect(conditionId31(CID31.toUpperCase().replace('0X', '0x'))).toBe(CID31);
    expect(conditionId31(`${CID31}00`)).toBe(CID31);
    expect(conditionId31(`${CID31}01`)).toBe(CID31);
    expect(fail(() => conditionId31(`${CID31}02`)).code).toBe('ERR_INVALID_PARAM');
    expect(fail(() => conditionId31('0x1234')).code).toBe('ERR_INVALID_PARAM');
  });
});

describe('redeem', () => {
  it('refuses an unresolved market before anything is built', () => {
    const error = fail(() => redeemCalls(standard, P, { state: 'unresolved' }, [1n, 0n]));
    expect(error.code).toBe('ERR_INVALID_PARAM');
    expect(error.detail).toBe(
      `The market ${CID} is not resolved yet: nothing can be redeemed until its result is reported on chain.`,
    );
  });

  it('refuses when nothing is held or the balances are not one per outcome', () => {
    expect(fail(() => redeemCalls(standard, P, RESOLVED_YES, [0n, 0n])).detail).toMatch(/Nothing to redeem/);
    expect(fail(() => redeemCalls(standard, P, RESOLVED_YES, [1n])).code).toBe('ERR_INVALID_PARAM');
  });

  it('adapters and ConditionalTokens: one redeemPositions(collateral, 0x0, conditionId, [1,2])', () => {
    const calls = redeemCalls(negRisk, P, RESOLVED_YES, [3n, 4n]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.to).toBe(P.negRiskCtfCollateralAdapter);
    expect(calls[0]!.data.slice(0, 10)).toBe(SELECTOR.redeemPositions);
    expect(decode('redeemPositions(address,bytes32,bytes32,uint256[])', calls[0]!.data)).toEqual([
      P.collateral,
      ZERO32,
      CID,
      [1n, 2n],
    ]);
    const legacy = redeemCalls(standard, SANDBOX, RESOLVED_YES, [3n, 0n]);
    expect(legacy[0]!.to).toBe(SANDBOX.conditionalTokens);
  });

  it('Router: one redeem(bytes31, outcomeIndex, amount) per held outcome', () => {
    const both = redeemCalls(v2, P, RESOLVED_YES, [3n, 4n]);
    expect(both.map((c) => c.data.slice(0, 10))).toEqual([SELECTOR.routerRedeem, SELECTOR.routerRedeem]);
    expect(both.map((c) => decode('redeem', c.data))).toEqual([
      [CID31, 0n, 3n],
      [CID31, 1n, 4n],
    ]);
    const onlyNo = redeemCalls(v2, P, RESOLVED_YES, [0n, 4n]);
    expect(onlyNo.map((c) => decode('redeem', c.data))).toEqual([[CID31, 1n, 4n]]);
  });

  it('legacy neg-risk: the adapter’s redeemPositions(conditionId, [yes, no]) with the amounts held', () => {
    const [call] = redeemCalls(negRisk, SANDBOX, RESOLVED_YES, [3n, 4n]);
    expect(call!.to).toBe(SANDBOX.negRiskAdapter);
    expect(call!.data.slice(0, 10)).toBe(SELECTOR.negRiskRedeem);
    expect(decode('redeemPositions(bytes32,uint256[])', call!.data)).toEqual([CID, [3n, 4n]]);
  });
});

describe('redeemPlan', () => {
  it('a winning position is "Won $X", exact in base units', () => {
    const plan = redeemPlan([12_500_000n, 3_000_000n], RESOLVED_YES);
    expect(plan.payout).toBe(12_500_000n);
    expect(plan.result).toBe('won');
    expect(plan.label).toBe('Won $12.50');
    expect(plan.outcomes).toEqual([
      { index: 0, held: 12_500_000n, payout: 12_500_000n },
      { index: 1, held: 3_000_000n, payout: 0n },
    ]);
  });

  it('only the losing outcome is "Lost"; nothing held says so', () => {
    expect(redeemPlan([0n, 3_000_000n], RESOLVED_YES)).toMatchObject({ payout: 0n, result: 'lost', label: 'Lost' });
    expect(redeemPlan([0n, 0n], RESOLVED_YES)).toMatchObject({ result: 'nothing-held', label: 'Nothing to redeem' });
  });

  it('a 50/50 resolution pays half of each, rounded down per outcome as ConditionalTokens does', () => {
    const plan = redeemPlan([3n, 1_000_001n], { state: 'resolved', numerators: [1n, 1n], denominator: 2n });
    expect(plan.outcomes.map((o) => o.payout)).toEqual([1n, 500_000n]);
    expect(plan.payout).toBe(500_001n);
    expect(plan.label).toBe('Won $0.500001');
  });

  it('refuses an unresolved market and balances that do not match the outcomes', () => {
    expect(fail(() => redeemPlan([1n, 0n], { state: 'unresolved' })).detail).toMatch(/not resolved yet/);
    expect(fail(() => redeemPlan([1n], RESOLVED_YES)).detail).toBe(
      'The market has 2 outcomes but 1 balances were given.',
    );
    expect(fail(() => redeemPlan([1n, -1n], RESOLVED_YES)).code).toBe('ERR_INVALID_PARAM');
  });

  it('formatUsd keeps every significant decimal and at least two', () => {
    expect(formatUsd(0n)).toBe('$0.00');
    expect(formatUsd(1n)).toBe('$0.000001');
    expect(formatUsd(100_000_000n)).toBe('$100.00');
    expect(formatUsd(123_456_789n)).toBe('$123.456789');
  });
});

describe('resolutionOf', () => {
  const CTF = P.conditionalTokens;
  const word = (n: bigint) => toBeHex(n, 32);
  const ctfReader = (state: { slots: bigint; denominator: bigint; numerators: bigint[]; garbage?: string }) => {
    const calls: string[] = [];
    return {
      calls,
      call: async ({ to, data }: { to: string; data: string }) => {
        expect(to).toBe(CTF);
        calls.push(data.slice(0, 10));
        if (state.garbage && data.startsWith(state.garbage)) return '0x';
        if (data.startsWith('0xd42dc0c2')) return word(state.slots);
        if (data.startsWith('0xdd34de67')) return word(state.denominator);
        if (data.startsWith('0x0504c814')) return word(state.numerators[Number(BigInt(`0x${data.slice(-64)}`))]!);
        throw new Error(`unexpected call ${data}`);
      },
    };
  };

  it('a denominator of 0 is unresolved, and no numerator is read', async () => {
    const rpc = ctfReader({ slots: 2n, denominator: 0n, numerators: [] });
    expect(await resolutionOf(rpc, CTF, CID)).toEqual({ state: 'unresolved' });
    expect(rpc.calls).toEqual(['0xd42dc0c2', '0xdd34de67']);
  });

  it('a reported condition gives every outcome’s numerator', async () => {
    expect(await resolutionOf(ctfReader({ slots: 2n, denominator: 1n, numerators: [0n, 1n] }), CTF, CID)).toEqual({
      state: 'resolved',
      numerators: [0n, 1n],
      denominator: 1n,
    });
    expect(await resolutionOf(ctfReader({ slots: 2n, denominator: 2n, numerators: [1n, 1n] }), CTF, CID)).toEqual({
      state: 'resolved',
      numerators: [1n, 1n],
      denominator: 2n,
    });
  });

  it('an unprepared condition is ERR_NOT_FOUND; numerators that do not add up, or a malformed answer, are ERR_VALIDATION naming the field', async () => {
    const missing = await resolutionOf(ctfReader({ slots: 0n, denominator: 0n, numerators: [] }), CTF, CID).catch(
      (e: PmDeskError) => e,
    );
    expect((missing as PmDeskError).code).toBe('ERR_NOT_FOUND');
    const mismatch = await resolutionOf(
      ctfReader({ slots: 2n, denominator: 3n, numerators: [1n, 1n] }),
      CTF,
      CID,
    ).catch((e: PmDeskError) => e);
    expect((mismatch as PmDeskError).code).toBe('ERR_VALIDATION');
    expect((mismatch as PmDeskError).detail).toBe('payoutNumerators add up to 2, not payoutDenominator 3.');
    const garbage = await resolutionOf(
      ctfReader({ slots: 2n, denominator: 1n, numerators: [1n, 0n], garbage: '0xdd34de67' }),
      CTF,
      CID,
    ).catch((e: PmDeskError) => e);
    expect((garbage as PmDeskError).code).toBe('ERR_VALIDATION');
    expect((garbage as PmDeskError).detail).toMatch(/^payoutDenominator answered 0x, not one 32-byte word/);
  });

  it('positionBalances reads ERC-1155 balanceOf(holder, id) (0x00fdd58e) per position id', async () => {
    const holder = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
    const balances = await positionBalances(
      {
        call: async ({ data }) => (
          expect(data.slice(0, 10)).toBe('0x00fdd58e'),
          word(BigInt(`0x${data.slice(-64)}`) * 10n)
        ),
      },
      CTF,
      holder,
      ['7', 9n],
    );
    expect(balances).toEqual([70n, 90n]);
  });
});
