// API credentials in a real OS keychain (gnome-keyring's Secret Service, unlocked, in the private D-Bus
// session scripts/with-keychain.sh starts for `npm test`), and the plain fallback when there is none.
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AsyncEntry } from '@napi-rs/keyring';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CredentialVault, credentialAccount, exchangeHost } from '../../src/main/credentials/api-credentials';
import { KEYCHAIN_SERVICE, KeychainSecretStore } from '../../src/main/credentials/keychain-store';
import type { SecretStore } from '../../src/main/credentials/secret-store';
import { PADDING_BLOCK } from '../../src/main/wallets/padding';

const ALICE = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
// An address of this run only: the integration tests beside these in the same keyring remove wallets of the
// sandbox's development keys (`pmdesk wallet remove` forgets every entry of the wallet), which would take BOB's.
const BOB = `0x${randomBytes(20).toString('hex')}`;
const CREDS = {
  key: '0f1e2d3c-aaaa-bbbb-cccc-111122223333',
  secret: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA==',
  passphrase: 'passphrase-9f8e7d6c5b4a39281706f5e4d3c2b1a0',
};
const OTHER = { key: 'k2', secret: 'czI=', passphrase: 'p2' };
const EXCHANGE = 'http://127.0.0.1:4820/';
const used: string[] = [];

/**
 * Each test that cannot reach a keychain fails (never skips), naming what is missing: the probe runs once,
 * and a failing beforeEach fails every test with its reason.
 */
let keychainMissing: string | undefined;
beforeAll(async () => {
  const store = new KeychainSecretStore();
  try {
    await store.set('pmdesk-test-probe', 'probe');
    if ((await store.get('pmdesk-test-probe')) !== 'probe')
      throw new Error('the keychain accepted a write but did not keep it (locked?)');
    await store.delete('pmdesk-test-probe');
  } catch (error) {
    keychainMissing =
      `The keychain tests need a real, unlocked OS keychain and found none (${(error as Error).message}). ` +
      'On Linux run them through `npm test` or `npm run test:keychain`, which start gnome-keyring in a private D-Bus session ' +
      '(apt: gnome-keyring dbus dbus-x11, which .ci/run installs).';
  }
});
beforeEach(() => {
  if (keychainMissing) throw new Error(keychainMissing);
});
afterEach(async () => {
  for (const account of used.splice(0)) await new AsyncEntry(KEYCHAIN_SERVICE, account).deletePassword();
});

function track(address: string, exchange: string): string {
  const account = credentialAccount(address, exchange);
  used.push(account);
  return account;
}

interface ChildView {
  storage: string;
  warning: { code: string; message: string; context?: Record<string, unknown> } | null;
  warnings: unknown[];
  loaded: unknown;
}

/** The vault in another process, with the environment given (a different D-Bus, or none). */
function inChild(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  wrap: string[] = [],
): Promise<ChildView & { stderr: string }> {
  return new Promise((resolve, reject) => {
    const command = [...wrap, process.execPath, '--import', 'tsx', 'tests/helpers/credential-vault-child.ts', ...args];
    const child = spawn(command[0]!, command.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) reject(new Error(`vault child exited ${code}: ${stderr}`));
      else resolve({ ...(JSON.parse(line) as ChildView), stderr });
    });
  });
}

describe('credentials in the OS keychain', () => {
  it('opens on the keychain with no warning', async () => {
    const vault = await CredentialVault.open();
    expect([vault.storage, vault.warning]).toEqual(['keychain', undefined]);
  });

  it('keeps one entry per wallet address and exchange host', async () => {
    const vault = await CredentialVault.open();
    track(ALICE, EXCHANGE);
    track(ALICE, 'clob.example.org');
    track(BOB, EXCHANGE);
    await vault.save(ALICE, EXCHANGE, CREDS);
    await vault.save(ALICE, 'https://clob.example.org/some/path', OTHER);
    expect(await vault.load(ALICE, '127.0.0.1:4820')).toEqual(CREDS);
    expect(await vault.load(ALICE.toLowerCase(), 'CLOB.example.org')).toEqual(OTHER);
    expect(await vault.load(BOB, EXCHANGE)).toBeNull();
    expect(await new AsyncEntry(KEYCHAIN_SERVICE, `${ALICE}@127.0.0.1:4820`).getPassword()).not.toBeNull();
    expect(await vault.forget(ALICE, EXCHANGE)).toBe(true);
    expect(await vault.load(ALICE, EXCHANGE)).toBeNull();
    expect(await vault.load(ALICE, 'clob.example.org')).toEqual(OTHER);
  });

  it('stores them padded to 2048 bytes, so the entry size tells nothing, and never as plain text', async () => {
    const vault = await CredentialVault.open();
    track(ALICE, EXCHANGE);
    track(BOB, EXCHANGE);
    await vault.save(ALICE, EXCHANGE, CREDS);
    await vault.save(BOB, EXCHANGE, OTHER);
    const alice = (await new AsyncEntry(KEYCHAIN_SERVICE, credentialAccount(ALICE, EXCHANGE)).getPassword())!;
    const bob = (await new AsyncEntry(KEYCHAIN_SERVICE, credentialAccount(BOB, EXCHANGE)).getPassword())!;
    expect(alice.length).toBe(bob.length);
    expect(Buffer.from(alice.split(':').pop()!, 'base64').length).toBe(PADDING_BLOCK);
    for (const value of Object.values(CREDS)) expect(alice).not.toContain(value);
  });

  it('are still there for another process: they live in the keychain, not in this one', async () => {
    track(BOB, EXCHANGE);
    const saved = await inChild(['save', BOB, EXCHANGE, JSON.stringify(CREDS)]);
    expect([saved.storage, saved.warning]).toEqual(['keychain', null]);
    expect(await (await CredentialVault.open()).load(BOB, EXCHANGE)).toEqual(CREDS);
    expect((await inChild(['load', BOB, EXCHANGE])).loaded).toEqual(CREDS);
  });

  it('are forgotten on every exchange when their wallet goes, and only theirs', async () => {
    const vault = await CredentialVault.open();
    track(ALICE, EXCHANGE);
    track(ALICE, 'clob.example.org');
    track(BOB, EXCHANGE);
    await vault.save(ALICE, EXCHANGE, CREDS);
    await vault.save(ALICE, 'clob.example.org', OTHER);
    await vault.save(BOB, EXCHANGE, OTHER);
    expect(await vault.forgetWallet(ALICE.toLowerCase())).toBe(2);
    expect([await vault.load(ALICE, EXCHANGE), await vault.load(ALICE, 'clob.example.org')]).toEqual([null, null]);
    expect(await vault.load(BOB, EXCHANGE)).toEqual(OTHER);
    expect(await new KeychainSecretStore().accounts()).not.toContain(`${ALICE}@clob.example.org`);
  });

  it('go with the wallet when `pmdesk wallet remove` removes it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-remove-'));
    const env = { ...process.env, PMDESK_DATA_DIR: dataDir, PMDESK_PASSWORD: 'correct horse battery staple' };
    const cli = (args: string[], input?: string) =>
      new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['bin/pmdesk.mjs', ...args], { env, stdio: ['pipe', 'pipe', 'inherit'] });
        let stdout = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stdout }));
        child.stdin.end(input ?? '');
      });
    const dev0Key = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
    expect((await cli(['wallet', 'import', '--label', 'Main', '--private-key-stdin'], dev0Key)).code).toBe(0);
    track(ALICE, EXCHANGE);
    track(BOB, EXCHANGE);
    const vault = await CredentialVault.open();
    await vault.save(ALICE, EXCHANGE, CREDS);
    await vault.save(BOB, EXCHANGE, OTHER);
    const removed = await cli(['wallet', 'remove', 'Main']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('Its API credentials were removed from the keychain too (1).');
    expect(await vault.load(ALICE, EXCHANGE)).toBeNull();
    expect(await vault.load(BOB, EXCHANGE)).toEqual(OTHER);
  });

  it('read a damaged entry as none, so the credentials are derived again', async () => {
    const account = track(ALICE, EXCHANGE);
    await new AsyncEntry(KEYCHAIN_SERVICE, account).setPassword('pmdesk-api-credentials:1:AAAA');
    expect(await (await CredentialVault.open()).load(ALICE, EXCHANGE)).toBeNull();
  });

  it('name accounts by checksummed address and host only', () => {
    expect(credentialAccount(ALICE.toLowerCase(), 'https://user:pw@Clob.Exchange.Example/auth?x=1')).toBe(
      `${ALICE}@clob.exchange.example`,
    );
    expect(exchangeHost('http://127.0.0.1:4820')).toBe('127.0.0.1:4820');
    expect(() => credentialAccount('0x123', EXCHANGE)).toThrow('not a valid address');
  });
});

describe('without a keychain', () => {
  it('says so plainly when there is no Secret Service, and keeps credentials in memory for the session', async () => {
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/pmdesk-no-bus' };
    const view = await inChild(['save-then-load', ALICE, EXCHANGE, JSON.stringify(CREDS)], env);
    expect(view.storage).toBe('memory');
    expect(view.warning).toMatchObject({ code: 'ERR_ENVIRONMENT', context: { reason: 'KEYCHAIN_UNAVAILABLE' } });
    expect(view.warning!.message).toMatch(
      /^No OS keychain is available \(.+\)\. API credentials are kept in memory for this session only/,
    );
    expect(view.warnings).toHaveLength(1);
    expect(view.loaded).toEqual(CREDS);
    const said = JSON.stringify([view.warning, view.warnings]) + view.stderr;
    for (const value of Object.values(CREDS)) expect(said).not.toContain(value);
    // And nothing reached the real keychain.
    expect(await new AsyncEntry(KEYCHAIN_SERVICE, credentialAccount(ALICE, EXCHANGE)).getPassword()).toBeNull();
  });

  it('says so when the keyring is there but locked (a daemon nobody unlocked)', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_DATA_HOME: await mkdtemp(join(tmpdir(), 'pmdesk-locked-')) };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    delete env.GNOME_KEYRING_CONTROL;
    const view = await inChild(['save-then-load', ALICE, EXCHANGE, JSON.stringify(CREDS)], env, [
      'dbus-run-session',
      '--',
      'bash',
      '-c',
      'eval "$(gnome-keyring-daemon --start --components=secrets)" >/dev/null; exec "$@"',
      'locked-keyring',
    ]);
    expect(view.storage).toBe('memory');
    expect(view.warning).toMatchObject({ code: 'ERR_ENVIRONMENT', context: { reason: 'KEYCHAIN_UNAVAILABLE' } });
    expect(view.loaded).toEqual(CREDS);
  });

  it('falls back, once and loudly, when the keychain fails in the middle of a session', async () => {
    // The one stand-in here: a real keychain that starts failing on demand, which the real one cannot be made to do.
    const real = new KeychainSecretStore();
    let broken = false;
    const flaky: SecretStore = {
      kind: 'keychain',
      get: (a) => (broken ? Promise.reject(new Error("Couldn't access platform storage: Locked")) : real.get(a)),
      set: (a, s) => (broken ? Promise.reject(new Error("Couldn't access platform storage: Locked")) : real.set(a, s)),
      delete: (a) => (broken ? Promise.reject(new Error("Couldn't access platform storage: Locked")) : real.delete(a)),
      accounts: () =>
        broken ? Promise.reject(new Error("Couldn't access platform storage: Locked")) : real.accounts(),
    };
    const warnings: string[] = [];
    const vault = await CredentialVault.open({ keychain: flaky, onWarning: (w) => warnings.push(w.detail) });
    expect(vault.storage).toBe('keychain');
    broken = true;
    await vault.save(ALICE, EXCHANGE, CREDS);
    await vault.save(BOB, EXCHANGE, OTHER);
    expect(await vault.load(ALICE, EXCHANGE)).toEqual(CREDS);
    expect(vault.storage).toBe('memory');
    expect(warnings).toEqual([
      'No OS keychain is available (Locked). API credentials are kept in memory for this session only and will be derived again with the wallet next time. Relayer credentials cannot be derived: they are kept in memory for this run only; enter them again next time.',
    ]);
  });
});
