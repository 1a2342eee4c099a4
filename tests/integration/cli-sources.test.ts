// `pmdesk` picks its market-data source (--source, PMDESK_SOURCE, the --network profile, an aggregator URL)
// and reads through it: the new commands (events list, markets fills/candles, traders activity/trades) on the
// aggregator, what only one source has refused with ERR_NOT_AVAILABLE, and bad input refused the same way on
// either source before anything is sent. The real CLI process against loopback servers with fixed answers.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { event, fillHistory, market } from '../helpers/aggregator-fixtures';
import { runPmdesk, type PmdeskRun } from '../helpers/pmdesk-process';

const WALLET = '0x00000000000000000000000000000000000000a1';

/** Stands for the aggregator. */
let aggregator: FixtureServer;
/** Stands for every Polymarket host (Gamma, Data API, CLOB): it must never be asked anything here. */
let direct: FixtureServer;
let dir: string;

const errorOf = (run: PmdeskRun) => (JSON.parse(run.stderr.trim()) as { error: Record<string, unknown> }).error;
const json = (run: PmdeskRun) => JSON.parse(run.stdout) as unknown;

/** Runs pmdesk with both kinds of server named; the source flag or variable decides which one is read. */
function pmdesk(args: string[], env: Record<string, string> = {}): Promise<PmdeskRun> {
  return runPmdesk(
    [
      '--api-url',
      aggregator.url,
      '--gamma-url',
      direct.url,
      '--data-url',
      direct.url,
      '--clob-url',
      direct.url,
      ...args,
    ],
    { env },
  );
}

beforeAll(async () => {
  [aggregator, direct] = await Promise.all([startFixtureServer(), startFixtureServer()]);
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-cli-sources-'));
});
afterAll(async () => {
  await Promise.all([aggregator.stop(), direct.stop()]);
});
beforeEach(() => {
  aggregator.reset();
  direct.reset();
});

describe('the aggregator source', () => {
  it('events list reads one page of ongoing events: --limit/--offset become page and limit', async () => {
    aggregator.json('GET', '/v1/ongoing-events', [event]);
    const run = await pmdesk([
      '--source',
      'aggregator',
      'events',
      'list',
      '--protocol',
      'polymarket',
      '--limit',
      '5',
      '--offset',
      '10',
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(aggregator.last().url).toBe('/v1/ongoing-events?protocol=polymarket&page=3&limit=5');
    const [first] = json(run) as { id: string; liquidity: number; markets: { position_tokens: unknown[] }[] }[];
    expect(first).toMatchObject({ id: '12483', protocol: 'polymarket', liquidity: 153201.4 });
    expect(first!.markets[0]!.position_tokens).toHaveLength(2);
    expect(direct.requests).toHaveLength(0);
  });

  it('events list prints the events table without --json', async () => {
    aggregator.json('GET', '/v1/ongoing-events', [event]);
    const run = await pmdesk(['events', 'list', '--protocol', 'polymarket']);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(/^id\s+title\s+slug\s+markets\s+volume$/);
    expect(run.stdout).toMatch(/^12483\s+Which company has best AI model end of May\?/m);
  });

  it('a tag is ERR_NOT_AVAILABLE on the aggregator (exit 1), after nothing was sent', async () => {
    const run = await pmdesk(['events', 'list', '--protocol', 'polymarket', '--tag', 'politics', '--json']);
    expect(run.code).toBe(1);
    expect(errorOf(run)).toMatchObject({ code: 'ERR_NOT_AVAILABLE', methodName: 'listEvents' });
    expect(aggregator.requests).toHaveLength(0);
  });

  it('--cursor is ERR_NOT_AVAILABLE on the aggregator, which lists by page (exit 1), after nothing was sent', async () => {
    const run = await pmdesk(['events', 'list', '--protocol', 'polymarket', '--cursor', 'start', '--json']);
    expect(run.code).toBe(1);
    expect(errorOf(run)).toMatchObject({ code: 'ERR_NOT_AVAILABLE', methodName: 'listEvents' });
    expect(errorOf(run).message).toContain('use --offset');
    expect(aggregator.requests).toHaveLength(0);
  });

  it('markets fills is the fill history (markets history still works); markets candles buckets it by chart range', async () => {
    aggregator.json('GET', '/v1/markets/506729', market);
    aggregator.json('GET', '/v1/markets/506729/orderbook/filledevents', fillHistory);
    const fills = await pmdesk(['markets', 'fills', '506729', '--protocol', 'polymarket', '--json']);
    expect(fills.code).toBe(0);
    expect((json(fills) as unknown[][]).map((h) => h.length)).toEqual([3, 1]);
    expect((json(fills) as unknown[][])[0]![1]).toEqual({ price: 0.55, volumeBase: 20, timestamp: 1747390500 });
    const history = await pmdesk(['markets', 'history', '506729', '--protocol', 'polymarket', '--json']);
    expect(json(history)).toEqual(json(fills));

    const yes = await pmdesk([
      'markets',
      'candles',
      '506729',
      '--protocol',
      'polymarket',
      '--interval',
      '1h',
      '--json',
    ]);
    expect(yes.code).toBe(0);
    expect(json(yes)).toEqual([
      { time: 1747389600, open: 0.51, high: 0.55, low: 0.51, close: 0.55, volume: 120 },
      { time: 1747393200, open: 0.5, high: 0.5, low: 0.5, close: 0.5, volume: 5 },
    ]);
    const no = await pmdesk([
      'markets',
      'candles',
      '506729',
      '--protocol',
      'polymarket',
      '--interval',
      '1d',
      '--outcome',
      'NO',
      '--json',
    ]);
    expect(json(no)).toEqual([{ time: 1747353600, open: 0.49, high: 0.49, low: 0.49, close: 0.49, volume: 40 }]);
    const table = await pmdesk(['markets', 'candles', '506729', '--protocol', 'polymarket', '--interval', '6h']);
    expect(table.stdout).toMatch(/^time \(UTC\)\s+open\s+high\s+low\s+close\s+volume\n/);
  });

  it("markets candles: an unknown outcome lists the market's outcomes; an unknown range is refused before any request", async () => {
    aggregator.json('GET', '/v1/markets/506729', market);
    const run = await pmdesk([
      'markets',
      'candles',
      '506729',
      '--protocol',
      'polymarket',
      '--outcome',
      'Maybe',
      '--json',
    ]);
    expect(run.code).toBe(1);
    expect(errorOf(run)).toMatchObject({
      code: 'ERR_NOT_FOUND',
      message: "Outcome 'Maybe' not found; this market's outcomes are: Yes, No.",
    });
    aggregator.reset();
    const range = await pmdesk([
      'markets',
      'candles',
      '506729',
      '--protocol',
      'polymarket',
      '--interval',
      '2h',
      '--json',
    ]);
    expect(range.code).toBe(2);
    expect(errorOf(range)).toEqual({
      code: 'ERR_INVALID_PARAM',
      message: "Unknown chart interval '2h': use 1m, 5m, 15m, 1h, 6h, 1d, 1w.",
      statusCode: null,
      methodName: 'getCandles',
    });
    expect(aggregator.requests).toHaveLength(0);
  });

  it('traders activity and trades are ERR_NOT_AVAILABLE on the aggregator: exit 1, a sentence naming the other source, nothing sent', async () => {
    for (const command of ['activity', 'trades']) {
      const run = await pmdesk(['traders', command, WALLET, '--json']);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      const error = errorOf(run);
      expect(error.code).toBe('ERR_NOT_AVAILABLE');
      expect(error.message).toMatch(/polymarket/);
    }
    const text = await pmdesk(['traders', 'activity', WALLET]);
    expect(text.stderr).toMatch(/^pmdesk: \[ERR_NOT_AVAILABLE\] .*\(Method: getTraderActivity\)\n$/);
    expect(aggregator.requests).toHaveLength(0);
  });
});

describe('which source reads', () => {
  it('an aggregator URL keeps the aggregator; --source and PMDESK_SOURCE choose; the flag wins', async () => {
    aggregator.json('GET', '/v1/agg/sluglist', ['from-aggregator']);
    const byUrl = await runPmdesk(['--api-url', aggregator.url, 'slugs', 'list', '--json']);
    expect(json(byUrl)).toEqual(['from-aggregator']);
    const byEnv = await pmdesk(['slugs', 'list', '--json'], { PMDESK_SOURCE: 'aggregator' });
    expect(json(byEnv)).toEqual(['from-aggregator']);
    expect(aggregator.to('/v1/agg/sluglist')).toHaveLength(2);
    // Polymarket direct chosen by the flag over the variable: the aggregator is not asked.
    aggregator.reset();
    await pmdesk(['--source', 'polymarket', 'slugs', 'list', '--json'], { PMDESK_SOURCE: 'aggregator' });
    expect(aggregator.requests).toHaveLength(0);
  });

  it("a --network profile's aggregator URL means the aggregator when nothing else is said", async () => {
    aggregator.json('GET', '/v1/agg/sluglist', ['from-profile']);
    const file = join(dir, 'aggregator-profile.json');
    await writeFile(
      file,
      JSON.stringify({ name: 'sandbox', chainId: 31338, aggregatorUrl: aggregator.url, contracts: {} }),
    );
    const run = await runPmdesk(['--network', file, 'slugs', 'list', '--json']);
    expect(run.code).toBe(0);
    expect(json(run)).toEqual(['from-profile']);
  });

  it('an unknown source is invalid input: exit 2 naming both sources, nothing sent', async () => {
    const flag = await pmdesk(['--source', 'gamma', 'events', 'get', '1', '--json']);
    expect(flag.code).toBe(2);
    expect(errorOf(flag)).toMatchObject({
      code: 'ERR_INVALID_PARAM',
      message: "Unknown market-data source 'gamma': use polymarket or aggregator (--source or PMDESK_SOURCE).",
    });
    const env = await pmdesk(['markets', 'get', '1', '--json'], { PMDESK_SOURCE: 'clob' });
    expect(env.code).toBe(2);
    expect(aggregator.requests.length + direct.requests.length).toBe(0);
  });
});

describe('aggregator-only commands on Polymarket direct', () => {
  it('oracle propose, verify and scan are ERR_NOT_AVAILABLE (exit 1) and call no aggregator', async () => {
    const file = join(dir, 'order.json');
    await writeFile(file, '{}');
    for (const args of [
      ['oracle', 'propose', '--order-file', file],
      ['oracle', 'verify'],
      ['oracle', 'scan'],
    ]) {
      const run = await pmdesk(['--source', 'polymarket', ...args, '--json']);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(errorOf(run)).toMatchObject({
        code: 'ERR_NOT_AVAILABLE',
        message:
          "The price oracle is the aggregator's, and the market-data source here is polymarket: run with --source aggregator (or a network whose source is aggregator).",
      });
    }
    expect(aggregator.requests.length + direct.requests.length).toBe(0);
  });

  it('the oracle still answers on the aggregator', async () => {
    aggregator.json('GET', '/v1/scanPendingPriceData', { result: true });
    const run = await pmdesk(['--source', 'aggregator', 'oracle', 'scan']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('true\n');
  });
});

describe('bad input is refused before any request, the same on both sources (exit 2)', () => {
  const cases: [string[], string][] = [
    [['traders', 'activity', '0x1234'], "Parameter 'address' must be a wallet address: 0x and 40 hex digits."],
    [['traders', 'trades', 'alice'], "Parameter 'address' must be a wallet address: 0x and 40 hex digits."],
    [['traders', 'activity', WALLET, '--limit', '-5'], "Parameter 'limit' must be 1 or greater."],
    [['traders', 'trades', WALLET, '--limit', '2.5'], "Parameter 'limit' must be a whole number."],
    [['traders', 'trades', WALLET, '--offset', '-1'], "Parameter 'offset' must be 0 or greater."],
    [['events', 'list', '--limit', '0'], "Parameter 'limit' must be 1 or greater."],
    [['events', 'list', '--offset', 'ten'], "Parameter 'offset' must be 0 or greater."],
    [['events', 'ongoing', '--page', '0'], "Parameter 'page' must be 1 or greater."],
    [['slugs', 'list', '--limit', 'many'], "Parameter 'limit' must be 1 or greater."],
    [['search', ' '], "Missing required parameter 'query'."],
    [['fills', 'watch', '1', '--count', '0'], "Parameter 'count' must be 1 or greater."],
  ];

  for (const source of ['aggregator', 'polymarket']) {
    it(`on ${source}`, async () => {
      for (const [args, message] of cases) {
        const run = await pmdesk(['--source', source, ...args, '--json']);
        expect({ args, code: run.code, stdout: run.stdout }).toEqual({ args, code: 2, stdout: '' });
        expect(errorOf(run)).toMatchObject({ code: 'ERR_INVALID_PARAM', message, statusCode: null });
      }
      expect(aggregator.requests.length + direct.requests.length).toBe(0);
    });
  }
});
