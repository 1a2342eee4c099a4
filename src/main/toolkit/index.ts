// The PM Desk toolkit: everything a developer needs to read Polymarket markets through the aggregator
// (and, in later modules, to trade on the exchange), usable on its own under plain Node.
export * from '../../shared/errors';
export * from '../../shared/aggregator';
export { AggregatorClient, toPolyOrder, type AggregatorClientOptions, type PageOptions } from './aggregator/client';
export { AGGREGATOR_PATHS, DEFAULT_TIMEOUT_MS, ONGOING_EVENTS_PAGE_SIZE, SLUG_LIST_PAGE_SIZE } from './aggregator/endpoints';
export {
  subscribeToFills,
  parseFillMessage,
  resolveEventSource,
  type FillHandlers,
  type FillSubscription,
  type FillStreamState,
  type EventSourceConstructor,
} from './aggregator/fills';
export {
  generateCandles,
  candleIntervalMillis,
  CANDLE_INTERVAL_MS,
  PRICE_HISTORY_INTERVALS,
  type Candle,
  type CandleIntervalName,
  type PriceHistoryInterval,
} from './aggregator/candles';
export { httpRequest, type HttpRequest, type HttpResponse, type HttpMethod } from './http/request';
export { buildQuery, encodeQueryValue } from './http/query';
export { consoleLogger, silentLogger, type Logger } from './logger';
