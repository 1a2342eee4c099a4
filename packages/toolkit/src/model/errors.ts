// The error catalogue (docs/protocol.md#errors) and the one error class every layer throws.
// Pure TypeScript: the renderer shows these codes, the CLI prints them, the toolkit raises them.

/** Catalogue keys (the "SDK error codes" of docs/protocol.md#errors) mapped to the code strings errors carry (its "Data-SDK" codes). */
export const ErrorCode = {
  NETWORK_ERROR: 'ERR_NETWORK',
  TIMEOUT_ERROR: 'ERR_TIMEOUT',
  API_REQUEST_FAILED: 'ERR_API_REQUEST',
  SSE_CONNECTION_FAILED: 'ERR_SSE_CONNECT',
  SSE_MESSAGE_ERROR: 'ERR_SSE_MESSAGE',
  SSE_CLOSED: 'ERR_SSE_CLOSED',
  INVALID_PARAMETER: 'ERR_INVALID_PARAM',
  VALIDATION_ERROR: 'ERR_VALIDATION',
  SERVER_ERROR: 'ERR_SERVER',
  NOT_FOUND: 'ERR_NOT_FOUND',
  UNAUTHORIZED: 'ERR_UNAUTHORIZED',
  FORBIDDEN: 'ERR_FORBIDDEN',
  RATE_LIMIT_EXCEEDED: 'ERR_RATE_LIMIT',
  INTERNAL_SDK_ERROR: 'ERR_SDK_INTERNAL',
  ENVIRONMENT_ERROR: 'ERR_ENVIRONMENT',
  /** The source or service has no such read or action (an aggregator without trader activity, say); never a made-up result. */
  NOT_AVAILABLE: 'ERR_NOT_AVAILABLE',
} as const;

export type ErrorCodeKey = keyof typeof ErrorCode;
export type ErrorCodeValue = (typeof ErrorCode)[ErrorCodeKey];

const CODE_VALUES = new Set<string>(Object.values(ErrorCode));
export function isErrorCode(value: unknown): value is ErrorCodeValue {
  return typeof value === 'string' && CODE_VALUES.has(value);
}

/** The catalogue's fixed sentences. */
export const ErrorMessage = {
  TIMEOUT: 'API request timed out.',
  NO_RESPONSE: 'Network error: No response received from the API server.',
  INTERNAL: 'An unexpected internal SDK error occurred.',
} as const;

export interface PmDeskErrorInit {
  methodName?: string;
  statusCode?: number;
  responseData?: unknown;
  context?: Record<string, unknown>;
  cause?: unknown;
}

/** Keys whose values are secrets or identifiers: they are masked before any context is stored. */
const SECRET_KEY =
  /secret|passphrase|password|private.?key|mnemonic|seed|signature|api.?key|token$|authorization|cookie/i;
export const MASK = '***';

/** Copies a context object with every secret-looking value replaced by the mask, at any depth. */
export function redactContext(context: Record<string, unknown>): Record<string, unknown> {
  const seen = new WeakSet<object>();
  const walk = (value: unknown, depth: number): unknown => {
    if (value === null || typeof value !== 'object') return typeof value === 'bigint' ? value.toString() : value;
    if (seen.has(value) || depth > 6) return '[…]';
    seen.add(value);
    if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = SECRET_KEY.test(key) && v !== undefined && v !== null && v !== '' ? MASK : walk(v, depth + 1);
    }
    return out;
  };
  return walk(context, 0) as Record<string, unknown>;
}

/** Masks an identifier (market id, address, slug) for an error context: present or absent is all it tells. */
export function maskId(value: unknown): string | undefined {
  return value === undefined || value === null || value === '' ? undefined : MASK;
}

/** Cuts text for an error context (docs/protocol.md#constants-and-limits: search queries at 50 characters, SSE messages at 100). */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

function newErrorId(): string {
  return `pmd-err-${Date.now()}-${Math.random().toString(36).slice(2, 7).padEnd(5, '0')}`;
}

/**
 * The one error class of PM Desk. `message` reads `[CODE] detail (Method: x) (Status: n)`;
 * `detail` is the plain sentence a trader can act on.
 */
export class PmDeskError extends Error {
  override readonly name = 'PmDeskError';
  readonly code: ErrorCodeValue;
  readonly detail: string;
  readonly methodName: string | undefined;
  readonly statusCode: number | undefined;
  readonly responseData: unknown;
  readonly context: Record<string, unknown> | undefined;
  readonly errorId: string;

  constructor(code: ErrorCodeValue, detail: string, init: PmDeskErrorInit = {}) {
    let message = `[${code}] ${detail}`;
    if (init.methodName) message += ` (Method: ${init.methodName})`;
    if (init.statusCode !== undefined) message += ` (Status: ${init.statusCode})`;
    super(message);
    this.code = code;
    this.detail = detail;
    this.methodName = init.methodName;
    this.statusCode = init.statusCode;
    this.responseData = init.responseData;
    this.context = init.context ? redactContext(init.context) : undefined;
    this.errorId = newErrorId();
    // The cause can hold a raw request or a library error: keep it for debugging but out of JSON.
    if (init.cause !== undefined) Object.defineProperty(this, 'cause', { value: init.cause, enumerable: false });
  }

  /** A copy with the method name filled in where it was missing (used by wrapOnce). */
  withMethod(methodName: string): PmDeskError {
    if (this.methodName) return this;
    const copy = new PmDeskError(this.code, this.detail, {
      methodName,
      statusCode: this.statusCode,
      responseData: this.responseData,
      context: this.context,
      cause: (this as { cause?: unknown }).cause,
    });
    return copy;
  }

  /** What crosses a process boundary or goes to a log: no cause, no stack. */
  toJSON(): {
    code: ErrorCodeValue;
    message: string;
    statusCode?: number;
    methodName?: string;
    errorId: string;
    context?: Record<string, unknown>;
  } {
    return {
      code: this.code,
      message: this.detail,
      ...(this.statusCode !== undefined ? { statusCode: this.statusCode } : {}),
      ...(this.methodName ? { methodName: this.methodName } : {}),
      errorId: this.errorId,
      ...(this.context ? { context: this.context } : {}),
    };
  }
}

export function isPmDeskError(value: unknown): value is PmDeskError {
  return value instanceof PmDeskError;
}

/**
 * Wraps anything thrown into a PmDeskError exactly once: a PmDeskError passes through unchanged
 * (its method name filled in if it had none); anything else becomes an internal error.
 */
export function wrapOnce(error: unknown, methodName?: string, context?: Record<string, unknown>): PmDeskError {
  if (error instanceof PmDeskError) return methodName ? error.withMethod(methodName) : error;
  const details = error instanceof Error ? error.message : String(error);
  return new PmDeskError(ErrorCode.INTERNAL_SDK_ERROR, `${ErrorMessage.INTERNAL} Details: ${details}`, {
    methodName,
    context,
    cause: error,
  });
}

/** A client-side validation failure, raised before any request is sent. */
export function invalidParameter(detail: string, methodName?: string, context?: Record<string, unknown>): PmDeskError {
  return new PmDeskError(ErrorCode.INVALID_PARAMETER, detail, { methodName, context });
}

/** Maps an HTTP status to its catalogue code (docs/protocol.md#errors). */
export function codeForStatus(status: number): ErrorCodeValue {
  if (status === 400) return ErrorCode.INVALID_PARAMETER;
  if (status === 401) return ErrorCode.UNAUTHORIZED;
  if (status === 403) return ErrorCode.FORBIDDEN;
  if (status === 404) return ErrorCode.NOT_FOUND;
  if (status === 429) return ErrorCode.RATE_LIMIT_EXCEEDED;
  if (status >= 500 && status <= 504) return ErrorCode.SERVER_ERROR;
  return ErrorCode.API_REQUEST_FAILED;
}

/** "API request failed with status N." plus the server's own message or error, when it sent one. */
export function httpFailureMessage(status: number, body: unknown): string {
  let message = `API request failed with status ${status}.`;
  if (body && typeof body === 'object') {
    const { message: serverMessage, error: serverError } = body as { message?: unknown; error?: unknown };
    if (serverMessage !== undefined && serverMessage !== null && serverMessage !== '') {
      message += ` Server message: ${describe(serverMessage)}`;
    } else if (serverError !== undefined && serverError !== null && serverError !== '') {
      message += ` Server error: ${describe(serverError)}`;
    }
  }
  return message;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
