// The toolkit's logging seam. Errors are logged once where they are wrapped (docs/protocol.md#errors); a caller picks
// where the lines go. Only PmDeskError objects (already redacted) or plain sentences are ever passed in.

export interface Logger {
  debug(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

export const silentLogger: Logger = {
  debug() {},
  warn() {},
  error() {},
};

/** Logs to the console; errors print as their JSON form (code, message, context), never with a cause. */
export const consoleLogger: Logger = {
  debug(message, data) {
    console.debug(`[pmdesk] ${message}`, ...(data === undefined ? [] : [data]));
  },
  warn(message, data) {
    console.warn(`[pmdesk] ${message}`, ...(data === undefined ? [] : [toLoggable(data)]));
  },
  error(message, data) {
    console.error(`[pmdesk] ${message}`, ...(data === undefined ? [] : [toLoggable(data)]));
  },
};

function toLoggable(data: unknown): unknown {
  if (data && typeof data === 'object' && 'toJSON' in data && typeof data.toJSON === 'function') {
    return JSON.stringify(data);
  }
  return data;
}
