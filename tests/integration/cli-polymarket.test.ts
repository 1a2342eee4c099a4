// `pmdesk` on Polymarket direct: the real CLI process against loopback servers answering Gamma, Data API and
// CLOB shapes as docs/protocol.md#endpoints documents them (JSON-string `outcomes`, `outcomePrices`, `clobTokenIds`,
// numbers as strings), and a real-time feed. Every command prints the market model's types, the same shape
// as on the aggregator. These run through the real PolymarketSource (packages/toolkit/src/polymarket/source.ts).
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { WsFixture } from '../helpers/ws-fixture';
import { event as aggregatorEvent } from '../helpers/aggregator-fixtures';
import { runPmdesk, type PmdeskOptions, type PmdeskRun } from '../helpers/pmdesk-process';

const YES = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const NO = '52114319501245915516055106046884209969926127482827954674443846427813813222426';
const CONDITION = `0x${'c0'.repeat(32)}`;
const WALLET = '0x00000000000000000000000000000000000000a1';
const TX = `0x${'7e'.repeat(32)}`;

const gammaMarket = {
  id: '506729',
  question: 'Will Google have the top AI model on May 31?',
  conditionId: CONDITION,
  questionID: `0x${'0d'.repeat(32)}`,
  slug: 'will-google-have-the-top-ai-model-on-may-31',
  description: 'Resolves YES if…',
  image: 'https://example.test/g.png',
  icon: 'https://example.test/g-icon.png',
  outcomes: '["Yes","No"]',
  outcomePrices: '["0.53","0.47"]',
  clobTokenIds: JSON.stringify([YES, NO]),
  active: true,
  closed: false,
  archived: false,
  acceptingOrders: true,
  enableOrderBook: true,
  orderPriceMinTickSize: 0.01,
  orderMinSize: 5,
  negRisk: false,
  bestBid: 0.52,
  bestAsk: 0.54,
  spread: 0.02,
  lastTradePrice: 0.53,
  oneDayPriceChange: 0.01,
  volume: '120345.5',
  volumeNum: 120345.5,
  volume24hr: 2040.25,
  liquidity: '8000',
  liquidityNum: 8000,
  startDate: '2025-04-01T00:00:00Z',
  endDate: '2025-05-31T12:00:00Z',
  endDateIso: '2025-05-31',
  groupItemTitle: 'Google',
  groupItemThreshold: '0',
  version: 'v1',
  feesEnabled: false,
  // A field PM Desk does not read: tolerated.
  umaResolutionStatuses: '[]',
};

const gammaEvent = {
  id: '12483',
  ticker: 'which-company-has-best-ai-model-end-of-may',
  slug: 'which-company-has-best-ai-model-end-of-may',
  title: 'Which company has best AI model end of May?',
  description: 'Grouped markets',
  startDate: '2025-04-01T00:00:00Z',
  creationDate: '2025-03-31T18:00:00Z',
  endDate: '2025-05-31T12:00:00Z',
  image: 'https://example.test/e.png',
  icon: 'https://example.test/e-icon.png',
  active: true,
  closed: false,
  archived: false,
  liquidity: 153201.4,
  volume: 2831002.1,
  volume24hr: 40210.5,
  negRisk: true,
  negRiskMarketID: `0x${'ee'.repeat(32)}`,
  commentCount: 1,
  tags: [{ id: '2', label: 'Politics', slug: 'politics' }],
  markets: [gammaMarket],
};

const gammaComment = {
  id: '901',
  body: 'Gemini looks strong.',
  parentEntityType: 'Event',
  parentEntityID: 12483,
  parentCommentID: '',
  userAddress: WALLET,
  createdAt: '2025-05-01T10:00:00Z',
  updatedAt: '2025-05-01T10:00:00Z',
  reportCount: 0,
  reactionCount: 3,
  profile: {
    name: 'alice',
    pseudonym: 'Bright-Owl',
    displayUsernamePublic: true,
    bio: '',
    proxyWallet: WALLET,
    baseAddress: WALLET,
    profileImage: '',
    positions: [],
  },
};

/** A Data API trade row; an activity row is the same plus `type` and `usdcSize`. */
const dataTrade = {
  proxyWallet: WALLET,
  side: 'BUY',
  asset: YES,
  conditionId: CONDITION,
  size: 40,
  price: 0.53,
  timestamp: 1747400000,
  title: gammaMarket.question,
  slug: gammaMarket.slug,
  icon: '',
  eventSlug: gammaEvent.slug,
  outcome: 'Yes',
  outcomeIndex: 0,
  name: 'alice',
  pseudonym: 'Bright-Owl',
  bio: '',
  profileImage: '',
  profileImageOptimized: '',
  transactionHash: TX,
};
const dataActivity = { ...dataTrade, type: 'TRADE', usdcSize: 21.2 };
const dataRedeem = {
  ...dataTrade,
  type: 'REDEEM',
  side: '',
  price: 0,
  size: 10,
  usdcSize: 10,
  timestamp: 1747500000,
  transactionHash: `0x${'8f'.repeat(32)}`,
};

let gamma: FixtureServer;
let data: FixtureServer;
let clob: FixtureServer;
let aggregator: FixtureServer;
let rtds: WsFixture;

const json = (run: PmdeskRun) => JSON.parse(run.stdout) as unknown;
/** The error a run printed: stderr's last line (notices, such as a fallback, may come before it). */
const errorOf = (run: PmdeskRun) =>
  (JSON.parse(run.stderr.trim().split('\n').at(-1)!) as { error: Record<string, unknown> }).error;

/** pmdesk with Polymarket direct's hosts named by flag and no source named: no aggregator URL means Polymarket direct. */
function pmdesk(args: string[], options: PmdeskOptions = {}): Promise<PmdeskRun> {
  return runPmdesk(['--gamma-url', gamma.url, '--data-url', data.url, '--clob-url', clob.url, ...args], options);
}

beforeAll(async () => {
  [gamma, data, clob, aggregator] = await Promise.all([
    startFixtureServer(),
    startFixtureServer(),
    startFixtureServer(),
    startFixtureServer(),
  ]);
  rtds = await WsFixture.start();
});
afterAll(async () => {
  await Promise.all([gamma.stop(), data.stop(), clob.stop(), aggregator.stop(), rtds.stop()]);
});
beforeEach(() => {
  for (const server of [gamma, data, clob, aggregator]) server.reset();
});

describe('events and markets', () => {
  it("events list asks Gamma's keyset list for open events by tag, order and limit, and prints the model", async () => {
    gamma.json('GET', '/events/keyset', { events: [gammaEvent] });
    const run = await pmdesk(['events', 'list', '--tag', 'politics', '--order', 'volume', '--limit', '5', '--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const [request] = gamma.to('/events/keyset');
    expect(request!.query.get('tag_slug')).toBe('politics');
    expect(request!.query.get('order')).toBe('volume');
    expect(request!.query.get('limit')).toBe('5');
    expect(request!.query.has('offset')).toBe(false);
    expect(request!.query.get('closed')).toBe('false');
    expect(gamma.to('/events')).toHaveLength(0);
    const [listed] = json(run) as Record<string, unknown>[];
    expect(listed).toMatchObject({
      id: '12483',
      protocol: 'polymarket',
      slug: gammaEvent.slug,
      title: gammaEvent.title,
      volume: 2831002.1,
      neg_risk: true,
    });
    const [market] = (listed as { markets: Record<string, unknown>[] }).markets;
    expect(market).toMatchObject({
      id: '506729',
      conditionId: CONDITION,
      minimum_tick_size: '0.01',
      minimum_order_size: 5,
      accepting_orders: true,
      position_tokens: [
        { token_id: YES, name: 'Yes', price: '0.53' },
        { token_id: NO, name: 'No', price: '0.47' },
      ],
    });
    expect(aggregator.requests).toHaveLength(0);
  });

  it("events list without flags sorts by 24 h volume; its table reads like the aggregator's", async () => {
    gamma.json('GET', '/events/keyset', { events: [gammaEvent] });
    const run = await pmdesk(['events', 'list']);
    expect(run.code).toBe(0);
    expect(gamma.last().query.get('order')).toBe('volume24hr');
    expect(run.stdout.split('\n')[0]).toMatch(/^id\s+title\s+slug\s+markets\s+volume$/);
    // The slug is cut at 40 characters, as every table cuts a long cell.
    expect(run.stdout).toMatch(
      /^12483\s+Which company has best AI model end of May\?\s+which-company-has-best-ai-model-end-of-…\s+1\s+2831002\.1$/m,
    );
  });

  it('events list --cursor continues the keyset list and prints the next cursor (in --json too)', async () => {
    gamma.on('GET', '/events/keyset', (request, reply) =>
      request.query.get('after_cursor') === 'MjA='
        ? reply.json(200, { events: [{ ...gammaEvent, id: '3' }] })
        : reply.json(200, {
            events: [
              { ...gammaEvent, id: '1' },
              { ...gammaEvent, id: '2' },
            ],
            next_cursor: 'MjA=',
          }),
    );
    const first = await pmdesk(['events', 'list', '--limit', '2', '--cursor', 'start', '--json']);
    expect(first.code).toBe(0);
    const page = json(first) as { events: { id: string }[]; nextCursor?: string };
    expect(page.events.map((e) => e.id)).toEqual(['1', '2']);
    expect(page.nextCursor).toBe('MjA=');
    expect(gamma.last().query.has('after_cursor')).toBe(false);

    const last = await pmdesk(['events', 'list', '--limit', '2', '--cursor', 'MjA=', '--json']);
    expect(gamma.last().query.get('after_cursor')).toBe('MjA=');
    expect(json(last)).toEqual({ events: [expect.objectContaining({ id: '3' })] });

    const text = await pmdesk(['events', 'list', '--limit', '2', '--cursor', 'start']);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('next: --cursor MjA=');
    const both = await pmdesk(['events', 'list', '--cursor', 'start', '--offset', '5']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Give --cursor or --offset, not both');
  });

  it('events list falls back to the deprecated offset list on a 404, and says so once on stderr, never on stdout', async () => {
    gamma.on('GET', '/events', (_request, reply) =>
      reply.json(200, [gammaEvent], {
        Deprecation: 'true',
        Sunset: 'Fri, 01 May 2026 00:00:00 GMT',
        Warning: '299 - "use /events/keyset"',
      }),
    );
    const run = await pmdesk(['events', 'list', '--limit', '5', '--offset', '10', '--json']);
    expect(run.code).toBe(0);
    expect(gamma.to('/events')[0]!.rawQuery).toBe(
      'limit=5&offset=10&order=volume24hr&ascending=false&active=true&closed=false',
    );
    expect((json(run) as { id: string }[]).map((e) => e.id)).toEqual(['12483']);
    expect(
      run.stderr
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([
      {
        notice: {
          code: 'FALLBACK',
          api: 'Gamma',
          endpoint: 'GET /events/keyset',
          message: 'Gamma has no /events/keyset (404): listing events through the deprecated /events with offsets.',
        },
      },
      {
        notice: {
          code: 'DEPRECATED',
          api: 'Gamma',
          endpoint: 'GET /events',
          message: 'Gamma GET /events is deprecated (sunset Fri, 01 May 2026 00:00:00 GMT): use /events/keyset.',
        },
      },
    ]);

    const text = await pmdesk(['events', 'list', '--limit', '150']);
    expect(text.code).toBe(0);
    expect(text.stdout).not.toContain('deprecated');
    // Two pages of the deprecated list, one line for it.
    expect(text.stderr).toBe(
      'pmdesk: Gamma has no /events/keyset (404): listing events through the deprecated /events with offsets.\n' +
        'pmdesk: Gamma GET /events is deprecated (sunset Fri, 01 May 2026 00:00:00 GMT): use /events/keyset.\n',
    );
  });

  it('a deprecated Data API or CLOB endpoint is said once per run on stderr', async () => {
    gamma.json('GET', '/markets/506729', gammaMarket);
    clob.on('GET', '/book', (request, reply) =>
      reply.json(
        200,
        { market: CONDITION, asset_id: request.query.get('token_id'), bids: [], asks: [], hash: 'h', timestamp: '1' },
        { Warning: '299 clob "use POST /books"' },
      ),
    );
    const run = await pmdesk(['markets', 'book', '506729']);
    expect(run.code).toBe(0);
    expect(clob.to('/book')).toHaveLength(2);
    expect(run.stderr).toBe('pmdesk: CLOB GET /book is deprecated: use POST /books.\n');
  });

  it("--verbose shows each answer's Poly-RateLimit headers on stderr", async () => {
    gamma.on('GET', '/markets/506729', (_request, reply) =>
      reply.json(200, gammaMarket, {
        'Poly-RateLimit-Remaining': '41',
        'Poly-RateLimit-Tier': 'silver',
        'Poly-RateLimit-Warning': 'true',
      }),
    );
    const quiet = await pmdesk(['markets', 'get', '506729', '--json']);
    expect(quiet.stderr).toBe('');
    const verbose = await pmdesk(['--verbose', 'markets', 'get', '506729', '--json']);
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toContain(
      'pmdesk: Gamma GET /markets/{id}: rate limit 41 left, tier silver (warning mode)\n',
    );
    expect(JSON.parse(verbose.stdout)).toMatchObject({ id: '506729' });
  });

  it('a 425 is waited out with a sentence on stderr (the matching engine restarting), then the read answers', async () => {
    let calls = 0;
    gamma.on('GET', '/markets/506729', (_request, reply) =>
      ++calls === 1 ? reply.json(425, { error: 'too early' }, { 'Retry-After': '1' }) : reply.json(200, gammaMarket),
    );
    const text = await pmdesk(['markets', 'get', '506729']);
    expect(text.code).toBe(0);
    expect(text.stderr).toBe("pmdesk: Gamma's matching engine is restarting, retrying in 1 s\n");
    calls = 0;
    const asJson = await pmdesk(['markets', 'get', '506729', '--json']);
    expect(JSON.parse(asJson.stderr)).toEqual({
      notice: { code: 'ENGINE_RESTARTING', waitMs: 1000, methodName: 'getMarket' },
    });
    expect(JSON.parse(asJson.stdout)).toMatchObject({ id: '506729' });
  });

  it('events get, markets get and events comments need no --protocol on Polymarket direct', async () => {
    gamma.json('GET', '/events/12483', gammaEvent);
    gamma.json('GET', '/markets/506729', gammaMarket);
    gamma.json('GET', '/comments', [gammaComment]);
    const one = await pmdesk(['events', 'get', '12483', '--json']);
    expect(one.code).toBe(0);
    expect((json(one) as { title: string }).title).toBe(gammaEvent.title);
    const market = await pmdesk(['markets', 'get', '506729', '--protocol', 'polymarket', '--json']);
    expect((json(market) as { question: string; version: string }).question).toBe(gammaMarket.question);
    const comments = await pmdesk(['events', 'comments', '12483', '--json']);
    expect(json(comments)).toEqual([
      expect.objectContaining({ id: '901', content: 'Gemini looks strong.', name: 'alice', baseAddress: WALLET }),
    ]);
    const commentRequest = gamma.to('/comments')[0]!;
    expect(commentRequest.query.get('parent_entity_type')).toBe('Event');
    expect(commentRequest.query.get('parent_entity_id')).toBe('12483');
  });

  it('markets get states the fee from the schedule, "fee unknown" without one, never takerBaseFee / 10 000', async () => {
    gamma.json('GET', '/markets/1', {
      ...gammaMarket,
      id: '1',
      feesEnabled: true,
      takerBaseFee: 1000,
      feeSchedule: { rate: 0.07, exponent: 1, takerOnly: true },
    });
    gamma.json('GET', '/markets/2', { ...gammaMarket, id: '2', feesEnabled: true, takerBaseFee: 1000 });
    expect((await pmdesk(['markets', 'get', '1'])).stdout).toMatch(/^fee\s+taker fee 7 %·p\(1−p\)$/m);
    expect((await pmdesk(['markets', 'get', '2'])).stdout).toMatch(/^fee\s+fee unknown$/m);
    expect((json(await pmdesk(['markets', 'get', '2', '--json'])) as { fees?: unknown }).fees).toBeUndefined();
  });

  it("events comments pages within Gamma's 200-offset cap and says how many were shown", async () => {
    let cap = 200;
    gamma.on('GET', '/comments', (request, reply) => {
      const offset = Number(request.query.get('offset'));
      if (offset > cap) return reply.json(422, { error: 'offset must be at most 200' });
      const limit = Number(request.query.get('limit'));
      return reply.json(
        200,
        Array.from({ length: limit }, (_, i) => ({ ...gammaComment, id: String(offset + i + 1) })),
      );
    });
    const text = await pmdesk(['events', 'comments', '12483']);
    expect(text.code).toBe(0);
    expect(gamma.to('/comments').map((r) => r.query.get('offset'))).toEqual(['0', '100', '200']);
    expect(text.stdout).toMatch(/\n300 comments shown, the newest: Polymarket lists no more by page\n$/);
    const run = await pmdesk(['events', 'comments', '12483', '--json']);
    expect((json(run) as unknown[]).length).toBe(300);
    expect(run.stderr).toContain('300 comments shown');
    // A cap lower than known: the 422 ends the paging, the comments read are shown.
    gamma.reset();
    cap = 0;
    gamma.on('GET', '/comments', (request, reply) =>
      Number(request.query.get('offset')) > cap
        ? reply.json(422, { error: 'offset too large' })
        : reply.json(
            200,
            Array.from({ length: 100 }, (_, i) => ({ ...gammaComment, id: String(i + 1) })),
          ),
    );
    const lower = await pmdesk(['events', 'comments', '12483']);
    expect(lower.code).toBe(0);
    expect(lower.stdout).toMatch(/\n100 comments shown\n$/);
  });

  it("markets get and events get say a market's state in words, not Gamma's `active` (issue 27)", async () => {
    const resolved = {
      ...gammaMarket,
      active: true,
      closed: true,
      acceptingOrders: false,
      umaResolutionStatus: 'resolved',
      outcomePrices: '["1","0"]',
    };
    gamma.json('GET', '/markets/506729', resolved);
    gamma.json('GET', '/events/12483', { ...gammaEvent, markets: [resolved] });
    const market = await pmdesk(['markets', 'get', '506729']);
    expect(market.stdout).toMatch(/^state\s+Resolved: Yes$/m);
    expect(market.stdout).not.toMatch(/^active/m);
    expect((await pmdesk(['events', 'get', '12483'])).stdout).toMatch(/Resolved: Yes/);
    gamma.json('GET', '/markets/506729', {
      ...resolved,
      umaResolutionStatus: 'proposed',
      outcomePrices: '["0.999","0.001"]',
    });
    expect((await pmdesk(['markets', 'get', '506729'])).stdout).toMatch(/^state\s+Closed — awaiting resolution$/m);
  });

  it('another protocol is refused by Polymarket direct (exit 2, nothing sent)', async () => {
    const run = await pmdesk(['markets', 'get', '506729', '--protocol', 'limitless', '--json']);
    expect(run.code).toBe(2);
    expect(errorOf(run)).toMatchObject({ code: 'ERR_INVALID_PARAM', statusCode: null });
    expect(gamma.requests).toHaveLength(0);
  });

  it('markets book reads one CLOB book per outcome token, numbers parsed', async () => {
    gamma.json('GET', '/markets/506729', gammaMarket);
    clob.on('GET', '/book', (request, reply) =>
      reply.json(200, {
        market: CONDITION,
        asset_id: request.query.get('token_id'),
        timestamp: '1747400000000',
        hash: `h-${request.query.get('token_id')!.slice(0, 4)}`,
        bids: [
          { price: '0.51', size: '300' },
          { price: '0.52', size: '1200' },
        ],
        asks: [
          { price: '0.55', size: '100' },
          { price: '0.54', size: '800' },
        ],
        min_order_size: '5',
        neg_risk: false,
        tick_size: '0.01',
      }),
    );
    const run = await pmdesk(['markets', 'book', '506729', '--json']);
    expect(run.code).toBe(0);
    const books = json(run) as Record<string, { asset_id: string; bids: { price: number; size: number }[] }>;
    expect(Object.keys(books).sort()).toEqual([NO, YES].sort());
    expect(books[YES]!.bids).toContainEqual({ price: 0.52, size: 1200 });
    expect(
      clob
        .to('/book')
        .map((r) => r.query.get('token_id'))
        .sort(),
    ).toEqual([NO, YES].sort());
    const text = await pmdesk(['markets', 'book', '506729']);
    expect(text.stdout).toContain(`token ${YES}`);
    expect(text.stdout).toMatch(/^\s*1200\s+0\.52\s+0\.54\s+800$/m);
  });

  it('markets book shows the side that answers and says why the other is missing when its book is a 404', async () => {
    gamma.json('GET', '/markets/506729', { ...gammaMarket, closed: true, acceptingOrders: false });
    clob.on('GET', '/book', (request, reply) =>
      request.query.get('token_id') === NO
        ? reply.json(404, { error: 'No orderbook exists for the requested token id' })
        : reply.json(200, {
            market: CONDITION,
            asset_id: YES,
            timestamp: '1747400000000',
            hash: 'h',
            bids: [{ price: '0.99', size: '50' }],
            asks: [],
          }),
    );
    const text = await pmdesk(['markets', 'book', '506729']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`token ${YES}`);
    expect(text.stdout).toMatch(/^\s*50\s+0\.99\s*$/m);
    expect(text.stdout).toContain(
      `no order book for No (token ${NO}): the market is closed and the exchange keeps no book for it`,
    );
    const run = await pmdesk(['markets', 'book', '506729', '--json']);
    expect(run.code).toBe(0);
    expect(Object.keys(json(run) as object)).toEqual([YES]);
    expect(run.stderr).toContain(`no order book for No (token ${NO})`);
  });

  it('an unknown event is ERR_NOT_FOUND, exit 1', async () => {
    gamma.json('GET', '/events/999', { error: 'not found' }, 404);
    const run = await pmdesk(['events', 'get', '999', '--json']);
    expect(run.code).toBe(1);
    expect(errorOf(run)).toMatchObject({ code: 'ERR_NOT_FOUND' });
  });

  it('slugs events reads the event with that slug', async () => {
    gamma.json('GET', `/events/slug/${gammaEvent.slug}`, gammaEvent);
    const run = await pmdesk(['slugs', 'events', gammaEvent.slug, '--json']);
    expect(run.code).toBe(0);
    expect((json(run) as { id: string }[]).map((e) => e.id)).toEqual(['12483']);
  });
});

describe('search', () => {
  it("asks Gamma's public search with the words joined, best match first", async () => {
    gamma.json('GET', '/public-search', {
      events: [gammaEvent, { ...gammaEvent, id: '777', title: 'Second', slug: 'second' }],
      tags: [],
      profiles: [],
      pagination: { hasMore: false, totalResults: 2 },
    });
    const run = await pmdesk(['search', 'top', 'AI', 'model', '--json']);
    expect(run.code).toBe(0);
    expect(gamma.to('/public-search')[0]!.query.get('q')).toBe('top AI model');
    const matches = json(run) as { event: { id: string }; cosineSimilarity: number }[];
    expect(matches.map((m) => m.event.id)).toEqual(['12483', '777']);
    expect(matches[0]!.cosineSimilarity).toBe(1);
    expect(matches[1]!.cosineSimilarity).toBeLessThan(1);
    const text = await pmdesk(['search', 'top AI model']);
    expect(text.stdout).toMatch(/^\s*1\.000\s+12483\s+polymarket\s+Which company has best AI model end of May\?$/m);
  });
});

describe('traders', () => {
  it('traders activity reads the Data API with --limit/--offset and prints TraderActivity rows', async () => {
    data.json('GET', '/activity', [dataRedeem, dataActivity]);
    const run = await pmdesk(['traders', 'activity', WALLET, '--limit', '2', '--offset', '4', '--json']);
    expect(run.code).toBe(0);
    const request = data.to('/activity')[0]!;
    expect(request.query.get('user')).toBe(WALLET);
    expect(request.query.get('limit')).toBe('2');
    expect(request.query.get('offset')).toBe('4');
    const [redeem, trade] = json(run) as Record<string, unknown>[];
    expect(trade).toEqual({
      type: 'TRADE',
      timestamp: 1747400000,
      conditionId: CONDITION,
      tokenId: YES,
      title: gammaMarket.question,
      slug: gammaMarket.slug,
      outcome: 'Yes',
      outcomeIndex: 0,
      side: 'BUY',
      size: 40,
      price: 0.53,
      usdcSize: 21.2,
      transactionHash: TX,
    });
    // A redeem has no side and no price: null, never a made-up one.
    expect(redeem).toMatchObject({ type: 'REDEEM', side: null, price: null, usdcSize: 10 });
    const text = await pmdesk(['traders', 'activity', WALLET]);
    expect(text.stdout.split('\n')[0]).toMatch(/^time \(UTC\)\s+type\s+side\s+outcome\s+size\s+price\s+usdc\s+market$/);
    expect(text.stdout).toMatch(/^2025-05-16T12:53:20Z\s+TRADE\s+BUY\s+Yes\s+40\s+0\.53\s+21\.2\s+Will Google/m);
  });

  it('a Data API without its v2 feeds: the v1 path is read, and that is said once on stderr', async () => {
    data.json('GET', '/trades', [dataTrade]);
    const run = await pmdesk(['traders', 'trades', WALLET, '--limit', '50']);
    expect(run.code).toBe(0);
    expect(data.requests.map((r) => r.path)).toEqual(['/v2/trades', '/trades']);
    expect(run.stderr).toBe(
      'pmdesk: The Data API does not serve /v2/trades here (404); reading /trades with offset pages instead.\n',
    );
  });

  it('traders trades reads the Data API trades of that wallet and prints MarketTrade rows', async () => {
    data.json('GET', '/trades', [dataTrade]);
    const run = await pmdesk(['traders', 'trades', WALLET, '--limit', '50', '--json']);
    expect(run.code).toBe(0);
    const request = data.to('/trades')[0]!;
    expect(request.query.get('user')).toBe(WALLET);
    expect(request.query.get('limit')).toBe('50');
    expect(json(run)).toEqual([
      {
        trader: WALLET,
        traderName: 'alice',
        side: 'BUY',
        conditionId: CONDITION,
        tokenId: YES,
        title: gammaMarket.question,
        slug: gammaMarket.slug,
        outcome: 'Yes',
        outcomeIndex: 0,
        size: 40,
        price: 0.53,
        timestamp: 1747400000,
        transactionHash: TX,
      },
    ]);
    const text = await pmdesk(['traders', 'trades', WALLET]);
    expect(text.stdout).toMatch(/^2025-05-16T12:53:20Z\s+BUY\s+Yes\s+40\s+0\.53\s+Will Google/m);
  });

  it('a Data API refusal is exit 1 with its status (it was sent)', async () => {
    data.json('GET', '/activity', { error: 'invalid user' }, 400);
    const run = await pmdesk(['traders', 'activity', WALLET, '--offset', '40', '--json']);
    expect(run.code).toBe(1);
    expect(errorOf(run)).toMatchObject({ statusCode: 400 });
  });
});

describe('the same --json shape on both sources', () => {
  /** The model's required keys of an event, its first market and that market's first token, with their types. */
  const shape = (value: unknown) => {
    const e = value as Record<string, unknown> & {
      markets: (Record<string, unknown> & { position_tokens: Record<string, unknown>[] })[];
    };
    const m = e.markets[0]!;
    const types = (o: Record<string, unknown>, keys: string[]) =>
      Object.fromEntries(keys.map((k) => [k, Array.isArray(o[k]) ? 'array' : typeof o[k]]));
    return {
      event: types(e, [
        'id',
        'protocol',
        'region',
        'slug',
        'title',
        'description',
        'startDate',
        'creationDate',
        'endDate',
        'image',
        'icon',
        'markets',
      ]),
      market: types(m, [
        'id',
        'name',
        'question',
        'end',
        'description',
        'image',
        'icon',
        'position_tokens',
        'groupItemTitle',
      ]),
      token: types(m.position_tokens[0]!, ['token_id', 'name', 'price']),
    };
  };

  it('events get prints the market model whichever source answered', async () => {
    gamma.json('GET', '/events/12483', gammaEvent);
    aggregator.json('GET', '/v1/events/12483', aggregatorEvent);
    const direct = await pmdesk(['events', 'get', '12483', '--json']);
    const viaAggregator = await runPmdesk([
      '--api-url',
      aggregator.url,
      'events',
      'get',
      '12483',
      '--protocol',
      'polymarket',
      '--json',
    ]);
    expect(direct.code).toBe(0);
    expect(viaAggregator.code).toBe(0);
    expect(shape(json(direct))).toEqual(shape(json(viaAggregator)));
    expect(Object.values(shape(json(direct)).event).every((t) => t === 'string' || t === 'array')).toBe(true);
  });
});

describe('a network profile that names Polymarket direct', () => {
  it('sends reads to its Gamma and Data URLs, even with an aggregator URL in it', async () => {
    gamma.json('GET', '/events/12483', gammaEvent);
    const dir = await mkdtemp(join(tmpdir(), 'pmdesk-cli-polymarket-'));
    const file = join(dir, 'polygon-like.json');
    await writeFile(
      file,
      JSON.stringify({
        name: 'direct',
        chainId: 31338,
        source: 'polymarket',
        gammaUrl: gamma.url,
        dataUrl: data.url,
        clobUrl: clob.url,
        aggregatorUrl: aggregator.url,
        contracts: {},
      }),
    );
    const run = await runPmdesk(['--network', file, 'events', 'get', '12483', '--json']);
    expect(run.code).toBe(0);
    expect((json(run) as { id: string }).id).toBe('12483');
    expect(gamma.to('/events/12483')).toHaveLength(1);
    expect(aggregator.requests).toHaveLength(0);
  });
});

describe('fills watch on the real-time feed', () => {
  it("subscribes to the market's trades by slug and prints one JSON fill per trade", async () => {
    gamma.json('GET', '/markets/506729', gammaMarket);
    const connections = rtds.connections.length;
    const run = await pmdesk(
      ['--rtds-url', rtds.wsUrl.replace(/\/ws$/, ''), 'fills', 'watch', '506729', '--count', '1'],
      {
        during: () =>
          void (async () => {
            const connection = await rtds.connection(connections);
            await connection.receivedCount(1);
            connection.send({
              topic: 'activity',
              type: 'orders_matched',
              timestamp: 1747400000123,
              payload: { ...dataTrade, price: 0.53, size: 40 },
            });
          })(),
      },
    );
    expect(run.code).toBe(0);
    const subscribe = JSON.parse(rtds.connections[connections]!.received[0]!) as {
      action: string;
      subscriptions: { topic: string; type: string; filters: string }[];
    };
    expect(subscribe.action).toBe('subscribe');
    expect(subscribe.subscriptions[0]).toMatchObject({ topic: 'activity', type: 'orders_matched' });
    expect(JSON.parse(subscribe.subscriptions[0]!.filters)).toEqual({ market_slug: gammaMarket.slug });
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      price: 0.53,
      volumeBase: 40,
      side: 'BUY',
      tokenId: YES,
      trader: WALLET,
      transactionHash: TX,
    });
    // The first connect is no recovery (issue 27, defect 6).
    expect(run.stderr).toContain('pmdesk: live feed open\n');
    expect(run.stderr).not.toContain('again');
  });
});

describe('fills watch when the real-time feed cannot be reached', () => {
  it("polls the Data API for the market's new trades and says so on stderr", async () => {
    gamma.json('GET', '/markets/506729', gammaMarket);
    // A trade made now: polling passes on only the trades after the watch began.
    data.on('GET', '/trades', (_request, reply) =>
      reply.json(200, [{ ...dataTrade, timestamp: Math.floor(Date.now() / 1000) + 1 }]),
    );
    const refused = 'ws://127.0.0.1:1/rtds';
    const run = await pmdesk(['--rtds-url', refused, 'fills', 'watch', '506729', '--count', '1', '--json']);
    expect(run.code).toBe(0);
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toEqual([expect.objectContaining({ price: 0.53, volumeBase: 40, tokenId: YES, transactionHash: TX })]);
    expect(
      run.stderr
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown),
    ).toContainEqual({ mode: 'polling' });
    expect(data.to('/trades')[0]!.query.get('market')).toBe(CONDITION);
  });
});
