// API credentials through Electron's safeStorage, with a real AES-256-GCM cipher in safeStorage's place
// (Electron cannot run here): sealed on disk in a private file, opened again, deleted; and when the app
// prefers safeStorage over the keychain library.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SafeStorageSecretStore, useSafeStorage, type StringCipher } from '../../src/main/app/safe-storage-store';

const key = randomBytes(32);
const aesGcm: StringCipher = {
  encrypt: async (text) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  },
  decrypt: async (sealed) => {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
  },
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-safe-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('credentials sealed with safeStorage', () => {
  it('keeps only ciphertext on disk, in a private file, and reads it back', async () => {
    const file = join(dir, 'api-credentials.safe.json');
    const store = new SafeStorageSecretStore(file, aesGcm);
    const secret = 'pmdesk-api-credentials:1:very-secret-passphrase';
    await Promise.all([store.set('0xAbc@clob.example', secret), store.set('0xDef@clob.example', 'other-secret')]);
    expect(await store.get('0xAbc@clob.example')).toBe(secret);
    expect((await store.accounts()).sort()).toEqual(['0xAbc@clob.example', '0xDef@clob.example']);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('very-secret-passphrase');
    expect(text).not.toContain('other-secret');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await new SafeStorageSecretStore(file, aesGcm).get('0xDef@clob.example')).toBe('other-secret');
    expect(await store.delete('0xAbc@clob.example')).toBe(true);
    expect(await store.delete('0xAbc@clob.example')).toBe(false);
    expect(await store.get('0xAbc@clob.example')).toBeNull();
  });

  it('a store without a file has no entries', async () => {
    const store = new SafeStorageSecretStore(join(dir, 'none.json'), aesGcm);
    expect(await store.get('x')).toBeNull();
    expect(await store.accounts()).toEqual([]);
  });
});

describe('safeStorage or the keychain library', () => {
  it.each([
    [true, 'darwin', undefined, true],
    [true, 'win32', undefined, true],
    [true, 'linux', 'gnome_libsecret', true],
    [true, 'linux', 'kwallet5', true],
    [true, 'linux', 'basic_text', false],
    [true, 'linux', 'unknown', false],
    [false, 'darwin', undefined, false],
  ] as const)('available %s on %s (%s): safeStorage %s', (available, platform, backend, expected) => {
    expect(useSafeStorage(available, platform, backend)).toBe(expected);
  });
});
