// The Data API (DIRECT-DATA-NOTES §b): a trader's positions, activity, trades, portfolio value and markets
// traded, and a market's trade tape. camelCase parameters, UPPERCASE enums, offset paging capped at 10,000.
import { z } from 'zod';
import { invalidParameter, maskId } from '../model/errors';
import { apiHttp, readAllPages, required, wholeNumber, type ApiClientOptions } from './client-options';
import { DATA_MAX_OFFSET, DATA_PATHS, POSITIONS_PAGE_SIZE, TRADES_PAGE_SIZE } from './endpoints';
import type { PolymarketHttp } from './http';
import {
  DataActivitySchema,
  DataPositionSchema,
  DataTradeSchema,
  DataTradedSchema,
  DataValueSchema,
  type DataActivity,
  type DataPosition,
  type DataTrade,
} from './data-schemas';

export interface RowPage {
  limit?: number;
  offset?: number;
}

export interface TradeQuery extends RowPage {
  /** A trader's wallet; omitted for a market's tape. */
  user?: string;
  /** A market's condition id. */
  market?: string;
  /** Only the taker's side of each match (the API's default); false includes makers. */
  takerOnly?: boolean;
}

export class DataClient {
  private readonly http: PolymarketHttp;

  constructor(options: ApiClientOptions) {
    this.http = apiHttp('Data API', 'data', options, 'DataClient');
  }

  /** GET /trades: newest first. */
  getTrades(query: TradeQuery, methodName = 'getTrades'): Promise<DataTrade[]> {
    if (!query.user && !query.market) throw invalidParameter("Parameter 'user' or 'market' is required.", methodName);
    const { limit, offset } = page(query, TRADES_PAGE_SIZE, 10_000, methodName);
    return this.http.read(methodName, z.array(DataTradeSchema), {
      route: DATA_PATHS.trades,
      budget: 'trades',
      query: { user: query.user, market: query.market, limit, offset, takerOnly: query.takerOnly },
      context: { user: maskId(query.user), market: maskId(query.market), limit, offset },
    });
  }

  /** GET /positions, every page (500 a page) up to the API's offset cap. */
  getPositions(user: string): Promise<DataPosition[]> {
    required('address', user, 'getTraderPositions');
    return readAllPages(
      (offset, limit) =>
        this.http.read('getTraderPositions', z.array(DataPositionSchema), {
          route: DATA_PATHS.positions,
          budget: 'positions',
          query: { user, limit, offset },
          context: { user: maskId(user), offset },
        }),
      { limit: POSITIONS_PAGE_SIZE, maxRows: DATA_MAX_OFFSET + POSITIONS_PAGE_SIZE, maxOffset: DATA_MAX_OFFSET },
    );
  }

  /** GET /activity: one page, newest first. */
  getActivity(user: string, rows: RowPage = {}): Promise<DataActivity[]> {
    required('address', user, 'getTraderActivity');
    const { limit, offset } = page(rows, TRADES_PAGE_SIZE, 500, 'getTraderActivity');
    return this.http.read('getTraderActivity', z.array(DataActivitySchema), {
      route: DATA_PATHS.activity,
      query: { user, limit, offset },
      context: { user: maskId(user), limit, offset },
    });
  }

  /** GET /value: the portfolio's value in dollars, or null when the API has no row for the address. */
  async getValue(user: string): Promise<number | null> {
    required('address', user, 'getValue');
    const rows = await this.http.read('getValue', DataValueSchema, { route: DATA_PATHS.value, query: { user }, context: { user: maskId(user) } });
    return rows[0]?.value ?? null;
  }

  /** GET /traded: how many markets the address has traded. */
  async getMarketsTraded(user: string): Promise<number> {
    required('address', user, 'getMarketsTraded');
    const answer = await this.http.read('getMarketsTraded', DataTradedSchema, { route: DATA_PATHS.traded, query: { user }, context: { user: maskId(user) } });
    return answer.traded;
  }
}

/** limit and offset checked against the endpoint's bounds before anything is sent. */
function page(rows: RowPage, defaultLimit: number, maxLimit: number, methodName: string): { limit: number; offset: number } {
  const { limit = defaultLimit, offset = 0 } = rows;
  wholeNumber('limit', limit, 1, methodName);
  wholeNumber('offset', offset, 0, methodName);
  if (limit > maxLimit) throw invalidParameter(`Parameter 'limit' must be at most ${maxLimit}.`, methodName, { limit });
  if (offset > DATA_MAX_OFFSET) throw invalidParameter(`Parameter 'offset' must be at most ${DATA_MAX_OFFSET}.`, methodName, { offset });
  return { limit, offset };
}
