// Inside the signer worker: a request to Polymarket's relayer signed with the held key, exactly as the toolkit
// signs it with a plain key (the same builders; tests/integration/signer-relayer.test.ts compares them). The
// calls of an action come from the toolkit's builders over what the chain says, never from main; the account
// must be the key's own wallet of the named kind before anything is read or signed.
import { JsonRpcProvider, Network, type Wallet } from 'ethers';
import { invalidParameter } from '@pmdesk/toolkit/model';
import {
  AccountKind,
  buildRelayedCalls,
  buildRelayedDeployment,
  checkedAddress,
  classifyAccount,
  moneyActionCalls,
  tradingApprovalCalls,
  walletConfigSchema,
  type MoneyActionCalls,
  type RelayerNetwork,
} from '@pmdesk/toolkit';
import { checkedContracts, onChain } from './signer-account-action';
import type { RelayerSignRequest, RelayerSignResult } from './signer-protocol';

const RELAYED_KINDS: readonly string[] = [AccountKind.PROXY, AccountKind.SAFE, AccountKind.DEPOSIT_WALLET];
const DECIMAL = /^(0|[1-9][0-9]{0,77})$/;

/** Signs a deployment or an action's calls for `wallet`'s own proxy wallet, Safe or deposit wallet; sends nothing. */
export async function signRelayerRequest(wallet: Wallet, request: RelayerSignRequest): Promise<RelayerSignResult> {
  if (!request || typeof request !== 'object') throw invalidParameter('A relayer request needs its parameters.');
  const { account, chainId } = request;
  if (!account || typeof account !== 'object' || !RELAYED_KINDS.includes(account.kind))
    throw invalidParameter('The relayer acts for the key’s proxy wallet, Safe or deposit wallet only.');
  if (!Number.isSafeInteger(chainId) || chainId <= 0)
    throw invalidParameter('The chain id must be a positive integer.');
  const wallets = walletConfigSchema.parse(account.wallets ?? {});
  const own = classifyAccount(wallet.address, account.address, wallets);
  if (own.kind !== account.kind)
    throw invalidParameter(
      `The account ${own.address} is the key's ${own.kind}, not its ${account.kind}; nothing was signed.`,
    );
  const network: RelayerNetwork = {
    chainId,
    wallets,
    ...(request.relayHub !== undefined ? { relayHub: checkedAddress(String(request.relayHub), 'relay hub') } : {}),
    ...(request.multiSend !== undefined ? { multiSend: checkedAddress(String(request.multiSend), 'MultiSend') } : {}),
  };
  if (request.what === 'deploy') {
    const deployment = await buildRelayedDeployment(network, wallet, own.kind as 'safe' | 'deposit-wallet' | 'proxy');
    if (!deployment)
      throw invalidParameter('A proxy wallet is deployed by its first relayed action; there is no deployment to sign.');
    return { request: deployment };
  }
  if (request.what !== 'action' && request.what !== 'approvals')
    throw invalidParameter('A relayer request is a "deploy", an "action" or "approvals".');
  const reads = request.reads;
  if (!reads || typeof reads.nonce !== 'string' || !DECIMAL.test(reads.nonce))
    throw invalidParameter('A relayed action needs the nonce the relayer gave, as a whole number.');
  if (reads.relay !== undefined) checkedAddress(String(reads.relay), 'relay');
  if (request.deadline !== undefined && (typeof request.deadline !== 'string' || !DECIMAL.test(request.deadline)))
    throw invalidParameter('The batch deadline is a whole number of Unix seconds.');
  if (typeof request.rpcUrl !== 'string' || !/^https?:\/\//.test(request.rpcUrl))
    throw invalidParameter('The RPC URL must be http(s).');
  const approvals = request.what === 'approvals';
  if (!approvals && (!request.action || typeof request.action !== 'object'))
    throw invalidParameter('A relayed action needs the money action (wrap, unwrap, split, merge, redeem).');
  const contracts = approvals ? {} : checkedContracts(request.contracts);
  const provider = new JsonRpcProvider(request.rpcUrl, Network.from(chainId), {
    staticNetwork: true,
    batchMaxCount: 1,
    cacheTimeout: -1,
  });
  try {
    // Approvals: only those the chain shows missing now, so a batch never sets one twice.
    const built: MoneyActionCalls = approvals
      ? { calls: await onChain(() => tradingApprovalCalls(provider, own.address, request.approvals ?? [])), amount: 0n }
      : await onChain(() => moneyActionCalls(provider, contracts, own.address, request.action!));
    if (built.calls.length === 0)
      throw invalidParameter(`The ${own.kind} ${own.address} has every approval already; nothing was signed.`);
    const signed = await buildRelayedCalls(network, wallet, {
      account: { kind: own.kind as 'proxy' | 'safe' | 'deposit-wallet', address: own.address, owner: wallet.address },
      calls: built.calls,
      reads: { nonce: reads.nonce, ...(reads.relay !== undefined ? { relay: String(reads.relay) } : {}) },
      ...(request.deadline !== undefined ? { deadline: request.deadline } : {}),
    });
    return {
      request: signed,
      amount: built.amount.toString(),
      ...(built.redeem ? { held: built.redeem.held.map(String), label: built.redeem.label } : {}),
    };
  } finally {
    provider.destroy();
  }
}
