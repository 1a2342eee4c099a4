// Settings kept by main in the data folder, driven over browser mode's real bridge: a change survives a
// restart of browser mode, a patch merges into the rest, bad input changes nothing, and a corrupt file gives
// the defaults, is kept as settings.json.bad and is warned about once.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../src/shared/contract';
import { ErrorCode } from '../../packages/toolkit/src/model/errors';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { startBrowserMode, type BrowserMode } from '../../src/main/host/browser-mode';
import { DEFAULT_SETTINGS } from '../../src/main/settings/settings';
import type { Logger } from '../../packages/toolkit/src/base/logger';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { event } from '../helpers/aggregator-fixtures';
import { openBridge } from '../helpers/bridge-client';

let aggregator: FixtureServer;
let rendererDir: string;
const dirs: string[] = [];

beforeAll(async () => {
  aggregator = await startFixtureServer();
  aggregator.on('GET', '/v1/ongoing-events', (_r, reply) => reply.json(200, [event]));
  rendererDir = await mkdtemp(join(tmpdir(), 'pmdesk-renderer-'));
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>PM Desk</title>');
});
afterAll(async () => {
  await aggregator?.stop();
  for (const dir of [rendererDir, ...dirs]) if (dir) await rm(dir, { recursive: true, force: true });
});

async function dataFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pmdesk-settings-'));
  dirs.push(dir);
  return dir;
}

/** Browser mode on the fixture aggregator with this data folder; warnings collected. */
async function start(dataDir: string, warnings: string[] = []): Promise<BrowserMode> {
  const logger: Logger = {
    debug() {},
    warn: (message) => warnings.push(message),
    error: (message) => warnings.push(message),
  };
  const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
  return startBrowserMode({
    profile: { name: 'fixture', chainId: 31338, aggregatorUrl: aggregator.url, clobUrl: '' },
    rendererDir,
    dataDir,
    vault,
    logger,
  });
}

describe('settings', () => {
  it('start from the defaults, merge each change, and survive a restart of browser mode', async () => {
    const dataDir = await dataFolder();
    let mode = await start(dataDir);
    let page = await openBridge(mode.host);
    expect(await page.value<Settings>('getSettings')).toEqual(DEFAULT_SETTINGS);
    expect(await page.value<Settings>('saveSettings', { theme: 'light', watchlist: ['506729', '90021'] })).toEqual({
      ...DEFAULT_SETTINGS,
      theme: 'light',
      watchlist: ['506729', '90021'],
    });
    const whole = await page.value<Settings>('saveSettings', { activeWallet: 'desk', cancelAllKey: 'K' });
    expect(whole).toEqual({
      ...DEFAULT_SETTINGS,
      theme: 'light',
      watchlist: ['506729', '90021'],
      activeWallet: 'desk',
      cancelAllKey: 'K',
    });
    // Bad input is refused by its schema and nothing is written.
    const before = await readFile(join(dataDir, 'settings.json'), 'utf8');
    expect(await page.call('saveSettings', { theme: 'blue' })).toMatchObject({
      ok: false,
      error: { code: ErrorCode.INVALID_PARAMETER },
    });
    expect(await readFile(join(dataDir, 'settings.json'), 'utf8')).toBe(before);
    expect((await stat(join(dataDir, 'settings.json'))).mode & 0o777).toBe(0o600);
    page.close();
    await mode.stop();

    mode = await start(dataDir);
    page = await openBridge(mode.host);
    try {
      expect(await page.value<Settings>('getSettings')).toEqual(whole);
      expect(await page.value<Settings>('saveSettings', { activeWallet: null })).toEqual({
        ...whole,
        activeWallet: null,
      });
    } finally {
      page.close();
      await mode.stop();
    }
  });

  it('fills a key an older file lacks with its default', async () => {
    const dataDir = await dataFolder();
    await writeFile(join(dataDir, 'settings.json'), JSON.stringify({ theme: 'light' }));
    const mode = await start(dataDir);
    const page = await openBridge(mode.host);
    try {
      expect(await page.value<Settings>('getSettings')).toEqual({ ...DEFAULT_SETTINGS, theme: 'light' });
    } finally {
      page.close();
      await mode.stop();
    }
  });

  it.each([
    ['not JSON', '{"theme": "light", '],
    ['a key of the wrong type', JSON.stringify({ theme: 'light', watchlist: 'all of them' })],
  ])(
    'a corrupt file (%s) gives the defaults, is kept as settings.json.bad, and is warned about once',
    async (_name, text) => {
      const dataDir = await dataFolder();
      await writeFile(join(dataDir, 'settings.json'), text);
      const warnings: string[] = [];
      const mode = await start(dataDir, warnings);
      const page = await openBridge(mode.host);
      try {
        expect(await page.value<Settings>('getSettings')).toEqual(DEFAULT_SETTINGS);
        expect(await page.value<Settings>('getSettings')).toEqual(DEFAULT_SETTINGS);
        expect(await readFile(join(dataDir, 'settings.json.bad'), 'utf8')).toBe(text);
        const about = warnings.filter((w) => w.includes('settings.json'));
        expect(about).toHaveLength(1);
        expect(about[0]).toContain('settings.json.bad');
        // The next change writes a good file; the bad one stays for the trader.
        await page.value('saveSettings', { theme: 'light' });
        // The watchlist is kept per network in the file (each network reads its own as `watchlist`).
        const { watchlist: _one, ...kept } = DEFAULT_SETTINGS;
        expect(JSON.parse(await readFile(join(dataDir, 'settings.json'), 'utf8'))).toEqual({
          ...kept,
          watchlists: {},
          theme: 'light',
        });
        expect(await readFile(join(dataDir, 'settings.json.bad'), 'utf8')).toBe(text);
      } finally {
        page.close();
        await mode.stop();
      }
    },
  );
});
