// The bench's side of bench/exchange-process.ts: forks the exchange process, waits for its sandbox, and asks it
// to move busy books, to put a timing proxy in front of its CLOB, for POST /order arrival times, for its clock.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { NetworkProfile } from '../sandbox/index';
import type { ExchangeMarket, ExchangeRequest } from './exchange-process';

export interface BenchExchange {
  profile: NetworkProfile;
  markets: ExchangeMarket[];
  /** Busy books on these markets' first outcomes, published once; returns their token ids. */
  busy(marketIds: string[]): Promise<string[]>;
  /** `rate` updates a second on each busy book for `seconds`; `cpuMs`: the exchange process's CPU time meanwhile. */
  drive(rate: number, seconds: number): Promise<{ sent: number; seconds: number; cpuMs: number }>;
  /** A proxy in front of the CLOB that notes each POST /order's arrival; its URL. */
  proxy(): Promise<string>;
  /** Every POST /order arrival so far, epoch ms on the exchange's clock. */
  arrivals(): Promise<number[]>;
  /** Every request through the proxy from the `since`-th on: method and path, arrival (epoch ms). */
  requests(since: number): Promise<{ at: number; what: string }[]>;
  /** The exchange's clock, epoch ms. */
  clock(): Promise<number>;
  stop(): Promise<void>;
}

export async function startBenchExchange(options: { chainId?: number } = {}): Promise<BenchExchange> {
  const entry = fileURLToPath(new URL('./exchange-process.ts', import.meta.url));
  const child: ChildProcess = fork(entry, [JSON.stringify(options)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const ready = new Promise<{ profile: NetworkProfile; markets: ExchangeMarket[] }>((resolve, reject) => {
    child.on(
      'message',
      (message: {
        ready?: { profile: NetworkProfile; markets: ExchangeMarket[] };
        id?: number;
        value?: unknown;
        error?: string;
      }) => {
        if (message.ready) return resolve(message.ready);
        const waiter = pending.get(message.id!);
        pending.delete(message.id!);
        if (message.error !== undefined) waiter?.reject(new Error(`exchange: ${message.error}`));
        else waiter?.resolve(message.value);
      },
    );
    child.once('exit', (code) => {
      const error = new Error(`the exchange process exited (${code})`);
      reject(error);
      for (const waiter of pending.values()) waiter.reject(error);
      pending.clear();
    });
  });
  const ask = <T>(request: ExchangeRequest): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, request });
    });
  const { profile, markets } = await ready;
  return {
    profile,
    markets,
    busy: (marketIds) => ask({ op: 'busy', marketIds }),
    drive: (rate, seconds) => ask({ op: 'drive', rate, seconds }),
    proxy: () => ask({ op: 'proxy' }),
    arrivals: () => ask({ op: 'arrivals' }),
    requests: (since) => ask({ op: 'requests', since }),
    clock: () => ask({ op: 'clock' }),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await ask({ op: 'stop' }).catch(() => undefined);
      await exited;
    },
  };
}
