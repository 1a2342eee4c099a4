// The wallet listing is kept between calls (an order names its wallet; reading every keystore each time cost it
// tens of milliseconds) but never goes stale: this store's own writes, and files added, relabelled or removed
// by anyone else (another PM Desk, the CLI, a copy), are seen by the next listing.
import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Wallet, encryptKeystoreJsonSync } from 'ethers';
import { WalletStore } from '../../src/main/wallets/wallet-store';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A real (cheap) keystore text for a fresh key. */
function keystoreText(): { text: string; address: string } {
  const wallet = Wallet.createRandom();
  return {
    text: encryptKeystoreJsonSync({ address: wallet.address, privateKey: wallet.privateKey }, 'pw', {
      scrypt: { N: 2 ** 4 },
    }),
    address: wallet.address,
  };
}

async function storeIn(): Promise<{ dir: string; store: WalletStore }> {
  const dir = await mkdtemp(join(tmpdir(), 'pmdesk-listing-'));
  const store = new WalletStore(dir);
  cleanups.push(
    () => rm(dir, { recursive: true, force: true }),
    () => store.close(),
  );
  return { dir, store };
}

/** Asks until the listing says what is expected (a watch event takes a moment to arrive), at most 5 s. */
async function listingBecomes(store: WalletStore, labels: string[]): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const now = (await store.list()).map((e) => e.label);
    if (JSON.stringify(now) === JSON.stringify(labels)) return;
    if (Date.now() > deadline) expect(now).toEqual(labels);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the kept wallet listing', () => {
  it("sees this store's own adds, renames and removals at once", async () => {
    const { store } = await storeIn();
    expect(await store.list()).toEqual([]);
    const a = keystoreText();
    await store.add('Alpha', a.text);
    expect((await store.list()).map((e) => [e.label, e.address])).toEqual([['Alpha', a.address]]);
    await store.add('Beta', keystoreText().text);
    await store.rename('Alpha', 'Aardvark');
    expect((await store.list()).map((e) => e.label)).toEqual(['Aardvark', 'Beta']);
    await store.remove((await store.find('Beta'))!);
    expect((await store.list()).map((e) => e.label)).toEqual(['Aardvark']);
  });

  it('sees files another process adds, relabels and deletes (the folder is watched)', async () => {
    const { dir, store } = await storeIn();
    await store.add('Mine', keystoreText().text);
    expect((await store.list()).map((e) => e.label)).toEqual(['Mine']);
    // Another process: a keystore written straight into the folder, with its label field.
    const other = keystoreText();
    const file = join(dir, '0b7f1a8e-0000-4000-8000-000000000001.json');
    await writeFile(file, JSON.stringify({ label: 'Theirs', ...JSON.parse(other.text) }));
    await listingBecomes(store, ['Mine', 'Theirs']);
    const text = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...text, label: 'Renamed' }));
    await listingBecomes(store, ['Mine', 'Renamed']);
    await unlink(file);
    await listingBecomes(store, ['Mine']);
  });

  it('gives each caller its own entries', async () => {
    const { store } = await storeIn();
    await store.add('Alpha', keystoreText().text);
    const first = await store.list();
    first[0]!.label = 'changed by a caller';
    first.push({ label: 'pushed', address: '0x0', file: 'x.json' });
    expect((await store.list()).map((e) => e.label)).toEqual(['Alpha']);
  });

  it('reads the disk every time once closed (no watch, nothing kept)', async () => {
    const { dir, store } = await storeIn();
    await store.add('Alpha', keystoreText().text);
    await store.list();
    store.close();
    const other = keystoreText();
    await writeFile(
      join(dir, '0b7f1a8e-0000-4000-8000-000000000002.json'),
      JSON.stringify({ label: 'Beta', ...JSON.parse(other.text) }),
    );
    // No waiting: without the kept listing the very next call reads the folder.
    expect((await store.list()).map((e) => e.label)).toEqual(['Alpha', 'Beta']);
  });
});
