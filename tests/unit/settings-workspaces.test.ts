// Workspaces are kept with the settings, per network: a bad workspace or tile is dropped on its own (the terminal
// still starts, the other settings stay), bounds hold (20 workspaces, 8 tiles), widths add up to 1, and saveSettings'
// input refuses what the file would drop. One network's save leaves the others'; a file from before workspaces were
// kept per network gives its workspaces to the network the terminal starts on.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsStore, SETTINGS_FILE } from '../../src/main/settings/settings';
import { operations } from '../../src/shared/contract';
import {
  WORKSPACE_NETWORKS_MAX,
  cleanActiveWorkspace,
  cleanNetworkWorkspaces,
  cleanWorkspaces,
} from '../../src/shared/workspaces';

const dirs: string[] = [];
async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pmdesk-workspaces-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const tile = (marketId: string, width = 0.5) => ({ protocol: 'polymarket', marketId, width });

describe('saved workspaces', () => {
  it('keep good workspaces and tiles, dropping bad ones one by one', () => {
    const cleaned = cleanWorkspaces([
      { name: ' Main ', tiles: [tile('1', 0.25), tile('2', 0.75)], focused: 1 },
      { name: 'main', tiles: [tile('3')], focused: 0 }, // the same name in another case
      { name: '', tiles: [tile('4')], focused: 0 },
      { name: 'No tiles', tiles: [], focused: 0 },
      { name: 'Bad tiles', tiles: [{ marketId: 5 }, 'x', { protocol: 'kalshi', marketId: '6', width: 1 }], focused: 0 },
      {
        name: 'Odd',
        tiles: [
          { marketId: '7', width: 3 },
          { protocol: 'polymarket', marketId: '8', tokenId: 'y', width: 0 },
        ],
        focused: 9,
      },
      'not a workspace',
      null,
    ]);
    expect(cleaned).toEqual([
      { name: 'Main', tiles: [{ ...tile('1', 0.25) }, { ...tile('2', 0.75) }], focused: 1 },
      // A tile past its bounds is dropped; a market without its protocol leaves the tile empty; widths shared again.
      { name: 'Odd', tiles: [{ protocol: 'polymarket', marketId: '8', tokenId: 'y', width: 1 }], focused: 0 },
    ]);
    expect(cleanWorkspaces('workspaces')).toEqual([]);
    expect(cleanWorkspaces(undefined)).toEqual([]);
  });

  it('hold their bounds: 20 workspaces, 8 tiles each, widths adding up to 1', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({
      name: `W${i}`,
      tiles: Array.from({ length: 12 }, (_, j) => tile(String(j), 0.3)),
      focused: 11,
    }));
    const cleaned = cleanWorkspaces(many);
    expect(cleaned).toHaveLength(20);
    expect(cleaned.every((w) => w.tiles.length === 8 && w.focused === 7)).toBe(true);
    expect(cleaned[0]!.tiles.reduce((a, t) => a + t.width, 0)).toBeCloseTo(1, 9);
    expect(cleanActiveWorkspace(3, 20)).toBe(3);
    expect(cleanActiveWorkspace(20, 20)).toBe(0);
    expect(cleanActiveWorkspace('1', 20)).toBe(0);
  });

  it('a corrupt value does not set the settings aside, and good ones survive a reread, per network', async () => {
    const dir = await folder();
    await writeFile(
      join(dir, SETTINGS_FILE),
      JSON.stringify({
        theme: 'light',
        workspaces: { sandbox: { list: 'not a list', active: 'x' }, ' padded': { list: [], active: 0 } },
      }),
    );
    const settings = await new SettingsStore(dir, undefined, 'sandbox').get();
    expect(settings.theme).toBe('light');
    expect(settings.workspaces).toEqual({});
    const store = new SettingsStore(dir, undefined, 'sandbox');
    const list = [
      {
        name: 'Main',
        tiles: [
          { protocol: 'polymarket' as const, marketId: '90011', eventId: '9001', tokenId: 't1', width: 0.6 },
          { width: 0.4 },
        ],
        focused: 1,
      },
      { name: 'Crypto', tiles: [{ protocol: 'polymarket' as const, marketId: '90021', width: 1 }], focused: 0 },
    ];
    const polygon = [
      { name: 'Elections', tiles: [{ protocol: 'polymarket' as const, marketId: '253591', width: 1 }], focused: 0 },
    ];
    await store.save({ workspaces: { sandbox: { list, active: 1 } } });
    // One network's save leaves the other networks' workspaces as they were.
    await store.save({ workspaces: { polygon: { list: polygon, active: 0 } } });
    const again = await new SettingsStore(dir, undefined, 'polygon').get();
    expect(again.workspaces).toEqual({ sandbox: { list, active: 1 }, polygon: { list: polygon, active: 0 } });
    expect(JSON.parse(await readFile(join(dir, SETTINGS_FILE), 'utf8'))).not.toHaveProperty('activeWorkspace');
  });

  it('kept before they were per network: they become the workspaces of the network the terminal starts on', async () => {
    const dir = await folder();
    const list = [
      { name: 'Main', tiles: [tile('90011', 1)], focused: 0 },
      { name: 'Crypto', tiles: [tile('90021', 1)], focused: 0 },
    ];
    await writeFile(join(dir, SETTINGS_FILE), JSON.stringify({ theme: 'light', workspaces: list, activeWorkspace: 1 }));
    const store = new SettingsStore(dir, undefined, 'sandbox');
    expect((await store.get()).workspaces).toEqual({ sandbox: { list, active: 1 } });
    // Written back in today's shape on the next save; the old index goes with the list.
    await store.save({ theme: 'dark' });
    expect(JSON.parse(await readFile(join(dir, SETTINGS_FILE), 'utf8'))).toMatchObject({
      theme: 'dark',
      workspaces: { sandbox: { list, active: 1 } },
    });
    expect(JSON.parse(await readFile(join(dir, SETTINGS_FILE), 'utf8'))).not.toHaveProperty('activeWorkspace');
    expect((await new SettingsStore(dir, undefined, 'polygon').get()).workspaces).toEqual({
      sandbox: { list, active: 1 },
    });
  });

  it('clean each network on its own: a bad network name or entry is dropped, the active index kept on a workspace', () => {
    const good = { name: 'Main', tiles: [tile('1', 1)], focused: 0 };
    expect(
      cleanNetworkWorkspaces({
        sandbox: { list: [good, { name: 'Second', tiles: [tile('2', 1)], focused: 0 }], active: 5 },
        polygon: { list: [good], active: 0 },
        '': { list: [good], active: 0 },
        ' amoy': { list: [good], active: 0 },
        second: 'not an entry',
        third: { list: [{ name: '', tiles: [] }], active: 0 },
      }),
    ).toEqual({
      sandbox: { list: [good, { name: 'Second', tiles: [tile('2', 1)], focused: 0 }], active: 0 },
      polygon: { list: [good], active: 0 },
    });
    expect(cleanNetworkWorkspaces([good])).toEqual({});
    expect(cleanNetworkWorkspaces(undefined)).toEqual({});
    const many = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`net${i}`, { list: [good], active: 0 }]));
    expect(Object.keys(cleanNetworkWorkspaces(many))).toHaveLength(WORKSPACE_NETWORKS_MAX);
  });

  it('saveSettings refuses workspaces past their bounds, naming the field', () => {
    const input = operations.saveSettings.input;
    const one = (list: unknown[], active = 0) => ({ workspaces: { sandbox: { list, active } } });
    expect(input.safeParse(one([{ name: 'Main', tiles: [tile('1', 1)], focused: 0 }])).success).toBe(true);
    const nine = input.safeParse(
      one([{ name: 'Main', tiles: Array.from({ length: 9 }, () => tile('1', 0.1)), focused: 0 }]),
    );
    expect(nine.success).toBe(false);
    expect(nine.error?.issues[0]?.path).toEqual(['workspaces', 'sandbox', 'list', 0, 'tiles']);
    expect(
      input.safeParse(one(Array.from({ length: 21 }, (_, i) => ({ name: `W${i}`, tiles: [tile('1', 1)], focused: 0 }))))
        .success,
    ).toBe(false);
    expect(
      input.safeParse(one([{ name: 'Main', tiles: [{ ...tile('1', 1), extra: true }], focused: 0 }])).success,
    ).toBe(false);
    expect(input.safeParse(one([{ name: 'Main', tiles: [tile('1', 1)], focused: 0 }], 1)).success).toBe(false);
    expect(input.safeParse(one([])).success).toBe(false);
    // The workspaces of a network are named by the network: the old list-and-index shape is refused.
    expect(input.safeParse({ workspaces: [{ name: 'Main', tiles: [tile('1', 1)], focused: 0 }] }).success).toBe(false);
    expect(input.safeParse({ activeWorkspace: 0 }).success).toBe(false);
  });
});
