// A damaged wallet file among good ones, met by the terminal over browser mode's real bridge: the others still
// list, the damaged one is set aside, and every window is told once where it went and what to do.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TerminalEvents, WalletInfo } from '../../src/shared/contract';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { startBrowserMode, type BrowserMode } from '../../src/main/host/browser-mode';
import { walletsDir } from '../../src/main/wallets/data-dir';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { event } from '../helpers/aggregator-fixtures';
import { openBridge, type BridgeClient } from '../helpers/bridge-client';

const DAMAGED = '{"version":3,"crypto":';

let aggregator: FixtureServer;
let rendererDir: string;
let dataDir: string;
let mode: BrowserMode;
let page: BridgeClient;

beforeAll(async () => {
  aggregator = await startFixtureServer();
  aggregator.on('GET', '/v1/ongoing-events', (_r, reply) => reply.json(200, [event]));
  rendererDir = await mkdtemp(join(tmpdir(), 'pmdesk-renderer-'));
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>PM Desk</title>');
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-set-aside-'));
  await mkdir(walletsDir(dataDir), { recursive: true });
  await writeFile(join(walletsDir(dataDir), '00000000-0000-4000-8000-000000000000.json'), DAMAGED);
  const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
  mode = await startBrowserMode({
    profile: { name: 'fixture', chainId: 31338, aggregatorUrl: aggregator.url, clobUrl: '' },
    rendererDir,
    dataDir,
    vault,
  });
  page = await openBridge(mode.host);
});

afterAll(async () => {
  page?.close();
  await mode?.stop();
  await aggregator?.stop();
  for (const dir of [rendererDir, dataDir]) if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a damaged wallet file', () => {
  it('is set aside and the trader is told once where it went and what to do', async () => {
    const since = page.events.length;
    expect(await page.value<WalletInfo[]>('listWallets')).toEqual([]);
    const notice = await page.nextEvent<TerminalEvents['notice']>(
      'notice',
      (n) => /wallet file was damaged/.test(n.message),
      since,
    );
    const [movedTo] = (await readdir(walletsDir(dataDir))).filter((name) => name.includes('.damaged-'));
    expect(notice).toEqual({
      kind: 'info',
      message: `Your wallet file was damaged and set aside as ${join(walletsDir(dataDir), movedTo!)}; restore from your backup or import the key again.`,
    });
    // Kept byte for byte; the next listing meets nothing damaged and says nothing more.
    expect(await readFile(join(walletsDir(dataDir), movedTo!), 'utf8')).toBe(DAMAGED);
    await page.value('listWallets');
    await page.value('getSettings');
    expect(
      page.events.filter(
        (e) => e.event === 'notice' && /wallet file/.test((e.payload as TerminalEvents['notice']).message),
      ),
    ).toHaveLength(1);
  });
});
