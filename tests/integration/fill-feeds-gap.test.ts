// subscribeFills' streams over the real aggregator client and a fixture SSE server that drops them: a followed
// market's dropped stream is opened again with backoff, `feedStatus` says connecting (with why), then open, and a
// `tapeGap` covers exactly the time it was down; fills flow again after it; the last client leaving closes the
// stream and nothing reopens it. The clock is injected; waits are on requests and events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, TerminalEvents } from '../../src/shared/contract';
import { AggregatorClient } from '../../packages/toolkit/src/aggregator/client';
import { silentLogger } from '../../packages/toolkit/src/base/logger';
import { ManualScheduler } from '../../src/main/feeds/scheduler';
import { EventHub } from '../../src/main/ipc/event-hub';
import { FillFeeds } from '../../src/main/follow/fill-feeds';
import type { FillHandlers, FillSubscription } from '../../packages/toolkit/src/model/market-source';
import { startFixtureServer, type FixtureServer, type SseStream } from '../helpers/fixture-server';
import { until } from '../helpers/until';

let server: FixtureServer;
const streams: SseStream[] = [];
beforeAll(async () => {
  server = await startFixtureServer();
  server.on('GET', '/sse/fillevent', (_r, reply) => {
    streams.push(reply.sse());
  });
});
afterAll(async () => {
  await server.stop();
});

describe('followed fills across a dropped stream', () => {
  it('reconnects with backoff, says so, and marks the gap once the stream is back', async () => {
    const clock = new ManualScheduler();
    const client = new AggregatorClient({ apiUrl: server.url, logger: silentLogger });
    const hub = new EventHub();
    const heard: { event: EventName; payload: unknown }[] = [];
    hub.connect('a', <E extends EventName>(event: E, payload: TerminalEvents[E]) => heard.push({ event, payload }));
    const feeds = new FillFeeds(
      (protocol, marketId, handlers) => client.subscribeToFills(protocol, marketId, handlers),
      hub,
      {
        scheduler: clock,
        backoffMs: { initial: 1_000, max: 8_000 },
      },
    );
    const of = <E extends EventName>(event: E) =>
      heard.filter((h) => h.event === event).map((h) => h.payload as TerminalEvents[E]);

    expect(feeds.follow('a', 'polymarket', '506729')).toEqual({ marketId: '506729', state: 'connecting' });
    await until(() => streams.length === 1 && of('feedStatus').some((s) => s.state === 'open'), 'first stream open');
    streams[0]!.send(JSON.stringify({ price: 0.5, volumeBase: 10, timestamp: 1_700_000_000 }));
    await until(() => of('fill').length === 1, 'first fill');
    expect(of('fill')[0]).toEqual({
      marketId: '506729',
      fill: { price: 0.5, volumeBase: 10, timestamp: 1_700_000_000 },
    });

    clock.advance(5_000);
    const downAt = clock.now();
    streams[0]!.destroy();
    await until(() => of('feedStatus').length === 3, 'dropped');
    const dropped = of('feedStatus')[2]!;
    expect(dropped).toMatchObject({
      feed: 'fills',
      marketId: '506729',
      state: 'connecting',
      error: { code: expect.stringMatching(/^ERR_/) },
    });

    clock.advance(999);
    expect(streams).toHaveLength(1); // still backing off
    clock.advance(1);
    await until(() => streams.length === 2 && of('tapeGap').length === 1, 'back, with a gap');
    expect(of('feedStatus').map((s) => s.state)).toEqual(['connecting', 'open', 'connecting', 'open']);
    expect(of('tapeGap')).toEqual([{ marketId: '506729', from: downAt, to: downAt + 1_000 }]);
    // The gap is said after the stream is open again.
    const order = heard.filter((h) => h.event === 'feedStatus' || h.event === 'tapeGap').map((h) => h.event);
    expect(order.slice(-2)).toEqual(['feedStatus', 'tapeGap']);

    streams[1]!.send(JSON.stringify({ price: 0.6, volumeBase: 1, timestamp: 1_700_000_008 }));
    await until(() => of('fill').length === 2, 'fill after the gap');

    expect(feeds.unfollow('a', '506729')).toBe(true);
    expect(feeds.followed()).toEqual([]);
    clock.advance(60_000);
    expect(streams).toHaveLength(2); // nobody follows it: not reopened
    feeds.closeAll();
  });
});

describe('followed fills from a source that falls back to polling', () => {
  it("says `source: 'polling'` on the feed's status while the source polls, and live again after", async () => {
    const hub = new EventHub();
    const heard: { event: EventName; payload: unknown }[] = [];
    hub.connect('a', <E extends EventName>(event: E, payload: TerminalEvents[E]) => heard.push({ event, payload }));
    let handlers: FillHandlers | undefined;
    const source = (_protocol: string, _marketId: string, given: FillHandlers): FillSubscription => {
      handlers = given;
      return { state: 'open', latest: () => null, close: () => given.onClose?.(), done: new Promise(() => {}) };
    };
    const feeds = new FillFeeds(source, hub, { scheduler: new ManualScheduler() });
    const statuses = () =>
      heard.filter((h) => h.event === 'feedStatus').map((h) => h.payload as TerminalEvents['feedStatus']);

    feeds.follow('a', 'polymarket', '506729');
    handlers!.onMode?.('polling');
    handlers!.onOpen?.();
    handlers!.onMode?.('polling');
    handlers!.onMode?.('live');
    expect(statuses()).toEqual([
      { feed: 'fills', marketId: '506729', state: 'connecting' },
      { feed: 'fills', marketId: '506729', state: 'open', source: 'polling' },
      { feed: 'fills', marketId: '506729', state: 'open', source: 'live' },
    ]);
    feeds.closeAll();
  });
});
