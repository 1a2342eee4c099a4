// The first-start download of Electron's binary, as decisions: which package can install itself, when the download
// is skipped, what the installer is told, and the one-line reason taken from a failed installer's output. The
// download itself (the installer run, once, bounded) is tested with a stand-in package in
// tests/integration/host-start-electron.test.ts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DOWNLOAD_TIMEOUT_MS,
  downloadLine,
  downloadSkipped,
  downloadTarget,
  downloadTimeoutMs,
  electronPackage,
  failureReason,
  fallbackLine,
  installerEnv,
} from '../../src/main/host/electron-download';
import { chooseShell, parseLaunchOptions } from '../../src/main/host/launch-options';

describe('the electron package', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pmdesk-electron-pkg-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is one that installs itself when it has an install-electron bin (Electron 45)', async () => {
    expect(electronPackage(dir)).toBeUndefined();
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'electron', version: '45.4.1', bin: { electron: 'cli.js' } }),
    );
    expect(electronPackage(dir)).toBeUndefined();
    await writeFile(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'electron', version: '45.4.1', bin: { 'install-electron': 'install.js' } }),
    );
    expect(electronPackage(dir)).toBeUndefined(); // the bin's file is missing
    await writeFile(join(dir, 'install.js'), '');
    expect(electronPackage(dir)).toEqual({ dir, version: '45.4.1', installer: join(dir, 'install.js') });
    expect(
      downloadLine(electronPackage(dir)!, { ELECTRON_INSTALL_PLATFORM: 'darwin', ELECTRON_INSTALL_ARCH: 'arm64' }),
    ).toBe('Downloading Electron 45 for darwin-arm64 (about 100 MB), once…');
  });

  it('the package shipped in node_modules today is such a one', () => {
    expect(electronPackage(join('node_modules', 'electron'))).toMatchObject({
      version: expect.stringMatching(/^45\./),
    });
  });
});

describe('whether to download', () => {
  it("skips on ELECTRON_SKIP_BINARY_DOWNLOAD with any value but empty, 0 or false (npm's rule)", () => {
    for (const value of ['1', 'true', 'yes'])
      expect(downloadSkipped({ ELECTRON_SKIP_BINARY_DOWNLOAD: value })).toBe('ELECTRON_SKIP_BINARY_DOWNLOAD is set');
    for (const value of ['', '0', 'false', ' FALSE '])
      expect(downloadSkipped({ ELECTRON_SKIP_BINARY_DOWNLOAD: value })).toBeUndefined();
    expect(downloadSkipped({})).toBeUndefined();
  });

  it("the target Electron downloads for: its variables first, npm's next, then this machine", () => {
    expect(downloadTarget({}, 'linux', 'x64')).toBe('linux-x64');
    expect(downloadTarget({ npm_config_arch: 'arm64' }, 'linux', 'x64')).toBe('linux-arm64');
    expect(downloadTarget({ ELECTRON_INSTALL_PLATFORM: 'win32', npm_config_platform: 'darwin' }, 'linux', 'x64')).toBe(
      'win32-x64',
    );
  });

  it('is bounded: ten minutes, or PMDESK_ELECTRON_DOWNLOAD_TIMEOUT_MS when it is a whole number', () => {
    expect(DOWNLOAD_TIMEOUT_MS).toBe(600_000);
    expect(downloadTimeoutMs({})).toBe(600_000);
    expect(downloadTimeoutMs({ PMDESK_ELECTRON_DOWNLOAD_TIMEOUT_MS: '1500' })).toBe(1500);
    for (const bad of ['0', '-5', '1.5', 'soon'])
      expect(downloadTimeoutMs({ PMDESK_ELECTRON_DOWNLOAD_TIMEOUT_MS: bad })).toBe(600_000);
  });
});

describe('what the installer is told', () => {
  it('passes the mirror and cache through, turns proxy support on when a proxy is set, and its own progress bar off', () => {
    const env = installerEnv({
      ELECTRON_MIRROR: 'https://mirror.example/',
      electron_config_cache: '/cache',
      https_proxy: 'http://proxy:3128',
    });
    expect(env).toMatchObject({
      ELECTRON_MIRROR: 'https://mirror.example/',
      electron_config_cache: '/cache',
      ELECTRON_GET_USE_PROXY: 'true',
      ELECTRON_GET_NO_PROGRESS: '1',
    });
    expect(installerEnv({}).ELECTRON_GET_USE_PROXY).toBeUndefined();
    // The trader's own choice stands.
    expect(installerEnv({ HTTPS_PROXY: 'http://proxy:3128', ELECTRON_GET_USE_PROXY: '' }).ELECTRON_GET_USE_PROXY).toBe(
      '',
    );
  });
});

describe('why a download failed, in one line', () => {
  it("the error Electron's installer printed, not its stack", () => {
    const output = [
      'TypeError: fetch failed',
      '    at node:internal/deps/undici/undici:14976:13',
      '    at async FetchDownloader.download (file:///x/FetchDownloader.js:46:30)',
      '',
    ].join('\n');
    expect(failureReason(output, { code: 1, signal: null })).toBe('TypeError: fetch failed');
    expect(
      failureReason('HTTPError: Response code 404 (Not Found) for https://mirror.example/v45.4.1/electron.zip\n', {
        code: 1,
        signal: null,
      }),
    ).toMatch(/^HTTPError: Response code 404/);
    expect(fallbackLine('TypeError: fetch failed')).toBe(
      'Could not download Electron (TypeError: fetch failed): opening PM Desk in your browser instead.',
    );
  });

  it('an uncaught throw from node: the message, not the source line or its caret', () => {
    const output =
      "/x/install.js:3\nconst { downloadArtifact } = require('@electron/get');\n      ^\n\nError: Cannot find module '@electron/get'\nRequire stack:\n- /x/install.js\n    at Module._resolveFilename (node:internal)\n\nNode.js v20.20.2\n";
    expect(failureReason(output, { code: 1, signal: null })).toBe("Error: Cannot find module '@electron/get'");
  });

  it('the exit when the installer said nothing, and a clipped line when it said too much', () => {
    expect(failureReason('', { code: 3, signal: null })).toBe('the installer exited with code 3');
    expect(failureReason('', { code: null, signal: 'SIGKILL' })).toBe('the installer was stopped by SIGKILL');
    expect(failureReason(`Error: ${'x'.repeat(500)}`, { code: 1, signal: null })).toHaveLength(200);
  });
});

describe('the shell start opens', () => {
  it('the window with the binary found or fetched; browser mode with the reason otherwise, or with --browser', () => {
    expect(chooseShell(parseLaunchOptions([]), { binary: '/e/electron' })).toEqual({
      kind: 'electron',
      binary: '/e/electron',
    });
    expect(chooseShell(parseLaunchOptions([]), { reason: 'Electron could not be downloaded' })).toEqual({
      kind: 'browser',
      reason: 'Electron could not be downloaded',
    });
    expect(chooseShell(parseLaunchOptions(['--browser']), { binary: '/e/electron' })).toEqual({
      kind: 'browser',
      reason: '--browser was given',
    });
  });
});
