// kill -9 at random moments while wallet files are being rewritten: every wallet file must still parse and
// decrypt to the same address, no wallet may be lost, and no temp file may ever be listed as a wallet.
import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptKeystoreJsonSync } from 'ethers';
import { isTempFileName } from '../../src/main/wallets/atomic-file';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import type { SignerClient } from '../../src/main/wallets/signer-client';
import { WalletStore } from '../../src/main/wallets/wallet-store';
import { Wallets } from '../../src/main/wallets/wallets';
import { DEV_PRIVATE_KEYS } from '../../sandbox/chain/anvil';

const PASSWORD = 'correct horse battery staple';
const ROUNDS = 15;

let signer: SignerClient;
beforeAll(() => {
  signer = startSignerThread();
});
afterAll(() => signer.close());

/** Starts the rewriter, lets it finish `writes` writes, waits a random fraction of a millisecond or three, kills it. */
function rewriteAndKill(
  dir: string,
  extraFile: string,
  writes: number,
): Promise<{ lines: number; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/wallet-rewriter.ts', dir, extraFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let lines = 0;
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (chunk: Buffer) => {
      lines += chunk.toString().split('\n').length - 1;
      if (!killed && lines >= writes) {
        killed = true;
        setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 4));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      signal === 'SIGKILL' ? resolve({ lines, signal }) : reject(new Error(`rewriter exited with ${code}: ${stderr}`)),
    );
  });
}

describe('kill -9 during keystore writes', () => {
  it(`leaves every wallet whole, ${ROUNDS} kills in a row`, { timeout: 180_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-crash-'));
    const wallets = new Wallets({ dataDir, signer, scryptN: 2 ** 10 });
    const expected = new Map<string, string>(); // address → base label
    for (const [i, label] of ['Alpha', 'Beta', 'Gamma'].entries()) {
      expected.set((await wallets.importPrivateKey(label, DEV_PRIVATE_KEYS[i]!, PASSWORD)).address, label);
    }
    const extra = await signer.importPrivateKey(DEV_PRIVATE_KEYS[3], PASSWORD, { scryptN: 2 ** 10 });
    const extraFile = join(dataDir, 'extra.json');
    await writeFile(extraFile, extra.keystore);

    // A complete, valid keystore under a temp name: it must never be listed.
    const dir = join(dataDir, 'wallets');
    const [firstFile] = await readdir(dir);
    await copyFile(join(dir, firstFile!), join(dir, `.${firstFile}.planted.tmp`));
    const store = new WalletStore(dir);

    for (let round = 0; round < ROUNDS; round++) {
      await rewriteAndKill(dir, extraFile, 1 + Math.floor(Math.random() * 40));

      const names = await readdir(dir);
      const listed = await store.list();
      for (const name of names.filter((n) => !isTempFileName(n))) {
        // Every wallet file decrypts, and to the address it says.
        const text = await readFile(join(dir, name), 'utf8');
        const json = JSON.parse(text);
        expect(decryptKeystoreJsonSync(text, PASSWORD).address.toLowerCase()).toBe(`0x${json.address}`);
      }
      const core = listed.filter((e) => e.label !== 'Extra');
      expect(new Map(core.map((e) => [e.address, e.label.replace(/\*$/, '')]))).toEqual(expected);
      expect(core).toHaveLength(3);
      expect(listed.length).toBe(names.filter((n) => !isTempFileName(n)).length);
      for (const e of listed.filter((w) => w.label === 'Extra')) expect(e.address).toBe(extra.address);
    }
    // And the service still opens them with the password, through the worker.
    const first = (await store.list()).find((e) => e.label !== 'Extra')!;
    expect((await wallets.checkPassword(first.label, PASSWORD)).address).toBe(first.address);
  });
});
