// The approvals an order needs, through Polymarket's relayer: for a proxy wallet, Safe or deposit wallet whose owner
// has relayer credentials, the missing approvals go as one relayed batch (as @polymarket/client's
// setupTradingApprovals sends them) signed in the signer worker — the key pays no gas and may hold no POL, and a
// deposit wallet, which cannot approve any other way, can place its first order. A wallet with no code yet is
// deployed through the relayer first.
import { ErrorCode, PmDeskError } from '@pmdesk/toolkit/model';
import {
  RelayerClient,
  actionContractsFor,
  relayCalls,
  walletConfigFor,
  type RelayedAccount,
  type RelayerCredentials,
} from '@pmdesk/toolkit';
import { RelayerCredentialStore, relayerCredentialsFor } from '../credentials/relayer-credentials';
import type { CredentialVault } from '../credentials/api-credentials';
import type { SignerClient } from '../wallets/signer-client';
import type { ApprovalSent, ApprovalTarget } from './allowances';
import type { TradingAccount } from './account';
import type { TradingProfile } from './profile';

/** The relayer and the credentials an account's approvals would go through; none for the key itself or without credentials. */
export async function approvalRelayerFor(
  profile: TradingProfile,
  vault: CredentialVault,
  key: string,
  account: TradingAccount | undefined,
): Promise<{ relayerUrl: string; credentials: RelayerCredentials } | undefined> {
  if (!account || account.kind === 'eoa' || !profile.network.relayerUrl) return undefined;
  const found = await relayerCredentialsFor(key, profile.network, new RelayerCredentialStore(vault));
  return found ? { relayerUrl: profile.network.relayerUrl, credentials: found.credentials } : undefined;
}

/**
 * Sends the missing approvals as one relayed batch and follows it to a final state within a bound; each approval is
 * reported with the batch's transaction hash. A batch the relayer refused, that failed or that did not end in time is
 * an error saying what is known; nothing is submitted twice.
 */
export async function relayApprovals(options: {
  profile: TradingProfile;
  signer: SignerClient;
  key: string;
  account: TradingAccount;
  relayer: { relayerUrl: string; credentials: RelayerCredentials };
  missing: readonly ApprovalTarget[];
  onSubmitted?: (transactionID: string) => void;
  timeoutMs?: number;
}): Promise<ApprovalSent[]> {
  const { profile, signer, key, account, missing } = options;
  if (missing.length === 0) return [];
  const kind = account.kind as RelayedAccount['kind'];
  const wallets = walletConfigFor(profile.network);
  // A Safe batches its approvals through the network's MultiSend (the sandbox's own), as its money actions do.
  const multiSend = actionContractsFor(profile.network).multiSend;
  const base = {
    account: { kind, address: account.address, wallets },
    chainId: profile.network.chainId,
    ...(multiSend ? { multiSend } : {}),
  };
  const client = new RelayerClient({
    url: options.relayer.relayerUrl,
    credentials: options.relayer.credentials,
    timeoutMs: options.timeoutMs ?? 20_000,
  });
  const approvals = missing.map((t) => ({ kind: t.kind, token: t.token, spender: t.spender }));
  const result = await relayCalls({
    client,
    account: { kind, address: account.address, owner: key },
    signDeployment: async () =>
      kind === 'proxy' ? undefined : (await signer.signRelayerRequest(key, { ...base, what: 'deploy' })).request,
    signCalls: async (reads) =>
      (await signer.signRelayerRequest(key, { ...base, what: 'approvals', approvals, rpcUrl: profile.rpcUrl, reads }))
        .request,
    onStep: (step) => {
      if (step.step === 'submitted' && step.what === 'action') options.onSubmitted?.(step.submitted.transactionID);
    },
  });
  const { outcome } = result;
  const context = {
    transactionID: outcome.transactionID,
    transactionHash: outcome.transactionHash,
    state: outcome.state,
  };
  if (!outcome.final) throw new PmDeskError(ErrorCode.TIMEOUT_ERROR, `The approvals: ${outcome.summary}`, { context });
  if (!outcome.succeeded)
    throw new PmDeskError(ErrorCode.API_REQUEST_FAILED, `The approvals: ${outcome.summary}`, { context });
  return missing.map((t) => ({
    kind: t.kind,
    spender: t.spender,
    spenderName: t.spenderName,
    txHash: outcome.transactionHash,
  }));
}
