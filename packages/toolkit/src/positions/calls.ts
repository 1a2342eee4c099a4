// Split, merge and redeem calldata per market kind (docs/protocol.md#positions-and-resolution): standard and neg-risk CTF markets go
// through their pUSD collateral adapters, Protocol V2 markets through the Router (bytes31 condition ids, one
// redeem per held outcome), and a network without adapters (the local sandbox, pre-V2 positions) takes the
// legacy ConditionalTokens / NegRiskAdapter paths. The calls run as the account (accountTransactions).
import { Interface } from 'ethers';
import { invalidParameter } from '../model/errors';
import type { ChainCall } from '../accounts/actions';
import { requireContract, type ActionContracts } from '../accounts/action-contracts';
import { BYTES32_ZERO } from '../chain/networks';
import { conditionId31, conditionId32 } from './condition-id';
import type { Resolution } from './resolution';

/** What routes a position action: Gamma's `negRisk` and `version` ("v1" CTF markets, "v2" Protocol V2 markets). */
export interface PositionMarket {
  conditionId: string;
  negRisk: boolean;
  version?: 'v1' | 'v2';
}

/** Which contract takes the calls. */
export type PositionRoute = 'ctf-adapter' | 'neg-risk-adapter' | 'router' | 'legacy-ctf' | 'legacy-neg-risk';

/** The ConditionalTokens call shapes, which both collateral adapters (and the neg-risk adapter's overloads) share. */
export const CTF_SHAPED_ABI = new Interface([
  'function splitPosition(address collateralToken, bytes32 parentCollectionId, bytes32 conditionId, uint256[] partition, uint256 amount)',
  'function mergePositions(address collateralToken, bytes32 parentCollectionId, bytes32 conditionId, uint256[] partition, uint256 amount)',
  'function redeemPositions(address collateralToken, bytes32 parentCollectionId, bytes32 conditionId, uint256[] indexSets)',
]);
export const ROUTER_ABI = new Interface([
  'function split(bytes31 conditionId, uint256 amount)',
  'function merge(bytes31 conditionId, uint256 amount)',
  'function redeem(bytes31 conditionId, uint256 outcomeIndex, uint256 amount)',
]);
/** The neg-risk adapter's own redeem: the amounts held of each outcome, [yes, no]. */
export const NEG_RISK_ADAPTER_ABI = new Interface(['function redeemPositions(bytes32 conditionId, uint256[] amounts)']);

/** A binary market's outcomes as CTF index sets: first outcome (YES) = 1, second (NO) = 2. */
export const BINARY_PARTITION = [1n, 2n] as const;

export interface PositionOptions {
  /** Take the legacy ConditionalTokens / NegRiskAdapter path even where adapters exist (positions made before V2). */
  legacy?: boolean;
}

interface Route {
  route: PositionRoute;
  target: string;
  /** The collateral argument of CTF-shaped calls. */
  collateral?: string;
}

/** The contract a market's position actions go to on this network, and the collateral they name. */
export function positionRoute(
  market: PositionMarket,
  contracts: ActionContracts,
  options: PositionOptions = {},
): Route {
  const purpose = `${market.negRisk ? 'a neg-risk' : 'a standard'} ${market.version === 'v2' ? 'Protocol V2' : 'CTF'} market's split, merge or redeem`;
  if (market.version === 'v2') return { route: 'router', target: requireContract(contracts, 'router', purpose) };
  const adapter = market.negRisk ? contracts.negRiskCtfCollateralAdapter : contracts.ctfCollateralAdapter;
  if (adapter && !options.legacy) {
    return {
      route: market.negRisk ? 'neg-risk-adapter' : 'ctf-adapter',
      target: adapter,
      collateral: requireContract(contracts, 'collateral', purpose),
    };
  }
  // Positions made before V2 (asked for with `legacy`) were minted on USDC.e; a network without adapters (the
  // local sandbox) mints its markets' positions on its own collateral, whatever other tokens it has.
  const collateral =
    options.legacy && contracts.usdcE ? contracts.usdcE : requireContract(contracts, 'collateral', purpose);
  if (market.negRisk)
    return { route: 'legacy-neg-risk', target: requireContract(contracts, 'negRiskAdapter', purpose), collateral };
  return { route: 'legacy-ctf', target: requireContract(contracts, 'conditionalTokens', purpose), collateral };
}

function positiveAmount(amount: bigint, what: string): bigint {
  if (typeof amount !== 'bigint' || amount <= 0n)
    throw invalidParameter(`The ${what} amount must be a positive number of base units, got ${String(amount)}.`);
  return amount;
}

/** Split `amount` collateral (base units) into `amount` of each outcome. */
export function splitCalls(
  market: PositionMarket,
  contracts: ActionContracts,
  amount: bigint,
  options: PositionOptions = {},
): ChainCall[] {
  const units = positiveAmount(amount, 'split');
  const { route, target, collateral } = positionRoute(market, contracts, options);
  if (route === 'router')
    return [{ to: target, data: ROUTER_ABI.encodeFunctionData('split', [conditionId31(market.conditionId), units]) }];
  return [
    {
      to: target,
      data: CTF_SHAPED_ABI.encodeFunctionData('splitPosition', [
        collateral!,
        BYTES32_ZERO,
        conditionId32(market.conditionId),
        [...BINARY_PARTITION],
        units,
      ]),
    },
  ];
}

/** Merge `amount` of each outcome back into collateral; at most mergeableAmount(balances). */
export function mergeCalls(
  market: PositionMarket,
  contracts: ActionContracts,
  amount: bigint,
  options: PositionOptions = {},
): ChainCall[] {
  const units = positiveAmount(amount, 'merge');
  const { route, target, collateral } = positionRoute(market, contracts, options);
  if (route === 'router')
    return [{ to: target, data: ROUTER_ABI.encodeFunctionData('merge', [conditionId31(market.conditionId), units]) }];
  return [
    {
      to: target,
      data: CTF_SHAPED_ABI.encodeFunctionData('mergePositions', [
        collateral!,
        BYTES32_ZERO,
        conditionId32(market.conditionId),
        [...BINARY_PARTITION],
        units,
      ]),
    },
  ];
}

/** How much can be merged: a full set needs one of each outcome. */
export function mergeableAmount(balances: readonly bigint[]): bigint {
  if (balances.length === 0) return 0n;
  return balances.reduce((low, b) => (b < low ? b : low));
}

/**
 * Redeem a resolved market's positions. The adapters and ConditionalTokens redeem every held outcome in one call;
 * the Router takes one `redeem` per held outcome with its balance; the legacy neg-risk adapter takes the amounts
 * held, [yes, no]. An unresolved market, or nothing held, is refused before anything is built.
 */
export function redeemCalls(
  market: PositionMarket,
  contracts: ActionContracts,
  resolution: Resolution,
  balances: readonly bigint[],
  options: PositionOptions = {},
): ChainCall[] {
  if (resolution.state !== 'resolved') {
    throw invalidParameter(
      `The market ${market.conditionId} is not resolved yet: nothing can be redeemed until its result is reported on chain.`,
      'redeemCalls',
    );
  }
  if (balances.length !== BINARY_PARTITION.length || balances.some((b) => typeof b !== 'bigint' || b < 0n)) {
    throw invalidParameter(
      'Redeeming needs the amount held of each of the two outcomes, in base units.',
      'redeemCalls',
    );
  }
  if (balances.every((b) => b === 0n))
    throw invalidParameter(
      `Nothing to redeem: no position is held in the market ${market.conditionId}.`,
      'redeemCalls',
    );
  const { route, target, collateral } = positionRoute(market, contracts, options);
  switch (route) {
    case 'router': {
      const id = conditionId31(market.conditionId);
      return balances.flatMap((held, outcome) =>
        held > 0n ? [{ to: target, data: ROUTER_ABI.encodeFunctionData('redeem', [id, BigInt(outcome), held]) }] : [],
      );
    }
    case 'legacy-neg-risk':
      return [
        {
          to: target,
          data: NEG_RISK_ADAPTER_ABI.encodeFunctionData('redeemPositions', [
            conditionId32(market.conditionId),
            [...balances],
          ]),
        },
      ];
    default:
      return [
        {
          to: target,
          data: CTF_SHAPED_ABI.encodeFunctionData('redeemPositions', [
            collateral!,
            BYTES32_ZERO,
            conditionId32(market.conditionId),
            [...BINARY_PARTITION],
          ]),
        },
      ];
  }
}
