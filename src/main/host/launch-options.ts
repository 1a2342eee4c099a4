// What `npm start` was asked to do (flags), and whether an Electron binary is there to do it with. Pure
// functions, so the choice between the desktop window and browser mode is tested without either.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { invalidParameter } from '@pmdesk/toolkit/model';
import { MARKET_SOURCE_KINDS, type MarketSourceKind } from '@pmdesk/toolkit';

export interface LaunchOptions {
  /** Browser mode even when Electron is installed. */
  browser: boolean;
  /** Browser mode's port (0: a free one). */
  port: number;
  /** Do not open a browser (or, in Electron, nothing changes). */
  open: boolean;
  /** An existing network profile instead of starting the local sandbox. */
  profile?: string;
  /** Which market-data source the local sandbox serves the app: Polymarket's APIs (default) or the aggregator. */
  source: MarketSourceKind;
  help: boolean;
}

export const LAUNCH_USAGE = `Usage: npm start -- [--browser] [--port N] [--no-open] [--source polymarket|aggregator] [--profile FILE]

  --browser        browser mode even when Electron is installed
  --port N         browser mode's port on 127.0.0.1 (default: a free one)
  --no-open        print the URL, do not open a browser
  --source S       where the local sandbox's markets are read: polymarket (its Gamma, Data API and CLOB, the
                   default) or aggregator (its aggregator API and fill stream)
  --profile FILE   use this network profile (JSON) instead of starting the local sandbox`;

export function parseLaunchOptions(argv: readonly string[]): LaunchOptions {
  const options: LaunchOptions = { browser: false, port: 0, open: true, source: 'polymarket', help: false };
  const args = [...argv];
  while (args.length) {
    const arg = args.shift()!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const value = () => {
      const v = inline ?? args.shift();
      if (v === undefined || v === '') throw invalidParameter(`${flag} needs a value.`);
      return v;
    };
    switch (flag) {
      case '--browser':
        options.browser = true;
        break;
      case '--no-open':
        options.open = false;
        break;
      case '--port': {
        const text = value();
        const port = Number(text);
        if (!/^\d+$/.test(text) || port > 65535)
          throw invalidParameter(`--port takes a port number from 0 to 65535, not ${text}.`);
        options.port = port;
        break;
      }
      case '--profile':
        options.profile = value();
        break;
      case '--source': {
        const source = value();
        if (!(MARKET_SOURCE_KINDS as readonly string[]).includes(source))
          throw invalidParameter(`--source takes polymarket or aggregator, not ${source.slice(0, 40)}.`);
        options.source = source as MarketSourceKind;
        break;
      }
      case '--help':
      case '-h':
        options.help = true;
        break;
      default:
        throw invalidParameter(`Unknown option ${arg.slice(0, 40)}.\n${LAUNCH_USAGE}`);
    }
  }
  return options;
}

/**
 * The Electron binary in the electron package's folder, or undefined when it has not been downloaded yet (Electron
 * 45 downloads it on first use, not at `npm ci`: electron-download.ts fetches it). Read the way the electron
 * package does, without requiring it: its index would download a missing binary with no bound and no fallback.
 */
export function installedElectron(
  electronPackageDir: string,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const pathFile = join(electronPackageDir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const relative = readFileSync(pathFile, 'utf8').trim();
  if (!relative) return undefined;
  const binary = env.ELECTRON_OVERRIDE_DIST_PATH
    ? join(env.ELECTRON_OVERRIDE_DIST_PATH, relative)
    : join(electronPackageDir, 'dist', relative);
  return existsSync(binary) ? binary : undefined;
}

export type Shell = { kind: 'electron'; binary: string } | { kind: 'browser'; reason: string };

/** The shell to start: the window when there is a binary (its path, or what electronForStart found), else why not. */
export function chooseShell(
  options: LaunchOptions,
  electron: string | { binary: string } | { reason: string } | undefined,
): Shell {
  if (options.browser) return { kind: 'browser', reason: '--browser was given' };
  if (typeof electron === 'string') return { kind: 'electron', binary: electron };
  if (electron && 'binary' in electron) return { kind: 'electron', binary: electron.binary };
  return { kind: 'browser', reason: electron?.reason ?? 'the Electron binary is not installed' };
}
