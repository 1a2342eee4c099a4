// API credentials encrypted with Electron's safeStorage (async API: the OS keychain holds only the key that
// encrypts them), kept as one private file in the data folder. Used where safeStorage has a real backend;
// on Linux without a keyring ("basic_text") the app uses the keychain library's store instead.
import { readFile } from 'node:fs/promises';
import type { SecretStore } from '../credentials/secret-store';
import { removeStaleTempsOf, writeFileAtomic } from '../wallets/atomic-file';

/** safeStorage's async pair, or any cipher with the same shape. */
export interface StringCipher {
  encrypt(plainText: string): Promise<Buffer>;
  decrypt(encrypted: Buffer): Promise<string>;
}

export class SafeStorageSecretStore implements SecretStore {
  readonly kind = 'keychain' as const;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly cipher: StringCipher,
  ) {}

  async get(account: string): Promise<string | null> {
    const sealed = (await this.read())[account];
    return sealed === undefined ? null : this.cipher.decrypt(Buffer.from(sealed, 'base64'));
  }

  set(account: string, secret: string): Promise<void> {
    return this.serial(async () => {
      const all = await this.read();
      all[account] = (await this.cipher.encrypt(secret)).toString('base64');
      await writeFileAtomic(this.file, JSON.stringify(all));
    });
  }

  delete(account: string): Promise<boolean> {
    return this.serial(async () => {
      const all = await this.read();
      if (!(account in all)) return false;
      delete all[account];
      await writeFileAtomic(this.file, JSON.stringify(all));
      return true;
    });
  }

  async accounts(): Promise<string[]> {
    return Object.keys(await this.read());
  }

  /** One write at a time: two saves never race to replace the file. */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => {});
    return run;
  }

  private async read(): Promise<Record<string, string>> {
    // Temp files of this file (sealed credentials) left by a process killed mid-write: cleared once old enough.
    await removeStaleTempsOf(this.file);
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }
}

/** safeStorage only with a real OS backend: Linux's "basic_text" fallback is a hard-coded key, no protection. */
export function useSafeStorage(
  available: boolean,
  platform: NodeJS.Platform,
  linuxBackend: string | undefined,
): boolean {
  if (!available) return false;
  if (platform !== 'linux') return true;
  return linuxBackend !== undefined && linuxBackend !== 'basic_text' && linuxBackend !== 'unknown';
}
