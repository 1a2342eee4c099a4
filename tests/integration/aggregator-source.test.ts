// The aggregator as a MarketSource, against a real HTTP server on loopback: the wire is the client's (same paths
// and queries), the loose trading fields come back typed (a wrong shape is ERR_VALIDATION naming the field),
// candles are built from the fill history per chart range, and the reads it cannot make say so.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AggregatorSource, toTradeRecord } from '../../packages/toolkit/src/aggregator/source';
import { createMarketSource, sourceKindOf } from '../../packages/toolkit/src/sources/create';
import { PolymarketSource } from '../../packages/toolkit/src/polymarket/source';
import { silentLogger } from '../../packages/toolkit/src/base/logger';
import { ErrorCode, PmDeskError } from '../../packages/toolkit/src/model/errors';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { event, fillHistory, market } from '../helpers/aggregator-fixtures';

let server: FixtureServer;
const source = () => new AggregatorSource({ apiUrl: server.url, logger: silentLogger, timeoutMs: 5_000 });

async function failure(promise: Promise<unknown>): Promise<PmDeskError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PmDeskError);
    return error as PmDeskError;
  }
  throw new Error('expected the call to fail');
}

const tradingMarket = {
  ...market,
  conditionId: `0x${'ab'.repeat(32)}`,
  minimum_tick_size: 0.01,
  minimum_order_size: '5',
  accepting_orders: 'false',
  closed: false,
  neg_risk: true,
};

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.stop());
beforeEach(() => server.reset());

describe('AggregatorSource maps the aggregator onto the market model', () => {
  it('types the trading fields the aggregator sends loosely (tick number → its string)', async () => {
    server.json('GET', '/v1/markets/506729', tradingMarket);
    const read = await source().getMarket('polymarket', '506729');
    expect(server.last().url).toBe('/v1/markets/506729?protocol=polymarket');
    expect(read.conditionId).toBe(`0x${'ab'.repeat(32)}`);
    expect(read.minimum_tick_size).toBe('0.01');
    expect(read.minimum_order_size).toBe(5);
    expect(read.accepting_orders).toBe(false);
    expect(read.closed).toBe(false);
    expect(read.neg_risk).toBe(true);
    expect(read.position_tokens.map((t) => t.price)).toEqual(['0.53', '0.47']);
    expect(read.rewardsMaxSpread).toBe(3.5);
  });

  it('leaves out trading fields the aggregator sent as null or not at all', async () => {
    server.json('GET', '/v1/markets/506729', { ...market, conditionId: null, minimum_tick_size: null });
    const read = await source().getMarket('polymarket', '506729');
    expect('conditionId' in read).toBe(false);
    expect('minimum_tick_size' in read).toBe(false);
    expect(read.accepting_orders).toBeUndefined();
  });

  it('a wrong-shaped trading field is ERR_VALIDATION naming it', async () => {
    server.json('GET', '/v1/markets/506729', { ...market, minimum_tick_size: { value: 0.01 } });
    const error = await failure(source().getMarket('polymarket', '506729'));
    expect(error.code).toBe(ErrorCode.VALIDATION_ERROR);
    expect(error.detail).toContain('minimum_tick_size');
  });

  it('maps events (and their markets) from listEvents, with page and limit on the wire; an offset must fall on a page', async () => {
    server.json('GET', '/v1/ongoing-events', [
      { ...event, closed: 'true', volume24hr: '12.5', markets: [tradingMarket] },
    ]);
    const events = await source().listEvents({ page: 2, limit: 10 });
    expect(server.last().url).toBe('/v1/ongoing-events?protocol=polymarket&page=2&limit=10');
    expect(events[0]!.closed).toBe(true);
    expect(events[0]!.volume24hr).toBe(12.5);
    expect(events[0]!.markets[0]!.minimum_tick_size).toBe('0.01');

    await source().listEvents({ offset: 20, limit: 10 });
    expect(server.last().url).toBe('/v1/ongoing-events?protocol=polymarket&page=3&limit=10');
    const count = server.requests.length;
    expect((await failure(source().listEvents({ offset: 15, limit: 10 }))).code).toBe(ErrorCode.INVALID_PARAMETER);
    expect((await failure(source().listEvents({ tag: 'politics' }))).code).toBe(ErrorCode.NOT_AVAILABLE);
    expect(server.requests.length).toBe(count);
  });

  it('getCandles buckets one outcome of the fill history by chart range', async () => {
    server.json('GET', '/v1/markets/506729/orderbook/filledevents', fillHistory);
    const hourly = await source().getCandles('polymarket', '506729', 0, '1h');
    expect(server.last().url).toBe('/v1/markets/506729/orderbook/filledevents?protocol=polymarket');
    // 1747390000 and 1747390500 fall in the hour starting 1747389600; 1747394000 in the next one.
    expect(hourly).toEqual([
      { time: 1747389600, open: 0.51, high: 0.55, low: 0.51, close: 0.55, volume: 120 },
      { time: 1747393200, open: 0.5, high: 0.5, low: 0.5, close: 0.5, volume: 5 },
    ]);
    const minutes = await source().getCandles('polymarket', '506729', 1, '1m');
    expect(minutes).toEqual([{ time: 1747390080, open: 0.49, high: 0.49, low: 0.49, close: 0.49, volume: 40 }]);
    const error = await failure(source().getCandles('polymarket', '506729', 5, '1h'));
    expect(error.code).toBe(ErrorCode.NOT_FOUND);
    expect(error.detail).toBe('This market has no outcome number 6.');
  });

  it('trader activity and trades are ERR_NOT_AVAILABLE with the sentence, and nothing is sent', async () => {
    for (const read of [
      source().getTraderActivity('0x00000000000000000000000000000000000000a1'),
      source().getTraderTrades('0x00000000000000000000000000000000000000a1'),
    ]) {
      const error = await failure(read);
      expect(error.code).toBe(ErrorCode.NOT_AVAILABLE);
      expect(error.detail).toBe('The aggregator has no trader activity; use a network with source polymarket.');
    }
    expect(server.requests).toEqual([]);
  });

  it('subscribeToFills is the SSE stream, each fill mapped onto the model', async () => {
    let stream: { send(data: string): void } | undefined;
    server.on('GET', '/sse/fillevent', (_req, reply) => {
      stream = reply.sse();
    });
    const fills: unknown[] = [];
    const opened = new Promise<void>((resolve) => {
      const subscription = source().subscribeToFills('polymarket', '506729', {
        onOpen: () => resolve(),
        onFill: (fill) => {
          fills.push(fill);
          if (fills.length === 1) subscription.close();
        },
      });
    });
    await opened;
    expect(server.last().url).toBe('/sse/fillevent?protocol=polymarket&id=506729');
    stream!.send(JSON.stringify({ price: 0.52, volumeBase: 10, timestamp: 1747390000, side: 'sell', extra: 1 }));
    await expect.poll(() => fills.length).toBe(1);
    expect(fills[0]).toEqual({ price: 0.52, volumeBase: 10, timestamp: 1747390000 });
  });

  it('toTradeRecord keeps the model fields that are well typed', () => {
    expect(
      toTradeRecord({ price: 0.5, volumeBase: 1, timestamp: 2, side: 'BUY', tokenId: '7', transactionHash: 5 }),
    ).toEqual({
      price: 0.5,
      volumeBase: 1,
      timestamp: 2,
      side: 'BUY',
      tokenId: '7',
    });
  });
});

describe('createMarketSource', () => {
  it('names the source a profile uses: the one it says, else the aggregator with an aggregator URL, else Polymarket direct', () => {
    expect(sourceKindOf({ aggregatorUrl: 'http://127.0.0.1:1' })).toBe('aggregator');
    expect(sourceKindOf({ source: 'polymarket', aggregatorUrl: 'http://127.0.0.1:1' })).toBe('polymarket');
    expect(sourceKindOf({ gammaUrl: 'http://127.0.0.1:1' })).toBe('polymarket');
  });

  it('builds the aggregator over its URLs, Polymarket direct over Gamma, Data and CLOB, and refuses a profile missing them', () => {
    const aggregator = createMarketSource({ aggregatorUrl: 'http://127.0.0.1:4810', sseUrl: 'http://127.0.0.1:4811' });
    expect(aggregator).toBeInstanceOf(AggregatorSource);
    expect((aggregator as AggregatorSource).client.sseUrl).toBe('http://127.0.0.1:4811');
    const direct = createMarketSource({
      source: 'polymarket',
      gammaUrl: 'http://127.0.0.1:1',
      dataUrl: 'http://127.0.0.1:2',
      clobUrl: 'http://127.0.0.1:3',
    });
    expect(direct).toBeInstanceOf(PolymarketSource);
    expect(direct.kind).toBe('polymarket');
    expect(() => createMarketSource({ source: 'aggregator' })).toThrow(/names no aggregatorUrl/);
    expect(() => createMarketSource({ source: 'polymarket', gammaUrl: 'http://127.0.0.1:1' })).toThrow(
      /names no dataUrl, clobUrl/,
    );
  });
});
