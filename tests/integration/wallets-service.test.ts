// The wallet service end to end on a real folder with the real signer worker: create, import three ways,
// list, export, rename, remove with the password, the throttle in front of every password check, and the
// files themselves (v3, mode 0600, in a 0700 folder).
import { mkdtemp, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decryptKeystoreJson } from 'ethers';
import { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { PasswordThrottle, fileLedger } from '../../src/main/wallets/password-throttle';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import type { SignerClient } from '../../src/main/wallets/signer-client';
import { Wallets } from '../../src/main/wallets/wallets';
import { DEV_PRIVATE_KEYS } from '../../sandbox/chain/anvil';

const PASSWORD = 'correct horse battery staple';
const PHRASE = 'test test test test test test test test test test test junk';
const DEV_0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const DEV_1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const DEV_2 = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

let signer: SignerClient;
let dataDir: string;
let wallets: Wallets;
let waits: number[];

beforeAll(() => {
  signer = startSignerThread();
});
afterAll(() => signer.close());
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-wallets-'));
  waits = [];
  // The real file ledger; only the wait is recorded instead of slept, so no test depends on the clock.
  const throttle = new PasswordThrottle({
    ledger: fileLedger(join(dataDir, 'password-attempts.json')),
    sleep: async (ms) => void waits.push(ms),
  });
  wallets = new Wallets({ dataDir, signer, throttle, scryptN: 2 ** 12 });
});

async function failure(promise: Promise<unknown>): Promise<PmDeskError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PmDeskError);
    return error as PmDeskError;
  }
  throw new Error('expected a failure');
}

describe('wallets on disk', () => {
  it('creates, imports a mnemonic (any index) and a private key, and lists them by label', async () => {
    const created = await wallets.create('Main', PASSWORD);
    expect(created.mnemonic.split(' ')).toHaveLength(12);
    expect(await wallets.importMnemonic('Second', PHRASE, PASSWORD, { index: 1 })).toEqual({
      label: 'Second',
      address: DEV_1,
    });
    expect(await wallets.importPrivateKey('Third', DEV_PRIVATE_KEYS[2], PASSWORD)).toEqual({
      label: 'Third',
      address: DEV_2,
    });
    expect(await wallets.list()).toEqual([
      { label: 'Main', address: created.address },
      { label: 'Second', address: DEV_1 },
      { label: 'Third', address: DEV_2 },
    ]);
  });

  it('writes v3 keystores with mode 0600 in a 0700 folder, the mnemonic nowhere', async () => {
    const created = await wallets.create('Main', PASSWORD);
    const dir = join(dataDir, 'wallets');
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect((await stat(join(dir, files[0]!))).mode & 0o777).toBe(0o600);
    const text = await readFile(join(dir, files[0]!), 'utf8');
    const json = JSON.parse(text);
    expect([json.version, json.label, `0x${json.address}`.toLowerCase()]).toEqual([
      3,
      'Main',
      created.address.toLowerCase(),
    ]);
    expect((await decryptKeystoreJson(text, PASSWORD)).address).toBe(created.address);
    // Not the phrase, no two of its words in a row, and no word as a value anywhere. (Each word against the raw
    // text failed whenever the phrase held "salt": scrypt's own field name.)
    const words = created.mnemonic.split(' ');
    expect(text).not.toContain(created.mnemonic);
    for (let i = 0; i + 1 < words.length; i++) expect(text).not.toContain(`${words[i]} ${words[i + 1]}`);
    const values: string[] = [];
    const walk = (node: unknown): void => {
      if (typeof node === 'string') values.push(node);
      else if (node && typeof node === 'object') Object.values(node).forEach(walk);
    };
    walk(json);
    for (const value of values) expect(words).not.toContain(value);
  });

  it('refuses a taken label (whatever its case) or a wallet already present, before any encryption', async () => {
    await wallets.importPrivateKey('Main', DEV_PRIVATE_KEYS[0], PASSWORD);
    expect((await failure(wallets.create('main', PASSWORD))).detail).toBe('A wallet is already labelled "Main".');
    expect((await failure(wallets.importMnemonic('Other', PHRASE, PASSWORD))).detail).toBe(
      'This wallet is already in PM Desk, labelled "Main".',
    );
    expect((await failure(wallets.rename('Nope', 'X'))).code).toBe('ERR_NOT_FOUND');
  });

  it('lets only one of two parallel imports take a label', async () => {
    const both = await Promise.allSettled([
      wallets.importPrivateKey('Same', DEV_PRIVATE_KEYS[0], PASSWORD),
      wallets.importPrivateKey('same', DEV_PRIVATE_KEYS[1], PASSWORD),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((both.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason.detail).toMatch(
      /^A wallet is already labelled "[Ss]ame"\.$/,
    );
    expect(await wallets.list()).toHaveLength(1);
  });

  it('exports a standard keystore that imports back elsewhere with its password; never overwrites a file', async () => {
    await wallets.importPrivateKey('Main', DEV_PRIVATE_KEYS[0], PASSWORD);
    const out = join(dataDir, 'export', 'main.json');
    await wallets.exportKeystoreTo('Main', out);
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(dataDir, 'export'))).toEqual(['main.json']); // no temp file left behind
    const exported = await readFile(out, 'utf8');
    expect(JSON.parse(exported).label).toBeUndefined();
    expect((await failure(wallets.exportKeystoreTo('Main', out))).code).toBe('ERR_INVALID_PARAM');

    const elsewhere = new Wallets({ dataDir: await mkdtemp(join(tmpdir(), 'pmdesk-wallets-')), signer });
    expect(await failure(elsewhere.importKeystore('Copy', exported, 'wrong password'))).toMatchObject({
      detail: 'invalid password',
    });
    expect((await failure(elsewhere.importKeystore('Copy', '{"not":"a keystore"}', PASSWORD))).detail).toBe(
      'invalid JSON wallet',
    );
    expect(await elsewhere.importKeystore('Copy', exported, PASSWORD)).toEqual({ label: 'Copy', address: DEV_0 });
    expect(await elsewhere.unlock('Copy', PASSWORD)).toEqual({ label: 'Copy', address: DEV_0 });
    await elsewhere.lock('Copy');
  });

  it('renames in place: same file, same key, new label', async () => {
    await wallets.importPrivateKey('Main', DEV_PRIVATE_KEYS[0], PASSWORD);
    const [before] = await readdir(join(dataDir, 'wallets'));
    expect(await wallets.rename('main', 'Trading')).toEqual({ label: 'Trading', address: DEV_0 });
    expect(await readdir(join(dataDir, 'wallets'))).toEqual([before]);
    expect((await wallets.checkPassword('Trading', PASSWORD)).address).toBe(DEV_0);
    await wallets.importPrivateKey('Other', DEV_PRIVATE_KEYS[1], PASSWORD);
    expect((await failure(wallets.rename('Other', 'TRADING'))).code).toBe('ERR_INVALID_PARAM');
  });

  it('starts the signer only for what needs a key or scrypt: listing, renaming and exporting do not', async () => {
    await wallets.importPrivateKey('Main', DEV_PRIVATE_KEYS[0], PASSWORD);
    let starts = 0;
    const lazy = new Wallets({ dataDir, signer: () => (starts++, signer) });
    await lazy.list();
    await lazy.rename('Main', 'Renamed');
    await lazy.exportKeystore('Renamed');
    expect(starts).toBe(0);
    await lazy.checkPassword('Renamed', PASSWORD);
    await lazy.checkPassword('Renamed', PASSWORD);
    expect(starts).toBe(1);
  });

  it('removes a wallet only with its password', async () => {
    await wallets.importPrivateKey('Main', DEV_PRIVATE_KEYS[0], PASSWORD);
    expect((await failure(wallets.remove('Main', 'wrong password'))).detail).toBe('invalid password');
    expect(await wallets.list()).toHaveLength(1);
    await wallets.unlock('Main', PASSWORD);
    expect(await wallets.remove('Main', PASSWORD)).toEqual({ label: 'Main', address: DEV_0 });
    expect(await wallets.list()).toEqual([]);
    expect(await signer.unlocked()).not.toContain(DEV_0);
  });
});

describe('wrong passwords through the service', () => {
  it('are throttled after five, remembered in the data folder across service instances, and cleared by the right one', async () => {
    await wallets.importPrivateKey('Main', DEV_PRIVATE_KEYS[0], PASSWORD);
    for (let i = 0; i < 6; i++)
      expect((await failure(wallets.unlock('Main', `guess ${i}`))).detail).toBe('invalid password');
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(0);
    expect(waits[0]).toBeLessThanOrEqual(1000);

    // A new process (here: a new service on the same folder) still owes the wait: restarting does not reset it.
    const ledger = JSON.parse(await readFile(join(dataDir, 'password-attempts.json'), 'utf8'));
    expect(ledger).toEqual({ [DEV_0.toLowerCase()]: { failures: 6, lastFailureAt: expect.any(Number) } });
    const again: number[] = [];
    const restarted = new Wallets({
      dataDir,
      signer,
      throttle: new PasswordThrottle({
        ledger: fileLedger(join(dataDir, 'password-attempts.json')),
        sleep: async (ms) => void again.push(ms),
      }),
    });
    expect(await restarted.unlock('Main', PASSWORD)).toEqual({ label: 'Main', address: DEV_0 });
    expect(again).toHaveLength(1);
    expect(again[0]).toBeLessThanOrEqual(2000);
    expect(JSON.parse(await readFile(join(dataDir, 'password-attempts.json'), 'utf8'))).toEqual({});
    await restarted.lock('Main');
  });

  it('queues parallel wrong passwords one behind another, so each still owes its wait', async () => {
    await wallets.importPrivateKey('Main', DEV_PRIVATE_KEYS[0], PASSWORD);
    let clock = 5_000_000;
    const owed: number[] = [];
    const queued = new Wallets({
      dataDir,
      signer,
      throttle: new PasswordThrottle({
        ledger: fileLedger(join(dataDir, 'password-attempts.json')),
        now: () => clock,
        sleep: async (ms) => {
          owed.push(ms);
          clock += ms;
        },
      }),
    });
    const attempts = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => queued.unlock('Main', `parallel guess ${i}`)),
    );
    expect(
      attempts.every((a) => a.status === 'rejected' && (a.reason as PmDeskError).detail === 'invalid password'),
    ).toBe(true);
    expect(owed).toEqual([1000, 2000, 4000]);
  });

  it('keeps only counts and times in the ledger, nothing about the passwords', async () => {
    await wallets.importPrivateKey('Main', DEV_PRIVATE_KEYS[0], PASSWORD);
    await failure(wallets.checkPassword('Main', 'hunter2-hunter2'));
    const ledger = await readFile(join(dataDir, 'password-attempts.json'), 'utf8');
    expect(ledger).not.toContain('hunter2');
    expect(Object.keys(Object.values(JSON.parse(ledger))[0] as object).sort()).toEqual(['failures', 'lastFailureAt']);
  });

  it('does not lock anyone out because of a damaged ledger file', async () => {
    await wallets.importPrivateKey('Main', DEV_PRIVATE_KEYS[0], PASSWORD);
    await writeFile(join(dataDir, 'password-attempts.json'), '{ torn');
    expect(await wallets.checkPassword('Main', PASSWORD)).toEqual({ label: 'Main', address: DEV_0 });
    expect(waits).toEqual([]);
  });
});
