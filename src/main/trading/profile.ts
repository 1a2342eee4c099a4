// The network a trade runs on: the toolkit's network profile plus what the order flow needs beyond signing
// (the chain's RPC node, the market-data source it reads markets from, the approval gas), read from the JSON
// the local sandbox writes.
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { invalidParameter } from '@pmdesk/toolkit/model';
import { parseNetworkProfile, type NetworkProfile, type OrderVersion } from '@pmdesk/toolkit';
import { MARKET_SOURCE_KINDS } from '@pmdesk/toolkit';
import type { SourceEndpoints } from '@pmdesk/toolkit';

/** Where `npm run sandbox` writes its profile when told nothing else (sandbox/cli.ts). */
export const DEFAULT_SANDBOX_PROFILE = join(tmpdir(), 'pmdesk-sandbox-profile.json');

/** docs/protocol.md#constants-and-limits: approval transactions are legacy ones at gas price 1e11 wei and gas limit 2e5. */
export const DEFAULT_APPROVAL_GAS = { gasPrice: 100_000_000_000n, gasLimit: 200_000n } as const;

export interface TradingProfile {
  /** What the toolkit signs and posts with; its order version is always known here. */
  network: NetworkProfile & { orderVersion: OrderVersion; clobUrl: string };
  rpcUrl: string;
  /** The aggregator (its price oracle, and markets when it is the source); absent on a Polymarket-direct network. */
  aggregatorUrl?: string;
  /** The market-data source the order flow reads markets and positions from, with its URLs (the profile's). */
  endpoints: SourceEndpoints;
  /** Gas of each approval transaction (wei, gas units). */
  approvalGas: { gasPrice: bigint; gasLimit: bigint };
}

const wholeNumber = z.union([z.string().regex(/^[0-9]+$/), z.number().int().nonnegative()]).transform((v) => BigInt(v));
const optionalUrl = z
  .union([z.string().url(), z.literal('')])
  .optional()
  .transform((v) => v || undefined);
const extraSchema = z.object({
  rpcUrl: z.string().url(),
  clobUrl: z.string().url(),
  source: z.enum(MARKET_SOURCE_KINDS).optional(),
  aggregatorUrl: optionalUrl,
  sseUrl: optionalUrl,
  gammaUrl: optionalUrl,
  dataUrl: optionalUrl,
  rtdsUrl: z
    .union([z.string().regex(/^wss?:\/\/\S+$/, 'a ws:// or wss:// URL'), z.literal('')])
    .optional()
    .transform((v) => v || undefined),
  orderVersion: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  gasPrice: wholeNumber.optional(),
  gasLimit: wholeNumber.optional(),
});

/**
 * A trading profile from JSON: the network through the toolkit's one profile loader (parseNetworkProfile, which
 * gives a sandbox's `exchange` to the version it runs), plus the RPC node, the source's URLs and the approval gas.
 */
export function parseTradingProfile(value: unknown): TradingProfile {
  const extra = extraSchema.safeParse(value);
  if (!extra.success) {
    const issue = extra.error.issues[0]!;
    throw invalidParameter(`Invalid network profile: ${issue.path.join('.') || 'profile'}: ${issue.message}`);
  }
  const network = parseNetworkProfile(value);
  const {
    orderVersion,
    rpcUrl,
    clobUrl,
    source,
    aggregatorUrl,
    sseUrl,
    gammaUrl,
    dataUrl,
    rtdsUrl,
    gasPrice,
    gasLimit,
  } = extra.data;
  if (source === 'aggregator' && !aggregatorUrl)
    throw invalidParameter('Invalid network profile: aggregatorUrl: required when the source is the aggregator');
  return {
    network: { ...network, orderVersion, clobUrl },
    rpcUrl,
    ...(aggregatorUrl ? { aggregatorUrl } : {}),
    endpoints: { source, aggregatorUrl, sseUrl, gammaUrl, dataUrl, clobUrl, rtdsUrl },
    approvalGas: {
      gasPrice: gasPrice ?? DEFAULT_APPROVAL_GAS.gasPrice,
      gasLimit: gasLimit ?? DEFAULT_APPROVAL_GAS.gasLimit,
    },
  };
}

/** Reads a profile file; a missing default profile says how to make one. */
export async function readTradingProfile(file = DEFAULT_SANDBOX_PROFILE): Promise<TradingProfile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw invalidParameter(
      file === DEFAULT_SANDBOX_PROFILE
        ? `No network profile at ${file}: start the local sandbox (npm run sandbox) or pass --profile FILE.`
        : `Cannot read the network profile ${file}${code ? ` (${code})` : ''}.`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalidParameter(`Cannot read the network profile ${file} as JSON.`);
  }
  return parseTradingProfile(json);
}
