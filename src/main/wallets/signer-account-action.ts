// Inside the signer worker: one money action (wrap, unwrap, split, merge, redeem) run as the key's account. The
// calls come from the toolkit's builders over what the chain says, never from the request; the account must be
// the key's own (toolkit account actions check it before anything is signed); every transaction's gas is quoted
// against the key's POL before the first is sent, so a key that cannot pay sends nothing.
import { JsonRpcProvider, Network, isError, type Wallet } from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import { DEPOSIT_WALLET_RELAYER_ONLY, accountTransactions, type OwnerTransaction } from '@pmdesk/toolkit';
import { classifyAccount } from '@pmdesk/toolkit';
import { AccountKind } from '@pmdesk/toolkit';
import { checkGasFunds, providerGasReader, quoteGas, type GasQuote } from '@pmdesk/toolkit';
import { readSafeNonce } from '@pmdesk/toolkit';
import { walletConfigSchema } from '@pmdesk/toolkit';
import type { ActionContracts } from '@pmdesk/toolkit';
import { waitForReceipt } from '@pmdesk/toolkit';
import { checkedAddress } from '@pmdesk/toolkit';
import { moneyActionCalls } from '@pmdesk/toolkit';
import type { AccountActionRequest, AccountActionResult } from './signer-protocol';

const KINDS: readonly string[] = [AccountKind.EOA, AccountKind.PROXY, AccountKind.SAFE, AccountKind.DEPOSIT_WALLET];

/** Quotes, and with `request.send` sends, the action as `wallet`'s account; waits for each transaction to be mined. */
export async function runAccountAction(wallet: Wallet, request: AccountActionRequest): Promise<AccountActionResult> {
  if (!request || typeof request !== 'object') throw invalidParameter('An account action needs its request.');
  const { account, chainId, rpcUrl } = request;
  if (!account || !KINDS.includes(account.kind))
    throw invalidParameter('An account action is sent as the key, its proxy wallet or its Safe.');
  if (!Number.isSafeInteger(chainId) || chainId <= 0)
    throw invalidParameter('The chain id must be a positive integer.');
  if (typeof rpcUrl !== 'string' || !/^https?:\/\//.test(rpcUrl))
    throw invalidParameter('The RPC URL must be http(s).');
  const wallets = walletConfigSchema.parse(account.wallets ?? {});
  const contracts = checkedContracts(request.contracts);
  // The key's own account, or nothing is read or built (accountTransactions checks it again before signing).
  const own = classifyAccount(wallet.address, account.address, wallets);
  if (own.kind !== account.kind)
    throw invalidParameter(
      `The account ${own.address} is the key's ${own.kind}, not its ${account.kind}; nothing was built.`,
    );
  if (own.kind === AccountKind.DEPOSIT_WALLET)
    throw new PmDeskError(ErrorCode.NOT_AVAILABLE, DEPOSIT_WALLET_RELAYER_ONLY);
  const provider = new JsonRpcProvider(rpcUrl, Network.from(chainId), {
    staticNetwork: true,
    batchMaxCount: 1,
    cacheTimeout: -1,
  });
  try {
    const built = await onChain(() => moneyActionCalls(provider, contracts, account.address, request.action));
    const plan = await accountTransactions(
      { kind: account.kind as AccountKind, address: account.address, owner: wallet.address },
      built.calls,
      {
        chainId,
        wallets,
        multiSend: contracts.multiSend ?? wallets.multiSend,
        signer: wallet,
        safeNonce: (safe) => readSafeNonce(provider, safe),
      },
    );
    const reader = providerGasReader(provider);
    // The key's own transactions may depend on each other (approve, then wrap): only the first can be estimated
    // before the first is mined; a wallet's is always one transaction.
    const first = await onChain(() => quoteGas(plan.transactions[0]!, reader));
    const result: AccountActionResult = {
      amount: built.amount.toString(),
      ...(built.redeem ? { held: built.redeem.held.map(String), label: built.redeem.label } : {}),
      transactions: plan.transactions.length,
      atomic: plan.atomic,
      ...(plan.note ? { note: plan.note } : {}),
      gasWei: (first.cost * BigInt(plan.transactions.length)).toString(),
      keyBalanceWei: first.balance.toString(),
      txHashes: [],
    };
    checkGasFunds(wallet.address, first.balance, first.cost * BigInt(plan.transactions.length));
    if (request.send !== true) return result;
    for (const [i, tx] of plan.transactions.entries()) {
      const quote = i === 0 ? first : await onChain(() => quoteGas(tx, reader));
      result.txHashes.push(await sendAndWait(wallet, provider, chainId, tx, quote, result.txHashes));
    }
    return result;
  } finally {
    provider.destroy();
  }
}

/** Signs a legacy transaction at the quoted gas, broadcasts it and waits for it to be mined with success. */
async function sendAndWait(
  wallet: Wallet,
  provider: JsonRpcProvider,
  chainId: number,
  tx: OwnerTransaction,
  quote: GasQuote,
  before: readonly string[],
): Promise<string> {
  const hash = await onChain(async () => {
    const nonce = await provider.getTransactionCount(wallet.address, 'pending');
    const signed = await wallet.signTransaction({
      type: 0,
      chainId,
      nonce,
      gasPrice: quote.gasPrice,
      gasLimit: quote.gasLimit,
      to: tx.to,
      data: tx.data,
      value: tx.value,
    });
    return (await provider.broadcastTransaction(signed)).hash;
  });
  const receipt = await onChain(() => waitForReceipt(provider, hash));
  if (!receipt || receipt.status !== 1) {
    throw new PmDeskError(
      ErrorCode.API_REQUEST_FAILED,
      `The transaction ${hash} failed on chain${before.length ? ` after ${before.join(', ')} went through` : ''}.`,
      { context: { txHash: hash } },
    );
  }
  return hash;
}

/** A node's or socket's failure as a sentence that never repeats the RPC URL (it may carry an API key). */
export async function onChain<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PmDeskError) throw error;
    const systemCode = (error as { code?: unknown } | null)?.code;
    if (typeof systemCode === 'string' && /^E[A-Z]+$/.test(systemCode)) {
      throw new PmDeskError(
        ErrorCode.NETWORK_ERROR,
        `Nothing was sent: the chain's RPC node did not answer (${systemCode}).`,
      );
    }
    const code = typeof systemCode === 'string' && isError(error, systemCode as never) ? systemCode : 'UNKNOWN_ERROR';
    const reason =
      code !== 'UNKNOWN_ERROR'
        ? String((error as { shortMessage?: unknown }).shortMessage ?? code).slice(0, 160)
        : 'no answer from the chain';
    throw new PmDeskError(
      code === 'NETWORK_ERROR' || code === 'TIMEOUT' ? ErrorCode.NETWORK_ERROR : ErrorCode.API_REQUEST_FAILED,
      `The chain refused the action: ${reason}`,
      {
        context: { reason: code },
      },
    );
  }
}

const CONTRACT_FIELDS: readonly (keyof ActionContracts)[] = [
  'collateral',
  'usdcE',
  'collateralOnramp',
  'collateralOfframp',
  'conditionalTokens',
  'negRiskAdapter',
  'ctfCollateralAdapter',
  'negRiskCtfCollateralAdapter',
  'router',
  'positionManager',
  'multiSend',
];

/** The network's action contracts as main names them (actionContractsFor), each a checked address; nothing else kept. */
export function checkedContracts(given: unknown): ActionContracts {
  if (!given || typeof given !== 'object') throw invalidParameter("An account action needs the network's contracts.");
  const out: ActionContracts = {};
  for (const field of CONTRACT_FIELDS) {
    const value = (given as Record<string, unknown>)[field];
    if (value !== undefined) out[field] = checkedAddress(String(value), field);
  }
  return out;
}
