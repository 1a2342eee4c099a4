// Network profiles: which chain an order is signed for and which exchange contract verifies it, for every
// order version Polymarket has used (1: CTF Exchange, 2: CTF Exchange V2 on pUSD, 3: ExchangeV3).
import { isAddress } from 'ethers';
import { z } from 'zod';
import { ErrorCode, PmDeskError, invalidParameter } from '../model/errors';
import { AMOY_WALLETS, POLYGON_WALLETS, walletConfigSchema, type WalletConfig } from './wallet-config';
import { MARKET_SOURCE_KINDS, type MarketSourceKind } from '../model/lists';

/** The exchange protocol version an order is signed for: the EIP-712 domain version and the order struct. */
export type OrderVersion = 1 | 2 | 3;
export const ORDER_VERSIONS: readonly OrderVersion[] = [1, 2, 3];

export interface ContractAddresses {
  /** Version 1 exchange (domain "1"). */
  exchange: string;
  /** Version 1 exchange for neg-risk markets. */
  negRiskExchange: string;
  negRiskAdapter: string;
  collateral: string;
  conditionalTokens: string;
  /** Version 2 exchanges (domain "2"). */
  exchangeV2: string;
  negRiskExchangeV2: string;
  /** Version 3 exchange (domain "3"): one contract for every market, neg-risk or not. */
  exchangeV3: string;
  /** USDC.e, which the collateral onramp wraps into pUSD (the sandbox deploys its own). */
  usdcE?: string;
  /** The collateral onramp (`wrap`) and offramp (`unwrap`); the sandbox's one contract does both. */
  collateralOnramp?: string;
  collateralOfframp?: string;
}

export interface NetworkProfile {
  name: string;
  chainId: number;
  /** The order version this network's exchange expects, when the profile knows it; otherwise ask `/version`. */
  orderVersion?: OrderVersion;
  /** A custom profile (the sandbox) may name only the contracts of the versions it runs. */
  contracts: Partial<ContractAddresses>;
  /** The exchange service of this network, when the profile knows it. */
  clobUrl?: string;
  /** The aggregator and its fill stream (the local sandbox writes both); the CLI uses them when no flag says otherwise. */
  aggregatorUrl?: string;
  sseUrl?: string;
  /** The account-wallet factories (proxy, Safe, deposit wallet); a custom profile without them uses its chain's built-in ones. */
  wallets?: WalletConfig;
  /**
   * Where markets are read: Polymarket's own APIs or the aggregator. A profile with an aggregator URL and no
   * source reads from the aggregator, as every profile did before there was a choice (sources/create.ts).
   */
  source?: MarketSourceKind;
  /** Polymarket's Gamma API (events, markets, search) and Data API (positions, activity, trades). */
  gammaUrl?: string;
  dataUrl?: string;
  /** The exchange's WebSocket base ending in `/ws`: channels are `${wsUrl}/market` and `${wsUrl}/user`. */
  wsUrl?: string;
  /** The real-time data service (whole-market trade activity), a ws:// or wss:// URL. */
  rtdsUrl?: string;
  /** Polymarket's geoblock check (may trading happen from here). */
  geoblockUrl?: string;
  /** A JSON-RPC node of the chain. */
  rpcUrl?: string;
  /** Polymarket's relayer (gasless actions for proxy, Safe and deposit wallets). */
  relayerUrl?: string;
  /** Relayer API keys the profile hands out (the sandbox gives each test wallet one): used with no login. */
  relayerApiKeys?: { key: string; address: string }[];
}

/** A built-in network: every address known. */
export type KnownNetwork = NetworkProfile & { contracts: ContractAddresses };

/**
 * The two networks Polymarket publishes (clob-client-v2 1.1.0 `getContractConfig`; version 1 addresses unchanged),
 * each with Polymarket's public endpoints, so they open with no setup and read real markets directly.
 */
export const POLYGON: KnownNetwork = {
  name: 'polygon',
  chainId: 137,
  source: 'polymarket',
  // Polymarket's ts-sdk `production` environment (packages/client/src/environments.ts).
  gammaUrl: 'https://gamma-api.polymarket.com',
  dataUrl: 'https://data-api.polymarket.com',
  clobUrl: 'https://clob.polymarket.com',
  wsUrl: 'wss://ws-subscriptions-clob.polymarket.com/ws',
  rtdsUrl: 'wss://ws-live-data.polymarket.com',
  geoblockUrl: 'https://polymarket.com/api/geoblock',
  relayerUrl: 'https://relayer-v2.polymarket.com',
  rpcUrl: 'https://polygon.drpc.org',
  // No orderVersion here: the toolkit asks the exchange's /version (it moves 1 → 2 → 3); the app's built-in
  // Polygon profile (settings/networks.ts) states 2.
  contracts: {
    exchange: '0x4bFb41d5B3570DeFd03C39a9A4D8dE6Bd8B8982E',
    negRiskExchange: '0xC5d563A36AE78145C45a50134d48A1215220f80a',
    negRiskAdapter: '0xd91E80cF2E7be2e162c6513ceD06f1dD0dA35296',
    collateral: '0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB',
    conditionalTokens: '0x4D97DCd97eC945f40cF65F87097ACe5EA0476045',
    exchangeV2: '0xE111180000d2663C0091e4f400237545B87B996B',
    negRiskExchangeV2: '0xe2222d279d744050d28e00520010520000310F59',
    exchangeV3: '0xe3333700cA9d93003F00f0F71f8515005F6c00Aa',
  },
  wallets: POLYGON_WALLETS,
};

/**
 * Polymarket publishes no Amoy environment: the ts-sdk has only `production` (chain 137) and an internal
 * `preproduction` fork of it, and clob-client-v2 names chain 80002 without a host. The staging CLOB
 * `https://clob-staging.polymarket.com` is the one documented (the CLOB OpenAPI's servers list, py-clob-client's
 * Amoy examples); no staging Gamma, Data API, WebSocket or real-time feed is published, so Amoy reads markets
 * from the production Gamma and Data API (their token ids need not exist on the staging CLOB) and polls books
 * from the staging CLOB instead of following a WebSocket.
 */
export const AMOY: KnownNetwork = {
  name: 'amoy',
  chainId: 80002,
  source: 'polymarket',
  gammaUrl: 'https://gamma-api.polymarket.com',
  dataUrl: 'https://data-api.polymarket.com',
  clobUrl: 'https://clob-staging.polymarket.com',
  rtdsUrl: 'wss://ws-live-data.polymarket.com',
  geoblockUrl: 'https://polymarket.com/api/geoblock',
  rpcUrl: 'https://rpc-amoy.polygon.technology',
  contracts: {
    exchange: '0xdFE02Eb6733538f8Ea35D585af8DE5958AD99E40',
    negRiskExchange: '0xC5d563A36AE78145C45a50134d48A1215220f80a',
    negRiskAdapter: '0xd91E80cF2E7be2e162c6513ceD06f1dD0dA35296',
    collateral: '0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB',
    conditionalTokens: '0x69308FB512518e39F9b16112fA8d994F4e2Bf8bB',
    exchangeV2: '0xE111180000d2663C0091e4f400237545B87B996B',
    negRiskExchangeV2: '0xe2222d279d744050d28e00520010520000310F59',
    exchangeV3: '0x9fE6e61422AdB6F610d8597F9684b16912D50C3D',
  },
  wallets: AMOY_WALLETS,
};

/** Collateral before the 2026-04-28 cutover (USDC.e on Polygon), kept for reading old balances. */
export const V1_COLLATERAL: Readonly<Record<number, string>> = {
  137: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174',
  80002: '0x9c4e1703476e875070ee25b56a58b008cfb8fa78',
};

export const COLLATERAL_TOKEN_DECIMALS = 6;
export const CONDITIONAL_TOKEN_DECIMALS = 6;
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
export const BYTES32_ZERO = `0x${'0'.repeat(64)}`;

const BUILT_IN: readonly NetworkProfile[] = [POLYGON, AMOY];

/**
 * The profile for a chain: a custom profile given for that chain wins (the local sandbox, a fork),
 * then the built-in ones; any other chain is "Invalid network", as in the official clients.
 */
export function networkFor(chainId: number, custom: readonly NetworkProfile[] = []): NetworkProfile {
  const found = custom.find((p) => p.chainId === chainId) ?? BUILT_IN.find((p) => p.chainId === chainId);
  if (!found) throw new PmDeskError(ErrorCode.INVALID_PARAMETER, 'Invalid network', { context: { chainId } });
  return found;
}

/** The account-wallet factories of a network: its own, else the built-in ones of its chain, else none. */
export function walletConfigFor(network: NetworkProfile): WalletConfig {
  return network.wallets ?? BUILT_IN.find((p) => p.chainId === network.chainId)?.wallets ?? {};
}

/** The contract whose EIP-712 domain an order of this version and market kind is signed against. */
export function verifyingContract(network: NetworkProfile, version: OrderVersion, negRisk: boolean): string {
  const field: keyof ContractAddresses =
    version === 1
      ? negRisk
        ? 'negRiskExchange'
        : 'exchange'
      : version === 2
        ? negRisk
          ? 'negRiskExchangeV2'
          : 'exchangeV2'
        : 'exchangeV3';
  const address = network.contracts[field];
  if (!address)
    throw invalidParameter(`The network profile ${network.name} has no ${field} address for order version ${version}.`);
  return address;
}

const address = z.string().refine((value) => isAddress(value), { message: 'not an address' });
const httpUrl = z.string().url();
const wsUrl = z.string().regex(/^wss?:\/\/\S+$/, 'a ws:// or wss:// URL');
/** An endpoint a profile may leave out, or write as '' (the app's profiles do): '' reads as absent. */
const optional = (schema: z.ZodString) =>
  z
    .union([schema, z.literal('')])
    .optional()
    .transform((v) => v || undefined);
const profileSchema = z.object({
  name: z.string().min(1).default('custom'),
  chainId: z.number().int().positive(),
  orderVersion: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
  clobUrl: z.string().url().optional(),
  aggregatorUrl: z.string().url().optional(),
  sseUrl: z.string().url().optional(),
  wallets: walletConfigSchema.optional(),
  source: z.enum(MARKET_SOURCE_KINDS).optional(),
  gammaUrl: optional(httpUrl),
  dataUrl: optional(httpUrl),
  wsUrl: optional(wsUrl),
  rtdsUrl: optional(wsUrl),
  geoblockUrl: optional(httpUrl),
  rpcUrl: optional(httpUrl),
  relayerUrl: optional(httpUrl),
  relayerApiKeys: z
    .array(z.object({ key: z.string().min(1).max(512), address }))
    .max(1000)
    .optional(),
  contracts: z
    .object({
      exchange: address,
      negRiskExchange: address,
      negRiskAdapter: address,
      collateral: address,
      conditionalTokens: address,
      exchangeV2: address,
      negRiskExchangeV2: address,
      exchangeV3: address,
      usdcE: address,
      collateralOnramp: address,
      collateralOfframp: address,
    })
    .partial(),
});

/**
 * A custom network profile from JSON (what the local sandbox writes): a chain id, optionally an order version,
 * its market-data source and that source's URLs, the exchange, chain and WebSocket URLs, the contract addresses
 * it has and its account-wallet factories (`wallets`); other keys are ignored. This is the one profile loader:
 * the CLI, the trade flow and the app all read a profile through it, so the version defaults below hold for
 * every command (`withVersionDefaults`).
 */
export function parseNetworkProfile(value: unknown): NetworkProfile {
  const parsed = profileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidParameter(`Invalid network profile: ${issue.path.join('.') || 'profile'}: ${issue.message}`);
  }
  const { contracts, wallets, ...rest } = parsed.data;
  const known = withVersionDefaults(
    Object.fromEntries(Object.entries(contracts).filter(([, v]) => v !== undefined)) as Partial<ContractAddresses>,
    rest.orderVersion,
  );
  const stated = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as Omit<
    NetworkProfile,
    'contracts' | 'wallets'
  >;
  if (!wallets) return { ...stated, contracts: known };
  return {
    ...stated,
    contracts: known,
    wallets: Object.fromEntries(Object.entries(wallets).filter(([, v]) => v !== undefined)) as WalletConfig,
  };
}

/**
 * The sandbox names only the exchanges of the version it runs, as `exchange` and `negRiskExchange`; for a profile
 * of version 2 or 3 those become that version's fields, so it signs against its own exchange rather than looking
 * for a version 1 one. Per-version fields already set are kept.
 */
export function withVersionDefaults(
  contracts: Partial<ContractAddresses>,
  orderVersion: OrderVersion | undefined,
): Partial<ContractAddresses> {
  const c = { ...contracts };
  if (orderVersion === 2) {
    c.exchangeV2 ??= c.exchange;
    c.negRiskExchangeV2 ??= c.negRiskExchange;
    // The version 1 names meant this version's exchanges; keeping them would claim version 1 contracts exist.
    if (c.exchangeV2 !== undefined && c.exchangeV2 === c.exchange) delete c.exchange;
    if (c.negRiskExchangeV2 !== undefined && c.negRiskExchangeV2 === c.negRiskExchange) delete c.negRiskExchange;
  } else if (orderVersion === 3) {
    c.exchangeV3 ??= c.exchange;
    if (c.exchangeV3 !== undefined && c.exchangeV3 === c.exchange) delete c.exchange;
  }
  return c;
}
