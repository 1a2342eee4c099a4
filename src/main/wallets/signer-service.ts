// The signer's inside: runs only in the worker, holds decrypted keys, answers intent-shaped requests from
// the one parent that knows its token, and lets no secret out in a result, an event or an error.
import { accountTransactions } from '@pmdesk/toolkit';
import { readSafeNonce } from '@pmdesk/toolkit';
import { runAccountAction } from './signer-account-action';
import { signRelayerRequest } from './signer-relayer';
import { walletConfigSchema } from '@pmdesk/toolkit';
import { timingSafeEqual } from 'node:crypto';
import {
  HDNodeWallet,
  Interface,
  JsonRpcProvider,
  LangEn,
  Mnemonic,
  Network,
  Wallet,
  decryptKeystoreJson,
  encryptKeystoreJson,
  getAddress,
  isError,
} from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import { CLOB_AUTH_MESSAGE, CLOB_AUTH_TYPES } from '@pmdesk/toolkit';
import { classifyAccount, type Account } from '@pmdesk/toolkit';
import type { WalletConfig } from '@pmdesk/toolkit';
import { BYTES32_ZERO } from '@pmdesk/toolkit';
import { EXCHANGE_DOMAIN_NAME, ORDER_TYPES_V1, ORDER_TYPES_V2 } from '@pmdesk/toolkit';
import { DEPOSIT_WALLET_DOMAIN_NAME, DEPOSIT_WALLET_DOMAIN_VERSION, TYPED_DATA_SIGN_TYPES } from '@pmdesk/toolkit';
import { addressMismatch, invalidPassword, privateKeyAddressMismatch } from './keystore-messages';
import type {
  ApprovalRequest,
  SignerErrorPayload,
  SignerOperation,
  SignerOperations,
  SignerPort,
  TypedDataRequest,
  TypedDataTypes,
} from './signer-protocol';
import { SIGNER_OPERATIONS } from './signer-protocol';
import { parseKeystore } from './wallet-store';

export const DEFAULT_SCRYPT_N = 2 ** 17;
export const DERIVATION_PATH_PREFIX = "m/44'/60'/0'/0/";
const MAX_UINT256 = (1n << 256n) - 1n;
const MIN_PASSWORD_LENGTH = 8;
const MAX_TIMER_MS = 2 ** 31 - 1;

const ERC20 = new Interface(['function approve(address spender, uint256 amount) returns (bool)']);
const ERC1155 = new Interface(['function setApprovalForAll(address operator, bool approved)']);

interface HeldKey {
  wallet: Wallet;
  autoLockMs: number;
  timer: NodeJS.Timeout | undefined;
}

type Handlers = {
  [K in SignerOperation]: (params: SignerOperations[K]['params']) => Promise<SignerOperations[K]['result']>;
};

export class SignerService {
  private readonly keys = new Map<string, HeldKey>();
  private readonly token: Buffer;

  constructor(
    token: string,
    private readonly port: SignerPort,
  ) {
    this.token = Buffer.from(token, 'hex');
    if (this.token.length < 16) throw new Error('The signer needs a token of at least 16 random bytes.');
    port.onMessage((message) => void this.receive(message));
  }

  private async receive(raw: unknown): Promise<void> {
    if (!raw || typeof raw !== 'object') return;
    const { id, token, op, params } = raw as Record<string, unknown>;
    if (typeof id !== 'number') return;
    if (!this.fromParent(token)) {
      this.port.send({
        id,
        ok: false,
        error: { code: ErrorCode.FORBIDDEN, message: 'The signer answers only to the process that started it.' },
      });
      return;
    }
    if (typeof op !== 'string' || !(SIGNER_OPERATIONS as readonly string[]).includes(op)) {
      this.port.send({
        id,
        ok: false,
        error: { code: ErrorCode.INVALID_PARAMETER, message: 'The signer has no such operation.' },
      });
      return;
    }
    const secrets = secretsOf(params);
    try {
      const handler = this.handlers[op as SignerOperation] as (p: unknown) => Promise<unknown>;
      const result = await handler(params && typeof params === 'object' ? params : {});
      this.port.send({ id, ok: true, result });
    } catch (error) {
      this.port.send({ id, ok: false, error: this.safeError(error, secrets) });
    }
  }

  /** Constant-time comparison: how long a refusal takes says nothing about how much of a guess was right. */
  private fromParent(token: unknown): boolean {
    if (typeof token !== 'string' || !/^[0-9a-f]*$/i.test(token)) return false;
    const given = Buffer.from(token, 'hex');
    return given.length === this.token.length && timingSafeEqual(given, this.token);
  }

  private readonly handlers: Handlers = {
    createWallet: async ({ password, scryptN }) => {
      checkNewPassword(password);
      const wallet = Wallet.createRandom();
      const keystore = await encrypt(wallet.address, wallet.privateKey, password, scryptN);
      return { address: wallet.address, keystore, mnemonic: wallet.mnemonic!.phrase };
    },
    importMnemonic: async ({ phrase, index, password, expectedAddress, scryptN }) => {
      checkNewPassword(password);
      const words = typeof phrase === 'string' ? phrase.trim().toLowerCase().split(/\s+/).join(' ') : '';
      if (!Mnemonic.isValidMnemonic(words))
        throw invalidParameter('The recovery phrase is not a valid BIP-39 mnemonic.');
      if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** 31)
        throw invalidParameter('The account index must be a whole number from 0 to 2147483647.');
      const wallet = HDNodeWallet.fromPhrase(words, undefined, `${DERIVATION_PATH_PREFIX}${index}`);
      checkExpected(wallet.address, expectedAddress);
      return { address: wallet.address, keystore: await encrypt(wallet.address, wallet.privateKey, password, scryptN) };
    },
    importPrivateKey: async ({ privateKey, password, expectedAddress, scryptN }) => {
      checkNewPassword(password);
      const hex = typeof privateKey === 'string' ? privateKey.trim().replace(/^(0x)?/i, '0x') : '';
      let wallet: Wallet;
      try {
        if (!/^0x[0-9a-fA-F]{64}$/.test(hex)) throw new Error('shape');
        wallet = new Wallet(hex);
      } catch {
        throw invalidParameter('The private key must be 32 bytes of hex (64 hex digits), within the curve order.');
      }
      checkExpected(wallet.address, expectedAddress);
      return { address: wallet.address, keystore: await encrypt(wallet.address, wallet.privateKey, password, scryptN) };
    },
    checkPassword: async ({ keystore, password }) => ({ address: (await decrypt(keystore, password)).address }),
    unlock: async ({ keystore, password, autoLockMs }) => {
      // Checked before scrypt; past 2^31 - 1 ms a Node timer would fire at once instead of in 24.8 days.
      if (
        autoLockMs !== undefined &&
        (typeof autoLockMs !== 'number' || !Number.isInteger(autoLockMs) || autoLockMs < 0 || autoLockMs > MAX_TIMER_MS)
      ) {
        throw invalidParameter(
          'The auto-lock time must be a whole number of milliseconds from 0 (never) to 2147483647.',
        );
      }
      const wallet = await decrypt(keystore, password);
      this.drop(wallet.address);
      const held: HeldKey = { wallet, autoLockMs: autoLockMs ?? 0, timer: undefined };
      this.keys.set(wallet.address, held);
      this.touch(held);
      return { address: wallet.address };
    },
    lock: async ({ address }) => {
      const which = address === undefined ? [...this.keys.keys()] : [checksum(address)];
      return { locked: which.filter((a) => this.drop(a)) };
    },
    unlocked: async () => ({ addresses: [...this.keys.keys()] }),
    signOrder: async ({ address, domain, types, message, wallets }) => {
      const held = this.held(address);
      const primary = checkOrder({ domain, types, message }, held.wallet.address, wallets);
      this.touch(held);
      const signed =
        primary === 'Order'
          ? onlyPrimary(types, 'Order')
          : { TypedDataSign: types.TypedDataSign!, Order: types.Order! };
      return { signature: await held.wallet.signTypedData(domain, signed, message) };
    },
    signClobAuth: async ({ address, domain, types, message, wallets }) => {
      const held = this.held(address);
      checkClobAuth({ domain, types, message }, held.wallet.address, wallets);
      this.touch(held);
      return { signature: await held.wallet.signTypedData(domain, onlyPrimary(types, 'ClobAuth'), message) };
    },
    sendApproval: async ({ address, approval }) => {
      const held = this.held(address);
      const call = approvalTransaction(approval);
      // For an account, the one transaction the key sends so the approval runs AS the account (toolkit actions:
      // it refuses an address that is not the key's own wallet of that kind, before anything is signed).
      const tx = approval.account ? await accountTransaction(held.wallet, approval, call) : call;
      this.touch(held);
      return sendLegacy(held.wallet, approval, tx);
    },
    sendAccountAction: async ({ address, request }) => {
      const held = this.held(address);
      this.touch(held);
      return runAccountAction(held.wallet, request);
    },
    signRelayerRequest: async ({ address, request }) => {
      const held = this.held(address);
      this.touch(held);
      return signRelayerRequest(held.wallet, request);
    },
  };

  private held(address: unknown): HeldKey {
    const held = this.keys.get(checksum(address));
    if (!held)
      throw new PmDeskError(ErrorCode.UNAUTHORIZED, 'The wallet is locked: unlock it with its password first.');
    return held;
  }

  /** Restarts a key's idle timer; when it runs out the key is dropped and the parent told. */
  private touch(held: HeldKey): void {
    if (held.timer) clearTimeout(held.timer);
    if (held.autoLockMs <= 0) return;
    held.timer = setTimeout(() => {
      if (this.drop(held.wallet.address))
        this.port.send({ event: 'locked', address: held.wallet.address, reason: 'idle' });
    }, held.autoLockMs);
  }

  private drop(address: string): boolean {
    const held = this.keys.get(address);
    if (!held) return false;
    if (held.timer) clearTimeout(held.timer);
    this.keys.delete(address);
    return true;
  }

  /**
   * What an error may say outside the worker: our own errors keep their sentence; a library's error is
   * reduced to its code. Either way a sentence that contains a secret of this request or a held key is replaced.
   */
  private safeError(error: unknown, secrets: string[]): SignerErrorPayload {
    const keys = [...this.keys.values()].flatMap(({ wallet }) => [
      wallet.privateKey.slice(2),
      wallet.signingKey.publicKey.slice(4),
    ]);
    const payload: SignerErrorPayload =
      error instanceof PmDeskError
        ? { code: error.code, message: error.detail }
        : {
            code: ErrorCode.INTERNAL_SDK_ERROR,
            message: `The signer failed${ethersCode(error) ? ` (${ethersCode(error)})` : ''}.`,
          };
    return { code: payload.code, message: withholdSecrets(payload.message, [...secrets, ...keys]) };
  }
}

export const WITHHELD = 'The signer failed; the details were withheld because they contained a secret.';

/** The sentence, or a fixed one when it quotes any of the secrets (case-insensitively; secrets under 4 characters are ignored). */
export function withholdSecrets(message: string, secrets: readonly string[]): string {
  const lower = message.toLowerCase();
  return secrets.some((secret) => secret.length >= 4 && lower.includes(secret.toLowerCase())) ? WITHHELD : message;
}

/** The strings of a request that are secret, so no error can quote them. */
export function requestSecrets(params: unknown): string[] {
  return secretsOf(params);
}

/** An ethers error's code (INVALID_ARGUMENT, NETWORK_ERROR, …), the one part of its text that is always safe. */
function ethersCode(error: unknown): string | undefined {
  const { code, shortMessage } = (error ?? {}) as { code?: unknown; shortMessage?: unknown };
  return typeof code === 'string' && typeof shortMessage === 'string' && isError(error, code as never)
    ? code
    : undefined;
}

/** The strings of a request that are secret (or may be), so no error can quote them. */
function secretsOf(params: unknown): string[] {
  if (!params || typeof params !== 'object') return [];
  const { password, phrase, privateKey } = params as Record<string, unknown>;
  const out: string[] = [];
  if (typeof password === 'string') out.push(password);
  if (typeof privateKey === 'string') out.push(privateKey.trim().replace(/^0x/i, ''));
  if (typeof phrase === 'string') {
    // Two recovery words in a row: one dictionary word alone ("phrase", "valid") is no secret, and common
    // English pairs ("is not") are not recovery words at all.
    const words = phrase.trim().toLowerCase().split(/\s+/);
    const english = LangEn.wordlist();
    const recovery = (w: string) => english.getWordIndex(w) >= 0;
    for (let i = 0; i + 1 < words.length; i++)
      if (recovery(words[i]!) && recovery(words[i + 1]!)) out.push(`${words[i]} ${words[i + 1]}`);
  }
  return out;
}

function checkNewPassword(password: unknown): void {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
    throw invalidParameter(`A wallet password is at least ${MIN_PASSWORD_LENGTH} characters.`);
  }
}

function checksum(address: unknown): string {
  try {
    return getAddress(String(address));
  } catch {
    throw invalidParameter('That is not a valid address.');
  }
}

function checkExpected(address: string, expected: string | undefined): void {
  if (expected !== undefined && checksum(expected) !== address) throw privateKeyAddressMismatch();
}

async function encrypt(
  address: string,
  privateKey: string,
  password: string,
  scryptN = DEFAULT_SCRYPT_N,
): Promise<string> {
  if (!Number.isSafeInteger(scryptN) || scryptN < 2 || scryptN > 2 ** 20 || (scryptN & (scryptN - 1)) !== 0) {
    throw invalidParameter('The scrypt cost must be a power of two up to 2^20.');
  }
  // Only the key is stored, never a mnemonic: its ciphertext would tell the phrase's length.
  return encryptKeystoreJson({ address, privateKey }, password, { scrypt: { N: scryptN } });
}

/** Opens a keystore: the catalogue's "invalid JSON wallet", "invalid password" and "address mismatch" (docs/protocol.md#errors). */
async function decrypt(keystore: unknown, password: unknown): Promise<Wallet> {
  const parsed = parseKeystore(typeof keystore === 'string' ? keystore : '');
  if (typeof password !== 'string') throw invalidPassword();
  let privateKey: string;
  try {
    ({ privateKey } = await decryptKeystoreJson(
      JSON.stringify({ ...parsed, address: parsed.address.slice(2).toLowerCase() }),
      password,
    ));
  } catch (error) {
    if (isError(error, 'INVALID_ARGUMENT') && error.shortMessage === 'incorrect password') throw invalidPassword();
    if (isError(error, 'INVALID_ARGUMENT') && error.shortMessage === 'keystore address/privateKey mismatch')
      throw addressMismatch();
    throw new PmDeskError(ErrorCode.VALIDATION_ERROR, 'invalid JSON wallet: the keystore could not be decrypted.');
  }
  return new Wallet(privateKey);
}

/** The typed data with only the primary type's struct (ethers refuses an EIP712Domain entry). */
function onlyPrimary(types: TypedDataTypes, primary: string): TypedDataTypes {
  return { [primary]: types[primary]! };
}

function sameFields(given: unknown, expected: readonly { name: string; type: string }[]): boolean {
  return (
    Array.isArray(given) &&
    given.length === expected.length &&
    given.every((field: unknown, i) => {
      const f = field as { name?: unknown; type?: unknown } | null;
      return !!f && f.name === expected[i]!.name && f.type === expected[i]!.type;
    })
  );
}

/** The type names other than the domain's own. */
function structNames(types: unknown): string[] {
  if (!types || typeof types !== 'object') return [];
  return Object.keys(types).filter((name) => name !== 'EIP712Domain');
}

function sameAddress(value: unknown, address: string): boolean {
  try {
    return getAddress(String(value)) === address;
  } catch {
    return false;
  }
}

/**
 * An exchange order under "Polymarket CTF Exchange", in one of the known order structs, for this key: a plain Order
 * whose signer is the key and whose maker is the key (type 0) or the key's own proxy (1) or Safe (2); or a
 * TypedDataSign wrapping an Order for the key's own deposit wallet (type 3, maker = signer = the wallet). The
 * accounts are the key's by derivation from `wallets`; without them only type 0 is signed. Answers the primary type.
 */
function checkOrder(
  { domain, types, message }: TypedDataRequest,
  address: string,
  wallets: WalletConfig | undefined,
): 'Order' | 'TypedDataSign' {
  const refuse = (why: string) => invalidParameter(`The signer signs only exchange orders: ${why}.`);
  if (!domain || domain.name !== EXCHANGE_DOMAIN_NAME) throw refuse(`the domain must be "${EXCHANGE_DOMAIN_NAME}"`);
  if (!['1', '2', '3'].includes(String(domain.version))) throw refuse('the domain version must be 1, 2 or 3');
  if (domain.chainId === undefined || domain.chainId === null || !domain.verifyingContract)
    throw refuse('the domain needs a chain id and a verifying contract');
  const names = structNames(types).sort();
  const wrapped = names.length === 2 && names[0] === 'Order' && names[1] === 'TypedDataSign';
  if (!wrapped && (names.length !== 1 || names[0] !== 'Order'))
    throw refuse('the only type must be Order (or TypedDataSign over an Order, for a deposit wallet)');
  const expected = String(domain.version) === '1' ? ORDER_TYPES_V1.Order! : ORDER_TYPES_V2.Order!;
  if (!sameFields(types.Order, expected))
    throw refuse(`the Order fields must be those of order version ${String(domain.version)}`);
  if (!message) throw invalidParameter('signer does not match');
  if (wrapped) {
    checkDepositWalletOrder(domain, types, message, address, wallets, refuse);
    return 'TypedDataSign';
  }
  if (!sameAddress(message.signer, address)) throw invalidParameter('signer does not match');
  const type = Number(message.signatureType ?? 0);
  if (type === 0) {
    if (!sameAddress(message.maker, address)) throw refuse('an EOA (type 0) order must have maker = signer = this key');
    return 'Order';
  }
  if (type === 3)
    throw refuse('a deposit-wallet (type 3) order is signed as a TypedDataSign wrapping, not as a plain Order');
  if (type !== 1 && type !== 2) throw refuse('the signature type must be 0, 1, 2 or 3');
  const account = ownAccount(address, message.maker, wallets);
  if (account?.signatureType !== type) {
    throw invalidParameter(
      `The signer signs type ${type} orders only for this key's own ${type === 1 ? 'proxy wallet' : 'Safe'}: ${String(message.maker)} is not it.`,
    );
  }
  return 'Order';
}

/** The ERC-7739 wrapping of a deposit wallet's order: every field the wallet will rebuild, and the wallet is the key's own. */
function checkDepositWalletOrder(
  domain: TypedDataRequest['domain'],
  types: TypedDataRequest['types'],
  message: Record<string, unknown>,
  address: string,
  wallets: WalletConfig | undefined,
  refuse: (why: string) => PmDeskError,
): void {
  if (String(domain.version) === '1') throw refuse('a deposit-wallet order needs order version 2 or 3');
  if (!sameFields(types.TypedDataSign, TYPED_DATA_SIGN_TYPES.TypedDataSign!))
    throw refuse('the TypedDataSign fields are not those of a deposit-wallet order');
  const contents = message.contents as Record<string, unknown> | undefined;
  if (!contents || typeof contents !== 'object') throw refuse('the TypedDataSign has no order');
  const wallet = message.verifyingContract;
  if (
    message.name !== DEPOSIT_WALLET_DOMAIN_NAME ||
    String(message.version) !== DEPOSIT_WALLET_DOMAIN_VERSION ||
    String(message.salt) !== BYTES32_ZERO ||
    String(message.chainId) !== String(domain.chainId)
  ) {
    throw refuse("the TypedDataSign must name the deposit wallet's own domain on this chain");
  }
  if (
    Number(contents.signatureType) !== 3 ||
    !sameAddress(contents.signer, String(wallet)) ||
    !sameAddress(contents.maker, String(wallet))
  ) {
    throw refuse('a deposit-wallet order has signature type 3 and maker = signer = the wallet');
  }
  if (ownAccount(address, wallet, wallets)?.signatureType !== 3) {
    throw invalidParameter(
      `The signer signs deposit-wallet orders only for this key's own deposit wallet: ${String(wallet)} is not it.`,
    );
  }
}

/** The key's own account at `wallet` (or the key itself), by derivation from the chain's factories; undefined otherwise. */
function ownAccount(key: string, wallet: unknown, wallets: WalletConfig | undefined): Account | undefined {
  if (sameAddress(wallet, key)) return { address: key, kind: 'eoa', signatureType: 0 };
  if (!wallets || typeof wallet !== 'string') return undefined;
  try {
    return classifyAccount(key, wallet, wallets);
  } catch {
    return undefined;
  }
}

/** A ClobAuth attestation under "ClobAuthDomain" for this key's own address or one of its own accounts, with the fixed text. */
function checkClobAuth(
  { domain, types, message }: TypedDataRequest,
  address: string,
  wallets: WalletConfig | undefined,
): void {
  const refuse = (why: string) => invalidParameter(`The signer signs only ClobAuth attestations here: ${why}.`);
  if (!domain || domain.name !== 'ClobAuthDomain' || String(domain.version) !== '1')
    throw refuse('the domain must be "ClobAuthDomain" version 1');
  const names = structNames(types);
  if (names.length !== 1 || names[0] !== 'ClobAuth' || !sameFields(types.ClobAuth, CLOB_AUTH_TYPES.ClobAuth!))
    throw refuse('the only type must be ClobAuth');
  if (!message || message.message !== CLOB_AUTH_MESSAGE)
    throw refuse('the message text is not the exchange’s attestation');
  if (!ownAccount(address, message.address, wallets)) throw invalidParameter('signer does not match');
}

function approvalTransaction(approval: ApprovalRequest): { to: string; data: string } {
  if (!approval || typeof approval !== 'object') throw invalidParameter('An approval is required.');
  const to = checksum(approval.token);
  const spender = checksum(approval.spender);
  if (approval.kind === 'collateral') {
    const amount =
      approval.amount === undefined ? MAX_UINT256 : /^[0-9]+$/.test(approval.amount) ? BigInt(approval.amount) : -1n;
    if (amount < 0n || amount > MAX_UINT256)
      throw invalidParameter('The approval amount must be a whole number of base units.');
    return { to, data: ERC20.encodeFunctionData('approve', [spender, amount]) };
  }
  if (approval.kind === 'outcome-tokens') {
    return { to, data: ERC1155.encodeFunctionData('setApprovalForAll', [spender, approval.approved ?? true]) };
  }
  throw invalidParameter(
    'An approval is for "collateral" (ERC-20 approve) or "outcome-tokens" (ERC-1155 setApprovalForAll).',
  );
}

/** The approval as the key's proxy wallet or Safe would make it: one transaction from the key. */
async function accountTransaction(
  wallet: Wallet,
  approval: ApprovalRequest,
  call: { to: string; data: string },
): Promise<{ to: string; data: string }> {
  const account = approval.account!;
  if (account.kind !== 'proxy' && account.kind !== 'safe')
    throw invalidParameter('An approval is sent as the key, its proxy wallet or its Safe.');
  if (typeof approval.rpcUrl !== 'string' || !/^https?:\/\//.test(approval.rpcUrl))
    throw invalidParameter('The RPC URL must be http(s).');
  const provider = new JsonRpcProvider(approval.rpcUrl, Network.from(approval.chainId), {
    staticNetwork: true,
    batchMaxCount: 1,
    cacheTimeout: -1,
  });
  try {
    const plan = await accountTransactions(
      { kind: account.kind, address: account.address, owner: wallet.address },
      [call],
      {
        chainId: approval.chainId,
        wallets: walletConfigSchema.parse(account.wallets ?? {}),
        multiSend: account.wallets?.multiSend,
        signer: wallet,
        safeNonce: (safe) => readSafeNonce(provider, safe),
      },
    );
    const [tx] = plan.transactions;
    return { to: tx!.to, data: tx!.data };
  } finally {
    provider.destroy();
  }
}

/** Signs a legacy (type 0) transaction with the caller's gas price and limit, and broadcasts it. */
async function sendLegacy(
  wallet: Wallet,
  approval: ApprovalRequest,
  tx: { to: string; data: string },
): Promise<{ txHash: string; nonce: number }> {
  const wei = (value: unknown, name: string): bigint => {
    if (typeof value !== 'string' || !/^[0-9]+$/.test(value))
      throw invalidParameter(`The ${name} must be a whole number of wei.`);
    return BigInt(value);
  };
  const gasPrice = wei(approval.gasPrice, 'gas price');
  const gasLimit = wei(approval.gasLimit, 'gas limit');
  if (!Number.isSafeInteger(approval.chainId) || approval.chainId <= 0)
    throw invalidParameter('The chain id must be a positive integer.');
  if (typeof approval.rpcUrl !== 'string' || !/^https?:\/\//.test(approval.rpcUrl))
    throw invalidParameter('The RPC URL must be http(s).');
  const provider = new JsonRpcProvider(approval.rpcUrl, Network.from(approval.chainId), {
    staticNetwork: true,
    batchMaxCount: 1,
    cacheTimeout: -1,
  });
  try {
    const nonce = approval.nonce ?? (await provider.getTransactionCount(wallet.address, 'pending'));
    const signed = await wallet.signTransaction({
      type: 0,
      chainId: approval.chainId,
      nonce,
      gasPrice,
      gasLimit,
      value: 0n,
      ...tx,
    });
    const sent = await provider.broadcastTransaction(signed);
    return { txHash: sent.hash, nonce };
  } catch (error) {
    if (error instanceof PmDeskError) throw error;
    const systemCode = (error as { code?: unknown } | null)?.code;
    if (!ethersCode(error) && typeof systemCode === 'string' && /^E[A-Z]+$/.test(systemCode)) {
      // A socket error (ECONNREFUSED, ENOTFOUND, …): the RPC URL is not repeated, it may carry an API key.
      throw new PmDeskError(
        ErrorCode.NETWORK_ERROR,
        `The approval was not sent: the chain's RPC node did not answer (${systemCode}).`,
      );
    }
    const code = ethersCode(error) ?? 'UNKNOWN_ERROR';
    const reason = ethersCode(error)
      ? (error as { shortMessage: string }).shortMessage.slice(0, 160)
      : 'no answer from the chain';
    throw new PmDeskError(
      code === 'NETWORK_ERROR' || code === 'TIMEOUT' ? ErrorCode.NETWORK_ERROR : ErrorCode.API_REQUEST_FAILED,
      `The approval was not sent: ${reason}`,
      {
        context: { reason: code },
      },
    );
  } finally {
    provider.destroy();
  }
}
