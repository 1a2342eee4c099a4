// pUSD, the exchange's collateral since V2: the calls that wrap USDC.e into it through the CollateralOnramp and
// unwrap it through the CollateralOfframp (docs/protocol.md#collateral), and an address's
// balance of both tokens. The calls run as the account (accountTransactions sends them through its wallet).
import { Interface } from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter } from '../model/errors';
import { checkedAddress } from '../accounts/derive';
import type { ChainCall } from '../accounts/actions';
import { requireContract, type ActionContracts } from '../accounts/action-contracts';
import { toBaseUnits } from '../orders/rounding';

export const ERC20_ABI = new Interface([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function balanceOf(address holder) view returns (uint256)',
  'function allowance(address holder, address spender) view returns (uint256)',
]);
/** The onramp's wrap and the offramp's unwrap share one shape: (asset, recipient, amount). */
export const RAMP_ABI = new Interface([
  'function wrap(address _asset, address _to, uint256 _amount)',
  'function unwrap(address _asset, address _to, uint256 _amount)',
]);

/** An amount of collateral: integer base units (6 decimals), or dollars converted by the toolkit's one rounding place. */
export type CollateralAmount = bigint | number;

export function collateralBaseUnits(amount: CollateralAmount, what = 'amount'): bigint {
  const units = typeof amount === 'bigint' ? amount : BigInt(toBaseUnits(amount));
  if (units <= 0n)
    throw invalidParameter(
      `The ${what} must be more than zero, got ${typeof amount === 'bigint' ? `${amount} base units` : String(amount)}.`,
    );
  return units;
}

/**
 * Wraps `amount` USDC.e held by `account` into pUSD for `account`: approve the onramp (not pUSD) for exactly the
 * amount, then `wrap(USDC.e, account, amount)`. `to` is the trading account, never the key beside it. Native USDC
 * is not accepted by the onramp. Afterwards the CLOB's cached view needs `GET /balance-allowance/update` (COLLATERAL).
 */
export function wrapCalls(contracts: ActionContracts, account: string, amount: CollateralAmount): ChainCall[] {
  const usdcE = requireContract(contracts, 'usdcE', 'wrapping into pUSD');
  const onramp = requireContract(contracts, 'collateralOnramp', 'wrapping into pUSD');
  const units = collateralBaseUnits(amount);
  const to = checkedAddress(account, 'account');
  return [
    { to: usdcE, data: ERC20_ABI.encodeFunctionData('approve', [onramp, units]) },
    { to: onramp, data: RAMP_ABI.encodeFunctionData('wrap', [usdcE, to, units]) },
  ];
}

/** Unwraps `amount` pUSD held by `account` back to USDC.e paid to `to` (the account by default): approve the offramp, then unwrap. */
export function unwrapCalls(
  contracts: ActionContracts,
  account: string,
  amount: CollateralAmount,
  to: string = account,
): ChainCall[] {
  const pusd = requireContract(contracts, 'collateral', 'unwrapping pUSD');
  const usdcE = requireContract(contracts, 'usdcE', 'unwrapping pUSD');
  const offramp = requireContract(contracts, 'collateralOfframp', 'unwrapping pUSD');
  const units = collateralBaseUnits(amount);
  checkedAddress(account, 'account');
  return [
    { to: pusd, data: ERC20_ABI.encodeFunctionData('approve', [offramp, units]) },
    { to: offramp, data: RAMP_ABI.encodeFunctionData('unwrap', [usdcE, checkedAddress(to, 'recipient'), units]) },
  ];
}

/** What reads a contract (an ethers provider fits). */
export interface TokenReader {
  call(tx: { to: string; data: string }): Promise<string>;
}

/** An ERC-20 balance in base units; an answer that is not one word is ERR_VALIDATION naming the token and holder. */
export async function tokenBalance(rpc: TokenReader, token: string, holder: string): Promise<bigint> {
  const answer = await rpc.call({
    to: checkedAddress(token, 'token'),
    data: ERC20_ABI.encodeFunctionData('balanceOf', [checkedAddress(holder, 'holder')]),
  });
  if (typeof answer !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(answer)) {
    throw new PmDeskError(
      ErrorCode.VALIDATION_ERROR,
      `balanceOf(${holder}) on ${token} answered ${String(answer).slice(0, 80)}, not one 32-byte word.`,
      { methodName: 'tokenBalance' },
    );
  }
  return BigInt(answer);
}

export interface CollateralBalances {
  /** USDC.e not yet wrapped (absent when the network has no USDC.e). */
  usdcE?: bigint;
  /** pUSD, what the exchange trades with. */
  pusd: bigint;
}

/** An address's pUSD and USDC.e, in base units; a funded account that shows pUSD 0 usually still needs to wrap. */
export async function collateralBalances(
  rpc: TokenReader,
  contracts: ActionContracts,
  holder: string,
): Promise<CollateralBalances> {
  const pusdToken = requireContract(contracts, 'collateral', 'reading the pUSD balance');
  const [pusd, usdcE] = await Promise.all([
    tokenBalance(rpc, pusdToken, holder),
    contracts.usdcE ? tokenBalance(rpc, contracts.usdcE, holder) : Promise.resolve(undefined),
  ]);
  return usdcE === undefined ? { pusd } : { pusd, usdcE };
}
