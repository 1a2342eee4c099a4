// A window of the terminal as the main-process tests see it: connected to the event hub under a client id,
// keeping every event it hears, calling operations through the router as that window would, and waiting for
// the next event that matches.
import type { EventName, Result, TerminalEvents } from '../../src/shared/contract';
import type { SenderInfo } from '../../src/main/ipc/router';
import type { Terminal } from '../../src/main/terminal/terminal';

export type Heard = { event: EventName; payload: unknown };

export function hubClient(terminal: Pick<Terminal, 'hub' | 'router'>, id: string, origin: string) {
  const heard: Heard[] = [];
  const waiters: { match: (e: Heard) => boolean; resolve: (e: Heard) => void }[] = [];
  terminal.hub.connect(id, <E extends EventName>(event: E, payload: TerminalEvents[E]) => {
    const entry = { event, payload: payload as unknown };
    heard.push(entry);
    for (const w of waiters.filter((w) => w.match(entry))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(entry);
    }
  });
  const sender: SenderInfo = { origin, mainFrame: true, clientId: id };
  /** The next event heard from now on that `match` accepts. */
  const next = (match: (e: Heard) => boolean) => new Promise<Heard>((resolve) => waiters.push({ match, resolve }));
  return {
    heard,
    call: (op: string, input: unknown) =>
      terminal.router.call(op, input, sender) as Promise<{
        ok: boolean;
        value?: unknown;
        error?: { code: string; message: string };
      }>,
    next,
    /** The next `event` whose payload `match` accepts, typed. */
    nextEvent: <E extends EventName>(event: E, match: (p: TerminalEvents[E]) => boolean = () => true) =>
      next((e) => e.event === event && match(e.payload as TerminalEvents[E])).then(
        (e) => e.payload as TerminalEvents[E],
      ),
  };
}

/**
 * Operations called through the router as one window calls them: `result` gives the contract's answer as it is,
 * `call` its value or an error naming the code. A getter, because the terminal opens in the test's setup.
 */
export function routerCalls(terminal: () => Pick<Terminal, 'router'>, sender: SenderInfo) {
  const result = async <T>(op: string, input: unknown): Promise<Result<T>> =>
    (await terminal().router.call(op, input, sender)) as Result<T>;
  const call = async <T>(op: string, input: unknown): Promise<T> => {
    const answer = await result<T>(op, input);
    if (!answer.ok) throw new Error(`${op} failed: ${answer.error.code} ${answer.error.message}`);
    return answer.value;
  };
  return { result, call };
}
