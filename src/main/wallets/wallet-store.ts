// The wallets on disk: one Web3 Secret Storage (v3) keystore per file in <data folder>/wallets, with the
// wallet's label as one extra top-level field. This module reads and writes files only; every decryption
// and encryption happens in the signer worker.
import { randomUUID } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, readFile, readdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { getAddress } from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import {
  PRIVATE_DIR_MODE,
  isTempFileName,
  removeFileDurably,
  removeStaleTempFiles,
  writeFileAtomic,
} from './atomic-file';
import { invalidJsonWallet } from './keystore-messages';

export interface WalletEntry {
  label: string;
  /** Checksummed address. */
  address: string;
  /** The file's name inside the wallets folder. */
  file: string;
}

export const MAX_LABEL_LENGTH = 64;
const WALLET_FILE = /^[0-9a-f-]{36}\.json$/;

/** A label is what a trader calls the wallet: 1 to 64 visible characters, compared without case. */
export function checkLabel(label: unknown): string {
  if (typeof label !== 'string') throw invalidParameter('A wallet label is required.');
  const trimmed = label.trim();
  if (trimmed === '' || trimmed.length > MAX_LABEL_LENGTH)
    throw invalidParameter(`A wallet label is 1 to ${MAX_LABEL_LENGTH} characters.`);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(trimmed))
    throw invalidParameter('A wallet label cannot contain control characters.');
  return trimmed;
}

const sameLabel = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;

/**
 * Checks that text is a v3 keystore (scrypt or pbkdf2, aes-128-ctr, a MAC, an address) and returns it parsed.
 * Anything else is "invalid JSON wallet". Whether the password opens it is the signer worker's business.
 */
export function parseKeystore(text: string): Record<string, unknown> & { address: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw invalidJsonWallet();
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw invalidJsonWallet();
  const record = data as Record<string, unknown>;
  const crypto = (record.crypto ?? record.Crypto) as Record<string, unknown> | undefined;
  if (record.version !== 3 || !crypto || typeof crypto !== 'object') throw invalidJsonWallet();
  const kdf = crypto.kdf;
  if (
    typeof crypto.ciphertext !== 'string' ||
    typeof crypto.mac !== 'string' ||
    crypto.cipher !== 'aes-128-ctr' ||
    (kdf !== 'scrypt' && kdf !== 'pbkdf2') ||
    !crypto.kdfparams ||
    typeof crypto.kdfparams !== 'object'
  ) {
    throw invalidJsonWallet();
  }
  if (!kdfWithinLimits(kdf, crypto.kdfparams as Record<string, unknown>)) throw invalidJsonWallet();
  if (typeof record.address !== 'string') throw invalidJsonWallet();
  let address: string;
  try {
    address = getAddress(record.address.startsWith('0x') ? record.address : `0x${record.address}`);
  } catch {
    throw invalidJsonWallet();
  }
  return { ...record, address };
}

/** Cost limits on an imported keystore's KDF, so a crafted file cannot tie the signer up for hours. */
const MAX_SCRYPT_N = 2 ** 20;
const MAX_PBKDF2_ROUNDS = 10_000_000;
function kdfWithinLimits(kdf: unknown, params: Record<string, unknown>): boolean {
  if (kdf === 'scrypt') {
    const { n, r, p } = params;
    return (
      typeof n === 'number' &&
      Number.isSafeInteger(n) &&
      n > 1 &&
      n <= MAX_SCRYPT_N &&
      (n & (n - 1)) === 0 &&
      typeof r === 'number' &&
      r >= 1 &&
      r <= 32 &&
      typeof p === 'number' &&
      p >= 1 &&
      p <= 16
    );
  }
  return typeof params.c === 'number' && params.c >= 1 && params.c <= MAX_PBKDF2_ROUNDS;
}

/** The keystore as other wallets expect it: our label removed, the address in the standard's form. */
export function portableKeystore(text: string): string {
  const { label: _label, ...keystore } = parseKeystore(text);
  return `${JSON.stringify({ ...keystore, address: keystore.address.slice(2).toLowerCase() })}\n`;
}

/** A wallet file that could not be read as a keystore, renamed out of the listing (its bytes kept as they were). */
export interface SetAsideWallet {
  file: string;
  /** Its new path, in the same folder: no longer named like a wallet, so never read as one again. */
  movedTo: string;
}

export interface WalletStoreOptions {
  /** Told of each damaged file set aside, so the trader learns which one and where it went. */
  onSetAside?: (setAside: SetAsideWallet) => void;
}

export class WalletStore {
  /** Changes run one at a time in this process, so two adds cannot both pass the duplicate check. */
  private changes: Promise<unknown> = Promise.resolve();

  /**
   * The listing as last read, kept while the folder is watched and unchanged: an order names its wallet, and
   * reading every keystore file for each one cost it up to tens of milliseconds on a busy disk. Dropped by this
   * store's own writes and by any change the watch sees (another PM Desk, the CLI, a file copied in).
   */
  private listed: Promise<WalletEntry[]> | undefined;
  /** Bumped by every change seen: a listing read across a change is not kept. */
  private generation = 0;
  private watcher: FSWatcher | undefined;
  private closed = false;

  constructor(
    readonly dir: string,
    private readonly options: WalletStoreOptions = {},
  ) {}

  /** Stops watching the folder (the listing is read from disk again each time). */
  close(): void {
    this.closed = true;
    this.watcher?.close();
    this.watcher = undefined;
    this.forget();
  }

  private forget(): void {
    this.generation++;
    this.listed = undefined;
  }

  /** Watches the folder once it exists; without a watch (no folder yet, or none possible) nothing is kept. */
  private watching(): boolean {
    if (this.watcher) return true;
    if (this.closed) return false;
    try {
      const watcher = watch(this.dir, { persistent: false }, () => this.forget());
      watcher.on('error', () => {
        watcher.close();
        if (this.watcher === watcher) this.watcher = undefined;
        this.forget();
      });
      this.watcher = watcher;
      return true;
    } catch {
      return false;
    }
  }

  private serial<T>(change: () => Promise<T>): Promise<T> {
    const run = this.changes.then(change, change);
    this.changes = run.catch(() => undefined);
    return run;
  }

  /** Every wallet, by label. Temp files and anything not named like a wallet file are never read as wallets. */
  list(): Promise<WalletEntry[]> {
    let listing = this.listed;
    if (!listing) {
      const generation = this.generation;
      const reading = this.readList();
      if (!this.watching()) return reading;
      this.listed = listing = reading;
      const drop = () => {
        if (this.listed === reading) this.listed = undefined;
      };
      reading.then(() => generation !== this.generation && drop(), drop);
    }
    // Each caller gets its own copy: a caller changing it changes nobody else's.
    return listing.then((entries) => entries.map((e) => ({ ...e })));
  }

  private async readList(): Promise<WalletEntry[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    // A write killed halfway leaves its temp file (an encrypted key): cleared once old enough to be nobody's.
    if (names.some(isTempFileName)) await removeStaleTempFiles(this.dir, (target) => WALLET_FILE.test(target));
    const entries: WalletEntry[] = [];
    for (const file of names.filter((name) => !isTempFileName(name) && WALLET_FILE.test(name)).sort()) {
      let keystore: ReturnType<typeof parseKeystore>;
      try {
        keystore = parseKeystore(await readFile(join(this.dir, file), 'utf8'));
      } catch (error) {
        // Removed by another process between the listing and the read: it is simply gone.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        // One damaged file must not lock the trader out of every other wallet: it is set aside and named.
        await this.setAside(file);
        continue;
      }
      entries.push({
        label: typeof keystore.label === 'string' ? keystore.label : file,
        address: keystore.address,
        file,
      });
    }
    return entries.sort((a, b) => a.label.localeCompare(b.label));
  }

  /**
   * Renames a damaged wallet file to `<file>.damaged-<time>` in the same folder (kept, never deleted: it may be
   * recoverable) and says so. If it cannot be renamed it is still left out of the listing, and named all the same.
   */
  private async setAside(file: string): Promise<void> {
    const from = join(this.dir, file);
    const movedTo = `${from}.damaged-${Date.now()}`;
    try {
      await rename(from, movedTo);
    } catch (error) {
      // Another process set it aside first: it is gone from here, and that process has named it.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      this.options.onSetAside?.({ file: from, movedTo: from });
      return;
    }
    this.forget();
    this.options.onSetAside?.({ file: from, movedTo });
  }

  async find(label: string): Promise<WalletEntry> {
    const wanted = checkLabel(label);
    const entry = (await this.list()).find((e) => sameLabel(e.label, wanted));
    if (!entry) throw new PmDeskError(ErrorCode.NOT_FOUND, `No wallet is labelled "${wanted}".`);
    return entry;
  }

  /** The stored file's text (the keystore with its label). */
  async readKeystore(label: string): Promise<{ entry: WalletEntry; keystore: string }> {
    const entry = await this.find(label);
    return { entry, keystore: await readFile(join(this.dir, entry.file), 'utf8') };
  }

  /** Adds a wallet from an encrypted keystore. Labels and addresses are unique. */
  add(label: string, keystoreText: string): Promise<WalletEntry> {
    return this.serial(() => this.addNow(label, keystoreText));
  }

  private async addNow(label: string, keystoreText: string): Promise<WalletEntry> {
    const wanted = checkLabel(label);
    const keystore = parseKeystore(keystoreText);
    const existing = await this.list();
    this.refuseDuplicate(existing, wanted, keystore.address);
    const id =
      typeof keystore.id === 'string' &&
      /^[0-9a-f-]{36}$/.test(keystore.id) &&
      !existing.some((e) => e.file === `${keystore.id}.json`)
        ? keystore.id
        : randomUUID();
    const file = `${id}.json`;
    await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    try {
      await writeFileAtomic(join(this.dir, file), serialise(keystore, wanted));
    } finally {
      this.forget();
    }
    return { label: wanted, address: keystore.address, file };
  }

  /** Relabels a wallet: the file is rewritten whole, atomically, so a crash leaves the old label or the new. */
  rename(label: string, newLabel: string): Promise<WalletEntry> {
    return this.serial(() => this.renameNow(label, newLabel));
  }

  private async renameNow(label: string, newLabel: string): Promise<WalletEntry> {
    const wanted = checkLabel(newLabel);
    const { entry, keystore } = await this.readKeystore(label);
    const others = (await this.list()).filter((e) => e.file !== entry.file);
    this.refuseDuplicate(others, wanted, undefined);
    try {
      await writeFileAtomic(join(this.dir, entry.file), serialise(parseKeystore(keystore), wanted));
    } finally {
      this.forget();
    }
    return { ...entry, label: wanted };
  }

  remove(entry: WalletEntry): Promise<void> {
    return this.serial(() => removeFileDurably(join(this.dir, entry.file)).finally(() => this.forget()));
  }

  /** Fails early, before any slow encryption, when the label (or the address, once known) is taken. */
  async checkAvailable(label: string, address?: string): Promise<string> {
    const wanted = checkLabel(label);
    this.refuseDuplicate(await this.list(), wanted, address);
    return wanted;
  }

  private refuseDuplicate(existing: WalletEntry[], label: string, address: string | undefined): void {
    const sameName = existing.find((e) => sameLabel(e.label, label));
    if (sameName) throw invalidParameter(`A wallet is already labelled "${sameName.label}".`);
    const sameKey = address && existing.find((e) => e.address === address);
    if (sameKey) throw invalidParameter(`This wallet is already in PM Desk, labelled "${sameKey.label}".`);
  }
}

/** Label first so a person reading the file sees whose it is; the address in the standard's lowercase form. */
function serialise(keystore: Record<string, unknown> & { address: string }, label: string): string {
  const { label: _old, ...rest } = keystore;
  return `${JSON.stringify({ label, ...rest, address: keystore.address.slice(2).toLowerCase() })}\n`;
}
