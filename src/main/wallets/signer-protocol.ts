// The signer worker's protocol: the only messages that cross between main and the process holding keys.
// Every operation is an intent ("sign this order", "send this approval"), never "sign these bytes"; the
// transport (worker thread now, Electron utility process in the app) is hidden behind two small interfaces.
import type { TypedDataDomain, TypedDataField } from 'ethers';
import type { WalletConfig } from '@pmdesk/toolkit';
import type { ActionContracts } from '@pmdesk/toolkit';
import type { MoneyActionRequest } from '@pmdesk/toolkit';
import type { RelayerRequest } from '@pmdesk/toolkit';
import type { TradingApproval } from '@pmdesk/toolkit';

export type TypedDataTypes = Record<string, TypedDataField[]>;

/** EIP-712 typed data as the toolkit builds it; the worker checks its primary type and domain. */
export interface TypedDataRequest {
  domain: TypedDataDomain;
  types: TypedDataTypes;
  message: Record<string, unknown>;
}

/** An allowance the order flow needs: an ERC-20 approve or an ERC-1155 setApprovalForAll, as a legacy transaction. */
export interface ApprovalRequest {
  /** 'collateral': ERC-20 approve(spender, amount); 'outcome-tokens': ERC-1155 setApprovalForAll(spender, approved). */
  kind: 'collateral' | 'outcome-tokens';
  /** The token contract: the collateral (USDC) or the conditional tokens. */
  token: string;
  spender: string;
  /** Base units for 'collateral', as a decimal string; unlimited (2^256 - 1) when absent. */
  amount?: string;
  /** For 'outcome-tokens'; true when absent. */
  approved?: boolean;
  rpcUrl: string;
  chainId: number;
  /** Wei, decimal strings (defaults 1e11 and 2e5: docs/protocol.md#constants-and-limits). */
  gasPrice: string;
  gasLimit: string;
  /** The chain's pending nonce for the wallet when absent. */
  nonce?: number;
  /**
   * Sent AS this account of the key (its proxy wallet through the factory's batch call, its Safe through an
   * execTransaction the key signs), never from the key for it. The worker checks the account is the key's own
   * CREATE2 wallet of that kind from `wallets` before it signs anything.
   */
  account?: { kind: 'proxy' | 'safe'; address: string; wallets: WalletConfig };
}

/**
 * A money action (wrap, unwrap, split, merge, redeem) run AS the key's account: the worker reads the chain, builds
 * the calls from the toolkit's builders, checks the account is the key's own (a deposit wallet is refused: relayer
 * only), quotes the gas against the key's POL and, only with `send`, signs and sends — never calldata from main.
 */
export interface AccountActionRequest {
  action: MoneyActionRequest;
  /** The account acting: the key itself ('eoa'), its proxy wallet or its Safe. */
  account: { kind: 'eoa' | 'proxy' | 'safe' | 'deposit-wallet'; address: string; wallets: WalletConfig };
  contracts: ActionContracts;
  rpcUrl: string;
  chainId: number;
  /** False: quote only (amounts and gas), nothing signed for the chain and nothing sent. */
  send: boolean;
}

/** What the action moves and costs; wei and base units as decimal strings (exact). */
export interface AccountActionResult {
  /** Base units wrapped, unwrapped, split or merged; for a redeem, the payout. */
  amount: string;
  /** Redeem only: each outcome's base units held, and "Won $X" / "Lost". */
  held?: string[];
  label?: string;
  /** Transactions the key sends, and whether one carries every call. */
  transactions: number;
  atomic: boolean;
  note?: string;
  /** About what the gas costs (the quotable transactions; a later one of the key's own may depend on an earlier). */
  gasWei: string;
  /** The key's POL before sending, in wei. */
  keyBalanceWei: string;
  /** The hashes sent, in order (empty for a quote). */
  txHashes: string[];
}

/**
 * A request to Polymarket's relayer, signed here as its own client signs it (the toolkit's builders): 'deploy' is
 * a Safe's SAFE-CREATE or a deposit wallet's WALLET-CREATE; 'action' is a money action whose calls the worker builds
 * from the chain, as for sendAccountAction, then signs as PROXY, SAFE or WALLET with the relayer's reads. The
 * account must be the key's own wallet of that kind. Main submits the signed request; nothing here sends.
 * 'approvals' is the exchange approvals an order needs (`approvals`: token and spender pairs), built from the chain
 * like an action's calls.
 */
export interface RelayerSignRequest {
  what: 'deploy' | 'action' | 'approvals';
  account: { kind: 'proxy' | 'safe' | 'deposit-wallet'; address: string; wallets: WalletConfig };
  chainId: number;
  /** PROXY: the RelayHub (Polygon's when absent); SAFE batches: MultiSend (the network's, else Safe 1.3.0's). */
  relayHub?: string;
  multiSend?: string;
  /** 'action' only. */
  action?: MoneyActionRequest;
  /** 'approvals' only: what the order flow found missing. */
  approvals?: TradingApproval[];
  contracts?: ActionContracts;
  rpcUrl?: string;
  /** 'action' only: from the relayer's GET /nonce (SAFE, WALLET) or /relay-payload (PROXY: also the relay). */
  reads?: { nonce: string; relay?: string };
  /** WALLET only: Unix seconds; now + 10 minutes when absent. */
  deadline?: string;
}

export interface RelayerSignResult {
  request: RelayerRequest;
  /** 'action' only, as AccountActionResult says them. */
  amount?: string;
  held?: string[];
  label?: string;
}

export interface NewWalletOptions {
  /** scrypt cost of the new keystore (a power of two); 2^17, ethers' and geth's default, when absent. */
  scryptN?: number;
}

/** Each operation's parameters and result. */
export interface SignerOperations {
  /** A fresh 12-word wallet at m/44'/60'/0'/0/0; the phrase leaves the worker this once, to be written down. */
  createWallet: {
    params: { password: string } & NewWalletOptions;
    result: { address: string; keystore: string; mnemonic: string };
  };
  importMnemonic: {
    params: { phrase: string; index: number; password: string; expectedAddress?: string } & NewWalletOptions;
    result: { address: string; keystore: string };
  };
  importPrivateKey: {
    params: { privateKey: string; password: string; expectedAddress?: string } & NewWalletOptions;
    result: { address: string; keystore: string };
  };
  /** Decrypts and forgets: proves the password without unlocking anything. */
  checkPassword: { params: { keystore: string; password: string }; result: { address: string } };
  /** Decrypts and keeps the key until lock, or until `autoLockMs` pass without a signature (0 or absent: never). */
  unlock: { params: { keystore: string; password: string; autoLockMs?: number }; result: { address: string } };
  /** Drops one wallet's key, or every key when no address is given. */
  lock: { params: { address?: string }; result: { locked: string[] } };
  unlocked: { params: Record<string, never>; result: { addresses: string[] } };
  /**
   * `wallets`: the chain's account factories, so the worker can check that an order's account (its maker, or the
   * deposit wallet a TypedDataSign wraps it for) is the key's own derivation; without them only the key's own
   * (type 0) orders are signed.
   */
  signOrder: { params: { address: string; wallets?: WalletConfig } & TypedDataRequest; result: { signature: string } };
  /** `wallets` as for signOrder: ClobAuth.address may then name one of the key's own accounts. */
  signClobAuth: {
    params: { address: string; wallets?: WalletConfig } & TypedDataRequest;
    result: { signature: string };
  };
  sendApproval: { params: { address: string; approval: ApprovalRequest }; result: { txHash: string; nonce: number } };
  sendAccountAction: { params: { address: string; request: AccountActionRequest }; result: AccountActionResult };
  signRelayerRequest: { params: { address: string; request: RelayerSignRequest }; result: RelayerSignResult };
}

export type SignerOperation = keyof SignerOperations;
export const SIGNER_OPERATIONS: readonly SignerOperation[] = [
  'createWallet',
  'importMnemonic',
  'importPrivateKey',
  'checkPassword',
  'unlock',
  'lock',
  'unlocked',
  'signOrder',
  'signClobAuth',
  'sendApproval',
  'sendAccountAction',
  'signRelayerRequest',
];

/** main → worker. `token` is the secret the worker was started with, as hex. */
export interface SignerRequestMessage {
  id: number;
  token: string;
  op: SignerOperation;
  params: unknown;
}

/** The error as it crosses: a catalogue code and a sentence already checked for secrets. */
export interface SignerErrorPayload {
  code: string;
  message: string;
}

/** worker → main: one answer per request, or an event (a wallet locked itself). */
export type SignerReplyMessage =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: SignerErrorPayload }
  | { event: 'locked'; address: string; reason: 'idle' };

/** The main side of a transport: a worker thread, a child process or an Electron utility process. */
export interface SignerTransport {
  send(message: SignerRequestMessage): void;
  onMessage(listener: (message: unknown) => void): void;
  /** The worker is gone (crashed, killed or closed). */
  onExit(listener: (detail: string) => void): void;
  close(): Promise<void>;
}

/** The worker side of the same transport. */
export interface SignerPort {
  send(message: SignerReplyMessage): void;
  onMessage(listener: (message: unknown) => void): void;
}
