// `npm run sandbox` as a user runs it: the real command in its own process, its profile file, its servers,
// and SIGTERM stopping every part it started.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Runs the sandbox command until `ready` resolves, then hands back its output and a stop function. */
function runSandbox(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('Press Ctrl-C to stop.') || stdout.includes('sandbox ready:')) resolve();
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => reject(new Error(`the sandbox exited early (${code}): ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, ready, exited, output: () => stdout, errors: () => stderr };
}

describe('npm run sandbox', () => {
  it('prints where everything is, writes the profile when ready, and stops every part on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pmdesk-sandbox-'));
    const profileFile = join(dir, 'profile.json');
    const run = runSandbox([
      '--ports-auto',
      '--no-sim',
      '--profile-out',
      profileFile,
      '--seed',
      '3',
      '--source',
      'aggregator',
    ]);
    await run.ready;

    const profile = JSON.parse(await readFile(profileFile, 'utf8')) as Record<string, unknown> & {
      contracts: Record<string, string>;
      testWallets: { address: string; privateKey: string }[];
    };
    expect(Object.keys(profile)).toEqual([
      'name',
      'source',
      'chainId',
      'rpcUrl',
      'clobUrl',
      'aggregatorUrl',
      'sseUrl',
      'wsUrl',
      'gammaUrl',
      'dataUrl',
      'rtdsUrl',
      'geoblockUrl',
      'relayerUrl',
      'relayerApiKeys',
      'orderVersion',
      'contracts',
      'feeRecipient',
      'testWallets',
      'wallets',
      'testAccounts',
    ]);
    expect(profile.source).toBe('aggregator');
    expect(Object.keys(profile.wallets as object)).toEqual([
      'proxyFactory',
      'proxyImplementation',
      'safeFactory',
      'safeMasterCopy',
      'safeInitCodeHash',
      'depositWalletFactory',
      'depositWalletBeacon',
      'depositWalletImplementation',
      'multiSend',
      'relayHub',
    ]);
    expect(
      (profile.testAccounts as { kind: string; signatureType: number }[]).map((a) => [a.kind, a.signatureType]),
    ).toEqual([
      ['proxy', 1],
      ['safe', 2],
      ['deposit', 3],
    ]);
    expect(Object.keys(profile.contracts)).toEqual([
      'collateral',
      'conditionalTokens',
      'exchange',
      'negRiskExchange',
      'negRiskAdapter',
      'usdcE',
      'collateralOnramp',
    ]);
    expect(profile).toMatchObject({ name: 'sandbox', chainId: 31338, orderVersion: 2 });
    expect(profile.testWallets[0]!.privateKey).toMatch(/^0x[0-9a-f]{64}$/);
    expect(run.output()).toContain(`test wallet ${profile.testWallets[0]!.address}`);
    expect(run.output()).toContain(String(profile.clobUrl));

    const ok = await fetch(`${profile.clobUrl as string}/ok`);
    expect(ok.status).toBe(200);
    const events = (await (
      await fetch(`${profile.aggregatorUrl as string}/v1/ongoing-events?protocol=polymarket`)
    ).json()) as unknown[];
    expect(events).toHaveLength(5);
    const chainId = (await (
      await fetch(profile.rpcUrl as string, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}',
      })
    ).json()) as { result: string };
    expect(Number(chainId.result)).toBe(31338);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    for (const url of [profile.clobUrl, profile.aggregatorUrl, profile.gammaUrl, profile.rpcUrl] as string[]) {
      await expect(fetch(url, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
    }
  }, 90_000);

  it('with its market bots, names the file their refused orders go to, and none of them reaches the screen', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pmdesk-sandbox-'));
    const run = runSandbox([
      '--ports-auto',
      '--profile-out',
      join(dir, 'profile.json'),
      '--seed',
      '3',
      '--sim-interval-ms',
      '50',
    ]);
    try {
      await run.ready;
      expect(run.output()).toContain(
        `  bot log     ${join(tmpdir(), 'pmdesk-sandbox-bots.log')} (the market bots' refused orders)`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // a few bot steps
      expect(run.output()).not.toMatch(/^\s*simulator: /m);
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('names the Polymarket source by default: Gamma, Data, real-time and geoblock URLs and no aggregator URLs', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pmdesk-sandbox-'));
    const profileFile = join(dir, 'profile.json');
    const run = runSandbox([
      '--ports-auto',
      '--no-sim',
      '--profile-out',
      profileFile,
      '--seed',
      '3',
      '--geoblocked',
      'US-NY',
    ]);
    try {
      await run.ready;
      const profile = JSON.parse(await readFile(profileFile, 'utf8')) as Record<string, string>;
      expect(profile.source).toBe('polymarket');
      expect(profile).not.toHaveProperty('aggregatorUrl');
      expect(profile).not.toHaveProperty('sseUrl');
      expect(profile.rtdsUrl).toBe(`${profile.gammaUrl!.replace(/^http/, 'ws')}/rtds`);
      expect(run.output()).toContain(profile.rtdsUrl);
      const events = (await (await fetch(`${profile.gammaUrl}/events`)).json()) as {
        id: string;
        markets: { clobTokenIds: string }[];
      }[];
      expect(events.map((e) => e.id)).toEqual(['9001', '9002', '9003', '9004', '9005']);
      expect(typeof events[0]!.markets[0]!.clobTokenIds).toBe('string');
      expect(await (await fetch(`${profile.dataUrl}/`)).json()).toEqual({ data: 'OK' });
      expect(await (await fetch(profile.geoblockUrl!)).json()).toEqual({
        blocked: true,
        ip: '127.0.0.1',
        country: 'US',
        region: 'NY',
      });
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    }
  }, 90_000);

  it('refuses bad options before starting anything', async () => {
    const run = runSandbox(['--order-version', '7']);
    await expect(run.ready).rejects.toThrow(/--order-version must be a whole number from 1 to 3/);
    expect(await run.exited).toBe(2);
    const polygon = runSandbox(['--chain-id', '137']);
    await expect(polygon.ready).rejects.toThrow(/never runs with Polygon/);
    await expect(runSandbox(['--source', 'kalshi']).ready).rejects.toThrow(/--source must be polymarket or aggregator/);
    await expect(runSandbox(['--geoblocked', 'New York']).ready).rejects.toThrow(/--geoblocked must be a country code/);
  });
});
