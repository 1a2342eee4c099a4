// PLACEHOLDER replaced at merge: the Polymarket direct source (Gamma, Data API, CLOB reads, real-time feed) is
// written on another branch; this stand-in has its constructor and answers every read with ERR_NOT_AVAILABLE.
import { ErrorCode, PmDeskError } from '../../../shared/errors';
import type { Logger } from '../logger';
import type { FillSubscription, MarketSource } from '../sources/market-source';

export interface PolymarketSourceOptions {
  gammaUrl: string;
  dataUrl: string;
  clobUrl: string;
  rtdsUrl?: string;
  logger?: Logger;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const notBuilt = (methodName: string) => new PmDeskError(ErrorCode.NOT_AVAILABLE, 'The Polymarket direct market-data source is not in this build.', { methodName });
const refuse = (methodName: string) => () => Promise.reject(notBuilt(methodName));

export class PolymarketSource implements MarketSource {
  readonly kind = 'polymarket' as const;

  constructor(readonly options: PolymarketSourceOptions) {}

  listEvents = refuse('listEvents');
  getEvent = refuse('getEvent');
  getEventsBySlug = refuse('getEventsBySlug');
  getMarket = refuse('getMarket');
  getMarketsBySlug = refuse('getMarketsBySlug');
  search = refuse('search');
  listSlugs = refuse('listSlugs');
  getEventComments = refuse('getEventComments');
  getOrderBooks = refuse('getOrderBooks');
  getFillHistory = refuse('getFillHistory');
  getCandles = refuse('getCandles');
  getTrader = refuse('getTrader');
  getTraderPositions = refuse('getTraderPositions');
  getTraderActivity = refuse('getTraderActivity');
  getTraderTrades = refuse('getTraderTrades');

  subscribeToFills(): FillSubscription {
    throw notBuilt('subscribeToFills');
  }
}
