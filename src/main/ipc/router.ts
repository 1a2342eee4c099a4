// The one wrapper every contract operation goes through, in Electron and in browser mode alike: it checks
// the sender, bounds the payload, parses it with the operation's schema (invalid input never reaches a
// service), calls the handler and turns whatever it throws into a tagged result without a secret in it.
import { ErrorCode, ErrorMessage, PmDeskError } from '@pmdesk/toolkit/model';
import {
  ContractErrorCode,
  DEFAULT_MAX_PAYLOAD_BYTES,
  OPERATION_NAMES,
  isOperationName,
  operations,
  type OperationName,
  type OperationOutput,
  type ParsedInput,
  type Result,
  type ResultError,
} from '../../shared/contract';
import type { Logger } from '@pmdesk/toolkit';

/** Who sent a request, as the transport saw it (an Electron frame, a WebSocket connection). */
export interface SenderInfo {
  /** The sending frame's origin (`app://pmdesk`, `http://127.0.0.1:4820`), or null when it has none. */
  origin: string | null;
  /** The top-level frame of one of our windows (never an iframe). */
  mainFrame: boolean;
  /** The window or connection, for the subscriptions it holds. */
  clientId: string;
}

export type SenderPolicy = (sender: SenderInfo) => boolean;

/** Only these origins, and only from a top-level frame. */
export function allowOrigins(origins: readonly string[]): SenderPolicy {
  const allowed = new Set(origins);
  return (sender) => sender.mainFrame && sender.origin !== null && allowed.has(sender.origin);
}

export interface CallContext {
  clientId: string;
}

export type Handlers = {
  [K in OperationName]: (
    input: ParsedInput<K>,
    context: CallContext,
  ) => Promise<OperationOutput<K>> | OperationOutput<K>;
};

/** Thrown by a handler whose service is not in this build or session: answered as ERR_NOT_AVAILABLE. */
export class ServiceUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ServiceUnavailable';
  }
}

export interface RouterOptions {
  handlers: Handlers;
  allowSender: SenderPolicy;
  logger?: Logger;
}

export interface Router {
  /** Never rejects: every outcome is a tagged result. */
  call(operation: unknown, payload: unknown, sender: SenderInfo): Promise<Result<unknown>>;
  readonly operations: readonly OperationName[];
}

const fail = (code: ResultError['code'], message: string): Result<never> => ({ ok: false, error: { code, message } });

export function createRouter({ handlers, allowSender, logger }: RouterOptions): Router {
  return {
    operations: OPERATION_NAMES,
    async call(operation, payload, sender) {
      // The sender first: a page we did not load learns nothing, not even which operations exist.
      let allowed = false;
      try {
        allowed = allowSender(sender);
      } catch {
        allowed = false;
      }
      if (!allowed) return fail(ErrorCode.FORBIDDEN, 'This page may not talk to PM Desk.');
      if (!isOperationName(operation)) return fail(ErrorCode.INVALID_PARAMETER, 'There is no such operation.');
      const spec = operations[operation];
      const size = jsonSize(payload);
      const limit = spec.maxPayloadBytes ?? DEFAULT_MAX_PAYLOAD_BYTES;
      if (size === undefined || !isPlainData(payload))
        return fail(ErrorCode.INVALID_PARAMETER, `The request for ${operation} is not plain data.`);
      if (size > limit)
        return fail(
          ErrorCode.INVALID_PARAMETER,
          `The request for ${operation} is too large (${size} bytes; at most ${limit}).`,
        );
      const parsed = spec.input.safeParse(payload);
      if (!parsed.success) return fail(ErrorCode.INVALID_PARAMETER, describeIssue(operation, parsed.error.issues));
      const secrets = secretsIn(parsed.data);
      try {
        const handler = handlers[operation] as (input: unknown, context: CallContext) => unknown;
        const value = await handler(parsed.data, { clientId: sender.clientId });
        return { ok: true, value };
      } catch (error) {
        return { ok: false, error: toResultError(error, operation, secrets, logger) };
      }
    },
  };
}

/** Maps what a service threw to the contract's error, with every secret of the request masked out. */
export function toResultError(
  error: unknown,
  operation: string,
  secrets: readonly string[],
  logger?: Logger,
): ResultError {
  if (error instanceof ServiceUnavailable)
    return { code: ContractErrorCode.NOT_AVAILABLE, message: scrub(error.message, secrets) };
  if (error instanceof PmDeskError) return { code: error.code, message: scrub(error.detail, secrets) };
  // A library's own error may quote its input (a key, a phrase): the trader gets the catalogue's sentence,
  // the log gets the error's kind only.
  logger?.error(`${operation} failed with an unexpected ${error instanceof Error ? error.name : typeof error}`);
  return { code: ErrorCode.INTERNAL_SDK_ERROR, message: ErrorMessage.INTERNAL };
}

/** The bytes of a payload as JSON, or undefined when it is not plain data (a cycle, a BigInt, too deep). */
export function jsonSize(payload: unknown): number | undefined {
  try {
    const text = JSON.stringify(payload === undefined ? {} : payload);
    return text === undefined ? undefined : new TextEncoder().encode(text).length;
  } catch {
    return undefined;
  }
}

/**
 * Only what JSON can say: null, booleans, finite or not numbers, strings, arrays and plain objects. A Map, a
 * Date or a class instance (Electron's structured clone carries them) would otherwise parse as an empty object.
 */
export function isPlainData(value: unknown, depth = 0): boolean {
  if (value === undefined && depth === 0) return true;
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string')
    return true;
  if (typeof value !== 'object' || depth > 32) return false;
  if (Array.isArray(value))
    return Object.getPrototypeOf(value) === Array.prototype && value.every((v) => isPlainData(v, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).every((v) => isPlainData(v, depth + 1));
}

function describeIssue(operation: string, issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0];
  if (!issue) return `Invalid input for ${operation}.`;
  const where = issue.path.map(String).join('.').slice(0, 80);
  return `Invalid input for ${operation}: ${where ? `${where}: ` : ''}${issue.message.slice(0, 160)}`;
}

/** The values of the request's secret fields (passwords, phrases, keys, keystores), to be masked in any message. */
const SECRET_FIELDS = new Set([
  'password',
  'phrase',
  'privateKey',
  'keystoreJson',
  'relayerKey',
  'relayerSecret',
  'relayerPassphrase',
]);
function secretsIn(input: unknown): string[] {
  const found: string[] = [];
  const walk = (value: unknown, depth: number) => {
    if (!value || typeof value !== 'object' || depth > 4) return;
    for (const [key, v] of Object.entries(value)) {
      if (SECRET_FIELDS.has(key) && typeof v === 'string' && v.length >= 4) found.push(v);
      else walk(v, depth + 1);
    }
  };
  walk(input, 0);
  return found;
}

function scrub(message: string, secrets: readonly string[]): string {
  let out = message;
  for (const secret of secrets) {
    out = out.split(secret).join('***');
    const trimmed = secret.trim();
    if (trimmed.length >= 4 && trimmed !== secret) out = out.split(trimmed).join('***');
  }
  return out;
}

/** How a transport registers one channel; returns the function that unregisters it. */
export interface ChannelRegistry {
  handle(
    operation: OperationName,
    listener: (sender: SenderInfo, payload: unknown) => Promise<Result<unknown>>,
  ): () => void;
}

/** Registers every operation of the contract on a transport; the returned function removes them all. */
export function registerRouter(router: Router, registry: ChannelRegistry): () => void {
  const removers = router.operations.map((operation) =>
    registry.handle(operation, (sender, payload) => router.call(operation, payload, sender)),
  );
  let disposed = false;
  return () => {
    if (disposed) return;
    disposed = true;
    for (const remove of removers) remove();
  };
}
