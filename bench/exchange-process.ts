// The benches' exchange in a process of its own, as Polymarket is a machine of its own: the whole sandbox, the
// busy books that move on its /ws/market (bench/busy-books.ts) and, when asked, a loopback proxy in front of its
// CLOB that notes when each POST /order arrives (epoch ms). Run by bench/exchange-client.ts with `fork`; it
// answers requests over the IPC channel. Were it in the bench's process, its work (hashing and sending thousands
// of books a second, checking signatures) would share a thread with the terminal's main, which it measures.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startSandbox, type RunningSandbox } from '../sandbox/index';
import { ForwardingProxy } from '../tests/helpers/forwarding-proxy';
import { BusyBook, driveBooks } from './busy-books';

/** What the bench asks; each request carries an id its answer repeats. */
export type ExchangeRequest =
  | { op: 'busy'; marketIds: string[] }
  | { op: 'drive'; rate: number; seconds: number }
  | { op: 'proxy' }
  | { op: 'arrivals' }
  | { op: 'requests'; since: number }
  | { op: 'clock' }
  | { op: 'stop' };

export interface ExchangeMarket {
  id: string;
  conditionId: string;
  question: string;
  tokens: [string, string];
  tickSize: string;
  negRisk: boolean;
  open: boolean;
}

/**
 * Forwards everything to the CLOB and notes each POST /order's arrival (its whole body read) on this clock, and
 * every request's method, path and arrival, to see what a client asks before it posts.
 */
class TimingProxy extends ForwardingProxy {
  readonly arrivals: number[] = [];
  readonly requests: { at: number; what: string }[] = [];

  protected async onRequest(req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
    const at = performance.timeOrigin + performance.now();
    this.requests.push({ at, what: `${req.method} ${req.url?.split('?')[0]}` });
    if (ForwardingProxy.isPost(req, '/order')) this.arrivals.push(at);
    ForwardingProxy.reply(res, await this.forward(req, body));
  }
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as { chainId?: number };
  const sandbox: RunningSandbox = await startSandbox({
    ports: { rpc: 0, clob: 0, aggregator: 0 },
    simulate: 'off',
    source: 'polymarket',
    ...options,
  });
  let books: BusyBook[] = [];
  let proxy: TimingProxy | undefined;

  const answer = async (request: ExchangeRequest): Promise<unknown> => {
    switch (request.op) {
      case 'busy':
        books = request.marketIds.map((id, i) => {
          const market = sandbox.catalog.market(id);
          if (!market) throw new Error(`no market ${id}`);
          const book = new BusyBook(sandbox.clob, market, { seed: 101 + i });
          book.publishCurrent();
          return book;
        });
        return books.map((b) => b.tokenId);
      case 'drive': {
        // The exchange's own CPU while it drives: on a machine it shares with the terminal, what it takes is not
        // the terminal's to use.
        const before = process.cpuUsage();
        const driven = await driveBooks(books, request.rate, request.seconds);
        const used = process.cpuUsage(before);
        return { ...driven, cpuMs: (used.user + used.system) / 1000 };
      }
      case 'proxy':
        proxy ??= new TimingProxy(sandbox.profile.clobUrl);
        if (!proxy.url) await proxy.start();
        return proxy.url;
      case 'arrivals':
        return proxy?.arrivals ?? [];
      case 'requests':
        return proxy?.requests.slice(request.since) ?? [];
      case 'clock':
        return performance.timeOrigin + performance.now();
      case 'stop':
        await proxy?.stop();
        await sandbox.stop();
        setImmediate(() => process.exit(0));
        return null;
    }
  };

  process.on('message', (message: { id: number; request: ExchangeRequest }) => {
    answer(message.request).then(
      (value) => process.send!({ id: message.id, value }),
      (error: unknown) =>
        process.send!({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
  // The bench went away without a word: nothing of the sandbox outlives it.
  process.on('disconnect', () => void sandbox.stop().finally(() => process.exit(0)));

  const markets: ExchangeMarket[] = sandbox.catalog.events.flatMap((e) =>
    e.markets.map((m) => ({
      id: m.id,
      conditionId: m.conditionId,
      question: m.question,
      tokens: [m.tokens[0].tokenId, m.tokens[1].tokenId],
      tickSize: m.tickSize,
      negRisk: m.negRisk,
      open: m.active && !m.closed && m.acceptingOrders,
    })),
  );
  process.send!({ ready: { profile: sandbox.profile, markets } });
}

await main();
