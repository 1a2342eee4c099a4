// Temp files an interrupted atomic write left beside networks.json, password-attempts.json and the safeStorage
// credentials file are cleared at the store's first read once old enough to be nobody's, as the wallets',
// settings' and alerts' already were; a fresh one (a write under way) and another file's are left alone.
import { mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkBook } from '../../src/main/settings/networks';
import { parseAppProfile } from '../../src/main/settings/profile';
import { fileLedger } from '../../src/main/wallets/password-throttle';
import { SafeStorageSecretStore } from '../../src/main/app/safe-storage-store';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-temps-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const hourAgo = new Date(Date.now() - 60 * 60_000);
async function leftBy(file: string, { stale }: { stale: boolean }): Promise<string> {
  const name = `.${file}.${stale ? '0123456789ab' : 'ba9876543210'}.tmp`;
  await writeFile(join(dir, name), 'half a write');
  if (stale) await utimes(join(dir, name), hourAgo, hourAgo);
  return name;
}
const temps = async () => (await readdir(dir)).filter((name) => name.endsWith('.tmp')).sort();

describe('stale temp files of the data folder’s other stores', () => {
  it('are removed at each store’s first read; fresh ones and other files’ are kept', async () => {
    const kept: string[] = [];
    for (const file of ['networks.json', 'password-attempts.json', 'api-credentials.safe.json']) {
      await leftBy(file, { stale: true });
      kept.push(await leftBy(file, { stale: false }));
    }
    // Another file's temp (a store not read here) is not theirs to remove.
    kept.push(await leftBy('alerts.json', { stale: true }));

    const raw = { name: 'fixture', chainId: 31338, aggregatorUrl: 'http://127.0.0.1:9', clobUrl: '' };
    const book = new NetworkBook({ raw, profile: parseAppProfile(raw) }, dir);
    expect((await book.list('fixture')).map((n) => n.name)).toContain('fixture');
    expect(await fileLedger(join(dir, 'password-attempts.json')).read('desk')).toBeUndefined();
    const sealed = new SafeStorageSecretStore(join(dir, 'api-credentials.safe.json'), {
      encrypt: async (t) => Buffer.from(t),
      decrypt: async (b) => b.toString(),
    });
    expect(await sealed.accounts()).toEqual([]);

    expect(await temps()).toEqual(kept.sort());
  });
});
