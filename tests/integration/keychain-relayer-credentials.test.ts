// Relayer credentials in a real OS keychain (gnome-keyring in the private D-Bus session of scripts/with-keychain.sh):
// one entry per wallet and relayer host, padded and never as plain text, gone with the wallet; bad credentials are
// refused with a catalogue code before anything is kept; a login's credentials win over a profile's test key, and
// what may be shown of them names no key, secret or passphrase.
import { AsyncEntry } from '@napi-rs/keyring';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { KEYCHAIN_SERVICE, KeychainSecretStore } from '../../src/main/credentials/keychain-store';
import {
  RelayerCredentialStore,
  describeRelayerCredentials,
  relayerCredentialAccount,
  relayerCredentialsFor,
} from '../../src/main/credentials/relayer-credentials';
import { PADDING_BLOCK } from '../../src/main/wallets/padding';
import type { RelayerCredentials } from '../../packages/toolkit/src/relayer/auth';
import type { NetworkProfile } from '../../packages/toolkit/src/chain/networks';

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const RELAYER = 'http://127.0.0.1:4814';
const API_KEY: RelayerCredentials = { kind: 'api-key', apiKey: { key: 'relayer-key-5d1c9a2e-77f0', address: ALICE } };
const BUILDER: RelayerCredentials = {
  kind: 'builder',
  builder: { key: 'builder-key-01', secret: 'c2VjcmV0LWJ1aWxkZXItc2VjcmV0', passphrase: 'passphrase-builder-9f8e' },
};
const used: string[] = [];

let keychainMissing: string | undefined;
beforeAll(async () => {
  const store = new KeychainSecretStore();
  try {
    await store.set('pmdesk-test-probe', 'probe');
    if ((await store.get('pmdesk-test-probe')) !== 'probe')
      throw new Error('the keychain accepted a write but did not keep it (locked?)');
    await store.delete('pmdesk-test-probe');
  } catch (error) {
    keychainMissing = `The keychain tests need a real, unlocked OS keychain and found none (${(error as Error).message}): run them through scripts/with-keychain.sh.`;
  }
});
beforeEach(() => {
  if (keychainMissing) throw new Error(keychainMissing);
});
afterEach(async () => {
  for (const account of used.splice(0)) await new AsyncEntry(KEYCHAIN_SERVICE, account).deletePassword();
});

function track(owner: string, relayer: string): string {
  const account = relayerCredentialAccount(owner, relayer);
  used.push(account);
  return account;
}

async function refusal(work: () => Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await work();
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected a refusal');
}

describe('relayer credentials in the OS keychain', () => {
  it('keeps one entry per wallet and relayer host, padded, never as plain text', async () => {
    const vault = await CredentialVault.open();
    expect(vault.storage).toBe('keychain');
    const store = new RelayerCredentialStore(vault);
    const account = track(ALICE, RELAYER);
    track(ALICE, 'https://relayer.example.org');
    track(BOB, RELAYER);
    await store.save(ALICE, RELAYER, API_KEY);
    await store.save(ALICE, 'https://relayer.example.org/', BUILDER);
    expect(account).toBe(`${ALICE}@relayer+127.0.0.1:4814`);
    expect(await store.load(ALICE.toLowerCase(), `${RELAYER}/`)).toEqual(API_KEY);
    expect(await store.load(ALICE, 'relayer.example.org')).toEqual(BUILDER);
    expect(await store.load(BOB, RELAYER)).toBeNull();
    const raw = (await new AsyncEntry(KEYCHAIN_SERVICE, account).getPassword())!;
    expect(Buffer.from(raw.split(':').pop()!, 'base64').length).toBe(PADDING_BLOCK);
    expect(raw).not.toContain(API_KEY.kind === 'api-key' ? API_KEY.apiKey.key : '');
    expect(await store.forget(ALICE, RELAYER)).toBe(true);
    expect(await store.load(ALICE, RELAYER)).toBeNull();
  });

  it('are forgotten with their wallet, with its exchange credentials', async () => {
    const vault = await CredentialVault.open();
    const store = new RelayerCredentialStore(vault);
    track(BOB, RELAYER);
    await store.save(BOB, RELAYER, { kind: 'api-key', apiKey: { key: 'bob-key', address: BOB } });
    expect(await vault.forgetWallet(BOB)).toBeGreaterThanOrEqual(1);
    expect(await store.load(BOB, RELAYER)).toBeNull();
  });

  it('refuses empty fields, an address that is not one and a builder secret that is not base64, keeping nothing', async () => {
    const store = new RelayerCredentialStore(await CredentialVault.open());
    track(ALICE, RELAYER);
    for (const bad of [
      { kind: 'api-key', apiKey: { key: '', address: ALICE } },
      { kind: 'api-key', apiKey: { key: 'k', address: 'not-an-address' } },
      { kind: 'builder', builder: { key: 'k', secret: 'not base64!', passphrase: 'p' } },
      { kind: 'builder', builder: { key: 'k', secret: 'c2VjcmV0', passphrase: '' } },
      { kind: 'password', value: 'x' },
    ]) {
      const error = await refusal(() => store.save(ALICE, RELAYER, bad as RelayerCredentials));
      expect(error.code).toBe('ERR_INVALID_PARAM');
      expect(error.message).not.toContain('c2VjcmV0');
    }
    expect(await store.load(ALICE, RELAYER)).toBeNull();
  });

  it("uses a login's credentials first, else the profile's key for the owner; shows neither key nor secret", async () => {
    const store = new RelayerCredentialStore(await CredentialVault.open());
    const network: NetworkProfile = {
      name: 'sandbox',
      chainId: 31337,
      contracts: {},
      relayerUrl: RELAYER,
      relayerApiKeys: [{ key: 'profile-key', address: BOB.toLowerCase() }],
    };
    expect(await relayerCredentialsFor(ALICE, network, store)).toBeUndefined();
    expect(await relayerCredentialsFor(BOB, network, store)).toEqual({
      credentials: { kind: 'api-key', apiKey: { key: 'profile-key', address: BOB } },
      source: 'profile',
    });
    track(BOB, RELAYER);
    await store.save(BOB, RELAYER, BUILDER);
    expect(await relayerCredentialsFor(BOB, network, store)).toEqual({ credentials: BUILDER, source: 'keychain' });
    expect(await relayerCredentialsFor(BOB, { ...network, relayerUrl: undefined }, store)).toBeUndefined();
    expect(describeRelayerCredentials(BUILDER)).toBe('builder credentials');
    expect(describeRelayerCredentials(API_KEY)).toBe(`a relayer API key for ${ALICE}`);
  });
});
