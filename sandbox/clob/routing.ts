// How the CLOB's route modules plug into the server: a public module answers a request or says NOT_FOUND; a
// private module is a table of "METHOD /path" handlers run after L2 authentication, so every private path is
// listed once, beside its handler, and an unknown one is a 404 before any authentication.
import type { IncomingMessage } from 'node:http';
import { HttpError, type Query } from './http';
import type { Caller } from './records';
import type { ClobState } from './state';

export interface ClobRequest {
  req: IncomingMessage;
  method: string;
  /** The path without trailing slashes (what L2 signatures cover: never the query string). */
  path: string;
  /** `${method} ${path}`. */
  key: string;
  q: Query;
  /** The body as sent. */
  raw: string;
}

/** A public route module's answer when the request is not one of its routes. */
export const NOT_FOUND = Symbol('not found');

export type PublicRoutes = (state: ClobState, request: ClobRequest) => unknown;
export type PrivateRoutes = Record<string, (state: ClobState, caller: Caller, request: ClobRequest) => unknown>;

/** The decoded rest of a GET path after `prefix`, or undefined when it does not start so; bad escapes are a 400. */
export function pathId(path: string, prefix: string): string | undefined {
  if (!path.startsWith(prefix)) return undefined;
  try {
    return decodeURIComponent(path.slice(prefix.length));
  } catch {
    throw new HttpError(400, 'Malformed path: a bad %-escape');
  }
}
