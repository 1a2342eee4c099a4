// Polymarket relayer credentials per wallet and relayer (one per network), in the OS keychain next to the CLOB's
// API credentials: a relayer API key with its address, or builder key/secret/passphrase. Stored once and never
// shown again: what may be shown is only `describeRelayerCredentials` (the kind and the key's address). On the
// sandbox the profile's relayerApiKeys stand in, with no login.
import { getAddress, isAddress } from 'ethers';
import { invalidParameter } from '@pmdesk/toolkit/model';
import type { NetworkProfile, RelayerCredentials } from '@pmdesk/toolkit';
import { padText, unpadText } from '../wallets/padding';
import { exchangeHost, type CredentialVault } from './api-credentials';

/** Stored values: a version tag, then the JSON padded (its size tells nothing) and base64-encoded. */
const VALUE_PREFIX = 'pmdesk-relayer-credentials:1:';
const MAX_FIELD = 512;

/**
 * The keychain account: `0xChecksummedOwner@relayer+host[:port]`. It starts with the wallet's `0x…@`, so removing
 * the wallet (CredentialVault.forgetWallet) removes these too; `relayer+` keeps it apart from the exchange's entry.
 */
export function relayerCredentialAccount(owner: string, relayerUrl: string): string {
  let wallet: string;
  try {
    wallet = getAddress(owner);
  } catch {
    throw invalidParameter('The wallet address is not a valid address.', 'relayerCredentials');
  }
  return `${wallet}@relayer+${exchangeHost(relayerUrl)}`;
}

function field(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw invalidParameter(`The relayer ${what} is empty.`, 'relayerCredentials');
  if (value.length > MAX_FIELD || /[\s]/.test(value.trim()) || value !== value.trim())
    throw invalidParameter(
      `The relayer ${what} must be one line of at most ${MAX_FIELD} characters, with no spaces.`,
      'relayerCredentials',
    );
  return value;
}

/** Checks credentials before they are kept: every field filled, an API key's address an address, a builder secret base64. */
export function checkRelayerCredentials(credentials: RelayerCredentials): RelayerCredentials {
  if (credentials?.kind === 'api-key') {
    const key = field(credentials.apiKey?.key, 'API key');
    const address = field(credentials.apiKey?.address, 'API key address');
    if (!isAddress(address))
      throw invalidParameter('The relayer API key address is not an address.', 'relayerCredentials');
    return { kind: 'api-key', apiKey: { key, address: getAddress(address) } };
  }
  if (credentials?.kind === 'builder') {
    const key = field(credentials.builder?.key, 'builder key');
    const secret = field(credentials.builder?.secret, 'builder secret');
    const passphrase = field(credentials.builder?.passphrase, 'builder passphrase');
    if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(secret))
      throw invalidParameter('The builder secret is not base64.', 'relayerCredentials');
    return { kind: 'builder', builder: { key, secret, passphrase } };
  }
  throw invalidParameter(
    'Relayer credentials are a relayer API key with its address, or builder key, secret and passphrase.',
    'relayerCredentials',
  );
}

/** What the trader may see of stored credentials: never a key, secret or passphrase. */
export function describeRelayerCredentials(credentials: RelayerCredentials): string {
  return credentials.kind === 'api-key' ? `a relayer API key for ${credentials.apiKey.address}` : 'builder credentials';
}

function encode(credentials: RelayerCredentials): string {
  return VALUE_PREFIX + padText(JSON.stringify(checkRelayerCredentials(credentials)));
}

/** A damaged entry reads as none: the trader logs in again. */
function decode(stored: string): RelayerCredentials | null {
  if (!stored.startsWith(VALUE_PREFIX)) return null;
  try {
    return checkRelayerCredentials(JSON.parse(unpadText(stored.slice(VALUE_PREFIX.length))) as RelayerCredentials);
  } catch {
    return null;
  }
}

/** Relayer credentials in the vault (the OS keychain, else this session's memory). */
export class RelayerCredentialStore {
  constructor(private readonly vault: CredentialVault) {}

  async load(owner: string, relayerUrl: string): Promise<RelayerCredentials | null> {
    const stored = await this.vault.readEntry(relayerCredentialAccount(owner, relayerUrl));
    return stored === null ? null : decode(stored);
  }

  async save(owner: string, relayerUrl: string, credentials: RelayerCredentials): Promise<void> {
    await this.vault.writeEntry(relayerCredentialAccount(owner, relayerUrl), encode(credentials));
  }

  async forget(owner: string, relayerUrl: string): Promise<boolean> {
    return this.vault.deleteEntry(relayerCredentialAccount(owner, relayerUrl));
  }
}

/** Where relayer credentials were found: the keychain (a login), or the sandbox profile's test keys. */
export type RelayerCredentialSource = 'keychain' | 'profile';

/**
 * The credentials for this owner on this network: a login's, else the profile's relayer API key for the owner (the
 * sandbox gives each test wallet one), else none.
 */
export async function relayerCredentialsFor(
  owner: string,
  network: NetworkProfile,
  store: RelayerCredentialStore | undefined,
): Promise<{ credentials: RelayerCredentials; source: RelayerCredentialSource } | undefined> {
  if (!network.relayerUrl) return undefined;
  const stored = store ? await store.load(owner, network.relayerUrl) : null;
  if (stored) return { credentials: stored, source: 'keychain' };
  const given = (network.relayerApiKeys ?? []).find(
    (k) => isAddress(k.address) && getAddress(k.address) === getAddress(owner),
  );
  if (given)
    return {
      credentials: { kind: 'api-key', apiKey: { key: given.key, address: getAddress(given.address) } },
      source: 'profile',
    };
  return undefined;
}
