// The contracts on-chain account actions go through, beyond the exchanges: the USDC.e ⇄ pUSD ramps, the
// collateral adapters and Protocol V2's Router for split/merge/redeem, and the Safe's MultiSend. Polygon's are
// published (docs/protocol.md#contracts-and-addresses, docs/protocol.md#on-chain-actions-per-account); a custom profile (the sandbox) has only its own.
import { invalidParameter } from '../model/errors';
import { checkedAddress } from './derive';
import { V1_COLLATERAL, type NetworkProfile } from '../chain/networks';

/** Every field is optional: a network without a contract simply cannot take the path that needs it. */
export interface ActionContracts {
  /** pUSD (the V2 collateral) — the profile's `collateral`. */
  collateral?: string;
  /** USDC.e, the only token the onramp wraps (native USDC is refused). */
  usdcE?: string;
  /** CollateralOnramp: USDC.e → pUSD, `wrap(asset, to, amount)`. */
  collateralOnramp?: string;
  /** CollateralOfframp: pUSD → USDC.e, `unwrap(asset, to, amount)`. */
  collateralOfframp?: string;
  /** Gnosis ConditionalTokens: resolution reads, and the legacy split/merge/redeem. */
  conditionalTokens?: string;
  /** The neg-risk adapter: legacy neg-risk split/merge/redeem. */
  negRiskAdapter?: string;
  /** CtfCollateralAdapter: standard CTF markets' split/merge/redeem in pUSD. */
  ctfCollateralAdapter?: string;
  /** NegRiskCtfCollateralAdapter: neg-risk CTF markets' split/merge/redeem in pUSD. */
  negRiskCtfCollateralAdapter?: string;
  /** Protocol V2 Router: `split`/`merge`/`redeem` with bytes31 condition ids. */
  router?: string;
  /** Protocol V2 PositionManager: where V2 positions are held (balances). */
  positionManager?: string;
  /** Safe 1.3.0 MultiSend, called by DELEGATECALL to batch several calls in one Safe transaction. */
  multiSend?: string;
}

/** The canonical Safe 1.3.0 MultiSend (same address on every chain it is deployed on, Polygon included). */
export const SAFE_MULTISEND_130 = '0xA238CBeb142c10Ef7Ad8442C6D1f9E89e07e7761';

/** Polygon (ts-sdk `production` environment, clob-client-v2 1.1.0 config, docs contracts/pUSD pages). */
export const POLYGON_ACTION_CONTRACTS: Readonly<Required<ActionContracts>> = {
  collateral: '0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB',
  usdcE: V1_COLLATERAL[137]!,
  collateralOnramp: '0x93070a847efEf7F70739046A929D47a521F5B8ee',
  collateralOfframp: '0x2957922Eb93258b93368531d39fAcCA3B4dC5854',
  conditionalTokens: '0x4D97DCd97eC945f40cF65F87097ACe5EA0476045',
  negRiskAdapter: '0xd91E80cF2E7be2e162c6513ceD06f1dD0dA35296',
  ctfCollateralAdapter: '0xAdA100Db00Ca00073811820692005400218FcE1f',
  negRiskCtfCollateralAdapter: '0xadA2005600Dec949baf300f4C6120000bDB6eAab',
  router: '0x12121212006e4CD160D18e3f00711DA5c3372600',
  positionManager: '0x006F54F7f9A22e0000CC2AB60031000000ae9fEF',
  multiSend: SAFE_MULTISEND_130,
};

/**
 * The action contracts of a network: Polygon's published set under the profile's own addresses (a fork keeps
 * them); any other chain (the sandbox, Amoy) only what its profile names — collateral, ConditionalTokens and the
 * neg-risk adapter — so split/merge/redeem there take the legacy paths. `extra` adds or overrides fields.
 */
export function actionContractsFor(network: NetworkProfile, extra: ActionContracts = {}): ActionContracts {
  const base: ActionContracts = network.chainId === 137 ? { ...POLYGON_ACTION_CONTRACTS } : {};
  const { collateral, conditionalTokens, negRiskAdapter, usdcE, collateralOnramp } = network.contracts;
  // A profile naming one ramp (the sandbox's wraps and unwraps) uses it both ways.
  const collateralOfframp = network.contracts.collateralOfframp ?? collateralOnramp;
  const named = { collateral, conditionalTokens, negRiskAdapter, usdcE, collateralOnramp, collateralOfframp };
  const fromProfile = Object.fromEntries(Object.entries(named).filter(([, v]) => v !== undefined));
  // A profile's Safe MultiSend sits with its wallet factories (the sandbox deploys its own).
  const multiSend = network.wallets?.multiSend ? { multiSend: network.wallets.multiSend } : {};
  const merged: ActionContracts = { ...base, ...fromProfile, ...multiSend, ...extra };
  for (const [field, value] of Object.entries(merged)) {
    if (value !== undefined) (merged as Record<string, string>)[field] = checkedAddress(value as string, field);
  }
  return merged;
}

/** The address of one action contract, or a refusal saying which the network lacks and what needed it. */
export function requireContract(contracts: ActionContracts, field: keyof ActionContracts, purpose: string): string {
  const address = contracts[field];
  if (!address) throw invalidParameter(`This network has no ${field} address, which ${purpose} needs.`);
  return checkedAddress(address, field);
}
