// Where API credentials are kept: a small interface over the OS keychain, with an in-memory stand-in for a
// session that has no keychain. Keys (accounts) are not secret; values are.

export interface SecretStore {
  /** 'keychain': the OS credential store, kept across sessions; 'memory': this process only. */
  readonly kind: 'keychain' | 'memory';
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  /** True when something was deleted. */
  delete(account: string): Promise<boolean>;
  /** The accounts that have an entry (names only, never the secrets). */
  accounts(): Promise<string[]>;
}

export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory' as const;
  private readonly secrets = new Map<string, string>();

  async get(account: string): Promise<string | null> {
    return this.secrets.get(account) ?? null;
  }
  async set(account: string, secret: string): Promise<void> {
    this.secrets.set(account, secret);
  }
  async delete(account: string): Promise<boolean> {
    return this.secrets.delete(account);
  }
  async accounts(): Promise<string[]> {
    return [...this.secrets.keys()];
  }
}
