// Workspaces are kept with the settings: a bad workspace or tile is dropped on its own (the terminal still starts,
// the other settings stay), bounds hold (20 workspaces, 8 tiles), widths add up to 1, and saveSettings' input
// refuses what the file would drop.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsStore, SETTINGS_FILE } from '../../src/main/ipc/settings';
import { operations } from '../../src/shared/contract';
import { cleanActiveWorkspace, cleanWorkspaces } from '../../src/shared/workspaces';

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
      { name: 'Odd', tiles: [{ marketId: '7', width: 3 }, { protocol: 'polymarket', marketId: '8', tokenId: 'y', width: 0 }], focused: 9 },
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
    const many = Array.from({ length: 30 }, (_, i) => ({ name: `W${i}`, tiles: Array.from({ length: 12 }, (_, j) => tile(String(j), 0.3)), focused: 11 }));
    const cleaned = cleanWorkspaces(many);
    expect(cleaned).toHaveLength(20);
    expect(cleaned.every((w) => w.tiles.length === 8 && w.focused === 7)).toBe(true);
    expect(cleaned[0]!.tiles.reduce((a, t) => a + t.width, 0)).toBeCloseTo(1, 9);
    expect(cleanActiveWorkspace(3, 20)).toBe(3);
    expect(cleanActiveWorkspace(20, 20)).toBe(0);
    expect(cleanActiveWorkspace('1', 20)).toBe(0);
  });

  it('a corrupt value does not set the settings aside, and good ones survive a reread', async () => {
    const dir = await folder();
    await writeFile(join(dir, SETTINGS_FILE), JSON.stringify({ theme: 'light', workspaces: { not: 'a list' }, activeWorkspace: 'x' }));
    const settings = await new SettingsStore(dir).get();
    expect(settings.theme).toBe('light');
    expect(settings.workspaces).toEqual([]);
    expect(settings.activeWorkspace).toBe(0);
    const store = new SettingsStore(dir);
    const workspaces = [
      { name: 'Main', tiles: [{ protocol: 'polymarket' as const, marketId: '90011', eventId: '9001', tokenId: 't1', width: 0.6 }, { width: 0.4 }], focused: 1 },
      { name: 'Crypto', tiles: [{ protocol: 'polymarket' as const, marketId: '90021', width: 1 }], focused: 0 },
    ];
    await store.save({ workspaces, activeWorkspace: 1 });
    const again = await new SettingsStore(dir).get();
    expect(again.workspaces).toEqual(workspaces);
    expect(again.activeWorkspace).toBe(1);
  });

  it('saveSettings refuses workspaces past their bounds, naming the field', () => {
    const input = operations.saveSettings.input;
    expect(input.safeParse({ workspaces: [{ name: 'Main', tiles: [tile('1', 1)], focused: 0 }], activeWorkspace: 0 }).success).toBe(true);
    const nine = input.safeParse({ workspaces: [{ name: 'Main', tiles: Array.from({ length: 9 }, () => tile('1', 0.1)), focused: 0 }] });
    expect(nine.success).toBe(false);
    expect(nine.error?.issues[0]?.path).toEqual(['workspaces', 0, 'tiles']);
    expect(input.safeParse({ workspaces: Array.from({ length: 21 }, (_, i) => ({ name: `W${i}`, tiles: [tile('1', 1)], focused: 0 })) }).success).toBe(false);
    expect(input.safeParse({ workspaces: [{ name: 'Main', tiles: [{ ...tile('1', 1), extra: true }], focused: 0 }] }).success).toBe(false);
    expect(input.safeParse({ activeWorkspace: 20 }).success).toBe(false);
  });
});
