// subscribeBook through the contract when the profile names a wsUrl: the market's tokens come from one
// aggregator read, their books from the exchange's market WebSocket (a real ws server on loopback), pushed as
// bookUpdate events in the contract's shape; a hash mismatch is resynced from the CLOB's GET /book (a fixture
// HTTP server); unsubscribing unsubscribes on the socket and closes the feed. Waits are on events only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowOrigins } from '../../src/main/ipc/router';
import { openTerminal, type Terminal } from '../../src/main/terminal/terminal';
import { LiveBookFeeds } from '../../src/main/follow/live-book-feeds';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { NO_TOKEN, YES_TOKEN, books } from '../helpers/aggregator-fixtures';
import { ScriptedBook, WsFixture } from '../helpers/ws-fixture';
import { EventHub } from '../../src/main/ipc/event-hub';
import { ManualScheduler } from '../../src/main/feeds/scheduler';
import { hubClient } from '../helpers/hub-client';

const APP = 'app://pmdesk';
let server: FixtureServer;
let ws: WsFixture;
let terminal: Terminal;
const rest = new ScriptedBook(YES_TOKEN, '0xabc', 9_000);
rest.bids.set('0.33', '3');

beforeAll(async () => {
  server = await startFixtureServer();
  ws = await WsFixture.start();
  server.json('GET', '/v1/markets/506729/orderbook', books);
  server.on('GET', '/book', (_r, reply) => reply.json(200, rest.summary()));
  terminal = openTerminal({
    profile: { name: 'fixture', chainId: 31338, clobUrl: server.url, aggregatorUrl: server.url, wsUrl: ws.wsUrl },
    shell: 'browser',
    allowSender: allowOrigins([APP]),
  });
});
afterAll(async () => {
  await terminal?.close();
  await ws?.stop();
  await server?.stop();
});

const client = (id: string) => hubClient(terminal, id, APP);

describe('live books through the contract', () => {
  it('follows the market WebSocket, resyncs on a bad hash, and unsubscribes', async () => {
    expect(terminal.services.books).toBeInstanceOf(LiveBookFeeds);
    const a = client('a');
    const open = a.next((e) => e.event === 'feedStatus' && (e.payload as { state: string }).state === 'open');
    expect(await a.call('subscribeBook', { marketId: '506729' })).toMatchObject({
      ok: true,
      value: { marketId: '506729', state: 'connecting' },
    });
    const c = await ws.connection(0);
    await c.receivedCount(1);
    expect(c.path).toBe('/ws/market');
    expect(JSON.parse(c.received[0]!)).toEqual({
      assets_ids: [YES_TOKEN, NO_TOKEN],
      type: 'market',
      custom_feature_enabled: true,
    });
    await open;

    const yes = new ScriptedBook(YES_TOKEN, '0xabc', 1_000);
    yes.bids.set('0.52', '1200');
    yes.bids.set('0.5', '10');
    yes.asks.set('0.54', '800');
    const first = a.next((e) => e.event === 'bookUpdate');
    c.send(yes.bookMessage());
    expect((await first).payload).toEqual({
      marketId: '506729',
      tokenId: YES_TOKEN,
      // The one Book shape the ladder draws: numbers, each side best first, named once (src/shared/book.ts).
      book: {
        tokenId: YES_TOKEN,
        market: '0xabc',
        timestamp: 1000,
        hash: yes.summary().hash,
        bids: [
          { price: 0.52, size: 1200 },
          { price: 0.5, size: 10 },
        ],
        asks: [{ price: 0.54, size: 800 }],
        tickSize: '0.01',
        stale: false,
      },
    });

    const resynced = a.next(
      (e) => e.event === 'bookUpdate' && (e.payload as { book: { timestamp: number } }).book.timestamp === 9000,
    );
    const bad = yes.change('BUY', '0.53', '1');
    (bad.price_changes as { hash: string }[])[0]!.hash = 'drifted';
    c.send(bad);
    expect(((await resynced).payload as { book: unknown }).book).toMatchObject({
      bids: [{ price: 0.33, size: 3 }],
      asks: [],
    });
    expect(server.to('/book').map((r) => r.query.get('token_id'))).toEqual([YES_TOKEN]);

    expect(await a.call('unsubscribeBook', { marketId: '506729' })).toMatchObject({
      ok: true,
      value: { wasSubscribed: true },
    });
    await c.receivedCount(2);
    expect(JSON.parse(c.received[1]!)).toEqual({ assets_ids: [YES_TOKEN, NO_TOKEN], operation: 'unsubscribe' });
    expect(terminal.services.books.followed()).toEqual([]);
  });

  it('says stale when the connection falls silent, and open again when it speaks', async () => {
    const hub = new EventHub();
    const heard: { event: string; payload: unknown }[] = [];
    hub.connect('c', (event, payload) => heard.push({ event, payload }));
    const clock = new ManualScheduler();
    const live = new LiveBookFeeds(async () => books as never, hub, {
      wsUrl: ws.wsUrl,
      fetchBook: async () => rest.summary() as never,
      scheduler: clock,
      staleMs: 30_000,
    });
    const base = ws.connections.length;
    live.follow('c', 'polymarket', '506729');
    const c = await ws.connection(base);
    await c.receivedCount(1);
    const states = () =>
      heard.filter((h) => h.event === 'feedStatus').map((h) => (h.payload as { state: string }).state);
    for (let i = 0; i < 200_000 && !states().includes('open'); i++)
      await new Promise((resolve) => setImmediate(resolve));
    expect(states()).toEqual(['open']);
    clock.advance(30_000); // no message, no PONG
    expect(states()).toEqual(['open', 'stale']);
    c.send('PONG');
    for (let i = 0; i < 200_000 && states().length < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(states()).toEqual(['open', 'stale', 'open']);
    live.closeAll();
  });

  it("pushes a tickSize event to the market's clients when the exchange changes its tick, and tells the order flow", async () => {
    const hub = new EventHub();
    const heard: { event: string; payload: unknown }[] = [];
    hub.connect('c', (event, payload) => heard.push({ event, payload }));
    hub.connect('other', (event, payload) => heard.push({ event: `other:${event}`, payload }));
    const toFlow: [string, string][] = [];
    const live = new LiveBookFeeds(
      async () => books as never,
      hub,
      { wsUrl: ws.wsUrl, fetchBook: async () => rest.summary() as never },
      (tokenId, tickSize) => toFlow.push([tokenId, tickSize]),
    );
    const base = ws.connections.length;
    live.follow('c', 'polymarket', '506729');
    const c = await ws.connection(base);
    await c.receivedCount(1);
    c.send(new ScriptedBook(YES_TOKEN, '0xabc', 1_000).bookMessage());
    c.send({
      event_type: 'tick_size_change',
      asset_id: YES_TOKEN,
      market: '0xabc',
      old_tick_size: '0.01',
      new_tick_size: '0.001',
      timestamp: '1001',
    });
    for (let i = 0; i < 200_000 && !heard.some((h) => h.event === 'tickSize'); i++)
      await new Promise((resolve) => setImmediate(resolve));
    expect(heard.filter((h) => h.event.endsWith('tickSize'))).toEqual([
      {
        event: 'tickSize',
        payload: {
          marketId: '506729',
          tokenId: YES_TOKEN,
          previous: '0.01',
          tickSize: '0.001',
          message: 'The tick size changed from 0.01 to 0.001: prices now move in steps of 0.001.',
        },
      },
    ]);
    // The order flow keeps the new tick for the next order (trading/exchange-terms.ts).
    expect(toFlow).toEqual([[YES_TOKEN, '0.001']]);
    live.closeAll();
  });

  it("pushes each last trade the channel announces to the market's clients only (the event board's last)", async () => {
    const hub = new EventHub();
    const heard: { event: string; payload: unknown }[] = [];
    hub.connect('c', (event, payload) => heard.push({ event, payload }));
    hub.connect('other', (event, payload) => heard.push({ event: `other:${event}`, payload }));
    const live = new LiveBookFeeds(async () => books as never, hub, {
      wsUrl: ws.wsUrl,
      fetchBook: async () => rest.summary() as never,
    });
    const base = ws.connections.length;
    live.follow('c', 'polymarket', '506729');
    const c = await ws.connection(base);
    await c.receivedCount(1);
    c.send(new ScriptedBook(NO_TOKEN, '0xabc', 1_000).bookMessage());
    const trade = { asset_id: NO_TOKEN, market: '0xabc', price: '0.62', size: '12', side: 'BUY', timestamp: '1002' };
    c.send({ event_type: 'last_trade_price', fee_rate_bps: '0', ...trade });
    // A token nobody follows is nobody's last trade.
    c.send({ event_type: 'last_trade_price', fee_rate_bps: '0', ...trade, asset_id: '999' });
    c.send({ event_type: 'last_trade_price', fee_rate_bps: '0', ...trade, price: '0.63', timestamp: '1003' });
    for (let i = 0; i < 200_000 && heard.filter((h) => h.event === 'lastTrade').length < 2; i++)
      await new Promise((resolve) => setImmediate(resolve));
    expect(heard.filter((h) => h.event.endsWith('lastTrade'))).toEqual([
      {
        event: 'lastTrade',
        payload: { marketId: '506729', tokenId: NO_TOKEN, price: 0.62, size: 12, side: 'BUY', timestamp: 1002 },
      },
      {
        event: 'lastTrade',
        payload: { marketId: '506729', tokenId: NO_TOKEN, price: 0.63, size: 12, side: 'BUY', timestamp: 1003 },
      },
    ]);
    live.closeAll();
  });
});
