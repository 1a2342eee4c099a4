// The sandbox's Gamma and Data API routes added for Polymarket's own client (issue 27), read over real HTTP:
// their wire names as Polymarket sends them, the honest empty answers, and a clear 400 or 404 `{error}` for every
// bad parameter or unknown id (what the client's schemas accept is proven in
// tests/conformance/polymarket-client-official.test.ts).
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import type { CatalogMarket } from '../../sandbox/market/catalog';

let sandbox: RunningSandbox;
let base: string;
let btc: CatalogMarket;

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${base}${path}`);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 }, simulate: 'off', seed: 9 });
  base = sandbox.profile.gammaUrl;
  btc = sandbox.catalog.market('90021')!;
}, 60_000);
afterAll(() => sandbox?.stop());

describe('Gamma', () => {
  it('names related tags with Gamma’s own casing (tagID, relatedTagID), by id and by slug', async () => {
    expect(await get('/tags/103/related-tags')).toEqual({
      status: 200,
      body: [{ id: '103104', tagID: 103, relatedTagID: 104, rank: 1 }],
    });
    expect(await get('/tags/slug/crypto/related-tags')).toEqual(await get('/tags/103/related-tags'));
    expect((await get('/tags/103/related-tags?status=closed')).body).toEqual([]);
    const tags = (await get('/tags/slug/bitcoin/related-tags/tags')).body as { slug: string }[];
    expect(tags.map((t) => t.slug)).toEqual(['crypto']);
  });

  it('carries marketMakerAddress on every market, as Gamma does (empty for an order-book market)', async () => {
    const events = (await get('/events/keyset')).body as { events: { markets: { marketMakerAddress: unknown }[] }[] };
    const markets = events.events.flatMap((e) => e.markets);
    expect(markets.length).toBe(sandbox.catalog.events.flatMap((e) => e.markets).length);
    expect(markets.every((m) => m.marketMakerAddress === '')).toBe(true);
    expect(((await get(`/markets/${btc.id}`)).body as { marketMakerAddress: unknown }).marketMakerAddress).toBe('');
  });

  it('answers sports, teams, series and clarifications with an empty list, not a 404', async () => {
    for (const path of ['/sports', '/teams', '/series', '/market-clarifications'])
      expect(await get(path)).toEqual({ status: 200, body: [] });
    expect(await get('/sports/market-types')).toEqual({ status: 200, body: { marketTypes: [] } });
    expect((await get('/series/1')).status).toBe(404);
  });

  it('refuses unknown ids and bad parameters with a 404 or 400 {error}', async () => {
    const cases: [string, number][] = [
      ['/comments/999999', 404],
      ['/comments/abc', 400],
      ['/comments/user_address/0x123', 400],
      ['/tags/999/related-tags', 404],
      ['/tags/slug/nope/related-tags/tags', 404],
      ['/tags/103/related-tags?status=open', 400],
      ['/tags/103/unrelated', 404],
      ['/markets/999999/tags', 404],
      [`/public-profile?address=${Wallet.createRandom().address}`, 404],
    ];
    for (const [path, status] of cases) {
      const answer = await get(path);
      expect([path, answer.status]).toEqual([path, status]);
      expect(answer.body).toEqual({ error: expect.any(String) });
    }
    expect((await get(`/comments/user_address/${Wallet.createRandom().address}`)).body).toEqual([]);
  });
});

describe('Data API', () => {
  it('answers an account with no trades with empty lists and zeros, never invented rows', async () => {
    const nobody = Wallet.createRandom().address;
    expect((await get(`/closed-positions?user=${nobody}`)).body).toEqual([]);
    expect((await get(`/v1/leaderboard?user=${nobody}&timePeriod=ALL`)).body).toEqual([]);
    // Nobody holds shares before any trade: no open interest, no market positions.
    expect((await get(`/oi?market=${btc.conditionId}`)).body).toEqual([{ market: btc.conditionId, value: 0 }]);
    expect((await get(`/v1/market-positions?market=${btc.conditionId}`)).body).toEqual([
      { token: btc.tokens[0].tokenId, positions: [] },
      { token: btc.tokens[1].tokenId, positions: [] },
    ]);
    expect(((await get('/oi')).body as { market: string }[]).map((o) => o.market)).toEqual(
      sandbox.catalog.events.flatMap((e) => e.markets.map((m) => m.conditionId)),
    );
    expect((await get('/live-volume?id=424242')).body).toEqual([]);
  });

  it('gives live volume as Gamma’s volume of the event’s markets', async () => {
    const event = (await get('/events/9001')).body as {
      volume: number;
      markets: { conditionId: string; volumeNum: number }[];
    };
    const [live] = (await get('/live-volume?id=9001')).body as {
      total: number;
      markets: { market: string; value: number }[];
    }[];
    expect(live!.total).toBe(event.volume);
    expect(live!.markets).toEqual(event.markets.map((m) => ({ market: m.conditionId, value: m.volumeNum })));
  });

  it('refuses bad parameters with a 400 {error} naming them', async () => {
    const user = Wallet.createRandom().address;
    const cases: [string, string][] = [
      ['/closed-positions', 'user'],
      ['/closed-positions?user=0x1', 'user'],
      [`/closed-positions?user=${user}&limit=51`, 'limit'],
      [`/closed-positions?user=${user}&sortBy=SIZE`, 'sortBy'],
      [`/closed-positions?user=${user}&market=${btc.conditionId}&eventId=9002`, 'market'],
      ['/oi?market=0x12', 'market'],
      ['/live-volume', 'id'],
      ['/live-volume?id=abc', 'id'],
      ['/v1/leaderboard?timePeriod=YEAR', 'timePeriod'],
      ['/v1/leaderboard?category=GAMES', 'category'],
      ['/v1/leaderboard?orderBy=PROFIT', 'orderBy'],
      ['/v1/leaderboard?limit=51', 'limit'],
      ['/v1/market-positions', 'market'],
      [`/v1/market-positions?market=${btc.conditionId}&status=SOLD`, 'status'],
      [`/v1/market-positions?market=${btc.conditionId}&sortBy=SIZE`, 'sortBy'],
    ];
    for (const [path, parameter] of cases) {
      const answer = await get(path);
      expect([path, answer.status]).toEqual([path, 400]);
      expect((answer.body as { error: string }).error).toContain(parameter);
    }
    expect((await get('/v1/nothing')).status).toBe(404);
  });
});
