// `window.terminal`: built from the contract's tables over a call wire and an event wire, and nothing else.
import type { Result } from './result';
import { OPERATION_NAMES, type OperationInput, type OperationName, type OperationOutput } from './operations';
import { STATE_EVENTS, isEventName, type EventName, type TerminalEvents } from './events';

export type Unsubscribe = () => void;

/** What the renderer sees as `window.terminal`, in Electron and in browser mode alike. */
export type Terminal = {
  readonly [K in OperationName]: (input: OperationInput<K>) => Promise<Result<OperationOutput<K>>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: TerminalEvents[E]) => void): Unsubscribe;
};

/** The two wires a `Terminal` is built over: a request/answer call and an event listener. */
export interface TerminalWire {
  call(operation: OperationName, input: unknown): Promise<unknown>;
  listen(event: EventName, listener: (payload: unknown) => void): Unsubscribe;
}

/**
 * Builds `window.terminal` from the contract's lists: one function per operation and `on` for events,
 * frozen, and nothing else. Input goes to main as it is (main validates); an unknown event name throws.
 */
export function buildTerminal(wire: TerminalWire): Terminal {
  const terminal: Record<string, unknown> = {};
  for (const name of OPERATION_NAMES)
    terminal[name] = (input: unknown) => wire.call(name, input === undefined ? {} : input);
  // State events: main announces them once (at connect); a listener added later hears the latest at once.
  const latest = new Map<EventName, unknown>();
  for (const event of STATE_EVENTS) wire.listen(event, (payload) => latest.set(event, payload));
  terminal.on = (event: unknown, listener: unknown) => {
    if (!isEventName(event)) throw new TypeError(`There is no terminal event named ${String(event).slice(0, 40)}.`);
    if (typeof listener !== 'function') throw new TypeError('A terminal event listener must be a function.');
    const deliver = listener as (payload: unknown) => void;
    const unsubscribe = wire.listen(event, deliver);
    if (latest.has(event)) {
      const payload = latest.get(event);
      // Asynchronously, as every event arrives; a listener that throws here affects nobody else.
      void Promise.resolve()
        .then(() => deliver(payload))
        .catch(() => undefined);
    }
    return unsubscribe;
  };
  return Object.freeze(terminal) as Terminal;
}
