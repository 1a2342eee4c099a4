// The sandbox CLOB's HTTP plumbing: errors that become a status and `{error}`, bounded request bodies, JSON
// answers, and Polymarket's cursor paging ("MA==" the first page, "LTE=" past the last).
import type { IncomingMessage, ServerResponse } from 'node:http';

export const INITIAL_CURSOR = 'MA==';
export const END_CURSOR = 'LTE=';

/** A refusal with its HTTP status; `extra` fields go into the answer beside `error`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export type Query = URLSearchParams;

export function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(payload ?? null);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** The request body as text, refused with 413 past `maxBody` bytes whether declared or streamed. */
export function readBody(req: IncomingMessage, maxBody: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBody) {
      req.resume();
      reject(new HttpError(413, 'request body too large'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBody) {
        reject(new HttpError(413, 'request body too large'));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    // A client that goes away mid-body never sends 'end': settle anyway so nothing waits forever.
    const aborted = () => reject(new HttpError(400, 'request aborted'));
    req.on('error', aborted);
    req.on('close', aborted);
  });
}

/** A JSON body, undefined when empty; anything unparsable is a 400. */
export function parseJson(body: string): unknown {
  if (body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    throw new HttpError(400, 'Invalid JSON body');
  }
}

/** One page of a list: cursors are base64 offsets, "MA==" the first page, "LTE=" past the last. */
export function page<T>(
  rows: T[],
  q: Query,
  pageSize: number,
): { limit: number; count: number; next_cursor: string; data: T[] } {
  const cursor = q.get('next_cursor') ?? INITIAL_CURSOR;
  if (cursor === END_CURSOR) return { limit: pageSize, count: 0, next_cursor: END_CURSOR, data: [] };
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  if (!/^\d{1,9}$/.test(text) || Buffer.from(text).toString('base64') !== cursor)
    throw new HttpError(400, 'invalid next_cursor');
  const offset = Number(text);
  const data = rows.slice(offset, offset + pageSize);
  const next = offset + pageSize;
  return {
    limit: pageSize,
    count: data.length,
    next_cursor: next >= rows.length ? END_CURSOR : Buffer.from(String(next)).toString('base64'),
    data,
  };
}
