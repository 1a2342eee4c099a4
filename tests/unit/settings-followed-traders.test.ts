// Followed traders are kept in settings.json per network (src/main/settings/followed-traders.ts): one network's
// list leaves the others', a bad entry is dropped on its own (the rest and the other settings stay), bounds hold
// (50 a network, each address once), and they never leak into the Settings the page reads.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsStore, SETTINGS_FILE } from '../../src/main/settings/settings';
import { cleanFollowedTraders } from '../../src/main/settings/followed-traders';

const dirs: string[] = [];
async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pmdesk-followed-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}`;
const trader = (n: number, extra: object = {}) => ({
  address: wallet(n),
  name: `t${n}`,
  alert: false,
  since: 1,
  ...extra,
});

describe('followed traders in the settings', () => {
  it('are kept per network, survive a restart, and stay out of the page’s settings', async () => {
    const dir = await folder();
    const store = new SettingsStore(dir, undefined, 'sandbox');
    await store.saveFollowedTraders('sandbox', [trader(1, { alert: true }), trader(2)]);
    await store.saveFollowedTraders('polygon', [trader(3)]);
    await store.save({ theme: 'light' }, 'sandbox');
    const again = new SettingsStore(dir, undefined, 'sandbox');
    expect((await again.followedTraders('sandbox')).map((t) => [t.address, t.alert])).toEqual([
      [wallet(1), true],
      [wallet(2), false],
    ]);
    expect((await again.followedTraders('polygon')).map((t) => t.address)).toEqual([wallet(3)]);
    expect(await again.followedTraders('amoy')).toEqual([]);
    expect(await again.get('sandbox')).not.toHaveProperty('followedTraders');
    // The last one unfollowed: the network's list is gone from the file, the others' stay.
    await again.saveFollowedTraders('polygon', []);
    const file = JSON.parse(await readFile(join(dir, SETTINGS_FILE), 'utf8')) as { followedTraders: object };
    expect(Object.keys(file.followedTraders)).toEqual(['sandbox']);
  });

  it('drops a bad entry on its own and keeps the rest of the file', async () => {
    const dir = await folder();
    await writeFile(
      join(dir, SETTINGS_FILE),
      JSON.stringify({
        theme: 'light',
        followedTraders: {
          sandbox: [trader(1), { address: 'nobody', name: '', alert: false, since: 1 }, trader(1), 'x', trader(2)],
          broken: 'not a list',
        },
      }),
    );
    const store = new SettingsStore(dir, undefined, 'sandbox');
    expect((await store.followedTraders('sandbox')).map((t) => t.address)).toEqual([wallet(1), wallet(2)]);
    expect(await store.followedTraders('broken')).toEqual([]);
    expect((await store.get()).theme).toBe('light');
  });

  it('holds at most 50 a network and each address once, whatever its case', () => {
    const many = Array.from({ length: 60 }, (_, i) => trader(i + 1));
    expect(cleanFollowedTraders(many)).toHaveLength(50);
    const upper = { ...trader(10), address: wallet(10).toUpperCase().replace('0X', '0x') };
    expect(cleanFollowedTraders([trader(10), upper])).toHaveLength(1);
    expect(cleanFollowedTraders([{ ...trader(1), name: 'x'.repeat(65) }])).toEqual([]);
  });
});
