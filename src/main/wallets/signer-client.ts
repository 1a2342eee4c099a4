// Main's handle on the signer: one method per intent, each a request to the worker carrying the token it
// was started with. Works over any SignerTransport; it never sees a decrypted key.
import { ErrorCode, PmDeskError, isErrorCode } from '@pmdesk/toolkit/model';
import type { WalletConfig } from '@pmdesk/toolkit';
import type { ClobSigner, TypedDataTypes } from '@pmdesk/toolkit';
import type {
  AccountActionRequest,
  ApprovalRequest,
  NewWalletOptions,
  RelayerSignRequest,
  SignerOperation,
  SignerOperations,
  SignerTransport,
  TypedDataRequest,
} from './signer-protocol';

export type LockedListener = (address: string, reason: 'idle') => void;

export class SignerClient {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: PmDeskError) => void }
  >();
  private readonly lockedListeners = new Set<LockedListener>();
  private gone: string | undefined;
  /**
   * The keys the worker holds, as its own answers and events say (unlock, lock, its idle locks, its exit): every
   * change of it goes through this client, so it is exact, and a ready order can be checked without a round trip.
   */
  private readonly held = new Set<string>();

  /** `token`: hex, the secret the worker was started with. */
  constructor(
    private readonly transport: SignerTransport,
    private readonly token: string,
  ) {
    transport.onMessage((message) => this.receive(message));
    transport.onExit((detail) => {
      this.gone = detail;
      this.held.clear();
      const stopped = new PmDeskError(
        ErrorCode.INTERNAL_SDK_ERROR,
        `The signer stopped (${detail}); every wallet is locked.`,
      );
      for (const { reject } of this.pending.values()) reject(stopped);
      this.pending.clear();
    });
  }

  createWallet(password: string, options: NewWalletOptions = {}) {
    return this.request('createWallet', { password, ...options });
  }
  importMnemonic(
    phrase: string,
    password: string,
    options: NewWalletOptions & { index?: number; expectedAddress?: string } = {},
  ) {
    return this.request('importMnemonic', { phrase, password, index: options.index ?? 0, ...options });
  }
  importPrivateKey(
    privateKey: string,
    password: string,
    options: NewWalletOptions & { expectedAddress?: string } = {},
  ) {
    return this.request('importPrivateKey', { privateKey, password, ...options });
  }
  checkPassword(keystore: string, password: string) {
    return this.request('checkPassword', { keystore, password });
  }
  /** Keeps the key in the worker; it locks itself after `autoLockMs` without a signature (0 or absent: never). */
  async unlock(keystore: string, password: string, options: { autoLockMs?: number } = {}): Promise<string> {
    const { address } = await this.request('unlock', { keystore, password, autoLockMs: options.autoLockMs });
    this.held.add(address.toLowerCase());
    return address;
  }
  async lock(address?: string): Promise<string[]> {
    const { locked } = await this.request('lock', { address });
    for (const a of locked) this.held.delete(a.toLowerCase());
    return locked;
  }
  async unlocked(): Promise<string[]> {
    const { addresses } = await this.request('unlocked', {});
    this.held.clear();
    for (const a of addresses) this.held.add(a.toLowerCase());
    return addresses;
  }
  /** Whether the worker holds this key now, without asking it (see `held`). */
  holds(address: string): boolean {
    return !this.gone && this.held.has(address.toLowerCase());
  }
  async signOrder(address: string, typedData: TypedDataRequest, wallets?: WalletConfig): Promise<string> {
    return (await this.request('signOrder', { address, ...typedData, ...(wallets ? { wallets } : {}) })).signature;
  }
  async signClobAuth(address: string, typedData: TypedDataRequest, wallets?: WalletConfig): Promise<string> {
    return (await this.request('signClobAuth', { address, ...typedData, ...(wallets ? { wallets } : {}) })).signature;
  }
  sendApproval(address: string, approval: ApprovalRequest) {
    return this.request('sendApproval', { address, approval });
  }
  /** Quotes (send false) or runs a money action as the key's account; the worker builds every call itself. */
  sendAccountAction(address: string, request: AccountActionRequest) {
    return this.request('sendAccountAction', { address, request });
  }
  /** Signs a relayer request (a deployment, or a money action's calls the worker builds) for the key's own wallet; sends nothing. */
  signRelayerRequest(address: string, request: RelayerSignRequest) {
    return this.request('signRelayerRequest', { address, request });
  }

  /** Told when a wallet locks itself after its idle time. */
  onLocked(listener: LockedListener): () => void {
    this.lockedListeners.add(listener);
    return () => this.lockedListeners.delete(listener);
  }

  /**
   * The toolkit's signer interface over one unlocked wallet: orders and ClobAuth go to their own intents by
   * primary type; anything else is refused by the worker. There is no signDigest: the worker signs typed data only.
   * `wallets` (the chain's account factories) lets it sign for the key's own proxy, Safe or deposit wallet.
   */
  clobSigner(address: string, wallets?: WalletConfig): ClobSigner {
    return {
      getAddress: async () => address,
      signTypedData: (domain, types: TypedDataTypes, message) => {
        const typedData = { domain, types, message };
        return Object.keys(types).includes('ClobAuth')
          ? this.signClobAuth(address, typedData, wallets)
          : this.signOrder(address, typedData, wallets);
      },
    };
  }

  /** Stops the worker: every key it held is gone with it. */
  async close(): Promise<void> {
    if (this.gone) return;
    await this.transport.close();
  }

  private request<K extends SignerOperation>(
    op: K,
    params: SignerOperations[K]['params'],
  ): Promise<SignerOperations[K]['result']> {
    if (this.gone)
      return Promise.reject(
        new PmDeskError(ErrorCode.INTERNAL_SDK_ERROR, `The signer stopped (${this.gone}); every wallet is locked.`),
      );
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.transport.send({ id, token: this.token, op, params });
    });
  }

  private receive(message: unknown): void {
    if (!message || typeof message !== 'object') return;
    const reply = message as Record<string, unknown>;
    if (reply.event === 'locked' && typeof reply.address === 'string') {
      this.held.delete(reply.address.toLowerCase());
      for (const listener of this.lockedListeners) listener(reply.address, 'idle');
      return;
    }
    const waiting = typeof reply.id === 'number' ? this.pending.get(reply.id) : undefined;
    if (!waiting) return;
    this.pending.delete(reply.id as number);
    if (reply.ok === true) waiting.resolve(reply.result);
    else {
      const error = (reply.error ?? {}) as { code?: unknown; message?: unknown };
      const code = isErrorCode(error.code) ? error.code : ErrorCode.INTERNAL_SDK_ERROR;
      waiting.reject(new PmDeskError(code, typeof error.message === 'string' ? error.message : 'The signer failed.'));
    }
  }
}
