// The requests Polymarket's relayer executes for a wallet, built and signed as its own client builds them
// (docs/protocol.md#relayer; @polymarket/builder-relayer-client): PROXY (the `rlx:` hash), SAFE (the SafeTx hash),
// SAFE-CREATE (CreateProxy typed data), WALLET (the deposit wallet's `Batch` typed data) and WALLET-CREATE.
// Each body keeps the official client's field order, so its JSON text is byte-identical (tests/conformance).
import {
  TypedDataEncoder,
  concat,
  getBytes,
  hashMessage,
  isAddress,
  keccak256,
  recoverAddress,
  toBeHex,
  toUtf8Bytes,
  type TypedDataDomain,
} from 'ethers';
import { invalidParameter } from '../model/errors';
import { ZERO_ADDRESS } from '../chain/networks';
import { SAFE_MULTISEND_130 } from '../accounts/action-contracts';
import type { ClobSigner, TypedDataTypes } from '../orders/signer';
import { proxyFactoryData, type ChainCall } from '../accounts/actions';
import { checkedAddress, deriveDepositWallet, deriveProxyWallet, deriveSafeWallet } from '../accounts/derive';
import { packSafeSignature, recoverSafeSigner, safeTxFor, safeTxTypedData } from '../accounts/safe';
import type { WalletConfig } from '../chain/wallet-config';

/** The `type` of a relayer request, spelled as the relayer spells it. */
export const RelayerTransactionType = {
  PROXY: 'PROXY',
  SAFE: 'SAFE',
  SAFE_CREATE: 'SAFE-CREATE',
  WALLET: 'WALLET',
  WALLET_CREATE: 'WALLET-CREATE',
} as const;
export type RelayerTransactionType = (typeof RelayerTransactionType)[keyof typeof RelayerTransactionType];

/** The states a relayed transaction goes through; MINED and CONFIRMED are done, FAILED and INVALID are final too. */
export const RelayerState = {
  NEW: 'STATE_NEW',
  EXECUTED: 'STATE_EXECUTED',
  MINED: 'STATE_MINED',
  CONFIRMED: 'STATE_CONFIRMED',
  FAILED: 'STATE_FAILED',
  INVALID: 'STATE_INVALID',
} as const;
export type RelayerState = (typeof RelayerState)[keyof typeof RelayerState];
export const FINAL_RELAYER_STATES: ReadonlySet<string> = new Set([
  RelayerState.MINED,
  RelayerState.CONFIRMED,
  RelayerState.FAILED,
  RelayerState.INVALID,
]);

/** Polymarket's GSN RelayHub on Polygon: part of what a PROXY request signs. */
export const POLYGON_RELAY_HUB = '0xD216153c06E857cD7f72665E0aF1d7D82172F494';
/** The gas limit a PROXY request carries when none was estimated (the official client's fallback). */
export const DEFAULT_PROXY_GAS_LIMIT = 10_000_000n;
/** How long a deposit-wallet batch signature stays good when no deadline is given (the ts-sdk's 600 s). */
export const DEFAULT_BATCH_LIFETIME_SECONDS = 600;
/** The Safe factory's EIP-712 domain name (no version field). */
export const SAFE_FACTORY_NAME = 'Polymarket Contract Proxy Factory';

/**
 * What signs a relayer request: the owner's key. PROXY and SAFE are `personal_sign` of a 32-byte hash, so the
 * signer needs `signMessage` (raw bytes) or `signDigest` (PM Desk's in-process key signs the prefixed digest).
 */
export interface RelayerSigner extends ClobSigner {
  signMessage?(message: Uint8Array): Promise<string>;
}

/** Where the relayer's contracts are on one chain: the wallet factories, plus the RelayHub and MultiSend. */
export interface RelayerNetwork {
  chainId: number;
  wallets: WalletConfig;
  /** PROXY only; else the wallets' `relayHub` (a network profile's), else Polygon's. */
  relayHub?: string;
  /** SAFE batches only; Safe 1.3.0's canonical MultiSend by default. */
  multiSend?: string;
}

export interface ProxySignatureParams {
  gasPrice: string;
  gasLimit: string;
  relayerFee: string;
  relayHub: string;
  relay: string;
}
export interface SafeSignatureParams {
  gasPrice: string;
  operation: string;
  safeTxnGas: string;
  baseGas: string;
  gasToken: string;
  refundReceiver: string;
}
export interface SafeCreateSignatureParams {
  paymentToken: string;
  payment: string;
  paymentReceiver: string;
}
/** One call a deposit wallet makes in a batch, as the relayer takes it (value a decimal string of wei). */
export interface DepositWalletCall {
  target: string;
  value: string;
  data: string;
}

export interface ProxyRequest {
  from: string;
  to: string;
  proxyWallet: string;
  data: string;
  nonce: string;
  signature: string;
  signatureParams: ProxySignatureParams;
  type: 'PROXY';
  metadata: string;
}
export interface SafeRequest {
  from: string;
  to: string;
  proxyWallet: string;
  data: string;
  nonce: string;
  signature: string;
  signatureParams: SafeSignatureParams;
  type: 'SAFE';
  metadata: string;
}
export interface SafeCreateRequest {
  from: string;
  to: string;
  proxyWallet: string;
  data: '0x';
  signature: string;
  signatureParams: SafeCreateSignatureParams;
  type: 'SAFE-CREATE';
}
export interface WalletBatchRequest {
  type: 'WALLET';
  from: string;
  to: string;
  nonce: string;
  signature: string;
  depositWalletParams: { depositWallet: string; deadline: string; calls: DepositWalletCall[] };
}
export interface WalletCreateRequest {
  type: 'WALLET-CREATE';
  from: string;
  to: string;
}
export type RelayerRequest = ProxyRequest | SafeRequest | SafeCreateRequest | WalletBatchRequest | WalletCreateRequest;

/** The exact text POST /submit carries: the builder HMAC signs this string, so it is built once and reused. */
export function relayerRequestBody(request: RelayerRequest): string {
  return JSON.stringify(request);
}

const DECIMAL = /^(0|[1-9][0-9]{0,77})$/;
function decimal(value: string | number | bigint, what: string): string {
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'number' && Number.isSafeInteger(value)
        ? String(value)
        : typeof value === 'bigint'
          ? value.toString()
          : '';
  if (!DECIMAL.test(text))
    throw invalidParameter(`${what} must be a whole number of at most 78 digits, got ${String(value).slice(0, 40)}.`);
  return text;
}
function hexBytes(value: string, what: string): string {
  if (typeof value !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(value))
    throw invalidParameter(`${what} is not hex bytes.`);
  return value;
}
function checkCalls(calls: readonly ChainCall[], method: string): void {
  if (calls.length === 0) throw invalidParameter('There is nothing to relay: the action has no calls.', method);
  for (const call of calls) {
    checkedAddress(call.to, 'call target');
    hexBytes(call.data, `The calldata to ${call.to}`);
    if (call.value !== undefined && call.value < 0n)
      throw invalidParameter('A call cannot carry a negative value.', method);
  }
}
function need(value: string | undefined, what: string, method: string): string {
  if (!value)
    throw invalidParameter(
      `This chain has no ${what}, so the relayer cannot act for this kind of wallet here.`,
      method,
    );
  return checkedAddress(value, what);
}

/** `personal_sign` of a 32-byte hash, by whichever way the signer offers. */
async function personalSign(signer: RelayerSigner, hash: string): Promise<string> {
  if (signer.signMessage) return signer.signMessage(getBytes(hash));
  if (signer.signDigest) return signer.signDigest(hashMessage(getBytes(hash)));
  throw invalidParameter(
    'This signer cannot sign a message (personal_sign), which PROXY and SAFE relayer requests need.',
  );
}

/** Refuses a signature that is not the owner's: the relayer (and the contract behind it) would reject it anyway. */
function expectOwner(recovered: string, owner: string, method: string): void {
  if (recovered !== owner)
    throw invalidParameter(`The signature recovers to ${recovered}, not the owner ${owner}: nothing was sent.`, method);
}

// ---- PROXY: the GSN relay hash, `personal_sign`ed ----

export interface ProxyRelayHashFields {
  from: string;
  to: string;
  data: string;
  relayerFee: string;
  gasPrice: string;
  gasLimit: string;
  nonce: string;
  relayHub: string;
  relay: string;
}

/** keccak256("rlx:" ‖ from ‖ to ‖ data ‖ fee ‖ gasPrice ‖ gasLimit ‖ nonce (32 bytes each) ‖ relayHub ‖ relay). */
export function proxyRelayHash(fields: ProxyRelayHashFields): string {
  const word = (value: string) => toBeHex(BigInt(value), 32);
  return keccak256(
    concat([
      toUtf8Bytes('rlx:'),
      checkedAddress(fields.from, 'from'),
      checkedAddress(fields.to, 'to'),
      hexBytes(fields.data, 'The proxy calldata'),
      word(fields.relayerFee),
      word(fields.gasPrice),
      word(fields.gasLimit),
      word(fields.nonce),
      checkedAddress(fields.relayHub, 'relay hub'),
      checkedAddress(fields.relay, 'relay'),
    ]),
  );
}

export interface ProxyRequestInput {
  signer: RelayerSigner;
  calls: readonly ChainCall[];
  /** From the relayer's `GET /relay-payload?address=<owner>&type=PROXY`: the relay address and the owner's nonce. */
  relay: string;
  nonce: string | number | bigint;
  /** An estimate of the factory call's gas; 10,000,000 when none. */
  gasLimit?: string | number | bigint;
  metadata?: string;
}

/** A PROXY request: `proxy(calls)` on the proxy factory, run as the owner's proxy wallet, which the factory deploys on first use. */
export async function buildProxyRequest(network: RelayerNetwork, input: ProxyRequestInput): Promise<ProxyRequest> {
  const method = 'buildProxyRequest';
  checkCalls(input.calls, method);
  const factory = need(network.wallets.proxyFactory, 'proxy factory', method);
  const hubAsGiven = network.relayHub ?? network.wallets.relayHub ?? POLYGON_RELAY_HUB;
  const relayHub = checkedAddress(hubAsGiven, 'relay hub');
  if (typeof input.relay !== 'string' || !isAddress(input.relay))
    throw invalidParameter(
      `The relay the relayer named is not an address: ${String(input.relay).slice(0, 60)}`,
      method,
    );
  const from = checkedAddress(await input.signer.getAddress(), 'signer');
  const proxyWallet = deriveProxyWallet(from, network.wallets);
  if (!proxyWallet)
    throw invalidParameter('This chain has no proxy implementation to derive the proxy wallet from.', method);
  const data = proxyFactoryData(input.calls.map((c) => ({ ...c, value: 0n })));
  const nonce = decimal(input.nonce, 'The relay nonce');
  const gasLimit = decimal(input.gasLimit ?? DEFAULT_PROXY_GAS_LIMIT, 'The gas limit');
  // The relayer pays: no fee and a zero gas price, as the official client sends.
  const signatureParams: ProxySignatureParams = {
    gasPrice: '0',
    gasLimit,
    relayerFee: '0',
    relayHub: hubAsGiven,
    relay: input.relay,
  };
  const hash = proxyRelayHash({
    from,
    to: factory,
    data,
    relayerFee: '0',
    gasPrice: '0',
    gasLimit,
    nonce,
    relayHub,
    relay: input.relay,
  });
  const signature = await personalSign(input.signer, hash);
  expectOwner(recoverAddress(hashMessage(getBytes(hash)), signature), from, method);
  return {
    from,
    to: factory,
    proxyWallet,
    data,
    nonce,
    signature,
    signatureParams,
    type: 'PROXY',
    metadata: input.metadata ?? '',
  };
}

// ---- SAFE: the SafeTx hash, `personal_sign`ed, v raised by 4 ----

export interface SafeRequestInput {
  signer: RelayerSigner;
  calls: readonly ChainCall[];
  /** The Safe's nonce, from the relayer's `GET /nonce?address=<owner>&type=SAFE`. */
  nonce: string | number | bigint;
  metadata?: string;
}

/** A SAFE request: one call straight from the Safe, several delegated to MultiSend; the Safe must be deployed. */
export async function buildSafeRequest(network: RelayerNetwork, input: SafeRequestInput): Promise<SafeRequest> {
  const method = 'buildSafeRequest';
  checkCalls(input.calls, method);
  need(network.wallets.safeFactory, 'Safe factory', method);
  const from = checkedAddress(await input.signer.getAddress(), 'signer');
  const safe = deriveSafeWallet(from, network.wallets);
  if (!safe) throw invalidParameter('This chain has no Safe init code hash to derive the Safe from.', method);
  const nonce = decimal(input.nonce, 'The Safe nonce');
  // The official client relays calls without value; a call that pays POL is not something the relayer runs for us.
  if (input.calls.some((c) => (c.value ?? 0n) !== 0n))
    throw invalidParameter('Relayed Safe calls carry no POL value.', method);
  const tx = safeTxFor(
    input.calls,
    BigInt(nonce),
    checkedAddress(network.multiSend ?? SAFE_MULTISEND_130, 'MultiSend'),
  );
  const typed = safeTxTypedData(network.chainId, safe, tx);
  const signature = packSafeSignature(await personalSign(input.signer, typed.hash), 'eth-sign');
  expectOwner(recoverSafeSigner(typed.hash, signature), from, method);
  const signatureParams: SafeSignatureParams = {
    gasPrice: '0',
    operation: `${tx.operation}`,
    safeTxnGas: '0',
    baseGas: '0',
    gasToken: ZERO_ADDRESS,
    refundReceiver: ZERO_ADDRESS,
  };
  return {
    from,
    to: tx.to,
    proxyWallet: safe,
    data: tx.data,
    nonce,
    signature,
    signatureParams,
    type: 'SAFE',
    metadata: input.metadata ?? '',
  };
}

// ---- SAFE-CREATE: the factory's CreateProxy typed data ----

export const CREATE_PROXY_TYPES: TypedDataTypes = {
  CreateProxy: [
    { name: 'paymentToken', type: 'address' },
    { name: 'payment', type: 'uint256' },
    { name: 'paymentReceiver', type: 'address' },
  ],
};

/** A SAFE-CREATE request: the owner asks the factory to deploy its Safe, nobody paid. */
export async function buildSafeCreateRequest(
  network: RelayerNetwork,
  input: { signer: RelayerSigner },
): Promise<SafeCreateRequest> {
  const method = 'buildSafeCreateRequest';
  const factory = need(network.wallets.safeFactory, 'Safe factory', method);
  const from = checkedAddress(await input.signer.getAddress(), 'signer');
  const safe = deriveSafeWallet(from, network.wallets);
  if (!safe) throw invalidParameter('This chain has no Safe init code hash to derive the Safe from.', method);
  const domain: TypedDataDomain = { name: SAFE_FACTORY_NAME, chainId: network.chainId, verifyingContract: factory };
  const value = { paymentToken: ZERO_ADDRESS, payment: '0', paymentReceiver: ZERO_ADDRESS };
  const signature = await input.signer.signTypedData(domain, CREATE_PROXY_TYPES, value);
  expectOwner(recoverAddress(TypedDataEncoder.hash(domain, CREATE_PROXY_TYPES, value), signature), from, method);
  return {
    from,
    to: factory,
    proxyWallet: safe,
    data: '0x',
    signature,
    signatureParams: { ...value },
    type: 'SAFE-CREATE',
  };
}

// ---- WALLET: the deposit wallet's Batch typed data; WALLET-CREATE deploys it ----

export const DEPOSIT_WALLET_BATCH_TYPES: TypedDataTypes = {
  Call: [
    { name: 'target', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
  ],
  Batch: [
    { name: 'wallet', type: 'address' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
    { name: 'calls', type: 'Call[]' },
  ],
};

/** The deposit wallet's own domain: it checks the batch against itself. */
export function depositWalletDomain(chainId: number, wallet: string): TypedDataDomain {
  return { name: 'DepositWallet', version: '1', chainId, verifyingContract: checkedAddress(wallet, 'deposit wallet') };
}

export interface WalletBatchInput {
  signer: RelayerSigner;
  /** The owner's deposit wallet (either era's derivation). */
  wallet: string;
  calls: readonly ChainCall[];
  /** From the relayer's `GET /nonce?address=<owner>&type=WALLET`. */
  nonce: string | number | bigint;
  /** Unix seconds after which the wallet refuses the batch; now + 600 s by default. */
  deadline?: string | number | bigint;
}

/** The typed data and hash of a batch, for checking and for signers that need the full typed data. */
export function walletBatchTypedData(
  chainId: number,
  wallet: string,
  nonce: string,
  deadline: string,
  calls: readonly DepositWalletCall[],
) {
  const domain = depositWalletDomain(chainId, wallet);
  const value = {
    wallet: checkedAddress(wallet, 'deposit wallet'),
    nonce,
    deadline,
    calls: calls.map((c) => ({ target: c.target, value: c.value, data: c.data })),
  };
  return {
    domain,
    types: DEPOSIT_WALLET_BATCH_TYPES,
    value,
    hash: TypedDataEncoder.hash(domain, DEPOSIT_WALLET_BATCH_TYPES, value),
  };
}

/** A WALLET request: the calls run as the deposit wallet, which checks the owner's Batch signature itself. */
export async function buildWalletBatchRequest(
  network: RelayerNetwork,
  input: WalletBatchInput,
): Promise<WalletBatchRequest> {
  const method = 'buildWalletBatchRequest';
  checkCalls(input.calls, method);
  const factory = need(network.wallets.depositWalletFactory, 'deposit-wallet factory', method);
  const from = checkedAddress(await input.signer.getAddress(), 'signer');
  const wallet = checkedAddress(input.wallet, 'deposit wallet');
  const own = [
    deriveDepositWallet(from, network.wallets, 'beacon'),
    deriveDepositWallet(from, network.wallets, 'uups'),
  ];
  if (!own.includes(wallet))
    throw invalidParameter(`${wallet} is not this key's deposit wallet in either era: nothing was signed.`, method);
  const nonce = decimal(input.nonce, 'The wallet nonce');
  const deadline = decimal(
    input.deadline ?? Math.floor(Date.now() / 1000) + DEFAULT_BATCH_LIFETIME_SECONDS,
    'The deadline',
  );
  const calls: DepositWalletCall[] = input.calls.map((c) => ({
    target: checkedAddress(c.to, 'call target'),
    value: (c.value ?? 0n).toString(),
    data: c.data,
  }));
  const typed = walletBatchTypedData(network.chainId, wallet, nonce, deadline, calls);
  const signature = await input.signer.signTypedData(typed.domain, typed.types, typed.value);
  expectOwner(recoverAddress(typed.hash, signature), from, method);
  return {
    type: 'WALLET',
    from,
    to: factory,
    nonce,
    signature,
    depositWalletParams: { depositWallet: wallet, deadline, calls },
  };
}

/** A WALLET-CREATE request: the relayer deploys the owner's deposit wallet; nothing is signed. */
export async function buildWalletCreateRequest(
  network: RelayerNetwork,
  input: { signer: Pick<RelayerSigner, 'getAddress'> },
): Promise<WalletCreateRequest> {
  const factory = need(network.wallets.depositWalletFactory, 'deposit-wallet factory', 'buildWalletCreateRequest');
  return { type: 'WALLET-CREATE', from: checkedAddress(await input.signer.getAddress(), 'signer'), to: factory };
}
