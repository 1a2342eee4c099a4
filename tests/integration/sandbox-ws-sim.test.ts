// The whole sandbox (chain, CLOB, seeded market simulator) through the profile's wsUrl: a client subscribed to
// every outcome token of every market replays the books and price changes the bots' quotes, cancels and trades
// produce, and ends on exactly GET /book for every token (levels and hash). Waits are on messages only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSandbox, type RunningSandbox } from '../../sandbox/index';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whichever JSON the server sent
type Msg = any;
type Side = Map<string, string>;

let sandbox: RunningSandbox;
let ws: WebSocket | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ ports: { rpc: 0, clob: 0, aggregator: 0 }, simulate: 'manual', bots: 4, seed: 11 });
}, 60_000);
afterAll(async () => {
  ws?.terminate();
  await sandbox?.stop();
});

describe('the sandbox market channel under the simulator', () => {
  it('replays every book and price_change of 40 simulator steps to exactly GET /book', async () => {
    const tokens = sandbox.catalog.events.flatMap((e) => e.markets).flatMap((m) => m.tokens.map((t) => t.tokenId));
    const books = new Map<string, { bids: Side; asks: Side; hash: string }>();
    let pongs = 0;
    let onPong: (() => void) | undefined;
    const counts = { book: 0, price_change: 0, last_trade_price: 0 };
    const socket = new WebSocket(`${sandbox.profile.wsUrl}/market`);
    ws = socket;
    const take = (book: Msg) =>
      books.set(book.asset_id, {
        bids: new Map(book.bids.map((l: Msg) => [l.price, l.size])),
        asks: new Map(book.asks.map((l: Msg) => [l.price, l.size])),
        hash: book.hash,
      });
    socket.on('message', (data) => {
      const text = data.toString();
      if (text === 'PONG') {
        pongs++;
        onPong?.();
        return;
      }
      const message: Msg = JSON.parse(text);
      for (const m of Array.isArray(message) ? message : [message]) {
        if (m.event_type in counts) counts[m.event_type as keyof typeof counts]++;
        if (m.event_type === 'book') take(m);
        if (m.event_type === 'price_change') {
          for (const c of m.price_changes) {
            const book = books.get(c.asset_id)!;
            const side = c.side === 'BUY' ? book.bids : book.asks;
            if (c.size === '0') side.delete(c.price);
            else side.set(c.price, c.size);
            book.hash = c.hash;
          }
        }
      }
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    /** PING → PONG: everything the server sent before has been handled. */
    const sync = () =>
      new Promise<void>((resolve) => {
        const want = pongs + 1;
        onPong = () => pongs >= want && resolve();
        socket.send('PING');
      });
    socket.send(JSON.stringify({ assets_ids: tokens, type: 'market' }));
    await sync();
    expect([...books.keys()].sort()).toEqual([...tokens].sort());

    for (let i = 0; i < 40; i++) await sandbox.simulator!.tick();
    await sync();
    // The bots quoted, cancelled and traded: each kind of message came.
    expect(counts.price_change).toBeGreaterThan(0);
    expect(counts.last_trade_price).toBeGreaterThan(0);
    expect(counts.book).toBeGreaterThan(tokens.length);

    const sorted = (side: Side, ascending: boolean) =>
      [...side]
        .map(([price, size]) => ({ price, size }))
        .sort((a, b) => (ascending ? Number(a.price) - Number(b.price) : Number(b.price) - Number(a.price)));
    for (const token of tokens) {
      const rest = (await (await fetch(`${sandbox.profile.clobUrl}/book?token_id=${token}`)).json()) as Msg;
      const book = books.get(token)!;
      expect({ bids: sorted(book.bids, true), asks: sorted(book.asks, false), hash: book.hash }).toEqual({
        bids: rest.bids,
        asks: rest.asks,
        hash: rest.hash,
      });
    }
  });
});
