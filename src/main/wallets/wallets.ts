// The wallet service main uses (and the CLI, and later the app's IPC): the files of the wallet store, the
// signer worker for every step that needs a key or scrypt, and the password throttle in front of every
// password check.
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { invalidParameter } from '@pmdesk/toolkit/model';
import { PRIVATE_DIR_MODE, writeNewFileAtomic } from './atomic-file';
import { walletsDir } from './data-dir';
import { isInvalidPassword } from './keystore-messages';
import { PasswordThrottle, fileLedger } from './password-throttle';
import type { SignerClient } from './signer-client';
import { WalletStore, parseKeystore, portableKeystore, type SetAsideWallet, type WalletEntry } from './wallet-store';

export interface WalletSummary {
  label: string;
  address: string;
}

export interface WalletsOptions {
  dataDir: string;
  /** The signer, or how to start one when first needed (listing, renaming and exporting never need it). */
  signer: SignerClient | (() => SignerClient);
  /** Defaults to five free attempts then a doubling wait, remembered in <data folder>/password-attempts.json. */
  throttle?: PasswordThrottle;
  /** scrypt cost of keystores written from now on (default 2^17). */
  scryptN?: number;
  /** Told when a damaged wallet file is set aside (renamed out of the way) so the other wallets stay usable. */
  onSetAside?: (setAside: SetAsideWallet) => void;
}

const summary = ({ label, address }: WalletEntry): WalletSummary => ({ label, address });

export class Wallets {
  readonly store: WalletStore;
  private readonly startSigner: () => SignerClient;
  private started: SignerClient | undefined;
  private readonly throttle: PasswordThrottle;
  private readonly scryptN: number | undefined;

  constructor(options: WalletsOptions) {
    this.store = new WalletStore(walletsDir(options.dataDir), { onSetAside: options.onSetAside });
    const { signer } = options;
    this.startSigner = typeof signer === 'function' ? signer : () => signer;
    this.throttle =
      options.throttle ?? new PasswordThrottle({ ledger: fileLedger(join(options.dataDir, 'password-attempts.json')) });
    this.scryptN = options.scryptN;
  }

  async list(): Promise<WalletSummary[]> {
    return (await this.store.list()).map(summary);
  }

  /** A new wallet; the mnemonic is returned this once and stored nowhere. */
  async create(label: string, password: string): Promise<WalletSummary & { mnemonic: string }> {
    const wanted = await this.store.checkAvailable(label);
    const created = await this.signer().createWallet(password, this.keystoreOptions());
    const entry = await this.store.add(wanted, created.keystore);
    return { ...summary(entry), mnemonic: created.mnemonic };
  }

  /** From a recovery phrase, at m/44'/60'/0'/0/<index> (index 0 unless told). */
  async importMnemonic(
    label: string,
    phrase: string,
    password: string,
    options: { index?: number; expectedAddress?: string } = {},
  ): Promise<WalletSummary> {
    const wanted = await this.store.checkAvailable(label);
    const imported = await this.signer().importMnemonic(phrase, password, { ...this.keystoreOptions(), ...options });
    return summary(await this.store.add(wanted, imported.keystore));
  }

  async importPrivateKey(
    label: string,
    privateKey: string,
    password: string,
    options: { expectedAddress?: string } = {},
  ): Promise<WalletSummary> {
    const wanted = await this.store.checkAvailable(label);
    const imported = await this.signer().importPrivateKey(privateKey, password, {
      ...this.keystoreOptions(),
      ...options,
    });
    return summary(await this.store.add(wanted, imported.keystore));
  }

  /** A keystore file from another wallet, kept as it is: its password becomes this wallet's password. */
  async importKeystore(label: string, keystoreText: string, password: string): Promise<WalletSummary> {
    const { address } = parseKeystore(keystoreText);
    const wanted = await this.store.checkAvailable(label, address);
    await this.throttled(address, () => this.signer().checkPassword(keystoreText, password));
    return summary(await this.store.add(wanted, keystoreText));
  }

  /** The keystore as a standard v3 file (encrypted; our label left out). */
  async exportKeystore(label: string): Promise<string> {
    return portableKeystore((await this.store.readKeystore(label)).keystore);
  }

  /** Writes the exported keystore to a new file (mode 0600), atomically; an existing file is never overwritten. */
  async exportKeystoreTo(label: string, path: string): Promise<WalletSummary> {
    const { entry } = await this.store.readKeystore(label);
    const text = await this.exportKeystore(label);
    await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
    try {
      await writeNewFileAtomic(path, text);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST')
        throw invalidParameter(`${path} already exists; choose a new file name.`);
      throw error;
    }
    return summary(entry);
  }

  async rename(label: string, newLabel: string): Promise<WalletSummary> {
    return summary(await this.store.rename(label, newLabel));
  }

  /** Removes a wallet after its password is proven: nobody deletes a wallet they could not open. */
  async remove(label: string, password: string): Promise<WalletSummary> {
    const { entry, keystore } = await this.store.readKeystore(label);
    await this.throttled(entry.address, () => this.signer().checkPassword(keystore, password));
    await this.signer().lock(entry.address);
    await this.store.remove(entry);
    return summary(entry);
  }

  /** Proves a password without unlocking anything. */
  async checkPassword(label: string, password: string): Promise<WalletSummary> {
    const { entry, keystore } = await this.store.readKeystore(label);
    await this.throttled(entry.address, () => this.signer().checkPassword(keystore, password));
    return summary(entry);
  }

  /** Unlocks a wallet in the signer; it locks itself after `autoLockMs` without a signature (0 or absent: never). */
  async unlock(label: string, password: string, options: { autoLockMs?: number } = {}): Promise<WalletSummary> {
    const { entry, keystore } = await this.store.readKeystore(label);
    await this.throttled(entry.address, () => this.signer().unlock(keystore, password, options));
    return summary(entry);
  }

  async lock(label: string): Promise<WalletSummary> {
    const entry = await this.store.find(label);
    await this.signer().lock(entry.address);
    return summary(entry);
  }

  /** The signer, started on first use. */
  private signer(): SignerClient {
    return (this.started ??= this.startSigner());
  }

  private throttled<T>(address: string, check: () => Promise<T>): Promise<T> {
    return this.throttle.attempt(address.toLowerCase(), check, isInvalidPassword);
  }

  private keystoreOptions(): { scryptN?: number } {
    return this.scryptN === undefined ? {} : { scryptN: this.scryptN };
  }
}
