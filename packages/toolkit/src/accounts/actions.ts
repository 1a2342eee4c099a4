// On-chain actions for an account: the calls an action needs (approvals, wrap, split, redeem…) turned into what
// the owner's key actually sends (docs/protocol.md#on-chain-actions-per-account). The key itself sends them as they are; a proxy wallet runs
// them through its factory's `proxy(calls)`; a Safe through `execTransaction` signed by its owner; a deposit
// wallet cannot without Polymarket's relayer. Calls always run *as the account*, never as the key beside it.
import { Interface, type TypedDataDomain } from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter } from '../model/errors';
import { SAFE_MULTISEND_130 } from './action-contracts';
import type { TypedDataTypes } from '../orders/signer';
import { classifyAccount } from './classify';
import { AccountKind, checkedAddress } from './derive';
import {
  execTransactionData,
  packSafeSignature,
  recoverSafeSigner,
  safeTxFor,
  safeTxTypedData,
  type SafeSignatureKind,
  type SafeTx,
} from './safe';
import type { WalletConfig } from '../chain/wallet-config';

/** One contract call an action makes, as the account: `value` (wei) is paid from the account's own balance. */
export interface ChainCall {
  to: string;
  data: string;
  value?: bigint;
}

/** The account acting and the key that owns it (for the key's own account both are the same address). */
export interface ActionAccount {
  kind: AccountKind;
  address: string;
  owner: string;
}

/** A transaction the owner's key signs and sends, paying the gas in POL. */
export interface OwnerTransaction {
  from: string;
  to: string;
  data: string;
  value: bigint;
}

/** What signs a Safe transaction: PM Desk's keys live in the signer worker, so this is injected (a ClobSigner fits). */
export interface TypedDataSigner {
  signTypedData(domain: TypedDataDomain, types: TypedDataTypes, value: Record<string, unknown>): Promise<string>;
}

export interface AccountActionOptions {
  chainId: number;
  /** The chain's wallet factories: the account must be the owner's own derivation, and the proxy factory is called. */
  wallets: WalletConfig;
  /** Safe only: signs the SafeTx typed data with the owner's key. */
  signer?: TypedDataSigner;
  /** Safe only: the Safe's current `nonce()` (readSafeNonce over a provider). */
  safeNonce?: (safe: string) => Promise<bigint>;
  /** Safe only: the MultiSend a batch is delegated to; the canonical Safe 1.3.0 one by default. */
  multiSend?: string;
}

export interface AccountActionPlan {
  account: ActionAccount;
  /** What the owner sends, in order. One for a wallet (whatever the number of calls); one per call for the key itself. */
  transactions: OwnerTransaction[];
  /** True when one transaction carries every call, so they succeed or fail together. */
  atomic: boolean;
  /** A sentence for the trader when the calls cannot go as one transaction. */
  note?: string;
  /** Safe only: the transaction the Safe runs, its EIP-712 hash and the owner's packed signature. */
  safe?: { tx: SafeTx; hash: string; signature: string };
}

/** ProxyWalletFactory.proxy(ProxyCall[]): typeCode 1 is CALL (0 is INVALID and fails; 2 DELEGATECALL is never used). */
export const PROXY_FACTORY_ABI = new Interface([
  'function proxy((uint8 typeCode, address to, uint256 value, bytes data)[] calls) payable returns (bytes[] returnValues)',
]);
export const PROXY_CALL = 1;

/** The one sentence for deposit wallets: docs/protocol.md#on-chain-actions-per-account found no path without the relayer. */
export const DEPOSIT_WALLET_RELAYER_ONLY =
  "Deposit wallets can act on chain (approvals, wrapping, split, merge, redeem) only through Polymarket's relayer, never from the key: relayer credentials (`pmdesk relayer login`) send them there, and trading from the deposit wallet still works.";

/** The calldata for the proxy factory: every call runs as the sender's proxy wallet, deployed on first use. */
export function proxyFactoryData(calls: readonly ChainCall[]): string {
  if (calls.length === 0) throw invalidParameter('A proxy-wallet transaction needs at least one call.');
  return PROXY_FACTORY_ABI.encodeFunctionData('proxy', [
    calls.map((c) => [PROXY_CALL, checkedAddress(c.to, 'call target'), c.value ?? 0n, c.data]),
  ]);
}

const KIND_NAMES: Readonly<Record<AccountKind, string>> = {
  eoa: 'own address',
  proxy: 'proxy wallet',
  safe: 'Safe',
  'deposit-wallet': 'deposit wallet',
};

/**
 * Checks the account is what it says for this owner before anything is built: the key's own address, or the
 * key's own CREATE2 wallet of that kind. The proxy factory acts on the *sender's* proxy, so a proxy address that
 * is not the key's derivation would quietly act on another wallet (polymarket-cli #14); a Safe the key does not
 * own would fail on chain.
 */
function checkAccount(account: ActionAccount, wallets: WalletConfig): ActionAccount {
  const owner = checkedAddress(account.owner, 'owner');
  const address = checkedAddress(account.address, 'account');
  if (account.kind === AccountKind.DEPOSIT_WALLET) {
    throw new PmDeskError(ErrorCode.NOT_AVAILABLE, DEPOSIT_WALLET_RELAYER_ONLY, { methodName: 'accountTransactions' });
  }
  const found = classifyAccount(owner, address, wallets);
  if (found.kind !== account.kind) {
    throw invalidParameter(
      `The account ${address} is the key's ${KIND_NAMES[found.kind]}, not its ${KIND_NAMES[account.kind]}; nothing was built.`,
      'accountTransactions',
    );
  }
  return { kind: account.kind, address, owner };
}

/**
 * The transactions the owner's key sends so that `calls` run as `account`. The key: the calls themselves, one
 * transaction each (a key cannot batch; `atomic` is false when there are several). A proxy wallet: one
 * `proxy(calls)` to the proxy factory. A Safe: one `execTransaction` on the Safe — a single call straight, several
 * through MultiSend — signed by the owner through `signer`, the signature checked to recover to the owner.
 * A deposit wallet: ERR_NOT_AVAILABLE. A call is never sent from the key on behalf of another account.
 */
export async function accountTransactions(
  account: ActionAccount,
  calls: readonly ChainCall[],
  options: AccountActionOptions,
): Promise<AccountActionPlan> {
  if (calls.length === 0)
    throw invalidParameter('There is nothing to send: the action has no calls.', 'accountTransactions');
  for (const call of calls) {
    checkedAddress(call.to, 'call target');
    if (typeof call.data !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(call.data))
      throw invalidParameter(`The call to ${call.to} has calldata that is not hex bytes.`, 'accountTransactions');
    if (call.value !== undefined && call.value < 0n)
      throw invalidParameter('A call cannot carry a negative value.', 'accountTransactions');
  }
  const checked = checkAccount(account, options.wallets);
  const from = checked.owner;

  if (checked.kind === AccountKind.EOA) {
    const transactions = calls.map((c) => ({
      from,
      to: checkedAddress(c.to, 'call target'),
      data: c.data,
      value: c.value ?? 0n,
    }));
    const atomic = transactions.length === 1;
    return {
      account: checked,
      transactions,
      atomic,
      ...(atomic
        ? {}
        : {
            note: `The key's own address cannot batch: these ${transactions.length} calls are ${transactions.length} transactions, sent one after another; if one fails, the ones before it stay done.`,
          }),
    };
  }

  if (checked.kind === AccountKind.PROXY) {
    if (!options.wallets.proxyFactory)
      throw invalidParameter(
        'This chain has no proxy factory, so a proxy wallet cannot act here.',
        'accountTransactions',
      );
    // The wallet pays any call value from its own balance; the owner's transaction carries none.
    return {
      account: checked,
      transactions: [
        {
          from,
          to: checkedAddress(options.wallets.proxyFactory, 'proxy factory'),
          data: proxyFactoryData(calls),
          value: 0n,
        },
      ],
      atomic: true,
    };
  }

  // Safe (type 2).
  if (!options.signer)
    throw invalidParameter(
      'A Safe transaction needs the owner to sign it: no signer was given.',
      'accountTransactions',
    );
  if (!options.safeNonce)
    throw invalidParameter(
      "A Safe transaction needs the Safe's nonce: no nonce reader was given.",
      'accountTransactions',
    );
  const nonce = await options.safeNonce(checked.address);
  if (typeof nonce !== 'bigint' || nonce < 0n) {
    throw new PmDeskError(
      ErrorCode.VALIDATION_ERROR,
      `The Safe's nonce was read as ${String(nonce)}, not a whole number.`,
      { methodName: 'accountTransactions' },
    );
  }
  const tx = safeTxFor(calls, nonce, options.multiSend ?? SAFE_MULTISEND_130);
  const typed = safeTxTypedData(options.chainId, checked.address, tx);
  const signature = await signSafeTx(options.signer, typed, 'typed-data');
  if (recoverSafeSigner(typed.hash, signature) !== from) {
    throw invalidParameter(
      `The signer is not the Safe's owner ${from}: the Safe would refuse this transaction (GS026).`,
      'accountTransactions',
    );
  }
  return {
    account: checked,
    transactions: [{ from, to: checked.address, data: execTransactionData(tx, signature), value: 0n }],
    atomic: true,
    safe: { tx, hash: typed.hash, signature },
  };
}

async function signSafeTx(
  signer: TypedDataSigner,
  typed: ReturnType<typeof safeTxTypedData>,
  kind: SafeSignatureKind,
): Promise<string> {
  return packSafeSignature(await signer.signTypedData(typed.domain, typed.types, typed.value), kind);
}
