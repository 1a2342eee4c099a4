// The real Electron app launched with Playwright's `_electron`: the hardening hardenApp wires is what the running
// window does — permissions refused, navigation and window.open kept in the app, the CSP's img-src limited to
// the market image hosts. Where the Electron binary is not installed (ELECTRON_SKIP_BINARY_DOWNLOAD, as on CI
// machines without a display), the test says so and is skipped; the wiring itself is tested on stand-ins in
// tests/unit/app-window.test.ts everywhere.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { IMAGE_SOURCES } from '../../src/shared/csp';

/**
 * The Electron executable, found the way node_modules/electron/index.js finds it but without ever downloading
 * it (requiring 'electron' would try to): undefined when it is not installed.
 */
function electronBinary(): string | undefined {
  const dir = join('node_modules', 'electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const executable = readFileSync(pathFile, 'utf8').trim();
  const full = process.env.ELECTRON_OVERRIDE_DIST_PATH
    ? join(process.env.ELECTRON_OVERRIDE_DIST_PATH, executable)
    : join(dir, 'dist', executable);
  return existsSync(full) ? full : undefined;
}

const binary = electronBinary();
const hasBinary = binary !== undefined;
if (!hasBinary) {
  console.warn(
    'app-electron.test.ts: skipped — the Electron binary is not installed (node_modules/electron has no dist; ELECTRON_SKIP_BINARY_DOWNLOAD). The wiring is tested on stand-ins in tests/unit/app-window.test.ts.',
  );
}

describe('the real Electron app', () => {
  let app: ElectronApplication | undefined;
  afterAll(async () => {
    await app?.close();
  });

  it.skipIf(!hasBinary)(
    'refuses permissions, keeps navigation and window.open in the app, limits images to the market hosts',
    async () => {
      // The app as `npm start` builds it; a profile on loopback ports where nothing listens: no real host is contacted.
      if (!existsSync('out/main/index.js'))
        execFileSync(process.execPath, ['node_modules/electron-vite/bin/electron-vite.js', 'build'], {
          stdio: 'inherit',
        });
      const dir = await mkdtemp(join(tmpdir(), 'pmdesk-electron-'));
      const profile = join(dir, 'profile.json');
      await writeFile(
        profile,
        JSON.stringify({
          name: 'sandbox',
          chainId: 31338,
          source: 'polymarket',
          rpcUrl: 'http://127.0.0.1:9',
          clobUrl: 'http://127.0.0.1:9',
          gammaUrl: 'http://127.0.0.1:9',
          dataUrl: 'http://127.0.0.1:9',
          orderVersion: 2,
          contracts: {},
        }),
      );
      app = await _electron.launch({
        executablePath: binary,
        args: ['.', `--pmdesk-profile=${profile}`],
        env: { ...process.env, PMDESK_DATA_DIR: dir } as Record<string, string>,
      });
      const page: Page = await app.firstWindow();
      await page.waitForLoadState('domcontentloaded');
      expect(page.url()).toBe('app://pmdesk/index.html');

      // Page-side code as strings: this file is typed for Node, the page runs in the renderer.
      expect(await page.evaluate<string>('Notification.requestPermission()')).toBe('denied');
      expect(await page.evaluate<boolean>("window.open('https://example.invalid/') === null")).toBe(true);
      await page.evaluate("void (window.location.href = 'https://example.invalid/')");
      await page.waitForTimeout(300);
      expect(page.url()).toBe('app://pmdesk/index.html');

      // The document's CSP, read back through a violation: an image from another host is refused.
      const violation = await page.evaluate<string>(`new Promise((resolve) => {
      document.addEventListener('securitypolicyviolation', (e) => resolve(e.originalPolicy), { once: true });
      const img = document.createElement('img');
      img.src = 'https://images.example.invalid/market.png';
      document.body.append(img);
    })`);
      expect(violation).toContain(`img-src ${IMAGE_SOURCES.join(' ')}`);
    },
    120_000,
  );
});
