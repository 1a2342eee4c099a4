// The real pmdesk process picks its servers flag > environment > --network profile: three loopback servers
// stand for the three sources, and each request must reach the one that wins.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { runPmdesk, type PmdeskRun } from '../helpers/pmdesk-process';

let fromProfile: FixtureServer;
let fromEnv: FixtureServer;
let fromFlag: FixtureServer;
let profileFile: string;

function pmdesk(args: string[], env: Record<string, string> = {}): Promise<PmdeskRun> {
  return runPmdesk(args, { env });
}

/** Which of the three servers saw requests since the last call (one name, if the precedence holds); then forgets them. */
function winner(): string {
  const servers = { profile: fromProfile, env: fromEnv, flag: fromFlag };
  const hit = Object.entries(servers)
    .filter(([, server]) => server.requests.length > 0)
    .map(([name]) => name);
  for (const server of Object.values(servers)) server.reset();
  return hit.join(',');
}

beforeAll(async () => {
  [fromProfile, fromEnv, fromFlag] = await Promise.all([
    startFixtureServer(),
    startFixtureServer(),
    startFixtureServer(),
  ]);
  for (const s of [fromProfile, fromEnv, fromFlag])
    s.fallback = (req, reply) => reply.json(200, req.path === '/ok' ? 'OK' : ['a-b']);
  const dir = await mkdtemp(join(tmpdir(), 'pmdesk-cli-network-'));
  profileFile = join(dir, 'sandbox.json');
  await writeFile(
    profileFile,
    JSON.stringify({
      name: 'sandbox',
      chainId: 31338,
      orderVersion: 2,
      clobUrl: fromProfile.url,
      aggregatorUrl: fromProfile.url,
      sseUrl: fromProfile.url,
      contracts: {},
    }),
  );
});
afterAll(async () => {
  await Promise.all([fromProfile, fromEnv, fromFlag].map((s) => s.stop()));
});

describe('pmdesk --network', () => {
  it('sends exchange reads to the profile, then the environment, then the flag', async () => {
    expect((await pmdesk(['--network', profileFile, '--json', 'clob', 'ok'])).code).toBe(0);
    expect(winner()).toBe('profile');
    expect((await pmdesk(['--json', 'clob', 'ok'], { PMDESK_NETWORK: profileFile })).code).toBe(0);
    expect(winner()).toBe('profile');
    expect(
      (await pmdesk(['--network', profileFile, '--json', 'clob', 'ok'], { PMDESK_CLOB_URL: fromEnv.url })).code,
    ).toBe(0);
    expect(winner()).toBe('env');
    expect(
      (
        await pmdesk(['--network', profileFile, '--clob-url', fromFlag.url, '--json', 'clob', 'ok'], {
          PMDESK_CLOB_URL: fromEnv.url,
        })
      ).code,
    ).toBe(0);
    expect(winner()).toBe('flag');
  });

  it('sends aggregator reads to the profile, then the environment, then the flag', async () => {
    const slugs = await pmdesk(['--network', profileFile, '--json', 'slugs', 'list']);
    expect(slugs.code).toBe(0);
    expect(JSON.parse(slugs.stdout)).toEqual(['a-b']);
    expect(winner()).toBe('profile');
    expect(
      (await pmdesk(['--network', profileFile, '--json', 'slugs', 'list'], { PMDESK_API_URL: fromEnv.url })).code,
    ).toBe(0);
    expect(winner()).toBe('env');
    expect(
      (
        await pmdesk(['--network', profileFile, '--api-url', fromFlag.url, '--json', 'slugs', 'list'], {
          PMDESK_API_URL: fromEnv.url,
        })
      ).code,
    ).toBe(0);
    expect(winner()).toBe('flag');
  });

  it('refuses an unreadable profile before any request, with exit 2', async () => {
    const run = await pmdesk(['--network', join(tmpdir(), 'pmdesk-no-such-profile.json'), '--json', 'slugs', 'list']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Cannot read the network profile');
    expect(winner()).toBe('');
  });
});
