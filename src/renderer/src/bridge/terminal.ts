// The renderer's one way to ask main: `ask(op, input)` calls `window.terminal` and turns a tagged result into
// a value or a thrown TerminalError (code and sentence from main, never a stack). Every panel uses this, so a
// failure always reaches the trader as the sentence main wrote.
import type {
  EventName,
  OperationInput,
  OperationName,
  OperationOutput,
  Result,
  ResultError,
  TerminalEvents,
  Unsubscribe,
} from '../../../shared/contract/index';

export class TerminalError extends Error {
  readonly code: ResultError['code'];
  constructor(error: ResultError) {
    super(error.message);
    this.name = 'TerminalError';
    this.code = error.code;
  }
}

const missing: ResultError = {
  code: 'ERR_NETWORK',
  message:
    'PM Desk is not connected to its main process. Open it through the link `npm start` printed (with its #token).',
};

export function hasTerminal(): boolean {
  return typeof window !== 'undefined' && (window as Partial<Window>).terminal !== undefined;
}

export async function ask<K extends OperationName>(op: K, input: OperationInput<K>): Promise<OperationOutput<K>> {
  if (!hasTerminal()) throw new TerminalError(missing);
  // One call site for every operation: TypeScript cannot narrow the union of their signatures, hence the cast.
  const call = window.terminal[op] as unknown as (input: OperationInput<K>) => Promise<Result<OperationOutput<K>>>;
  const result = await call(input);
  if (!result.ok) throw new TerminalError(result.error);
  return result.value;
}

/** The sentence to show for anything `ask` threw. */
export function messageOf(error: unknown): string {
  if (error instanceof TerminalError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export function listen<E extends EventName>(event: E, listener: (payload: TerminalEvents[E]) => void): Unsubscribe {
  if (!hasTerminal()) return () => {};
  return window.terminal.on(event, listener);
}
