// Panel sizes are kept with the settings: a bad saved size is dropped on its own (the terminal still starts, the
// other settings stay), a good one survives a reread, and saveSettings' input refuses what the file would drop.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanPanelSizes, SettingsStore, SETTINGS_FILE } from '../../src/main/settings/settings';
import { operations } from '../../src/shared/contract';

const dirs: string[] = [];
async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pmdesk-panels-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('saved panel sizes', () => {
  it('keep good entries and drop bad ones one by one', () => {
    expect(cleanPanelSizes({ markets: 480, ticket: 320.5 })).toEqual({ markets: 480, ticket: 320.5 });
    expect(
      cleanPanelSizes({
        markets: 'wide',
        ticket: -4,
        account: 1e9,
        'Bad Name': 100,
        big: Number.POSITIVE_INFINITY,
        ok: 200,
      }),
    ).toEqual({ ok: 200 });
    expect(cleanPanelSizes([300])).toEqual({});
    expect(cleanPanelSizes(null)).toEqual({});
    expect(cleanPanelSizes('markets')).toEqual({});
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`p${i}`, i]));
    expect(Object.keys(cleanPanelSizes(many))).toHaveLength(20);
  });

  it('a corrupt or huge value does not set the settings aside: the rest of the file is kept', async () => {
    const dir = await folder();
    await writeFile(
      join(dir, SETTINGS_FILE),
      JSON.stringify({
        theme: 'light',
        watchlist: ['90011'],
        panelSizes: { markets: 'x', account: 99_999_999, ticket: 340 },
      }),
    );
    const settings = await new SettingsStore(dir).get();
    expect(settings.theme).toBe('light');
    expect(settings.watchlist).toEqual(['90011']);
    expect(settings.panelSizes).toEqual({ ticket: 340 });
    const other = await folder();
    await writeFile(join(other, SETTINGS_FILE), JSON.stringify({ theme: 'light', panelSizes: 'not sizes' }));
    expect((await new SettingsStore(other).get()).panelSizes).toEqual({});
  });

  it('are saved, merged and read back', async () => {
    const dir = await folder();
    const store = new SettingsStore(dir);
    expect((await store.get()).panelSizes).toEqual({});
    await store.save({ panelSizes: { markets: 500 } });
    expect((await new SettingsStore(dir).get()).panelSizes).toEqual({ markets: 500 });
    expect(JSON.parse(await readFile(join(dir, SETTINGS_FILE), 'utf8')).panelSizes).toEqual({ markets: 500 });
  });

  it('saveSettings refuses sizes that are not sizes', () => {
    const input = operations.saveSettings.input;
    expect(input.safeParse({ panelSizes: { markets: 480, account: 220 } }).success).toBe(true);
    expect(input.safeParse({ panelSizes: { markets: -1 } }).success).toBe(false);
    expect(input.safeParse({ panelSizes: { markets: 1e9 } }).success).toBe(false);
    expect(input.safeParse({ panelSizes: { 'not a name': 100 } }).success).toBe(false);
    expect(
      input.safeParse({ panelSizes: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`p${i}`, 1])) }).success,
    ).toBe(false);
  });
});
