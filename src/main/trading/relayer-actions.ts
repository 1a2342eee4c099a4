// Main's money actions through Polymarket's relayer: which way a wallet's actions go (the relayer when its account is
// a proxy wallet, Safe or deposit wallet and relayer credentials exist — kept in the keychain, or the network
// profile's test keys — else the key, which pays gas in POL), and the relayed send: the signer worker signs (a
// deployment first when the wallet has no code), main submits once and follows to a final state within a bound.
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import {
  RelayerClient,
  actionContractsFor,
  moneyActionCalls,
  relayCalls,
  type MoneyActionCalls,
  type MoneyActionRequest,
  type RelayedAccount,
  type RelayerCredentials,
  type RelayStep,
} from '@pmdesk/toolkit';
import {
  RelayerCredentialStore,
  describeRelayerCredentials,
  relayerCredentialsFor,
} from '../credentials/relayer-credentials';
import type { AccountActionRequest } from '../wallets/signer-protocol';
import type { SignerClient } from '../wallets/signer-client';
import type { TradingService } from './service';

export const VIA_RELAYER = "Through Polymarket's relayer — no gas needed";
export const VIA_KEY_NO_CREDENTIALS = 'Your key pays gas in POL: no relayer credentials';

export type MoneyPathChoice =
  | { via: 'key'; reason: string }
  | { via: 'relayer'; reason: string; relayerUrl: string; credentials: RelayerCredentials };

type ActingAccount = AccountActionRequest['account'];

/** Which way this account's money actions go; `asked` ('relayer' | 'key') overrides the default where it can. */
export async function moneyPathFor(
  flow: TradingService,
  key: string,
  account: ActingAccount,
  asked?: 'relayer' | 'key',
): Promise<MoneyPathChoice> {
  if (account.kind === 'eoa') {
    if (asked === 'relayer')
      throw invalidParameter(
        'The key acts as itself and pays its own gas: the relayer is for a proxy wallet, Safe or deposit wallet.',
      );
    return { via: 'key', reason: 'Your key pays gas in POL: it acts as itself' };
  }
  if (asked === 'key') return { via: 'key', reason: 'Your key pays gas in POL, as asked' };
  const network = flow.profile.network;
  const found = await relayerCredentialsFor(key, network, new RelayerCredentialStore(flow.credentialVault));
  if (found && network.relayerUrl) {
    const kept = flow.credentialVault.storage === 'keychain' ? 'stored in your keychain' : 'kept for this session';
    const from = found.source === 'keychain' ? kept : "the network profile's test key";
    return {
      via: 'relayer',
      reason: `${VIA_RELAYER} (${describeRelayerCredentials(found.credentials)}, ${from})`,
      relayerUrl: network.relayerUrl,
      credentials: found.credentials,
    };
  }
  if (asked === 'relayer')
    throw invalidParameter(
      network.relayerUrl
        ? `No relayer credentials for ${key}: enter them first.`
        : `The network ${network.name} names no relayer.`,
    );
  return { via: 'key', reason: VIA_KEY_NO_CREDENTIALS };
}

export interface RelayedMoneyResult {
  built: MoneyActionCalls;
  /** Sent only: the relayer's record of the action, and every hash (a deployment's first). */
  relayer?: { transactionID: string; transactionHash: string; state: string; summary: string };
  txHashes: string[];
}

/**
 * Previews (send false: the calls read from the chain, nothing signed) or sends the action through the relayer. A
 * transaction still going when the polls run out, or one that failed, is an error saying what is known.
 */
export async function relayedMoneyAction(
  flow: TradingService,
  signer: SignerClient,
  key: string,
  account: ActingAccount,
  path: Extract<MoneyPathChoice, { via: 'relayer' }>,
  action: MoneyActionRequest,
  send: boolean,
  onStep?: (step: RelayStep) => void,
): Promise<RelayedMoneyResult> {
  const contracts = actionContractsFor(flow.profile.network);
  const built = await moneyActionCalls(flow.provider, contracts, account.address, action);
  if (!send) return { built, txHashes: [] };
  const kind = account.kind as RelayedAccount['kind'];
  const relayed: RelayedAccount = { kind, address: account.address, owner: key };
  const base = {
    account: { kind, address: account.address, wallets: account.wallets },
    chainId: flow.profile.network.chainId,
    ...(contracts.multiSend ? { multiSend: contracts.multiSend } : {}),
  };
  const client = new RelayerClient({ url: path.relayerUrl, credentials: path.credentials, timeoutMs: 20_000 });
  const result = await relayCalls({
    client,
    account: relayed,
    signDeployment: async () =>
      kind === 'proxy' ? undefined : (await signer.signRelayerRequest(key, { ...base, what: 'deploy' })).request,
    signCalls: async (reads) =>
      (
        await signer.signRelayerRequest(key, {
          ...base,
          what: 'action',
          action,
          contracts,
          rpcUrl: flow.profile.rpcUrl,
          reads,
        })
      ).request,
    onStep,
  });
  const { outcome } = result;
  const context = {
    transactionID: outcome.transactionID,
    transactionHash: outcome.transactionHash,
    state: outcome.state,
  };
  if (!outcome.final) throw new PmDeskError(ErrorCode.TIMEOUT_ERROR, outcome.summary, { context });
  if (!outcome.succeeded) throw new PmDeskError(ErrorCode.API_REQUEST_FAILED, outcome.summary, { context });
  const txHashes = [result.deployment?.transactionHash, outcome.transactionHash].filter((h): h is string => Boolean(h));
  return { built, relayer: { ...context, summary: outcome.summary }, txHashes };
}
