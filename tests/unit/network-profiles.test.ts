// Network profiles name their market-data source: a profile with an aggregator URL and no source keeps the
// aggregator, one naming the aggregator without its URL (or Polymarket without Gamma and Data) is refused by
// field; the built-in Polygon and Amoy carry Polymarket's public endpoints and are listed as available; custom
// networks choose a source, and ones kept before there was a choice still read as aggregator networks.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { networkInfo, parseAppProfile, type AppProfile } from '../../src/main/settings/profile';
import { NETWORKS_FILE, NetworkBook } from '../../src/main/settings/networks';
import { parseTradingProfile } from '../../src/main/trading/profile';
import { AMOY, POLYGON, parseNetworkProfile } from '../../packages/toolkit/src/chain/networks';
import { createMarketSource } from '../../packages/toolkit/src/sources/create';
import { PolymarketSource } from '../../packages/toolkit/src/polymarket/source';
import { operations } from '../../src/shared/contract';

const LOCAL = {
  name: 'sandbox',
  chainId: 31338,
  rpcUrl: 'http://127.0.0.1:4812',
  clobUrl: 'http://127.0.0.1:4811',
  aggregatorUrl: 'http://127.0.0.1:4810',
  sseUrl: 'http://127.0.0.1:4810',
  wsUrl: 'ws://127.0.0.1:4811/ws',
  orderVersion: 2,
  contracts: {},
};
const DIRECT = {
  name: 'lab',
  chainId: 31338,
  source: 'polymarket',
  gammaUrl: 'http://127.0.0.1:4813/gamma',
  dataUrl: 'http://127.0.0.1:4813/data',
  clobUrl: 'http://127.0.0.1:4811',
  rtdsUrl: 'ws://127.0.0.1:4813/rtds',
  rpcUrl: 'http://127.0.0.1:4812',
  orderVersion: 2,
  contracts: {},
};

const detail = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return (error as { detail?: string }).detail ?? String(error);
  }
  throw new Error('expected a refusal');
};

describe('the app profile', () => {
  it('reads a profile with an aggregator URL and no source as an aggregator network (as before)', () => {
    expect(parseAppProfile(LOCAL).source).toBe('aggregator');
  });

  it('reads a profile with no aggregator URL as Polymarket direct, and carries its URLs', () => {
    const { source: _named, ...unnamed } = DIRECT;
    const profile = parseAppProfile(unnamed);
    expect(profile).toMatchObject({
      source: 'polymarket',
      gammaUrl: DIRECT.gammaUrl,
      dataUrl: DIRECT.dataUrl,
      rtdsUrl: DIRECT.rtdsUrl,
    });
    expect(profile.aggregatorUrl).toBeUndefined();
  });

  it('refuses the aggregator as source without its URL, and Polymarket without Gamma or Data, naming the field', () => {
    expect(detail(() => parseAppProfile({ ...LOCAL, source: 'aggregator', aggregatorUrl: '' }))).toMatch(
      /^Invalid network profile: aggregatorUrl: required when the source is the aggregator/,
    );
    expect(detail(() => parseAppProfile({ ...DIRECT, dataUrl: undefined }))).toMatch(
      /^Invalid network profile: dataUrl: required when the source is polymarket/,
    );
    expect(detail(() => parseAppProfile({ name: 'x', chainId: 1 }))).toMatch(
      /gammaUrl: required when the source is polymarket \(a profile with no aggregatorUrl/,
    );
    expect(detail(() => parseAppProfile({ ...DIRECT, source: 'kalshi' }))).toMatch(/^Invalid network profile: source:/);
    expect(detail(() => parseAppProfile({ ...DIRECT, rtdsUrl: 'https://not-a-socket' }))).toMatch(
      /^Invalid network profile: rtdsUrl:/,
    );
  });

  it('network info names the source and its URLs; a local exchange is the sandbox without any aggregator URL', () => {
    const direct = networkInfo(parseAppProfile(DIRECT), 'browser');
    expect(direct).toEqual({
      name: 'lab',
      chainId: 31338,
      orderVersion: 2,
      source: 'polymarket',
      clobUrl: DIRECT.clobUrl,
      aggregatorUrl: '',
      gammaUrl: DIRECT.gammaUrl,
      sandbox: true,
      shell: 'browser',
    });
    expect(networkInfo(parseAppProfile(LOCAL), 'electron')).toMatchObject({
      source: 'aggregator',
      aggregatorUrl: LOCAL.aggregatorUrl,
      gammaUrl: '',
      sandbox: true,
    });
    // Remote reads, or Polygon's chain, are not the sandbox.
    expect(networkInfo(parseAppProfile({ ...DIRECT, gammaUrl: 'https://gamma.example' }), 'browser').sandbox).toBe(
      false,
    );
    expect(networkInfo(parseAppProfile({ ...DIRECT, chainId: 137 }), 'browser').sandbox).toBe(false);
    // A profile built by hand (no source settled) is read the same way.
    const byHand: AppProfile = { name: 'fixture', chainId: 31338, clobUrl: '', aggregatorUrl: 'http://127.0.0.1:1' };
    expect(networkInfo(byHand, 'browser')).toMatchObject({ source: 'aggregator', sandbox: true });
  });
});

describe('the trading profile', () => {
  it('carries the source endpoints; the aggregator URL is optional and, when there, kept for the oracle', () => {
    const direct = parseTradingProfile(DIRECT);
    expect(direct.aggregatorUrl).toBeUndefined();
    expect(direct.endpoints).toEqual({
      source: 'polymarket',
      aggregatorUrl: undefined,
      sseUrl: undefined,
      gammaUrl: DIRECT.gammaUrl,
      dataUrl: DIRECT.dataUrl,
      clobUrl: DIRECT.clobUrl,
      rtdsUrl: DIRECT.rtdsUrl,
    });
    const local = parseTradingProfile(LOCAL);
    expect(local.aggregatorUrl).toBe(LOCAL.aggregatorUrl);
    expect(local.endpoints).toMatchObject({
      source: undefined,
      aggregatorUrl: LOCAL.aggregatorUrl,
      sseUrl: LOCAL.sseUrl,
      clobUrl: LOCAL.clobUrl,
    });
    expect(detail(() => parseTradingProfile({ ...DIRECT, source: 'aggregator' }))).toMatch(
      /aggregatorUrl: required when the source is the aggregator/,
    );
  });
});

describe('the toolkit network profile', () => {
  it('reads the source and its URLs; an empty URL is absent, a wrong one is refused by name', () => {
    expect(parseNetworkProfile({ ...DIRECT, geoblockUrl: 'http://127.0.0.1:4813/geoblock', wsUrl: '' })).toEqual({
      name: 'lab',
      chainId: 31338,
      orderVersion: 2,
      source: 'polymarket',
      gammaUrl: DIRECT.gammaUrl,
      dataUrl: DIRECT.dataUrl,
      clobUrl: DIRECT.clobUrl,
      rtdsUrl: DIRECT.rtdsUrl,
      geoblockUrl: 'http://127.0.0.1:4813/geoblock',
      rpcUrl: DIRECT.rpcUrl,
      contracts: {},
    });
    expect(detail(() => parseNetworkProfile({ ...DIRECT, wsUrl: 'http://127.0.0.1/ws' }))).toMatch(
      /^Invalid network profile: wsUrl:/,
    );
  });

  it('built-in Polygon and Amoy carry every endpoint Polymarket direct needs, and open as that source', () => {
    for (const network of [POLYGON, AMOY]) {
      expect(network.source).toBe('polymarket');
      for (const key of ['gammaUrl', 'dataUrl', 'clobUrl', 'rtdsUrl', 'geoblockUrl', 'rpcUrl'] as const)
        expect(network[key], `${network.name} ${key}`).toMatch(/^(https|wss):\/\/\S+$/);
      expect(createMarketSource(network)).toBeInstanceOf(PolymarketSource);
    }
    expect(POLYGON).toMatchObject({
      gammaUrl: 'https://gamma-api.polymarket.com',
      dataUrl: 'https://data-api.polymarket.com',
      clobUrl: 'https://clob.polymarket.com',
      wsUrl: 'wss://ws-subscriptions-clob.polymarket.com/ws',
      rtdsUrl: 'wss://ws-live-data.polymarket.com',
      geoblockUrl: 'https://polymarket.com/api/geoblock',
    });
    // Amoy has no published WebSocket: its books are polled from the staging CLOB.
    expect(AMOY.clobUrl).toBe('https://clob-staging.polymarket.com');
    expect('wsUrl' in AMOY).toBe(false);
  });
});

describe('the network book', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'pmdesk-network-book-'));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));
  const book = () => new NetworkBook({ raw: LOCAL, profile: parseAppProfile(LOCAL) }, dataDir);
  const addInput = (input: unknown) => operations.addNetwork.input.parse(input);

  it('lists Polygon and Amoy as available, read from Polymarket, with order version 2 and their contracts', async () => {
    expect(await book().list('sandbox')).toEqual([
      { name: 'sandbox', chainId: 31338, source: 'aggregator', sandbox: true, current: true, available: true },
      { name: 'polygon', chainId: 137, source: 'polymarket', sandbox: false, current: false, available: true },
      { name: 'amoy', chainId: 80002, source: 'polymarket', sandbox: false, current: false, available: true },
    ]);
    const polygon = await book().find('polygon');
    expect(polygon.unavailable).toBeUndefined();
    expect(polygon.raw).toMatchObject({
      orderVersion: 2,
      source: 'polymarket',
      contracts: POLYGON.contracts,
      clobUrl: POLYGON.clobUrl,
      wsUrl: POLYGON.wsUrl,
    });
    expect(parseTradingProfile(polygon.raw).network).toMatchObject({
      chainId: 137,
      orderVersion: 2,
      clobUrl: 'https://clob.polymarket.com',
    });
  });

  it('adds a custom network on either source; one without its source URLs is refused', async () => {
    const direct = addInput({
      name: 'lab',
      chainId: 31338,
      source: 'polymarket',
      gammaUrl: DIRECT.gammaUrl,
      dataUrl: DIRECT.dataUrl,
      clobUrl: DIRECT.clobUrl,
      rpcUrl: DIRECT.rpcUrl,
      orderVersion: 2,
    });
    expect(await book().add(direct, 'sandbox')).toEqual({
      name: 'lab',
      chainId: 31338,
      source: 'polymarket',
      sandbox: true,
      current: false,
      available: true,
    });
    // Without a source named, the contract reads the network as an aggregator one (as every client did before).
    expect(
      addInput({
        name: 'agg',
        chainId: 31338,
        aggregatorUrl: LOCAL.aggregatorUrl,
        clobUrl: LOCAL.clobUrl,
        rpcUrl: LOCAL.rpcUrl,
        orderVersion: 2,
      }).source,
    ).toBe('aggregator');
    expect(() =>
      addInput({ name: 'agg', chainId: 31338, clobUrl: LOCAL.clobUrl, rpcUrl: LOCAL.rpcUrl, orderVersion: 2 }),
    ).toThrow(/aggregatorUrl/);
    expect(() =>
      addInput({
        name: 'lab2',
        chainId: 31338,
        source: 'polymarket',
        clobUrl: LOCAL.clobUrl,
        rpcUrl: LOCAL.rpcUrl,
        orderVersion: 2,
      }),
    ).toThrow(/gammaUrl/);
    // The book refuses it too when handed one without its URLs directly.
    await expect(book().add({ ...direct, name: 'lab3', dataUrl: undefined }, 'sandbox')).rejects.toThrow(
      /dataUrl: required/,
    );
  });

  it('reads networks kept before there was a choice of source as aggregator networks', async () => {
    const kept = {
      name: 'old',
      chainId: 31338,
      aggregatorUrl: LOCAL.aggregatorUrl,
      clobUrl: LOCAL.clobUrl,
      rpcUrl: LOCAL.rpcUrl,
      orderVersion: 2,
    };
    await writeFile(join(dataDir, NETWORKS_FILE), JSON.stringify({ networks: [kept] }));
    const list = await book().list('sandbox');
    expect(list.at(-1)).toEqual({
      name: 'old',
      chainId: 31338,
      source: 'aggregator',
      sandbox: true,
      current: false,
      available: true,
    });
  });
});

describe("one profile loader: the sandbox's version defaults hold for every reader", () => {
  const A = '0x1111111111111111111111111111111111111111';
  const B = '0x2222222222222222222222222222222222222222';
  const C = '0x3333333333333333333333333333333333333333';
  const sandboxLike = (orderVersion: number, contracts: Record<string, string>) => ({
    ...LOCAL,
    orderVersion,
    contracts: { collateral: C, ...contracts },
  });

  it("gives a version 2 profile's `exchange` and `negRiskExchange` to version 2, in the toolkit loader and the trade flow alike", () => {
    const network = parseNetworkProfile(sandboxLike(2, { exchange: A, negRiskExchange: B }));
    expect(network.contracts).toEqual({ collateral: C, exchangeV2: A, negRiskExchangeV2: B });
    expect(parseTradingProfile(sandboxLike(2, { exchange: A, negRiskExchange: B })).network.contracts).toEqual(
      network.contracts,
    );
  });

  it("gives a version 3 profile's `exchange` to version 3, and keeps per-version fields already set", () => {
    expect(parseNetworkProfile(sandboxLike(3, { exchange: A })).contracts).toEqual({ collateral: C, exchangeV3: A });
    expect(parseNetworkProfile(sandboxLike(2, { exchange: A, exchangeV2: B })).contracts).toEqual({
      collateral: C,
      exchange: A,
      exchangeV2: B,
    });
    // A version 1 profile, or one that does not say, keeps its names as they are.
    expect(parseNetworkProfile(sandboxLike(1, { exchange: A })).contracts).toEqual({ collateral: C, exchange: A });
    expect(parseNetworkProfile({ ...LOCAL, orderVersion: undefined, contracts: { exchange: A } }).contracts).toEqual({
      exchange: A,
    });
  });
});
