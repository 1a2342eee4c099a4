// A stand-in for the electron npm package, for testing `npm start`'s first download without the internet: the
// same package.json shape as Electron 45 (an `install-electron` bin, no install script), an installer that
// succeeds, fails or hangs as the test says (STANDIN_ELECTRON_INSTALL=ok|fail|hang), and a "binary" that records
// how it was launched and stays up until it is stopped, like the window would.
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const INSTALLER = String.raw`#!/usr/bin/env node
const fs = require('fs');
const path = require('path');
fs.appendFileSync(path.join(__dirname, 'installer-runs.log'), JSON.stringify({ pid: process.pid, env: { ELECTRON_GET_USE_PROXY: process.env.ELECTRON_GET_USE_PROXY ?? null, ELECTRON_MIRROR: process.env.ELECTRON_MIRROR ?? null } }) + '\n');
const mode = process.env.STANDIN_ELECTRON_INSTALL || 'ok';
if (mode === 'hang') {
  setInterval(() => {}, 1000);
} else if (mode === 'fail') {
  // What Electron's installer prints when it cannot reach the mirror: an error's stack, exit 1.
  console.error(new TypeError('fetch failed (getaddrinfo ENOTFOUND mirror.invalid)').stack);
  process.exit(1);
} else {
  fs.mkdirSync(path.join(__dirname, 'dist'), { recursive: true });
  const binary = path.join(__dirname, 'dist', 'electron');
  fs.writeFileSync(binary, BINARY, { mode: 0o755 });
  fs.writeFileSync(path.join(__dirname, 'dist', 'version'), 'v45.4.1');
  fs.writeFileSync(path.join(__dirname, 'path.txt'), 'electron');
}
`;

const BINARY = String.raw`#!/usr/bin/env node
const fs = require('fs');
const path = require('path');
fs.appendFileSync(path.join(__dirname, '..', 'launches.log'), JSON.stringify({ pid: process.pid, args: process.argv.slice(2) }) + '\n');
setInterval(() => {}, 1000);
`;

export interface StandInElectron {
  dir: string;
  /** Each installer run: its pid and the download settings it saw. */
  installerRuns(): Promise<{ pid: number; env: Record<string, string | null> }[]>;
  /** Each launch of the stand-in binary: its pid and arguments. */
  launches(): Promise<{ pid: number; args: string[] }[]>;
}

const lines = async <T>(file: string): Promise<T[]> => {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
};

export async function standInElectron(): Promise<StandInElectron> {
  const dir = await mkdtemp(join(tmpdir(), 'pmdesk-electron-standin-'));
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'electron',
      version: '45.4.1',
      main: 'index.js',
      bin: { electron: 'cli.js', 'install-electron': 'install.js' },
    }),
  );
  await writeFile(join(dir, 'install.js'), INSTALLER.replace('BINARY', JSON.stringify(BINARY)));
  await chmod(join(dir, 'install.js'), 0o755);
  return {
    dir,
    installerRuns: () => lines(join(dir, 'installer-runs.log')),
    launches: () => lines(join(dir, 'launches.log')),
  };
}
