// Which servers a pmdesk command talks to. Each URL comes from its flag, else its environment variable, else
// the --network profile (what `npm run sandbox -- --profile-out FILE` writes), else the local sandbox's
// default port: one function, so the order is the same for every command and is tested once.
import { readFileSync } from 'node:fs';
import { invalidParameter } from '../shared/errors';
import { parseNetworkProfile, type NetworkProfile } from '../main/toolkit/chain/networks';

/** Where the local sandbox's aggregator listens by default (sandbox DEFAULT_PORTS.aggregator). */
export const DEFAULT_API_URL = 'http://127.0.0.1:4810';
/**
 * Where the local sandbox's exchange service listens by default (sandbox DEFAULT_PORTS.clob). The CLI never
 * reaches Polymarket's production exchange unless told to: an order placed by mistake there spends money.
 */
export const DEFAULT_CLOB_URL = 'http://127.0.0.1:4811';

export interface EndpointFlags {
  apiUrl?: string;
  sseUrl?: string;
  clobUrl?: string;
}

export interface Endpoints {
  /** The aggregator's REST base. */
  apiUrl: string;
  /** The fill stream's base; undefined means the aggregator's own URL. */
  sseUrl: string | undefined;
  /** The exchange service (CLOB). */
  clobUrl: string;
}

/** Flag > environment (PMDESK_API_URL, PMDESK_SSE_URL, PMDESK_CLOB_URL) > profile > default, URL by URL. */
export function resolveEndpoints(flags: EndpointFlags, env: NodeJS.ProcessEnv, profile: NetworkProfile | undefined): Endpoints {
  const pick = (...candidates: (string | undefined)[]): string | undefined => candidates.find((c) => c !== undefined && c !== '');
  return {
    apiUrl: pick(flags.apiUrl, env.PMDESK_API_URL, profile?.aggregatorUrl) ?? DEFAULT_API_URL,
    sseUrl: pick(flags.sseUrl, env.PMDESK_SSE_URL, profile?.sseUrl),
    clobUrl: pick(flags.clobUrl, env.PMDESK_CLOB_URL, profile?.clobUrl) ?? DEFAULT_CLOB_URL,
  };
}

const profiles = new Map<string, NetworkProfile>();

/** The profile named by --network (or PMDESK_NETWORK), read and checked once per process; undefined when none is named. */
export function networkProfile(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): NetworkProfile | undefined {
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
export function resolveChainId(flag: string | undefined, globalFlag: string | undefined, env: NodeJS.ProcessEnv, profile: NetworkProfile | undefined): number {
  const text = flag ?? globalFlag ?? env.PMDESK_CHAIN ?? String(profile?.chainId ?? 137);
  const chainId = Number(text);
  if (!Number.isInteger(chainId) || chainId <= 0) throw invalidParameter(`--chain must be a chain id, got ${text}`);
  return chainId;
}
