// The market feed against a real WebSocket server on loopback with scripted messages: books from snapshot and
// deltas, hash mismatches and crossed books resynced from REST, replays and stale messages ignored, PING sent,
// stale books marked, reconnects rebuilt from fresh snapshots, a tick-size change warned, bursts coalesced (the first
// change after a quiet frame at once, the rest folded into the frame's end), several busy markets every other frame.
// Time (PING, stale, backoff, frames) moves only through the injected scheduler.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MarketFeed,
  type BookView,
  type FeedWarning,
  type MarketFeedState,
  type RestBook,
} from '../../src/main/feeds/market-feed';
import { ManualScheduler } from '../../src/main/feeds/scheduler';
import { FrameClock } from '../../src/main/feeds/frame-clock';
import { ScriptedBook, WsFixture } from '../helpers/ws-fixture';
import { until } from '../helpers/until';

const TOKEN = '1111';
const OTHER = '2222';
const MARKET = '0xcond';

let server: WsFixture;
let feed: MarketFeed | undefined;
beforeAll(async () => {
  server = await WsFixture.start();
});
afterAll(async () => {
  await server.stop();
});
afterEach(() => {
  feed?.close();
  feed = undefined;
});

/** Yields to the event loop until `check` holds (the feed is waited on, never the clock). */
function open(restBooks: Map<string, RestBook> = new Map(), options: { staleMs?: number } = {}) {
  const clock = new ManualScheduler();
  const books: BookView[] = [];
  const states: MarketFeedState[] = [];
  const warnings: FeedWarning[] = [];
  const stale: [string, boolean][] = [];
  const fetched: string[] = [];
  const f = new MarketFeed({
    wsUrl: server.wsUrl,
    scheduler: clock,
    staleMs: options.staleMs ?? 30_000,
    backoffMs: { initial: 500, max: 8_000 },
    fetchBook: async (tokenId) => {
      fetched.push(tokenId);
      const book = restBooks.get(tokenId);
      if (!book) throw new Error('no such book');
      return book;
    },
    handlers: {
      onBook: (v) => books.push(v),
      onState: (s) => states.push(s),
      onWarning: (w) => warnings.push(w),
      onStale: (t, s) => stale.push([t, s]),
    },
  });
  feed = f;
  base = server.connections.length;
  return { feed: f, clock, books, states, warnings, stale, fetched };
}

/** Connections of this test only (the server outlives each test). */
let base = 0;
async function connected(index: number, f: MarketFeed) {
  const connection = await server.connection(base + index);
  await connection.receivedCount(1);
  await until(() => f.state === 'live', 'live');
  return connection;
}

describe('market feed', () => {
  it('subscribes as Polymarket expects and builds the book from a snapshot and deltas', async () => {
    const t = open();
    t.feed.subscribe([TOKEN]);
    t.feed.start();
    const c = await connected(0, t.feed);
    expect(c.path).toBe('/ws/market');
    expect(JSON.parse(c.received[0]!)).toEqual({ assets_ids: [TOKEN], type: 'market', custom_feature_enabled: true });

    const book = new ScriptedBook(TOKEN, MARKET, 1000);
    book.bids.set('0.45', '100');
    book.bids.set('0.44', '200');
    book.asks.set('0.47', '25.5');
    c.send(book.bookMessage());
    // Leading edge: the snapshot goes out at once, with no frame waited (the clock has not moved)…
    await until(() => t.books.length === 1, 'the snapshot at once');
    expect(t.books[0]!.timestamp).toBe(1000);
    // An array of messages, as the channel may send.
    c.send([book.change('BUY', '0.46', '10'), book.change('SELL', '0.47', '0'), book.change('SELL', '0.5', '7')]);
    await until(() => t.feed.messages === 4, 'four messages');
    // …and the deltas after it in the same frame fold into the frame's end.
    expect(t.books).toHaveLength(1);
    t.clock.advance(16);

    expect(t.books).toHaveLength(2);
    expect(t.books[1]).toMatchObject({
      tokenId: TOKEN,
      market: MARKET,
      bids: [
        { price: 0.46, size: 10 },
        { price: 0.45, size: 100 },
        { price: 0.44, size: 200 },
      ],
      asks: [{ price: 0.5, size: 7 }],
      timestamp: 1003,
      tickSize: '0.01',
      stale: false,
    });
    expect(t.fetched).toEqual([]); // every hash matched: no resync
    expect(t.warnings).toEqual([]);

    t.feed.subscribe([OTHER]);
    await c.receivedCount(2);
    expect(JSON.parse(c.received[1]!)).toEqual({ assets_ids: [OTHER], operation: 'subscribe' });
    t.feed.unsubscribe([OTHER]);
    await c.receivedCount(3);
    expect(JSON.parse(c.received[2]!)).toEqual({ assets_ids: [OTHER], operation: 'unsubscribe' });
  });

  it('resyncs from GET /book when a change does not hash to the server’s', async () => {
    const book = new ScriptedBook(TOKEN, MARKET, 1000);
    book.bids.set('0.4', '100');
    book.asks.set('0.6', '100');
    const rest = new ScriptedBook(TOKEN, MARKET, 5000);
    rest.bids.set('0.41', '3');
    rest.asks.set('0.59', '4');
    const t = open(new Map([[TOKEN, rest.summary() as RestBook]]));
    t.feed.subscribe([TOKEN]);
    t.feed.start();
    const c = await connected(0, t.feed);
    c.send(book.bookMessage());
    const bad = book.change('BUY', '0.42', '9');
    (bad.price_changes as { hash: string }[])[0]!.hash = 'not-the-book-you-have';
    c.send(bad);
    await until(() => t.books.length > 0 || t.fetched.length > 0, 'resync');
    await until(() => t.feed.book(TOKEN)?.hash === rest.summary().hash, 'REST book applied');
    t.clock.advance(16);
    expect(t.fetched).toEqual([TOKEN]);
    expect(t.warnings).toEqual([{ kind: 'resync', tokenId: TOKEN, reason: 'hash mismatch' }]);
    expect(t.books.at(-1)).toMatchObject({
      bids: [{ price: 0.41, size: 3 }],
      asks: [{ price: 0.59, size: 4 }],
      timestamp: 5000,
    });
  });

  it('learns the hashed fields from one GET /book when the snapshot omits them, then checks each book it hands out', async () => {
    const book = new ScriptedBook(TOKEN, MARKET, 1000);
    book.bids.set('0.4', '100');
    const full = book.summary();
    const t = open(new Map([[TOKEN, full as RestBook]]));
    t.feed.subscribe([TOKEN]);
    t.feed.start();
    const c = await connected(0, t.feed);
    // As the channel sends it: no min_order_size, tick_size, neg_risk or last_trade_price, yet hashed with them.
    c.send({
      event_type: 'book',
      asset_id: TOKEN,
      market: MARKET,
      bids: full.bids,
      asks: full.asks,
      timestamp: full.timestamp,
      hash: full.hash,
    });
    await until(() => t.feed.hashChecked(TOKEN), 'hash template learnt');
    expect(t.fetched).toEqual([TOKEN]);
    expect(t.feed.resyncs).toBe(0);
    c.send(book.change('BUY', '0.41', '1'));
    const bad = book.change('BUY', '0.42', '1');
    (bad.price_changes as { hash: string }[])[0]!.hash = 'wrong';
    c.send(bad);
    await until(() => t.feed.messages === 3, 'both changes');
    // Hashed when handed out (the frame's end), not per message: the bad book is never handed out.
    const before = t.books.length;
    t.clock.advance(16);
    await until(() => t.feed.resyncs === 1, 'resync');
    expect(t.warnings).toEqual([{ kind: 'resync', tokenId: TOKEN, reason: 'hash mismatch' }]);
    expect(t.books.slice(before).some((b) => b.bids[0]?.price === 0.42)).toBe(false);
  });

  it('keeps a channel snapshot that arrives while a GET /book is still on its way', async () => {
    const book = new ScriptedBook(TOKEN, MARKET, 1000);
    book.bids.set('0.4', '100');
    let answer!: (b: RestBook) => void;
    const clock = new ManualScheduler();
    const f = new MarketFeed({
      wsUrl: server.wsUrl,
      scheduler: clock,
      fetchBook: () => new Promise((resolve) => (answer = resolve)),
    });
    feed = f;
    base = server.connections.length;
    f.subscribe([TOKEN]);
    f.start();
    const c = await connected(0, f);
    const old = book.summary();
    c.send(book.bookMessage());
    const bad = book.change('BUY', '0.41', '1');
    (bad.price_changes as { hash: string }[])[0]!.hash = 'wrong';
    c.send(bad);
    await until(() => f.resyncs === 1, 'resync asked');
    const fresh = new ScriptedBook(TOKEN, MARKET, 2000);
    fresh.bids.set('0.3', '7');
    c.send(fresh.bookMessage());
    await until(() => f.book(TOKEN)?.timestamp === 2000, 'channel snapshot');
    answer(old as RestBook); // the REST answer comes late, with the older book
    await new Promise((resolve) => setImmediate(resolve));
    expect(f.book(TOKEN)!.bids).toEqual([{ price: 0.3, size: 7 }]);
    expect(f.book(TOKEN)!.timestamp).toBe(2000);
  });

  it('does not hammer GET /book while it fails: one try, then after a doubling cooldown', async () => {
    const t = open(new Map()); // every GET /book fails
    t.feed.subscribe([TOKEN]);
    t.feed.start();
    const c = await connected(0, t.feed);
    const change = (ts: number) => ({
      event_type: 'price_change',
      market: MARKET,
      timestamp: String(ts),
      price_changes: [{ asset_id: TOKEN, price: '0.3', size: '1', side: 'BUY' }],
    });
    c.send(change(1)); // a change before any snapshot: resync
    await until(() => t.warnings.some((w) => w.kind === 'resync_failed'), 'first failure');
    for (let i = 2; i <= 6; i++) c.send(change(i));
    await until(() => t.feed.messages === 6, 'six messages');
    expect(t.fetched).toHaveLength(1);
    t.clock.advance(1_000);
    c.send(change(7));
    await until(() => t.warnings.filter((w) => w.kind === 'resync_failed').length === 2, 'second failure');
    expect(t.fetched).toHaveLength(2);
    t.clock.advance(1_999);
    c.send(change(8));
    await until(() => t.feed.messages === 8, 'eight messages');
    expect(t.fetched).toHaveLength(2); // the cooldown doubled to 2 s
  });

  it('resyncs a book that crossed', async () => {
    const book = new ScriptedBook(TOKEN, MARKET, 1000);
    book.bids.set('0.4', '100');
    book.asks.set('0.6', '100');
    const t = open(new Map([[TOKEN, book.summary() as RestBook]]));
    t.feed.subscribe([TOKEN]);
    t.feed.start();
    const c = await connected(0, t.feed);
    c.send(book.bookMessage());
    // A bid at 0.65 over an ask at 0.60 with no hash to check: only the crossing reveals the drift.
    c.send({
      event_type: 'price_change',
      market: MARKET,
      timestamp: '1001',
      price_changes: [{ asset_id: TOKEN, price: '0.65', size: '1', side: 'BUY' }],
    });
    await until(() => t.fetched.length === 1, 'resync');
    expect(t.warnings[0]).toEqual({ kind: 'resync', tokenId: TOKEN, reason: 'the book crossed' });
    await until(() => t.feed.book(TOKEN)?.bids[0]?.price === 0.4, 'REST book applied');
  });

  it('ignores replayed and older messages by timestamp', async () => {
    const book = new ScriptedBook(TOKEN, MARKET, 1000);
    book.bids.set('0.4', '100');
    const t = open(new Map([[TOKEN, book.summary() as RestBook]]));
    t.feed.subscribe([TOKEN]);
    t.feed.start();
    const c = await connected(0, t.feed);
    c.send(book.bookMessage());
    await until(() => t.books.length === 1, 'the snapshot at once');
    const first = book.change('BUY', '0.41', '5', 1001);
    const second = book.change('BUY', '0.41', '6', 1002);
    c.send(first);
    c.send(second);
    c.send(first); // a replay of an older message: its hash was seen, so it is dropped quietly
    c.send(second); // a duplicate of the latest
    const stale = book.bookMessage();
    c.send({ ...stale, timestamp: '900', bids: [{ price: '0.3', size: '1' }] }); // an old snapshot
    await until(() => t.feed.messages === 6, 'six messages');
    t.clock.advance(16);
    // The snapshot at once (leading edge), then one folded book: the newest, never an older one after it.
    expect(t.books).toHaveLength(2);
    expect(t.books[0]!.timestamp).toBe(1000);
    expect(t.books[1]!.bids).toEqual([
      { price: 0.41, size: 6 },
      { price: 0.4, size: 100 },
    ]);
    expect(t.books[1]!.timestamp).toBe(1002);
    expect(t.fetched).toEqual([]);

    // An older change never seen before is not a replay: something was missed, so the book is resynced.
    c.send({
      event_type: 'price_change',
      market: MARKET,
      timestamp: '999',
      price_changes: [{ asset_id: TOKEN, price: '0.2', size: '1', side: 'BUY', hash: 'unseen' }],
    });
    await until(() => t.fetched.length === 1, 'resync after out-of-order change');
    expect(t.warnings[0]).toMatchObject({ reason: 'a change arrived out of order' });
  });

  it('sends PING every 10 s and marks a silent book stale, then live again', async () => {
    const t = open(new Map(), { staleMs: 30_000 });
    t.feed.subscribe([TOKEN]);
    t.feed.start();
    const c = await connected(0, t.feed);
    const book = new ScriptedBook(TOKEN, MARKET, 1000);
    c.send(book.bookMessage());
    await until(() => t.feed.messages === 1, 'snapshot');
    t.clock.advance(10_000);
    await c.receivedCount(2);
    expect(c.received[1]).toBe('PING');
    t.clock.advance(10_000);
    await c.receivedCount(3);
    expect(c.received[2]).toBe('PING');
    expect(t.stale).toEqual([]);
    t.clock.advance(10_000);
    expect(t.stale).toEqual([[TOKEN, true]]);
    expect(t.feed.state).toBe('stale');
    t.clock.advance(16);
    expect(t.books.at(-1)).toMatchObject({ stale: true });
    c.send(book.change('BUY', '0.3', '1'));
    await until(() => t.feed.state === 'live', 'live again');
    expect(t.stale).toEqual([
      [TOKEN, true],
      [TOKEN, false],
    ]);
  });

  it('offers the whole book as the exchange lists it (best last) only while it is live and checked by hash', async () => {
    const t = open(new Map(), { staleMs: 30_000 });
    t.feed.subscribe([TOKEN, OTHER]);
    t.feed.start();
    const c = await connected(0, t.feed);
    const book = new ScriptedBook(TOKEN, MARKET, 1000);
    book.bids.set('0.45', '100');
    book.bids.set('0.44', '200');
    book.asks.set('0.55', '30');
    book.asks.set('0.6', '70');
    c.send(book.bookMessage());
    c.send(book.change('SELL', '0.55', '0'));
    await until(() => t.feed.messages === 2, 'the snapshot and a change');
    expect(t.feed.hashChecked(TOKEN)).toBe(true);
    expect(t.feed.exchangeBook(TOKEN)).toEqual({
      bids: [
        { price: '0.44', size: '200' },
        { price: '0.45', size: '100' },
      ],
      asks: [{ price: '0.6', size: '70' }],
    });
    // No snapshot yet: nothing to price by.
    expect(t.feed.exchangeBook(OTHER)).toBeUndefined();
    // Silent past staleMs: stale, and not offered until a message brings it back.
    t.clock.advance(30_000);
    expect(t.feed.state).toBe('stale');
    expect(t.feed.exchangeBook(TOKEN)).toBeUndefined();
    c.send(book.change('BUY', '0.3', '1'));
    await until(() => t.feed.state === 'live', 'live again');
    expect(t.feed.exchangeBook(TOKEN)?.bids[0]).toEqual({ price: '0.3', size: '1' });
  });

  it('keeps a connection that answers PONG live while its quiet books go stale, and drops one that never answers', async () => {
    const t = open(new Map(), { staleMs: 30_000 });
    t.feed.subscribe([TOKEN]);
    t.feed.start();
    const c = await connected(0, t.feed);
    c.socket.on('message', (data) => String(data) === 'PING' && c.socket.send('PONG'));
    c.send(new ScriptedBook(TOKEN, MARKET, 1000).bookMessage());
    await until(() => t.feed.messages === 1, 'snapshot');
    for (let i = 1; i <= 4; i++) {
      t.clock.advance(10_000);
      await until(() => t.feed.pongs === i, `PONG ${i}`);
    }
    expect(t.stale).toEqual([[TOKEN, true]]);
    expect(t.feed.state).toBe('live');

    // Now the server stops answering: stale once 30 s of silence are seen (checked every 7.5 s), closed and
    // replaced once 60 s are.
    c.socket.removeAllListeners('message');
    t.clock.advance(27_000);
    expect(t.feed.state).toBe('live');
    t.clock.advance(8_000);
    expect(t.feed.state).toBe('stale');
    t.clock.advance(30_000);
    await until(() => t.feed.state === 'reconnecting', 'dropped');
  });

  it('reconnects with backoff after a dropped connection and rebuilds the book from the new snapshot', async () => {
    const t = open();
    t.feed.subscribe([TOKEN]);
    t.feed.start();
    const first = await connected(0, t.feed);
    const book = new ScriptedBook(TOKEN, MARKET, 1000);
    book.bids.set('0.4', '100');
    first.send(book.bookMessage());
    await until(() => t.feed.messages === 1, 'snapshot');
    first.socket.terminate();
    await until(() => t.feed.state === 'reconnecting', 'reconnecting');
    t.clock.advance(499);
    expect(server.connections).toHaveLength(base + 1); // the backoff has not run out
    t.clock.advance(1);
    const second = await connected(1, t.feed);
    expect(JSON.parse(second.received[0]!)).toEqual({
      assets_ids: [TOKEN],
      type: 'market',
      custom_feature_enabled: true,
    });
    // The book moved while the feed was away; the new snapshot replaces it whole, older timestamp or not.
    const fresh = new ScriptedBook(TOKEN, MARKET, 1000);
    fresh.bids.set('0.35', '9');
    second.send(fresh.bookMessage());
    await until(() => t.feed.book(TOKEN)?.bids[0]?.price === 0.35, 'fresh snapshot');
    expect(t.feed.book(TOKEN)!.bids).toEqual([{ price: 0.35, size: 9 }]);
    expect(t.states).toEqual(['connecting', 'live', 'reconnecting', 'live']);
  });

  it('doubles the backoff while the server refuses, up to the cap', async () => {
    const delays: number[] = [];
    const clock = new ManualScheduler();
    const setTimeout = clock.setTimeout.bind(clock);
    clock.setTimeout = (fn, ms) => {
      delays.push(ms);
      return setTimeout(fn, ms);
    };
    const f = new MarketFeed({
      wsUrl: 'ws://127.0.0.1:1/ws',
      scheduler: clock,
      fetchBook: () => Promise.reject(new Error('none')),
      backoffMs: { initial: 500, max: 2_000 },
    });
    feed = f;
    f.start();
    for (let i = 1; i <= 4; i++) {
      await until(() => delays.length === i, `attempt ${i}`);
      clock.advance(delays[i - 1]!);
    }
    expect(delays).toEqual([500, 1000, 2000, 2000]);
  });

  it('warns on a tick-size change and carries the new tick', async () => {
    const t = open();
    t.feed.subscribe([TOKEN]);
    t.feed.start();
    const c = await connected(0, t.feed);
    c.send(new ScriptedBook(TOKEN, MARKET, 1000).bookMessage());
    c.send({
      event_type: 'tick_size_change',
      asset_id: TOKEN,
      market: MARKET,
      old_tick_size: '0.01',
      new_tick_size: '0.001',
    });
    await until(() => t.feed.messages === 2, 'two messages');
    t.clock.advance(16);
    expect(t.warnings).toEqual([
      { kind: 'tick_size_change', tokenId: TOKEN, market: MARKET, oldTickSize: '0.01', newTickSize: '0.001' },
    ]);
    expect(t.books.at(-1)!.tickSize).toBe('0.001');
  });

  it("checks a handed-out book against the fields its change was hashed with, not a later trade's", async () => {
    const t = open();
    t.feed.subscribe([TOKEN]);
    t.feed.start();
    const c = await connected(0, t.feed);
    const book = new ScriptedBook(TOKEN, MARKET, 1000);
    book.bids.set('0.4', '100');
    c.send(book.bookMessage());
    await until(() => t.books.length === 1, 'the snapshot at once');
    c.send(book.change('BUY', '0.41', '5'));
    // A trade after the change: the exchange's next hash covers its price, the change's did not.
    c.send({
      event_type: 'last_trade_price',
      asset_id: TOKEN,
      market: MARKET,
      price: '0.41',
      size: '5',
      side: 'BUY',
      timestamp: '1002',
    });
    await until(() => t.feed.messages === 3, 'three messages');
    t.clock.advance(16);
    expect(t.feed.resyncs).toBe(0);
    expect(t.books.at(-1)).toMatchObject({
      timestamp: 1001,
      bids: [
        { price: 0.41, size: 5 },
        { price: 0.4, size: 100 },
      ],
    });
  });

  it('coalesces a burst of 1,000 changes into one update per token per frame', async () => {
    const t = open();
    t.feed.subscribe([TOKEN, OTHER]);
    t.feed.start();
    const c = await connected(0, t.feed);
    const a = new ScriptedBook(TOKEN, MARKET, 1000);
    const b = new ScriptedBook(OTHER, MARKET, 1000);
    c.send(a.bookMessage());
    await until(() => t.books.length === 1, 'the first snapshot at once');
    c.send(b.bookMessage());
    for (let i = 0; i < 1000; i++)
      c.send(i % 2 ? a.change('BUY', '0.4', String(i + 1)) : b.change('SELL', '0.6', String(i + 1)));
    await until(() => t.feed.messages === 1002, 'the burst');
    // Everything after the first snapshot (sent at once) waits for the frame's end.
    expect(t.books).toHaveLength(1);
    expect(t.books[0]).toMatchObject({ tokenId: TOKEN, timestamp: 1000 });
    t.clock.advance(16);
    const folded = t.books.slice(1);
    expect(folded.map((v) => v.tokenId).sort()).toEqual([OTHER, TOKEN].sort());
    expect(folded.find((v) => v.tokenId === TOKEN)!.bids).toEqual([{ price: 0.4, size: 1000 }]);
    expect(folded.find((v) => v.tokenId === OTHER)!.asks).toEqual([{ price: 0.6, size: 999 }]);
    t.clock.advance(1_000);
    expect(t.books).toHaveLength(3); // quiet frames send nothing
    expect(t.fetched).toEqual([]);
  });

  // Several busy markets share the window's frames (feeds/busy-markets.ts): two markets changing every frame go
  // out every frame until both have gone out 20 times within a second, then every other frame; when one goes quiet
  // the other is back on every frame within the second. Aligned to the window's frames, or on the fixed fold.
  it.each([
    ["aligned to the window's frames", true],
    ['on the fixed fold', false],
  ])('hands out several busy markets every other frame, one busy market every frame (%s)', async (_how, aligned) => {
    const clock = new ManualScheduler();
    const frames = new FrameClock(6);
    frames.tell(clock.now(), 16, clock.now());
    const out = new Map<string, number[]>();
    const f = new MarketFeed({
      wsUrl: server.wsUrl,
      scheduler: clock,
      staleMs: 60_000,
      fetchBook: async () => Promise.reject(new Error('no REST here')),
      frameClock: aligned ? frames : undefined,
      handlers: { onBook: (v) => (out.get(v.market) ?? out.set(v.market, []).get(v.market)!).push(clock.now()) },
    });
    feed = f;
    base = server.connections.length;
    f.subscribe([TOKEN, OTHER]);
    f.start();
    const c = await connected(0, f);
    const a = new ScriptedBook(TOKEN, '0xa', 1000);
    const b = new ScriptedBook(OTHER, '0xb', 1000);
    c.send(a.bookMessage());
    c.send(b.bookMessage());
    await until(() => f.messages === 2, 'the snapshots');
    // One change to each busy book every 16 ms of the feed's clock, for `count` frames.
    const run = async (count: number, books: ScriptedBook[]) => {
      for (let i = 0; i < count; i++) {
        const before = f.messages;
        for (const book of books) c.send(book.change('BUY', '0.4', String(100 + (book.timestamp % 50))));
        await until(() => f.messages === before + books.length, 'the changes');
        clock.advance(16);
      }
    };
    const gaps = (market: string, from: number) => {
      const times = out.get(market)!.filter((t) => t >= from);
      return times.slice(1).map((t, i) => t - times[i]!);
    };
    const start = clock.now();
    await run(60, [a, b]);
    // Every frame at first; every other one from the 20th hand-out on.
    expect(gaps('0xa', start).slice(1, 15)).toEqual(Array(14).fill(16));
    expect(gaps('0xb', start).slice(1, 15)).toEqual(Array(14).fill(16));
    expect(gaps('0xa', start).slice(-10)).toEqual(Array(10).fill(32));
    expect(gaps('0xb', start).slice(-10)).toEqual(Array(10).fill(32));
    // b goes quiet: within the second a is alone among the busy, and back on every frame.
    const quiet = clock.now();
    await run(70, [a]);
    expect(out.get('0xb')!.filter((t) => t > quiet + 32)).toEqual([]);
    expect(gaps('0xa', quiet).slice(-20)).toEqual(Array(20).fill(16));
  });
});
