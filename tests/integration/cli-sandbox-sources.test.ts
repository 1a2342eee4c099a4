// `pmdesk` against the whole local sandbox, once through its aggregator and once through its Polymarket
// server (Gamma, Data API, real-time feed on its own port): both answer from the same catalog and books, so
// the same reads must print the same markets in the same --json shape on either source.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';
import { runPmdesk, type PmdeskRun } from '../helpers/pmdesk-process';

interface EventJson {
  id: string;
  slug: string;
  protocol: string;
  markets: { id: string; conditionId?: string; position_tokens: { token_id: string; name: string; price: string }[] }[];
}

let sandbox: RunningSandbox;
/** The sandbox's URLs as its profile writes them (the Polymarket server's included). */
let urls: Record<string, unknown>;

const json = (run: PmdeskRun) => JSON.parse(run.stdout) as unknown;

function viaAggregator(args: string[]): Promise<PmdeskRun> {
  return runPmdesk([
    '--source',
    'aggregator',
    '--api-url',
    String(urls.aggregatorUrl),
    ...args,
    '--protocol',
    'polymarket',
    '--json',
  ]);
}

function viaPolymarket(args: string[]): Promise<PmdeskRun> {
  return runPmdesk([
    '--source',
    'polymarket',
    '--gamma-url',
    String(urls.gammaUrl),
    '--data-url',
    String(urls.dataUrl),
    '--rtds-url',
    String(urls.rtdsUrl),
    '--clob-url',
    String(urls.clobUrl),
    ...args,
    '--json',
  ]);
}

/** The model's required keys of an event, its first market and that market's first token, with their JSON types. */
function shape(value: EventJson): Record<string, Record<string, string>> {
  const types = (o: object, keys: string[]) =>
    Object.fromEntries(
      keys.map((k) => [
        k,
        Array.isArray((o as Record<string, unknown>)[k]) ? 'array' : typeof (o as Record<string, unknown>)[k],
      ]),
    );
  const market = value.markets[0]!;
  return {
    event: types(value, [
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
    market: types(market, [
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
    token: types(market.position_tokens[0]!, ['token_id', 'name', 'price']),
  };
}

/** The identity of an event's markets, the part both sources read from the same catalog and chain. */
const marketsOf = (event: EventJson) =>
  event.markets.map((m) => ({
    conditionId: m.conditionId,
    tokens: m.position_tokens.map((t) => ({ token_id: t.token_id, name: t.name })),
  }));

beforeAll(async () => {
  // Every port free (the Polymarket server's too): never the default ports a developer's sandbox may hold.
  const ports = { rpc: 0, clob: 0, aggregator: 0, polymarket: 0 };
  sandbox = await startSandbox({ ports, simulate: 'off', seed: 21 });
  urls = { ...sandbox.profile };
}, 120_000);
afterAll(() => sandbox?.stop());

describe('the same sandbox through both sources', () => {
  it('events list: the same events and markets, the same shape', async () => {
    const [aggregator, direct] = await Promise.all([
      viaAggregator(['events', 'list', '--limit', '100']),
      viaPolymarket(['events', 'list', '--limit', '100']),
    ]);
    expect(aggregator.code).toBe(0);
    expect(direct.code).toBe(0);
    // Through Gamma's keyset list: no fallback or deprecation line on stderr.
    expect(direct.stderr).toBe('');
    const bySlug = (run: PmdeskRun) => new Map((json(run) as EventJson[]).map((e) => [e.slug, e]));
    const fromAggregator = bySlug(aggregator);
    const fromPolymarket = bySlug(direct);
    expect(fromPolymarket.size).toBeGreaterThan(0);
    expect([...fromPolymarket.keys()].sort()).toEqual([...fromAggregator.keys()].sort());
    for (const [slug, event] of fromPolymarket) {
      expect(event.protocol).toBe('polymarket');
      expect({ slug, markets: marketsOf(event) }).toEqual({ slug, markets: marketsOf(fromAggregator.get(slug)!) });
    }
    const [first] = fromPolymarket.values();
    expect(shape(first!)).toEqual(shape(fromAggregator.get(first!.slug)!));
  });

  it('markets get and markets book name the same tokens on both', async () => {
    const [event] = json(await viaAggregator(['events', 'list', '--limit', '1'])) as EventJson[];
    const market = event!.markets[0]!;
    const [aggregatorMarket, directMarket] = await Promise.all([
      viaAggregator(['markets', 'get', market.id]),
      viaPolymarket(['markets', 'get', market.id]),
    ]);
    expect(directMarket.code).toBe(0);
    const tokens = (run: PmdeskRun) =>
      (json(run) as EventJson['markets'][number]).position_tokens.map((t) => t.token_id);
    expect(tokens(directMarket)).toEqual(tokens(aggregatorMarket));
    const [aggregatorBook, directBook] = await Promise.all([
      viaAggregator(['markets', 'book', market.id]),
      viaPolymarket(['markets', 'book', market.id]),
    ]);
    expect(directBook.code).toBe(0);
    expect(Object.keys(json(directBook) as object).sort()).toEqual(Object.keys(json(aggregatorBook) as object).sort());
  });

  it("trader activity is Polymarket direct's: the aggregator says so, exit 1", async () => {
    const wallet = '0x00000000000000000000000000000000000000a1';
    const aggregator = await runPmdesk([
      '--source',
      'aggregator',
      '--api-url',
      String(urls.aggregatorUrl),
      'traders',
      'activity',
      wallet,
      '--json',
    ]);
    expect(aggregator.code).toBe(1);
    expect((JSON.parse(aggregator.stderr) as { error: { code: string } }).error.code).toBe('ERR_NOT_AVAILABLE');
    const direct = await viaPolymarket(['traders', 'activity', wallet]);
    expect(direct.code).toBe(0);
    expect(json(direct)).toEqual([]);
  });
});
