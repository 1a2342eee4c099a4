// `pmdesk` as a black box: the real CLI process against a real HTTP/SSE server on loopback.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer, type SseStream } from '../helpers/fixture-server';
import {
  books,
  comment,
  event,
  fillHistory,
  market,
  positions,
  searchResults,
  signedOrder,
  trader,
  YES_TOKEN,
} from '../helpers/aggregator-fixtures';
import { runPmdesk, type PmdeskOptions, type PmdeskRun } from '../helpers/pmdesk-process';

let server: FixtureServer;
let dir: string;

type Run = PmdeskRun;

/** Runs `pmdesk` with the fixture server as the aggregator; `during` may act while it runs. */
function pmdesk(args: string[], options: PmdeskOptions = {}): Promise<Run> {
  return runPmdesk(['--api-url', server.url, ...args], options);
}

const json = (run: Run) => JSON.parse(run.stdout) as unknown;
const errorOf = (run: Run) => (JSON.parse(run.stderr.trim()) as { error: Record<string, unknown> }).error;

beforeAll(async () => {
  server = await startFixtureServer();
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-cli-'));
});
afterAll(() => server.stop());
beforeEach(() => server.reset());

describe('pmdesk reads, --json prints exactly the parsed response', () => {
  it('events get', async () => {
    server.json('GET', '/v1/events/12483', event);
    const run = await pmdesk(['events', 'get', '12483', '--protocol', 'polymarket', '--json']);
    expect(run.code).toBe(0);
    expect(server.last().url).toBe('/v1/events/12483?protocol=polymarket');
    const out = json(run) as typeof event;
    expect(out.id).toBe('12483');
    expect(out.liquidity).toBe(153201.4); // parsed: the server sent a string
    expect(run.stderr).toBe('');
  });

  it('markets get', async () => {
    server.json('GET', '/v1/markets/506729', market);
    const run = await pmdesk(['--json', 'markets', 'get', '506729', '--protocol', 'polymarket']);
    expect(run.code).toBe(0);
    expect((json(run) as typeof market).position_tokens[1]).toEqual({
      token_id: market.position_tokens[1]!.token_id,
      name: 'No',
      price: '0.47',
    });
  });

  it('events ongoing, with defaults and with --page/--limit', async () => {
    server.json('GET', '/v1/ongoing-events', [event]);
    expect((await pmdesk(['events', 'ongoing', '--protocol', 'polymarket', '--json'])).code).toBe(0);
    expect(server.last().url).toBe('/v1/ongoing-events?protocol=polymarket&page=1&limit=50');
    await pmdesk(['events', 'ongoing', '--protocol', 'polymarket', '--page', '2', '--limit', '5', '--json']);
    expect(server.last().url).toBe('/v1/ongoing-events?protocol=polymarket&page=2&limit=5');
  });

  it('events comments, markets book, markets history, traders get/positions', async () => {
    server.json('GET', '/v1/events/12483/comments', [comment]);
    server.json('GET', '/v1/markets/506729/orderbook', books);
    server.json('GET', '/v1/markets/506729/orderbook/filledevents', fillHistory);
    server.json('GET', '/v1/trader/0xA1', trader);
    server.json('GET', '/v1/trader/0xA1/positions', positions);
    const comments = await pmdesk(['events', 'comments', '12483', '--protocol', 'polymarket', '--json']);
    expect((json(comments) as { content: string }[])[0]!.content).toBe('Gemini looks strong.');
    const book = await pmdesk(['markets', 'book', '506729', '--protocol', 'polymarket', '--json']);
    expect((json(book) as Record<string, { bids: unknown }>)[YES_TOKEN]!.bids).toEqual([{ price: 0.52, size: 1200 }]);
    const history = await pmdesk(['markets', 'history', '506729', '--protocol', 'polymarket', '--json']);
    expect((json(history) as unknown[][]).map((h) => h.length)).toEqual([3, 1]);
    const t = await pmdesk(['traders', 'get', '0xA1', '--protocol', 'polymarket', '--json']);
    expect((json(t) as typeof trader).stats.cumulativeVolume).toBe(98765.4);
    const p = await pmdesk(['traders', 'positions', '0xA1', '--protocol', 'polymarket', '--json']);
    expect((json(p) as { size: number }[])[0]!.size).toBe(150);
    expect(server.requests.map((r) => r.url)).toEqual([
      '/v1/events/12483/comments?protocol=polymarket',
      '/v1/markets/506729/orderbook?protocol=polymarket',
      '/v1/markets/506729/orderbook/filledevents?protocol=polymarket',
      '/v1/trader/0xA1?protocol=polymarket',
      '/v1/trader/0xA1/positions?protocol=polymarket',
    ]);
  });

  it('slugs list, events and markets', async () => {
    server.json('GET', '/v1/agg/sluglist', ['a-b']);
    server.json('GET', '/v1/agg', [event]);
    server.json('GET', '/v1/agg/market', [market]);
    expect(json(await pmdesk(['slugs', 'list', '--json']))).toEqual(['a-b']);
    expect(server.last().url).toBe('/v1/agg/sluglist?page=1&limit=100');
    await pmdesk(['slugs', 'list', '--page', '4', '--limit', '20', '--json']);
    expect(server.last().url).toBe('/v1/agg/sluglist?page=4&limit=20');
    expect((json(await pmdesk(['slugs', 'events', 'which-company', '--json'])) as unknown[]).length).toBe(1);
    expect(server.last().url).toBe('/v1/agg?slug=which-company');
    expect((json(await pmdesk(['slugs', 'markets', 'will-google', '--json'])) as { id: string }[])[0]!.id).toBe(
      '506729',
    );
    expect(server.last().url).toBe('/v1/agg/market?slug=will-google');
  });

  it('search joins the words and sends only the filters given', async () => {
    server.json('GET', '/v1/agg/retrieve', searchResults);
    const run = await pmdesk(['search', 'top', 'AI', 'model', '--json']);
    expect(run.code).toBe(0);
    expect(server.last().url).toBe('/v1/agg/retrieve?query=top+AI+model');
    expect((json(run) as { cosineSimilarity: number }[])[0]!.cosineSimilarity).toBe(0.83);
    await pmdesk([
      'search',
      'top AI',
      '--top-k',
      '3',
      '--protocols',
      'polymarket,limitless',
      '--include-comments',
      '--threshold',
      '0.5',
      '--json',
    ]);
    expect(server.last().url).toBe(
      '/v1/agg/retrieve?query=top+AI&topK=3&protocols=polymarket,limitless&isIncludeComment=true&threshold=0.5',
    );
  });

  it('readable tables without --json', async () => {
    server.json('GET', '/v1/events/12483', event);
    server.json('GET', '/v1/ongoing-events', [event]);
    const one = await pmdesk(['events', 'get', '12483', '--protocol', 'polymarket']);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/title\s+Which company has best AI model end of May\?/);
    expect(one.stdout).toContain('Yes 0.53 / No 0.47');
    const list = await pmdesk(['events', 'ongoing', '--protocol', 'polymarket']);
    expect(list.stdout.split('\n')[0]).toMatch(/^id\s+title\s+slug\s+markets\s+volume$/);
    expect(list.stdout).toContain('12483');
  });
});

describe('pmdesk markets book without --json', () => {
  it('shows each outcome best-first, whatever order the server sent', async () => {
    server.json('GET', '/v1/markets/5/orderbook', {
      t1: {
        market: 'm',
        asset_id: 't1',
        hash: 'h',
        bids: [
          { price: '0.50', size: '1' },
          { price: '0.52', size: '2' },
          { price: '0.51', size: '3' },
        ],
        asks: [
          { price: '0.60', size: '4' },
          { price: '0.55', size: '5' },
        ],
      },
    });
    const run = await pmdesk(['markets', 'book', '5', '--protocol', 'polymarket']);
    const rows = run.stdout
      .split('\n')
      .slice(3, 6)
      .map((line) => line.trim().split(/\s+/));
    expect(rows).toEqual([
      ['2', '0.52', '0.55', '5'],
      ['3', '0.51', '0.6', '4'],
      ['1', '0.5'],
    ]);
  });
});

describe('pmdesk failures', () => {
  it("a missing --protocol is the toolkit's message, exit 2, nothing sent", async () => {
    const run = await pmdesk(['events', 'get', '12483', '--json']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(errorOf(run)).toEqual({
      code: 'ERR_INVALID_PARAM',
      message: "Missing required parameter 'protocol'.",
      statusCode: null,
      methodName: 'getEvent',
    });
    expect(server.requests).toHaveLength(0);
  });

  it('a bad page or limit is refused before any request', async () => {
    const run = await pmdesk(['events', 'ongoing', '--protocol', 'polymarket', '--page', '0', '--json']);
    expect(run.code).toBe(2);
    expect(errorOf(run).message).toBe("Parameter 'page' must be 1 or greater.");
    const limit = await pmdesk(['slugs', 'list', '--limit', 'many', '--json']);
    expect(limit.code).toBe(2);
    expect(errorOf(limit).message).toBe("Parameter 'limit' must be 1 or greater.");
    expect(server.requests).toHaveLength(0);
  });

  it('a usage error (missing argument, unknown option) is exit 2 with a catalogued code', async () => {
    const run = await pmdesk(['events', 'get', '--json']);
    expect(run.code).toBe(2);
    expect(errorOf(run)).toMatchObject({ code: 'ERR_INVALID_PARAM', message: "missing required argument 'id'" });
    const unknown = await pmdesk(['slugs', 'list', '--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^pmdesk: \[ERR_INVALID_PARAM\] unknown option '--bogus'/);
  });

  it('a server error is exit 1 with code, message, status and method', async () => {
    server.json('GET', '/v1/markets/9', { message: 'database down' }, 503);
    const run = await pmdesk(['markets', 'get', '9', '--protocol', 'polymarket', '--json']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(errorOf(run)).toEqual({
      code: 'ERR_SERVER',
      message: 'API request failed with status 503. Server message: database down',
      statusCode: 503,
      methodName: 'getMarket',
    });
  });

  it('a 400 from the server is exit 1, not 2: it was sent', async () => {
    server.json('GET', '/v1/markets/9', { error: 'bad id' }, 400);
    const run = await pmdesk(['markets', 'get', '9', '--protocol', 'polymarket', '--json']);
    expect(run.code).toBe(1);
    expect(errorOf(run)).toMatchObject({ code: 'ERR_INVALID_PARAM', statusCode: 400 });
  });

  it('without --json the error is one readable line on stderr', async () => {
    server.json('GET', '/v1/agg', []);
    const run = await pmdesk(['slugs', 'events', 'nothing-here']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "pmdesk: [ERR_NOT_FOUND] Market with slug 'nothing-here' not found. (Method: getEventsBySlug) (Status: 404)\n",
    );
  });

  it('honours --timeout-ms', async () => {
    server.on('GET', '/v1/markets/1', (_r, reply) => reply.hang());
    const run = await pmdesk(['markets', 'get', '1', '--protocol', 'polymarket', '--timeout-ms', '200', '--json']);
    expect(run.code).toBe(1);
    expect(errorOf(run)).toMatchObject({ code: 'ERR_TIMEOUT', message: 'API request timed out.' });
  });

  it('reads the API URL from PMDESK_API_URL when no flag is given', async () => {
    server.json('GET', '/v1/agg/sluglist', ['x-y']);
    const child = await runPmdesk(['slugs', 'list', '--json'], { env: { PMDESK_API_URL: server.url } });
    expect(child.code).toBe(0);
    expect(JSON.parse(child.stdout)).toEqual(['x-y']);
  });
});

describe('pmdesk oracle', () => {
  it('propose sends the order file as {order} with every field a string', async () => {
    server.json('POST', '/v1/proposePrice', { accepted: true });
    const file = join(dir, 'order.json');
    await writeFile(file, JSON.stringify(signedOrder));
    const run = await pmdesk(['oracle', 'propose', '--order-file', file]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ accepted: true });
    const body = JSON.parse(server.last().body) as { order: Record<string, unknown> };
    expect(Object.values(body.order).every((v) => typeof v === 'string')).toBe(true);
    expect(body.order).toMatchObject({ salt: '479249096354', side: '0', makerAmount: '5300000' });
  });

  it('propose prints null when the call fails', async () => {
    server.json('POST', '/v1/proposePrice', { message: 'no' }, 500);
    const file = join(dir, 'order2.json');
    await writeFile(file, JSON.stringify({ order: signedOrder }));
    const run = await pmdesk(['oracle', 'propose', '--order-file', file, '--json']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('null\n');
  });

  it('propose refuses a broken order file before any request (exit 2)', async () => {
    const file = join(dir, 'broken.json');
    await writeFile(file, '{"salt": 1');
    const run = await pmdesk(['oracle', 'propose', '--order-file', file, '--json']);
    expect(run.code).toBe(2);
    expect(errorOf(run).message).toMatch(/^Cannot read the order file: /);
    const missing = join(dir, 'missing-field.json');
    await writeFile(missing, JSON.stringify({ ...signedOrder, tokenId: undefined }));
    const run2 = await pmdesk(['oracle', 'propose', '--order-file', missing, '--json']);
    expect(run2.code).toBe(2);
    expect(errorOf(run2).message).toBe("Missing required parameter 'tokenId'.");
    expect(server.requests).toHaveLength(0);
  });

  it('verify prints the result or null; scan prints true or false, and fails (exit 1) when the aggregator does', async () => {
    server.json('POST', '/v1/verifyPrice', { verified: 1 });
    expect((await pmdesk(['oracle', 'verify'])).stdout).toBe('{"verified":1}\n');
    server.json('POST', '/v1/verifyPrice', { message: 'x' }, 500);
    expect((await pmdesk(['oracle', 'verify', '--json'])).stdout).toBe('null\n');
    server.json('GET', '/v1/scanPendingPriceData', { result: true });
    expect((await pmdesk(['oracle', 'scan'])).stdout).toBe('true\n');
    server.json('GET', '/v1/scanPendingPriceData', { result: false });
    expect(await pmdesk(['oracle', 'scan'])).toMatchObject({ stdout: 'false\n', code: 0 });
    // "Nothing pending" and "no answer" must differ for a script: a failure is not false.
    server.json('GET', '/v1/scanPendingPriceData', { message: 'x' }, 500);
    const failed = await pmdesk(['oracle', 'scan', '--json']);
    expect(failed.stdout).toBe('');
    expect(failed.code).toBe(1);
  });
});

describe('pmdesk fills watch', () => {
  /** Serves the stream and runs `script` on it once the CLI connects. */
  const serveStream = (script: (stream: SseStream) => void) =>
    server.on('GET', '/sse/fillevent', (_req, reply) => {
      const stream = reply.sse();
      script(stream);
    });

  it('prints one JSON line per fill and exits 0 after --count', async () => {
    serveStream((s) => {
      s.send('{"price":0.5,"volumeBase":10,"timestamp":1747400000}');
      s.send('{"price":0.51,"volumeBase":2,"timestamp":1747400001}');
      s.send('{"price":0.52,"volumeBase":3,"timestamp":1747400002}');
    });
    const run = await pmdesk(['fills', 'watch', '506729', '--protocol', 'polymarket', '--count', '2']);
    expect(run.code).toBe(0);
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([
      { price: 0.5, volumeBase: 10, timestamp: 1747400000 },
      { price: 0.51, volumeBase: 2, timestamp: 1747400001 },
    ]);
    expect(server.last().url).toBe('/sse/fillevent?protocol=polymarket&id=506729');
  });

  it('reports a malformed message on stderr and keeps going', async () => {
    serveStream((s) => {
      s.send('garbage');
      s.send('{"price":0.5,"volumeBase":10,"timestamp":1}');
    });
    const run = await pmdesk(['fills', 'watch', '1', '--protocol', 'polymarket', '--count', '1']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(1);
    const line = JSON.parse(run.stderr.trim().split('\n')[0]!) as { error: { code: string; message: string } };
    expect(line.error.code).toBe('ERR_SSE_MESSAGE');
    expect(line.error.message).toMatch(/^Failed to process SSE message: /);
  });

  it('exits 1 with the error when the server closes the stream, printing no fill twice', async () => {
    serveStream((s) => {
      s.raw('retry: 10\n\n');
      s.send('{"price":0.5,"volumeBase":10,"timestamp":1}');
      setTimeout(() => s.end(), 50);
    });
    const run = await pmdesk(['fills', 'watch', '1', '--protocol', 'polymarket']);
    expect(run.code).toBe(1);
    expect(run.stdout.trim().split('\n')).toEqual(['{"price":0.5,"volumeBase":10,"timestamp":1}']);
    expect(run.stderr).toContain('[ERR_SSE_CLOSED] SSE connection closed unexpectedly for polymarket/1.');
    expect(server.to('/sse/fillevent')).toHaveLength(1);
  });

  it('exits 1 when the stream cannot be opened', async () => {
    server.json('GET', '/sse/fillevent', { message: 'unknown market' }, 404);
    const run = await pmdesk(['fills', 'watch', '1', '--protocol', 'polymarket', '--json']);
    expect(run.code).toBe(1);
    expect(errorOf(run)).toMatchObject({ code: 'ERR_SSE_CONNECT', statusCode: 404, methodName: 'subscribeToFills' });
  });

  it('refuses a missing protocol or a bad count before connecting (exit 2)', async () => {
    expect((await pmdesk(['fills', 'watch', '1'])).code).toBe(2);
    const run = await pmdesk(['fills', 'watch', '1', '--protocol', 'polymarket', '--count', '0', '--json']);
    expect(run.code).toBe(2);
    expect(errorOf(run).message).toBe("Parameter 'count' must be 1 or greater.");
    expect(server.requests).toHaveLength(0);
  });

  it('stops cleanly on SIGINT (exit 0)', async () => {
    let connected!: () => void;
    const isConnected = new Promise<void>((resolve) => (connected = resolve));
    serveStream(() => connected());
    const run = await pmdesk(['fills', 'watch', '1', '--protocol', 'polymarket'], {
      during: (child) => void isConnected.then(() => child.kill('SIGINT')),
    });
    expect(run.code).toBe(0);
  });
});

describe('pmdesk candles', () => {
  beforeEach(() => {
    server.json('GET', '/v1/markets/506729', market);
    server.json('GET', '/v1/markets/506729/orderbook/filledevents', fillHistory);
  });

  it('candles of the first outcome by default', async () => {
    const run = await pmdesk(['candles', '506729', '--protocol', 'polymarket', '--interval', '1h', '--json']);
    expect(run.code).toBe(0);
    // fills at 1747390000 (0.51 ×100), 1747390500 (0.55 ×20) and 1747394000 (0.5 ×5); hours start at 1747389600 and 1747393200
    expect(json(run)).toEqual([
      { time: 1747389600, open: 0.51, high: 0.55, low: 0.51, close: 0.55, volume: 120 },
      { time: 1747393200, open: 0.5, high: 0.5, low: 0.5, close: 0.5, volume: 5 },
    ]);
  });

  it('--outcome picks another outcome by name, case-insensitively; --from/--to narrow', async () => {
    const no = await pmdesk([
      'candles',
      '506729',
      '--protocol',
      'polymarket',
      '--interval',
      '1d',
      '--outcome',
      'no',
      '--json',
    ]);
    expect(json(no)).toEqual([{ time: 1747353600, open: 0.49, high: 0.49, low: 0.49, close: 0.49, volume: 40 }]);
    const narrow = await pmdesk([
      'candles',
      '506729',
      '--protocol',
      'polymarket',
      '--interval',
      '60000',
      '--from',
      '1747390400000',
      '--to',
      '1747394000000',
      '--json',
    ]);
    expect(json(narrow)).toEqual([
      { time: 1747390500 - (1747390500 % 60), open: 0.55, high: 0.55, low: 0.55, close: 0.55, volume: 20 },
    ]);
  });

  it('an unknown outcome is a clear not-found error', async () => {
    const run = await pmdesk(['candles', '506729', '--protocol', 'polymarket', '--outcome', 'Maybe', '--json']);
    expect(run.code).toBe(1);
    expect(errorOf(run)).toMatchObject({
      code: 'ERR_NOT_FOUND',
      message: "Outcome 'Maybe' not found; this market's outcomes are: Yes, No.",
    });
  });

  it('a non-positive interval is refused before any request', async () => {
    server.reset();
    for (const interval of ['0', '-60000']) {
      const run = await pmdesk(['candles', '506729', '--protocol', 'polymarket', '--interval', interval, '--json']);
      expect(run.code).toBe(2);
      expect(errorOf(run).message).toBe('Candlestick intervalMillis must be positive.');
    }
    expect(server.requests).toHaveLength(0);
  });

  it('prints a table without --json', async () => {
    const run = await pmdesk(['candles', '506729', '--protocol', 'polymarket', '--interval', '6h']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^time \(UTC\)\s+open\s+high\s+low\s+close\s+volume\n/);
    expect(run.stdout).toContain('2025-05-16T');
  });
});
