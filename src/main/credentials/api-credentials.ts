// API credentials (key, secret, passphrase) per wallet address and exchange host, in the OS keychain. With
// no usable keychain (no Secret Service, a locked keyring) it says so once, plainly, and keeps them in memory
// for the session: the order flow derives them again with the wallet next time.
import { randomBytes } from 'node:crypto';
import { getAddress } from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import type { ApiCredentials } from '@pmdesk/toolkit';
import { padText, unpadText } from '../wallets/padding';
import { KeychainSecretStore } from './keychain-store';
import { MemorySecretStore, type SecretStore } from './secret-store';

/** Stored values: a version tag, then the JSON padded to 2048 bytes and base64-encoded (its size tells nothing). */
const VALUE_PREFIX = 'pmdesk-api-credentials:1:';

export const KEYCHAIN_UNAVAILABLE = 'KEYCHAIN_UNAVAILABLE';

/** The keychain account of one wallet on one exchange: `0xChecksummed@host[:port]`. */
export function credentialAccount(address: string, exchange: string): string {
  return `${walletPrefix(address)}${exchangeHost(exchange)}`;
}

/** What every account of one wallet starts with: `0xChecksummed@`. */
function walletPrefix(address: string): string {
  try {
    return `${getAddress(address)}@`;
  } catch {
    throw invalidParameter('The wallet address is not a valid address.');
  }
}

/** The host (and any non-default port) of an exchange URL or host name, lower-cased; never a path or credentials. */
export function exchangeHost(exchange: string): string {
  const text = exchange.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    throw invalidParameter('The exchange must be a URL or a host name.');
  }
  if (!url.hostname) throw invalidParameter('The exchange must be a URL or a host name.');
  return url.host.toLowerCase();
}

/** The warning (also an error's shape) a trader sees when credentials cannot be kept in the keychain. */
export function keychainUnavailable(reason: string): PmDeskError {
  return new PmDeskError(
    ErrorCode.ENVIRONMENT_ERROR,
    `No OS keychain is available (${reason}). API credentials are kept in memory for this session only and will be derived again with the wallet next time. Relayer credentials cannot be derived: they are kept in memory for this run only; enter them again next time.`,
    { context: { reason: KEYCHAIN_UNAVAILABLE } },
  );
}

/** A short, secret-free description of a keychain failure. */
function describeFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^Couldn't access platform storage:\s*/i, '').slice(0, 120) || 'unknown failure';
}

export interface VaultOptions {
  /** The OS keychain unless told (tests pass another real store, or one that fails on demand). */
  keychain?: SecretStore;
  /** Told once, when the vault falls back to memory. */
  onWarning?: (warning: PmDeskError) => void;
}

export class CredentialVault {
  private readonly memory = new MemorySecretStore();
  private store: SecretStore;
  private warned: PmDeskError | undefined;

  private constructor(
    keychain: SecretStore | undefined,
    private readonly onWarning: ((warning: PmDeskError) => void) | undefined,
  ) {
    this.store = keychain ?? this.memory;
  }

  /** Opens the vault, proving the keychain with a write, read and delete of a throwaway entry. */
  static async open(options: VaultOptions = {}): Promise<CredentialVault> {
    let keychain: SecretStore;
    try {
      keychain = options.keychain ?? new KeychainSecretStore();
    } catch (error) {
      // The native module itself failed to load (an unsupported platform).
      const vault = new CredentialVault(undefined, options.onWarning);
      vault.fallBack(error);
      return vault;
    }
    const vault = new CredentialVault(keychain, options.onWarning);
    const probe = `probe-${randomBytes(8).toString('hex')}`;
    try {
      await keychain.set(probe, 'probe');
      // A locked or missing collection can accept nothing yet answer reads with "no entry": only a read-back proves it.
      if ((await keychain.get(probe)) !== 'probe') throw new Error('the keychain did not keep what was written');
      await keychain.delete(probe);
    } catch (error) {
      vault.fallBack(error);
    }
    return vault;
  }

  /** 'keychain' or 'memory' (no keychain this session). */
  get storage(): 'keychain' | 'memory' {
    return this.store.kind;
  }

  /** Why credentials are only in memory, if they are. */
  get warning(): PmDeskError | undefined {
    return this.warned;
  }

  async load(address: string, exchange: string): Promise<ApiCredentials | null> {
    const stored = await this.readEntry(credentialAccount(address, exchange));
    return stored === null ? null : decode(stored);
  }

  async save(address: string, exchange: string, credentials: ApiCredentials): Promise<void> {
    await this.writeEntry(credentialAccount(address, exchange), encode(credentials));
  }

  async forget(address: string, exchange: string): Promise<boolean> {
    return this.deleteEntry(credentialAccount(address, exchange));
  }

  /**
   * One entry's stored text by its account name, with the vault's memory fallback (other kinds of credentials,
   * such as the relayer's, keep their own encoding; their accounts start with the wallet's `0x…@` too).
   */
  async readEntry(account: string): Promise<string | null> {
    let stored: string | null;
    try {
      stored = await this.store.get(account);
    } catch (error) {
      this.fallBack(error);
      stored = await this.memory.get(account);
    }
    // Saved while the keychain was failing: the copy is in memory.
    if (stored === null && this.store !== this.memory) stored = await this.memory.get(account);
    return stored;
  }

  async writeEntry(account: string, value: string): Promise<void> {
    try {
      await this.store.set(account, value);
    } catch (error) {
      this.fallBack(error);
      await this.memory.set(account, value);
    }
  }

  async deleteEntry(account: string): Promise<boolean> {
    const inMemory = await this.memory.delete(account);
    if (this.store === this.memory) return inMemory;
    try {
      return (await this.store.delete(account)) || inMemory;
    } catch (error) {
      this.fallBack(error);
      return inMemory;
    }
  }

  /** Forgets a wallet's credentials on every exchange (when the wallet is removed); returns how many entries went. */
  async forgetWallet(address: string): Promise<number> {
    const prefix = walletPrefix(address);
    const stores = this.store === this.memory ? [this.memory] : [this.store, this.memory];
    let forgotten = 0;
    for (const store of stores) {
      try {
        for (const account of (await store.accounts()).filter((a) => a.startsWith(prefix)))
          if (await store.delete(account)) forgotten++;
      } catch (error) {
        this.fallBack(error);
      }
    }
    return forgotten;
  }

  private fallBack(error: unknown): void {
    this.store = this.memory;
    if (this.warned) return;
    this.warned = keychainUnavailable(describeFailure(error));
    this.onWarning?.(this.warned);
  }
}

function encode(credentials: ApiCredentials): string {
  const { key, secret, passphrase } = credentials;
  if (![key, secret, passphrase].every((v) => typeof v === 'string' && v !== '')) {
    throw invalidParameter('API credentials need a key, a secret and a passphrase.');
  }
  return VALUE_PREFIX + padText(JSON.stringify({ key, secret, passphrase }));
}

/** A damaged entry reads as none: the order flow then derives the credentials again. */
function decode(stored: string): ApiCredentials | null {
  if (!stored.startsWith(VALUE_PREFIX)) return null;
  try {
    const parsed = JSON.parse(unpadText(stored.slice(VALUE_PREFIX.length))) as Partial<ApiCredentials>;
    const { key, secret, passphrase } = parsed;
    return typeof key === 'string' && typeof secret === 'string' && typeof passphrase === 'string'
      ? { key, secret, passphrase }
      : null;
  } catch {
    return null;
  }
}
