// Where pmdesk's URLs come from: flag > environment > --network profile > the local sandbox's default, URL by
// URL; and which market-data source its reads go through.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_API_URL,
  DEFAULT_CLOB_URL,
  DEFAULT_DATA_URL,
  DEFAULT_GAMMA_URL,
  DEFAULT_RTDS_URL,
  networkProfile,
  resolveEndpoints,
  resolveSource,
} from '../../src/cli/network';
import { parseNetworkProfile } from '../../packages/toolkit/src/chain/networks';

const profile = parseNetworkProfile({
  name: 'sandbox',
  chainId: 31338,
  clobUrl: 'http://127.0.0.1:5001',
  aggregatorUrl: 'http://127.0.0.1:5002',
  sseUrl: 'http://127.0.0.1:5003',
  contracts: {},
});
const ENV = { PMDESK_CLOB_URL: 'http://env-clob', PMDESK_API_URL: 'http://env-api', PMDESK_SSE_URL: 'http://env-sse' };
const FLAGS = { clobUrl: 'http://flag-clob', apiUrl: 'http://flag-api', sseUrl: 'http://flag-sse' };
/** The sandbox's Gamma, Data and real-time defaults: what every case below leaves alone. */
const DIRECT_DEFAULTS = {
  gammaUrl: 'http://127.0.0.1:4813',
  dataUrl: 'http://127.0.0.1:4813',
  rtdsUrl: 'ws://127.0.0.1:4813/rtds',
};

describe('resolveEndpoints', () => {
  it("defaults to the local sandbox's ports, never to Polymarket's production exchange", () => {
    expect(resolveEndpoints({}, {}, undefined)).toEqual({
      apiUrl: 'http://127.0.0.1:4810',
      sseUrl: undefined,
      clobUrl: 'http://127.0.0.1:4811',
      ...DIRECT_DEFAULTS,
    });
    expect(DEFAULT_API_URL).toBe('http://127.0.0.1:4810');
    expect(DEFAULT_CLOB_URL).toBe('http://127.0.0.1:4811');
    expect(DEFAULT_GAMMA_URL).toBe('http://127.0.0.1:4813');
    expect(DEFAULT_DATA_URL).toBe('http://127.0.0.1:4813');
    expect(DEFAULT_RTDS_URL).toBe('ws://127.0.0.1:4813/rtds');
  });

  it('takes every URL from the profile over the default', () => {
    expect(resolveEndpoints({}, {}, profile)).toEqual({
      apiUrl: 'http://127.0.0.1:5002',
      sseUrl: 'http://127.0.0.1:5003',
      clobUrl: 'http://127.0.0.1:5001',
      ...DIRECT_DEFAULTS,
    });
  });

  it('takes the environment over the profile, and the flag over the environment', () => {
    expect(resolveEndpoints({}, ENV, profile)).toEqual({
      apiUrl: 'http://env-api',
      sseUrl: 'http://env-sse',
      clobUrl: 'http://env-clob',
      ...DIRECT_DEFAULTS,
    });
    expect(resolveEndpoints(FLAGS, ENV, profile)).toEqual({
      apiUrl: 'http://flag-api',
      sseUrl: 'http://flag-sse',
      clobUrl: 'http://flag-clob',
      ...DIRECT_DEFAULTS,
    });
  });

  it('decides URL by URL, and treats an empty variable as unset', () => {
    expect(
      resolveEndpoints(
        { clobUrl: 'http://flag-clob' },
        { PMDESK_API_URL: 'http://env-api', PMDESK_SSE_URL: '' },
        profile,
      ),
    ).toEqual({
      apiUrl: 'http://env-api',
      sseUrl: 'http://127.0.0.1:5003',
      clobUrl: 'http://flag-clob',
      ...DIRECT_DEFAULTS,
    });
    // A profile without the aggregator's URLs leaves them to the defaults.
    const clobOnly = parseNetworkProfile({ chainId: 5, clobUrl: 'http://127.0.0.1:5001', contracts: {} });
    expect(resolveEndpoints({}, {}, clobOnly)).toEqual({
      apiUrl: DEFAULT_API_URL,
      sseUrl: undefined,
      clobUrl: 'http://127.0.0.1:5001',
      ...DIRECT_DEFAULTS,
    });
  });

  it("resolves Polymarket direct's URLs the same way: flag > environment > profile > the sandbox's", () => {
    // Built by hand: the profile fields of the sources, as a source-aware network profile carries them.
    const direct = {
      ...profile,
      gammaUrl: 'http://127.0.0.1:6001',
      dataUrl: 'http://127.0.0.1:6002',
      rtdsUrl: 'ws://127.0.0.1:6003/rtds',
    };
    const env = {
      PMDESK_GAMMA_URL: 'http://env-gamma',
      PMDESK_DATA_URL: 'http://env-data',
      PMDESK_RTDS_URL: 'ws://env-rtds',
    };
    const flags = { gammaUrl: 'http://flag-gamma', dataUrl: 'http://flag-data', rtdsUrl: 'ws://flag-rtds' };
    const pickDirect = (e: ReturnType<typeof resolveEndpoints>) => ({
      gammaUrl: e.gammaUrl,
      dataUrl: e.dataUrl,
      rtdsUrl: e.rtdsUrl,
    });
    expect(pickDirect(resolveEndpoints({}, {}, direct))).toEqual({
      gammaUrl: 'http://127.0.0.1:6001',
      dataUrl: 'http://127.0.0.1:6002',
      rtdsUrl: 'ws://127.0.0.1:6003/rtds',
    });
    expect(pickDirect(resolveEndpoints({}, env, direct))).toEqual({
      gammaUrl: 'http://env-gamma',
      dataUrl: 'http://env-data',
      rtdsUrl: 'ws://env-rtds',
    });
    expect(pickDirect(resolveEndpoints(flags, env, direct))).toEqual({
      gammaUrl: 'http://flag-gamma',
      dataUrl: 'http://flag-data',
      rtdsUrl: 'ws://flag-rtds',
    });
    expect(pickDirect(resolveEndpoints({ dataUrl: 'http://flag-data' }, { PMDESK_GAMMA_URL: '' }, undefined))).toEqual({
      gammaUrl: DEFAULT_GAMMA_URL,
      dataUrl: 'http://flag-data',
      rtdsUrl: DEFAULT_RTDS_URL,
    });
  });
});

describe('resolveSource', () => {
  const noAggregator = parseNetworkProfile({ chainId: 5, clobUrl: 'http://127.0.0.1:5001', contracts: {} });

  it('with nothing named, reads Polymarket direct on the local sandbox, never a real host', () => {
    expect(resolveSource({}, {}, undefined)).toEqual({
      source: 'polymarket',
      gammaUrl: 'http://127.0.0.1:4813',
      dataUrl: 'http://127.0.0.1:4813',
      clobUrl: 'http://127.0.0.1:4811',
      rtdsUrl: 'ws://127.0.0.1:4813/rtds',
      aggregatorUrl: 'http://127.0.0.1:4810',
      sseUrl: undefined,
    });
    expect(resolveSource({}, {}, noAggregator).source).toBe('polymarket');
  });

  it('an aggregator URL named by flag, variable or profile keeps the aggregator, as before there was a choice', () => {
    expect(resolveSource({ apiUrl: 'http://flag-api' }, {}, undefined)).toMatchObject({
      source: 'aggregator',
      aggregatorUrl: 'http://flag-api',
    });
    expect(resolveSource({}, { PMDESK_API_URL: 'http://env-api' }, undefined)).toMatchObject({
      source: 'aggregator',
      aggregatorUrl: 'http://env-api',
    });
    expect(resolveSource({}, {}, profile)).toMatchObject({
      source: 'aggregator',
      aggregatorUrl: 'http://127.0.0.1:5002',
      sseUrl: 'http://127.0.0.1:5003',
    });
    expect(resolveSource({}, { PMDESK_API_URL: '' }, undefined).source).toBe('polymarket');
  });

  it("a profile's own source wins over an aggregator URL it or a flag names", () => {
    const direct = {
      ...profile,
      source: 'polymarket' as const,
      gammaUrl: 'http://127.0.0.1:6001',
      dataUrl: 'http://127.0.0.1:6002',
    };
    expect(resolveSource({ apiUrl: 'http://flag-api' }, {}, direct)).toMatchObject({
      source: 'polymarket',
      gammaUrl: 'http://127.0.0.1:6001',
      dataUrl: 'http://127.0.0.1:6002',
      clobUrl: 'http://127.0.0.1:5001',
    });
    const namesAggregator = { ...noAggregator, source: 'aggregator' as const };
    expect(resolveSource({}, {}, namesAggregator)).toMatchObject({
      source: 'aggregator',
      aggregatorUrl: DEFAULT_API_URL,
    });
  });

  it('--source wins over PMDESK_SOURCE, which wins over the profile', () => {
    expect(resolveSource({ source: 'polymarket' }, { PMDESK_SOURCE: 'aggregator' }, profile).source).toBe('polymarket');
    expect(resolveSource({}, { PMDESK_SOURCE: 'polymarket' }, profile).source).toBe('polymarket');
    expect(resolveSource({}, { PMDESK_SOURCE: 'aggregator' }, noAggregator)).toMatchObject({
      source: 'aggregator',
      aggregatorUrl: DEFAULT_API_URL,
    });
    expect(resolveSource({ source: 'aggregator' }, {}, undefined).source).toBe('aggregator');
  });

  it('refuses a source it does not know, as invalid input naming both choices', () => {
    for (const [flags, env] of [
      [{ source: 'gamma' }, {}],
      [{}, { PMDESK_SOURCE: 'Polymarket' }],
    ] as const) {
      let thrown: unknown;
      try {
        resolveSource(flags, env, undefined);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ code: 'ERR_INVALID_PARAM', statusCode: undefined });
      expect((thrown as Error).message).toMatch(
        /Unknown market-data source '(gamma|Polymarket)': use polymarket or aggregator/,
      );
    }
  });
});

describe('networkProfile', () => {
  it("reads the sandbox's profile file as it writes it, from the flag or PMDESK_NETWORK", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pmdesk-network-'));
    const file = join(dir, 'sandbox.json');
    // The shape `npm run sandbox -- --profile-out FILE` writes: keys the toolkit does not use are ignored.
    await writeFile(
      file,
      JSON.stringify({
        name: 'sandbox',
        chainId: 31338,
        rpcUrl: 'http://127.0.0.1:4812',
        clobUrl: 'http://127.0.0.1:4811',
        aggregatorUrl: 'http://127.0.0.1:4810',
        sseUrl: 'http://127.0.0.1:4810',
        wsUrl: 'ws://127.0.0.1:4811/ws',
        orderVersion: 2,
        contracts: {
          collateral: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
          conditionalTokens: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
          exchange: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
          negRiskExchange: '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9',
          negRiskAdapter: '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9',
        },
        testWallets: [
          {
            address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
            privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
          },
        ],
      }),
    );
    const fromFlag = networkProfile(file, {});
    expect(fromFlag).toMatchObject({
      name: 'sandbox',
      chainId: 31338,
      orderVersion: 2,
      clobUrl: 'http://127.0.0.1:4811',
      aggregatorUrl: 'http://127.0.0.1:4810',
      sseUrl: 'http://127.0.0.1:4810',
    });
    expect(fromFlag).not.toHaveProperty('testWallets');
    expect(networkProfile(undefined, { PMDESK_NETWORK: file })).toBe(fromFlag);
    expect(networkProfile(undefined, {})).toBeUndefined();

    await writeFile(join(dir, 'broken.json'), '{"chainId": 1');
    expect(() => networkProfile(join(dir, 'broken.json'), {})).toThrow(
      /Cannot read the network profile .*broken\.json as JSON/,
    );
    await writeFile(
      join(dir, 'bad-url.json'),
      JSON.stringify({ chainId: 1, aggregatorUrl: 'not a url', contracts: {} }),
    );
    expect(() => networkProfile(join(dir, 'bad-url.json'), {})).toThrow(/aggregatorUrl/);
  });
});
