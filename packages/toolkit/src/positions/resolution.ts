// Whether a market has resolved, read where it is authoritative — ConditionalTokens' payoutDenominator and
// payoutNumerators (docs/protocol.md#positions-and-resolution) — and what redeeming a position pays: "Won $X" or "Lost", exact in base units.
import { Interface } from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter } from '../model/errors';
import { checkedAddress } from '../accounts/derive';
import { COLLATERAL_TOKEN_DECIMALS } from '../chain/networks';
import { conditionId32 } from './condition-id';

export const CTF_READ_ABI = new Interface([
  'function payoutDenominator(bytes32 conditionId) view returns (uint256)',
  'function payoutNumerators(bytes32 conditionId, uint256 index) view returns (uint256)',
  'function getOutcomeSlotCount(bytes32 conditionId) view returns (uint256)',
  'function balanceOf(address owner, uint256 id) view returns (uint256)',
]);

/** Unresolved, or resolved with each outcome's payout weight: outcome i pays numerators[i] / denominator per share. */
export type Resolution = { state: 'unresolved' } | { state: 'resolved'; numerators: bigint[]; denominator: bigint };

/** What reads a contract (an ethers provider fits). */
export interface ContractReader {
  call(tx: { to: string; data: string }): Promise<string>;
}

async function readWord(rpc: ContractReader, to: string, data: string, field: string): Promise<bigint> {
  const answer = await rpc.call({ to, data });
  if (typeof answer !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(answer)) {
    throw new PmDeskError(
      ErrorCode.VALIDATION_ERROR,
      `${field} answered ${String(answer).slice(0, 80)}, not one 32-byte word.`,
      { methodName: 'resolutionOf' },
    );
  }
  return BigInt(answer);
}

/**
 * A condition's resolution on ConditionalTokens: a denominator of 0 means nothing has been reported; otherwise the
 * numerators of every outcome ([1,0], [0,1], or [1,1] for a 50/50 market). A condition that was never prepared is
 * ERR_NOT_FOUND; numerators that do not add up to the denominator are ERR_VALIDATION.
 */
export async function resolutionOf(
  rpc: ContractReader,
  conditionalTokens: string,
  conditionId: string,
): Promise<Resolution> {
  const ctf = checkedAddress(conditionalTokens, 'ConditionalTokens');
  const id = conditionId32(conditionId);
  const slots = await readWord(
    rpc,
    ctf,
    CTF_READ_ABI.encodeFunctionData('getOutcomeSlotCount', [id]),
    'getOutcomeSlotCount',
  );
  if (slots === 0n)
    throw new PmDeskError(ErrorCode.NOT_FOUND, `ConditionalTokens has no condition ${id}.`, {
      methodName: 'resolutionOf',
    });
  if (slots > 256n)
    throw new PmDeskError(
      ErrorCode.VALIDATION_ERROR,
      `getOutcomeSlotCount answered ${slots}, more outcomes than a condition can have.`,
      { methodName: 'resolutionOf' },
    );
  const denominator = await readWord(
    rpc,
    ctf,
    CTF_READ_ABI.encodeFunctionData('payoutDenominator', [id]),
    'payoutDenominator',
  );
  if (denominator === 0n) return { state: 'unresolved' };
  const numerators: bigint[] = [];
  for (let i = 0n; i < slots; i++)
    numerators.push(
      await readWord(rpc, ctf, CTF_READ_ABI.encodeFunctionData('payoutNumerators', [id, i]), `payoutNumerators(${i})`),
    );
  const sum = numerators.reduce((a, b) => a + b, 0n);
  if (sum !== denominator) {
    throw new PmDeskError(
      ErrorCode.VALIDATION_ERROR,
      `payoutNumerators add up to ${sum}, not payoutDenominator ${denominator}.`,
      { methodName: 'resolutionOf' },
    );
  }
  return { state: 'resolved', numerators, denominator };
}

/** ERC-1155 balances of one holder (ConditionalTokens positions, or Protocol V2's PositionManager), in base units. */
export async function positionBalances(
  rpc: ContractReader,
  token: string,
  holder: string,
  positionIds: readonly (string | bigint)[],
): Promise<bigint[]> {
  const ledger = checkedAddress(token, 'position token');
  const owner = checkedAddress(holder, 'holder');
  return Promise.all(
    positionIds.map((pid) =>
      readWord(
        rpc,
        ledger,
        CTF_READ_ABI.encodeFunctionData('balanceOf', [owner, BigInt(pid)]),
        `balanceOf(${owner}, ${String(pid)})`,
      ),
    ),
  );
}

export interface RedeemOutcome {
  index: number;
  held: bigint;
  /** Collateral this outcome pays, in base units: held × numerator / denominator, rounded down as the contract does. */
  payout: bigint;
}

export interface RedeemPlan {
  outcomes: RedeemOutcome[];
  /** Collateral paid in all, in base units. */
  payout: bigint;
  result: 'won' | 'lost' | 'nothing-held';
  /** "Won $12.50", "Lost" or "Nothing to redeem". */
  label: string;
}

/** Base units of collateral as dollars, exact: at least two decimals, no trailing zeros beyond them ("$12.50", "$0.123456"). */
export function formatUsd(units: bigint, decimals = COLLATERAL_TOKEN_DECIMALS): string {
  const negative = units < 0n;
  const abs = negative ? -units : units;
  const scale = 10n ** BigInt(decimals);
  const fraction = (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${negative ? '-' : ''}$${abs / scale}.${fraction}`;
}

/**
 * What redeeming pays for the balances held of each outcome: per outcome held × numerator / denominator, rounded
 * down per outcome as ConditionalTokens pays it. Any payout is "Won $X"; holding only losing outcomes is "Lost".
 */
export function redeemPlan(balances: readonly bigint[], resolution: Resolution): RedeemPlan {
  if (resolution.state !== 'resolved')
    throw invalidParameter(
      'The market is not resolved yet: there is nothing to redeem until its result is reported on chain.',
      'redeemPlan',
    );
  const { numerators, denominator } = resolution;
  if (denominator <= 0n) throw invalidParameter('A resolved market has a positive payout denominator.', 'redeemPlan');
  if (balances.length !== numerators.length) {
    throw invalidParameter(
      `The market has ${numerators.length} outcomes but ${balances.length} balances were given.`,
      'redeemPlan',
    );
  }
  const outcomes = balances.map((held, index) => {
    if (typeof held !== 'bigint' || held < 0n)
      throw invalidParameter(
        `The balance of outcome ${index} must be a whole number of base units, got ${String(held)}.`,
        'redeemPlan',
      );
    return { index, held, payout: (held * numerators[index]!) / denominator };
  });
  const payout = outcomes.reduce((sum, o) => sum + o.payout, 0n);
  if (outcomes.every((o) => o.held === 0n))
    return { outcomes, payout, result: 'nothing-held', label: 'Nothing to redeem' };
  if (payout === 0n) return { outcomes, payout, result: 'lost', label: 'Lost' };
  return { outcomes, payout, result: 'won', label: `Won ${formatUsd(payout)}` };
}
