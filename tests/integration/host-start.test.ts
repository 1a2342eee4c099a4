// `npm start -- --browser --no-open --profile FILE` as a trader runs it: the real start script builds the app,
// starts browser mode against the profile's aggregator (a fixture server here), names the profile's test wallet,
// prints the ready line, serves
// the page and the bridge, and stops cleanly on Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { event } from '../helpers/aggregator-fixtures';

/** A sandbox-style test wallet in the profile: npm start names it (a made-up key, funded nowhere). */
const TEST_WALLET = { address: '0x' + '7'.repeat(40), privateKey: '0x' + '5'.repeat(64) };
let aggregator: FixtureServer;
let dir: string;
let child: ChildProcess;
let readyLine = '';
const stderr: string[] = [];

beforeAll(async () => {
  aggregator = await startFixtureServer();
  aggregator.on('GET', '/v1/ongoing-events', (_r, reply) => reply.json(200, [event]));
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-start-'));
  const profile = join(dir, 'profile.json');
  await writeFile(
    profile,
    JSON.stringify({
      name: 'fixture',
      chainId: 31338,
      aggregatorUrl: aggregator.url,
      clobUrl: '',
      testWallets: [TEST_WALLET],
    }),
  );
  child = spawn(process.execPath, ['bin/start.mjs', '--browser', '--no-open', '--profile', profile], {
    env: { ...process.env, PMDESK_DATA_DIR: join(dir, 'data') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  readyLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}: ${stderr.join('\n')}`)));
  });
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
  }
  await aggregator?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('npm start in browser mode', () => {
  it('prints exactly the ready line with a fresh token', () => {
    expect(readyLine).toMatch(/^PM Desk is running at http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/);
    expect(stderr).toContain('Browser mode: --browser was given.');
  });

  it("names the profile's funded test wallet on stderr, before the ready line, and how to use it", () => {
    expect(stderr).toContain(`Sandbox test wallet, funded on this sandbox only: ${TEST_WALLET.address}`);
    expect(stderr.find((line) => line.includes('Use the sandbox test wallet'))).toContain(TEST_WALLET.privateKey);
  });

  it('serves the built page and answers the contract over the bridge with that token', async () => {
    const url = new URL(readyLine.replace('PM Desk is running at ', ''));
    const token = url.hash.replace('#token=', '');
    const page = await fetch(url.origin);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const socket = new WebSocket(`ws://${url.host}/bridge?token=${token}`, { headers: { Origin: url.origin } });
    const answer = await new Promise<unknown>((resolve, reject) => {
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
        if (message.id === 1) resolve(message.result);
      });
      socket.once('open', () => socket.send(JSON.stringify({ id: 1, op: 'listEvents', input: { limit: 5 } })));
      socket.once('error', reject);
    });
    socket.close();
    expect(answer).toMatchObject({ ok: true, value: { events: [{ id: '12483' }], hasMore: false } });
  });

  it('built the shipped preload as one sandbox-ready file that requires only electron', async () => {
    const preload = await readFile('out/preload/index.cjs', 'utf8');
    expect([...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1])).toEqual(['electron']);
    expect(preload).not.toMatch(/^\s*import\s/m);
  });

  it('stops on Ctrl-C', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
