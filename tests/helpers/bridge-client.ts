// A real client of browser mode's /bridge for tests that drive the contract as the page does: calls by id
// (answered as tagged results) and every pushed event kept, with a wait for the next one that matches.
import WebSocket from 'ws';
import type { BridgeFrame, EventName, Result } from '../../src/shared/contract';
import type { RunningHost } from '../../src/main/host/server';

export interface BridgeClient {
  call<T = unknown>(op: string, input?: unknown): Promise<Result<T>>;
  /** The value of a call that must succeed (its error's code and sentence otherwise). */
  value<T = unknown>(op: string, input?: unknown): Promise<T>;
  /** Events heard so far, oldest first. */
  readonly events: { event: EventName; payload: unknown }[];
  /** The first event of that name heard from now on (or already heard after `since`) that matches. */
  nextEvent<T = unknown>(event: EventName, match?: (payload: T) => boolean, since?: number): Promise<T>;
  close(): void;
}

export async function openBridge(host: RunningHost): Promise<BridgeClient> {
  const socket = new WebSocket(`ws://127.0.0.1:${host.port}/bridge?token=${encodeURIComponent(host.token)}`, {
    headers: { Origin: host.origin },
  });
  const answers = new Map<number, (result: Result<unknown>) => void>();
  const events: { event: EventName; payload: unknown }[] = [];
  const waiters: { event: EventName; match: (p: unknown) => boolean; resolve: (p: unknown) => void }[] = [];
  socket.on('message', (data) => {
    // A frame carries one message, or several in order (events pushed together travel as one array).
    const frame = JSON.parse(String(data)) as BridgeFrame;
    for (const message of Array.isArray(frame) ? frame : [frame]) {
      if ('event' in message) {
        events.push({ event: message.event, payload: message.payload });
        const at = waiters.findIndex((w) => w.event === message.event && w.match(message.payload));
        if (at >= 0) waiters.splice(at, 1)[0]!.resolve(message.payload);
      } else answers.get(message.id)?.(message.result);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  let nextId = 1;
  const call = <T>(op: string, input: unknown = {}) =>
    new Promise<Result<T>>((resolve) => {
      const id = nextId++;
      answers.set(id, resolve as (result: Result<unknown>) => void);
      socket.send(JSON.stringify({ id, op, input }));
    });
  return {
    call,
    async value<T>(op: string, input: unknown = {}) {
      const result = await call<T>(op, input);
      if (!result.ok) throw new Error(`${op} failed: ${result.error.code} ${result.error.message}`);
      return result.value;
    },
    events,
    nextEvent<T>(event: EventName, match: (payload: T) => boolean = () => true, since = events.length) {
      const seen = events.slice(since).find((e) => e.event === event && match(e.payload as T));
      if (seen) return Promise.resolve(seen.payload as T);
      return new Promise<T>((resolve) =>
        waiters.push({ event, match: match as (p: unknown) => boolean, resolve: resolve as (p: unknown) => void }),
      );
    },
    close: () => socket.close(),
  };
}
