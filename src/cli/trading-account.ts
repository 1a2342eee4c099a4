// The CLI's one account rule (issue 28, point 9): a command that trades or moves money acts from the account
// `pmdesk account show` names for the key (the Polymarket profile's wallet, else the one holding collateral, else the
// one deployed, else the key), unless --account/--signature-type names another of the key's own; and it says which.
import { JsonRpcProvider, Network } from 'ethers';
import { boundedRpcRequest } from '../main/trading/chain-rpc';
import { ErrorCode, PmDeskError, invalidParameter, isPmDeskError } from '@pmdesk/toolkit/model';
import {
  accountForOverride,
  actionContractsFor,
  classifyAccount,
  findAccounts,
  rpcChainRead,
  walletConfigFor,
  type ChoiceReason,
  type NetworkProfile,
} from '@pmdesk/toolkit';
import type { AccountKind } from '@pmdesk/toolkit';
import type { CliContext } from './aggregator-commands';

/** Why the account was chosen, as `account show` says it; `flag` when --account/--signature-type named it. */
export const CHOICE: Readonly<Record<ChoiceReason | 'flag', string>> = {
  profile: 'the wallet your Polymarket profile names',
  funded: 'the wallet that holds collateral',
  deployed: 'the wallet deployed on chain',
  key: 'no wallet of the key is deployed or funded: the key trades as itself',
  flag: 'named by --account/--signature-type',
};

export interface ActingAccount {
  address: string;
  kind: AccountKind;
  signatureType: 0 | 1 | 2 | 3;
  reason: ChoiceReason | 'flag';
}

export interface AccountFlags {
  account?: string;
  signatureType?: string | number;
}

/**
 * The account a command acts from for this key on this network: the flags' when given (the key's own accounts
 * only), else the one found as `account show` finds it. The profile's wallet confirms; without an answer from the
 * profile the chain alone decides, as in the terminal.
 */
export async function actingAccount(
  owner: string,
  flags: AccountFlags,
  network: NetworkProfile,
  rpcUrl: string,
  profileWallet?: (owner: string) => Promise<string | null | undefined>,
  timeoutMs?: number,
): Promise<ActingAccount> {
  const config = walletConfigFor(network);
  if (flags.account !== undefined || flags.signatureType !== undefined) {
    const typed = flags.signatureType === undefined ? undefined : Number(flags.signatureType);
    if (typed !== undefined && !(Number.isInteger(typed) && typed >= 0 && typed <= 3))
      throw invalidParameter(`--signature-type must be 0, 1, 2 or 3, got ${String(flags.signatureType)}`);
    const account = accountForOverride(
      owner,
      { account: flags.account, signatureType: typed as 0 | 1 | 2 | 3 | undefined },
      config,
    );
    return { address: account.address, kind: account.kind, signatureType: account.signatureType, reason: 'flag' };
  }
  let wallet: string | undefined;
  try {
    wallet = (await profileWallet?.(owner)) ?? undefined;
    if (wallet) classifyAccount(owner, wallet, config);
  } catch {
    // No profile answer, or a profile wallet that is not one of this key's: the chain decides (account show's rule).
    wallet = undefined;
  }
  const contracts = actionContractsFor(network);
  const collateral = [contracts.collateral, contracts.usdcE].filter((t): t is string => Boolean(t));
  // Bounded like every other request of the command (--timeout-ms): a node that drips or stalls is given up.
  const provider = new JsonRpcProvider(boundedRpcRequest(rpcUrl, timeoutMs), Network.from(network.chainId), {
    staticNetwork: true,
    batchMaxCount: 1,
  });
  try {
    const found = await findAccounts(owner, {
      profileWallet: wallet,
      chainRead: rpcChainRead(provider, collateral),
      config,
    });
    return {
      address: found.chosen.address,
      kind: found.chosen.kind,
      signatureType: found.chosen.signatureType,
      reason: found.reason,
    };
  } catch (error) {
    if (isPmDeskError(error)) throw error;
    const reason = (error as { code?: unknown })?.code;
    // Out of time (ethers says TIMEOUT) is the catalogue's timeout, as for the order flow's own chain reads.
    const code = reason === 'TIMEOUT' ? ErrorCode.TIMEOUT_ERROR : ErrorCode.NETWORK_ERROR;
    throw new PmDeskError(
      code,
      `The chain's node at ${rpcUrl} did not answer while looking for the account of ${owner}: check that the network (or the local sandbox) is running, or name one with --account.`,
      { cause: error },
    );
  } finally {
    provider.destroy();
  }
}

/** Says which account acts: on stderr for text, nothing here for --json (the command puts it in its JSON). */
export function sayAccount(ctx: CliContext, account: ActingAccount): void {
  if (!ctx.out.json)
    ctx.out.stderr(
      `pmdesk: acting from ${account.address} (${account.kind}, signature type ${account.signatureType}): ${CHOICE[account.reason]}.\n`,
    );
}

/** The account as --json shows it. */
export function accountJson(account: ActingAccount): {
  address: string;
  kind: AccountKind;
  signatureType: number;
  reason: string;
} {
  return { address: account.address, kind: account.kind, signatureType: account.signatureType, reason: account.reason };
}
