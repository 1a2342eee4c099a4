// What the terminal remembers across restarts (theme, watchlist, cancel-all key, grid columns, last wallet),
// kept by main as settings.json in the data folder: written atomically, checked on every read, and a file that
// does not parse is set aside as settings.json.bad rather than trusted or lost.
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Settings } from '../../shared/contract';
import type { Logger } from '../toolkit/logger';
import { PRIVATE_DIR_MODE, writeFileAtomic } from '../wallets/atomic-file';

export const SETTINGS_FILE = 'settings.json';

/** Must stay equal to the renderer's DEFAULT_SETTINGS (src/renderer/src/store/session.ts); a unit test compares them. */
export const DEFAULT_SETTINGS: Settings = Object.freeze({
  theme: 'dark',
  watchlist: [],
  cancelAllKey: 'X',
  marketColumns: ['title', 'outcomes', 'volume', 'liquidity', 'endDate'],
  activeWallet: null,
}) as Settings;

const copyOf = (s: Settings): Settings => ({ ...s, watchlist: [...s.watchlist], marketColumns: [...s.marketColumns] });

/**
 * The file's shape: a key missing (a file from an older version) takes its default; a key of the wrong type
 * makes the whole file corrupt. Bounds match saveSettings' input.
 */
const SettingsFileSchema = z.object({
  theme: z.enum(['dark', 'light']).default(DEFAULT_SETTINGS.theme),
  watchlist: z.array(z.string().min(1).max(200)).max(1000).default([]),
  cancelAllKey: z.string().min(1).max(24).default(DEFAULT_SETTINGS.cancelAllKey),
  marketColumns: z.array(z.string().min(1).max(40)).max(40).default([...DEFAULT_SETTINGS.marketColumns]),
  activeWallet: z.string().min(1).max(64).nullable().default(null),
});

export class SettingsStore {
  readonly file: string;
  private loaded: Promise<Settings> | undefined;
  /** Saves one after another, each merging into what the previous one wrote. */
  private queue: Promise<unknown> = Promise.resolve();
  private warned = false;

  constructor(
    private readonly dataDir: string,
    private readonly logger?: Logger,
  ) {
    this.file = join(dataDir, SETTINGS_FILE);
  }

  /** The settings as kept (read from the file once a session). */
  async get(): Promise<Settings> {
    this.loaded ??= this.read();
    return copyOf(await this.loaded);
  }

  /** Merges a change into the settings, writes the whole file, and answers the whole. */
  save(patch: Partial<Settings>): Promise<Settings> {
    const run = this.queue.then(async () => {
      const next = SettingsFileSchema.parse({ ...(await this.get()), ...definedOnly(patch) }) as Settings;
      await mkdir(this.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      await writeFileAtomic(this.file, `${JSON.stringify(next, null, 2)}\n`);
      this.loaded = Promise.resolve(next);
      return copyOf(next);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async read(): Promise<Settings> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return copyOf(DEFAULT_SETTINGS);
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.setAside('it is not JSON');
    }
    const parsed = SettingsFileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return this.setAside(`${issue.path.join('.') || 'the file'}: ${issue.message}`);
    }
    return parsed.data as Settings;
  }

  /** Keeps the bad file for the trader to look at, and starts again from the defaults. */
  private async setAside(why: string): Promise<Settings> {
    const bad = `${this.file}.bad`;
    await rename(this.file, bad).catch(() => undefined);
    if (!this.warned) {
      this.warned = true;
      this.logger?.warn(`The settings file ${this.file} could not be read (${why}): PM Desk starts from the default settings and kept the old file as ${bad}.`);
    }
    return copyOf(DEFAULT_SETTINGS);
  }
}

function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}
