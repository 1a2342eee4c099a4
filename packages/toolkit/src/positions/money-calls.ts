// The calls of one money action on an account — wrap or unwrap pUSD, split or merge complete sets, redeem a
// resolved market, convert a neg-risk event's No shares — read and checked against the chain first (balances,
// full sets, resolution, holdings) and with the approvals the account still lacks added in front, as
// `pmdesk split|merge|redeem|pusd|convert` sends them. The signer worker builds from here (never from calldata
// main hands it), and main previews from the same place.
import { Interface } from 'ethers';
import { invalidParameter } from '../model/errors';
import type { ChainCall } from '../accounts/actions';
import { checkedAddress } from '../accounts/derive';
import { requireContract, type ActionContracts } from '../accounts/action-contracts';
import { tokenBalance, unwrapCalls, wrapCalls, type TokenReader } from '../collateral/pusd';
import { mergeCalls, mergeableAmount, positionRoute, redeemCalls, splitCalls, type PositionMarket } from './calls';
import { formatUsd, positionBalances, redeemPlan, resolutionOf, type RedeemPlan } from './resolution';
import { convertCalls, convertPlan, type ConvertPlan, type ConvertRequest } from './convert-calls';

export const MONEY_ACTIONS = ['wrap', 'unwrap', 'split', 'merge', 'redeem', 'convert'] as const;
export type MoneyActionKind = (typeof MONEY_ACTIONS)[number];

/** A binary market as the position actions need it: its route and its two outcome token ids ([first, second]). */
export interface MoneyMarket extends PositionMarket {
  tokenIds: [string, string];
}

/** One action as the trader asks for it; `amount` in collateral base units (6 decimals), absent for a redeem. */
export interface MoneyActionRequest {
  action: MoneyActionKind;
  amount?: string;
  market?: MoneyMarket;
  /** Convert only: the neg-risk event and the questions whose No shares are given (`amount` No of each). */
  convert?: ConvertRequest;
}

export interface MoneyActionCalls {
  calls: ChainCall[];
  /** The base units moved (wrapped, unwrapped, split, merged); for a redeem the payout. */
  amount: bigint;
  /** Redeem only: what each outcome held pays. */
  redeem?: RedeemPlan & { held: bigint[] };
  /** Convert only: exactly what is given and received. */
  convert?: ConvertPlan;
}

const ERC20 = new Interface([
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
]);
const ERC1155 = new Interface([
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function setApprovalForAll(address operator, bool approved)',
]);

/** A decimal string of base units, more than zero. */
export function baseUnitsOf(amount: unknown, what: string): bigint {
  if (typeof amount !== 'string' || !/^[0-9]{1,30}$/.test(amount) || BigInt(amount) <= 0n) {
    throw invalidParameter(
      `The ${what} amount must be a positive whole number of base units, got ${String(amount).slice(0, 40)}.`,
    );
  }
  return BigInt(amount);
}

function marketOf(request: MoneyActionRequest): MoneyMarket {
  const m = request.market;
  if (!m || typeof m.conditionId !== 'string' || !Array.isArray(m.tokenIds) || m.tokenIds.length !== 2) {
    throw invalidParameter(
      `A ${request.action} needs a binary market: its condition id and its two outcome token ids.`,
    );
  }
  if (!m.tokenIds.every((t) => typeof t === 'string' && /^[0-9]{1,80}$/.test(t)))
    throw invalidParameter('An outcome token id is a decimal number.');
  return {
    conditionId: m.conditionId,
    negRisk: m.negRisk === true,
    version: m.version === 'v2' ? 'v2' : m.version === 'v1' ? 'v1' : undefined,
    tokenIds: [m.tokenIds[0], m.tokenIds[1]],
  };
}

async function word(rpc: TokenReader, to: string, data: string): Promise<bigint> {
  const answer = await rpc.call({ to, data });
  if (typeof answer !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(answer))
    throw invalidParameter(`The chain answered ${String(answer).slice(0, 40)} where one word was expected.`);
  return BigInt(answer);
}

/** An approval of `amount` of an ERC-20 to `spender` from the account, when what it has approved falls short. */
async function erc20Approval(
  rpc: TokenReader,
  account: string,
  token: string,
  spender: string,
  amount: bigint,
): Promise<ChainCall[]> {
  const allowed = await word(rpc, token, ERC20.encodeFunctionData('allowance', [account, spender]));
  return allowed >= amount ? [] : [{ to: token, data: ERC20.encodeFunctionData('approve', [spender, amount]) }];
}

/** ConditionalTokens' operator approval for a contract other than itself (the adapters move positions for the account). */
async function erc1155Approval(
  rpc: TokenReader,
  account: string,
  contracts: ActionContracts,
  operator: string,
): Promise<ChainCall[]> {
  const ctf = requireContract(contracts, 'conditionalTokens', 'a position action');
  if (operator.toLowerCase() === ctf.toLowerCase()) return [];
  const approved = await word(rpc, ctf, ERC1155.encodeFunctionData('isApprovedForAll', [account, operator]));
  return approved === 1n ? [] : [{ to: ctf, data: ERC1155.encodeFunctionData('setApprovalForAll', [operator, true]) }];
}

/**
 * The calls `account` makes for the action, refused before anything is built when the account lacks what it
 * moves: the USDC.e to wrap, the pUSD to unwrap or split, the full sets to merge, a resolved market and a position to
 * redeem. Sizes in the messages are exact dollars.
 */
export async function moneyActionCalls(
  rpc: TokenReader,
  contracts: ActionContracts,
  accountAddress: string,
  request: MoneyActionRequest,
): Promise<MoneyActionCalls> {
  const account = checkedAddress(accountAddress, 'account');
  switch (request.action) {
    case 'wrap':
    case 'unwrap': {
      const units = baseUnitsOf(request.amount, request.action);
      const wrap = request.action === 'wrap';
      const from = wrap
        ? requireContract(contracts, 'usdcE', 'a wrap')
        : requireContract(contracts, 'collateral', 'an unwrap');
      const held = await tokenBalance(rpc, from, account);
      if (held < units)
        throw invalidParameter(
          `${account} holds ${formatUsd(held)} of ${wrap ? 'USDC.e' : 'pUSD'}; cannot ${request.action} ${formatUsd(units)}.`,
        );
      return {
        calls: wrap ? wrapCalls(contracts, account, units) : unwrapCalls(contracts, account, units),
        amount: units,
      };
    }
    case 'split': {
      const market = marketOf(request);
      const units = baseUnitsOf(request.amount, 'split');
      const route = positionRoute(market, contracts);
      const collateral = route.collateral ?? requireContract(contracts, 'collateral', 'a split');
      const held = await tokenBalance(rpc, collateral, account);
      if (held < units)
        throw invalidParameter(`${account} holds ${formatUsd(held)} of pUSD; cannot split ${formatUsd(units)}.`);
      return {
        calls: [
          ...(await erc20Approval(rpc, account, collateral, route.target, units)),
          ...splitCalls(market, contracts, units),
        ],
        amount: units,
      };
    }
    case 'merge': {
      const market = marketOf(request);
      const units = baseUnitsOf(request.amount, 'merge');
      const held = await positionBalances(
        rpc,
        requireContract(contracts, 'conditionalTokens', 'a merge'),
        account,
        market.tokenIds,
      );
      const full = mergeableAmount(held);
      if (units > full)
        throw invalidParameter(
          `${account} holds ${sharesText(full)} full sets of this market; cannot merge ${sharesText(units)}.`,
        );
      const route = positionRoute(market, contracts);
      return {
        calls: [
          ...(await erc1155Approval(rpc, account, contracts, route.target)),
          ...mergeCalls(market, contracts, units),
        ],
        amount: units,
      };
    }
    case 'redeem': {
      const market = marketOf(request);
      const ctf = requireContract(contracts, 'conditionalTokens', 'a redeem');
      const resolution = await resolutionOf(rpc, ctf, market.conditionId);
      if (resolution.state !== 'resolved')
        throw invalidParameter(
          'This market is not resolved yet: there is nothing to redeem until its result is reported on chain.',
        );
      const held = await positionBalances(rpc, ctf, account, market.tokenIds);
      const plan = redeemPlan(held, resolution);
      const route = positionRoute(market, contracts);
      const calls = [
        ...(await erc1155Approval(rpc, account, contracts, route.target)),
        ...redeemCalls(market, contracts, resolution, held),
      ];
      return { calls, amount: plan.payout, redeem: { ...plan, held } };
    }
    case 'convert': {
      const units = baseUnitsOf(request.amount, 'convert');
      const plan = await convertPlan(rpc, contracts, account, request.convert as ConvertRequest, units);
      return { calls: await convertCalls(rpc, contracts, account, plan), amount: units, convert: plan };
    }
    default:
      throw invalidParameter(
        `There is no money action ${String((request as { action?: unknown }).action).slice(0, 20)}.`,
      );
  }
}

/** Shares (6-decimal base units) as a trader reads them: "12.5", "0.000001". */
export function sharesText(units: bigint): string {
  return formatUsd(units)
    .replace(/^(-?)\$/, '$1')
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}
