// Which network profile the desktop app starts on: the flag, the environment, then the data folder's
// profile.json (how a packaged app started from its icon finds its network), else Polygon on Polymarket's public
// endpoints, so an installed app opens on real markets with no setup.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { startupProfileFile } from '../../src/main/settings/profile';
import { readLaunchProfile } from '../../src/main/settings/launch-profile';

const DATA = '/home/trader/.config/pmdesk';
const none = () => false;
const all = () => true;

describe('the desktop app’s starting network profile', () => {
  it('takes --pmdesk-profile first, then PMDESK_PROFILE', () => {
    expect(
      startupProfileFile(
        ['electron', '.', '--pmdesk-profile=/tmp/a.json'],
        { PMDESK_PROFILE: '/tmp/b.json' },
        DATA,
        all,
      ),
    ).toBe('/tmp/a.json');
    expect(startupProfileFile(['electron', '.'], { PMDESK_PROFILE: '/tmp/b.json' }, DATA, all)).toBe('/tmp/b.json');
  });

  it('falls back to profile.json in the data folder, only when it exists', () => {
    expect(startupProfileFile(['pmdesk'], {}, DATA, (file) => file === join(DATA, 'profile.json'))).toBe(
      join(DATA, 'profile.json'),
    );
    expect(startupProfileFile(['pmdesk'], {}, DATA, none)).toBeUndefined();
  });

  it('opens on Polygon, reading Polymarket directly, when no profile is given', async () => {
    const { profile, raw } = await readLaunchProfile(undefined);
    expect(profile).toMatchObject({
      name: 'polygon',
      chainId: 137,
      source: 'polymarket',
      orderVersion: 2,
      gammaUrl: 'https://gamma-api.polymarket.com',
      dataUrl: 'https://data-api.polymarket.com',
      clobUrl: 'https://clob.polymarket.com',
      geoblockUrl: 'https://polymarket.com/api/geoblock',
    });
    expect(profile.aggregatorUrl).toBeUndefined();
    expect(raw.contracts).toBeDefined();
  });

  it('reads a given profile file, and names a file that is not JSON', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pmdesk-launch-'));
    await writeFile(
      join(dir, 'p.json'),
      JSON.stringify({
        name: 'fork',
        chainId: 31337,
        source: 'aggregator',
        aggregatorUrl: 'http://127.0.0.1:1',
        clobUrl: 'http://127.0.0.1:2',
      }),
    );
    expect((await readLaunchProfile(join(dir, 'p.json'))).profile).toMatchObject({
      name: 'fork',
      source: 'aggregator',
    });
    await writeFile(join(dir, 'bad.json'), '{nope');
    await expect(readLaunchProfile(join(dir, 'bad.json'))).rejects.toThrow(
      `The network profile ${join(dir, 'bad.json')} is not JSON.`,
    );
  });
});
