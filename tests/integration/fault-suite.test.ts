// The fault suite (issue 16): one local fault server, every fault mode (HTML, junk JSON, truncated, endless,
// stalled, silent, reset, cross-origin redirect, 429/503 with Retry-After) against every client read (CLOB,
// aggregator, Polymarket's Gamma/Data through its source) and the CLI's read commands, asserting the
// catalogued code, the exit status and that nothing hangs: every case is bounded by short timeout options.
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiCredentials } from '../../packages/toolkit/src/clob/auth';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import { CredentialVault } from '../../src/main/credentials/api-credentials';
import { MemorySecretStore } from '../../src/main/credentials/secret-store';
import { TradingService } from '../../src/main/trading/service';
import { startSignerThread } from '../../src/main/wallets/signer-thread';
import type { SignerClient } from '../../src/main/wallets/signer-client';
import { FAST_SCRYPT, PASSWORD, startTradingSandbox, type TradingSandbox } from '../helpers/trading-sandbox';
import { AggregatorClient } from '../../packages/toolkit/src/aggregator/client';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import { httpRequest, type HttpMethod } from '../../packages/toolkit/src/http/request';
import type { RetryNotice } from '../../packages/toolkit/src/http/retry';
import { silentLogger } from '../../packages/toolkit/src/base/logger';
import { PolymarketSource } from '../../packages/toolkit/src/polymarket/source';
import { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { MarketFeed } from '../../src/main/feeds/market-feed';
import { KeptFile } from '../../src/main/watch/kept-file';
import { SETTINGS_FILE, SETTINGS_MAX_BYTES, SettingsStore } from '../../src/main/settings/settings';
import { operations } from '../../src/shared/contract';
import { WS_MAX_MESSAGE_BYTES } from '../../packages/toolkit/src/http/limits';
import { WsFixture } from '../helpers/ws-fixture';
import { until } from '../helpers/until';
import {
  FAULT_MODES,
  ExchangeFaultProxy,
  startFaultServer,
  type FaultMode,
  type FaultServer,
} from '../helpers/fault-server';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { runPmdesk, type PmdeskRun } from '../helpers/pmdesk-process';

const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
/** Small bounds, so a silent or stalled server ends each case in about a second. */
const TIMEOUT_MS = 2_000;
/** The CLI's processes start on a busy machine: a little more room, still far from a hang. */
const CLI_TIMEOUT_MS = 3_000;
/** A small answer cap, so the endless body is cut after a few chunks. */
const MAX_BYTES = 256 * 1024;

/** The code each fault must end in, whatever the call. */
const EXPECTED: Record<FaultMode, string> = {
  html: 'ERR_VALIDATION',
  junk: 'ERR_VALIDATION',
  truncated: 'ERR_NETWORK',
  endless: 'ERR_API_REQUEST',
  stall: 'ERR_TIMEOUT',
  silent: 'ERR_TIMEOUT',
  reset: 'ERR_NETWORK',
  redirect: 'ERR_API_REQUEST',
  throttled: 'ERR_RATE_LIMIT',
  unavailable: 'ERR_RATE_LIMIT',
  drip: 'ERR_TIMEOUT',
};

let faults: FaultServer;
/** The other origin the redirect points at: nothing may ever reach it. */
let elsewhere: FaultServer;

beforeAll(async () => {
  elsewhere = await startFaultServer();
  faults = await startFaultServer({ redirectTo: elsewhere.url.replace('127.0.0.1', 'localhost') });
});
afterAll(async () => {
  await faults.stop();
  await elsewhere.stop();
});

/** The code a call failed with (or 'resolved' when it did not fail). */
async function codeOf(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
    return 'resolved';
  } catch (error) {
    return error instanceof PmDeskError ? error.code : `not catalogued: ${String(error)}`;
  }
}

const clob = (mode: string, extra: Partial<ConstructorParameters<typeof ClobClient>[0]> = {}) =>
  new ClobClient({
    host: faults.base(mode),
    chainId: 137,
    throwOnError: true,
    timeoutMs: TIMEOUT_MS,
    maxAnswerBytes: MAX_BYTES,
    ...extra,
  });
const aggregator = (mode: string) =>
  new AggregatorClient({
    apiUrl: faults.base(mode),
    timeoutMs: TIMEOUT_MS,
    maxAnswerBytes: MAX_BYTES,
    logger: silentLogger,
  });
const polymarket = (mode: string) =>
  new PolymarketSource({
    gammaUrl: faults.base(mode),
    dataUrl: faults.base(mode),
    clobUrl: faults.base(mode),
    timeoutMs: TIMEOUT_MS,
    maxAnswerBytes: MAX_BYTES,
    logger: silentLogger,
  });

/** Every public read of the exchange client. */
const clobReads: [string, (c: ClobClient) => Promise<unknown>][] = [
  ['getOk', (c) => c.getOk()],
  ['getServerTime', (c) => c.getServerTime()],
  ['getMarkets', (c) => c.getMarkets()],
  ['getSamplingMarkets', (c) => c.getSamplingMarkets()],
  ['getSimplifiedMarkets', (c) => c.getSimplifiedMarkets()],
  ['getSamplingSimplifiedMarkets', (c) => c.getSamplingSimplifiedMarkets()],
  ['getAllMarkets', (c) => c.getAllMarkets()],
  ['getMarket', (c) => c.getMarket('0xc')],
  ['getClobMarketInfo', (c) => c.getClobMarketInfo('0xc')],
  ['getOrderBook', (c) => c.getOrderBook(TOKEN)],
  ['getOrderBooks', (c) => c.getOrderBooks([{ token_id: TOKEN }])],
  ['getMidpoint', (c) => c.getMidpoint(TOKEN)],
  ['getMidpoints', (c) => c.getMidpoints([{ token_id: TOKEN }])],
  ['getPrice', (c) => c.getPrice(TOKEN, 'BUY')],
  ['getPrices', (c) => c.getPrices([{ token_id: TOKEN, side: 'BUY' }])],
  ['getSpread', (c) => c.getSpread(TOKEN)],
  ['getSpreads', (c) => c.getSpreads([{ token_id: TOKEN }])],
  ['getLastTradePrice', (c) => c.getLastTradePrice(TOKEN)],
  ['getLastTradesPrices', (c) => c.getLastTradesPrices([{ token_id: TOKEN }])],
  ['getPricesHistory', (c) => c.getPricesHistory({ market: TOKEN, interval: '1d' })],
  ['getTickSize', (c) => c.getTickSize(TOKEN)],
  ['getNegRisk', (c) => c.getNegRisk(TOKEN)],
  ['getFeeRateBps', (c) => c.getFeeRateBps(TOKEN)],
  ['getMarketTradesEvents', (c) => c.getMarketTradesEvents('0xc')],
];

/** A signer and API credentials for the level 2 calls: a well-known test key, made-up credentials. */
const TEST_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const TEST_CREDS: ApiCredentials = {
  key: 'key-1',
  secret: Buffer.from('secret-1').toString('base64'),
  passphrase: 'pass-1',
};
const authedClob = (mode: string) => clob(mode, { signer: privateKeySigner(TEST_KEY), creds: TEST_CREDS });
/** The environment the CLI's level 2 commands read their key and credentials from. */
const AUTH_ENV = {
  PMDESK_PRIVATE_KEY: TEST_KEY,
  PMDESK_API_KEY: TEST_CREDS.key,
  PMDESK_API_SECRET: TEST_CREDS.secret,
  PMDESK_API_PASSPHRASE: TEST_CREDS.passphrase,
};

/** Every authenticated read and cancel of the exchange client (issue 34, point 3). */
const clobAuthCalls: [string, (c: ClobClient) => Promise<unknown>][] = [
  ['getOrder', (c) => c.getOrder('0xabc')],
  ['getBalanceAllowance', (c) => c.getBalanceAllowance({ asset_type: 'COLLATERAL' })],
  ['getApiKeys', (c) => c.getApiKeys()],
  ['cancelOrder', (c) => c.cancelOrder('0xabc')],
  ['cancelOrders', (c) => c.cancelOrders(['0xabc', '0xdef'])],
  ['cancelAll', (c) => c.cancelAll()],
  ['cancelMarketOrders', (c) => c.cancelMarketOrders({ market: '0xc' })],
];

/** Every read of the aggregator client. */
const aggregatorReads: [string, (c: AggregatorClient) => Promise<unknown>][] = [
  ['getEvent', (c) => c.getEvent('polymarket', '1')],
  ['getMarket', (c) => c.getMarket('polymarket', '1')],
  ['listOngoingEvents', (c) => c.listOngoingEvents('polymarket')],
  ['getEventComments', (c) => c.getEventComments('polymarket', '1')],
  ['getOrderBooks', (c) => c.getOrderBooks('polymarket', '1')],
  ['getFillHistory', (c) => c.getFillHistory('polymarket', '1')],
  ['getTrader', (c) => c.getTrader('polymarket', ADDRESS)],
  ['getTraderPositions', (c) => c.getTraderPositions('polymarket', ADDRESS)],
  ['listSlugs', (c) => c.listSlugs()],
  ['getEventsBySlug', (c) => c.getEventsBySlug('s')],
  ['getMarketsBySlug', (c) => c.getMarketsBySlug('s')],
  ['search', (c) => c.search('google')],
];

/** Every read of the Polymarket-direct source (Gamma, Data API, CLOB public reads). */
const polymarketReads: [string, (s: PolymarketSource) => Promise<unknown>][] = [
  ['listEvents', (s) => s.listEvents({ limit: 5 })],
  ['getEvent', (s) => s.getEvent('polymarket', '1')],
  ['getEventsBySlug', (s) => s.getEventsBySlug('s')],
  ['getMarket', (s) => s.getMarket('polymarket', '1')],
  ['getMarketsBySlug', (s) => s.getMarketsBySlug('s')],
  ['search', (s) => s.search('google')],
  ['getEventComments', (s) => s.getEventComments('polymarket', '1')],
  ['getOrderBooks', (s) => s.getOrderBooks('polymarket', '1')],
  ['getFillHistory', (s) => s.getFillHistory('polymarket', '1')],
  ['getTrader', (s) => s.getTrader('polymarket', ADDRESS)],
  ['getTraderPositions', (s) => s.getTraderPositions('polymarket', ADDRESS)],
  ['getTraderActivity', (s) => s.getTraderActivity(ADDRESS)],
  ['getTraderTrades', (s) => s.getTraderTrades(ADDRESS)],
];

/** Runs every read of a client against one mode at once; answers `{method: code}`. */
async function sweep<C>(reads: [string, (c: C) => Promise<unknown>][], make: () => C): Promise<Record<string, string>> {
  const codes = await Promise.all(reads.map(async ([name, read]) => [name, await codeOf(() => read(make()))] as const));
  return Object.fromEntries(codes);
}

const every = (reads: [string, unknown][], code: string) => Object.fromEntries(reads.map(([name]) => [name, code]));

describe('every client read meets every fault with its catalogued error', () => {
  for (const mode of FAULT_MODES) {
    it(`${mode} → ${EXPECTED[mode]}`, { timeout: 20_000 }, async () => {
      const [clobCodes, clobAuthCodes, aggregatorCodes, polymarketCodes] = await Promise.all([
        sweep(clobReads, () => clob(mode)),
        sweep(clobAuthCalls, () => authedClob(mode)),
        sweep(aggregatorReads, () => aggregator(mode)),
        sweep(polymarketReads, () => polymarket(mode)),
      ]);
      expect(clobCodes).toEqual(every(clobReads, EXPECTED[mode]));
      expect(clobAuthCodes).toEqual(every(clobAuthCalls, EXPECTED[mode]));
      expect(aggregatorCodes).toEqual(every(aggregatorReads, EXPECTED[mode]));
      expect(polymarketCodes).toEqual(every(polymarketReads, EXPECTED[mode]));
    });
  }
});

describe('bounds', () => {
  it('closes an endless body at the cap: the server gets to write little more than the cap', async () => {
    const before = faults.endlessBytes.length;
    expect(await codeOf(() => clob('endless').getOrderBook(TOKEN))).toBe('ERR_API_REQUEST');
    // The connection is closed, not drained: what the server wrote is bounded by the cap plus the socket buffers.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const written = faults.endlessBytes[before]!;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(MAX_BYTES + 8 * 1024 * 1024);
  });

  it('names the field and cuts the body of a wrong answer', async () => {
    const error = await clob('junk')
      .getPrice(TOKEN, 'BUY')
      .catch((e: unknown) => e as PmDeskError);
    expect(error).toBeInstanceOf(PmDeskError);
    expect((error as PmDeskError).detail).toContain('price');
    const html = await clob('html')
      .getOrderBook(TOKEN)
      .catch((e: unknown) => e as PmDeskError);
    expect((html as PmDeskError).detail).toContain('text/html');
    expect(String((html as PmDeskError).responseData).length).toBeLessThanOrEqual(300);
  });

  it('refuses a page even when its text parses as JSON', async () => {
    const server = await startFixtureServer();
    try {
      server.on('GET', '/price', (_req, reply) => reply.text(200, '{"price":"0.5"}', 'text/html'));
      expect(
        await codeOf(() =>
          new ClobClient({ host: server.url, chainId: 137, throwOnError: true, timeoutMs: TIMEOUT_MS }).getPrice(
            TOKEN,
            'BUY',
          ),
        ),
      ).toBe('ERR_VALIDATION');
    } finally {
      await server.stop();
    }
  });
});

describe('credentials never leave their origin', () => {
  const methods: HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];
  it.each(methods)('%s: a redirect to another origin is refused, nothing reaches it', async (method) => {
    const before = elsewhere.requests.length;
    const error = await httpRequest({
      method,
      baseUrl: faults.base('redirect'),
      path: '/order',
      body: method === 'GET' ? undefined : '{"order":1}',
      headers: { POLY_API_KEY: 'key-1', POLY_PASSPHRASE: 'pass-1', POLY_SIGNATURE: 'sig-1', Authorization: 'Bearer t' },
      timeoutMs: TIMEOUT_MS,
      methodName: 'test',
    }).catch((e: unknown) => e as PmDeskError);
    expect(error).toBeInstanceOf(PmDeskError);
    expect((error as PmDeskError).code).toBe('ERR_API_REQUEST');
    expect((error as PmDeskError).detail).toContain(elsewhere.url.replace('127.0.0.1', 'localhost'));
    expect(JSON.stringify(error)).not.toContain('pass-1');
    expect(elsewhere.requests.length).toBe(before);
  });

  let same: FixtureServer;
  beforeAll(async () => {
    same = await startFixtureServer();
  });
  afterAll(() => same.stop());

  it.each(methods)('%s: a redirect within the origin is followed with its headers', async (method) => {
    same.reset();
    // A 307 keeps the method and the body.
    same.on(method, '/old', (_req, reply) => reply.json(307, {}, { Location: '/new' }));
    same.on(method, '/new', (_req, reply) => reply.json(200, { ok: true }));
    const answer = await httpRequest({
      method,
      baseUrl: same.url,
      path: '/old',
      body: method === 'GET' ? undefined : '{"x":1}',
      headers: { POLY_API_KEY: 'key-1' },
      timeoutMs: TIMEOUT_MS,
      methodName: 'test',
    });
    expect(answer.data).toEqual({ ok: true });
    const followed = same.to('/new')[0]!;
    expect(followed.method).toBe(method);
    expect(followed.headers.poly_api_key).toBe('key-1');
  });
});

describe('Retry-After', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(() => server.stop());

  it('retries a throttled read after the wait it names, and says so', async () => {
    server.reset();
    let calls = 0;
    server.on('GET', '/price', (_req, reply) => {
      calls += 1;
      if (calls === 1) reply.json(429, { error: 'slow down' }, { 'Retry-After': '1' });
      else reply.json(200, { price: '0.5' });
    });
    const notices: RetryNotice[] = [];
    const client = new ClobClient({
      host: server.url,
      chainId: 137,
      throwOnError: true,
      timeoutMs: TIMEOUT_MS,
      onRetry: (n) => notices.push(n),
    });
    expect(await client.getPrice(TOKEN, 'BUY')).toEqual({ price: '0.5' });
    expect(calls).toBe(2);
    expect(notices).toEqual([{ methodName: 'getPrice', api: 'CLOB', waitMs: 1000, attempt: 1 }]);
  });

  it('never retries a POST: one request, ERR_RATE_LIMIT', async () => {
    server.reset();
    server.on('POST', '/prices', (_req, reply) => reply.json(429, { error: 'slow down' }, { 'Retry-After': '1' }));
    const notices: RetryNotice[] = [];
    const client = new ClobClient({
      host: server.url,
      chainId: 137,
      throwOnError: true,
      timeoutMs: TIMEOUT_MS,
      onRetry: (n) => notices.push(n),
    });
    expect(await codeOf(() => client.getPrices([{ token_id: TOKEN }]))).toBe('ERR_RATE_LIMIT');
    expect(server.to('/prices')).toHaveLength(1);
    expect(notices).toEqual([]);
  });

  it('honours 503 with Retry-After on the aggregator too', async () => {
    server.reset();
    let calls = 0;
    server.on('GET', '/v1/agg/sluglist', (_req, reply) => {
      calls += 1;
      if (calls === 1) reply.json(503, { error: 'maintenance' }, { 'Retry-After': '1' });
      else reply.json(200, ['a', 'b']);
    });
    const notices: RetryNotice[] = [];
    const client = new AggregatorClient({
      apiUrl: server.url,
      timeoutMs: TIMEOUT_MS,
      logger: silentLogger,
      onRetry: (n) => notices.push(n),
    });
    expect(await client.listSlugs()).toEqual(['a', 'b']);
    expect(notices.map((n) => n.waitMs)).toEqual([1000]);
  });
});

describe('the live fill stream is bounded', () => {
  it('a stream that never opens fails within its connect bound', async () => {
    const client = new AggregatorClient({ apiUrl: faults.base('silent'), timeoutMs: 500, logger: silentLogger });
    const subscription = client.subscribeToFills('polymarket', '1');
    const error = await subscription.done;
    expect(error?.code).toBe('ERR_TIMEOUT');
  });

  it('a stream that goes quiet is closed after its idle bound', async () => {
    const server = await startFixtureServer();
    try {
      server.on('GET', '/sse/fillevent', (_req, reply) => void reply.sse());
      const client = new AggregatorClient({
        apiUrl: server.url,
        timeoutMs: TIMEOUT_MS,
        logger: silentLogger,
        streamLimits: { idleTimeoutMs: 300 },
      });
      const error = await client.subscribeToFills('polymarket', '1').done;
      expect(error?.code).toBe('ERR_SSE_CLOSED');
    } finally {
      await server.stop();
    }
  });

  it('a redirect to another origin is not followed: ERR_SSE_CONNECT, nothing reaches it', async () => {
    const before = elsewhere.requests.length;
    const client = new AggregatorClient({
      apiUrl: faults.base('redirect'),
      timeoutMs: TIMEOUT_MS,
      logger: silentLogger,
    });
    const error = await client.subscribeToFills('polymarket', '1').done;
    expect(error?.code).toBe('ERR_SSE_CONNECT');
    expect(error?.detail).toContain(elsewhere.url.replace('127.0.0.1', 'localhost'));
    expect(elsewhere.requests.length).toBe(before);
  });

  it('a redirect within the origin is followed', async () => {
    const server = await startFixtureServer();
    try {
      server.on('GET', '/old/sse/fillevent', (_req, reply) =>
        reply.json(307, {}, { Location: '/sse/fillevent?protocol=polymarket&id=1' }),
      );
      server.on('GET', '/sse/fillevent', (_req, reply) =>
        reply.sse().send('{"price":0.5,"volumeBase":10,"timestamp":1700000000}'),
      );
      const client = new AggregatorClient({
        apiUrl: `${server.url}/old`,
        sseUrl: `${server.url}/old`,
        timeoutMs: TIMEOUT_MS,
        logger: silentLogger,
      });
      const fills: unknown[] = [];
      const subscription = client.subscribeToFills('polymarket', '1', {
        onFill: (fill) => (fills.push(fill), subscription.close()),
      });
      expect(await subscription.done).toBeNull();
      expect(fills).toEqual([expect.objectContaining({ price: 0.5 })]);
    } finally {
      await server.stop();
    }
  });

  it('a message larger than the cap closes the stream', async () => {
    const server = await startFixtureServer();
    try {
      server.on('GET', '/sse/fillevent', (_req, reply) => {
        const stream = reply.sse();
        stream.raw(`data: ${'x'.repeat(4096)}`);
      });
      const client = new AggregatorClient({
        apiUrl: server.url,
        timeoutMs: TIMEOUT_MS,
        logger: silentLogger,
        streamLimits: { maxMessageBytes: 1024 },
      });
      const error = await client.subscribeToFills('polymarket', '1').done;
      expect(error?.code).toBe('ERR_SSE_MESSAGE');
    } finally {
      await server.stop();
    }
  });
});

describe('WebSocket handshakes are bounded', () => {
  it('a host that accepts and never upgrades is given up and redialled', async () => {
    const silent = await startFaultServer();
    const feed = new MarketFeed({
      wsUrl: `${silent.base('silent').replace('http', 'ws')}/ws`,
      fetchBook: () => new Promise(() => {}),
      staleMs: 300,
    });
    try {
      feed.start();
      feed.subscribe([TOKEN]);
      // Without a handshake bound the first dial would wait forever and no second one would come.
      // Real time here (the redial waits its back-off on the real clock), polled in small steps.
      for (let waited = 0; silent.to('silent').length < 2 && waited < 8_000; waited += 50)
        await new Promise((r) => setTimeout(r, 50));
      expect(silent.to('silent').length).toBeGreaterThanOrEqual(2);
    } finally {
      feed.close();
      await silent.stop();
    }
  });
});

describe('WebSocket messages are capped', () => {
  it('a market-channel message over the cap closes the socket (1009) instead of growing without end', async () => {
    const fixture = await WsFixture.start();
    const closes: number[] = [];
    const feed = new MarketFeed({ wsUrl: fixture.wsUrl, fetchBook: () => new Promise(() => {}) });
    try {
      feed.start();
      feed.subscribe([TOKEN]);
      const connection = await fixture.connection(0);
      // The client says why it hung up: 1009, message too big.
      connection.socket.on('close', (code) => closes.push(code));
      connection.send('x'.repeat(WS_MAX_MESSAGE_BYTES + 1));
      await until(() => closes.length > 0, 'the socket closed');
      expect(closes[0]).toBe(1009);
    } finally {
      feed.close();
      await fixture.stop();
    }
  });
});

/** Runs pmdesk a few at a time: each process costs a core for a second or two. */
async function runAll(runs: string[][], width = 4): Promise<PmdeskRun[]> {
  const results: PmdeskRun[] = new Array(runs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < runs.length) {
        const at = next++;
        results[at] = await runPmdesk(runs[at]!, { env: AUTH_ENV });
      }
    }),
  );
  return results;
}

const codeInStderr = (run: PmdeskRun): string | undefined => {
  try {
    return (JSON.parse(run.stderr.trim().split('\n').at(-1) ?? '') as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
};

describe('the CLI exits non-zero with the catalogued code', () => {
  const clobCommands = [
    ['clob', 'ok'],
    ['clob', 'time'],
    ['clob', 'book', TOKEN],
    ['clob', 'price', TOKEN, '--side', 'BUY'],
    ['clob', 'midpoint', TOKEN],
    ['clob', 'spread', TOKEN],
    ['clob', 'last-trade', TOKEN],
    ['clob', 'tick-size', TOKEN],
    ['clob', 'neg-risk', TOKEN],
    ['clob', 'markets'],
    ['clob', 'prices-history', '--market', TOKEN],
  ];
  const marketCommands = [
    ['events', 'get', '1'],
    ['events', 'list'],
    ['events', 'comments', '1'],
    ['markets', 'get', '1'],
    ['markets', 'book', '1'],
    ['markets', 'fills', '1'],
    ['traders', 'get', ADDRESS],
    ['traders', 'positions', ADDRESS],
    ['slugs', 'events', 's'],
    ['slugs', 'markets', 's'],
    ['search', 'google'],
  ];
  /** The level 2 commands (issue 34, point 3): a wrong shape is refused as the public reads' is. */
  const authCommands = [
    ['order', 'get', '0xabc'],
    ['balance'],
    ['keys', 'list'],
    ['order', 'cancel', '0xabc'],
    ['order', 'cancel', '0xabc', '0xdef'],
    ['order', 'cancel-all'],
    ['order', 'cancel-market', '--market', '0xc'],
  ];
  const directOnly = [
    ['traders', 'activity', ADDRESS],
    ['traders', 'trades', ADDRESS],
  ];
  const flags = (mode: string, source: 'polymarket' | 'aggregator') => [
    '--json',
    '--timeout-ms',
    String(CLI_TIMEOUT_MS),
    '--source',
    source,
    '--clob-url',
    faults.base(mode),
    '--gamma-url',
    faults.base(mode),
    '--data-url',
    faults.base(mode),
    '--api-url',
    faults.base(mode),
  ];

  // The market reads are the same commands on both sources: every one on Polymarket direct, a few on the aggregator.
  const onAggregator = [
    ['events', 'get', '1', '--protocol', 'polymarket'],
    ['markets', 'book', '1', '--protocol', 'polymarket'],
    ['search', 'google'],
  ];
  const junkRuns = () => [
    ...[...clobCommands, ...authCommands, ...marketCommands, ...directOnly].map((c) => [
      ...flags('junk', 'polymarket'),
      ...c,
    ]),
    ...onAggregator.map((c) => [...flags('junk', 'aggregator'), ...c]),
  ];
  const faultCases: [FaultMode, string[]][] = [
    ...FAULT_MODES.map((mode): [FaultMode, string[]] => [mode, ['clob', 'book', TOKEN]]),
    ...(['html', 'silent', 'redirect'] as const).map((mode): [FaultMode, string[]] => [mode, ['markets', 'get', '1']]),
  ];
  /** Without --json: the notice is the sentence a trader reads. */
  const throttledRun = () => [
    ...flags('throttled-once', 'polymarket').slice(1),
    'clob',
    'price',
    TOKEN,
    '--side',
    'BUY',
  ];
  const watchRun = () => [
    ...flags('silent', 'aggregator'),
    '--sse-url',
    faults.base('silent'),
    'fills',
    'watch',
    '1',
    '--protocol',
    'polymarket',
  ];
  const directWatchRun = () => [
    ...flags('silent', 'polymarket'),
    '--rtds-url',
    `${faults.base('silent').replace('http', 'ws')}/rtds`,
    'fills',
    'watch',
    '1',
  ];

  // All the processes share one pool, so the ones waiting out a silent server overlap the busy ones.
  let junk: { runs: string[][]; results: PmdeskRun[] };
  let matrix: PmdeskRun[];
  let watch: PmdeskRun;
  let directWatch: PmdeskRun;
  let throttled: PmdeskRun;
  beforeAll(async () => {
    const runs = junkRuns();
    const all = await runAll(
      [
        throttledRun(),
        watchRun(),
        directWatchRun(),
        ...runs,
        ...faultCases.map(([mode, command]) => [...flags(mode, 'polymarket'), ...command]),
      ],
      5,
    );
    [throttled, watch, directWatch] = all as [PmdeskRun, PmdeskRun, PmdeskRun];
    junk = { runs, results: all.slice(3, 3 + runs.length) };
    matrix = all.slice(3 + runs.length);
  }, 90_000);

  it('a throttled read says "rate limited, retrying in 1 s" on stderr, then answers', () => {
    expect(throttled.stderr).toBe('pmdesk: CLOB rate limited, retrying in 1 s\n');
    expect(throttled.code).toBe(0);
    expect(throttled.stdout).toContain('0.5');
  });

  it('every read command: a junk answer is ERR_VALIDATION and exit 1, never an echoed result', () => {
    const outcomes = junk.results.map((r, i) => ({
      command: junk.runs[i]!.slice(14).join(' '),
      code: r.code,
      error: codeInStderr(r),
      stdout: r.stdout,
    }));
    expect(outcomes).toEqual(
      junk.runs.map((r) => ({ command: r.slice(14).join(' '), code: 1, error: 'ERR_VALIDATION', stdout: '' })),
    );
  });

  it('every fault mode against the CLOB book, and the worst ones against a Gamma read', () => {
    const outcomes = matrix.map((r, i) => ({
      run: `${faultCases[i]![1].join(' ')} @${faultCases[i]![0]}`,
      code: r.code,
      error: codeInStderr(r),
    }));
    expect(outcomes).toEqual(
      faultCases.map(([mode, command]) => ({ run: `${command.join(' ')} @${mode}`, code: 1, error: EXPECTED[mode] })),
    );
  });

  it('fills watch honours --timeout-ms against a server that accepts and never answers', () => {
    expect(watch.code).toBe(1);
    expect(codeInStderr(watch)).toBe('ERR_TIMEOUT');
    // Polymarket direct: the market is read first, within the same bound.
    expect(directWatch.code).toBe(1);
    expect(codeInStderr(directWatch)).toBe('ERR_TIMEOUT');
  });
});

// The order flow against a faulty exchange, chain or market source (issue 34), on the whole sandbox with a proxy
// in front of its exchange. Point 1: the exchange places the order and answers a 200 of junk. That is no answer
// about the order: the CLI's two ways to place one and the terminal's ticket (TradingService, what it calls) each
// look the order up by its hash, and when the exchange then stays away they say it may be live (exit 3), never
// "nothing placed". Point 2: `pmdesk trade --timeout-ms` bounds every network phase.
describe('the order flow meets a faulty exchange', () => {
  let sb: TradingSandbox;
  let proxy: ExchangeFaultProxy;
  let dir: string;
  let profileFile: string;
  let env: Record<string, string>;
  let direct: ClobClient;
  let yes: string;
  let signer: SignerClient;

  beforeAll(async () => {
    sb = await startTradingSandbox();
    proxy = new ExchangeFaultProxy(sb.profile.network.clobUrl);
    await proxy.start();
    dir = await mkdtemp(join(tmpdir(), 'pmdesk-fault-orders-'));
    // The profile points the exchange at the proxy; everything else at the sandbox itself.
    profileFile = join(dir, 'profile.json');
    await writeFile(profileFile, JSON.stringify({ ...sb.sandbox.profile, clobUrl: proxy.url }));
    // The same, with the market source or the chain's node dripping an answer that never ends.
    const drip = faults.base('drip');
    await writeFile(
      join(dir, 'market-drip.json'),
      JSON.stringify({
        ...sb.sandbox.profile,
        clobUrl: proxy.url,
        aggregatorUrl: drip,
        sseUrl: drip,
        gammaUrl: drip,
        dataUrl: drip,
      }),
    );
    await writeFile(
      join(dir, 'chain-drip.json'),
      JSON.stringify({ ...sb.sandbox.profile, clobUrl: proxy.url, rpcUrl: drip }),
    );
    // A funded, pre-approved test wallet: no allowances to set, so each order is one post.
    const trader = sb.sandbox.profile.testWallets[2]!;
    const { network } = sb.profile;
    const base = {
      host: network.clobUrl,
      chainId: network.chainId,
      networks: [network],
      throwOnError: true,
      logger: silentLogger,
    };
    const creds = (await new ClobClient({
      ...base,
      signer: privateKeySigner(trader.privateKey),
    }).createOrDeriveApiKey()) as ApiCredentials;
    direct = new ClobClient({ ...base, signer: privateKeySigner(trader.privateKey), creds });
    env = {
      PMDESK_PRIVATE_KEY: trader.privateKey,
      PMDESK_API_KEY: creds.key,
      PMDESK_API_SECRET: creds.secret,
      PMDESK_API_PASSPHRASE: creds.passphrase,
      PMDESK_PASSWORD: PASSWORD,
      PMDESK_DATA_DIR: join(dir, 'data'),
      TMPDIR: dir,
    };
    const imported = await runPmdesk(['wallet', 'import', '--label', 'trader', '--private-key-stdin', '--json'], {
      env,
      input: trader.privateKey,
    });
    expect(imported.code).toBe(0);
    signer = startSignerThread();
    const { keystore } = await signer.importPrivateKey(trader.privateKey, PASSWORD, FAST_SCRYPT);
    await signer.unlock(keystore, PASSWORD);
    yes = sb.sandbox.catalog.market('90021')!.tokens[0].tokenId;
  }, 120_000);
  afterAll(async () => {
    await signer?.close();
    await proxy?.stop();
    await sb?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const openHashes = async () => ((await direct.getOpenOrders({ asset_id: yes })) as { id: string }[]).map((o) => o.id);
  const start = async (fault: 'junk' | 'junk-then-down' | 'hold' | 'none') => {
    await direct.cancelAll();
    proxy.forwardedPosts.length = 0;
    proxy.silenced.length = 0;
    proxy.orderFaults.length = 0;
    if (fault !== 'none') proxy.orderFaults.push(fault);
  };
  const inDoubt = (run: PmdeskRun) =>
    (
      JSON.parse(run.stderr.trim().split('\n').at(-1)!) as {
        error: { code: string; message: string; orderHash: string };
      }
    ).error;
  const orderPlace = (price: string) =>
    runPmdesk(
      [
        '--json',
        '--network',
        profileFile,
        'order',
        'place',
        '--token',
        yes,
        '--side',
        'BUY',
        '--price',
        price,
        '--size',
        '10',
      ],
      { env },
    );
  const tradeBuy = (price: string, profile = profileFile, flags: string[] = []) =>
    runPmdesk(
      [
        'trade',
        'buy',
        '--market',
        '90021',
        '--outcome',
        'Yes',
        '--size',
        '10',
        '--price',
        price,
        '--profile',
        profile,
        '--json',
        ...flags,
      ],
      { env },
    );
  const errorOf = (run: PmdeskRun) =>
    (
      JSON.parse(run.stderr.trim().split('\n').at(-1)!) as {
        error: { code: string; message: string; methodName: string | null };
      }
    ).error;

  it('order place: found by its hash, placed once (exit 0)', async () => {
    await start('junk');
    const run = await orderPlace('0.05');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { orderHash: string; reconciled: boolean; status: { status: string } };
    expect(out).toMatchObject({ reconciled: true, status: { status: 'LIVE' } });
    expect(proxy.forwardedPosts).toHaveLength(1);
    expect(await openHashes()).toEqual([out.orderHash]);
  }, 60_000);

  it('order place: the exchange then stays away: "may be live" with the hash, exit 3, one order', async () => {
    await start('junk-then-down');
    const run = await orderPlace('0.06');
    proxy.down = false;
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    const error = inDoubt(run);
    expect(error.message).toContain('may be live');
    expect(proxy.forwardedPosts).toHaveLength(1);
    expect(await openHashes()).toEqual([error.orderHash]);
  }, 60_000);

  it('trade: the order id is the found order, never null (exit 0), placed once', async () => {
    await start('junk');
    const run = await tradeBuy('0.07');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { orderID: string | null; status: string; pending: boolean };
    expect(out).toMatchObject({ orderID: expect.stringMatching(/^0x[0-9a-f]{64}$/), status: 'LIVE', pending: true });
    expect(proxy.forwardedPosts).toHaveLength(1);
    expect(await openHashes()).toEqual([out.orderID]);
  }, 60_000);

  it('trade: the exchange then stays away: "may be live", exit 3, one order', async () => {
    await start('junk-then-down');
    const run = await tradeBuy('0.08');
    proxy.down = false;
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    const error = inDoubt(run);
    expect(error.message).toContain('may be live');
    expect(proxy.forwardedPosts).toHaveLength(1);
    expect(await openHashes()).toEqual([error.orderHash]);
  }, 60_000);

  it("the terminal's ticket: reconciled, the order id is its hash, placed once", async () => {
    await start('junk');
    const vault = await CredentialVault.open({ keychain: new MemorySecretStore() });
    const service = new TradingService({
      profile: { ...sb.profile, network: { ...sb.profile.network, clobUrl: proxy.url } },
      vault,
      timeoutMs: 20_000,
    });
    try {
      const address = sb.sandbox.profile.testWallets[2]!.address;
      const placed = await service.executeOrder(
        { provider: 'polymarket', marketId: '90021', tokenId: 'Yes', side: 'BUY', price: 0.09, size: 10 },
        { kind: 'worker', address, signer },
      );
      expect(placed).toMatchObject({ reconciled: true, orderID: placed.orderHash, status: 'LIVE', pending: true });
      expect(proxy.forwardedPosts).toHaveLength(1);
      expect(await openHashes()).toEqual([placed.orderHash]);
    } finally {
      service.close();
    }
  }, 60_000);

  // Point 2: each phase of `pmdesk trade` meets an answer that drips a byte at a time and never ends, which only a
  // deadline can end. Bound by --timeout-ms, each ends in ERR_TIMEOUT; with the default bound (100 s a request, and
  // none at all for the chain's node) none would end within the test's own time. No clock is read.
  const bounded = ['--timeout-ms', String(CLI_TIMEOUT_MS)];

  it('trade: a dripping market source (the market read) ends in ERR_TIMEOUT, nothing sent', async () => {
    await start('none');
    const run = await tradeBuy('0.1', join(dir, 'market-drip.json'), bounded);
    expect(run.code).toBe(1);
    expect(errorOf(run).code).toBe('ERR_TIMEOUT');
    expect(faults.to('drip').length).toBeGreaterThan(0);
    expect(proxy.forwardedPosts).toHaveLength(0);
  }, 60_000);

  it("trade: a dripping exchange for the market's terms (tick, fees) ends in ERR_TIMEOUT, nothing sent", async () => {
    await start('none');
    proxy.drip = /^GET \/(clob-markets|tick-size|neg-risk|fee-rate)/;
    const run = await tradeBuy('0.1', profileFile, bounded);
    proxy.drip = undefined;
    expect(run.code).toBe(1);
    expect(errorOf(run).code).toBe('ERR_TIMEOUT');
    expect(proxy.silenced.length).toBeGreaterThan(0);
    expect(proxy.forwardedPosts).toHaveLength(0);
  }, 60_000);

  it('trade: a dripping chain node (balances and allowances) ends in ERR_TIMEOUT, nothing sent', async () => {
    await start('none');
    const run = await tradeBuy('0.1', join(dir, 'chain-drip.json'), bounded);
    expect(run.code).toBe(1);
    expect(errorOf(run)).toMatchObject({
      code: 'ERR_TIMEOUT',
      message: expect.stringContaining("The chain's node at"),
    });
    expect(proxy.forwardedPosts).toHaveLength(0);
  }, 60_000);

  it('trade: a post whose answer never comes is given up at the bound and reconciled: one order, exit 0', async () => {
    await start('hold');
    const run = await tradeBuy('0.11', profileFile, bounded);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { orderID: string };
    expect(out.orderID).toMatch(/^0x[0-9a-f]{64}$/);
    expect(proxy.forwardedPosts).toHaveLength(1);
    expect(await openHashes()).toEqual([out.orderID]);
  }, 60_000);
});

// Issue 34, point 4: `fills watch` on the aggregator ends after any stream error, its exit its own: a dripping
// non-SSE answer was refused at once but its unread body held the connection, and the process, open until the
// server hung up. Every fault mode, as processes; with the old stream the drip, stall and endless ones never end.
describe('fills watch on the aggregator ends after every fault', () => {
  const EXPECTED_WATCH: Record<FaultMode, string> = {
    ...Object.fromEntries(FAULT_MODES.map((m) => [m, 'ERR_SSE_CONNECT'])),
    silent: 'ERR_TIMEOUT',
  } as Record<FaultMode, string>;
  it('exits 1 with ERR_SSE_CONNECT (ERR_TIMEOUT when nothing answers), following no redirect', async () => {
    const before = elsewhere.requests.length;
    const results = await runAll(
      FAULT_MODES.map((mode) => [
        '--json',
        '--timeout-ms',
        String(CLI_TIMEOUT_MS),
        '--source',
        'aggregator',
        '--api-url',
        faults.base(mode),
        '--sse-url',
        faults.base(mode),
        'fills',
        'watch',
        '1',
        '--protocol',
        'polymarket',
      ]),
    );
    const outcomes = results.map((r, i) => ({ mode: FAULT_MODES[i], code: r.code, error: codeInStderr(r) }));
    expect(outcomes).toEqual(FAULT_MODES.map((mode) => ({ mode, code: 1, error: EXPECTED_WATCH[mode] })));
    expect(elsewhere.requests.length).toBe(before);
  }, 60_000);
});

// Issue 34, point 7: `oracle scan` tells "nothing pending" (false, exit 0) from a fault (exit 1 with its code),
// and a 429 keeps the server's own words before the wait, as the catalogue's error format does.
describe('the small ones', () => {
  it('oracle scan: every fault mode is exit 1 with its code, never a printed false', async () => {
    const results = await runAll(
      FAULT_MODES.map((mode) => [
        '--json',
        '--timeout-ms',
        String(CLI_TIMEOUT_MS),
        '--source',
        'aggregator',
        '--api-url',
        faults.base(mode),
        'oracle',
        'scan',
      ]),
    );
    const outcomes = results.map((r, i) => ({
      mode: FAULT_MODES[i],
      code: r.code,
      error: codeInStderr(r),
      stdout: r.stdout,
    }));
    expect(outcomes).toEqual(FAULT_MODES.map((mode) => ({ mode, code: 1, error: EXPECTED[mode], stdout: '' })));
  }, 60_000);

  it('the wrong-password wait is said on stderr under --json too, as one JSON line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pmdesk-fault-throttle-'));
    try {
      const key = Wallet.createRandom().privateKey;
      const env = { PMDESK_DATA_DIR: dir, PMDESK_PASSWORD: PASSWORD };
      expect(
        (await runPmdesk(['wallet', 'import', '--label', 't', '--private-key-stdin', '--json'], { env, input: key }))
          .code,
      ).toBe(0);
      // Ten wrong passwords, the last 22 s ago: 8 s of the 30 s wait are still owed when the CLI starts (a
      // shorter one could be over before a slow machine gets the process going, and nothing would be said).
      const address = new Wallet(key).address.toLowerCase();
      await writeFile(
        join(dir, 'password-attempts.json'),
        JSON.stringify({ [address]: { failures: 10, lastFailureAt: Date.now() - 22_000 } }),
      );
      const run = await runPmdesk(['--json', 'wallet', 'unlock', 't'], { env });
      expect(run.code).toBe(0);
      const lines = run.stderr
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { notice?: { code: string; message: string } });
      expect(lines).toEqual([
        {
          notice: expect.objectContaining({
            code: 'PASSWORD_THROTTLED',
            message: expect.stringContaining('too many wrong passwords'),
          }),
        },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('the bridge refuses an amount that is not exactly a number ("5\\n" is not $5)', () => {
    const amountOf = (amount: string) =>
      operations.runMoneyAction.input.safeParse({ wallet: 'w', action: 'wrap', amount }).success;
    expect(['5\n', ' 5', '5 ', '\t5', '5\r\n', '0x5', '5e0', ''].map(amountOf)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(['5', '12.5', '0.000001'].map(amountOf)).toEqual([true, true, true]);
  });

  it('a damaged keystore among good ones is set aside and named; the others list and unlock (point 5)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pmdesk-fault-keystore-'));
    try {
      const env = { PMDESK_DATA_DIR: dir, PMDESK_PASSWORD: PASSWORD };
      for (const label of ['a', 'b']) {
        expect(
          (
            await runPmdesk(['wallet', 'import', '--label', label, '--private-key-stdin', '--json'], {
              env,
              input: Wallet.createRandom().privateKey,
            })
          ).code,
        ).toBe(0);
      }
      const walletsDir = join(dir, 'wallets');
      const broken = join(walletsDir, '00000000-0000-4000-8000-000000000000.json');
      await writeFile(broken, '{"version":3,"crypto":');
      const list = await runPmdesk(['--json', 'wallet', 'list'], { env });
      expect(list.code).toBe(0);
      expect((JSON.parse(list.stdout) as { label: string }[]).map((w) => w.label)).toEqual(['a', 'b']);
      const notice = (JSON.parse(list.stderr.trim()) as { notice: { code: string; file: string; movedTo: string } })
        .notice;
      expect(notice).toMatchObject({ code: 'WALLET_SET_ASIDE', file: broken });
      // Kept, byte for byte, under a name no longer read as a wallet; the next listing is clean.
      expect(await readFile(notice.movedTo, 'utf8')).toBe('{"version":3,"crypto":');
      expect((await readdir(walletsDir)).filter((name) => name.endsWith('.json'))).toHaveLength(2);
      const unlock = await runPmdesk(['--json', 'wallet', 'unlock', 'b'], { env });
      expect(unlock).toMatchObject({ code: 0, stderr: '' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('temp files left by a killed write are cleared once old; a fresh one (a write under way) is left (point 6)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pmdesk-fault-temps-'));
    try {
      const env = { PMDESK_DATA_DIR: dir, PMDESK_PASSWORD: PASSWORD };
      expect(
        (
          await runPmdesk(['wallet', 'import', '--label', 'a', '--private-key-stdin', '--json'], {
            env,
            input: Wallet.createRandom().privateKey,
          })
        ).code,
      ).toBe(0);
      const walletsDir = join(dir, 'wallets');
      const [walletFile] = (await readdir(walletsDir)).filter((name) => name.endsWith('.json'));
      const hourAgo = new Date(Date.now() - 60 * 60_000);
      const stale = async (folder: string, name: string) => {
        await writeFile(join(folder, name), 'half a write');
        await utimes(join(folder, name), hourAgo, hourAgo);
      };
      await stale(walletsDir, `.${walletFile}.0123456789ab.tmp`);
      await writeFile(join(walletsDir, `.${walletFile}.ba9876543210.tmp`), 'a write under way');
      await stale(dir, '.alerts.json.0123456789ab.tmp');
      expect((await runPmdesk(['--json', 'wallet', 'list'], { env })).code).toBe(0);
      expect((await readdir(walletsDir)).filter((name) => name.endsWith('.tmp'))).toEqual([
        `.${walletFile}.ba9876543210.tmp`,
      ]);
      await stale(dir, `.${SETTINGS_FILE}.0123456789ab.tmp`);
      const alerts = new KeptFile(dir, 'alerts.json', z.array(z.unknown()), () => []);
      expect(await alerts.read()).toEqual([]);
      expect((await new SettingsStore(dir).get()).theme).toBe('dark');
      expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a settings file past the bound is set aside unread and named; a dropped workspace is logged and kept (point 6)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pmdesk-fault-settings-'));
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    try {
      // Valid JSON that would load as a light theme, padded past the bound.
      const file = join(dir, SETTINGS_FILE);
      await writeFile(file, JSON.stringify({ theme: 'light', pad: 'x'.repeat(SETTINGS_MAX_BYTES) }));
      expect((await new SettingsStore(dir, logger).get()).theme).toBe('dark');
      expect(warnings).toEqual([expect.stringContaining(`more than the ${SETTINGS_MAX_BYTES}`)]);
      expect((await readdir(dir)).sort()).toEqual([`${SETTINGS_FILE}.bad`]);

      // One good workspace and one that cannot be read: the good one loads, the other is named and kept.
      warnings.length = 0;
      const tile = { protocol: 'polymarket', marketId: '1', width: 1 };
      const text = JSON.stringify({
        workspaces: {
          sandbox: {
            list: [
              { name: 'Main', tiles: [tile], focused: 0 },
              { name: 'Broken', tiles: 'x' },
            ],
            active: 0,
          },
        },
      });
      await writeFile(file, text);
      expect((await new SettingsStore(dir, logger).get()).workspaces.sandbox?.list.map((w) => w.name)).toEqual([
        'Main',
      ]);
      expect(warnings).toEqual([expect.stringContaining('1 saved workspace(s)')]);
      expect(await readFile(`${file}.workspaces.bad`, 'utf8')).toBe(text);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a 429 keeps the server's words: API request failed with status 429. Server error: …, then the wait", async () => {
    const error = (await aggregator('throttled')
      .listSlugs()
      .catch((e: unknown) => e)) as PmDeskError;
    expect(error.code).toBe('ERR_RATE_LIMIT');
    expect(error.detail).toBe(
      'API request failed with status 429. Server error: Too Many Requests. The aggregator is limiting requests; try again in 60 s.',
    );
  });
});
