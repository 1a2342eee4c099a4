// Polymarket direct lists events and markets through Gamma's keyset endpoints (`/events/keyset`,
// `/markets/keyset`, `after_cursor=<next_cursor>`, at most 100 a page), against a real HTTP server on loopback
// with fixed answers: pages and offsets reached by cursor, the same filters as before, the deprecated offset
// lists read only when the keyset list answers 404 (and a notice says so), a deprecated endpoint noticed once
// from its headers, and the `Poly-RateLimit-*` headers read and used to pace the host's requests.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiNotice, RateLimitReading } from '../../packages/toolkit/src/http/answer-headers';
import type { Logger } from '../../packages/toolkit/src/base/logger';
import { GammaClient } from '../../packages/toolkit/src/polymarket/gamma';
import { HostLimiter } from '../../packages/toolkit/src/polymarket/limiter';
import { PolymarketSource } from '../../packages/toolkit/src/polymarket/source';
import { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { retryNoticeText } from '../../packages/toolkit/src/http/retry';
import { startFixtureServer, type FixtureServer, type RecordedRequest } from '../helpers/fixture-server';
import { gammaMarket, negRiskEvent } from '../helpers/polymarket-fixtures';

let gamma: FixtureServer;
let data: FixtureServer;
let clob: FixtureServer;
const logger: Logger = { debug() {}, warn() {}, error() {} };

/** Gamma's deprecation headers on the offset lists, as Polymarket sends them since spring 2026. */
const DEPRECATED = {
  Deprecation: 'true',
  Sunset: 'Fri, 01 May 2026 00:00:00 GMT',
  Warning: '299 - "use /events/keyset"',
};

function source(notices: ApiNotice[] = [], readings: RateLimitReading[] = []) {
  return new PolymarketSource({
    gammaUrl: gamma.url,
    dataUrl: data.url,
    clobUrl: clob.url,
    logger,
    onNotice: (notice) => notices.push(notice),
    onRateLimit: (reading) => readings.push(reading),
  });
}

const event = (id: number) => ({ ...negRiskEvent(), id: String(id), slug: `event-${id}`, markets: [] });

/** A keyset list of `total` events whose cursor is an opaque token naming the next row (as Gamma's is opaque). */
function serveEvents(total: number): void {
  gamma.on('GET', '/events/keyset', (request, reply) => {
    const limit = Math.min(Number(request.query.get('limit')), 100);
    const cursor = request.query.get('after_cursor');
    const start = cursor ? Number(Buffer.from(cursor, 'base64url').toString().replace('row:', '')) : 0;
    const end = Math.min(start + limit, total);
    const events = Array.from({ length: end - start }, (_, i) => event(start + i + 1));
    reply.json(
      200,
      end < total ? { events, next_cursor: Buffer.from(`row:${end}`).toString('base64url') } : { events },
    );
  });
}

const cursorsAsked = (requests: RecordedRequest[]) => requests.map((r) => r.query.get('after_cursor'));

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
  [gamma, data, clob] = await Promise.all([startFixtureServer(), startFixtureServer(), startFixtureServer()]);
});
afterAll(() => Promise.all([gamma.stop(), data.stop(), clob.stop()]));
beforeEach(() => {
  for (const server of [gamma, data, clob]) server.reset();
});

describe('events listed by keyset', () => {
  it('asks /events/keyset with the filters of the offset list, and never the deprecated /events', async () => {
    serveEvents(3);
    const notices: ApiNotice[] = [];
    const events = await source(notices).listEvents({
      protocol: 'polymarket',
      limit: 10,
      tag: 'economy',
      order: 'liquidity',
    });
    expect(events.map((e) => e.id)).toEqual(['1', '2', '3']);
    expect(gamma.requests.map((r) => r.path)).toEqual(['/events/keyset']);
    expect(gamma.last().rawQuery).toBe(
      'limit=10&order=liquidity&ascending=false&tag_slug=economy&active=true&closed=false',
    );
    expect(notices).toEqual([]);
  });

  it('reads page n with the cursor page n-1 gave (one request a page, as the grid scrolls)', async () => {
    serveEvents(120);
    const s = source();
    expect((await s.listEvents({ page: 1, limit: 50 })).map((e) => e.id).slice(0, 2)).toEqual(['1', '2']);
    const second = await s.listEvents({ page: 2, limit: 50 });
    expect(second.map((e) => e.id).slice(0, 2)).toEqual(['51', '52']);
    const third = await s.listEvents({ page: 3, limit: 50 });
    expect(third.map((e) => e.id)).toEqual(Array.from({ length: 20 }, (_, i) => String(101 + i)));
    const asked = cursorsAsked(gamma.to('/events/keyset'));
    expect(asked).toHaveLength(3);
    expect(asked[0]).toBeNull();
    expect(Buffer.from(asked[1]!, 'base64url').toString()).toBe('row:50');
    expect(Buffer.from(asked[2]!, 'base64url').toString()).toBe('row:100');
  });

  it('reaches an offset never read by walking pages of 100 from the start, and refuses one too far to walk', async () => {
    serveEvents(400);
    const s = source();
    const rows = await s.listEvents({ offset: 230, limit: 5 });
    expect(rows.map((e) => e.id)).toEqual(['231', '232', '233', '234', '235']);
    expect(gamma.to('/events/keyset').map((r) => r.query.get('limit'))).toEqual(['100', '100', '30', '5']);

    const far = await failure(s.listEvents({ offset: 5_000, limit: 5 }));
    expect(far.code).toBe('ERR_INVALID_PARAM');
    expect(far.detail).toContain('continue with the cursor');
  });

  it('reads a limit above 100 as several pages (Gamma caps a page at 100)', async () => {
    serveEvents(250);
    const page = await source().listEventsPage({ limit: 150 });
    expect(page.events).toHaveLength(150);
    expect(gamma.to('/events/keyset').map((r) => r.query.get('limit'))).toEqual(['100', '50']);
    expect(Buffer.from(page.nextCursor!, 'base64url').toString()).toBe('row:150');
  });

  it('continues from a cursor and ends without one on the last page', async () => {
    serveEvents(7);
    const s = source();
    const first = await s.listEventsPage({ limit: 5 });
    expect(first.events.map((e) => e.id)).toEqual(['1', '2', '3', '4', '5']);
    const last = await s.listEventsPage({ limit: 5 }, first.nextCursor);
    expect(last.events.map((e) => e.id)).toEqual(['6', '7']);
    expect(last.nextCursor).toBeUndefined();
    expect(gamma.last().query.get('after_cursor')).toBe(first.nextCursor);
    expect(gamma.last().query.has('cursor')).toBe(false);
  });

  it('lists slugs through the keyset list too', async () => {
    serveEvents(12);
    expect(await source().listSlugs({ page: 2, limit: 5 })).toEqual([
      'event-6',
      'event-7',
      'event-8',
      'event-9',
      'event-10',
    ]);
    expect(gamma.requests.every((r) => r.path === '/events/keyset')).toBe(true);
  });

  it('rejects a keyset page of the wrong shape naming the field, and a cursor beyond bounds', async () => {
    gamma.json('GET', '/events/keyset', [event(1)]);
    expect((await failure(source().listEvents())).detail).toContain('(root)');
    gamma.json('GET', '/events/keyset', { events: [event(1)], next_cursor: 'x'.repeat(5_000) });
    expect((await failure(source().listEvents())).detail).toContain('next_cursor');
  });
});

describe('markets listed by keyset', () => {
  it('asks /markets/keyset, drops a null market as Polymarket does, and follows next_cursor', async () => {
    gamma.on('GET', '/markets/keyset', (request, reply) =>
      request.query.get('after_cursor') === 'p2'
        ? reply.json(200, { markets: [gammaMarket({ id: '3' })] })
        : reply.json(200, { markets: [gammaMarket({ id: '1' }), null, gammaMarket({ id: '2' })], next_cursor: 'p2' }),
    );
    const s = source();
    const first = await s.listMarketsPage({ limit: 2 });
    expect(first.markets.map((m) => m.id)).toEqual(['1', '2']);
    expect(first.nextCursor).toBe('p2');
    const second = await s.listMarketsPage({ limit: 2 }, first.nextCursor);
    expect(second.markets.map((m) => m.id)).toEqual(['3']);
    expect(second.nextCursor).toBeUndefined();
    // A page short of its limit only because a null was dropped is topped up from the next page.
    const topped = await s.listMarketsPage({ limit: 3 });
    expect(topped.markets.map((m) => m.id)).toEqual(['1', '2', '3']);
    expect(gamma.to('/markets/keyset')[0]!.rawQuery).toBe(
      'limit=2&order=volume24hr&ascending=false&active=true&closed=false',
    );
  });
});

describe('the deprecated offset lists, only when a keyset list answers 404', () => {
  it('falls back to /events with offsets, and says so once', async () => {
    gamma.json('GET', '/events', [event(11), event(12)]);
    const notices: ApiNotice[] = [];
    const s = source(notices);
    expect((await s.listEvents({ page: 3, limit: 10, order: 'volume' })).map((e) => e.id)).toEqual(['11', '12']);
    expect(gamma.to('/events').map((r) => r.rawQuery)).toEqual([
      'limit=10&offset=20&order=volume&ascending=false&active=true&closed=false',
    ]);
    await s.listEvents({ page: 4, limit: 10 });
    // The keyset list is asked once: after its 404 the source stays on the offset list.
    expect(gamma.to('/events/keyset')).toHaveLength(1);
    expect(notices).toEqual([
      {
        kind: 'fallback',
        api: 'Gamma',
        endpoint: 'GET /events/keyset',
        message: 'Gamma has no /events/keyset (404): listing events through the deprecated /events with offsets.',
      },
    ]);
  });

  it('hands out offset cursors on the fallback, so a cursor continues the same way', async () => {
    gamma.on('GET', '/events', (request, reply) =>
      reply.json(200, Number(request.query.get('offset')) === 0 ? [event(1), event(2)] : [event(3)]),
    );
    const s = source();
    const first = await s.listEventsPage({ limit: 2 });
    expect(first.nextCursor).toBe('offset:2');
    const next = await s.listEventsPage({ limit: 2 }, first.nextCursor);
    expect(next.events.map((e) => e.id)).toEqual(['3']);
    expect(next.nextCursor).toBeUndefined();
    expect((await failure(s.listEventsPage({ limit: 2 }, 'opaque-keyset-cursor'))).code).toBe('ERR_INVALID_PARAM');
  });

  it('falls back to /markets for markets, separately from events', async () => {
    serveEvents(1);
    gamma.json('GET', '/markets', [gammaMarket()]);
    const notices: ApiNotice[] = [];
    const s = source(notices);
    await s.listEvents();
    expect((await s.listMarketsPage({ limit: 5 })).markets).toHaveLength(1);
    expect(notices.map((n) => n.endpoint)).toEqual(['GET /markets/keyset']);
  });
});

describe('the deprecation watch', () => {
  it('notices an answer carrying Deprecation, Sunset and Warning 299, once per endpoint', async () => {
    gamma.on('GET', '/events', (_request, reply) => reply.json(200, [event(1)], DEPRECATED));
    const notices: ApiNotice[] = [];
    const s = source(notices);
    await s.listEvents({ page: 1, limit: 1 });
    await s.listEvents({ page: 2, limit: 1 });
    const deprecated = notices.filter((n) => n.kind === 'deprecated');
    expect(deprecated).toEqual([
      {
        kind: 'deprecated',
        api: 'Gamma',
        endpoint: 'GET /events',
        message: 'Gamma GET /events is deprecated (sunset Fri, 01 May 2026 00:00:00 GMT): use /events/keyset.',
        deprecation: { deprecation: 'true', sunset: 'Fri, 01 May 2026 00:00:00 GMT', warning: 'use /events/keyset' },
      },
    ]);
  });

  it('notices any one of the three headers on any host, on a failed answer too', async () => {
    const notices: ApiNotice[] = [];
    data.on('GET', '/value', (_request, reply) =>
      reply.json(200, [{ user: '0x1', value: 1 }], { Sunset: 'Sat, 01 Aug 2026 00:00:00 GMT' }),
    );
    clob.on('GET', '/book', (_request, reply) =>
      reply.json(404, { error: 'No orderbook exists' }, { Warning: '299 clob "book moved"' }),
    );
    gamma.on('GET', '/markets/1', (_request, reply) => reply.json(200, gammaMarket(), { Deprecation: '@1767225600' }));
    const s = source(notices);
    await s.data.getValue('0x0000000000000000000000000000000000000001').catch(() => undefined);
    await s.clob.getBook('1').catch(() => undefined);
    await s.getMarket('polymarket', '1');
    expect(notices.map((n) => n.message)).toEqual([
      'Data API GET /value is deprecated (sunset Sat, 01 Aug 2026 00:00:00 GMT).',
      'CLOB GET /book is deprecated: book moved.',
      'Gamma GET /markets/{id} is deprecated.',
    ]);
  });

  it('does not notice an ordinary answer, nor a Warning other than 299', async () => {
    const notices: ApiNotice[] = [];
    gamma.on('GET', '/markets/1', (_request, reply) =>
      reply.json(200, gammaMarket(), { Warning: '199 - "miscellaneous"' }),
    );
    await source(notices).getMarket('polymarket', '1');
    expect(notices).toEqual([]);
  });
});

describe('Poly-RateLimit headers', () => {
  it('reads remaining, reset, tier and warning from every answer', async () => {
    const resetAt = Math.floor(Date.now() / 1000) + 30;
    gamma.on('GET', '/markets/1', (_request, reply) =>
      reply.json(200, gammaMarket(), {
        'Poly-RateLimit-Remaining': '41',
        'Poly-RateLimit-Reset': String(resetAt),
        'Poly-RateLimit-Tier': 'silver',
        'Poly-RateLimit-Warning': 'true',
      }),
    );
    const readings: RateLimitReading[] = [];
    await source([], readings).getMarket('polymarket', '1');
    expect(readings).toEqual([
      {
        api: 'Gamma',
        endpoint: 'GET /markets/{id}',
        status: 200,
        remaining: 41,
        resetAt: resetAt * 1000,
        tier: 'silver',
        warning: true,
      },
    ]);
  });

  it('holds the host once an answer says the budget is spent, until its reset, and no longer than 10 s', async () => {
    let clock = 1_800_000_000_000;
    const limiter = new HostLimiter({ general: { limit: 1000, windowMs: 10_000 } }, () => clock);
    let calls = 0;
    gamma.on('GET', '/markets/1', (_request, reply) =>
      reply.json(
        200,
        gammaMarket(),
        ++calls === 1 ? { 'Poly-RateLimit-Remaining': '0', 'Poly-RateLimit-Reset': String(clock / 1000 + 5) } : {},
      ),
    );
    const client = new GammaClient({ baseUrl: gamma.url, logger, limiter });
    await client.getMarket('1');
    expect(limiter.heldFor()).toBe(5_000);
    const second = client.getMarket('1');
    // The budget's clock stands still: however long real time runs, the next request waits for the reset.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(gamma.requests).toHaveLength(1);
    clock += 5_000;
    await second;
    expect(gamma.requests).toHaveLength(2);

    limiter.holdUntil(clock + 3_600_000, 10_000);
    expect(limiter.heldFor()).toBe(10_000);
  });

  it('waits a 429 that names no Retry-After until its Poly-RateLimit-Reset', async () => {
    let calls = 0;
    const reset = Math.floor(Date.now() / 1000) + 6;
    gamma.on('GET', '/markets/1', (_request, reply) =>
      ++calls === 1
        ? reply.json(429, { error: 'slow down' }, { 'Poly-RateLimit-Reset': String(reset) })
        : reply.json(200, gammaMarket()),
    );
    const waits: number[] = [];
    const client = new GammaClient({
      baseUrl: gamma.url,
      logger,
      sleep: async (ms) => void waits.push(ms),
      limiter: new HostLimiter({}),
    });
    await client.getMarket('1');
    expect(waits).toHaveLength(1);
    // The wait is the reset's distance from when the answer was judged: more than the 1 s default, at most 6 s.
    expect(waits[0]).toBeGreaterThan(1_000);
    expect(waits[0]).toBeLessThanOrEqual(6_000);
  });

  it('does not hold the host while the budget has room', async () => {
    const limiter = new HostLimiter({ general: { limit: 1000, windowMs: 10_000 } });
    gamma.on('GET', '/markets/1', (_request, reply) =>
      reply.json(200, gammaMarket(), {
        'Poly-RateLimit-Remaining': '7',
        'Poly-RateLimit-Reset': String(Math.floor(Date.now() / 1000) + 5),
      }),
    );
    await new GammaClient({ baseUrl: gamma.url, logger, limiter }).getMarket('1');
    expect(limiter.heldFor()).toBe(0);
  });
});

describe('425: the matching engine restarting', () => {
  it('waits and retries a read, saying why, then answers', async () => {
    let calls = 0;
    gamma.on('GET', '/markets/1', (_request, reply) =>
      ++calls === 1 ? reply.json(425, { error: 'too early' }) : reply.json(200, gammaMarket()),
    );
    const waits: number[] = [];
    const notices: string[] = [];
    const client = new GammaClient({
      baseUrl: gamma.url,
      logger,
      sleep: async (ms) => void waits.push(ms),
      onRetry: (n) => notices.push(retryNoticeText(n)),
    });
    expect((await client.getMarket('1')).id).toBe('506729');
    expect(waits).toEqual([3_000]);
    expect(notices).toEqual(["Gamma's matching engine is restarting, retrying in 3 s"]);
  });

  it('honours a Retry-After given as an HTTP date, and gives up after two retries with a sentence', async () => {
    gamma.on('GET', '/markets/1', (_request, reply) =>
      reply.json(425, {}, { 'Retry-After': new Date(Date.now() + 5_000).toUTCString() }),
    );
    const waits: number[] = [];
    const client = new GammaClient({ baseUrl: gamma.url, logger, sleep: async (ms) => void waits.push(ms) });
    const error = await failure(client.getMarket('1'));
    expect(waits).toHaveLength(2);
    for (const wait of waits) expect(wait).toBeGreaterThan(3_000);
    expect(gamma.requests).toHaveLength(3);
    expect(error.code).toBe('ERR_SERVER');
    expect(error.statusCode).toBe(425);
    expect(error.detail).toMatch(
      /^Gamma's matching engine is restarting \(425\): the request was not processed; try again in [45] s\.$/,
    );
  });
});
