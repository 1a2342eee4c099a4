// The network profile the app's services read (what the sandbox writes, or a file given with --profile): the
// market-data source and its URLs, the exchange, chain and order version. A profile with an aggregator URL and
// no source reads from the aggregator, as before there was a choice. Test wallets' keys in a sandbox profile
// are ignored here on purpose.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { invalidParameter } from '@pmdesk/toolkit/model';
import type { NetworkInfo } from '../../shared/contract';
import { sourceKindOf } from '@pmdesk/toolkit';
import { MARKET_SOURCE_KINDS, type MarketSourceKind } from '@pmdesk/toolkit';

const url = z.string().url();
const wsUrl = z.string().regex(/^wss?:\/\/\S+$/, 'a ws:// or wss:// URL');
const ProfileSchema = z.object({
  name: z.string().min(1).default('custom'),
  chainId: z.number().int().positive(),
  orderVersion: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
  /** Where markets are read; absent means the aggregator when there is an aggregatorUrl, else Polymarket direct. */
  source: z.enum(MARKET_SOURCE_KINDS).optional(),
  rpcUrl: z.union([url, z.literal('')]).optional(),
  clobUrl: z.union([url, z.literal('')]).default(''),
  /** The aggregator's API: required only when it is the source. */
  aggregatorUrl: z.union([url, z.literal('')]).optional(),
  sseUrl: z.union([url, z.literal('')]).optional(),
  /** Polymarket's Gamma and Data APIs: required when Polymarket direct is the source. */
  gammaUrl: z.union([url, z.literal('')]).optional(),
  dataUrl: z.union([url, z.literal('')]).optional(),
  /** The exchange's WebSocket base (`…/ws`): books follow its market channel when given, else the source is polled. */
  wsUrl: z.union([wsUrl, z.literal('')]).optional(),
  /** Polymarket's real-time data service (live trades of a whole market). */
  rtdsUrl: z.union([wsUrl, z.literal('')]).optional(),
  /** Polymarket's geoblock check. */
  geoblockUrl: z.union([url, z.literal('')]).optional(),
});

/** A network profile; its `source` is settled by parseAppProfile, and read through sourceKindOf where one was built by hand. */
export type AppProfile = z.infer<typeof ProfileSchema>;

/** What each source cannot read markets without. */
const REQUIRED_BY_SOURCE: Record<MarketSourceKind, readonly ('aggregatorUrl' | 'gammaUrl' | 'dataUrl' | 'clobUrl')[]> =
  {
    aggregator: ['aggregatorUrl'],
    polymarket: ['gammaUrl', 'dataUrl', 'clobUrl'],
  };

/** A profile with its source settled (named, or implied by its URLs); a URL that source needs and it lacks is refused by name. */
export function parseAppProfile(value: unknown): AppProfile {
  const parsed = ProfileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidParameter(`Invalid network profile: ${issue.path.join('.') || 'profile'}: ${issue.message}`);
  }
  const source = sourceKindOf(parsed.data);
  const missing = REQUIRED_BY_SOURCE[source].find((key) => !parsed.data[key]);
  if (missing) {
    throw invalidParameter(
      source === 'aggregator'
        ? `Invalid network profile: aggregatorUrl: required when the source is the aggregator (or set "source": "polymarket" with Polymarket's URLs).`
        : `Invalid network profile: ${missing}: required when the source is polymarket${parsed.data.source ? '' : ' (a profile with no aggregatorUrl reads Polymarket directly)'}.`,
    );
  }
  return { ...parsed.data, source };
}

export async function readAppProfile(file: string): Promise<AppProfile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw invalidParameter(`Cannot read the network profile ${file}.`);
  }
  try {
    return parseAppProfile(JSON.parse(text));
  } catch (error) {
    if (error instanceof SyntaxError) throw invalidParameter(`The network profile ${file} is not JSON.`);
    throw error;
  }
}

const LOOPBACK = /^https?:\/\/(127\.0\.0\.1|localhost)[:/]/;

export function networkInfo(profile: AppProfile, shell: NetworkInfo['shell']): NetworkInfo {
  // A local exchange off Polygon and Amoy is the sandbox: where its markets are read from and its CLOB are on this machine.
  const source = sourceKindOf(profile);
  const readsFrom = source === 'aggregator' ? profile.aggregatorUrl : profile.gammaUrl;
  const local = [readsFrom, profile.clobUrl].filter((u): u is string => !!u);
  return {
    name: profile.name,
    chainId: profile.chainId,
    orderVersion: profile.orderVersion ?? null,
    source,
    clobUrl: profile.clobUrl,
    aggregatorUrl: profile.aggregatorUrl ?? '',
    gammaUrl: profile.gammaUrl ?? '',
    sandbox:
      profile.name === 'sandbox' ||
      (profile.chainId !== 137 &&
        profile.chainId !== 80002 &&
        local.length > 0 &&
        local.every((u) => LOOPBACK.test(u))),
    shell,
  };
}

/**
 * Which network profile a desktop start uses: `--pmdesk-profile=FILE`, else `PMDESK_PROFILE`, else
 * `<data dir>/profile.json` when it exists (a packaged app started from its icon has neither of the first two).
 * Undefined when there is none: the app then says where to put one.
 */
export function startupProfileFile(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  dataDir: string,
  exists: (file: string) => boolean,
): string | undefined {
  const flag = argv.find((a) => a.startsWith('--pmdesk-profile='));
  if (flag) return flag.slice('--pmdesk-profile='.length);
  if (env.PMDESK_PROFILE) return env.PMDESK_PROFILE;
  const inDataDir = join(dataDir, 'profile.json');
  return exists(inDataDir) ? inDataDir : undefined;
}
