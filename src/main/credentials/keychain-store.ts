// The OS keychain through @napi-rs/keyring (keytar's model: a service name and an account per entry):
// Keychain on macOS, Credential Manager on Windows, the Secret Service (GNOME Keyring, KWallet) on Linux.
// Its async entries run on the library's threads, so a slow D-Bus round trip never blocks main's loop.
import { AsyncEntry, findCredentialsAsync } from '@napi-rs/keyring';
import type { SecretStore } from './secret-store';

/** The service name every PM Desk entry is filed under. */
export const KEYCHAIN_SERVICE = 'pmdesk';

export class KeychainSecretStore implements SecretStore {
  readonly kind = 'keychain' as const;

  constructor(private readonly service = KEYCHAIN_SERVICE) {}

  get(account: string): Promise<string | null> {
    return new AsyncEntry(this.service, account).getPassword().then((value) => value ?? null);
  }
  set(account: string, secret: string): Promise<void> {
    return new AsyncEntry(this.service, account).setPassword(secret);
  }
  delete(account: string): Promise<boolean> {
    return new AsyncEntry(this.service, account).deletePassword();
  }
  async accounts(): Promise<string[]> {
    // The library hands back each password too; only the account names leave this function.
    return (await findCredentialsAsync(this.service)).map((credential) => credential.account);
  }
}
