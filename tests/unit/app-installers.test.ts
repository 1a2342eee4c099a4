// electron-builder.yml: every installer target and every fuse as issue 7 asks, accepted by electron-builder's
// own configuration validator, with the notarize hook driven only by the environment.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
type Config = Record<string, unknown> & {
  electronFuses: Record<string, boolean>;
  win: { target: { target: string }[] };
  mac: Record<string, unknown> & { target: { target: string }[] };
  linux: { target: { target: string }[] };
  files: string[];
};
let config: Config;
beforeAll(async () => {
  config = parse(await readFile('electron-builder.yml', 'utf8')) as Config;
});

describe('electron-builder.yml', () => {
  it('sets every fuse: no RunAsNode, no NODE_OPTIONS, no inspect arguments; cookie encryption; asar integrity and asar only', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      loadBrowserProcessSpecificV8Snapshot: false,
    });
    expect(config.asar).toBe(true);
  });

  it('builds nsis for Windows, a hardened and notarized dmg for macOS, AppImage and deb for Linux', () => {
    expect(config.win.target.map((t) => t.target)).toEqual(['nsis']);
    expect(config.mac.target.map((t) => t.target)).toEqual(['dmg']);
    expect(config.linux.target.map((t) => t.target)).toEqual(['AppImage', 'deb']);
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(existsSync(String(config.mac.entitlements))).toBe(true);
    expect(config.afterSign).toBe('build/notarize.cjs');
  });

  it('rebuilds native modules for Electron and ships only the built app', () => {
    expect(config).toMatchObject({ npmRebuild: true, buildDependenciesFromSource: false, asarUnpack: ['**/*.node'] });
    expect(config.files).toEqual(
      expect.arrayContaining(['package.json', 'out/main/**', 'out/preload/**', 'out/renderer/**']),
    );
    expect(config.files.some((f) => f.startsWith('src'))).toBe(false);
  });

  it('is a configuration electron-builder itself accepts', async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration: (config: unknown, logger: unknown) => Promise<void>;
    };
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(
      validateConfiguration(
        { ...config, electronFuses: { ...config.electronFuses, runAsNod: false } },
        new DebugLogger(false),
      ),
    ).rejects.toThrow();
  });

  it('npm run dist builds then packages; the app entry is what the build writes', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { main: string; scripts: Record<string, string> };
    expect(pkg.scripts.dist).toBe('npm run build && electron-builder');
    expect(pkg.main).toBe('./out/main/index.js');
  });
});

describe('the notarize hook', () => {
  const { notarizeOptions } = require('../../build/notarize.cjs') as {
    notarizeOptions: (env: Record<string, string>) => unknown;
  };
  it('uses an App Store Connect API key, else an Apple ID, else skips', () => {
    expect(notarizeOptions({ APPLE_API_KEY: 'k.p8', APPLE_API_KEY_ID: 'id', APPLE_API_ISSUER: 'iss' })).toEqual({
      appleApiKey: 'k.p8',
      appleApiKeyId: 'id',
      appleApiIssuer: 'iss',
    });
    expect(notarizeOptions({ APPLE_ID: 'a@b.c', APPLE_APP_SPECIFIC_PASSWORD: 'pw', APPLE_TEAM_ID: 'T' })).toEqual({
      appleId: 'a@b.c',
      appleIdPassword: 'pw',
      teamId: 'T',
    });
    expect(notarizeOptions({ APPLE_ID: 'a@b.c' })).toBeNull();
    expect(notarizeOptions({})).toBeNull();
  });
});
