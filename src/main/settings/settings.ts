// What the terminal remembers across restarts (theme, watchlist per network, cancel-all key, grid columns, last wallet, panel sizes,
// keyboard trading's keys and size presets, workspaces per network, and which Polymarket account each wallet
// trades from on each network),
// kept by main as settings.json in the data folder: written atomically, checked on every read, and a file that
// does not parse is set aside as settings.json.bad rather than trusted or lost.
import { copyFile, mkdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_MARKET_SLIPPAGE_TICKS,
  MARKET_SLIPPAGE_TICKS_MAX,
  PANEL_SIZE_MAX,
  PANEL_SIZE_NAME,
  PANEL_SIZES_MAX,
  type Settings,
} from '../../shared/contract';
import type { Logger } from '@pmdesk/toolkit';
import {
  DEFAULT_KEY_BINDINGS,
  DEFAULT_SIZE_PRESETS,
  cleanKeyBindings,
  cleanSizePresets,
} from '../../shared/key-bindings';
import { cleanNetworkWorkspaces, workspacesOfOldFile } from '../../shared/workspaces';
import { PRIVATE_DIR_MODE, removeStaleTempFiles, writeFileAtomic } from '../wallets/atomic-file';
import { cleanFollowedByNetwork, cleanFollowedTraders } from './followed-traders';
import type { FollowedTraderInfo } from '../../shared/contract';

export const SETTINGS_FILE = 'settings.json';
/**
 * The largest settings file read: every list in it is bounded (1,000 watchlist ids, 20 workspaces per network…),
 * so a real one stays far below; a bigger one is not ours, and is set aside unread rather than held in memory.
 */
export const SETTINGS_MAX_BYTES = 1024 * 1024;

/** Must stay equal to the renderer's DEFAULT_SETTINGS (src/renderer/src/store/session.ts); a unit test compares them. */
export const DEFAULT_SETTINGS: Settings = Object.freeze({
  theme: 'dark',
  watchlist: [],
  cancelAllKey: 'X',
  marketColumns: ['title', 'outcomes', 'volume', 'liquidity', 'endDate'],
  activeWallet: null,
  panelSizes: Object.freeze({}),
  keyBindings: DEFAULT_KEY_BINDINGS,
  sizePresets: DEFAULT_SIZE_PRESETS,
  keyboardOrdersWithoutConfirm: false,
  marketSlippageTicks: DEFAULT_MARKET_SLIPPAGE_TICKS,
  workspaces: Object.freeze({}),
}) as unknown as Settings;

const copyOf = (s: Settings): Settings => ({
  ...s,
  watchlist: [...s.watchlist],
  marketColumns: [...s.marketColumns],
  panelSizes: { ...s.panelSizes },
  keyBindings: { ...s.keyBindings },
  sizePresets: { unit: s.sizePresets.unit, sizes: [...s.sizePresets.sizes] },
  workspaces: Object.fromEntries(
    Object.entries(s.workspaces).map(([network, { list, active }]) => [
      network,
      { list: list.map((w) => ({ ...w, tiles: w.tiles.map((t) => ({ ...t })) })), active },
    ]),
  ),
});

/**
 * The saved panel sizes, cleaned: a size is a layout preference, so a bad one (hand-edited, from a newer
 * version) is dropped on its own instead of setting the whole file aside; the renderer bounds the rest.
 */
export function cleanPanelSizes(value: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const [name, size] of Object.entries(value)) {
    if (Object.keys(out).length >= PANEL_SIZES_MAX) break;
    if (
      PANEL_SIZE_NAME.test(name) &&
      typeof size === 'number' &&
      Number.isFinite(size) &&
      size >= 0 &&
      size <= PANEL_SIZE_MAX
    )
      out[name] = size;
  }
  return out;
}

/** The saved slippage in whole ticks within its bounds, else the default. */
export function cleanSlippageTicks(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MARKET_SLIPPAGE_TICKS_MAX
    ? value
    : DEFAULT_MARKET_SLIPPAGE_TICKS;
}

/**
 * The file's shape: a key missing (a file from an older version) takes its default; a key of the wrong type
 * makes the whole file corrupt. Bounds match saveSettings' input.
 */
const SettingsFileSchema = z
  .object({
    theme: z.enum(['dark', 'light']).default(DEFAULT_SETTINGS.theme),
    // Before watchlists were kept per network: checked as it always was, moved to the launch network's, never written.
    watchlist: z.array(z.string().min(1).max(200)).max(1000).optional(),
    // The watchlist of each network (by name): one network's market ids name other markets, or none, on another.
    watchlists: z.record(z.string().min(1).max(200), z.array(z.string().min(1).max(200)).max(1000)).default({}),
    cancelAllKey: z.string().min(1).max(24).default(DEFAULT_SETTINGS.cancelAllKey),
    marketColumns: z
      .array(z.string().min(1).max(40))
      .max(40)
      .default([...DEFAULT_SETTINGS.marketColumns]),
    activeWallet: z.string().min(1).max(64).nullable().default(null),
    panelSizes: z.unknown().optional().transform(cleanPanelSizes),
    // Bindings and presets are preferences like panel sizes: a bad one goes back to its default on its own.
    keyBindings: z.unknown().optional(),
    sizePresets: z.unknown().optional().transform(cleanSizePresets),
    keyboardOrdersWithoutConfirm: z.boolean().default(false),
    // A preference like the presets: out of bounds (hand-edited) it goes back to its default on its own.
    marketSlippageTicks: z.unknown().optional().transform(cleanSlippageTicks),
    // Layout preferences like the panel sizes, per network: a bad workspace is dropped on its own, never the whole file.
    workspaces: z.unknown().optional().transform(cleanNetworkWorkspaces),
    /** The account the trader chose per wallet and network ("network|owner" → address); main's alone, never in Settings. */
    accounts: z.record(z.string().min(1).max(200), z.string().regex(/^0x[0-9a-fA-F]{40}$/)).default({}),
    /** The traders followed per network (src/main/traders); main's alone, never in Settings. */
    followedTraders: z.unknown().optional().transform(cleanFollowedByNetwork),
  })
  // A trading key is never the cancel-all key: cleaned with it in view.
  .transform(({ keyBindings, watchlist: _old, ...file }) => ({
    ...file,
    keyBindings: cleanKeyBindings(keyBindings, [file.cancelAllKey]),
  }));
type SettingsFile = z.infer<typeof SettingsFileSchema>;

/** The settings as one network sees them: its own watchlist (none kept: an empty one). */
const settingsOf = (
  { accounts: _accounts, followedTraders: _followed, watchlists, ...settings }: SettingsFile,
  network: string,
): Settings => copyOf({ ...settings, watchlist: watchlists[network] ?? [] } as Settings);

/** Where a store told no network keeps its watchlist (tests, a store read outside a terminal). */
const NO_NETWORK = 'default';

/** A file from before watchlists were kept per network: its one watchlist is the launch network's. */
function watchlistsOfOldFile(file: Record<string, unknown>, network: string): Record<string, unknown> {
  const { watchlist } = file;
  if (file.watchlists !== undefined || !Array.isArray(watchlist) || watchlist.length === 0) return file;
  return { ...file, watchlists: { [network]: watchlist } };
}
/** Where one wallet's account choice is kept: per network (by name) and per key. */
export const accountChoiceKey = (network: string, owner: string) => `${network}|${owner.toLowerCase()}`;

export class SettingsStore {
  readonly file: string;
  private loaded: Promise<SettingsFile> | undefined;
  /** Saves one after another, each merging into what the previous one wrote. */
  private queue: Promise<unknown> = Promise.resolve();
  private warned = false;

  constructor(
    private readonly dataDir: string,
    private readonly logger?: Logger,
    /** The network the terminal starts on: workspaces kept before they were kept per network become its own. */
    private readonly launchNetwork?: string,
  ) {
    this.file = join(dataDir, SETTINGS_FILE);
  }

  /** The settings as kept (read from the file once a session), as `network` sees them (the launch network unless told). */
  async get(network = this.launchNetwork ?? NO_NETWORK): Promise<Settings> {
    return settingsOf(await this.contents(), network);
  }

  /** Merges a change into the settings (a watchlist into `network`'s), writes the whole file, and answers the whole. */
  async save(patch: Partial<Settings>, network = this.launchNetwork ?? NO_NETWORK): Promise<Settings> {
    // Bindings merge: one action rebound keeps the others' keys; workspaces too: one network's leave the others'.
    const { keyBindings: keys, workspaces, watchlist, ...rest } = patch;
    return settingsOf(
      await this.write((file) => ({
        ...file,
        ...definedOnly(rest),
        ...(keys ? { keyBindings: { ...file.keyBindings, ...keys } } : {}),
        ...(workspaces ? { workspaces: { ...file.workspaces, ...workspaces } } : {}),
        ...(watchlist ? { watchlists: { ...file.watchlists, [network]: [...watchlist] } } : {}),
      })),
      network,
    );
  }

  /** The settings as one network reads and writes them: everything shared, the watchlist its own. */
  forNetwork(network: string): { get(): Promise<Settings>; save(patch: Partial<Settings>): Promise<Settings> } {
    return { get: () => this.get(network), save: (patch) => this.save(patch, network) };
  }

  /** The account address the trader chose for this key on this network, if any. */
  async accountChoice(network: string, owner: string): Promise<string | undefined> {
    return (await this.contents()).accounts[accountChoiceKey(network, owner)];
  }

  /** Keeps the trader's account for this key on this network; null forgets it (the found one trades again). */
  async saveAccountChoice(network: string, owner: string, account: string | null): Promise<void> {
    const key = accountChoiceKey(network, owner);
    await this.write((file) => {
      const accounts = { ...file.accounts };
      if (account === null) delete accounts[key];
      else accounts[key] = account;
      return { ...file, accounts };
    });
  }

  /** The traders followed on this network, in the order they were followed. */
  async followedTraders(network: string): Promise<FollowedTraderInfo[]> {
    return ((await this.contents()).followedTraders[network] ?? []).map((t) => ({ ...t }));
  }

  /** Keeps this network's followed traders (bounded and cleaned as on reading); the other networks' stay. */
  async saveFollowedTraders(network: string, traders: FollowedTraderInfo[]): Promise<FollowedTraderInfo[]> {
    const file = await this.write((f) => ({
      ...f,
      followedTraders: { ...f.followedTraders, [network]: cleanFollowedTraders(traders) },
    }));
    return (file.followedTraders[network] ?? []).map((t) => ({ ...t }));
  }

  private contents(): Promise<SettingsFile> {
    this.loaded ??= this.read();
    return this.loaded;
  }

  /** One write at a time, each merging into what the previous one wrote. */
  private write(change: (file: SettingsFile) => SettingsFile): Promise<SettingsFile> {
    const run = this.queue.then(async () => {
      const next = SettingsFileSchema.parse(change(await this.contents()));
      await mkdir(this.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      // No account chosen and nobody followed: the file stays as it was before either existed.
      const { accounts, followedTraders, ...settings } = next;
      const kept = {
        ...settings,
        ...(Object.keys(accounts).length > 0 ? { accounts } : {}),
        ...(Object.keys(followedTraders).length > 0 ? { followedTraders } : {}),
      };
      await writeFileAtomic(this.file, `${JSON.stringify(kept, null, 2)}\n`);
      this.loaded = Promise.resolve(next);
      return next;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async read(): Promise<SettingsFile> {
    // Temp files of this file left by a process killed mid-write: cleared once old enough to be nobody's.
    await removeStaleTempFiles(this.dataDir, (target) => target === SETTINGS_FILE);
    let text: string;
    try {
      const { size } = await stat(this.file);
      if (size > SETTINGS_MAX_BYTES)
        return this.setAside(`it is ${size} bytes, more than the ${SETTINGS_MAX_BYTES} a settings file can need`);
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return SettingsFileSchema.parse({});
      throw error;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.setAside('it is not JSON');
    }
    const isObject = typeof json === 'object' && json !== null && !Array.isArray(json);
    const parsed = SettingsFileSchema.safeParse(
      isObject
        ? watchlistsOfOldFile(
            workspacesOfOldFile(json as Record<string, unknown>, this.launchNetwork),
            this.launchNetwork ?? NO_NETWORK,
          )
        : json,
    );
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return this.setAside(`${issue.path.join('.') || 'the file'}: ${issue.message}`);
    }
    await this.keepDroppedWorkspaces(json, parsed.data);
    return parsed.data;
  }

  /**
   * A workspace that could not be read is dropped on its own (the others load), but never silently: the file as
   * it was is copied to `<file>.workspaces.bad` before the next save overwrites it, and a line is logged.
   */
  private async keepDroppedWorkspaces(json: unknown, file: SettingsFile): Promise<void> {
    const raw = (json as { workspaces?: unknown } | null)?.workspaces;
    const saved = (list: unknown) => (Array.isArray(list) ? list.length : 0);
    const before = Array.isArray(raw)
      ? raw.length
      : typeof raw === 'object' && raw !== null
        ? Object.values(raw).reduce((n: number, entry) => n + saved((entry as { list?: unknown } | null)?.list), 0)
        : 0;
    const after = Object.values(file.workspaces).reduce((n, entry) => n + entry.list.length, 0);
    if (after >= before) return;
    const copy = `${this.file}.workspaces.bad`;
    await copyFile(this.file, copy).catch(() => undefined);
    this.logger?.warn(
      `${before - after} saved workspace(s) in ${this.file} could not be read and were dropped; the file as it was is kept as ${copy}.`,
    );
  }

  /** Keeps the bad file for the trader to look at, and starts again from the defaults. */
  private async setAside(why: string): Promise<SettingsFile> {
    const bad = `${this.file}.bad`;
    await rename(this.file, bad).catch(() => undefined);
    if (!this.warned) {
      this.warned = true;
      this.logger?.warn(
        `The settings file ${this.file} could not be read (${why}): PM Desk starts from the default settings and kept the old file as ${bad}.`,
      );
    }
    return SettingsFileSchema.parse({});
  }
}

function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}
