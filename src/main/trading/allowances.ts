// The allowances an order needs before the exchange accepts it: which contracts must be allowed to move the
// trader's collateral and outcome tokens for each order version, what the chain says is missing, and
// setting each missing one through the wallet (never with a key in this process).
import { Contract, MaxUint256, formatEther, type JsonRpcProvider } from 'ethers';
import { ErrorCode, PmDeskError } from '@pmdesk/toolkit/model';
import type { OrderVersion } from '@pmdesk/toolkit';
import { waitForReceipt } from '@pmdesk/toolkit';
import type { ApprovalRequest } from '../wallets/signer-protocol';
import type { TradingProfile } from './profile';

export type ApprovalKind = ApprovalRequest['kind'];

export interface ApprovalTarget {
  kind: ApprovalKind;
  /** The contract holding the asset: the collateral, or the conditional tokens (version 3: the position manager). */
  token: string;
  spender: string;
  /** Which contract of the profile the spender is, in the trader's words. */
  spenderName: string;
}

export interface MissingApproval extends ApprovalTarget {
  /** Collateral: the allowance the chain shows now (base units). */
  current?: bigint;
}

export interface ApprovalSent {
  kind: ApprovalKind;
  spender: string;
  spenderName: string;
  txHash: string;
}

/** Anything that can send an intent-shaped approval for an address: the signer worker, or a JSON-RPC wallet's adapter. */
export interface ApprovalSender {
  sendApproval(address: string, approval: ApprovalRequest): Promise<{ txHash: string }>;
}

const SPENDERS: Record<OrderVersion, readonly (keyof TradingProfile['network']['contracts'])[]> = {
  // docs/protocol.md#allowances and the official v1 examples: both exchanges and the neg-risk adapter, for collateral and tokens.
  1: ['exchange', 'negRiskExchange', 'negRiskAdapter'],
  // docs/protocol.md#allowances, the minimum for CLOB trading: the two version 2 exchanges. The collateral adapters
  // of the unified SDK's list are not exchange spenders and no profile names them.
  2: ['exchangeV2', 'negRiskExchangeV2'],
  // docs/protocol.md#allowances: one exchange for every market, for collateral and positions.
  3: ['exchangeV3'],
};

const NAMES: Record<string, string> = {
  exchange: 'the exchange',
  negRiskExchange: 'the neg-risk exchange',
  negRiskAdapter: 'the neg-risk adapter',
  exchangeV2: 'the exchange',
  negRiskExchangeV2: 'the neg-risk exchange',
  exchangeV3: 'the exchange',
};

/** Every approval an order of this version needs on this network, collateral first. */
export function approvalTargets(profile: TradingProfile, version: OrderVersion): ApprovalTarget[] {
  const c = profile.network.contracts;
  if (!c.collateral || !c.conditionalTokens) {
    throw new PmDeskError(
      ErrorCode.INVALID_PARAMETER,
      `The network profile ${profile.network.name} names no collateral or conditional-token contract.`,
    );
  }
  const spenders = SPENDERS[version]
    .filter((field) => c[field])
    .map((field) => ({ spender: c[field]!, spenderName: NAMES[field]! }))
    // A profile may give two roles one address; one approval covers both.
    .filter((s, i, all) => all.findIndex((o) => o.spender.toLowerCase() === s.spender.toLowerCase()) === i);
  if (spenders.length === 0) {
    throw new PmDeskError(
      ErrorCode.INVALID_PARAMETER,
      `The network profile ${profile.network.name} names no exchange for order version ${version}.`,
    );
  }
  return [
    ...spenders.map((s) => ({ kind: 'collateral' as const, token: c.collateral!, ...s })),
    ...spenders.map((s) => ({ kind: 'outcome-tokens' as const, token: c.conditionalTokens!, ...s })),
  ];
}

const ERC20 = [
  'function allowance(address owner, address spender) view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
];
const ERC1155 = [
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function balanceOf(address, uint256) view returns (uint256)',
];

/** What the chain shows for one target: the collateral allowance, or whether the operator is approved. */
export type ApprovalState =
  { target: ApprovalTarget; allowance: bigint } | { target: ApprovalTarget; approved: boolean };

/** Each target's allowance or approval as the chain shows it now (read at once, before the order's amount is known). */
export function approvalStates(
  provider: JsonRpcProvider,
  owner: string,
  targets: readonly ApprovalTarget[],
): Promise<ApprovalState[]> {
  return Promise.all(
    targets.map(async (target): Promise<ApprovalState> => {
      if (target.kind === 'collateral')
        return {
          target,
          allowance: (await new Contract(target.token, ERC20, provider).getFunction('allowance')(
            owner,
            target.spender,
          )) as bigint,
        };
      return {
        target,
        approved: (await new Contract(target.token, ERC1155, provider).getFunction('isApprovedForAll')(
          owner,
          target.spender,
        )) as boolean,
      };
    }),
  );
}

/**
 * The approvals missing from what the chain showed: a collateral allowance below `collateralNeeded` (any
 * allowance at all when nothing is needed now, so a later buy does not stop for it), an operator not approved.
 */
export function missingOf(states: readonly ApprovalState[], collateralNeeded = 1n): MissingApproval[] {
  return states.flatMap((state): MissingApproval[] => {
    if ('allowance' in state)
      return state.allowance < (collateralNeeded > 0n ? collateralNeeded : 1n)
        ? [{ ...state.target, current: state.allowance }]
        : [];
    return state.approved ? [] : [state.target];
  });
}

/** The approvals the chain shows missing for `owner` now (see missingOf). */
export async function missingApprovals(
  provider: JsonRpcProvider,
  owner: string,
  targets: readonly ApprovalTarget[],
  collateralNeeded = 1n,
): Promise<MissingApproval[]> {
  return missingOf(await approvalStates(provider, owner, targets), collateralNeeded);
}

/** The most the approvals can cost in gas (wei): gas limit × gas price each. */
export function approvalGasCost(profile: TradingProfile, count: number): bigint {
  return BigInt(count) * profile.approvalGas.gasLimit * profile.approvalGas.gasPrice;
}

/** "0.02 ETH" — the chain's native token, named as traders know it. */
export function formatGas(profile: TradingProfile, wei: bigint): string {
  const symbol = profile.network.chainId === 137 || profile.network.chainId === 80002 ? 'POL' : 'ETH';
  return `${formatEther(wei)} ${symbol}`;
}

/**
 * Sets each missing approval (unlimited collateral, approval-for-all true) one after another, waiting for
 * each transaction to be mined with success before the next; `onSent` hears each hash as soon as it exists.
 */
export async function setApprovals(
  provider: JsonRpcProvider,
  wallet: ApprovalSender,
  owner: string,
  profile: TradingProfile,
  missing: readonly ApprovalTarget[],
  onSent: (sent: ApprovalSent) => void = () => {},
  /** `owner` is an account of this key (its proxy wallet or Safe): the approvals run as the account, sent by the key. */
  as?: { key: string; account: NonNullable<ApprovalRequest['account']> },
): Promise<ApprovalSent[]> {
  const sent: ApprovalSent[] = [];
  for (const target of missing) {
    const request: ApprovalRequest = {
      kind: target.kind,
      token: target.token,
      spender: target.spender,
      ...(target.kind === 'collateral' ? { amount: MaxUint256.toString() } : { approved: true }),
      rpcUrl: profile.rpcUrl,
      chainId: profile.network.chainId,
      gasPrice: profile.approvalGas.gasPrice.toString(),
      // Through a proxy factory or a Safe the approval costs more gas than a plain one.
      gasLimit: (as ? profile.approvalGas.gasLimit * 3n : profile.approvalGas.gasLimit).toString(),
      ...(as ? { account: as.account } : {}),
    };
    const { txHash } = await wallet.sendApproval(as ? as.key : owner, request);
    const done: ApprovalSent = { kind: target.kind, spender: target.spender, spenderName: target.spenderName, txHash };
    onSent(done);
    const receipt = await waitForReceipt(provider, txHash);
    if (!receipt || receipt.status !== 1) {
      throw new PmDeskError(
        ErrorCode.API_REQUEST_FAILED,
        `The approval of ${target.spenderName} (${target.spender}) failed on the chain: transaction ${txHash} reverted.`,
        {
          context: { txHash },
        },
      );
    }
    sent.push(done);
  }
  return sent;
}

/** Balance of collateral, or of one outcome token, in base units. */
export async function chainBalance(
  provider: JsonRpcProvider,
  profile: TradingProfile,
  owner: string,
  tokenId?: string,
): Promise<bigint> {
  const c = profile.network.contracts;
  if (tokenId === undefined)
    return (await new Contract(c.collateral!, ERC20, provider).getFunction('balanceOf')(owner)) as bigint;
  return (await new Contract(c.conditionalTokens!, ERC1155, provider).getFunction('balanceOf')(
    owner,
    tokenId,
  )) as bigint;
}
