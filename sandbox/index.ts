// The whole local exchange in one call: the chain with its contracts and markets, the market catalog and its
// generated history, the CLOB server, the aggregator server, the Polymarket public-API server (Gamma, Data
// API, real-time feed, geoblock), and the network profile that the toolkit, the CLI and the app read.
// `stop()` ends every part it started.
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AggregatorServer } from './aggregator/server';
import { ChainTraderDirectory } from './aggregator/traders';
import {
  sandboxProvider,
  startChain,
  deploySandbox,
  type Deployment,
  type OrderVersion,
  type SandboxWallets,
  type TestAccount,
  SANDBOX_CHAIN_ID,
  AMOY_CHAIN_ID,
} from './chain/index';
import { SANDBOX_EVENTS, buildCatalog, type Catalog } from './market/catalog';
import { generateHistory } from './market/history';
import { MarketData } from './market/market-data';
import { startClobServer, type ClobServer } from './clob/server';
import { journalFills, loadFillJournal } from './market/fill-journal';
import { fundBots } from './sim/fund';
import { PolymarketServer } from './polymarket/server';
import type { GeoblockState } from './polymarket/geoblock';
import { MarketSimulator } from './sim/simulator';
import { startRelayer, SANDBOX_RELAY_KEY, sandboxRelayerApiKey, type SandboxRelayer } from './relayer/server';
import { findMarket, outcomeIndex, resolveMarket, type ResolutionReport } from './resolve';

export type { ResolutionReport } from './resolve';

/** The network profile (docs/architecture.md#processes): what a client needs to trade on this sandbox. */
export interface NetworkProfile {
  name: string;
  /** The market-data source the profile names; absent means the aggregator when aggregatorUrl is set. */
  source?: SandboxSource;
  chainId: number;
  rpcUrl: string;
  clobUrl: string;
  /** Absent on a `source: 'polymarket'` profile. */
  aggregatorUrl?: string;
  sseUrl?: string;
  wsUrl: string;
  /** Polymarket's public hosts, served by the sandbox's Polymarket server: Gamma and the Data API (one base). */
  gammaUrl: string;
  dataUrl: string;
  /** The real-time data service: the exact ws:// URL to connect to. */
  rtdsUrl: string;
  /** The geoblock check itself (`…/api/geoblock`, as https://polymarket.com/api/geoblock): the URL a client GETs. */
  geoblockUrl: string;
  /** Polymarket's relayer stand-in (gasless Safe and deposit-wallet actions): docs/sandbox.md. */
  relayerUrl: string;
  /** A relayer API key for each test wallet, which the sandbox relayer accepts (RELAYER_API_KEY + its address). */
  relayerApiKeys: { key: string; address: string }[];
  orderVersion: OrderVersion;
  /** `collateral` is pUSD; `usdcE` and `collateralOnramp` wrap USDC.e into it (wrap/unwrap, 1:1). */
  contracts: {
    collateral: string;
    conditionalTokens: string;
    exchange: string;
    negRiskExchange: string;
    negRiskAdapter: string;
    usdcE: string;
    collateralOnramp: string;
  };
  /** Receives the platform fees charged at match time on markets with fees (sandbox only). */
  feeRecipient: string;
  testWallets: { address: string; privateKey: string }[];
  /** Polymarket's account contracts on this chain (proxy wallets, Safes, deposit wallets). */
  wallets: SandboxWallets;
  /** One funded, approved account of each kind; its owner is one of testWallets (its key signs). */
  testAccounts: TestAccount[];
}

/** Which market-data source the written profile names. */
export type SandboxSource = 'polymarket' | 'aggregator';

export interface SandboxOptions {
  /**
   * Ports for each part; 0 picks a free one. `polymarket` defaults to a free port when `aggregator` is 0 (callers
   * that ask for free ports, like every test, get one there too without naming it), else to 4813.
   */
  ports?: { rpc?: number; clob?: number; aggregator?: number; polymarket?: number; relayer?: number };
  /**
   * The profile's source: 'polymarket' writes `source` and no aggregator URLs, 'aggregator' writes `source`
   * with them; absent (the default) writes every URL and no `source`. Every server runs in each case.
   */
  source?: SandboxSource;
  /** What the geoblock check answers at start (not blocked by default); `polymarket.geoblock()` changes it. */
  geoblock?: GeoblockState;
  /**
   * Keep the chain, its deployment, the CLOB's state (API keys, orders, trades, notifications) and the real
   * fills here across restarts; without it, nothing is written and everything is thrown away on stop.
   */
  dataDir?: string;
  orderVersion?: OrderVersion;
  /** 31338 by default; 80002 puts the contracts at Polymarket's Amoy addresses for compatibility tests. */
  chainId?: number;
  /** Seed of the generated history (and the bots): the same seed gives the same sandbox. */
  seed?: number;
  /** Days of generated history. */
  historyDays?: number;
  /**
   * The market simulator: 'run' (default) trades on its own every `simIntervalMs`; 'manual' opens the bots'
   * quotes and leaves the stepping to the caller (tests); 'off' starts no bots.
   */
  simulate?: 'run' | 'manual' | 'off';
  simIntervalMs?: number;
  /** How many bot wallets trade (half make markets, half take). */
  bots?: number;
  now?: () => number;
  log?: (line: string) => void;
  /** Once an owner has sent a heartbeat, silence this long cancels its orders (10 s, as Polymarket; tests shorten it). */
  heartbeatTimeoutMs?: number;
  /**
   * Model the exchange's balance/allowance cache lag: a fill's shares stay unseen by the order checks until
   * `GET /balance-allowance/update` for that token, or this many milliseconds (off unless given).
   */
  shareViewLagMs?: number;
}

export interface RunningSandbox {
  profile: NetworkProfile;
  deployment: Deployment;
  catalog: Catalog;
  marketData: MarketData;
  clob: ClobServer;
  /** The aggregator server (tests use its fault switch, `dropFillStreams`). */
  aggregator: AggregatorServer;
  /** Gamma, Data API, real-time feed and geoblock (tests use `geoblock()` and `rtdsFaults()`). */
  polymarket: PolymarketServer;
  /** The relayer stand-in: /nonce, /relay-payload, /deployed, /submit, /transaction, /transactions. */
  relayer: SandboxRelayer;
  simulator: MarketSimulator | undefined;
  /**
   * Resolves a market (catalog id, slug or condition id): the CLOB closes it and cancels its orders, the
   * operator reports the payouts on ConditionalTokens, Gamma and the aggregator show it resolved. From outside
   * a running sandbox: POST /admin/resolve on the Polymarket server, or `npm run sandbox:resolve`.
   */
  resolveMarket(marketId: string, winningOutcomeIndex: 0 | 1): Promise<ResolutionReport>;
  stop(): Promise<void>;
}

export const DEFAULT_PORTS = { aggregator: 4810, clob: 4811, rpc: 4812, polymarket: 4813, relayer: 4814 } as const;

/** Matches the catalog's markets to the chain's, in the order they were opened. */
export function catalogFor(deployment: Deployment): Catalog {
  const flat = SANDBOX_EVENTS.flatMap((e) => e.markets.map((m) => m.id));
  return buildCatalog(SANDBOX_EVENTS, (market) => {
    const onChain = deployment.markets[flat.indexOf(market.id)];
    if (!onChain) throw new Error(`market ${market.id} has no condition on the chain`);
    return { conditionId: onChain.conditionId, tokenIds: onChain.tokenIds, negRiskEvent: onChain.negRiskEvent };
  });
}

/** The CLOB's state and the real fills in the data folder. */
export const CLOB_STATE_FILE = 'clob-state.json';
export const FILLS_FILE = 'market-fills.jsonl';

/** Starts the chain (and deploys, unless the data folder already holds a deployment; `deployed` says it did). */
export async function startSandboxChainFor(
  options: SandboxOptions,
): Promise<{ deployment: Deployment; deployed: boolean; stop: () => Promise<void> }> {
  const chainId = options.chainId ?? SANDBOX_CHAIN_ID;
  const stateFile = options.dataDir ? join(options.dataDir, 'chain-state.json') : undefined;
  const deploymentFile = options.dataDir ? join(options.dataDir, 'deployment.json') : undefined;
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const saved = deploymentFile ? await readJson<Deployment>(deploymentFile) : undefined;
  // A deployment from before the account factories (no `wallets`) or the onramp (no `usdcE`) is started afresh too.
  const reuse =
    saved &&
    saved.chainId === chainId &&
    saved.orderVersion === (options.orderVersion ?? 2) &&
    saved.wallets !== undefined &&
    saved.contracts.usdcE !== undefined &&
    // …or from before the adapter knew neg-risk events (no market id on a neg-risk market).
    saved.markets.every((m) => !m.negRisk || m.negRiskEvent !== undefined);
  // A state file from another chain id or order version would resurrect the wrong contracts: start afresh.
  if (stateFile && !reuse) await rm(stateFile, { force: true });
  const chain = await startChain({ port: options.ports?.rpc ?? DEFAULT_PORTS.rpc, chainId, stateFile });
  try {
    if (reuse) {
      options.log?.(`reusing the deployment in ${options.dataDir}`);
      return { deployment: { ...saved, rpcUrl: chain.rpcUrl }, deployed: false, stop: chain.stop };
    }
    const deployment = await deploySandbox(chain, {
      orderVersion: options.orderVersion ?? 2,
      addresses: chainId === AMOY_CHAIN_ID ? 'amoy' : 'sandbox',
      markets: SANDBOX_EVENTS.flatMap((e) =>
        e.markets.map((m) => ({ question: m.question, negRisk: e.negRisk, event: e.negRisk ? e.slug : undefined })),
      ),
    });
    if (deploymentFile) await writeJsonAtomic(deploymentFile, deployment);
    return { deployment, deployed: true, stop: chain.stop };
  } catch (error) {
    await chain.stop();
    throw error;
  }
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
  };
  try {
    const chain = await startSandboxChainFor(options);
    stops.push(chain.stop);
    const { deployment } = chain;
    const catalog = catalogFor(deployment);
    const marketData = new MarketData(
      catalog,
      generateHistory(catalog, { seed: options.seed ?? 42, now: now(), days: options.historyDays ?? 21 }),
    );
    const clobStateFile = options.dataDir ? join(options.dataDir, CLOB_STATE_FILE) : undefined;
    if (options.dataDir) {
      const fillsFile = join(options.dataDir, FILLS_FILE);
      // A fresh chain has none of the funds, orders or trades the old files speak of: they go with it.
      if (chain.deployed) await Promise.all([rm(clobStateFile!, { force: true }), rm(fillsFile, { force: true })]);
      await loadFillJournal(fillsFile, marketData, log);
      // Pushed before the CLOB's stop, so it runs after it: the CLOB's last settlements are written too.
      const journal = journalFills(fillsFile, marketData, log);
      stops.push(() => journal.stop());
    }
    const provider = sandboxProvider(deployment.rpcUrl, deployment.chainId);
    stops.push(async () => provider.destroy());
    const late: { clob?: ClobServer } = {};
    const traders = new ChainTraderDirectory({
      provider,
      conditionalTokens: deployment.contracts.conditionalTokens,
      collateral: deployment.contracts.collateral,
      catalog,
      marketData,
      knownWallets: deployment.testWallets.map((w, i) => ({ address: w.address, name: `sandbox-trader-${i + 1}` })),
      // The CLOB starts after the aggregator; its fills are read when a profile is asked for.
      fills: () => late.clob?.settledFills() ?? [],
      createdAt: new Date(now()).toISOString(),
    });
    const aggregator = await new AggregatorServer({
      catalog,
      marketData,
      traders,
      port: options.ports?.aggregator ?? DEFAULT_PORTS.aggregator,
      now,
    }).start();
    stops.push(() => aggregator.stop());
    log(`aggregator listening at ${aggregator.url}`);

    const clob = await startClobServer({
      deployment,
      catalog,
      marketData,
      port: options.ports?.clob ?? DEFAULT_PORTS.clob,
      now,
      stateFile: clobStateFile,
      log,
      heartbeatTimeoutMs: options.heartbeatTimeoutMs,
      shareViewLagMs: options.shareViewLagMs,
    });
    late.clob = clob;
    stops.push(() => clob.stop());
    log(`CLOB listening at ${clob.url} (WebSocket channels ${clob.url.replace(/^http/, 'ws')}/ws/market and /ws/user)`);

    const resolve = (marketId: string, winner: 0 | 1) =>
      resolveMarket({ deployment, catalog, clob, now }, marketId, winner);
    const polymarket = await new PolymarketServer({
      catalog,
      marketData,
      trades: clob.publicTrades,
      provider,
      conditionalTokens: deployment.contracts.conditionalTokens,
      negRiskAdapter: deployment.contracts.negRiskAdapter,
      // The owners of the ready-made accounts have them as their profile wallet.
      knownWallets: deployment.testWallets.map((w, i) => {
        const account = deployment.testAccounts.find((a) => a.owner.toLowerCase() === w.address.toLowerCase());
        return {
          address: w.address,
          name: `sandbox-trader-${i + 1}`,
          ...(account ? { account: account.address } : {}),
        };
      }),
      port: options.ports?.polymarket ?? (options.ports?.aggregator === 0 ? 0 : DEFAULT_PORTS.polymarket),
      now,
      geoblock: options.geoblock,
      admin: {
        resolve: async (market, outcome) => {
          const found = findMarket(catalog, market);
          if (!found) throw new Error(`no market ${market}`);
          return resolve(found.id, outcomeIndex(found, outcome));
        },
      },
    }).start();
    stops.push(() => polymarket.stop());
    log(`Polymarket APIs (Gamma, Data, geoblock) at ${polymarket.url}, real-time feed at ${polymarket.rtdsUrl}`);

    const relayerApiKeys = deployment.testWallets.map((w) => sandboxRelayerApiKey(w.address));
    const relayer = await startRelayer({
      rpcUrl: deployment.rpcUrl,
      chainId: deployment.chainId,
      wallets: deployment.wallets,
      relayKey: SANDBOX_RELAY_KEY,
      apiKeys: relayerApiKeys,
      port: options.ports?.relayer ?? (options.ports?.aggregator === 0 ? 0 : DEFAULT_PORTS.relayer),
    });
    stops.push(() => relayer.stop());
    log(`relayer (gasless Safe and deposit-wallet actions) at ${relayer.url}`);

    let simulator: MarketSimulator | undefined;
    if ((options.simulate ?? 'run') !== 'off') {
      const seed = options.seed ?? 42;
      const bots = await fundBots(deployment, options.bots ?? 4, seed);
      simulator = new MarketSimulator({
        clobUrl: clob.url,
        deployment,
        catalog,
        marketData,
        bots,
        seed,
        intervalMs: options.simIntervalMs,
        log,
      });
      await simulator.open();
      const running = simulator;
      stops.push(() => running.stop());
      if ((options.simulate ?? 'run') === 'run') running.start();
      log(
        `market simulator: ${bots.length} bots ${options.simulate === 'manual' ? 'quoting (manual steps)' : 'trading'}`,
      );
    }

    const profile: NetworkProfile = {
      name: 'sandbox',
      ...(options.source ? { source: options.source } : {}),
      chainId: deployment.chainId,
      rpcUrl: deployment.rpcUrl,
      clobUrl: clob.url,
      ...(options.source === 'polymarket' ? {} : { aggregatorUrl: aggregator.url, sseUrl: aggregator.url }),
      wsUrl: `${clob.url.replace(/^http/, 'ws')}/ws`,
      gammaUrl: polymarket.url,
      dataUrl: polymarket.url,
      rtdsUrl: polymarket.rtdsUrl,
      geoblockUrl: `${polymarket.url}/api/geoblock`,
      relayerUrl: relayer.url,
      relayerApiKeys,
      orderVersion: deployment.orderVersion,
      contracts: { ...deployment.contracts },
      feeRecipient: deployment.feeRecipient,
      testWallets: deployment.testWallets.map((w) => ({ address: w.address, privateKey: w.privateKey })),
      wallets: { ...deployment.wallets },
      testAccounts: deployment.testAccounts.map((a) => ({ ...a })),
    };
    return {
      profile,
      deployment,
      catalog,
      marketData,
      clob,
      aggregator,
      polymarket,
      relayer,
      simulator,
      resolveMarket: resolve,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** Writes JSON so that a crash leaves the old file or the new one, never half of one. */
export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, file);
}
