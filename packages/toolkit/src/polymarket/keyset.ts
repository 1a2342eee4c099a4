// Gamma's lists read by keyset (`after_cursor=<next_cursor>`), for callers that still think in pages and offsets
// (the terminal's grid, `pmdesk events list --offset`): the cursor where each row starts is remembered, so page n
// is one request once page n-1 was read. When the keyset list answers 404 the deprecated offset list is read
// instead, and the caller is told once.
import { invalidParameter } from '../model/errors';
import type { ApiNotice } from '../http/answer-headers';
import type { KeysetPage, ListFilters } from './gamma';
import { KEYSET_MAX_SKIP, KEYSET_PAGE_MAX } from './endpoints';

export interface KeysetListRoutes {
  /** The list's name in messages ("events"). */
  what: string;
  keysetRoute: string;
  offsetRoute: string;
}

export interface KeysetListReads<T> {
  /** One keyset page after a cursor; null when the keyset list is missing (404). */
  keyset: (filters: ListFilters, limit: number, afterCursor?: string) => Promise<KeysetPage<T> | null>;
  /** One page of the deprecated offset list. */
  offset: (filters: ListFilters, limit: number, offset: number) => Promise<T[]>;
}

/** A page and where to continue: `nextCursor` is absent after the last page. */
export interface ListPage<T> {
  items: T[];
  nextCursor?: string;
}

/** The cursors handed out while on the offset fallback: `offset:<n>`, so `--cursor` works the same on both. */
const OFFSET_CURSOR = /^offset:(\d{1,9})$/;
/** Filter sets whose cursors are remembered at most; past it the memory starts again (a page costs a walk). */
const MAX_REMEMBERED_LISTS = 32;
/** Start rows remembered per filter set at most. */
const MAX_REMEMBERED_STARTS = 1_000;

export class KeysetList<T> {
  private keysetMissing = false;
  /** Per filter set: the row index a cursor starts at → that cursor (row 0 needs none). */
  private readonly starts = new Map<string, Map<number, string>>();

  constructor(
    private readonly routes: KeysetListRoutes,
    private readonly reads: KeysetListReads<T>,
    private readonly onNotice: (notice: ApiNotice) => void,
  ) {}

  /** True once the keyset list answered 404 and the offset list is read instead. */
  get onFallback(): boolean {
    return this.keysetMissing;
  }

  /**
   * `limit` rows after `cursor` (the first rows without one), read as pages of at most 100, and the cursor of
   * what follows. A cursor is Gamma's `next_cursor` as handed out, or `offset:<n>` on the fallback.
   */
  async page(methodName: string, filters: ListFilters, limit: number, cursor?: string): Promise<ListPage<T>> {
    const items: T[] = [];
    let next = cursor;
    while (items.length < limit) {
      const want = Math.min(limit - items.length, KEYSET_PAGE_MAX);
      const read = await this.readPage(methodName, filters, want, next);
      items.push(...read.items);
      next = read.nextCursor;
      if (next === undefined || read.items.length === 0) {
        next = undefined;
        break;
      }
    }
    return next === undefined ? { items } : { items, nextCursor: next };
  }

  /**
   * Rows `offset` to `offset + limit`: from the nearest row whose cursor is known, walking keyset pages (at
   * most KEYSET_MAX_SKIP rows skipped) and remembering where each page starts.
   */
  async range(methodName: string, filters: ListFilters, offset: number, limit: number): Promise<T[]> {
    if (this.keysetMissing) return this.reads.offset(filters, limit, offset);
    const known = this.remembered(filters);
    let at = 0;
    for (const start of known.keys()) if (start <= offset && start > at) at = start;
    if (offset - at > KEYSET_MAX_SKIP) {
      throw invalidParameter(
        `Polymarket lists ${this.routes.what} by cursor: an offset more than ${KEYSET_MAX_SKIP} rows past the last page read cannot be reached in one go; continue with the cursor instead (pmdesk: --cursor).`,
        methodName,
        { offset },
      );
    }
    let cursor = at === 0 ? undefined : known.get(at);
    const rows: T[] = [];
    while (at < offset + limit) {
      // While skipping, whole pages of 100; then the rows still wanted, so the page ends where the caller's does.
      const want =
        at < offset ? Math.min(KEYSET_PAGE_MAX, offset - at) : Math.min(KEYSET_PAGE_MAX, offset + limit - at);
      const read = await this.keysetPage(filters, want, cursor);
      if (!read) return this.reads.offset(filters, limit, offset);
      const from = Math.max(0, offset - at);
      rows.push(...read.items.slice(from, from + (limit - rows.length)));
      at += read.items.length;
      if (read.nextCursor === undefined || read.items.length === 0) break;
      cursor = read.nextCursor;
      this.remember(known, at, cursor);
    }
    return rows;
  }

  /** One keyset page; null once the keyset list answered 404 (said once, and never asked again). */
  private async keysetPage(
    filters: ListFilters,
    limit: number,
    cursor: string | undefined,
  ): Promise<ListPage<T> | null> {
    if (this.keysetMissing) return null;
    const page = await this.reads.keyset(filters, limit, cursor);
    if (page) return page;
    this.keysetMissing = true;
    this.onNotice({
      kind: 'fallback',
      api: 'Gamma',
      endpoint: `GET ${this.routes.keysetRoute}`,
      message: `Gamma has no ${this.routes.keysetRoute} (404): listing ${this.routes.what} through the deprecated ${this.routes.offsetRoute} with offsets.`,
    });
    return null;
  }

  private async readPage(
    methodName: string,
    filters: ListFilters,
    limit: number,
    cursor: string | undefined,
  ): Promise<ListPage<T>> {
    const page = await this.keysetPage(filters, limit, cursor);
    if (page) return page;
    const offset = cursor === undefined ? 0 : offsetOf(cursor, methodName);
    const items = await this.reads.offset(filters, limit, offset);
    return items.length < limit ? { items } : { items, nextCursor: `offset:${offset + items.length}` };
  }

  private remembered(filters: ListFilters): Map<number, string> {
    const key = JSON.stringify([
      filters.order ?? null,
      filters.ascending ?? null,
      filters.tagSlug ?? null,
      filters.active ?? null,
      filters.closed ?? null,
    ]);
    let known = this.starts.get(key);
    if (!known) {
      if (this.starts.size >= MAX_REMEMBERED_LISTS) this.starts.clear();
      known = new Map();
      this.starts.set(key, known);
    }
    return known;
  }

  private remember(known: Map<number, string>, start: number, cursor: string): void {
    if (known.size >= MAX_REMEMBERED_STARTS) known.clear();
    known.set(start, cursor);
  }
}

/** The offset an `offset:<n>` cursor names; any other cursor means nothing to the offset list. */
function offsetOf(cursor: string, methodName: string): number {
  const match = OFFSET_CURSOR.exec(cursor);
  if (!match) {
    throw invalidParameter(
      "This cursor came from Gamma's keyset list, which answers 404 now; start again without a cursor.",
      methodName,
      { cursor: cursor.slice(0, 40) },
    );
  }
  return Number(match[1]);
}
