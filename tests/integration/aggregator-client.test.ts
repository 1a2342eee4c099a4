// The aggregator client against a real HTTP server on loopback: every endpoint's wire request, every
// validation (nothing sent), every status mapping, timeouts, dropped connections and malformed answers.
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AggregatorClient } from '../../packages/toolkit/src/aggregator/client';
import type { Logger } from '../../packages/toolkit/src/base/logger';
import { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
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

let server: FixtureServer;
let logged: { level: string; message: string; data: unknown }[];
const logger: Logger = {
  debug: (message, data) => logged.push({ level: 'debug', message, data }),
  warn: (message, data) => logged.push({ level: 'warn', message, data }),
  error: (message, data) => logged.push({ level: 'error', message, data }),
};
const client = (options: { timeoutMs?: number } = {}) =>
  new AggregatorClient({ apiUrl: server.url, logger, ...options });

/** Runs a call expected to fail and returns its error. */
async function failure(promise: Promise<unknown>): Promise<PmDeskError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PmDeskError);
    return error as PmDeskError;
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.stop());
beforeEach(() => {
  server.reset();
  logged = [];
});

describe('every aggregator endpoint on the wire', () => {
  it('GET /v1/events/{id}?protocol=', async () => {
    server.json('GET', '/v1/events/12483', event);
    const result = await client().getEvent('polymarket', '12483');
    expect(server.last()).toMatchObject({ method: 'GET', url: '/v1/events/12483?protocol=polymarket', body: '' });
    expect(server.last().headers.accept).toContain('application/json');
    expect(result.id).toBe('12483');
    expect(result.liquidity).toBe(153201.4);
    expect(result.markets[0]!.position_tokens.map((t) => t.name)).toEqual(['Yes', 'No']);
  });

  it('GET /v1/markets/{id}?protocol=', async () => {
    server.json('GET', '/v1/markets/506729', market);
    const result = await client().getMarket('polymarket', '506729');
    expect(server.last().url).toBe('/v1/markets/506729?protocol=polymarket');
    expect(result.position_tokens[0]).toEqual({ token_id: YES_TOKEN, name: 'Yes', price: '0.53' });
  });

  it('GET /v1/ongoing-events with page 1 and limit 50 by default', async () => {
    server.json('GET', '/v1/ongoing-events', [event]);
    const result = await client().listOngoingEvents('polymarket');
    expect(server.last().url).toBe('/v1/ongoing-events?protocol=polymarket&page=1&limit=50');
    expect(result).toHaveLength(1);
    await client().listOngoingEvents('limitless', { page: 3, limit: 7 });
    expect(server.last().url).toBe('/v1/ongoing-events?protocol=limitless&page=3&limit=7');
  });

  it('GET /v1/events/{id}/comments?protocol=', async () => {
    server.json('GET', '/v1/events/12483/comments', [comment]);
    const [result] = await client().getEventComments('polymarket', '12483');
    expect(server.last().url).toBe('/v1/events/12483/comments?protocol=polymarket');
    expect(result).toMatchObject({ content: 'Gemini looks strong.', reactionCount: 3, parent_comment_id: null });
  });

  it('GET /v1/markets/{id}/orderbook?protocol=', async () => {
    server.json('GET', '/v1/markets/506729/orderbook', books);
    const result = await client().getOrderBooks('polymarket', '506729');
    expect(server.last().url).toBe('/v1/markets/506729/orderbook?protocol=polymarket');
    expect(result[YES_TOKEN]!.bids).toEqual([{ price: 0.52, size: 1200 }]);
    expect(result[YES_TOKEN]!.timestamp).toBe('1747400000000');
  });

  it('GET /v1/markets/{id}/orderbook/filledevents?protocol=', async () => {
    server.json('GET', '/v1/markets/506729/orderbook/filledevents', fillHistory);
    const result = await client().getFillHistory('polymarket', '506729');
    expect(server.last().url).toBe('/v1/markets/506729/orderbook/filledevents?protocol=polymarket');
    expect(result.map((fills) => fills.length)).toEqual([3, 1]);
    expect(result[0]![1]).toEqual({ price: 0.55, volumeBase: 20, timestamp: 1747390500 });
  });

  it('GET /v1/trader/{address}?protocol=', async () => {
    server.json('GET', '/v1/trader/0xA1', trader);
    const result = await client().getTrader('polymarket', '0xA1');
    expect(server.last().url).toBe('/v1/trader/0xA1?protocol=polymarket');
    expect(result.stats.cumulativeProfit).toBeNull();
  });

  it('GET /v1/trader/{address}/positions?protocol=', async () => {
    server.json('GET', '/v1/trader/0xA1/positions', positions);
    const [position] = await client().getTraderPositions('polymarket', '0xA1');
    expect(server.last().url).toBe('/v1/trader/0xA1/positions?protocol=polymarket');
    expect(position!.size).toBe(150);
  });

  it('GET /v1/agg/sluglist with page 1 and limit 100 by default, and no protocol', async () => {
    server.json('GET', '/v1/agg/sluglist', ['a-b', 'c-d']);
    expect(await client().listSlugs()).toEqual(['a-b', 'c-d']);
    expect(server.last().url).toBe('/v1/agg/sluglist?page=1&limit=100');
    await client().listSlugs({ page: 2, limit: 10 });
    expect(server.last().url).toBe('/v1/agg/sluglist?page=2&limit=10');
  });

  it('GET /v1/agg?slug=', async () => {
    server.json('GET', '/v1/agg', [event]);
    const result = await client().getEventsBySlug('which-company-has-best-ai-model-end-of-may');
    expect(server.last().url).toBe('/v1/agg?slug=which-company-has-best-ai-model-end-of-may');
    expect(result[0]!.id).toBe('12483');
  });

  it('GET /v1/agg/market?slug=', async () => {
    server.json('GET', '/v1/agg/market', [market]);
    const result = await client().getMarketsBySlug('will-google-have-the-top-ai-model-on-may-31');
    expect(server.last().url).toBe('/v1/agg/market?slug=will-google-have-the-top-ai-model-on-may-31');
    expect(result[0]!.id).toBe('506729');
  });

  it('GET /v1/agg/retrieve sends query always and the filters only when given', async () => {
    server.json('GET', '/v1/agg/retrieve', searchResults);
    const [match] = await client().search('top AI model');
    expect(server.last().url).toBe('/v1/agg/retrieve?query=top+AI+model');
    expect(match!.cosineSimilarity).toBe(0.83);

    await client().search('top AI model', {
      topK: 3,
      protocols: ['polymarket', 'limitless'],
      isIncludeComment: true,
      threshold: 0.5,
    });
    expect(server.last().url).toBe(
      '/v1/agg/retrieve?query=top+AI+model&topK=3&protocols=polymarket,limitless&isIncludeComment=true&threshold=0.5',
    );
    expect(server.last().query.get('query')).toBe('top AI model');

    await client().search('x', { protocols: [], isIncludeComment: false, topK: 0 });
    expect(server.last().url).toBe('/v1/agg/retrieve?query=x&topK=0&isIncludeComment=false');
  });

  it('POST /v1/proposePrice with {order}, every field a string', async () => {
    server.json('POST', '/v1/proposePrice', { ok: true, txHash: '0x1' });
    const result = await client().proposePrice(signedOrder);
    const request = server.last();
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request.body)).toEqual({
      order: {
        salt: '479249096354',
        maker: signedOrder.maker,
        signer: signedOrder.signer,
        taker: signedOrder.taker,
        tokenId: YES_TOKEN,
        makerAmount: '5300000',
        takerAmount: '10000000',
        expiration: '0',
        nonce: '0',
        feeRateBps: '0',
        side: '0',
        signatureType: '0',
        signature: signedOrder.signature,
      },
    });
    expect(result).toEqual({ ok: true, txHash: '0x1' });
  });

  it('POST /v1/verifyPrice with no body', async () => {
    server.json('POST', '/v1/verifyPrice', { verified: 2 });
    expect(await client().verifyPrice()).toEqual({ verified: 2 });
    expect(server.last()).toMatchObject({ method: 'POST', url: '/v1/verifyPrice', body: '' });
    expect(server.last().headers['content-type']).toBeUndefined();
  });

  it('GET /v1/scanPendingPriceData reads result', async () => {
    server.json('GET', '/v1/scanPendingPriceData', { result: true });
    expect(await client().scanPendingPriceData()).toBe(true);
    expect(server.last().url).toBe('/v1/scanPendingPriceData');
    server.json('GET', '/v1/scanPendingPriceData', { result: false });
    expect(await client().scanPendingPriceData()).toBe(false);
  });

  it('encodes ids in paths so they cannot reach another endpoint', async () => {
    server.fallback = (req, reply) => reply.json(200, { ...market, id: req.path });
    const result = await client().getMarket('polymarket', '1/../../v1/agg?x=1');
    expect(server.last().path).toBe('/v1/markets/1%2F..%2F..%2Fv1%2Fagg%3Fx%3D1');
    expect(result.id).toBe('/v1/markets/1%2F..%2F..%2Fv1%2Fagg%3Fx%3D1');
  });
});

describe('validation before any request', () => {
  const cases: [string, () => Promise<unknown>, string][] = [
    ['getEvent without protocol', () => client().getEvent('', '1'), "Missing required parameter 'protocol'."],
    ['getEvent without id', () => client().getEvent('polymarket', ''), "Missing required parameter 'marketId'."],
    [
      'getMarket without protocol',
      () => client().getMarket(undefined as unknown as string, '1'),
      "Missing required parameter 'protocol'.",
    ],
    ['getMarket without id', () => client().getMarket('polymarket', '  '), "Missing required parameter 'exchangeId'."],
    [
      'listOngoingEvents without protocol',
      () => client().listOngoingEvents(''),
      "Missing required parameter 'protocol'.",
    ],
    [
      'listOngoingEvents page 0',
      () => client().listOngoingEvents('polymarket', { page: 0 }),
      "Parameter 'page' must be 1 or greater.",
    ],
    [
      'listOngoingEvents page NaN',
      () => client().listOngoingEvents('polymarket', { page: Number.NaN }),
      "Parameter 'page' must be 1 or greater.",
    ],
    [
      'listOngoingEvents limit 0',
      () => client().listOngoingEvents('polymarket', { limit: 0 }),
      "Parameter 'limit' must be 1 or greater.",
    ],
    [
      'listOngoingEvents limit -3',
      () => client().listOngoingEvents('polymarket', { limit: -3 }),
      "Parameter 'limit' must be 1 or greater.",
    ],
    [
      'getEventComments without id',
      () => client().getEventComments('polymarket', ''),
      "Missing required parameter 'marketId'.",
    ],
    ['getOrderBooks without protocol', () => client().getOrderBooks('', '1'), "Missing required parameter 'protocol'."],
    [
      'getOrderBooks without id',
      () => client().getOrderBooks('polymarket', ''),
      "Missing required parameter 'exchangeId'.",
    ],
    [
      'getFillHistory without id',
      () => client().getFillHistory('polymarket', ''),
      "Missing required parameter 'exchangeId'.",
    ],
    [
      'getTrader checks the address before the protocol',
      () => client().getTrader('', ''),
      "Missing required parameter 'traderAddress'.",
    ],
    ['getTrader without protocol', () => client().getTrader('', '0x1'), "Missing required parameter 'protocol'."],
    [
      'getTraderPositions without address',
      () => client().getTraderPositions('polymarket', ''),
      "Missing required parameter 'traderAddress'.",
    ],
    ['listSlugs page 0', () => client().listSlugs({ page: 0 }), "Parameter 'page' must be 1 or greater."],
    ['listSlugs limit 0', () => client().listSlugs({ limit: 0 }), "Parameter 'limit' must be 1 or greater."],
    ['listSlugs page 1.5', () => client().listSlugs({ page: 1.5 }), "Parameter 'page' must be a whole number."],
    ['getEventsBySlug without slug', () => client().getEventsBySlug(''), "Missing required parameter 'slug'."],
    ['getMarketsBySlug without slug', () => client().getMarketsBySlug(''), "Missing required parameter 'slug'."],
    ['search without query', () => client().search(''), "Missing required parameter 'query'."],
    ['search with a NaN topK', () => client().search('x', { topK: Number.NaN }), "Parameter 'topK' must be a number."],
  ];

  it.each(cases)('%s', async (_name, call, message) => {
    const error = await failure(call());
    expect(error.code).toBe('ERR_INVALID_PARAM');
    expect(error.detail).toBe(message);
    expect(error.statusCode).toBeUndefined();
    expect(error.methodName).toBeTruthy();
    expect(server.requests).toHaveLength(0);
    expect(logged.filter((l) => l.level === 'error')).toHaveLength(1);
  });

  it('refuses a client without an API URL or with a bad timeout', () => {
    expect(() => new AggregatorClient({ apiUrl: '' })).toThrow("Missing required parameter 'apiUrl'.");
    expect(() => new AggregatorClient({ apiUrl: 'http://x', timeoutMs: 0 })).toThrow(/timeoutMs/);
  });
});

describe('failures', () => {
  it.each([
    [400, 'ERR_INVALID_PARAM'],
    [401, 'ERR_UNAUTHORIZED'],
    [403, 'ERR_FORBIDDEN'],
    [404, 'ERR_NOT_FOUND'],
    [500, 'ERR_SERVER'],
    [502, 'ERR_SERVER'],
    [503, 'ERR_SERVER'],
    [504, 'ERR_SERVER'],
    [418, 'ERR_API_REQUEST'],
    [505, 'ERR_API_REQUEST'],
  ])('status %i becomes %s with the server message', async (status, code) => {
    server.json('GET', '/v1/markets/1', { message: 'nope' }, status);
    const error = await failure(client().getMarket('polymarket', '1'));
    expect(error.code).toBe(code);
    expect(error.statusCode).toBe(status);
    expect(error.detail).toBe(`API request failed with status ${status}. Server message: nope`);
    expect(error.message).toBe(
      `[${code}] API request failed with status ${status}. Server message: nope (Method: getMarket) (Status: ${status})`,
    );
    expect(error.responseData).toEqual({ message: 'nope' });
  });

  it('appends the server error when there is no message, nothing for a text body', async () => {
    server.json('GET', '/v1/markets/1', { error: 'market halted' }, 400);
    expect((await failure(client().getMarket('polymarket', '1'))).detail).toBe(
      'API request failed with status 400. Server error: market halted',
    );
    server.on('GET', '/v1/markets/1', (_r, reply) => reply.text(502, '<html>Bad Gateway</html>', 'text/html'));
    const error = await failure(client().getMarket('polymarket', '1'));
    expect(error.detail).toBe('API request failed with status 502.');
    expect(error.responseData).toBe('<html>Bad Gateway</html>');
  });

  it('masks ids in the error context and names the route instead of the URL', async () => {
    server.json('GET', '/v1/trader/0xSECRETADDR', { message: 'x' }, 500);
    const error = await failure(client().getTrader('polymarket', '0xSECRETADDR'));
    expect(JSON.stringify(error.context)).not.toContain('SECRETADDR');
    expect(error.context).toMatchObject({
      endpoint: 'GET /v1/trader/{address}',
      traderAddress: '***',
      protocol: 'polymarket',
    });
  });

  it('cuts a search query to 50 characters in the error context', async () => {
    server.json('GET', '/v1/agg/retrieve', { message: 'x' }, 500);
    const query = 'q'.repeat(80);
    const error = await failure(client().search(query));
    expect(error.context?.query).toBe(`${'q'.repeat(50)}...`);
  });

  it('times out with "API request timed out."', async () => {
    server.on('GET', '/v1/markets/1', (_r, reply) => reply.hang());
    const error = await failure(client({ timeoutMs: 150 }).getMarket('polymarket', '1'));
    expect(error.code).toBe('ERR_TIMEOUT');
    expect(error.detail).toBe('API request timed out.');
    expect(error.context?.timeoutMs).toBe(150);
  });

  it('a dropped connection is a network error', async () => {
    server.on('GET', '/v1/markets/1', (_r, reply) => reply.drop());
    const error = await failure(client().getMarket('polymarket', '1'));
    expect(error.code).toBe('ERR_NETWORK');
    expect(error.detail).toBe('Network error: No response received from the API server.');
  });

  it('a connection cut in the middle of the body is a network error', async () => {
    server.on('GET', '/v1/markets/1', (_r, reply) => reply.dropMidBody());
    expect((await failure(client().getMarket('polymarket', '1'))).code).toBe('ERR_NETWORK');
  });

  it('a refused connection is a network error', async () => {
    const port = await closedPort();
    const error = await failure(
      new AggregatorClient({ apiUrl: `http://127.0.0.1:${port}`, logger }).getMarket('polymarket', '1'),
    );
    expect(error.code).toBe('ERR_NETWORK');
    expect(error.context?.reason).toBe('ECONNREFUSED');
  });

  it('an unsupported protocol fails to set up', async () => {
    const error = await failure(
      new AggregatorClient({ apiUrl: 'ftp://127.0.0.1:1', logger }).getMarket('polymarket', '1'),
    );
    expect(error.code).toBe('ERR_API_REQUEST');
    expect(error.detail).toBe('Failed to setup the API request: Unsupported protocol ftp:');
  });

  it('malformed JSON in a success answer is a validation error', async () => {
    server.on('GET', '/v1/markets/1', (_r, reply) =>
      reply.text(200, '{"id": "1", "position_tokens": [', 'application/json'),
    );
    const error = await failure(client().getMarket('polymarket', '1'));
    expect(error.code).toBe('ERR_VALIDATION');
    expect(error.detail).toBe('The API server answered with malformed JSON.');
  });

  it('a changed field is a validation error that names it', async () => {
    server.json('GET', '/v1/markets/1', { ...market, position_tokens: 'Yes,No' });
    const error = await failure(client().getMarket('polymarket', '1'));
    expect(error.code).toBe('ERR_VALIDATION');
    expect(error.detail).toMatch(/^Unexpected response from the API server: position_tokens: /);
  });

  it('wraps once and logs once', async () => {
    server.json('GET', '/v1/markets/1', { message: 'x' }, 500);
    const error = await failure(client().getMarket('polymarket', '1'));
    expect(logged).toHaveLength(1);
    expect(logged[0]!.data).toBe(error);
    expect(error.cause).toBeUndefined();
  });
});

describe('slug lookups', () => {
  it('an empty list is "Market with slug \'…\' not found."', async () => {
    server.json('GET', '/v1/agg', []);
    const error = await failure(client().getEventsBySlug('no-such-event'));
    expect(error.code).toBe('ERR_NOT_FOUND');
    expect(error.statusCode).toBe(404);
    expect(error.detail).toBe("Market with slug 'no-such-event' not found.");
  });

  it('a 404 is "Market with slug \'…\' not found." too', async () => {
    server.json('GET', '/v1/agg', { message: 'not here' }, 404);
    const error = await failure(client().getEventsBySlug('gone-event'));
    expect(error.detail).toBe("Market with slug 'gone-event' not found.");
    expect(error.responseData).toEqual({ message: 'not here' });
    expect(logged).toHaveLength(1);
  });

  it('markets by slug say "Exchange with slug \'…\' not found."', async () => {
    server.json('GET', '/v1/agg/market', []);
    expect((await failure(client().getMarketsBySlug('no-such-market'))).detail).toBe(
      "Exchange with slug 'no-such-market' not found.",
    );
    server.json('GET', '/v1/agg/market', { error: 'x' }, 404);
    expect((await failure(client().getMarketsBySlug('gone-market'))).detail).toBe(
      "Exchange with slug 'gone-market' not found.",
    );
  });

  it('other failures keep their own code', async () => {
    server.json('GET', '/v1/agg', { message: 'down' }, 503);
    expect((await failure(client().getEventsBySlug('a-b'))).code).toBe('ERR_SERVER');
  });
});

describe('the oracle calls swallow their failures', () => {
  it('proposePrice and verifyPrice return null on a server error, and log it', async () => {
    server.json('POST', '/v1/proposePrice', { message: 'rejected' }, 500);
    server.json('POST', '/v1/verifyPrice', { message: 'rejected' }, 503);
    expect(await client().proposePrice(signedOrder)).toBeNull();
    expect(await client().verifyPrice()).toBeNull();
    expect(logged.map((l) => l.level)).toEqual(['warn', 'warn']);
    expect((logged[0]!.data as PmDeskError).code).toBe('ERR_SERVER');
  });

  it('proposePrice returns null for an order missing a field, sending nothing', async () => {
    expect(await client().proposePrice({ ...signedOrder, signature: undefined })).toBeNull();
    expect(server.requests).toHaveLength(0);
    expect((logged[0]!.data as PmDeskError).detail).toBe("Missing required parameter 'signature'.");
  });

  it('proposePrice and verifyPrice return null when the server is unreachable', async () => {
    const unreachable = new AggregatorClient({ apiUrl: `http://127.0.0.1:${await closedPort()}`, logger });
    expect(await unreachable.proposePrice(signedOrder)).toBeNull();
    expect(await unreachable.verifyPrice()).toBeNull();
    expect(await unreachable.scanPendingPriceData()).toBe(false);
  });

  it('scanPendingPriceData returns false on an error or an answer without a boolean result', async () => {
    server.json('GET', '/v1/scanPendingPriceData', { message: 'x' }, 500);
    expect(await client().scanPendingPriceData()).toBe(false);
    server.json('GET', '/v1/scanPendingPriceData', { result: 'yes' });
    expect(await client().scanPendingPriceData()).toBe(false);
    expect(logged).toHaveLength(2);
  });
});

/** A loopback port that nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('credentials in a base URL', () => {
  it('go as Basic auth and never reach an error context', async () => {
    server.json('GET', '/v1/markets/1', { message: 'x' }, 500);
    const withUser = new AggregatorClient({ apiUrl: server.url.replace('http://', 'http://alice:hunter2@'), logger });
    const error = await failure(withUser.getMarket('polymarket', '1'));
    expect(error.code).toBe('ERR_SERVER');
    expect(server.last().headers.authorization).toBe(`Basic ${Buffer.from('alice:hunter2').toString('base64')}`);
    expect(error.context?.baseUrl).toBe(server.url);
    expect(JSON.stringify(error)).not.toContain('hunter2');
  });
});
