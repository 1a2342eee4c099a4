// The Data API (docs/protocol.md#data-api): a trader's positions, activity, trades, portfolio value and markets
// traded, and a market's trade tape. The feeds (positions, trades, activity) are read at Polymarket's v2 paths
// with the server's cursors, at most 20 condition ids a request; where v2 answers 404 the v1 paths (camelCase
// parameters, offset paging capped at 10,000) are read instead, and the logger is told once per feed.
import { z } from 'zod';
import { ErrorCode, invalidParameter, maskId, PmDeskError } from '../model/errors';
import { consoleLogger, type Logger } from '../base/logger';
import type { Query } from '../http/query';
import { apiHttp, readAllPages, required, wholeNumber, type ApiClientOptions } from './client-options';
import {
  DATA_MAX_OFFSET,
  DATA_PATHS,
  DATA_V2_MAX_CONDITION_IDS,
  DATA_V2_PAGE_MAX,
  DATA_V2_PATHS,
  POSITIONS_PAGE_SIZE,
  TRADES_PAGE_SIZE,
} from './endpoints';
import type { PolymarketHttp } from './http';
import {
  DataActivitySchema,
  DataPositionSchema,
  DataTradeSchema,
  DataTradedSchema,
  DataV2ActivitySchema,
  DataV2PositionSchema,
  DataV2TradeSchema,
  DataValueSchema,
  dataV2PageSchema,
  POSITION_STATUSES,
  type DataActivity,
  type DataPosition,
  type DataTrade,
  type PositionStatus,
} from './data-schemas';

type Feed = keyof typeof DATA_V2_PATHS;

export interface RowPage {
  limit?: number;
  offset?: number;
}

export interface TradeQuery extends RowPage {
  /** A trader's wallet; omitted for a market's tape. */
  user?: string;
  /** A market's condition id. */
  market?: string;
  /** Several markets' condition ids: asked at most 20 a request and merged, newest first. */
  markets?: string[];
  /** Only the taker's side of each match (the API's default); false includes makers. */
  takerOnly?: boolean;
}

export interface PositionQuery {
  /** Only these markets' positions (asked at most 20 condition ids a request). */
  conditionIds?: string[];
  /** OPEN (held, the default; includes REDEEMABLE), REDEEMABLE or CLOSED (exited). */
  status?: PositionStatus;
}

export class DataClient {
  private readonly http: PolymarketHttp;
  private readonly logger: Logger;
  /** Feeds whose v2 path answered 404 here: read at their v1 path from then on. */
  private readonly v1Only = new Set<Feed>();
  /** Where the v1 fallback is said (the CLI's stderr, the terminal's notices), besides the log. */
  private readonly onNotice: ApiClientOptions['onNotice'];

  constructor(options: ApiClientOptions) {
    this.http = apiHttp('Data API', 'data', options, 'DataClient');
    this.logger = options.logger ?? consoleLogger;
    this.onNotice = options.onNotice;
  }

  /** Trades newest first: /v2/trades with its cursors, else GET /trades. */
  async getTrades(query: TradeQuery, methodName = 'getTrades'): Promise<DataTrade[]> {
    const markets = query.markets === undefined ? undefined : conditionList(query.markets, 'markets', methodName);
    if (query.market !== undefined && markets)
      throw invalidParameter("Give 'market' or 'markets', not both.", methodName);
    if (!query.user && !query.market && !markets?.length)
      throw invalidParameter("Parameter 'user' or 'market' is required.", methodName);
    const { limit, offset } = page(query, TRADES_PAGE_SIZE, 10_000, methodName);
    if (markets && offset > 0)
      throw invalidParameter("Parameter 'offset' cannot be combined with 'markets'.", methodName, { offset });
    const batches = markets ? batchesOf(markets) : [query.market === undefined ? undefined : [query.market]];
    const rows = (
      await Promise.all(
        batches.map((batch) =>
          this.feed(
            'trades',
            methodName,
            DataV2TradeSchema,
            { user: query.user, condition_id: batch?.join(','), taker_only: query.takerOnly },
            offset + limit,
            () =>
              this.http.read(methodName, z.array(DataTradeSchema), {
                route: DATA_PATHS.trades,
                budget: 'trades',
                query: { user: query.user, market: batch?.join(','), limit, offset, takerOnly: query.takerOnly },
                context: { user: maskId(query.user), market: maskId(batch?.[0]), limit, offset },
              }),
            offset,
          ),
        ),
      )
    ).flat();
    // Several batches are merged newest first; a stable sort keeps each batch's same-second order.
    if (batches.length > 1) rows.sort((a, b) => b.timestamp - a.timestamp);
    return batches.length > 1 ? rows.slice(0, limit) : rows;
  }

  /** Every position (OPEN unless told): /v2/positions with its cursors, else GET /positions 500 a page. */
  async getPositions(user: string, query: PositionQuery = {}): Promise<DataPosition[]> {
    const methodName = 'getTraderPositions';
    required('address', user, methodName);
    const status = query.status ?? 'OPEN';
    if (!POSITION_STATUSES.includes(status))
      throw invalidParameter(`Parameter 'status' must be one of ${POSITION_STATUSES.join(', ')}.`, methodName, {
        status,
      });
    const ids =
      query.conditionIds === undefined ? undefined : conditionList(query.conditionIds, 'conditionIds', methodName);
    const batches = ids ? batchesOf(ids) : [undefined];
    const maxRows = DATA_MAX_OFFSET + POSITIONS_PAGE_SIZE;
    const pages = await Promise.all(
      batches.map((batch) =>
        this.feed(
          'positions',
          methodName,
          DataV2PositionSchema,
          { user, condition_id: batch?.join(','), status },
          maxRows,
          () => {
            if (status === 'CLOSED') {
              throw new PmDeskError(
                ErrorCode.NOT_AVAILABLE,
                'Closed positions are read only from the Data API v2 feed, which this host does not serve.',
                { methodName },
              );
            }
            return readAllPages(
              (offset, limit) =>
                this.http.read(methodName, z.array(DataPositionSchema), {
                  route: DATA_PATHS.positions,
                  budget: 'positions',
                  query: {
                    user,
                    market: batch?.join(','),
                    redeemable: status === 'REDEEMABLE' ? true : undefined,
                    limit,
                    offset,
                  },
                  context: { user: maskId(user), offset },
                }),
              { limit: POSITIONS_PAGE_SIZE, maxRows, maxOffset: DATA_MAX_OFFSET },
            );
          },
        ),
      ),
    );
    return pages.flat();
  }

  /** One page of activity, newest first: /v2/activity with its cursors, else GET /activity. */
  getActivity(user: string, rows: RowPage = {}): Promise<DataActivity[]> {
    const methodName = 'getTraderActivity';
    required('address', user, methodName);
    const { limit, offset } = page(rows, TRADES_PAGE_SIZE, 500, methodName);
    const v1 = () =>
      this.http.read(methodName, z.array(DataActivitySchema), {
        route: DATA_PATHS.activity,
        query: { user, limit, offset },
        context: { user: maskId(user), limit, offset },
      });
    return this.feed(
      'activity',
      methodName,
      DataV2ActivitySchema,
      { user, exclude_deposits_withdrawals: false },
      offset + limit,
      v1,
      offset,
    );
  }

  /**
   * The first `wanted` rows of a v2 feed (rows before `skip` dropped), walking its server cursors with the same
   * filters on every page; or `v1()` once the v2 path has answered 404 here.
   */
  private async feed<Row extends z.ZodType, T>(
    name: Feed,
    methodName: string,
    row: Row,
    filters: Query,
    wanted: number,
    v1: () => Promise<T[]>,
    skip = 0,
  ): Promise<T[]> {
    if (this.v1Only.has(name)) return v1();
    const schema = dataV2PageSchema(row).nullable();
    const limit = Math.min(wanted, DATA_V2_PAGE_MAX);
    const rows: T[] = [];
    let cursor: string | undefined;
    for (let pages = 0; rows.length < wanted; pages++) {
      const answer = await this.http.read(methodName, schema, {
        route: DATA_V2_PATHS[name],
        budget: name === 'activity' ? undefined : name,
        query: { ...filters, limit, cursor },
        context: { user: maskId(filters.user), page: pages },
        // A 404 is the v2 feed missing on this host (read as null here), not a missing row.
        absentIsNull: true,
      });
      if (answer === null) {
        if (pages > 0)
          throw new PmDeskError(
            ErrorCode.NOT_FOUND,
            `The Data API's ${DATA_V2_PATHS[name]} stopped answering mid-walk.`,
            { methodName },
          );
        // Batches asked together may all meet the 404: the fallback is said once.
        if (this.v1Only.has(name)) return v1();
        this.v1Only.add(name);
        const message = `The Data API does not serve ${DATA_V2_PATHS[name]} here (404); reading ${DATA_PATHS[name]} with offset pages instead.`;
        this.logger.warn(message);
        this.onNotice?.({ kind: 'fallback', api: 'Data API', endpoint: `GET ${DATA_V2_PATHS[name]}`, message });
        return v1();
      }
      // A page with no rows that says there is more would be walked without end: a broken answer, said so.
      if (answer.rows.length === 0 && answer.nextCursor !== null) {
        const broken = new PmDeskError(
          ErrorCode.VALIDATION_ERROR,
          `The Data API's ${DATA_V2_PATHS[name]} answered an empty page with a next cursor.`,
          { methodName, context: { field: 'pagination.next_cursor' } },
        );
        this.logger.error(broken.message, broken);
        throw broken;
      }
      rows.push(...(answer.rows as T[]));
      if (answer.nextCursor === null) break;
      cursor = answer.nextCursor;
    }
    return rows.slice(skip, wanted);
  }

  /** GET /value: the portfolio's value in dollars, or null when the API has no row for the address. */
  async getValue(user: string): Promise<number | null> {
    required('address', user, 'getValue');
    const rows = await this.http.read('getValue', DataValueSchema, {
      route: DATA_PATHS.value,
      query: { user },
      context: { user: maskId(user) },
    });
    return rows[0]?.value ?? null;
  }

  /**
   * GET /v1/accounting/snapshot: Polymarket's accounting snapshot of the address, a ZIP of CSV files (its positions
   * and equity), as the bytes to save. Checked to be a ZIP archive; what is inside is Polymarket's to say.
   */
  async downloadAccountingSnapshot(user: string): Promise<Uint8Array> {
    required('address', user, 'downloadAccountingSnapshot');
    return this.http.readFile(
      'downloadAccountingSnapshot',
      { route: DATA_PATHS.accountingSnapshot, query: { user }, context: { user: maskId(user) } },
      (bytes) =>
        // A ZIP opens with a local file header (PK\x03\x04), or is an empty archive's end record (PK\x05\x06).
        bytes.length >= 22 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5)
          ? undefined
          : 'the accounting snapshot is not a ZIP archive',
    );
  }

  /** GET /traded: how many markets the address has traded. */
  async getMarketsTraded(user: string): Promise<number> {
    required('address', user, 'getMarketsTraded');
    const answer = await this.http.read('getMarketsTraded', DataTradedSchema, {
      route: DATA_PATHS.traded,
      query: { user },
      context: { user: maskId(user) },
    });
    return answer.traded;
  }
}

/** Condition ids checked and deduplicated (without regard to case, as the Data API counts them). */
function conditionList(ids: unknown, name: string, methodName: string): string[] {
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(id))) {
    throw invalidParameter(`Parameter '${name}' must be a list of condition ids (0x and 64 hex digits).`, methodName);
  }
  const seen = new Map<string, string>();
  for (const id of ids as string[]) if (!seen.has(id.toLowerCase())) seen.set(id.toLowerCase(), id);
  return [...seen.values()];
}

/** The Data API takes at most 20 distinct condition ids a request: more are asked in batches. */
function batchesOf(ids: string[]): string[][] {
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += DATA_V2_MAX_CONDITION_IDS)
    batches.push(ids.slice(i, i + DATA_V2_MAX_CONDITION_IDS));
  return batches;
}

/** limit and offset checked against the endpoint's bounds before anything is sent. */
function page(
  rows: RowPage,
  defaultLimit: number,
  maxLimit: number,
  methodName: string,
): { limit: number; offset: number } {
  const { limit = defaultLimit, offset = 0 } = rows;
  wholeNumber('limit', limit, 1, methodName);
  wholeNumber('offset', offset, 0, methodName);
  if (limit > maxLimit) throw invalidParameter(`Parameter 'limit' must be at most ${maxLimit}.`, methodName, { limit });
  if (offset > DATA_MAX_OFFSET)
    throw invalidParameter(`Parameter 'offset' must be at most ${DATA_MAX_OFFSET}.`, methodName, { offset });
  return { limit, offset };
}
