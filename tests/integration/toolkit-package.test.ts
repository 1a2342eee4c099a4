// @pmdesk/toolkit as a user gets it: the package is built and packed (`npm pack`), its tarball's files are
// listed, `npm publish --dry-run` is run, and the tarball is installed into a scratch project outside the
// repository. There, against a sandbox started here, a Node ESM script, a Node CommonJS script, a TypeScript
// program (typechecked against the published .d.ts, then run) and a Vite browser bundle in Chromium each read
// markets, place an order and cancel it; then every script of examples/ runs there too.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../helpers/browser';

const run = promisify(execFile);
const REPO = resolve(__dirname, '../..');
const PACKAGE_DIR = join(REPO, 'packages/toolkit');
const EXAMPLES_DIR = join(REPO, 'examples');
const TSC = join(REPO, 'node_modules/typescript/bin/tsc');
const NPM_QUIET = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}
/** What each scenario prints as its last line. */
interface Report {
  events: number;
  market: string;
  orderID: string;
  posted: string;
  live: string;
  canceled: string[];
  after: string;
  backend: string;
}

/**
 * The scenario every runtime runs, written once as JavaScript over the package's namespace (`tk`): read the
 * markets through the source the profile names, then place a small resting bid with the sandbox's funded test
 * wallet and cancel it, reading the order back at each step.
 */
const SCENARIO = `
async function scenario(tk, profileJson) {
  const profile = tk.parseNetworkProfile(profileJson);
  const source = tk.createMarketSource(profile);
  const events = await source.listEvents({ limit: 10 });
  const market = events.flatMap((e) => e.markets).find((m) => m.position_tokens.length === 2 && m.accepting_orders !== false && !m.closed);
  if (!market) throw new Error('no open market');
  const again = await source.getMarket('polymarket', market.id);
  const wallet = profileJson.testWallets[0];
  const signer = tk.privateKeySigner(wallet.privateKey);
  const base = { host: profile.clobUrl, chainId: profile.chainId, networks: [profile], throwOnError: true, logger: tk.silentLogger };
  const creds = await new tk.ClobClient({ ...base, signer }).createOrDeriveApiKey();
  const client = new tk.ClobClient({ ...base, signer, creds });
  const order = await client.createOrder({ tokenId: market.position_tokens[0].token_id, price: 0.05, size: 20, side: 'BUY' });
  const posted = await client.postOrder(order, { orderType: 'GTC' });
  const live = await client.getOrder(posted.orderID);
  const canceled = await client.cancelOrder(posted.orderID);
  const after = await client.getOrder(posted.orderID);
  return {
    events: events.length, market: again.question, orderID: posted.orderID, posted: posted.status, live: live.status,
    canceled: canceled.canceled, after: after.status, backend: tk.primitives.name,
  };
}
`;

let scratch: string;
let pack: PackResult;
let sandbox: RunningSandbox;
let profilePath: string;

async function node(args: string[], env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run(process.execPath, args, {
    cwd: scratch,
    env: { ...process.env, ...env },
    timeout: 90_000,
  });
  return stdout;
}
const lastJson = <T>(stdout: string): T => JSON.parse(stdout.trim().split('\n').at(-1)!) as T;

function expectPlacedAndCancelled(report: Report): void {
  expect(report.events).toBeGreaterThan(0);
  expect(report.market).toMatch(/\S/);
  expect(report.orderID).toMatch(/^0x[0-9a-f]{64}$/);
  expect(report.posted).toBe('live');
  expect(report.live).toBe('LIVE');
  expect(report.canceled).toEqual([report.orderID]);
  expect(report.after).toMatch(/^CANCELED$/);
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'pmdesk-toolkit-user-'));
  // `npm pack` runs the package's prepack (the build), as `npm publish` would.
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', scratch, '--loglevel=error'], {
    cwd: PACKAGE_DIR,
    timeout: 240_000,
  });
  pack = (JSON.parse(stdout) as PackResult[])[0]!;
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'toolkit-user', private: true }));
  const [sb] = await Promise.all([
    startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0 }, simulate: 'off', seed: 11 }),
    run('npm', ['install', join(scratch, pack.filename), ...NPM_QUIET], { cwd: scratch, timeout: 240_000 }),
  ]);
  sandbox = sb;
  profilePath = join(scratch, 'profile.json');
  writeFileSync(profilePath, JSON.stringify(sandbox.profile, null, 2));
}, 480_000);

afterAll(async () => {
  await sandbox?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds only the build, the readme, the changelog and the licence: no sources, tests, fixtures, keys or sandbox state', () => {
    const paths = pack.files.map((f) => f.path).sort();
    const outside = paths.filter((p) => !p.startsWith('dist/'));
    expect(outside).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json']);
    for (const p of paths) {
      expect(p).not.toMatch(/(^|\/)(src|tests?|fixtures?|sandbox|examples|node_modules)\//);
      expect(p).not.toMatch(/\.(test|spec)\.|\.env|keystore|\.pem$|\.key$|clob-state|market-fills|anvil/i);
      expect(p).toMatch(/\.(js|js\.map|d\.ts|json|md)$|^LICENSE$/);
    }
    for (const entry of [
      'dist/esm/index.js',
      'dist/esm/model.js',
      'dist/esm/aggregator-wire.js',
      'dist/cjs/index.js',
      'dist/types/index.d.ts',
      'dist/cjs/index.d.ts',
    ]) {
      expect(paths).toContain(entry);
    }
    // No private key of the sandbox (its deployer, test wallets) in any file of the package.
    const keys = sandbox.profile.testWallets.map((w) => w.privateKey.slice(2).toLowerCase());
    const installed = join(scratch, 'node_modules/@pmdesk/toolkit');
    for (const p of paths) {
      const text = readFileSync(join(installed, p), 'utf8').toLowerCase();
      for (const key of keys) expect(text.includes(key), `${p} holds a test key`).toBe(false);
    }
  });

  it('passes `npm publish --dry-run` with nothing but the login notice', async () => {
    const { stdout, stderr } = await run('npm', ['publish', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: PACKAGE_DIR,
      timeout: 60_000,
    });
    const answer = JSON.parse(stdout) as Record<string, { name: string; version: string; files: unknown[] }>;
    expect(answer['@pmdesk/toolkit']).toMatchObject({
      name: '@pmdesk/toolkit',
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
    });
    const complaints = stderr
      .split('\n')
      .filter((l) => /npm (warn|error)/i.test(l) && !/requires you to be logged in/.test(l));
    expect(complaints).toEqual([]);
  });

  it('declares a typed exports map, no side effects, and only runtime dependencies a browser can take', () => {
    const manifest = JSON.parse(
      readFileSync(join(scratch, 'node_modules/@pmdesk/toolkit/package.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(manifest.sideEffects).toBe(false);
    const exportsMap = manifest.exports as Record<string, { import: { types: string }; require: { types: string } }>;
    expect(Object.keys(exportsMap).sort()).toEqual(['.', './aggregator-wire', './model', './package.json']);
    expect(Object.keys(manifest.dependencies as object).sort()).toEqual([
      '@noble/hashes',
      'ethers',
      'eventsource',
      'zod',
    ]);
    // The Node-only fast paths are optional: an install without them still signs (pure JS).
    expect(Object.keys(manifest.optionalDependencies as object).sort()).toEqual(['keccak', 'secp256k1', 'ws']);
  });
});

describe('installed in a scratch project, against the sandbox', () => {
  it('a Node ESM script reads markets, places and cancels an order (native signing where the optional packages load)', async () => {
    writeFileSync(
      join(scratch, 'esm.mjs'),
      `import * as tk from '@pmdesk/toolkit';\nimport { readFileSync } from 'node:fs';\n${SCENARIO}\n` +
        `console.log(JSON.stringify(await scenario(tk, JSON.parse(readFileSync(process.env.PMDESK_PROFILE, 'utf8')))));\n`,
    );
    const report = lastJson<Report>(await node(['esm.mjs'], { PMDESK_PROFILE: profilePath }));
    expectPlacedAndCancelled(report);
    expect(report.backend).toMatch(/^native libsecp256k1/);
  });

  it('a Node CommonJS script does the same through require()', async () => {
    writeFileSync(
      join(scratch, 'cjs.cjs'),
      `const tk = require('@pmdesk/toolkit');\nconst { readFileSync } = require('node:fs');\nconst { PmDeskError } = require('@pmdesk/toolkit/model');\n${SCENARIO}\n` +
        `scenario(tk, JSON.parse(readFileSync(process.env.PMDESK_PROFILE, 'utf8'))).then((r) => console.log(JSON.stringify({ ...r, sameErrors: PmDeskError === tk.PmDeskError })));\n`,
    );
    const report = lastJson<Report & { sameErrors: boolean }>(await node(['cjs.cjs'], { PMDESK_PROFILE: profilePath }));
    expectPlacedAndCancelled(report);
    expect(report.sameErrors).toBe(true);
  });

  it('a TypeScript program typechecks against the published types (nodenext, strict, no Node types) and runs', async () => {
    writeFileSync(
      join(scratch, 'typed.ts'),
      `import { ClobClient, createMarketSource, parseNetworkProfile, privateKeySigner, silentLogger, type ApiCredentials, type PredictionEvent, type SignedOrder } from '@pmdesk/toolkit';
import { ErrorCode, PmDeskError, type Market } from '@pmdesk/toolkit/model';
import type { TradeRecord } from '@pmdesk/toolkit/aggregator-wire';
import profileJson from './profile.json' with { type: 'json' };

const profile = parseNetworkProfile(profileJson);
const events: PredictionEvent[] = await createMarketSource(profile).listEvents({ limit: 5 });
const market: Market | undefined = events.flatMap((e) => e.markets).find((m) => m.position_tokens.length === 2);
if (!market) throw new PmDeskError(ErrorCode.VALIDATION_ERROR, 'no market');
const signer = privateKeySigner(profileJson.testWallets[0]!.privateKey);
const base = { host: profile.clobUrl!, chainId: profile.chainId, networks: [profile], throwOnError: true, logger: silentLogger };
const creds = (await new ClobClient({ ...base, signer }).createOrDeriveApiKey()) as ApiCredentials;
const client = new ClobClient({ ...base, signer, creds });
const order = await client.createOrder({ tokenId: market.position_tokens[0]!.token_id, price: 0.05, size: 20, side: 'BUY' });
const signed: SignedOrder = order.signedOrder;
const posted = (await client.postOrder(order, { orderType: 'GTC' })) as { orderID: string; status: string };
const canceled = (await client.cancelOrder(posted.orderID)) as { canceled: string[] };
const last: TradeRecord | undefined = undefined;
// The types are real: a wrong argument is an error (an \`any\` would make this directive itself the error).
// @ts-expect-error the side is 'BUY' or 'SELL'
void client.createOrder({ tokenId: '1', price: 0.5, size: 1, side: 'HOLD' }).catch(() => undefined);
console.log(JSON.stringify({ signer: signed.signer, status: posted.status, canceled: canceled.canceled, orderID: posted.orderID, last: last ?? null }));
`,
    );
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noUncheckedIndexedAccess: true,
          resolveJsonModule: true,
          lib: ['ES2023', 'DOM'],
          types: [],
          outDir: 'ts-out',
          rootDir: '.',
          skipLibCheck: false,
        },
        files: ['typed.ts'],
      }),
    );
    // package.json "type": "module" so NodeNext reads typed.ts as ESM (top-level await, import attributes).
    writeFileSync(
      join(scratch, 'package.json'),
      JSON.stringify({ ...JSON.parse(readFileSync(join(scratch, 'package.json'), 'utf8')), type: 'module' }),
    );
    try {
      await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: scratch, timeout: 180_000 });
    } catch (error) {
      throw new Error(`tsc failed:\n${(error as { stdout?: string }).stdout ?? String(error)}`);
    }
    const report = lastJson<{ signer: string; status: string; canceled: string[]; orderID: string }>(
      await node(['ts-out/typed.js']),
    );
    expect(report.signer).toBe(sandbox.profile.testWallets[0]!.address);
    expect(report.status).toBe('live');
    expect(report.canceled).toEqual([report.orderID]);
  }, 240_000);

  it('a Vite browser bundle in Chromium reads markets, places and cancels an order with the pure-JS signer', async () => {
    writeFileSync(
      join(scratch, 'index.html'),
      '<!doctype html><html><body><script type="module" src="/main.js"></script></body></html>',
    );
    writeFileSync(
      join(scratch, 'main.js'),
      `import * as tk from '@pmdesk/toolkit';\nimport profile from './profile.json';\n${SCENARIO}\n` +
        `scenario(tk, profile).then((r) => { window.report = r; }, (e) => { window.report = { error: String(e && e.stack || e) }; });\n`,
    );
    const { build } = await import('vite');
    await build({
      root: scratch,
      configFile: false,
      logLevel: 'error',
      build: { outDir: 'web-dist', emptyOutDir: true },
    });
    const bundled = readdirSync(join(scratch, 'web-dist/assets')).filter((f) => f.endsWith('.js'));
    const code = bundled.map((f) => readFileSync(join(scratch, 'web-dist/assets', f), 'utf8')).join('\n');
    // Nothing of Node reached the bundle: no built-in import and no Buffer.
    expect(code).not.toMatch(/from\s*["']node:|require\(["'](node:)?(crypto|module|path|fs)["']\)/);

    const server = await serveDir(join(scratch, 'web-dist'));
    let browser: Browser | undefined;
    try {
      // The sandbox's servers send no CORS headers (Polymarket's public ones do); the page is let through instead.
      browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: [...CHROMIUM_ARGS, '--disable-web-security'],
      });
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await page.waitForFunction(
        () => (globalThis as unknown as { report?: unknown }).report !== undefined,
        undefined,
        { timeout: 60_000 },
      );
      const report = (await page.evaluate(() => (globalThis as unknown as { report: unknown }).report)) as Report & {
        error?: string;
      };
      expect(report.error).toBeUndefined();
      expect(errors).toEqual([]);
      expectPlacedAndCancelled(report);
      expect(report.backend).toMatch(/^pure-JS secp256k1/);
    } finally {
      await browser?.close();
      await new Promise((done) => server.close(done));
    }
  }, 180_000);

  it('every example in examples/ runs against the sandbox as a user would run it', async () => {
    const examples = readdirSync(EXAMPLES_DIR)
      .filter((f) => f.endsWith('.mjs'))
      .sort();
    expect(examples.length).toBeGreaterThanOrEqual(6);
    cpSync(EXAMPLES_DIR, join(scratch, 'examples'), { recursive: true });
    for (const example of examples) {
      let out: string;
      try {
        out = await node([join('examples', example)], { PMDESK_PROFILE: profilePath, PMDESK_EXAMPLE_QUICK: '1' });
      } catch (error) {
        throw new Error(`${example} failed:\n${(error as { stderr?: string }).stderr ?? String(error)}`);
      }
      // Each example ends by printing one JSON line whose `ok` says it did what it shows.
      expect(lastJson<{ ok: boolean }>(out), example).toMatchObject({ ok: true });
    }
  }, 300_000);
});

/** A static server for the built page. */
function serveDir(dir: string): Promise<Server> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json' };
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    try {
      const body = readFileSync(join(dir, path === '/' ? 'index.html' : path));
      res.writeHead(200, { 'content-type': types[extname(path || '.html')] ?? 'text/html' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}
