// End-to-end latency of the live book (issue 6): from a loopback WebSocket server's send of a price_change to
// the coalesced update the feed hands the app (hash recomputed and checked on the way), p50/p99. Two runs:
// paced (one change, then wait for its update: the 16 ms frame is most of it) and a steady stream of changes
// every millisecond (each change's latency is to the first update that includes it).
import { WebSocketServer, type WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { MarketFeed, type BookView } from '../src/main/feeds/market-feed';
import { ScriptedBook } from '../tests/helpers/ws-fixture';

const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

export async function runFeedLatencyBench(): Promise<{ paced: { p50: number; p99: number }; stream: { p50: number; p99: number } }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const socketReady = new Promise<WebSocket>((resolve) => server.once('connection', (socket) => socket.once('message', () => resolve(socket))));
  let onView: (view: BookView) => void = () => undefined;
  const feed = new MarketFeed({
    wsUrl: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`,
    fetchBook: () => Promise.reject(new Error('the benchmark never resyncs')),
    handlers: { onBook: (view) => onView(view), onWarning: (w) => console.warn('  warning:', w) },
  });
  feed.subscribe([TOKEN]);
  feed.start();
  const socket = await socketReady;

  const book = new ScriptedBook(TOKEN, '0xbench', 1);
  for (let i = 1; i <= 50; i++) {
    book.bids.set((0.5 - i * 0.001).toFixed(3).replace(/0+$/, ''), '100');
    book.asks.set((0.5 + i * 0.001).toFixed(3).replace(/0+$/, ''), '100');
  }
  const first = new Promise<void>((resolve) => (onView = () => resolve()));
  socket.send(JSON.stringify(book.bookMessage()));
  await first;

  // Paced: one change at a time.
  const paced: number[] = [];
  for (let i = 0; i < 300; i++) {
    const message = JSON.stringify(book.change('BUY', '0.45', String(100 + (i % 50))));
    const ts = book.timestamp;
    const done = new Promise<number>((resolve) => (onView = (view) => view.timestamp === ts && resolve(performance.now())));
    const sent = performance.now();
    socket.send(message);
    paced.push((await done) - sent);
  }

  // Stream: a change every millisecond for 3 s.
  const sentAt = new Map<number, number>();
  const stream: number[] = [];
  onView = (view) => {
    const now = performance.now();
    for (const [ts, at] of sentAt) {
      if (ts > view.timestamp) break;
      stream.push(now - at);
      sentAt.delete(ts);
    }
  };
  const changes = 3000;
  for (let i = 0; i < changes; i++) {
    const message = JSON.stringify(book.change(i % 2 ? 'BUY' : 'SELL', i % 2 ? '0.44' : '0.56', String(1 + (i % 90))));
    sentAt.set(book.timestamp, performance.now());
    socket.send(message);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  while (sentAt.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  if (feed.resyncs !== 0) throw new Error('the feed resynced: the benchmark is broken');

  feed.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const result = { paced: { p50: pct(paced, 50), p99: pct(paced, 99) }, stream: { p50: pct(stream, 50), p99: pct(stream, 99) } };
  console.log('\nLive book latency: loopback server send → coalesced update (16 ms frames, hash checked)');
  console.log(`  paced, ${paced.length} changes one at a time     p50 ${result.paced.p50.toFixed(2)} ms   p99 ${result.paced.p99.toFixed(2)} ms`);
  console.log(`  stream, ${stream.length} changes, one per ms    p50 ${result.stream.p50.toFixed(2)} ms   p99 ${result.stream.p99.toFixed(2)} ms`);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) void runFeedLatencyBench();
