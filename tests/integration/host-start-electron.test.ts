// `npm start` on a machine where Electron's binary has not been downloaded yet (Electron 45 downloads on first use,
// not at `npm ci`), with a stand-in electron package instead of the internet: start runs the package's own
// installer once, says so, opens the window with the built main, does not download again on the next start, honours
// ELECTRON_SKIP_BINARY_DOWNLOAD, and opens browser mode with the reason when the installer fails or hangs.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { event } from '../helpers/aggregator-fixtures';
import { standInElectron, type StandInElectron } from '../helpers/stand-in-electron';

const root = resolve('.');
let aggregator: FixtureServer;
let dir: string;
let profile: string;
const running = new Set<ChildProcess>();

beforeAll(async () => {
  aggregator = await startFixtureServer();
  aggregator.on('GET', '/v1/ongoing-events', (_r, reply) => reply.json(200, [event]));
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-start-electron-'));
  profile = join(dir, 'profile.json');
  await writeFile(
    profile,
    JSON.stringify({ name: 'fixture', chainId: 31338, aggregatorUrl: aggregator.url, clobUrl: '' }),
  );
});

afterAll(async () => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  await aggregator?.stop();
  await rm(dir, { recursive: true, force: true });
});

interface Start {
  child: ChildProcess;
  stderr: string[];
  stdout: string[];
  exited: Promise<number | null>;
}

/** `npm start -- --no-open --profile FILE` with the stand-in package as Electron, and the environment given. */
function start(electron: StandInElectron, env: Record<string, string>, args: string[] = []): Start {
  const base = { ...process.env };
  // CI installs with ELECTRON_SKIP_BINARY_DOWNLOAD=1; each case here says for itself whether it is set.
  delete base.ELECTRON_SKIP_BINARY_DOWNLOAD;
  const child = spawn(process.execPath, ['bin/start.mjs', '--no-open', '--profile', profile, ...args], {
    env: { ...base, PMDESK_DATA_DIR: join(dir, 'data'), PMDESK_ELECTRON_DIR: electron.dir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const stderr: string[] = [];
  const stdout: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line));
  createInterface({ input: child.stdout! }).on('line', (line) => stdout.push(line));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, stderr, stdout, exited };
}

async function stop(run: Start): Promise<number | null> {
  run.child.kill('SIGINT');
  return run.exited;
}

/** Waits (polling every 100 ms, at most `timeoutMs`) until `check` holds; a guard against a hang, not a speed check. */
async function until(
  check: () => boolean | Promise<boolean>,
  { timeoutMs, what }: { timeoutMs: number; what: string },
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`never happened: ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const readyLine = /^PM Desk is running at http:\/\/127\.0\.0\.1:\d+\/#token=/;
const target = `${process.platform}-${process.arch}`;

describe('npm start where the Electron binary is not downloaded yet', () => {
  let electron: StandInElectron;
  beforeAll(async () => {
    electron = await standInElectron();
  });

  it("downloads it once through Electron's own installer, saying so, then opens the window with the built main", async () => {
    const run = start(electron, { STANDIN_ELECTRON_INSTALL: 'ok' });
    // Until the window is launched, or start settled on anything else (browser mode's ready line, an exit).
    await until(
      async () => (await electron.launches()).length === 1 || run.stdout.length > 0 || run.child.exitCode !== null,
      {
        timeoutMs: 90_000,
        what: 'the stand-in window to be launched',
      },
    );
    expect(run.stderr).toContain(`Downloading Electron 45 for ${target} (about 100 MB), once…`);
    expect(run.stderr).toContain('Opening the PM Desk window…');
    expect(run.stderr.join('\n')).not.toMatch(/Browser mode|Could not download/);
    expect(await electron.installerRuns()).toHaveLength(1);

    // The window is given the app's folder, whose package.json names the main that this start just built.
    const launch = (await electron.launches())[0]!;
    expect(resolve(launch.args[0]!)).toBe(root);
    expect(launch.args[1]).toMatch(/^--pmdesk-profile=.+profile\.json$/);
    const main = (JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { main: string }).main;
    expect(existsSync(join(root, main))).toBe(true);

    // Ctrl-C closes the window too.
    expect(await stop(run)).toBe(0);
    await until(() => !alive(launch.pid), { timeoutMs: 10_000, what: 'the stand-in window to be stopped' });
  }, 120_000);

  it('does not download again on the next start', async () => {
    const run = start(electron, { STANDIN_ELECTRON_INSTALL: 'fail' });
    await until(
      async () => (await electron.launches()).length === 2 || run.stdout.length > 0 || run.child.exitCode !== null,
      {
        timeoutMs: 90_000,
        what: 'the second launch',
      },
    );
    expect(await electron.launches()).toHaveLength(2);
    expect(await electron.installerRuns()).toHaveLength(1);
    expect(run.stderr.join('\n')).not.toContain('Downloading Electron');
    expect(await stop(run)).toBe(0);
  }, 120_000);
});

describe('npm start when Electron cannot or must not be downloaded', () => {
  it('honours ELECTRON_SKIP_BINARY_DOWNLOAD: no download, browser mode with the reason', async () => {
    const electron = await standInElectron();
    const run = start(electron, { ELECTRON_SKIP_BINARY_DOWNLOAD: '1', STANDIN_ELECTRON_INSTALL: 'ok' });
    await until(() => run.stdout.some((line) => readyLine.test(line)), { timeoutMs: 90_000, what: 'the ready line' });
    expect(run.stderr).toContain(
      'Browser mode: the Electron binary is not installed (ELECTRON_SKIP_BINARY_DOWNLOAD is set).',
    );
    expect(await electron.installerRuns()).toHaveLength(0);
    expect(await stop(run)).toBe(0);
  }, 120_000);

  it('with --browser, does not try: no download, browser mode', async () => {
    const electron = await standInElectron();
    const run = start(electron, { STANDIN_ELECTRON_INSTALL: 'ok' }, ['--browser']);
    await until(() => run.stdout.some((line) => readyLine.test(line)), { timeoutMs: 90_000, what: 'the ready line' });
    expect(run.stderr).toContain('Browser mode: --browser was given.');
    expect(await electron.installerRuns()).toHaveLength(0);
    expect(await stop(run)).toBe(0);
  }, 120_000);

  it("falls back to browser mode with the installer's reason when it fails", async () => {
    const electron = await standInElectron();
    const run = start(electron, {
      STANDIN_ELECTRON_INSTALL: 'fail',
      HTTPS_PROXY: 'http://127.0.0.1:9',
      ELECTRON_MIRROR: 'http://127.0.0.1:9/',
    });
    await until(() => run.stdout.some((line) => readyLine.test(line)), { timeoutMs: 90_000, what: 'the ready line' });
    expect(run.stderr).toContain(
      'Could not download Electron (TypeError: fetch failed (getaddrinfo ENOTFOUND mirror.invalid)): opening PM Desk in your browser instead.',
    );
    expect(run.stderr).toContain('Browser mode: Electron could not be downloaded.');
    // The installer saw the trader's mirror, and a proxy it only follows when told to.
    expect(await electron.installerRuns()).toEqual([
      { pid: expect.any(Number), env: { ELECTRON_GET_USE_PROXY: 'true', ELECTRON_MIRROR: 'http://127.0.0.1:9/' } },
    ]);
    expect(await electron.launches()).toHaveLength(0);
    expect(await stop(run)).toBe(0);
  }, 120_000);

  it('gives up on an installer that hangs, stops it, and opens browser mode', async () => {
    const electron = await standInElectron();
    const run = start(electron, { STANDIN_ELECTRON_INSTALL: 'hang', PMDESK_ELECTRON_DOWNLOAD_TIMEOUT_MS: '1500' });
    await until(() => run.stdout.some((line) => readyLine.test(line)), { timeoutMs: 90_000, what: 'the ready line' });
    expect(run.stderr).toContain(
      'Could not download Electron (it took longer than 1.5 s): opening PM Desk in your browser instead.',
    );
    const installer = (await electron.installerRuns())[0]!;
    await until(() => !alive(installer.pid), { timeoutMs: 10_000, what: 'the hung installer to be stopped' });
    expect(await stop(run)).toBe(0);
  }, 120_000);
});
