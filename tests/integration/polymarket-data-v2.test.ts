// The Data API v2 feeds read by Polymarket direct against a real HTTP server on loopback with fixed answers:
// positions, trades and activity walked by the server's own cursors with the same filters on every page, rows in
// the v2 shape (snake_case, '' and 999 for absent) mapped like the v1 rows, condition ids asked at most 20 a
// request, and the v1 paths read instead, said once, where the v2 path answers 404.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../packages/toolkit/src/base/logger';
import { DataClient } from '../../packages/toolkit/src/polymarket/data';
import type { ApiNotice } from '../../packages/toolkit/src/http/answer-headers';
import { PolymarketSource } from '../../packages/toolkit/src/polymarket/source';
import { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import {
  CONDITION_ID,
  NO_TOKEN,
  TX,
  WALLET,
  YES_TOKEN,
  dataActivity,
  dataPosition,
  dataTrade,
} from '../helpers/polymarket-fixtures';

let data: FixtureServer;
let warnings: string[];
const logger: Logger = { debug() {}, warn: (message) => warnings.push(message), error() {} };
let notices: ApiNotice[];
const client = () => new DataClient({ baseUrl: data.url, logger, onNotice: (notice) => notices.push(notice) });

/** A condition id made from a number, in the case asked for. */
const cid = (n: number, upper = false) => {
  const hex = n.toString(16).padStart(64, '0');
  return `0x${upper ? hex.toUpperCase() : hex}`;
};

function v2Trade(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    proxy_wallet: WALLET,
    side: 'BUY',
    token_id: YES_TOKEN,
    condition_id: CONDITION_ID,
    size: 25,
    price: 0.53,
    timestamp: 1_764_000_000,
    title: 'Will the Fed cut rates by 25 bps in December?',
    slug: 'fed-cut-25-bps-december',
    icon: '',
    event_slug: 'fed-decision-in-december',
    outcome: 'Yes',
    outcome_index: 0,
    name: 'alice',
    pseudonym: 'Bright-Owl',
    bio: '',
    profile_image: '',
    profile_image_optimized: '',
    transaction_hash: TX,
    ...overrides,
  };
}

function v2Position(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    proxy_wallet: WALLET,
    token_id: YES_TOKEN,
    condition_id: CONDITION_ID,
    current_size: 40,
    avg_price: 0.5,
    entry_cost_usdc: 20,
    entry_fees_usdc: 0.2,
    total_cost_usdc: 20.2,
    current_price: 0.6,
    current_value: 24,
    total_size: 40,
    realized_pnl: 0,
    unrealized_pnl: 4,
    total_pnl: 4,
    percent_pnl: 20,
    percent_realized_pnl: 0,
    status: 'OPEN',
    redeemable: false,
    mergeable: true,
    negative_risk: false,
    archived: false,
    title: 'Will the Fed cut rates by 25 bps in December?',
    slug: 'fed-cut-25-bps-december',
    icon: '',
    event_id: '1',
    event_slug: 'fed-decision-in-december',
    outcome: 'Yes',
    outcome_index: 0,
    opposite_outcome: 'No',
    opposite_token_id: NO_TOKEN,
    end_date: '2026-12-10',
    last_event_at: 1_764_000_000,
    name: 'alice',
    profile_image: '',
    verified: false,
    ...overrides,
  };
}

const envelope = (rows: unknown[], next: string | null, limit = 100) => ({
  data: rows,
  pagination: { limit, offset: 0, has_more: next !== null, next_cursor: next },
});

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
  data = await startFixtureServer();
});
afterAll(() => data.stop());
beforeEach(() => {
  data.reset();
  warnings = [];
  notices = [];
});

describe('the v2 feeds', () => {
  it('walks positions by the server cursor, sending the same filters with every page, and keeps status and flags', async () => {
    data.on('GET', '/v2/positions', (request, reply) => {
      if (!request.query.get('cursor')) reply.json(200, envelope([v2Position()], 'Y3Vyc29yLTI'));
      else
        reply.json(
          200,
          envelope(
            [
              v2Position({
                token_id: NO_TOKEN,
                outcome: 'No',
                outcome_index: 999,
                status: 'REDEEMABLE',
                redeemable: true,
                mergeable: false,
              }),
            ],
            null,
          ),
        );
    });
    const positions = await new PolymarketSource({
      gammaUrl: data.url,
      dataUrl: data.url,
      clobUrl: data.url,
      logger,
    }).getTraderPositions('polymarket', WALLET);
    expect(data.to('/v2/positions').map((r) => r.rawQuery)).toEqual([
      `user=${WALLET}&status=OPEN&limit=1000`,
      `user=${WALLET}&status=OPEN&limit=1000&cursor=Y3Vyc29yLTI`,
    ]);
    expect(data.to('/positions')).toHaveLength(0);
    expect(positions).toEqual([
      expect.objectContaining({
        tokenId: YES_TOKEN,
        size: 40,
        averagePrice: 0.5,
        initialValue: 20,
        currentValue: 24,
        currentPrice: 0.6,
        cashPnl: 4,
        percentPnl: 20,
        outcomeIndex: 0,
        endsOn: '2026-12-10',
        redeemable: false,
      }),
      // 999 is Polymarket's "no outcome": absent, never a real index.
      expect.objectContaining({ tokenId: NO_TOKEN, outcome: 'No', outcomeIndex: null, redeemable: true }),
    ]);
    const raw = await client().getPositions(WALLET, { status: 'CLOSED' });
    expect(data.to('/v2/positions').at(-1)!.query.get('status')).toBe('CLOSED');
    expect(raw.map((p) => [(p as { status?: string }).status, p.mergeable])).toEqual([
      ['OPEN', true],
      ['REDEEMABLE', false],
    ]);
    expect(warnings).toEqual([]);
  });

  it('reads an activity page past an offset by walking cursors (v2 has no offsets), and the trade tape with taker_only', async () => {
    const rows = Array.from({ length: 5 }, (_, i) => ({
      ...v2Trade({ timestamp: 1_764_000_000 - i }),
      type: 'TRADE',
      usdc_size: 13.25,
    }));
    rows.push({
      ...v2Trade({ side: '', token_id: '', price: 0, outcome: '', outcome_index: 999 }),
      type: 'MERGE',
      usdc_size: 5,
    });
    data.on('GET', '/v2/activity', (request, reply) => {
      const at = Number(request.query.get('cursor') ?? 0);
      const limit = Number(request.query.get('limit'));
      const next = at + limit < rows.length ? String(at + limit) : null;
      reply.json(200, envelope(rows.slice(at, at + limit), next, limit));
    });
    const source = new PolymarketSource({ gammaUrl: data.url, dataUrl: data.url, clobUrl: data.url, logger });
    const activity = await source.getTraderActivity(WALLET, { limit: 3, offset: 3 });
    expect(data.to('/v2/activity').map((r) => r.rawQuery)).toEqual([
      `user=${WALLET}&exclude_deposits_withdrawals=false&limit=6`,
    ]);
    expect(activity.map((a) => [a.type, a.side, a.price, a.outcomeIndex, a.timestamp])).toEqual([
      ['TRADE', 'BUY', 0.53, 0, 1_763_999_997],
      ['TRADE', 'BUY', 0.53, 0, 1_763_999_996],
      ['MERGE', null, null, null, 1_764_000_000],
    ]);

    data.json('GET', '/v2/trades', envelope([v2Trade(), v2Trade({ side: 'SELL' })], null));
    const trades = await source.getTraderTrades(WALLET);
    expect(data.last().rawQuery).toBe(`user=${WALLET}&taker_only=false&limit=100`);
    expect(trades.map((t) => [t.side, t.tokenId, t.price, t.size, t.trader])).toEqual([
      ['BUY', YES_TOKEN, 0.53, 25, WALLET],
      ['SELL', YES_TOKEN, 0.53, 25, WALLET],
    ]);
  });

  it('refuses a page whose has_more and next_cursor disagree, naming the field, instead of walking forever', async () => {
    data.json('GET', '/v2/trades', {
      data: [v2Trade()],
      pagination: { limit: 100, offset: 0, has_more: true, next_cursor: null },
    });
    const error = await failure(client().getTrades({ user: WALLET }));
    expect(error.code).toBe('ERR_VALIDATION');
    expect(error.message).toContain('next_cursor');
  });

  it('refuses an empty page that names a next cursor, after one request, rather than walking without end', async () => {
    data.json('GET', '/v2/activity', envelope([], 'more'));
    const error = await failure(client().getActivity(WALLET));
    expect(error.code).toBe('ERR_VALIDATION');
    expect(data.to('/v2/activity')).toHaveLength(1);
  });
});

describe('condition ids, 20 a request', () => {
  it('asks 45 distinct markets (case duplicates dropped) in batches of 20, 20 and 5, merged newest first', async () => {
    const ids = Array.from({ length: 45 }, (_, i) => cid(i + 1));
    data.on('GET', '/v2/trades', (request, reply) => {
      const asked = request.query.get('condition_id')!.split(',');
      reply.json(200, envelope([v2Trade({ condition_id: asked[0], timestamp: 1_764_000_000 + asked.length })], null));
    });
    const trades = await client().getTrades({
      markets: [...ids, cid(3, true), cid(7, true)],
      takerOnly: true,
      limit: 10,
    });
    const asked = data.to('/v2/trades').map((r) => r.query.get('condition_id')!.split(','));
    expect(asked.map((batch) => batch.length).sort((a, b) => b - a)).toEqual([20, 20, 5]);
    expect(asked.flat().sort()).toEqual([...ids].sort());
    for (const r of data.to('/v2/trades')) expect(r.query.get('taker_only')).toBe('true');
    expect(trades.map((t) => t.timestamp)).toEqual([1_764_000_020, 1_764_000_020, 1_764_000_005]);
  });

  it('batches positions by market the same way, and the v1 fallback too', async () => {
    const ids = Array.from({ length: 21 }, (_, i) => cid(i + 100));
    data.json('GET', '/v2/positions', envelope([v2Position()], null));
    expect(await client().getPositions(WALLET, { conditionIds: ids })).toHaveLength(2);
    expect(
      data
        .to('/v2/positions')
        .map((r) => r.query.get('condition_id')!.split(',').length)
        .sort(),
    ).toEqual([1, 20]);

    data.reset();
    data.json('GET', '/positions', [dataPosition()]);
    expect(await client().getPositions(WALLET, { conditionIds: ids })).toHaveLength(2);
    expect(
      data
        .to('/positions')
        .map((r) => r.query.get('market')!.split(',').length)
        .sort(),
    ).toEqual([1, 20]);
    // Both batches met the 404 at once; the fallback is said once.
    expect(warnings).toEqual([
      'The Data API does not serve /v2/positions here (404); reading /positions with offset pages instead.',
    ]);
  });

  it('refuses a condition id that is not one before sending anything', async () => {
    const error = await failure(client().getTrades({ markets: ['0x12'] }));
    expect(error.code).toBe('ERR_INVALID_PARAM');
    expect(data.requests).toHaveLength(0);
  });
});

describe('where v2 is not served (404)', () => {
  it('reads the v1 path instead, says so once per feed, and asks v1 directly from then on', async () => {
    data.json('GET', '/trades', [dataTrade()]);
    data.json('GET', '/activity', [dataActivity()]);
    const c = client();
    expect(await c.getTrades({ market: CONDITION_ID, takerOnly: true, limit: 50 })).toHaveLength(1);
    expect(await c.getTrades({ market: CONDITION_ID, takerOnly: true, limit: 50 })).toHaveLength(1);
    expect(await c.getActivity(WALLET, { limit: 20, offset: 40 })).toHaveLength(1);
    expect(data.requests.map((r) => r.path)).toEqual(['/v2/trades', '/trades', '/trades', '/v2/activity', '/activity']);
    expect(data.to('/trades')[0]!.rawQuery).toBe(`market=${CONDITION_ID}&limit=50&offset=0&takerOnly=true`);
    expect(data.to('/activity')[0]!.rawQuery).toBe(`user=${WALLET}&limit=20&offset=40`);
    expect(warnings).toEqual([
      'The Data API does not serve /v2/trades here (404); reading /trades with offset pages instead.',
      'The Data API does not serve /v2/activity here (404); reading /activity with offset pages instead.',
    ]);
    // Said where a trader or a script sees it too (the CLI's stderr, the terminal's notices), once per feed.
    expect(notices).toEqual([
      { kind: 'fallback', api: 'Data API', endpoint: 'GET /v2/trades', message: warnings[0] },
      { kind: 'fallback', api: 'Data API', endpoint: 'GET /v2/activity', message: warnings[1] },
    ]);
  });

  it('says closed positions are not available rather than answering an empty list', async () => {
    const error = await failure(client().getPositions(WALLET, { status: 'CLOSED' }));
    expect(error.code).toBe('ERR_NOT_AVAILABLE');
  });
});
