// The aggregator as a market-data source: the AggregatorClient (unchanged on the wire) behind the MarketSource
// interface, its parsed wire shapes (packages/toolkit/src/model/aggregator.ts) mapped onto the market model, candles built from
// its fill history, and its SSE fill stream. What the aggregator cannot answer (a trader's activity and trades)
// is ERR_NOT_AVAILABLE with a sentence saying which source can.
import type * as Wire from '../model/aggregator';
import { ErrorCode, PmDeskError, invalidParameter } from '../model/errors';
import type {
  Candle,
  Comment,
  FillHistory,
  Market,
  MarketOrderBooks,
  MarketTrade,
  PredictionEvent,
  SearchFilter,
  SearchMatch,
  Trader,
  TraderActivity,
  TraderPosition,
  TradeRecord,
} from '../model/market-model';
import type {
  ChartInterval,
  EventListOptions,
  FillHandlers,
  FillSubscription,
  MarketSource,
  TradePageOptions,
} from '../model/market-source';
import { CANDLE_INTERVAL_MS, generateCandles } from './candles';
import { AggregatorClient, type AggregatorClientOptions } from './client';
import { ONGOING_EVENTS_PAGE_SIZE } from './endpoints';

export const NO_TRADER_ACTIVITY = 'The aggregator has no trader activity; use a network with source polymarket.';

/** Candle widths of every chart range; the aggregator's fills are bucketed into them here. */
export const CHART_INTERVAL_MS: Readonly<Record<ChartInterval, number>> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  ...CANDLE_INTERVAL_MS,
};

export type AggregatorSourceOptions = AggregatorClientOptions & {
  /** An existing client to read through (tests hand in one with a short timeout); built from the options otherwise. */
  client?: AggregatorClient;
};

export class AggregatorSource implements MarketSource {
  readonly kind = 'aggregator' as const;
  readonly client: AggregatorClient;

  constructor(options: AggregatorSourceOptions) {
    this.client = options.client ?? new AggregatorClient(options);
  }

  /** One page of ongoing events. An offset must fall on a page; the aggregator has no tags (its sort is its own). */
  async listEvents(options: EventListOptions = {}): Promise<PredictionEvent[]> {
    const limit = options.limit ?? ONGOING_EVENTS_PAGE_SIZE;
    let page = options.page ?? 1;
    if (options.offset !== undefined) {
      if (!(Number.isInteger(options.offset) && options.offset >= 0 && options.offset % limit === 0)) {
        throw invalidParameter(
          `The aggregator lists whole pages: an offset must be a multiple of the page size ${limit}.`,
          'listEvents',
        );
      }
      page = options.offset / limit + 1;
    }
    if (options.tag)
      throw new PmDeskError(
        ErrorCode.NOT_AVAILABLE,
        'The aggregator has no tags; use a network with source polymarket.',
        { methodName: 'listEvents' },
      );
    return (await this.client.listOngoingEvents(options.protocol ?? 'polymarket', { page, limit })).map(toEvent);
  }

  async getEvent(protocol: string, eventId: string): Promise<PredictionEvent> {
    return toEvent(await this.client.getEvent(protocol, eventId));
  }

  async getEventsBySlug(slug: string): Promise<PredictionEvent[]> {
    return (await this.client.getEventsBySlug(slug)).map(toEvent);
  }

  async getMarket(protocol: string, marketId: string): Promise<Market> {
    return toMarket(await this.client.getMarket(protocol, marketId));
  }

  async getMarketsBySlug(slug: string): Promise<Market[]> {
    return (await this.client.getMarketsBySlug(slug)).map(toMarket);
  }

  async search(query: string, filter?: SearchFilter): Promise<SearchMatch[]> {
    return (await this.client.search(query, filter)).map((m) => ({ ...m, event: toEvent(m.event) }));
  }

  listSlugs(options?: { page?: number; limit?: number }): Promise<string[]> {
    return this.client.listSlugs(options);
  }

  async getEventComments(protocol: string, eventId: string): Promise<Comment[]> {
    return this.client.getEventComments(protocol, eventId);
  }

  async getOrderBooks(protocol: string, marketId: string): Promise<MarketOrderBooks> {
    return this.client.getOrderBooks(protocol, marketId);
  }

  async getFillHistory(protocol: string, marketId: string): Promise<FillHistory> {
    return (await this.client.getFillHistory(protocol, marketId)).map((fills) => fills.map(toTradeRecord));
  }

  /** Candles of one outcome, bucketed from the market's fill history. */
  async getCandles(
    protocol: string,
    marketId: string,
    outcomeIndex: number,
    interval: ChartInterval,
  ): Promise<Candle[]> {
    const width = CHART_INTERVAL_MS[interval];
    if (!width) throw invalidParameter(`Unknown chart interval '${String(interval)}'.`, 'getCandles');
    const history = await this.getFillHistory(protocol, marketId);
    const fills = history[outcomeIndex];
    if (!fills)
      throw new PmDeskError(ErrorCode.NOT_FOUND, `This market has no outcome number ${outcomeIndex + 1}.`, {
        methodName: 'getCandles',
      });
    return generateCandles(fills, width);
  }

  async getTrader(protocol: string, address: string): Promise<Trader> {
    return this.client.getTrader(protocol, address);
  }

  async getTraderPositions(protocol: string, address: string): Promise<TraderPosition[]> {
    return this.client.getTraderPositions(protocol, address);
  }

  async getTraderActivity(_address: string, _page?: TradePageOptions): Promise<TraderActivity[]> {
    throw new PmDeskError(ErrorCode.NOT_AVAILABLE, NO_TRADER_ACTIVITY, { methodName: 'getTraderActivity' });
  }

  async getTraderTrades(_address: string, _page?: TradePageOptions): Promise<MarketTrade[]> {
    throw new PmDeskError(ErrorCode.NOT_AVAILABLE, NO_TRADER_ACTIVITY, { methodName: 'getTraderTrades' });
  }

  /** The aggregator's SSE fill stream; it is live or closed, never polling. */
  subscribeToFills(protocol: string, marketId: string, handlers: FillHandlers = {}): FillSubscription {
    const subscription = this.client.subscribeToFills(protocol, marketId, {
      onOpen: handlers.onOpen,
      onFill: handlers.onFill && ((fill) => handlers.onFill!(toTradeRecord(fill))),
      onError: handlers.onError,
      onClose: handlers.onClose,
    });
    return {
      get state() {
        return subscription.state;
      },
      latest: () => {
        const fill = subscription.latest();
        return fill ? toTradeRecord(fill) : null;
      },
      close: () => subscription.close(),
      done: subscription.done,
    };
  }
}

/** Undefined for a field the aggregator sent as null (the model states a trading field or leaves it out). */
const given = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

/** A market: field for field, with the trading fields the aggregator sends loosely typed (null ones left out). */
export function toMarket(wire: Wire.Market): Market {
  const {
    conditionId,
    minimum_tick_size,
    minimum_order_size,
    accepting_orders,
    closed,
    neg_risk,
    fee_schedule,
    ...rest
  } = wire;
  const market: Market = { ...rest };
  // A fee-free market's null schedule is its rate 0; an absent one says nothing.
  if (fee_schedule !== undefined) {
    market.fees = fee_schedule
      ? { rate: fee_schedule.rate, exponent: fee_schedule.exponent ?? 1, takerOnly: fee_schedule.taker_only ?? true }
      : { rate: 0, exponent: 1, takerOnly: true };
  }
  const typed = {
    neg_risk: given(neg_risk),
    conditionId: given(conditionId),
    minimum_tick_size: given(minimum_tick_size),
    minimum_order_size: given(minimum_order_size),
    accepting_orders: given(accepting_orders),
    closed: given(closed),
  };
  for (const [key, value] of Object.entries(typed))
    if (value !== undefined) (market as unknown as Record<string, unknown>)[key] = value;
  return market;
}

/** An event with its markets; its closed flag, 24 h volume and neg-risk flag when the aggregator states them. */
export function toEvent(wire: Wire.PredictionEvent): PredictionEvent {
  const { markets, closed, volume24hr, neg_risk, ...rest } = wire;
  const event: PredictionEvent = { ...rest, markets: markets.map(toMarket) };
  if (closed !== undefined && closed !== null) event.closed = closed;
  if (volume24hr !== undefined) event.volume24hr = volume24hr;
  if (neg_risk !== undefined && neg_risk !== null) event.neg_risk = neg_risk;
  return event;
}

/** A fill: its three numbers, and what the aggregator adds of the model's optional fields when well typed. */
export function toTradeRecord(wire: Wire.TradeRecord): TradeRecord {
  const record: TradeRecord = { price: wire.price, volumeBase: wire.volumeBase, timestamp: wire.timestamp };
  if (wire.side === 'BUY' || wire.side === 'SELL') record.side = wire.side;
  for (const key of ['tokenId', 'trader', 'traderName', 'transactionHash'] as const) {
    const value = wire[key];
    if (typeof value === 'string' && value !== '') record[key] = value;
  }
  return record;
}
