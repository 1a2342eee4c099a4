// What the Gamma, Data and geoblock routes share: errors as Polymarket's `{error}` bodies, JSON answers, and
// query parameters read the way Polymarket's APIs read them (comma lists, repeated keys, bounded integers).
import type { ServerResponse } from 'node:http';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Reads one request's query parameters; every refusal is a 400 naming the parameter. */
export class Query {
  constructor(readonly params: URLSearchParams) {}

  has(name: string): boolean {
    return this.params.has(name);
  }

  string(name: string): string | undefined {
    const value = this.params.get(name);
    return value === null || value === '' ? undefined : value;
  }

  required(name: string): string {
    const value = this.string(name);
    if (value === undefined) throw new HttpError(400, `${name} is required`);
    return value;
  }

  /** A whole number from `min` to `max`, else `fallback` when absent. */
  int(name: string, fallback: number | undefined, min: number, max: number): number | undefined {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    if (!/^-?\d+$/.test(raw)) throw new HttpError(400, `${name} must be an integer`);
    const n = Number(raw);
    if (n < min || n > max) throw new HttpError(400, `${name} must be between ${min} and ${max}`);
    return n;
  }

  number(name: string, min: number, max: number): number | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max)
      throw new HttpError(400, `${name} must be a number between ${min} and ${max}`);
    return n;
  }

  bool(name: string): boolean | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    if (raw !== 'true' && raw !== 'false') throw new HttpError(400, `${name} must be true or false`);
    return raw === 'true';
  }

  /** A comma-separated list (Gamma's and the Data API's list parameters); undefined when absent. */
  list(name: string): string[] | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    return raw
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  }

  /**
   * Every value of a list parameter, whether given as a comma list (`id=1,2`) or once per value (`id=1&id=2`,
   * as Polymarket's own client sends arrays); undefined when absent.
   */
  values(name: string): string[] | undefined {
    const values = this.params
      .getAll(name)
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter(Boolean);
    return values.length ? values : undefined;
  }

  /** A parameter given once per value (`clob_token_ids=A&clob_token_ids=B`); undefined when absent. */
  repeated(name: string): string[] | undefined {
    const values = this.params.getAll(name).filter(Boolean);
    return values.length ? values : undefined;
  }

  /** One of `choices` (compared in upper case, as the Data API's enums), else `fallback`. */
  choice<T extends string>(name: string, choices: readonly T[], fallback: T): T;
  choice<T extends string>(name: string, choices: readonly T[]): T | undefined;
  choice<T extends string>(name: string, choices: readonly T[], fallback?: T): T | undefined {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    const upper = raw.toUpperCase() as T;
    if (!choices.includes(upper)) throw new HttpError(400, `${name} must be one of ${choices.join(', ')}`);
    return upper;
  }
}

/** An address as the Data API accepts it: 0x and 40 hex digits. */
export function requireAddress(q: Query, name: string): string {
  const value = q.required(name);
  if (!/^0x[0-9a-fA-F]{40}$/.test(value))
    throw new HttpError(400, `${name} must be a 0x-prefixed 40-hex-digit address`);
  return value;
}

/** Numbers as Polymarket's APIs print them: plain decimals, no float noise. */
export const round = (n: number, decimals = 6): number => Number(n.toFixed(decimals));

export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, 'malformed path');
  }
}
