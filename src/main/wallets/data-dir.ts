// Where PM Desk keeps its files: `--data-dir`, else PMDESK_DATA_DIR, else the per-OS user data folder that
// Electron's app.getPath('userData') gives the app named "pmdesk", so the CLI and the app share wallets.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const APP_FOLDER_NAME = 'pmdesk';

export interface DataDirSources {
  flag?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
}

export function resolveDataDir({
  flag,
  env = process.env,
  platform = process.platform,
  home = homedir(),
}: DataDirSources = {}): string {
  if (flag) return resolve(flag);
  if (env.PMDESK_DATA_DIR) return resolve(env.PMDESK_DATA_DIR);
  return defaultDataDir(platform, env, home);
}

/** Linux: $XDG_CONFIG_HOME/pmdesk or ~/.config/pmdesk; macOS: ~/Library/Application Support/pmdesk; Windows: %APPDATA%\pmdesk. */
export function defaultDataDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, home: string): string {
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), APP_FOLDER_NAME);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_FOLDER_NAME);
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), APP_FOLDER_NAME);
}

/** The wallets' own folder inside the data folder. */
export function walletsDir(dataDir: string): string {
  return join(dataDir, 'wallets');
}
