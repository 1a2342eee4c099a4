// The CLOB's public reads a market page needs (docs/protocol.md#clob-public-reads): one outcome token's book, its price
// history, and a market's recent trades. Validated here, unlike the trading client's pass-through reads.
import { maskId } from '../model/errors';
import { apiHttp, required, wholeNumber, type ApiClientOptions } from './client-options';
import { CLOB_READ_PATHS } from './endpoints';
import type { PolymarketHttp } from './http';
import {
  ClobBookSchema,
  LiveActivitySchema,
  PriceHistorySchema,
  type ClobBook,
  type LiveActivityTrade,
  type PricePoint,
} from './clob-schemas';

/** A named range the CLOB knows, or an explicit window in Unix seconds; fidelity is the point spacing in minutes. */
export type PriceHistoryQuery = { tokenId: string; fidelity?: number } & (
  | { interval: 'max' | '1w' | '1d' | '6h' | '1h' | '1m'; startTs?: never; endTs?: never }
  | { interval?: never; startTs: number; endTs: number }
);

export class ClobPublicReads {
  private readonly http: PolymarketHttp;

  constructor(options: ApiClientOptions) {
    this.http = apiHttp('CLOB', 'clob', options, 'ClobPublicReads');
  }

  /** GET /book?token_id=: one outcome token's book. */
  getBook(tokenId: string): Promise<ClobBook> {
    required('tokenId', tokenId, 'getOrderBook');
    return this.http.read('getOrderBook', ClobBookSchema, {
      route: CLOB_READ_PATHS.book,
      budget: 'book',
      query: { token_id: tokenId },
      context: { tokenId: maskId(tokenId) },
    });
  }

  /** GET /prices-history for one token: a named interval or a startTs/endTs window. */
  async getPriceHistory(query: PriceHistoryQuery): Promise<PricePoint[]> {
    required('tokenId', query.tokenId, 'getPriceHistory');
    if (query.fidelity !== undefined) wholeNumber('fidelity', query.fidelity, 1, 'getPriceHistory');
    if (query.interval === undefined) {
      wholeNumber('startTs', query.startTs, 0, 'getPriceHistory');
      wholeNumber('endTs', query.endTs, query.startTs, 'getPriceHistory');
    }
    const answer = await this.http.read('getPriceHistory', PriceHistorySchema, {
      route: CLOB_READ_PATHS.pricesHistory,
      budget: 'pricesHistory',
      query: {
        market: query.tokenId,
        interval: query.interval,
        startTs: query.startTs,
        endTs: query.endTs,
        fidelity: query.fidelity,
      },
      context: { tokenId: maskId(query.tokenId), interval: query.interval, fidelity: query.fidelity },
    });
    return answer.history;
  }

  /** GET /markets/live-activity/{condition_id}: the market's recent trades. */
  getLiveActivity(conditionId: string): Promise<LiveActivityTrade[]> {
    required('conditionId', conditionId, 'getLiveActivity');
    return this.http.read('getLiveActivity', LiveActivitySchema, {
      route: CLOB_READ_PATHS.liveActivity,
      params: { conditionId },
      context: { conditionId: maskId(conditionId) },
    });
  }
}
