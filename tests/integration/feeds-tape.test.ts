// The trade tape over the real aggregator client and a fixture SSE server: live fills reach the tape and the
// candles; a dropped stream is resubscribed with backoff (the toolkit never does it on its own), a gap marker
// covers exactly the time it was down, and the gap's fills come back into the candles from the fill history.
// The clock is injected; the waits are on requests and events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AggregatorClient } from '../../packages/toolkit/src/aggregator/client';
import { silentLogger } from '../../packages/toolkit/src/base/logger';
import { ManualScheduler } from '../../src/main/feeds/scheduler';
import { TradeTape, type TapeState } from '../../src/main/feeds/tape';
import { startFixtureServer, type FixtureServer, type SseStream } from '../helpers/fixture-server';
import { until } from '../helpers/until';

let server: FixtureServer;
const streams: SseStream[] = [];
let history: unknown = [[]];
beforeAll(async () => {
  server = await startFixtureServer();
  server.on('GET', '/sse/fillevent', (_r, reply) => {
    streams.push(reply.sse());
  });
  server.on('GET', '/v1/markets/506729/orderbook/filledevents', (_r, reply) => reply.json(200, history));
});
afterAll(async () => {
  await server.stop();
});

describe('trade tape', () => {
  it('marks the time the fill stream was down and refills the candles of the gap', async () => {
    const start = 1_700_000_000_000; // the manual clock's start, ms
    const clock = new ManualScheduler(start);
    const client = new AggregatorClient({ apiUrl: server.url, logger: silentLogger });
    const states: TapeState[] = [];
    let candleUpdates = 0;
    const tape = new TradeTape({
      subscribe: (handlers) => client.subscribeToFills('polymarket', '506729', handlers),
      fillHistory: async () => (await client.getFillHistory('polymarket', '506729'))[0] ?? [],
      candleMs: 60_000,
      scheduler: clock,
      backoffMs: { initial: 1_000, max: 10_000 },
      onState: (s) => states.push(s),
      onCandles: () => candleUpdates++,
    });
    tape.start();
    await until(() => streams.length === 1 && tape.state === 'live', 'first stream');
    const t0 = start / 1000;
    streams[0]!.send(JSON.stringify({ price: 0.5, volumeBase: 10, timestamp: t0 }));
    await until(() => tape.entries().length === 1, 'first fill');

    clock.advance(5_000);
    streams[0]!.destroy();
    await until(() => tape.state === 'reconnecting', 'reconnecting');
    const downAt = clock.now();
    // The history knows a fill made while the stream was down, and one from before (already on the tape).
    history = [
      [
        { price: 0.5, volumeBase: 10, timestamp: t0 },
        { price: 0.7, volumeBase: 3, timestamp: t0 + 6 },
      ],
    ];
    clock.advance(999);
    expect(streams).toHaveLength(1); // still backing off
    clock.advance(1);
    await until(() => streams.length === 2 && tape.state === 'live', 'second stream');
    await until(() => tape.candles()[0]?.close === 0.7, 'gap refilled');

    expect(tape.entries()).toEqual([
      { kind: 'fill', source: 'source', price: 0.5, size: 10, timestamp: t0 },
      { kind: 'gap', gapFrom: downAt, gapTo: downAt + 1_000 },
    ]);
    expect(tape.candles()).toEqual([
      { time: Math.floor(t0 / 60) * 60, open: 0.5, high: 0.7, low: 0.5, close: 0.7, volume: 13 },
    ]);
    expect(states).toEqual(['connecting', 'live', 'reconnecting', 'live']);

    streams[1]!.send(JSON.stringify({ price: 0.6, volumeBase: 1, timestamp: t0 + 8 }));
    await until(() => tape.entries().length === 3, 'fill after the gap');
    expect(tape.candles()[0]).toMatchObject({ close: 0.6, volume: 14 });
    expect(candleUpdates).toBe(3);

    tape.close();
    expect(tape.state).toBe('closed');
    clock.advance(60_000);
    expect(streams).toHaveLength(2); // a closed tape does not resubscribe
  });

  it('takes last_trade_price into the tape, and into candles while the aggregator is silent', () => {
    const tape = new TradeTape({
      subscribe: () => ({ state: 'closed', latest: () => null, close: () => undefined, done: Promise.resolve(null) }),
      fillHistory: async () => [],
      candleMs: 60_000,
      scheduler: new ManualScheduler(),
    });
    tape.addTrade({ tokenId: 't', market: 'm', price: 0.42, size: 5, side: 'BUY', timestamp: 1_700_000_000_000 });
    expect(tape.entries()).toEqual([
      { kind: 'fill', source: 'exchange', price: 0.42, size: 5, side: 'BUY', timestamp: 1_700_000_000 },
    ]);
    expect(tape.candles()).toEqual([
      { time: 1_699_999_980, open: 0.42, high: 0.42, low: 0.42, close: 0.42, volume: 5 },
    ]);
  });
});
