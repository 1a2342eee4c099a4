// The sandbox's Gamma keyset lists (`/events/keyset`, `/markets/keyset`) and the deprecation headers on the
// offset lists they replace, read over real HTTP: pages joined by `after_cursor` cover the list once, in order,
// under the same filters; `cursor=` is ignored, `offset` refused, `limit` capped; and how deep Gamma's offset
// paging goes (the lists to 2000, comments to 200) before a 422 (issue 27).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { Query } from '../../sandbox/polymarket/http';
import { KEYSET_MAX_LIMIT, keysetPage } from '../../sandbox/polymarket/keyset';

type Msg = Record<string, unknown> & { id: string };
type Page = { events?: Msg[]; markets?: Msg[]; next_cursor?: string };

let sandbox: RunningSandbox;
let base: string;

async function get(path: string): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = await fetch(`${base}${path}`);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

async function ok<T>(path: string): Promise<T> {
  const { status, body } = await get(path);
  expect(status, `${path}: ${JSON.stringify(body)}`).toBe(200);
  return body as T;
}

/** Every page of a keyset list, following `next_cursor` as Polymarket's client does (`after_cursor`). */
async function allPages(path: string, key: 'events' | 'markets'): Promise<Msg[][]> {
  const pages: Msg[][] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 50; i++) {
    const sep = path.includes('?') ? '&' : '?';
    const page = await ok<Page>(cursor ? `${path}${sep}after_cursor=${encodeURIComponent(cursor)}` : path);
    expect(Object.keys(page).filter((k) => k !== 'next_cursor')).toEqual([key]);
    pages.push(page[key]!);
    if (page.next_cursor === undefined) return pages;
    expect(page.next_cursor).not.toBe('');
    cursor = page.next_cursor;
  }
  throw new Error(`${path}: more than 50 pages`);
}

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 }, simulate: 'off', seed: 9 });
  base = sandbox.profile.gammaUrl;
}, 60_000);
afterAll(() => sandbox?.stop());

describe('GET /markets/keyset and /events/keyset', () => {
  it('pages every market once, by id, with next_cursor absent on the last page', async () => {
    const everyMarket = (await ok<Msg[]>('/markets')).map((m) => m.id);
    const pages = await allPages('/markets/keyset?limit=3', 'markets');
    expect(pages.map((p) => p.length)).toEqual([3, 3, everyMarket.length - 6]);
    expect(pages.flat().map((m) => m.id)).toEqual(everyMarket);
    // The rows are the same markets the by-id read answers (Gamma's market shape, its parent events).
    const first = pages[0]![0]!;
    expect(first).toEqual(await ok(`/markets/${first.id}`));
  });

  it('pages every event once, with its markets', async () => {
    const pages = await allPages('/events/keyset?limit=2', 'events');
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat().map((e) => e.id)).toEqual(sandbox.catalog.events.map((e) => e.id));
    expect(pages.flat().map((e) => (e.markets as Msg[]).length)).toEqual(
      sandbox.catalog.events.map((e) => e.markets.length),
    );
  });

  it('keeps the order asked for across pages (order, ascending), as the offset list orders it', async () => {
    const offsetOrder = (await ok<Msg[]>('/markets?order=slug&ascending=false')).map((m) => m.slug);
    const keysetOrder = (await allPages('/markets/keyset?order=slug&ascending=false&limit=2', 'markets'))
      .flat()
      .map((m) => m.slug);
    expect(keysetOrder).toEqual(offsetOrder);
    expect(keysetOrder).toEqual([...keysetOrder].sort().reverse());
    const ascending = (await allPages('/events/keyset?order=title&ascending=true&limit=2', 'events'))
      .flat()
      .map((e) => e.title);
    expect(ascending).toEqual(sandbox.catalog.events.map((e) => e.title).sort((a, b) => a.localeCompare(b)));
  });

  it('applies the offset lists’ filters: tag, ids (comma or repeated, as the official client sends them), closed, active', async () => {
    const crypto = await allPages('/events/keyset?tag_id=103&limit=1', 'events');
    expect(crypto.flat().map((e) => e.id)).toEqual(
      sandbox.catalog.events.filter((e) => e.tags?.includes('crypto')).map((e) => e.id),
    );
    const marketsByTag = (await allPages('/markets/keyset?tag_id=102', 'markets')).flat().map((m) => m.id);
    expect(marketsByTag).toEqual(
      sandbox.catalog.events.find((e) => e.tags?.includes('fed-rates'))!.markets.map((m) => m.id),
    );
    const repeated = (await ok<Page>('/events/keyset?id=9002&id=9004')).events!.map((e) => e.id);
    expect(repeated).toEqual(['9002', '9004']);
    expect((await ok<Page>('/events/keyset?id=9002,9004')).events!.map((e) => e.id)).toEqual(['9002', '9004']);
    expect((await ok<Page>('/markets/keyset?closed=true')).markets).toEqual([]);
    expect((await ok<Page>('/markets/keyset?closed=false&active=true')).markets!.length).toBe(
      (await ok<Msg[]>('/markets')).length,
    );
    const fed = sandbox.catalog.events[0]!.markets[0]!;
    expect((await ok<Page>(`/markets/keyset?condition_ids=${fed.conditionId}`)).markets!.map((m) => m.id)).toEqual([
      fed.id,
    ]);
  });

  it('ignores a cursor= parameter (page 1 again), as Polymarket does: only after_cursor continues', async () => {
    const first = await ok<Page>('/markets/keyset?limit=2');
    const again = await ok<Page>(`/markets/keyset?limit=2&cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(again).toEqual(first);
    const next = await ok<Page>(`/markets/keyset?limit=2&after_cursor=${encodeURIComponent(first.next_cursor!)}`);
    expect(next.markets!.map((m) => m.id)).not.toEqual(first.markets!.map((m) => m.id));
  });

  it('refuses offset (422, a validation error, as Gamma) and a cursor it did not issue (400) with an {error}', async () => {
    const offset = await get('/markets/keyset?offset=2');
    expect(offset.status).toBe(422);
    expect(offset.body).toEqual({ error: expect.stringContaining('after_cursor') });
    const bad = await get('/events/keyset?after_cursor=not-a-cursor');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: expect.stringContaining('after_cursor') });
    expect((await get('/markets/keyset?limit=0')).status).toBe(400);
  });

  it('caps limit at 100 rows a page, with a next_cursor to the rest', () => {
    const rows = Array.from({ length: 250 }, (_, i) => ({ id: String(i + 1), volume: (i * 37) % 101 }));
    const read = (params: string) => keysetPage(rows, new Query(new URLSearchParams(params)), 'markets') as Page;
    const first = read('limit=500');
    expect(first.markets).toHaveLength(KEYSET_MAX_LIMIT);
    expect(KEYSET_MAX_LIMIT).toBe(100);
    const second = read(`limit=500&after_cursor=${first.next_cursor}`);
    const third = read(`limit=500&after_cursor=${second.next_cursor}`);
    expect(third.next_cursor).toBeUndefined();
    expect([...first.markets!, ...second.markets!, ...third.markets!].map((r) => r.id)).toEqual(rows.map((r) => r.id));
    // Ties on the ordered field are broken by id, so a page boundary inside a tie neither repeats nor skips a row.
    const byVolume = [read('order=volume&limit=30')];
    while (byVolume.at(-1)!.next_cursor)
      byVolume.push(read(`order=volume&limit=30&after_cursor=${byVolume.at(-1)!.next_cursor}`));
    const ids = byVolume.flatMap((p) => p.markets!.map((r) => r.id));
    expect(new Set(ids).size).toBe(rows.length);
    const volumes = byVolume.flatMap((p) => p.markets!.map((r) => r.volume as number));
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
  });
});

describe('switching the keyset lists off', () => {
  it('makes both answer 404 while the offset lists keep answering, for testing a client’s fallback', async () => {
    try {
      expect(sandbox.polymarket.keysetLists(false)).toBe(false);
      for (const path of ['/events/keyset', '/markets/keyset?limit=2']) {
        const { status, body } = await get(path);
        expect([path, status]).toEqual([path, 404]);
        expect(body).toEqual({ error: expect.stringContaining('no route') });
      }
      expect((await get('/events')).status).toBe(200);
      expect((await get('/events/9001')).status).toBe(200);
    } finally {
      expect(sandbox.polymarket.keysetLists(true)).toBe(true);
    }
    expect((await get('/events/keyset')).status).toBe(200);
    expect(sandbox.polymarket.keysetLists()).toBe(true);
  });
});

describe('Gamma’s comments', () => {
  it('refuse an offset past 200 with a 422, as Gamma does, and serve up to it', async () => {
    const path = '/comments?parent_entity_type=Event&parent_entity_id=9001';
    expect((await get(`${path}&offset=200`)).body).toEqual([]);
    const { status, body } = await get(`${path}&offset=201&limit=20`);
    expect(status).toBe(422);
    expect(body).toEqual({ error: expect.stringContaining('200') });
  });
});

describe('the deprecated offset lists', () => {
  it('still answer GET /markets and GET /events, with Polymarket’s Deprecation, Sunset and Warning 299 headers', async () => {
    for (const [path, replacement] of [
      ['/markets', '/markets/keyset'],
      ['/events', '/events/keyset'],
      ['/events?limit=1&offset=1', '/events/keyset'],
    ] as const) {
      const { status, headers, body } = await get(path);
      expect(status).toBe(200);
      expect(Array.isArray(body)).toBe(true);
      expect(headers.get('deprecation')).toBe('true');
      expect(headers.get('sunset')).toBe('Fri, 01 May 2026 00:00:00 GMT');
      expect(headers.get('warning')).toBe(`299 - "use ${replacement}"`);
    }
  });

  it('refuse an offset past 2000 with a 422 naming the keyset list, as Gamma does', async () => {
    expect((await get('/events?offset=2000')).status).toBe(200);
    for (const [path, keyset] of [
      ['/events?offset=2001', '/events/keyset'],
      ['/markets?offset=5000&limit=10', '/markets/keyset'],
    ] as const) {
      const { status, body } = await get(path);
      expect([path, status]).toEqual([path, 422]);
      expect(body).toEqual({ error: expect.stringContaining(keyset) });
    }
  });

  it('are the only Gamma reads that carry them', async () => {
    for (const path of ['/markets/keyset', '/events/keyset', '/events/9001', '/markets/90021', '/tags']) {
      const { status, headers } = await get(path);
      expect(status).toBe(200);
      expect([headers.get('deprecation'), headers.get('sunset'), headers.get('warning')]).toEqual([null, null, null]);
    }
  });
});
