// `pmdesk wallet …` as a black box: the real CLI process (bundle built by `npm run build:cli`) on a real data
// folder, its real signer worker, passwords from PMDESK_PASSWORD or a real terminal (a pty from `script`).
import { spawn } from 'node:child_process';
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { HDNodeWallet, decryptKeystoreJson } from 'ethers';
import { DEV_PRIVATE_KEYS } from '../../sandbox/chain/anvil';
import { runPmdesk } from '../helpers/pmdesk-process';

const PASSWORD = 'correct horse battery staple';
const PHRASE = 'test test test test test test test test test test test junk';
const DEV_0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const DEV_1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const DEV_2 = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Every output of every run, to check at the end that no secret was ever printed. */
const printed: string[] = [];

async function pmdesk(args: string[], options: { env?: Record<string, string>; input?: string } = {}): Promise<Run> {
  const run = await runPmdesk(args, options);
  printed.push(run.stdout, run.stderr);
  return run;
}

/**
 * Runs pmdesk on a real terminal (a pty made by util-linux `script`) and types `answers` one by one, each
 * only once the prompt before it has appeared, so nothing is typed while the terminal still echoes.
 */
function pmdeskOnTerminal(
  args: string[],
  env: Record<string, string>,
  answers: [prompt: string, typed: string][],
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const command = ['node', 'bin/pmdesk.mjs', ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let seen = 0;
    const pending = [...answers];
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      while (pending.length > 0) {
        const at = stdout.indexOf(pending[0]![0], seen);
        if (at < 0) break;
        seen = at + pending[0]![0].length;
        child.stdin.write(`${pending.shift()![1]}\r`);
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      child.stdin.destroy();
      printed.push(stdout);
      resolve({ code, stdout, stderr: '' });
    });
  });
}

const json = (run: Run) => JSON.parse(run.stdout) as unknown;
const errorOf = (run: Run) => (JSON.parse(run.stderr.trim()) as { error: { code: string; message: string } }).error;

let dataDir: string;
let env: Record<string, string>;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-cli-wallet-'));
  env = { PMDESK_DATA_DIR: dataDir, PMDESK_PASSWORD: PASSWORD };
});

// Each test starts up to ten CLI processes, each with its own signer worker: slow on a loaded machine, never hung.
describe('pmdesk wallet, scripted (PMDESK_PASSWORD, secrets on stdin)', { timeout: 120_000 }, () => {
  it('create prints {label, address, mnemonic} once; list prints [{label, address}]', async () => {
    const created = await pmdesk(['wallet', 'create', '--label', 'Main', '--json'], { env });
    expect(created.code).toBe(0);
    const out = json(created) as { label: string; address: string; mnemonic: string };
    expect(Object.keys(out)).toEqual(['label', 'address', 'mnemonic']);
    expect(HDNodeWallet.fromPhrase(out.mnemonic).address).toBe(out.address);
    const list = await pmdesk(['wallet', 'list', '--json'], { env });
    expect(json(list)).toEqual([{ label: 'Main', address: out.address }]);
    expect(list.stdout).not.toContain(out.mnemonic.split(' ')[0]! + ' ' + out.mnemonic.split(' ')[1]);
  });

  it('imports from a phrase at an index, from a private key, and checks --address', async () => {
    const phrase = await pmdesk(
      ['wallet', 'import', '--label', 'Phrase', '--mnemonic-stdin', '--index', '1', '--json'],
      { env, input: `${PHRASE}\n` },
    );
    expect([phrase.code, json(phrase)]).toEqual([0, { label: 'Phrase', address: DEV_1 }]);
    const key = await pmdesk(['wallet', 'import', '--label', 'Key', '--private-key-stdin', '--json'], {
      env,
      input: DEV_PRIVATE_KEYS[2],
    });
    expect([key.code, json(key)]).toEqual([0, { label: 'Key', address: DEV_2 }]);
    const wrong = await pmdesk(
      ['wallet', 'import', '--label', 'Other', '--private-key-stdin', '--address', DEV_1, '--json'],
      { env, input: DEV_PRIVATE_KEYS[0] },
    );
    expect([wrong.code, errorOf(wrong).message]).toEqual([2, 'privateKey/address mismatch']);
    // --data-dir wins over PMDESK_DATA_DIR.
    const elsewhere = await mkdtemp(join(tmpdir(), 'pmdesk-cli-wallet-'));
    expect(json(await pmdesk(['wallet', 'list', '--data-dir', elsewhere, '--json'], { env }))).toEqual([]);
    expect(json(await pmdesk(['wallet', 'list', '--json'], { env }))).toEqual([
      { label: 'Key', address: DEV_2 },
      { label: 'Phrase', address: DEV_1 },
    ]);
  });

  it('exports a keystore (file 0600, or stdout) that imports back elsewhere; refuses bad files and passwords', async () => {
    await pmdesk(['wallet', 'import', '--label', 'Main', '--private-key-stdin'], { env, input: DEV_PRIVATE_KEYS[0] });
    const file = join(dataDir, 'main-keystore.json');
    const exported = await pmdesk(['wallet', 'export', 'Main', '--out', file], { env });
    expect(exported.code).toBe(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await pmdesk(['wallet', 'export', 'Main', '--out', file], { env })).code).toBe(2);
    const toStdout = await pmdesk(['wallet', 'export', 'Main'], { env });
    expect((await decryptKeystoreJson(toStdout.stdout, PASSWORD)).address).toBe(DEV_0);

    const other = { ...env, PMDESK_DATA_DIR: await mkdtemp(join(tmpdir(), 'pmdesk-cli-wallet-')) };
    const badPassword = await pmdesk(['wallet', 'import', '--label', 'Copy', '--keystore', file, '--json'], {
      env: { ...other, PMDESK_PASSWORD: 'not it at all' },
    });
    expect([badPassword.code, errorOf(badPassword)]).toEqual([
      1,
      { code: 'ERR_UNAUTHORIZED', message: 'invalid password', statusCode: null, methodName: null },
    ]);
    const garbage = join(dataDir, 'garbage.json');
    await writeFile(garbage, '{"version":3,"crypto":{}}');
    const notKeystore = await pmdesk(['wallet', 'import', '--label', 'Copy', '--keystore', garbage, '--json'], {
      env: other,
    });
    expect([notKeystore.code, errorOf(notKeystore).message]).toEqual([2, 'invalid JSON wallet']);
    const copied = await pmdesk(['wallet', 'import', '--label', 'Copy', '--keystore', file, '--json'], { env: other });
    expect([copied.code, json(copied)]).toEqual([0, { label: 'Copy', address: DEV_0 }]);
  });

  it('renames, unlocks with the right password only, and removes only with it', async () => {
    await pmdesk(['wallet', 'import', '--label', 'Main', '--private-key-stdin'], { env, input: DEV_PRIVATE_KEYS[0] });
    const renamed = await pmdesk(['wallet', 'rename', 'Main', 'Trading'], { env });
    expect([renamed.code, renamed.stdout]).toEqual([0, `Renamed "Main" to "Trading" (${DEV_0}).\n`]);
    const unlocked = await pmdesk(['wallet', 'unlock', 'trading', '--json'], { env });
    expect([unlocked.code, json(unlocked)]).toEqual([0, { label: 'Trading', address: DEV_0 }]);
    const wrong = await pmdesk(['wallet', 'unlock', 'Trading'], { env: { ...env, PMDESK_PASSWORD: 'nope nope nope' } });
    expect([wrong.code, wrong.stderr]).toEqual([1, 'pmdesk: [ERR_UNAUTHORIZED] invalid password\n']);
    const notRemoved = await pmdesk(['wallet', 'remove', 'Trading'], {
      env: { ...env, PMDESK_PASSWORD: 'nope nope nope' },
    });
    expect(notRemoved.code).toBe(1);
    expect(json(await pmdesk(['wallet', 'list', '--json'], { env }))).toHaveLength(1);
    const removed = await pmdesk(['wallet', 'remove', 'Trading', '--json'], { env });
    expect([removed.code, json(removed)]).toEqual([0, { label: 'Trading', address: DEV_0 }]);
    expect(json(await pmdesk(['wallet', 'list', '--json'], { env }))).toEqual([]);
    const missing = await pmdesk(['wallet', 'unlock', 'Trading', '--json'], { env });
    expect([missing.code, errorOf(missing).code]).toEqual([1, 'ERR_NOT_FOUND']);
  });

  it('remembers wrong passwords across runs: later runs wait before trying, and say why', async () => {
    await pmdesk(['wallet', 'import', '--label', 'Main', '--private-key-stdin'], { env, input: DEV_PRIVATE_KEYS[0] });
    const wrong = { ...env, PMDESK_PASSWORD: 'wrong password!' };
    for (let i = 0; i < 5; i++)
      expect((await pmdesk(['wallet', 'unlock', 'Main'], { env: wrong })).stderr).toBe(
        'pmdesk: [ERR_UNAUTHORIZED] invalid password\n',
      );
    // Two more wrong ones: the next right one owes 4 s from the last failure, far more than a process start.
    for (let i = 0; i < 2; i++) expect((await pmdesk(['wallet', 'unlock', 'Main'], { env: wrong })).code).toBe(1);
    const right = await pmdesk(['wallet', 'unlock', 'Main'], { env });
    expect(right.code).toBe(0);
    expect(right.stderr).toMatch(
      /^pmdesk: too many wrong passwords for this wallet; waiting [1-4] s before trying\.\n$/,
    );
    expect((await pmdesk(['wallet', 'unlock', 'Main'], { env })).stderr).toBe('');
  });

  it('throttles parallel processes too: wrong passwords guessed at once are counted, and later ones wait in turn', async () => {
    await pmdesk(['wallet', 'import', '--label', 'Main', '--private-key-stdin'], { env, input: DEV_PRIVATE_KEYS[0] });
    const wrong = { ...env, PMDESK_PASSWORD: 'wrong password!' };
    // Seven at once: five free, then the sixth and seventh each owe a wait after the one before (1 s, 2 s).
    const runs = await Promise.all(
      Array.from({ length: 7 }, () => pmdesk(['wallet', 'unlock', 'Main'], { env: wrong })),
    );
    expect(runs.map((r) => r.code)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    const waits = runs
      .flatMap((r) => [...r.stderr.matchAll(/waiting (\d+) s before trying/g)].map((m) => Number(m[1])))
      .sort();
    expect(waits).toEqual([1, 2]);
    // None was lost from the count: the right password now owes the eighth wait (4 s after the last failure).
    const right = await pmdesk(['wallet', 'unlock', 'Main'], { env });
    expect(right.code).toBe(0);
    expect(right.stderr).toMatch(/waiting [1-4] s before trying/);
  });

  it('exits 2 on invalid input, before anything is written', async () => {
    const noSource = await pmdesk(['wallet', 'import', '--label', 'X', '--json'], { env });
    expect([noSource.code, errorOf(noSource).code]).toEqual([2, 'ERR_INVALID_PARAM']);
    const twoSources = await pmdesk(['wallet', 'import', '--label', 'X', '--mnemonic-stdin', '--private-key-stdin'], {
      env,
      input: PHRASE,
    });
    expect(twoSources.code).toBe(2);
    expect((await pmdesk(['wallet', 'create', '--json'], { env })).code).toBe(2);
    const badPhrase = await pmdesk(['wallet', 'import', '--label', 'X', '--mnemonic-stdin', '--json'], {
      env,
      input: 'not a phrase at all',
    });
    expect([badPhrase.code, errorOf(badPhrase).message]).toEqual([
      2,
      'The recovery phrase is not a valid BIP-39 mnemonic.',
    ]);
    const shortPassword = await pmdesk(['wallet', 'create', '--label', 'X'], {
      env: { ...env, PMDESK_PASSWORD: 'short' },
    });
    expect([shortPassword.code, shortPassword.stderr]).toEqual([
      2,
      'pmdesk: [ERR_INVALID_PARAM] A wallet password is at least 8 characters.\n',
    ]);
    const noTerminal = await pmdesk(['wallet', 'unlock', 'X', '--json'], { env: { PMDESK_DATA_DIR: dataDir } });
    expect([noTerminal.code, errorOf(noTerminal).message]).toEqual([
      2,
      'No terminal to ask on: set PMDESK_PASSWORD (and pipe secrets in with --mnemonic-stdin or --private-key-stdin).',
    ]);
    expect(json(await pmdesk(['wallet', 'list', '--json'], { env }))).toEqual([]);
  });
});

describe('pmdesk wallet on a terminal', { timeout: 120_000 }, () => {
  it('asks for secrets and passwords without echoing them', async () => {
    const noPassword = { PMDESK_DATA_DIR: dataDir };
    const imported = await pmdeskOnTerminal(['wallet', 'import', '--label', 'Typed', '--private-key'], noPassword, [
      ['Private key: ', DEV_PRIVATE_KEYS[1]],
      ['New wallet password (8 characters or more): ', PASSWORD],
      ['The same password again: ', PASSWORD],
    ]);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain(`Imported "Typed" (${DEV_1}).`);
    const unlocked = await pmdeskOnTerminal(['wallet', 'unlock', 'Typed'], noPassword, [
      ['Password of "Typed": ', PASSWORD],
    ]);
    expect(unlocked.code).toBe(0);
    expect(unlocked.stdout).toContain('the password is right');
    const mismatch = await pmdeskOnTerminal(['wallet', 'create', '--label', 'New'], noPassword, [
      ['New wallet password (8 characters or more): ', PASSWORD],
      ['The same password again: ', `${PASSWORD}!`],
    ]);
    expect([mismatch.code, mismatch.stdout]).toEqual([2, expect.stringContaining('The two passwords differ.')]);
    // A taken label is refused before anything is asked.
    const taken = await pmdeskOnTerminal(['wallet', 'import', '--label', 'typed', '--mnemonic'], noPassword, []);
    expect(taken.code).toBe(2);
    expect(taken.stdout).toContain('A wallet is already labelled "Typed".');
    expect(taken.stdout).not.toContain('Recovery phrase:');
    for (const run of [imported, unlocked, mismatch]) {
      expect(run.stdout).not.toContain(PASSWORD);
      expect(run.stdout).not.toContain(DEV_PRIVATE_KEYS[1].slice(2, 20));
    }
  });
});

describe('what pmdesk wallet prints', () => {
  it('never held a password, a private key or an imported phrase, in any run above', () => {
    // Runs in file order, after the others: `printed` holds every stdout and stderr they produced.
    expect(printed.length).toBeGreaterThan(40);
    const all = printed.join('\n').toLowerCase();
    for (const secret of [PASSWORD, PHRASE, ...DEV_PRIVATE_KEYS.slice(0, 3).map((k) => k.slice(2, 26))])
      expect(all).not.toContain(secret.toLowerCase());
  });
});
