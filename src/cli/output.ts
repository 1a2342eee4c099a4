// How `pmdesk` speaks: exactly the parsed response as JSON with --json, readable tables without;
// failures on stderr with a catalogued code and an exit status a script can branch on.
import type { PmDeskError } from '@pmdesk/toolkit/model';
import { ErrorCode, wrapOnce } from '@pmdesk/toolkit/model';
import { isOrderInDoubt } from '@pmdesk/toolkit';
import {
  rateLimitText,
  retryNoticeText,
  type ApiNotice,
  type RateLimitReading,
  type RetryNotice,
} from '@pmdesk/toolkit';

/**
 * 2: invalid input caught before any request was sent; 3: an order was posted, got no definite answer and could
 * not be looked up, so it may be live (the message names its hash and `pmdesk order get`); 1: anything else.
 */
export const EXIT_INVALID_INPUT = 2;
export const EXIT_FAILURE = 1;
export const EXIT_ORDER_IN_DOUBT = 3;

export interface Output {
  json: boolean;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const processOutput = (json: boolean): Output => ({
  json,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});

/** The error line of `--json` mode: always these four keys, null where unknown; an order in doubt adds its `orderHash`. */
export function errorJson(error: PmDeskError): string {
  const inDoubt = isOrderInDoubt(error) ? { orderHash: error.context?.orderHash } : {};
  return JSON.stringify({
    error: {
      code: error.code,
      message: error.detail,
      statusCode: error.statusCode ?? null,
      methodName: error.methodName ?? null,
      ...inDoubt,
    },
  });
}

/** Prints a failure and returns the exit status it deserves. */
export function reportError(out: Output, thrown: unknown): number {
  const error = wrapOnce(thrown);
  out.stderr(out.json ? `${errorJson(error)}\n` : `pmdesk: ${error.message}\n`);
  return exitStatusFor(error);
}

/** Says on stderr that a throttled read waits before its retry, so a pause is never a silent hang. */
export function retryNotice(
  json: boolean,
  write: (text: string) => void = (text) => process.stderr.write(text),
): (notice: RetryNotice) => void {
  return (notice) =>
    write(
      json
        ? `${JSON.stringify({ notice: { code: notice.reason === 'engine-restarting' ? 'ENGINE_RESTARTING' : 'RATE_LIMITED', waitMs: notice.waitMs, methodName: notice.methodName } })}\n`
        : `pmdesk: ${retryNoticeText(notice)}\n`,
    );
}

/**
 * Says on stderr, once per endpoint per run, what the trader should know about how Polymarket is read (an
 * endpoint deprecated or past its sunset, a list read through its deprecated fallback): never on stdout, so a
 * `--json` answer stays exactly the parsed response; with --json the line is JSON too.
 */
export function apiNotice(
  json: boolean,
  write: (text: string) => void = (text) => process.stderr.write(text),
): (notice: ApiNotice) => void {
  const said = new Set<string>();
  return (notice) => {
    const key = `${notice.kind} ${notice.api} ${notice.endpoint}`;
    if (said.has(key)) return;
    said.add(key);
    const code = notice.kind.toUpperCase().replace(/-/g, '_');
    write(
      json
        ? `${JSON.stringify({ notice: { code, api: notice.api, endpoint: notice.endpoint, message: notice.message } })}
`
        : `pmdesk: ${notice.message}
`,
    );
  };
}

/** With --verbose, each answer's rate-limit headers on stderr ("Gamma GET /events/keyset: rate limit 41 left, …"). */
export function rateLimitNotice(
  verbose: boolean,
  write: (text: string) => void = (text) => process.stderr.write(text),
): ((reading: RateLimitReading) => void) | undefined {
  if (!verbose) return undefined;
  return (reading) =>
    write(`pmdesk: ${rateLimitText(reading.api, reading.endpoint, reading)}
`);
}

/**
 * Tells on stderr where a live command's rows come from: the live feed, REST polls while it cannot be reached, and
 * the feed "again" once it is back (a first connect is not a recovery). Polling is slower than a live feed: the
 * trader should know which one they are reading. `polled` names what is polled ("fills").
 */
export function feedModeNotices(out: Output, polled: string): (mode: 'live' | 'polling') => void {
  let wasPolling = false;
  return (mode) => {
    const recovered = mode === 'live' && wasPolling;
    wasPolling = mode === 'polling';
    out.stderr(
      out.json
        ? `${JSON.stringify({ mode })}\n`
        : mode === 'polling'
          ? `pmdesk: the live feed cannot be reached; polling ${polled}\n`
          : recovered
            ? 'pmdesk: live feed open again\n'
            : 'pmdesk: live feed open\n',
    );
  };
}

export function exitStatusFor(error: PmDeskError): number {
  if (isOrderInDoubt(error)) return EXIT_ORDER_IN_DOUBT;
  // A client-side validation failure has no HTTP status: nothing reached the server.
  return error.code === ErrorCode.INVALID_PARAMETER && error.statusCode === undefined
    ? EXIT_INVALID_INPUT
    : EXIT_FAILURE;
}

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Right-align (numbers). */
  right?: boolean;
  max?: number;
}

/** A plain-text table: a header, a rule, one line per row; long cells are cut with an ellipsis. */
export function table<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((row) => columns.map((c) => cell(c.value(row), c.max ?? 60)));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (columns[i]!.right ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [line(columns.map((c) => c.header)), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)];
  if (rows.length === 0) out.push('(none)');
  return `${out.join('\n')}\n`;
}

/** Key/value lines for one record. */
export function fields(entries: readonly [string, unknown][]): string {
  const width = Math.max(...entries.map(([k]) => k.length));
  return `${entries.map(([k, v]) => `${k.padEnd(width)}  ${cell(v, 200)}`).join('\n')}\n`;
}

function cell(value: unknown, max: number): string {
  let text: string;
  if (value === undefined || value === null) text = '';
  else if (typeof value === 'number') text = Number.isInteger(value) ? String(value) : String(Number(value.toFixed(6)));
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  text = text.replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function isoSeconds(seconds: number): string {
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? String(seconds) : date.toISOString().replace('.000Z', 'Z');
}
