#!/usr/bin/env node
// `npm start`: builds the app, starts the local sandbox (or reads --profile FILE), then opens the Electron
// window — downloading Electron's binary once, through Electron's own installer, the first time it is missing —
// or, when it cannot (ELECTRON_SKIP_BINARY_DOWNLOAD, offline) or with --browser, serves the same app in browser
// mode on 127.0.0.1 and prints `PM Desk is running at http://127.0.0.1:N/#token=…`. The app reads the sandbox's
// markets the way it reads Polymarket's (Gamma, Data API, CLOB) unless started with `--source aggregator`.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
const load = (path) => tsImport(join(root, path), import.meta.url);
const say = (line) => process.stderr.write(`${line}\n`);

const { parseLaunchOptions, chooseShell, LAUNCH_USAGE } = await load('src/main/host/launch-options.ts');
const { electronForStart } = await load('src/main/host/electron-download.ts');
const { testWalletLines, sandboxLineGoesToFile, logFileLine } = await load('src/main/host/launch-lines.ts');
let options;
try {
  options = parseLaunchOptions(process.argv.slice(2));
} catch (error) {
  say(error.detail ?? error.message);
  process.exit(2);
}
if (options.help) {
  console.log(LAUNCH_USAGE);
  process.exit(0);
}

// PMDESK_ELECTRON_DIR: another electron package folder (the tests' stand-in package).
const electronDir = process.env.PMDESK_ELECTRON_DIR || join(root, 'node_modules', 'electron');
const shell = chooseShell(
  options,
  options.browser ? undefined : await electronForStart(electronDir, { env: process.env, say }),
);

// One build for both shells (about two seconds): main, preload and the renderer into out/.
say('Building PM Desk…');
const built = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build', '--logLevel', 'warn'],
  {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
if (built.status !== 0) {
  say('The build failed; see the errors above.');
  process.exit(1);
}

let sandbox;
let profile;
if (options.profile) {
  try {
    profile = JSON.parse(readFileSync(options.profile, 'utf8'));
  } catch (error) {
    say(`Cannot read the network profile ${options.profile}: ${error.message}`);
    process.exit(2);
  }
} else {
  say(
    `Starting the local sandbox exchange (chain, exchange, ${options.source === 'aggregator' ? 'aggregator' : "Polymarket's market-data APIs"})…`,
  );
  const { startSandbox } = await load('sandbox/index.ts');
  try {
    // The bots' refused orders go to a log file: on the screen they would bury the URL to copy.
    const logFile = join(tmpdir(), 'pmdesk-sandbox.log');
    let toldLogFile = false;
    writeFileSync(logFile, '');
    const log = (line) => {
      if (!sandboxLineGoesToFile(line)) return say(`sandbox: ${line}`);
      appendFileSync(logFile, `${new Date().toISOString()} ${line}\n`);
      if (!toldLogFile) say(logFileLine(logFile));
      toldLogFile = true;
    };
    sandbox = await startSandbox({ source: options.source, log });
  } catch (error) {
    say(`The local sandbox did not start: ${error.detail ?? error.message}`);
    process.exit(1);
  }
  profile = sandboxProfile(sandbox.profile, options.source);
}

/**
 * The sandbox's profile naming the source asked for. A sandbox that serves no Gamma or Data API (one from before
 * it did) can only be read through its aggregator: said once, and the app reads that.
 */
function sandboxProfile(written, source) {
  if (source === 'polymarket' && !(written.gammaUrl && written.dataUrl)) {
    say(
      'This sandbox serves no Gamma or Data API: reading its markets through its aggregator instead (as with --source aggregator).',
    );
    return { ...written, source: 'aggregator' };
  }
  return { ...written, source };
}

const cleanups = [];
let stopping = false;
async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  await sandbox?.stop().catch(() => {});
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

if (shell.kind === 'electron') {
  // The profile travels as a private file (a sandbox profile holds its test wallets' keys).
  const dir = mkdtempSync(join(tmpdir(), 'pmdesk-profile-'));
  const file = join(dir, 'profile.json');
  writeFileSync(file, JSON.stringify(profile), { mode: 0o600 });
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  for (const line of testWalletLines(profile)) say(line);
  say('Opening the PM Desk window…');
  const opened = Date.now();
  const child = spawn(shell.binary, [root, `--pmdesk-profile=${file}`], { stdio: 'inherit' });
  cleanups.push(async () => void child.kill());
  child.on('error', (error) => {
    say(
      `The PM Desk window could not be started (${error.message}). \`npm start -- --browser\` opens PM Desk in your browser.`,
    );
    void stopAll(1);
  });
  child.on('exit', (code, signal) => {
    // A window that fails at once (on Linux, most often Chromium's sandbox helper: see the README's troubleshooting).
    if (!stopping && code !== 0 && Date.now() - opened < 15_000) {
      say(
        `The PM Desk window closed at once (${signal ?? `exit code ${code}`}). \`npm start -- --browser\` opens PM Desk in your browser; the README's Troubleshooting says more.`,
      );
    }
    void stopAll(code ?? 0);
  });
} else {
  say(`Browser mode: ${shell.reason}.`);
  const { startBrowserMode, openInBrowser } = await load('src/main/host/browser-mode.ts');
  let mode;
  try {
    // Warnings (no keychain, a feed that closed) as one plain line each on stderr; never an object dump.
    const logger = {
      debug() {},
      warn: (message) => say(`PM Desk: ${message}`),
      error: (message) => say(`PM Desk: ${message}`),
    };
    mode = await startBrowserMode({ profile, rendererDir: join(root, 'out', 'renderer'), port: options.port, logger });
  } catch (error) {
    say(`PM Desk did not start: ${error.detail ?? error.message}`);
    await stopAll(1);
  }
  cleanups.push(() => mode.stop());
  for (const line of testWalletLines(profile)) say(line);
  console.log(mode.readyLine);
  if (options.open && !(await openInBrowser(mode.host.launchUrl)))
    say('No browser could be opened here: open the URL above.');
}
