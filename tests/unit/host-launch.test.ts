// `npm start`'s flags and its choice of shell, the /bridge gate as a pure decision, and the renderer-file
// resolver browser mode serves from.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseShell, installedElectron, parseLaunchOptions } from '../../src/main/host/launch-options';
import { checkBridgeUpgrade, newLaunchToken } from '../../src/main/host/upgrade';
import { rendererFile } from '../../src/main/host/server';
import { readyLine } from '../../src/main/host/browser-mode';
import { logFileLine, sandboxLineGoesToFile, testWalletLines } from '../../src/main/host/launch-lines';

describe('npm start flags', () => {
  it('defaults: the shell it finds, a free port, open the browser, start the sandbox read through Polymarket direct', () => {
    expect(parseLaunchOptions([])).toEqual({ browser: false, port: 0, open: true, source: 'polymarket', help: false });
  });
  it('takes --source aggregator (or polymarket), and refuses any other source', () => {
    expect(parseLaunchOptions(['--source', 'aggregator'])).toMatchObject({ source: 'aggregator' });
    expect(parseLaunchOptions(['--source=polymarket'])).toMatchObject({ source: 'polymarket' });
    expect(() => parseLaunchOptions(['--source', 'kalshi'])).toThrow(
      '--source takes polymarket or aggregator, not kalshi.',
    );
  });
  it('honours --browser, --port N, --port=N, --no-open and --profile FILE', () => {
    expect(parseLaunchOptions(['--browser', '--port', '4900', '--no-open', '--profile', 'p.json'])).toEqual({
      browser: true,
      port: 4900,
      open: false,
      profile: 'p.json',
      source: 'polymarket',
      help: false,
    });
    expect(parseLaunchOptions(['--port=0', '--profile=x.json'])).toMatchObject({ port: 0, profile: 'x.json' });
  });
  it.each([
    [['--port']],
    [['--port', 'abc']],
    [['--port', '70000']],
    [['--port', '-1']],
    [['--profile']],
    [['--source']],
    [['--electron']],
    [['stray']],
  ])('refuses %j with a code', (argv) => {
    expect(() => parseLaunchOptions(argv)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_PARAM' }));
  });
  it('prints the ready line exactly', () => {
    expect(readyLine('http://127.0.0.1:4830/#token=abc')).toBe(
      'PM Desk is running at http://127.0.0.1:4830/#token=abc',
    );
  });
});

describe('which shell', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pmdesk-electron-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('browser mode when the electron package has no binary (ELECTRON_SKIP_BINARY_DOWNLOAD)', async () => {
    expect(installedElectron(dir, {})).toBeUndefined();
    await writeFile(join(dir, 'path.txt'), 'electron');
    expect(installedElectron(dir, {})).toBeUndefined();
    expect(chooseShell(parseLaunchOptions([]), undefined)).toEqual({
      kind: 'browser',
      reason: 'the Electron binary is not installed',
    });
  });
  it('the Electron window when the binary is there, unless --browser', async () => {
    await mkdir(join(dir, 'dist'), { recursive: true });
    await writeFile(join(dir, 'dist', 'electron'), '');
    const binary = installedElectron(dir, {});
    expect(binary).toBe(join(dir, 'dist', 'electron'));
    expect(chooseShell(parseLaunchOptions([]), binary)).toEqual({ kind: 'electron', binary });
    expect(chooseShell(parseLaunchOptions(['--browser']), binary)).toMatchObject({ kind: 'browser' });
  });
});

describe('the /bridge gate', () => {
  const token = newLaunchToken();
  const appOrigin = 'http://127.0.0.1:4830';
  const ok = { host: '127.0.0.1:4830', origin: appOrigin };
  it('a fresh random token each launch', () => {
    expect(newLaunchToken()).not.toBe(token);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
  it('accepts only path, Host, Origin and token together', () => {
    expect(checkBridgeUpgrade({ url: `/bridge?token=${token}`, headers: ok }, { token, appOrigin })).toEqual({
      ok: true,
    });
    expect(checkBridgeUpgrade({ url: `/bridge?token=${token}x`, headers: ok }, { token, appOrigin })).toMatchObject({
      status: 401,
    });
    expect(checkBridgeUpgrade({ url: '/bridge', headers: ok }, { token, appOrigin })).toMatchObject({ status: 401 });
    expect(
      checkBridgeUpgrade(
        { url: `/bridge?token=${token}`, headers: { ...ok, origin: undefined } },
        { token, appOrigin },
      ),
    ).toMatchObject({ status: 403 });
    expect(
      checkBridgeUpgrade(
        { url: `/bridge?token=${token}`, headers: { ...ok, host: 'rebind.example:4830' } },
        { token, appOrigin },
      ),
    ).toMatchObject({
      status: 403,
    });
    expect(checkBridgeUpgrade({ url: `/other?token=${token}`, headers: ok }, { token, appOrigin })).toMatchObject({
      status: 404,
    });
    expect(checkBridgeUpgrade({ url: undefined, headers: ok }, { token, appOrigin })).toMatchObject({ status: 404 });
  });
});

describe('renderer files', () => {
  const root = join(tmpdir(), 'renderer-root');
  it('maps / to index.html and paths inside the folder', () => {
    expect(rendererFile(root, '/')).toBe(join(root, 'index.html'));
    expect(rendererFile(root, '/assets/index-1.js?v=1')).toBe(join(root, 'assets', 'index-1.js'));
  });
  it.each(['/../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/..%2f..%2fetc/passwd', '/a/%00', '/%E0%A4%A'])(
    'refuses %s',
    (path) => {
      expect(rendererFile(root, path)).toBeNull();
    },
  );
});

describe('what npm start says about the sandbox', () => {
  const wallet = { address: '0x' + '1'.repeat(40), privateKey: '0x' + 'a'.repeat(64) };
  it('names the funded test wallet and how to use it, and nothing for a profile without one', () => {
    expect(
      testWalletLines({ testWallets: [wallet, { address: '0x' + '2'.repeat(40), privateKey: '0x' + 'b'.repeat(64) }] }),
    ).toEqual([
      `Sandbox test wallet, funded on this sandbox only: ${wallet.address}`,
      `  In the app: Wallet menu → “Use the sandbox test wallet” (you choose its password). Or import its private key: ${wallet.privateKey}`,
    ]);
    expect(testWalletLines({ name: 'polymarket' })).toEqual([]);
    expect(testWalletLines({ testWallets: [] })).toEqual([]);
  });
  it("sends the bots' refusals to the log file and everything else to the screen", () => {
    expect(sandboxLineGoesToFile('simulator: bot 2 order refused: not enough balance')).toBe(true);
    expect(sandboxLineGoesToFile('market simulator: 4 bots trading')).toBe(false);
    expect(sandboxLineGoesToFile('CLOB listening at http://127.0.0.1:4810')).toBe(false);
    expect(logFileLine('/tmp/x.log')).toBe("sandbox: the market bots' refused orders are written to /tmp/x.log");
  });
});
