// Fetching the Electron binary the first time `npm start` needs it. Electron 45's npm package no longer downloads
// its binary at `npm ci` (it has no install script); it exposes its installer as the `install-electron` bin and
// downloads on first `require`. Start runs that installer itself, once, bounded in time, so a trader's first
// `npm start` opens the desktop window, and a machine that cannot download it still gets the terminal in a browser.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installedElectron } from './launch-options';

/** What the installed electron npm package says about itself. */
export interface ElectronPackage {
  dir: string;
  version: string;
  /** Its installer script (the package's `install-electron` bin). */
  installer: string;
}

/** How long the first download may take before start gives up on it and opens browser mode. */
export const DOWNLOAD_TIMEOUT_MS = 10 * 60_000;
/** How often a download that is still running says so. */
export const PROGRESS_EVERY_MS = 30_000;

/**
 * The electron package in `dir`, or undefined when it is not installed (or is one that cannot install itself:
 * no installer bin, as before Electron 45, where `npm ci` did the download).
 */
export function electronPackage(dir: string): ElectronPackage | undefined {
  let manifest: { version?: unknown; bin?: unknown };
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as typeof manifest;
  } catch {
    return undefined;
  }
  const bin =
    manifest.bin && typeof manifest.bin === 'object'
      ? (manifest.bin as Record<string, unknown>)['install-electron']
      : undefined;
  if (typeof manifest.version !== 'string' || typeof bin !== 'string') return undefined;
  const installer = join(dir, bin);
  return existsSync(installer) ? { dir, version: manifest.version, installer } : undefined;
}

/**
 * Why the binary must not be downloaded, or undefined when it may be. npm's own rule for the variable: any value
 * but empty, "0" or "false" skips.
 */
export function downloadSkipped(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.ELECTRON_SKIP_BINARY_DOWNLOAD?.trim().toLowerCase();
  if (value && value !== '0' && value !== 'false') return 'ELECTRON_SKIP_BINARY_DOWNLOAD is set';
  return undefined;
}

/** The platform and architecture Electron's installer downloads for (it reads the same variables). */
export function downloadTarget(
  env: NodeJS.ProcessEnv,
  platform: string = process.platform,
  arch: string = process.arch,
): string {
  return `${env.ELECTRON_INSTALL_PLATFORM || env.npm_config_platform || platform}-${env.ELECTRON_INSTALL_ARCH || env.npm_config_arch || arch}`;
}

/** The line said before the download starts. */
export function downloadLine(pkg: ElectronPackage, env: NodeJS.ProcessEnv): string {
  return `Downloading Electron ${pkg.version.split('.')[0]} for ${downloadTarget(env)} (about 100 MB), once…`;
}

/** The line said when the download failed, before browser mode starts. */
export const fallbackLine = (reason: string) =>
  `Could not download Electron (${reason}): opening PM Desk in your browser instead.`;

/** The download timeout from PMDESK_ELECTRON_DOWNLOAD_TIMEOUT_MS (a whole number of milliseconds), else the default. */
export function downloadTimeoutMs(env: NodeJS.ProcessEnv): number {
  const text = env.PMDESK_ELECTRON_DOWNLOAD_TIMEOUT_MS?.trim();
  return text && /^\d+$/.test(text) && Number(text) > 0 ? Number(text) : DOWNLOAD_TIMEOUT_MS;
}

/**
 * The installer's environment: the caller's (ELECTRON_MIRROR, electron_config_cache, the checksum settings all pass
 * through as they are), with proxy support switched on when a proxy is configured — Electron's downloader only
 * reads HTTP(S)_PROXY when ELECTRON_GET_USE_PROXY is set — and its own progress bar off (its output is read here,
 * not shown).
 */
export function installerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const proxied = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'].some((name) => env[name]);
  return {
    ...env,
    ...(proxied && env.ELECTRON_GET_USE_PROXY === undefined ? { ELECTRON_GET_USE_PROXY: 'true' } : {}),
    ELECTRON_GET_NO_PROGRESS: '1',
  };
}

/**
 * The one line that says why an installer failed, from what it printed: its error's first line (Node prints an
 * uncaught error's message, then `    at …` frames), else the exit.
 */
export function failureReason(output: string, exit: { code: number | null; signal: NodeJS.Signals | null }): string {
  const lines = output
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('at ') && !/^\^+$/.test(line) && !/^Node\.js v\d/.test(line));
  const error = lines.find((line) => /^[A-Za-z]*Error\b|^Error:/.test(line)) ?? lines.at(-1);
  const exitText = exit.signal
    ? `the installer was stopped by ${exit.signal}`
    : `the installer exited with code ${exit.code}`;
  return error ? clip(error) : exitText;
}

const duration = (ms: number) => (ms < 60_000 ? `${Math.round(ms / 100) / 10} s` : `${Math.round(ms / 60_000)} min`);
const clip = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text);

export type DownloadResult = { ok: true } | { ok: false; reason: string };

export interface DownloadOptions {
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  progressEveryMs?: number;
  /** Progress lines ("Still downloading Electron… 30 s"). */
  say?: (line: string) => void;
}

/**
 * Runs Electron's own installer (the `install-electron` bin: its mirror, cache, checksums and proxy settings)
 * and waits for it, at most `timeoutMs`; a hung installer is killed. Resolves, never rejects.
 */
export function downloadElectron(pkg: ElectronPackage, options: DownloadOptions = {}): Promise<DownloadResult> {
  const env = options.env ?? process.env;
  const timeoutMs = options.timeoutMs ?? downloadTimeoutMs(env);
  const everyMs = options.progressEveryMs ?? PROGRESS_EVERY_MS;
  return new Promise((resolve) => {
    let output = '';
    const keep = (chunk: Buffer) => {
      // The last 16 KiB is plenty to find the error in; an installer that prints endlessly cannot fill memory.
      output = (output + chunk.toString('utf8')).slice(-16_384);
    };
    const started = Date.now();
    let child;
    try {
      child = spawn(process.execPath, [pkg.installer], {
        cwd: pkg.dir,
        env: installerEnv(env),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      resolve({ ok: false, reason: clip((error as Error).message) });
      return;
    }
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const progress = setInterval(
      () => options.say?.(`Still downloading Electron… ${Math.round((Date.now() - started) / 1000)} s`),
      everyMs,
    );
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      // An installer that ignores SIGTERM is not waited for either.
      setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
    }, timeoutMs);
    const done = (result: DownloadResult) => {
      clearInterval(progress);
      clearTimeout(timer);
      resolve(result);
    };
    child.once('error', (error) => done({ ok: false, reason: clip(error.message) }));
    child.once('close', (code, signal) => {
      if (timedOut) return done({ ok: false, reason: `it took longer than ${duration(timeoutMs)}` });
      if (code === 0) return done({ ok: true });
      done({ ok: false, reason: failureReason(output, { code, signal }) });
    });
  });
}

export type ElectronForStart = { binary: string } | { reason: string };

/**
 * The Electron binary to open the window with, fetched first when it is missing (and may be fetched); or why
 * there is none, for browser mode's line. Says what it does on `say`.
 */
export async function electronForStart(
  dir: string,
  options: DownloadOptions & { say: (line: string) => void },
): Promise<ElectronForStart> {
  const env = options.env ?? process.env;
  const installed = installedElectron(dir, env);
  if (installed) return { binary: installed };
  const skipped = downloadSkipped(env);
  if (skipped) return { reason: `the Electron binary is not installed (${skipped})` };
  const pkg = electronPackage(dir);
  if (!pkg) return { reason: 'the Electron binary is not installed' };
  options.say(downloadLine(pkg, env));
  const result = await downloadElectron(pkg, options);
  if (!result.ok) {
    options.say(fallbackLine(result.reason));
    return { reason: 'Electron could not be downloaded' };
  }
  const binary = installedElectron(dir, env);
  if (binary) return { binary };
  options.say(fallbackLine('its installer finished but left no binary'));
  return { reason: 'Electron could not be downloaded' };
}
