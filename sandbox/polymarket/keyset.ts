// Gamma's keyset paging (`GET /events/keyset`, `GET /markets/keyset`) and the deprecation headers of the offset
// lists they replace: a page is `{<items>, next_cursor}`, the next page is asked with `after_cursor=<next_cursor>`,
// `next_cursor` is absent on the last page, `limit` is capped at 100, `offset` is refused and a `cursor=`
// parameter is ignored (page 1 again), as Polymarket's Gamma answers (issue 27; Polymarket/agents#227).
import { HttpError, type Query } from './http';

/** The most rows one keyset page carries; a larger `limit` is cut to it. */
export const KEYSET_MAX_LIMIT = 100;

type Row = Record<string, unknown>;
type Key = (string | number)[];

/** The headers Gamma puts on its offset lists since spring 2026, naming the keyset path that replaces them. */
export function deprecationHeaders(replacement: string): Record<string, string> {
  return { Deprecation: 'true', Sunset: 'Fri, 01 May 2026 00:00:00 GMT', Warning: `299 - "use ${replacement}"` };
}

/**
 * One keyset page of `rows` (already filtered) under `itemsKey` (`events` or `markets`). Rows are ordered by
 * `order` (a comma list of the rows' own fields; by id when absent) and `ascending` (descending by default when
 * `order` is given, ascending by id otherwise, as the offset lists), ties broken by id. The cursor holds the
 * last row's sort key, so a page continues after it even if rows came or went in between.
 */
export function keysetPage(rows: Row[], q: Query, itemsKey: string): Row {
  // Gamma refuses offset here with a validation error (422), as its deprecated lists refuse deep offsets.
  if (q.has('offset')) throw new HttpError(422, 'offset is not supported on keyset lists; page with after_cursor');
  const limit = Math.min(q.int('limit', KEYSET_MAX_LIMIT, 1, Number.MAX_SAFE_INTEGER)!, KEYSET_MAX_LIMIT);
  const order = q.list('order');
  const fields = order?.length ? order : ['id'];
  for (const field of fields) {
    if (rows.length && !rows.every((r) => typeof r[field] === 'number' || typeof r[field] === 'string'))
      throw new HttpError(400, `order: unknown or unsortable field '${field}'`);
  }
  const ascending = q.bool('ascending') ?? !order?.length;
  const keyOf = (row: Row): Key => [...fields.map((f) => sortValue(row, f)), Number(row.id)];
  const compare = (a: Key, b: Key) => compareKeys(a, b) * (ascending ? 1 : -1);
  const sorted = rows.map((row) => ({ row, key: keyOf(row) })).sort((a, b) => compare(a.key, b.key));
  const after = q.string('after_cursor');
  const start = after === undefined ? 0 : firstAfter(sorted, decodeCursor(after, fields.length + 1), compare);
  const pageRows = sorted.slice(start, start + limit);
  const last = pageRows.at(-1);
  const more = start + limit < sorted.length && last !== undefined;
  return { [itemsKey]: pageRows.map((r) => r.row), ...(more ? { next_cursor: encodeCursor(last.key) } : {}) };
}

function sortValue(row: Row, field: string): string | number {
  const v = row[field] as string | number;
  return field === 'id' ? Number(v) : v;
}

function compareKeys(a: Key, b: Key): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    if (c !== 0) return c;
  }
  return 0;
}

function firstAfter(sorted: { key: Key }[], cursor: Key, compare: (a: Key, b: Key) => number): number {
  const index = sorted.findIndex((r) => compare(r.key, cursor) > 0);
  return index === -1 ? sorted.length : index;
}

/** An opaque cursor: the last row's sort key as base64url JSON. */
function encodeCursor(key: Key): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

function decodeCursor(cursor: string, length: number): Key {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    key = undefined;
  }
  if (
    !Array.isArray(key) ||
    key.length !== length ||
    !key.every((v) => typeof v === 'string' || typeof v === 'number')
  ) {
    throw new HttpError(400, 'after_cursor is not a cursor of this list (ask again without it, with the same order)');
  }
  return key as Key;
}
