// The Electron security checklist items that the window factory and its guards decide, read without
// Electron: every web preference, navigation and window.open blocked, allowlisted https links only, every
// permission refused, only app:// (and https images) requested, the app:// protocol's answers and CSP.
import { EventEmitter } from 'node:events';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IMAGE_SOURCES, MARKET_IMAGE_HOSTS, contentSecurityPolicy } from '../../src/shared/csp';
import { hardenApp, type HookableApp, type LockableSession } from '../../src/main/app/hardening';
import { APP_CSP, appResponse } from '../../src/main/app/app-protocol';
import { guardContents, senderFromFrame, type GuardedContents } from '../../src/main/app/guards';
import { applicationMenu } from '../../src/main/app/menu';
import {
  APP_ORIGIN,
  isAllowedExternalLink,
  isAppUrl,
  mainWindowOptions,
  navigationDecision,
  permissionGranted,
  requestAllowed,
  secureWebPreferences,
} from '../../src/main/app/window-policy';

describe('the window factory', () => {
  it('isolates and sandboxes every window, with no Node, no webview and nothing loosened', () => {
    const options = mainWindowOptions({ preloadPath: '/app/out/preload/index.cjs', packaged: true });
    expect(options.webPreferences).toMatchObject({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      enableBlinkFeatures: '',
      navigateOnDragDrop: false,
      devTools: false,
    });
    expect(options.webPreferences).not.toHaveProperty('additionalArguments');
    expect(options.show).toBe(false);
    expect(mainWindowOptions({ preloadPath: 'p', packaged: false }).webPreferences?.devTools).toBe(true);
    expect(mainWindowOptions({ preloadPath: 'p', packaged: false, icon: '/app/out/renderer/icon.png' }).icon).toBe(
      '/app/out/renderer/icon.png',
    );
    expect(secureWebPreferences('p')).toEqual(mainWindowOptions({ preloadPath: 'p', packaged: false }).webPreferences);
  });

  it('is the only place a window is made: one `new BrowserWindow`, given mainWindowOptions', async () => {
    const files: string[] = [];
    const walk = async (dir: string) => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (/\.(ts|tsx|mts)$/.test(entry.name)) files.push(path);
      }
    };
    await walk('src');
    const made: string[] = [];
    for (const file of files) {
      for (const match of (await readFile(file, 'utf8')).matchAll(/new BrowserWindow\(([^)]*)/g))
        made.push(`${file}: ${match[1]!.replace(/\s+/g, ' ').trim()}`);
    }
    expect(made).toEqual([expect.stringMatching(/^src\/main\/app\/index\.ts: mainWindowOptions\(\{ preloadPath: /)]);
  });
});

class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }) {
    this.openHandler = handler;
  }
}
function preventable(url?: string) {
  const event = { prevented: false, url, preventDefault: () => void (event.prevented = true) };
  return event;
}

describe('navigation guards', () => {
  const guarded = () => {
    const contents = new FakeContents();
    const opened: string[] = [];
    guardContents(contents as unknown as GuardedContents, (url) => opened.push(url));
    return { contents, opened };
  };

  it('blocks every will-navigate and will-redirect; only allowlisted https links go to the browser', () => {
    const { contents, opened } = guarded();
    for (const name of ['will-navigate', 'will-redirect']) {
      for (const url of [
        'https://polymarket.com/event/x',
        'https://evil.example/',
        'http://polymarket.com/',
        'file:///etc/passwd',
        'app://pmdesk/other.html',
      ]) {
        const event = preventable(url);
        contents.emit(name, event, url);
        expect([name, url, event.prevented]).toEqual([name, url, true]);
      }
    }
    expect(opened).toEqual(['https://polymarket.com/event/x', 'https://polymarket.com/event/x']);
  });

  it('blocks sub-frame navigation away from the app and every webview', () => {
    const { contents } = guarded();
    const away = preventable('https://evil.example/');
    contents.emit('will-frame-navigate', away);
    expect(away.prevented).toBe(true);
    const webview = preventable();
    contents.emit('will-attach-webview', webview, {}, {});
    expect(webview.prevented).toBe(true);
  });

  it('window.open never opens a window', () => {
    const { contents, opened } = guarded();
    for (const url of [
      'https://polygonscan.com/tx/0x1',
      'https://evil.example',
      'javascript:alert(1)',
      'app://pmdesk/index.html',
      'about:blank',
    ]) {
      expect(contents.openHandler!({ url })).toEqual({ action: 'deny' });
    }
    expect(opened).toEqual(['https://polygonscan.com/tx/0x1']);
  });

  it.each([
    ['https://polymarket.com/', true],
    ['https://docs.polymarket.com/x', true],
    ['https://polygonscan.com/address/0x1', true],
    ['https://www.tradingview.com/', true],
    ['http://polymarket.com/', false],
    ['https://polymarket.com.evil.example/', false],
    ['https://evilpolymarket.com/', false],
    ['https://user:pw@polymarket.com/', false],
    ['https://polymarket.com:8443/', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
  ])('external link %s allowed: %s', (url, allowed) => {
    expect(isAllowedExternalLink(url)).toBe(allowed);
    expect('openExternally' in navigationDecision(url)).toBe(allowed);
  });
});

describe('permissions and requests', () => {
  it.each([
    'media',
    'geolocation',
    'notifications',
    'clipboard-read',
    'clipboard-sanitized-write',
    'hid',
    'serial',
    'usb',
    'openExternal',
    'fullscreen',
    'pointerLock',
  ])('refuses %s', (permission) => expect(permissionGranted(permission)).toBe(false));

  it.each([
    ['app://pmdesk/assets/index.js', 'script', true],
    ['data:image/png;base64,AAAA', 'image', true],
    ['https://polymarket-upload.s3.us-east-2.amazonaws.com/market-icon.png', 'image', true],
    // Any other image host would learn which markets the trader looks at.
    ['https://cdn.example/icon.png', 'image', false],
    ['https://polymarket-upload.s3.us-east-2.amazonaws.com.evil.example/x.png', 'image', false],
    ['http://polymarket-upload.s3.us-east-2.amazonaws.com/x.png', 'image', false],
    ['https://polymarket-upload.s3.us-east-2.amazonaws.com/x.js', 'script', false],
    ['https://evil.example/x.js', 'script', false],
    ['https://evil.example/api', 'xhr', false],
    ['http://127.0.0.1:4810/v1/events', 'xhr', false],
    ['ws://127.0.0.1:4830/bridge', 'webSocket', false],
    ['file:///etc/passwd', 'mainFrame', false],
    ['app://other/index.html', 'mainFrame', false],
  ])('a request for %s (%s) passes: %s', (url, type, allowed) => expect(requestAllowed(url, type)).toBe(allowed));
});

describe('the sender of an IPC request', () => {
  it('is the app only for an app:// top frame', () => {
    expect(senderFromFrame({ url: 'app://pmdesk/index.html', origin: 'null' }, true, 'w')).toEqual({
      origin: APP_ORIGIN,
      mainFrame: true,
      clientId: 'w',
    });
    expect(senderFromFrame({ url: 'app://pmdesk/index.html' }, false, 'w')).toMatchObject({
      origin: APP_ORIGIN,
      mainFrame: false,
    });
    expect(senderFromFrame({ url: 'https://evil.example/', origin: 'https://evil.example' }, true, 'w')).toMatchObject({
      origin: 'https://evil.example',
    });
    expect(senderFromFrame({ url: 'about:blank', origin: 'null' }, true, 'w')).toMatchObject({ origin: null });
    expect(senderFromFrame(null, true, 'w')).toEqual({ origin: null, mainFrame: false, clientId: 'w' });
    expect(isAppUrl('app://pmdesk.evil/x')).toBe(false);
  });
});

describe('the app:// protocol', () => {
  const dir = '/opt/pmdesk/out/renderer';
  it('serves renderer files with the CSP and security headers', () => {
    const answer = appResponse(dir, 'GET', 'app://pmdesk/');
    expect(answer).toMatchObject({ status: 200, file: `${dir}/index.html` });
    expect(answer.headers).toMatchObject({
      'Content-Security-Policy': APP_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Content-Type': 'text/html; charset=utf-8',
    });
    expect(APP_CSP).toBe(contentSecurityPolicy());
    expect(APP_CSP).toMatch(/default-src 'none'; script-src 'self';/);
    expect(APP_CSP).toContain("object-src 'none'");
    expect(APP_CSP).toContain("frame-ancestors 'none'");
    expect(APP_CSP).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|connect-src[^;]*(ws:|http:)/);
  });
  it("allows images only from the app, data: and the market sources' image hosts", () => {
    const imgSrc = APP_CSP.split('; ').find((d) => d.startsWith('img-src '));
    expect(imgSrc).toBe("img-src 'self' data: https://polymarket-upload.s3.us-east-2.amazonaws.com");
    expect(IMAGE_SOURCES).toEqual(["'self'", 'data:', ...MARKET_IMAGE_HOSTS.map((h) => `https://${h}`)]);
    // Browser mode sends the same img-src; the dev page's meta CSP says the same.
    expect(contentSecurityPolicy({ connectSrc: ['ws://127.0.0.1:4830'] })).toContain(imgSrc);
  });
  it('the renderer page says the same img-src as the headers', async () => {
    const html = await readFile('src/renderer/index.html', 'utf8');
    const meta = /Content-Security-Policy"\s+content="([^"]*)"/.exec(html)![1]!;
    expect(meta.split('; ').find((d) => d.startsWith('img-src '))).toBe(
      APP_CSP.split('; ').find((d) => d.startsWith('img-src ')),
    );
  });
  it('refuses other hosts, other methods and paths out of the folder', () => {
    expect(appResponse(dir, 'GET', 'app://other/index.html').status).toBe(403);
    expect(appResponse(dir, 'POST', 'app://pmdesk/index.html').status).toBe(405);
    // The URL parser folds encoded dots before we see the path: what is left stays inside the folder.
    expect(appResponse(dir, 'GET', 'app://pmdesk/%2e%2e/%2e%2e/etc/passwd')).toMatchObject({
      status: 200,
      file: `${dir}/etc/passwd`,
    });
    expect(appResponse(dir, 'GET', 'app://pmdesk/..%2f..%2fmain%2findex.js').status).toBe(404);
  });
});

describe('the menu', () => {
  const labels = (items: ReturnType<typeof applicationMenu>): string[] =>
    items.flatMap((i) => [String(i.role ?? i.label ?? i.type), ...(Array.isArray(i.submenu) ? labels(i.submenu) : [])]);
  it('has no devtools in a packaged build, and edit roles everywhere', () => {
    expect(labels(applicationMenu('linux', true))).not.toContain('toggleDevTools');
    expect(labels(applicationMenu('linux', false))).toContain('toggleDevTools');
    for (const platform of ['darwin', 'win32', 'linux'] as const)
      expect(labels(applicationMenu(platform, true))).toEqual(expect.arrayContaining(['copy', 'paste', 'quit']));
  });
});

/** A recording stand-in of Electron's session: every handler the app sets, kept to be called by the test. */
function recordingSession() {
  const set: Record<string, (...args: never[]) => unknown> = {};
  const session: LockableSession = {
    setPermissionRequestHandler: (handler) => void (set.permissionRequest = handler),
    setPermissionCheckHandler: (handler) => void (set.permissionCheck = handler),
    setDevicePermissionHandler: (handler) => void (set.devicePermission = handler),
    setDisplayMediaRequestHandler: (handler) => void (set.displayMedia = handler),
    webRequest: { onBeforeRequest: (listener) => void (set.beforeRequest = listener) },
  };
  return { session, set };
}

/** A page's web contents as the guards see them: listeners by event, and the window.open handler. */
class RecordingContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
}

describe("hardenApp: the wiring of every lock, on stand-ins of Electron's app and session", () => {
  const setup = () => {
    const { session, set } = recordingSession();
    const app = new EventEmitter();
    const opened: string[] = [];
    hardenApp({ app: app as unknown as HookableApp, session, openExternal: (url) => opened.push(url) });
    return { set, app, opened };
  };

  it('sets every session handler, and each refuses', () => {
    const { set } = setup();
    expect(Object.keys(set).sort()).toEqual([
      'beforeRequest',
      'devicePermission',
      'displayMedia',
      'permissionCheck',
      'permissionRequest',
    ]);
    for (const permission of ['media', 'notifications', 'clipboard-read', 'geolocation', 'openExternal']) {
      const answers: boolean[] = [];
      (set.permissionRequest as (c: unknown, p: string, cb: (g: boolean) => void) => void)({}, permission, (granted) =>
        answers.push(granted),
      );
      expect(answers).toEqual([false]);
      expect((set.permissionCheck as (c: unknown, p: string) => boolean)({}, permission)).toBe(false);
    }
    expect((set.devicePermission as (d: unknown) => boolean)({ deviceType: 'usb' })).toBe(false);
    const streams: unknown[] = [];
    (set.displayMedia as (r: unknown, cb: (s: unknown) => void) => void)({}, (s) => streams.push(s));
    expect(streams).toEqual([{}]);
  });

  it("cancels every request but the app's files, data: and market images", () => {
    const { set } = setup();
    const decide = (url: string, resourceType: string) => {
      const answers: { cancel: boolean }[] = [];
      (set.beforeRequest as (d: { url: string; resourceType: string }, cb: (r: { cancel: boolean }) => void) => void)(
        { url, resourceType },
        (r) => answers.push(r),
      );
      return answers;
    };
    expect(decide('app://pmdesk/index.html', 'mainFrame')).toEqual([{ cancel: false }]);
    expect(decide('https://polymarket-upload.s3.us-east-2.amazonaws.com/a.png', 'image')).toEqual([{ cancel: false }]);
    expect(decide('https://tracker.example/pixel.gif', 'image')).toEqual([{ cancel: true }]);
    expect(decide('https://evil.example/x.js', 'script')).toEqual([{ cancel: true }]);
    expect(decide('http://127.0.0.1:4811/book', 'xhr')).toEqual([{ cancel: true }]);
  });

  it('guards every web contents created: navigation, redirects, sub-frames, webviews and window.open', () => {
    const { app, opened } = setup();
    const contents = new RecordingContents();
    app.emit('web-contents-created', {}, contents);
    for (const event of ['will-navigate', 'will-redirect', 'will-frame-navigate', 'will-attach-webview'])
      expect(contents.listenerCount(event)).toBe(1);
    const prevented: string[] = [];
    const event = (url: string) => ({ url, preventDefault: () => prevented.push(url) });
    contents.emit('will-navigate', event('https://evil.example/'));
    contents.emit('will-redirect', event('https://polymarket.com/event/x'));
    contents.emit('will-frame-navigate', event('https://evil.example/frame'));
    contents.emit('will-frame-navigate', event('app://pmdesk/index.html'));
    contents.emit('will-attach-webview', event('about:blank'));
    expect(prevented).toEqual([
      'https://evil.example/',
      'https://polymarket.com/event/x',
      'https://evil.example/frame',
      'about:blank',
    ]);
    expect(contents.openHandler!({ url: 'https://polygonscan.com/tx/0x1' })).toEqual({ action: 'deny' });
    expect(contents.openHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    // Only allowlisted https links reach the browser; the window itself never leaves the app.
    expect(opened).toEqual(['https://polymarket.com/event/x', 'https://polygonscan.com/tx/0x1']);
    // A second page is guarded too: the hook runs for every contents, not only the first window.
    const second = new RecordingContents();
    app.emit('web-contents-created', {}, second);
    expect(second.openHandler).toBeDefined();
    expect(second.listenerCount('will-navigate')).toBe(1);
  });

  it('is what the app runs: index.ts calls hardenApp and sets no session handler of its own', async () => {
    const index = await readFile('src/main/app/index.ts', 'utf8');
    expect(index).toMatch(/hardenApp\(\{\s*app: app as unknown as HookableApp,\s*session: session\.defaultSession,/);
    expect(index).not.toMatch(/setPermission|onBeforeRequest|web-contents-created|guardContents/);
  });
});
