// Which servers a pmdesk command talks to, and which market-data source its reads go through. Each URL comes
// from its flag, else its environment variable, else the --network profile (what `npm run sandbox --
// --profile-out FILE` writes), else the local sandbox's default port: one function, so the order is the same
// for every command and is tested once.
import { readFileSync } from 'node:fs';
import { invalidParameter } from '@pmdesk/toolkit/model';
import { parseNetworkProfile, type NetworkProfile } from '@pmdesk/toolkit';
import { MARKET_SOURCE_KINDS, type MarketSourceKind } from '@pmdesk/toolkit';
import { sourceKindOf, type SourceEndpoints } from '@pmdesk/toolkit';

/** Where the local sandbox's aggregator listens by default (sandbox DEFAULT_PORTS.aggregator). */
export const DEFAULT_API_URL = 'http://127.0.0.1:4810';
/**
 * Where the local sandbox's exchange service listens by default (sandbox DEFAULT_PORTS.clob). The CLI never
 * reaches Polymarket's production exchange unless told to: an order placed by mistake there spends money.
 */
export const DEFAULT_CLOB_URL = 'http://127.0.0.1:4811';
/**
 * Where the local sandbox serves Polymarket's Gamma and Data API shapes by default (sandbox
 * DEFAULT_PORTS.polymarket): one server answers both, so the two defaults are the same URL. As with the
 * exchange, the CLI reads Polymarket's real hosts only when a flag, a variable or a profile names them.
 */
export const DEFAULT_GAMMA_URL = 'http://127.0.0.1:4813';
export const DEFAULT_DATA_URL = 'http://127.0.0.1:4813';
/** The sandbox's real-time data service: a WebSocket on /rtds of that same server. */
export const DEFAULT_RTDS_URL = 'ws://127.0.0.1:4813/rtds';

export interface EndpointFlags {
  apiUrl?: string;
  sseUrl?: string;
  clobUrl?: string;
  gammaUrl?: string;
  dataUrl?: string;
  rtdsUrl?: string;
}

export interface Endpoints {
  /** The aggregator's REST base. */
  apiUrl: string;
  /** The fill stream's base; undefined means the aggregator's own URL. */
  sseUrl: string | undefined;
  /** The exchange service (CLOB). */
  clobUrl: string;
  /** Polymarket's Gamma API (events, markets, search, comments, profiles). */
  gammaUrl: string;
  /** Polymarket's Data API (positions, activity, trades). */
  dataUrl: string;
  /** Polymarket's real-time data service (ws:// or wss://). */
  rtdsUrl: string;
}

/**
 * The profile fields of the market-data sources. Network profiles gain them with the source-aware profiles
 * (packages/toolkit/src/chain/networks.ts); until then they are read when present and otherwise absent.
 */
type SourceProfile = NetworkProfile & Partial<Pick<SourceEndpoints, 'source' | 'gammaUrl' | 'dataUrl' | 'rtdsUrl'>>;

const pick = (...candidates: (string | undefined)[]): string | undefined =>
  candidates.find((c) => c !== undefined && c !== '');

/**
 * Flag > environment (PMDESK_API_URL, PMDESK_SSE_URL, PMDESK_CLOB_URL, PMDESK_GAMMA_URL, PMDESK_DATA_URL,
 * PMDESK_RTDS_URL) > profile > default, URL by URL.
 */
export function resolveEndpoints(
  flags: EndpointFlags,
  env: NodeJS.ProcessEnv,
  profile: NetworkProfile | undefined,
): Endpoints {
  const p = profile as SourceProfile | undefined;
  return {
    apiUrl: pick(flags.apiUrl, env.PMDESK_API_URL, p?.aggregatorUrl) ?? DEFAULT_API_URL,
    sseUrl: pick(flags.sseUrl, env.PMDESK_SSE_URL, p?.sseUrl),
    clobUrl: pick(flags.clobUrl, env.PMDESK_CLOB_URL, p?.clobUrl) ?? DEFAULT_CLOB_URL,
    gammaUrl: pick(flags.gammaUrl, env.PMDESK_GAMMA_URL, p?.gammaUrl) ?? DEFAULT_GAMMA_URL,
    dataUrl: pick(flags.dataUrl, env.PMDESK_DATA_URL, p?.dataUrl) ?? DEFAULT_DATA_URL,
    rtdsUrl: pick(flags.rtdsUrl, env.PMDESK_RTDS_URL, p?.rtdsUrl) ?? DEFAULT_RTDS_URL,
  };
}

export interface SourceFlags extends EndpointFlags {
  source?: string;
}

/** What createMarketSource takes, with the source always named so the factory never has to guess. */
export type ResolvedSource = SourceEndpoints & { source: MarketSourceKind };

/**
 * The market-data source read commands use, with every URL resolved as above. The source is --source, else
 * PMDESK_SOURCE, else the profile's (its `source`; else the aggregator when an aggregator URL is named by
 * flag, variable or profile, as before there was a choice), else Polymarket direct on the local sandbox —
 * what `npm run sandbox` and `npm start` default to.
 */
export function resolveSource(
  flags: SourceFlags,
  env: NodeJS.ProcessEnv,
  profile: NetworkProfile | undefined,
): ResolvedSource {
  const named = pick(flags.source, env.PMDESK_SOURCE);
  if (named !== undefined && !isSourceKind(named)) {
    throw invalidParameter(
      `Unknown market-data source '${named}': use ${MARKET_SOURCE_KINDS.join(' or ')} (--source or PMDESK_SOURCE).`,
    );
  }
  const p = profile as SourceProfile | undefined;
  const urls = resolveEndpoints(flags, env, profile);
  const aggregatorNamed = pick(flags.apiUrl, env.PMDESK_API_URL, p?.aggregatorUrl);
  return {
    source: named ?? sourceKindOf({ source: p?.source, aggregatorUrl: aggregatorNamed }),
    aggregatorUrl: urls.apiUrl,
    sseUrl: urls.sseUrl,
    gammaUrl: urls.gammaUrl,
    dataUrl: urls.dataUrl,
    clobUrl: urls.clobUrl,
    rtdsUrl: urls.rtdsUrl,
  };
}

function isSourceKind(value: string): value is MarketSourceKind {
  return (MARKET_SOURCE_KINDS as readonly string[]).includes(value);
}

const profiles = new Map<string, NetworkProfile>();

/** The profile named by --network (or PMDESK_NETWORK), read and checked once per process; undefined when none is named. */
export function networkProfile(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): NetworkProfile | undefined {
  const file = flag || env.PMDESK_NETWORK;
  if (!file) return undefined;
  let profile = profiles.get(file);
  if (!profile) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw invalidParameter(`Cannot read the network profile ${file} as JSON.`);
    }
    profile = parseNetworkProfile(json);
    profiles.set(file, profile);
  }
  return profile;
}

/** The chain a command signs or derives for: its own --chain, else the global one, else PMDESK_CHAIN, else the profile's, else Polygon. */
export function resolveChainId(
  flag: string | undefined,
  globalFlag: string | undefined,
  env: NodeJS.ProcessEnv,
  profile: NetworkProfile | undefined,
): number {
  const text = flag ?? globalFlag ?? env.PMDESK_CHAIN ?? String(profile?.chainId ?? 137);
  const chainId = Number(text);
  if (!Number.isInteger(chainId) || chainId <= 0) throw invalidParameter(`--chain must be a chain id, got ${text}`);
  return chainId;
}
