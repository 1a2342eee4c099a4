// The live fill stream against a real SSE server on loopback: open → fills → closed, bad frames
// reported while the stream goes on, a dropped or refused stream reported once and never reconnected.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AggregatorClient } from '../../packages/toolkit/src/aggregator/client';
import type { FillHandlers } from '../../packages/toolkit/src/aggregator/fills';
import { silentLogger } from '../../packages/toolkit/src/base/logger';
import type { TradeRecord } from '../../packages/toolkit/src/model/aggregator';
import type { PmDeskError } from '../../packages/toolkit/src/model/errors';
import { startFixtureServer, type FixtureServer, type SseStream } from '../helpers/fixture-server';

let server: FixtureServer;
const client = () => new AggregatorClient({ apiUrl: 'http://127.0.0.1:1', sseUrl: server.url, logger: silentLogger });

/** Records what a subscription reports, and lets a test wait for the next report of a kind. */
function recorder() {
  const fills: TradeRecord[] = [];
  const errors: PmDeskError[] = [];
  const events: string[] = [];
  const waiters: { kind: string; count: number; resolve: () => void }[] = [];
  const notify = () => {
    for (const w of [...waiters]) {
      if (events.filter((e) => e === w.kind).length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  const handlers: FillHandlers = {
    onOpen: () => {
      events.push('open');
      notify();
    },
    onFill: (fill) => {
      fills.push(fill);
      events.push('fill');
      notify();
    },
    onError: (error) => {
      errors.push(error);
      events.push('error');
      notify();
    },
    onClose: () => {
      events.push('close');
      notify();
    },
  };
  const until = (kind: string, count = 1) =>
    new Promise<void>((resolve) => {
      waiters.push({ kind, count, resolve });
      notify();
    });
  return { fills, errors, events, handlers, until };
}

/** Serves the stream at /sse/fillevent and hands the test its controller once the client connects. */
function streamOnConnect(): Promise<SseStream> {
  return new Promise((resolve) => server.on('GET', '/sse/fillevent', (_req, reply) => resolve(reply.sse())));
}

beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.stop());
beforeEach(() => server.reset());

describe('fill stream', () => {
  it('opens, delivers validated fills in order and keeps the latest', async () => {
    const connected = streamOnConnect();
    const r = recorder();
    const sub = client().subscribeToFills('polymarket', '506729', r.handlers);
    expect(sub.state).toBe('connecting');
    expect(sub.latest()).toBeNull();
    const stream = await connected;
    await r.until('open');
    expect(sub.state).toBe('open');
    expect(server.last().url).toBe('/sse/fillevent?protocol=polymarket&id=506729');
    expect(server.last().headers.accept).toBe('text/event-stream');

    stream.send('{"price":0.53,"volumeBase":120,"timestamp":1747400000}');
    stream.send('{"price":0.54,"volumeBase":5,"timestamp":1747400001}');
    await r.until('fill', 2);
    expect(r.fills).toEqual([
      { price: 0.53, volumeBase: 120, timestamp: 1747400000 },
      { price: 0.54, volumeBase: 5, timestamp: 1747400001 },
    ]);
    expect(sub.latest()).toEqual({ price: 0.54, volumeBase: 5, timestamp: 1747400001 });

    sub.close();
    expect(sub.state).toBe('closed');
    expect(await sub.done).toBeNull();
    expect(r.events).toEqual(['open', 'fill', 'fill', 'close']);
    sub.close(); // closing twice is harmless
    expect(r.events.filter((e) => e === 'close')).toHaveLength(1);
  });

  it('reports a malformed message with SSE_MESSAGE_ERROR and stays open', async () => {
    const connected = streamOnConnect();
    const r = recorder();
    const sub = client().subscribeToFills('polymarket', '506729', r.handlers);
    const stream = await connected;
    const long = `{"price": oops ${'x'.repeat(300)}`;
    stream.send(long);
    stream.send('{"price":"0.5","volumeBase":1,"timestamp":1}');
    stream.send('{"price":0.5,"volumeBase":1,"timestamp":2}');
    await r.until('fill');

    expect(r.errors.map((e) => e.code)).toEqual(['ERR_SSE_MESSAGE', 'ERR_SSE_MESSAGE']);
    expect(r.errors[0]!.detail).toMatch(/^Failed to process SSE message: /);
    expect(r.errors[0]!.context?.rawData).toBe(`${long.slice(0, 100)}...`);
    expect(r.errors[1]!.detail).toBe(
      'Failed to process SSE message: Received SSE message with unexpected data structure.',
    );
    expect(r.errors[1]!.context).toMatchObject({ protocol: 'polymarket', id: '***' });
    expect(sub.state).toBe('open');
    expect(sub.latest()).toEqual({ price: 0.5, volumeBase: 1, timestamp: 2 });
    sub.close();
  });

  it('ignores named events and comments, as the unnamed-data protocol says', async () => {
    const connected = streamOnConnect();
    const r = recorder();
    const sub = client().subscribeToFills('polymarket', '1', r.handlers);
    const stream = await connected;
    stream.raw(': keep-alive\n\n');
    stream.raw('event: other\ndata: {"price":1}\n\n');
    stream.send('{"price":0.1,"volumeBase":2,"timestamp":3}');
    await r.until('fill');
    expect(r.fills).toEqual([{ price: 0.1, volumeBase: 2, timestamp: 3 }]);
    expect(r.errors).toEqual([]);
    sub.close();
  });

  it('a stream the server ends is reported once as SSE_CLOSED and never reconnected', async () => {
    const connected = streamOnConnect();
    const r = recorder();
    const sub = client().subscribeToFills('polymarket', '506729', r.handlers);
    const stream = await connected;
    // Ask for an immediate retry: a client that reconnects on its own would be back within 10 ms.
    stream.raw('retry: 10\n\n');
    stream.send('{"price":0.5,"volumeBase":1,"timestamp":1}');
    await r.until('fill');
    stream.end();

    const error = await sub.done;
    expect(error?.code).toBe('ERR_SSE_CLOSED');
    expect(error?.detail).toBe('SSE connection closed unexpectedly for polymarket/506729.');
    expect(sub.state).toBe('closed');
    expect(r.events).toEqual(['open', 'fill', 'error', 'close']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.to('/sse/fillevent')).toHaveLength(1);
  });

  it('a cut connection is reported as SSE_CLOSED', async () => {
    const connected = streamOnConnect();
    const sub = client().subscribeToFills('polymarket', '7', recorder().handlers);
    (await connected).destroy();
    expect((await sub.done)?.code).toBe('ERR_SSE_CLOSED');
  });

  it('a refused stream is SSE_CONNECTION_FAILED, with the status', async () => {
    server.json('GET', '/sse/fillevent', { message: 'no such market' }, 500);
    const r = recorder();
    const sub = client().subscribeToFills('polymarket', '506729', r.handlers);
    const error = await sub.done;
    expect(error?.code).toBe('ERR_SSE_CONNECT');
    expect(error?.detail).toBe('SSE connection error occurred for polymarket/506729.');
    expect(error?.statusCode).toBe(500);
    expect(r.events).toEqual(['error', 'close']);
    expect(server.to('/sse/fillevent')).toHaveLength(1);
  });

  it('an unreachable server is SSE_CONNECTION_FAILED', async () => {
    const unreachable = new AggregatorClient({ apiUrl: 'http://127.0.0.1:1', logger: silentLogger });
    const error = await unreachable.subscribeToFills('polymarket', '1').done;
    expect(error?.code).toBe('ERR_SSE_CONNECT');
  });

  it('a handler that throws does not break the stream', async () => {
    const connected = streamOnConnect();
    const seen: number[] = [];
    const sub = client().subscribeToFills('polymarket', '1', {
      onFill: (fill) => {
        seen.push(fill.timestamp);
        throw new Error('handler bug');
      },
    });
    const stream = await connected;
    stream.send('{"price":0.5,"volumeBase":1,"timestamp":1}');
    stream.send('{"price":0.5,"volumeBase":1,"timestamp":2}');
    await expect.poll(() => seen).toEqual([1, 2]);
    expect(sub.state).toBe('open');
    sub.close();
  });

  it('checks protocol and id before connecting', () => {
    expect(() => client().subscribeToFills('', '1')).toThrow("Missing required parameter 'protocol'.");
    expect(() => client().subscribeToFills('polymarket', '')).toThrow("Missing required parameter 'id'.");
    expect(server.requests).toHaveLength(0);
  });

  it('without any EventSource support it throws ENVIRONMENT_ERROR before checking its arguments', () => {
    const saved = { fetch: globalThis.fetch, EventSource: (globalThis as { EventSource?: unknown }).EventSource };
    // A runtime with neither EventSource nor fetch cannot be had on demand: remove them for this call only.
    Object.assign(globalThis, { fetch: undefined, EventSource: undefined });
    try {
      expect(() => client().subscribeToFills('', '')).toThrow(
        'EventSource is not available in this environment. Ensure you are in a browser or have a suitable polyfill.',
      );
      try {
        client().subscribeToFills('', '');
      } catch (error) {
        expect((error as PmDeskError).code).toBe('ERR_ENVIRONMENT');
      }
    } finally {
      Object.assign(globalThis, saved);
    }
  });

  it('uses an EventSource the caller hands in (the browser one, say)', async () => {
    const { EventSource } = await import('eventsource');
    const urls: string[] = [];
    class Recording extends EventSource {
      constructor(url: string | URL, init?: ConstructorParameters<typeof EventSource>[1]) {
        super(url, init);
        urls.push(String(url));
      }
    }
    const connected = streamOnConnect();
    const c = new AggregatorClient({ apiUrl: server.url, logger: silentLogger, EventSource: Recording });
    const r = recorder();
    const sub = c.subscribeToFills('polymarket', 'a b', r.handlers);
    (await connected).send('{"price":0.2,"volumeBase":1,"timestamp":9}');
    await r.until('fill');
    expect(urls).toEqual([`${server.url}/sse/fillevent?protocol=polymarket&id=a+b`]);
    sub.close();
  });
});
