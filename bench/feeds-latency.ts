// End-to-end latency of the live book (issue 6): from a loopback WebSocket server's send of a price_change to
// the coalesced update the feed hands the app (hash recomputed and checked on the way), p50/p99. Two runs:
// paced (one change, then wait for its update: the 16 ms frame is most of it) and a steady stream of changes
// every millisecond (each change's latency is to the first update that includes it). Then against the sandbox
// CLOB's /ws/market with real orders: from the server time a change carries (ms, the same machine's clock)
// to the coalesced update.
import { parseUnits, type Wallet } from 'ethers';
import { WebSocketServer, type WebSocket } from 'ws';
import { l2Request, signedOrderJson, startClobSandbox } from '../tests/helpers/sandbox-clob';
import type { AddressInfo } from 'node:net';
import { MarketFeed, type BookView } from '../src/main/feeds/market-feed';
import { ScriptedBook } from '../tests/helpers/ws-fixture';

const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

export async function runFeedLatencyBench(): Promise<{
  paced: { p50: number; p99: number };
  stream: { p50: number; p99: number };
}> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const socketReady = new Promise<WebSocket>((resolve) =>
    server.once('connection', (socket) => socket.once('message', () => resolve(socket))),
  );
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
    const done = new Promise<number>(
      (resolve) => (onView = (view) => view.timestamp === ts && resolve(performance.now())),
    );
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
  const result = {
    paced: { p50: pct(paced, 50), p99: pct(paced, 99) },
    stream: { p50: pct(stream, 50), p99: pct(stream, 99) },
  };
  console.log('\nLive book latency: loopback server send → coalesced update (16 ms frames, hash checked)');
  console.log(
    `  paced, ${paced.length} changes one at a time     p50 ${result.paced.p50.toFixed(2)} ms   p99 ${result.paced.p99.toFixed(2)} ms`,
  );
  console.log(
    `  stream, ${stream.length} changes, one per ms    p50 ${result.stream.p50.toFixed(2)} ms   p99 ${result.stream.p99.toFixed(2)} ms`,
  );
  return result;
}

export async function runSandboxFeedLatencyBench(orders = 150): Promise<{ p50: number; p99: number }> {
  const sb = await startClobSandbox({ orderVersion: 2 });
  try {
    const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
    const latencies: number[] = [];
    let waiting: ((view: BookView) => void) | undefined;
    const feed = new MarketFeed({
      wsUrl: `${sb.server.url.replace(/^http/, 'ws')}/ws`,
      fetchBook: async (tokenId) => (await (await fetch(`${sb.server.url}/book?token_id=${tokenId}`)).json()) as never,
      handlers: {
        onBook: (view) => {
          if (view.tokenId !== yes) return;
          latencies.push(Date.now() - view.timestamp);
          waiting?.(view);
        },
      },
    });
    const first = new Promise<BookView>((resolve) => (waiting = resolve));
    feed.subscribe([yes, no]);
    feed.start();
    await first;
    latencies.length = 0;
    const alice = sb.wallets[0] as Wallet;
    const c = sb.server.apiKeyFor(alice.address);
    const creds = { key: c.apiKey, secret: c.secret, passphrase: c.passphrase };
    for (let i = 0; i < orders; i++) {
      const price = 0.05 + (i % 25) * 0.01;
      const shares = parseUnits('5', 6);
      const order = await signedOrderJson(sb, alice, {
        tokenId: yes,
        side: 'BUY',
        makerAmount: parseUnits((price * 5).toFixed(6), 6),
        takerAmount: shares,
      });
      const updated = new Promise<BookView>((resolve) => (waiting = resolve));
      const response = await l2Request(
        sb.server.url,
        alice,
        creds,
        'POST',
        '/order',
        JSON.stringify({ deferExec: false, postOnly: false, order, owner: creds.key, orderType: 'GTC' }),
      );
      if (response.status !== 200) throw new Error(`order refused: ${JSON.stringify(response.body)}`);
      await updated;
    }
    if (feed.resyncs !== 0 || !feed.hashChecked(yes))
      throw new Error('the feed resynced or skipped hash checks: the benchmark is broken');
    feed.close();
    const result = { p50: pct(latencies, 50), p99: pct(latencies, 99) };
    console.log(
      `  sandbox CLOB, ${latencies.length} orders → updates     p50 ${result.p50} ms   p99 ${result.p99} ms   (server time → update, ms resolution)`,
    );
    return result;
  } finally {
    await sb.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runFeedLatencyBench();
  await runSandboxFeedLatencyBench();
}
