// The networks the terminal can switch to: the one it was launched on (the local sandbox, or a --profile
// file), Polygon and Amoy on Polymarket's public endpoints (read directly, no setup), and custom networks the
// trader added (on either market-data source), kept in networks.json in the data folder (written atomically).
import { mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { NetworkChoice, ParsedInput } from '../../shared/contract';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import { AMOY, POLYGON, type KnownNetwork } from '@pmdesk/toolkit';
import { MARKET_SOURCE_KINDS } from '@pmdesk/toolkit';
import { sourceKindOf, type SourceEndpoints } from '@pmdesk/toolkit';
import type { Logger } from '@pmdesk/toolkit';
import { PRIVATE_DIR_MODE, removeStaleTempsOf, writeFileAtomic } from '../wallets/atomic-file';
import { networkInfo, parseAppProfile, type AppProfile } from './profile';

export const NETWORKS_FILE = 'networks.json';

/** One network as the terminal opens it: the app's profile plus the raw JSON the order flow reads (contracts). */
export interface NetworkEntry {
  name: string;
  chainId: number;
  origin: 'launch' | 'built-in' | 'custom';
  /** The JSON profile (what the sandbox writes): the app reads its URLs, the order flow its contracts too. */
  raw: Record<string, unknown>;
  /** Why it cannot be switched to, when it cannot. */
  unavailable?: string;
}

export type CustomNetworkInput = ParsedInput<'addNetwork'>;

/**
 * A built-in network as a profile: Polymarket's public endpoints as the toolkit lists them (chain/networks.ts),
 * read directly, and order version 2 (Polymarket's exchange since the 2026-04-28 cutover).
 */
const builtIn = (network: KnownNetwork): NetworkEntry => ({
  name: network.name,
  chainId: network.chainId,
  origin: 'built-in',
  raw: { ...network, orderVersion: 2 },
});

const BUILT_IN: readonly NetworkEntry[] = [builtIn(POLYGON), builtIn(AMOY)];

/** The profile of a built-in network, as the network book keeps it (Polygon: what an installed app opens on). */
export function builtInProfile(name: 'polygon' | 'amoy'): Record<string, unknown> {
  return { ...(BUILT_IN.find((b) => b.name === name)!.raw as Record<string, unknown>) };
}

/** A custom network as kept: entries written before there was a choice of source have an aggregatorUrl and no source. */
const customSchema = z.object({
  name: z.string().trim().min(1).max(64),
  chainId: z.number().int().positive(),
  source: z.enum(MARKET_SOURCE_KINDS).optional(),
  aggregatorUrl: z.string().url().optional(),
  gammaUrl: z.string().url().optional(),
  dataUrl: z.string().url().optional(),
  clobUrl: z.string().url(),
  rpcUrl: z.string().url(),
  wsUrl: z.string().url().optional(),
  rtdsUrl: z.string().url().optional(),
  orderVersion: z.union([z.literal(1), z.literal(2), z.literal(3)]),
});
const fileSchema = z.object({ networks: z.array(customSchema).max(100) });
type Custom = z.infer<typeof customSchema>;

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export class NetworkBook {
  readonly file: string | undefined;
  private customs: Promise<Custom[]> | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly launch: { raw: Record<string, unknown>; profile: AppProfile },
    private readonly dataDir: string | undefined,
    private readonly logger?: Logger,
  ) {
    this.file = dataDir ? join(dataDir, NETWORKS_FILE) : undefined;
  }

  /** Every network, launch first; `current` marks the one the terminal trades on. */
  async list(current: string): Promise<NetworkChoice[]> {
    return (await this.entries()).map((e) => this.choice(e, current));
  }

  /** The network of that name, or a NOT_FOUND error naming the ones there are. */
  async find(name: string): Promise<NetworkEntry> {
    const all = await this.entries();
    const found = all.find((e) => same(e.name, name));
    if (!found)
      throw new PmDeskError(
        ErrorCode.NOT_FOUND,
        `There is no network named ${name.slice(0, 64)}: the networks are ${all.map((e) => e.name).join(', ')}.`,
      );
    return found;
  }

  /** Remembers a custom network (a private exchange, a fork); adding a name again replaces it. */
  add(input: CustomNetworkInput, current: string): Promise<NetworkChoice> {
    const run = this.queue.then(async () => {
      if (!this.file || !this.dataDir)
        throw new PmDeskError(
          ErrorCode.ENVIRONMENT_ERROR,
          'Custom networks cannot be kept: this session has no data folder.',
        );
      const custom = customSchema.parse(input);
      // Refused here, by the profile reader's sentence, rather than kept and failing when switched to.
      parseAppProfile(customEntry(custom).raw);
      if (same(custom.name, this.launch.profile.name) || BUILT_IN.some((b) => same(b.name, custom.name))) {
        throw invalidParameter(
          `The name ${custom.name} is taken by a network PM Desk already knows: choose another name for this one.`,
        );
      }
      if (same(custom.name, current))
        throw invalidParameter(`${custom.name} is the network in use: switch to another one before changing it.`);
      const customs = (await this.loadCustoms()).filter((c) => !same(c.name, custom.name));
      customs.push(custom);
      await mkdir(this.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      await writeFileAtomic(this.file, `${JSON.stringify({ networks: customs }, null, 2)}\n`);
      this.customs = Promise.resolve(customs);
      return this.choice(customEntry(custom), current);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async entries(): Promise<NetworkEntry[]> {
    const launch: NetworkEntry = {
      name: this.launch.profile.name,
      chainId: this.launch.profile.chainId,
      origin: 'launch',
      raw: this.launch.raw,
    };
    // A launch profile for Polygon or Amoy (a --profile file) stands for that built-in network.
    const builtIns = BUILT_IN.filter((b) => !same(b.name, launch.name));
    return [launch, ...builtIns, ...(await this.loadCustoms()).map(customEntry)];
  }

  private choice(entry: NetworkEntry, current: string): NetworkChoice {
    const profile = entry.unavailable ? undefined : parseAppProfile(entry.raw);
    const info = profile ? networkInfo(profile, 'browser') : undefined;
    return {
      name: entry.name,
      chainId: entry.chainId,
      source: info?.source ?? sourceKindOf(entry.raw as SourceEndpoints),
      sandbox: info?.sandbox ?? false,
      current: same(entry.name, current),
      available: !entry.unavailable,
      ...(entry.unavailable ? { reason: entry.unavailable } : {}),
    };
  }

  private loadCustoms(): Promise<Custom[]> {
    this.customs ??= this.readCustoms();
    return this.customs;
  }

  private async readCustoms(): Promise<Custom[]> {
    if (!this.file) return [];
    // Temp files of networks.json left by a process killed mid-write: cleared once old enough to be nobody's.
    await removeStaleTempsOf(this.file);
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    try {
      return fileSchema.parse(JSON.parse(text)).networks;
    } catch {
      // Set aside, not overwritten by the next network added: the trader may want its URLs back.
      await rename(this.file, `${this.file}.bad`).catch(() => undefined);
      this.logger?.warn(
        `The custom networks file ${this.file} could not be read: it was kept as ${this.file}.bad and only the built-in networks are listed.`,
      );
      return [];
    }
  }
}

/**
 * A custom network as a profile. On Polygon or Amoy it signs against Polymarket's published contracts; on any
 * other chain PM Desk knows no contract addresses, so it reads markets and books but cannot trade.
 */
function customEntry(custom: Custom): NetworkEntry {
  const known = custom.chainId === POLYGON.chainId ? POLYGON : custom.chainId === AMOY.chainId ? AMOY : undefined;
  return {
    name: custom.name,
    chainId: custom.chainId,
    origin: 'custom',
    raw: { ...custom, ...(known ? { contracts: known.contracts } : {}) },
  };
}
