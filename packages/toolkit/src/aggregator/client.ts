// The aggregator API client (docs/protocol.md#aggregator): every call of its table with exactly those paths, query
// parameters and defaults, the validations of docs/protocol.md#validation-messages before anything is sent, and the failure
// behaviour of docs/protocol.md#errors (catalogued errors, wrapped once and logged; the oracle calls swallow theirs).
import type { z } from 'zod';
import {
  EventSchema,
  CommentSchema,
  FillHistorySchema,
  MarketOrderBooksSchema,
  MarketSchema,
  POLY_ORDER_FIELDS,
  SearchMatchSchema,
  SlugListSchema,
  TraderPositionSchema,
  TraderSchema,
  type Comment,
  type FillHistory,
  type Market,
  type MarketOrderBooks,
  type PolyOrder,
  type PredictionEvent,
  type SearchFilter,
  type SearchMatch,
  type Trader,
  type TraderPosition,
} from '../model/aggregator';
import { ErrorCode, PmDeskError, invalidParameter, maskId, truncate, wrapOnce } from '../model/errors';
import { httpRequest, type HttpMethod } from '../http/request';
import type { Query } from '../http/query';
import { consoleLogger, type Logger } from '../base/logger';
import {
  AGGREGATOR_PATHS,
  DEFAULT_TIMEOUT_MS,
  ONGOING_EVENTS_PAGE_SIZE,
  SLUG_LIST_PAGE_SIZE,
  fillPath,
} from './endpoints';
import { optionalFinite, requireParam, requirePositiveWhole } from './validate';
import {
  subscribeToFills,
  type EventSourceConstructor,
  type FillHandlers,
  type FillSubscription,
  type StreamLimits,
} from './fills';
import { retryNoticeText, withThrottleRetries, type RetryNotice } from '../http/retry';

export interface AggregatorClientOptions {
  /** Base URL of the aggregator API, e.g. the sandbox's `http://127.0.0.1:4810`. */
  apiUrl: string;
  /** Base URL of the fill-event stream; the API URL when not given. */
  sseUrl?: string;
  /** Per-request timeout; 100000 ms by default (docs/protocol.md#constants-and-limits). */
  timeoutMs?: number;
  logger?: Logger;
  /** A fetch to use instead of the platform's (a proxy-aware one, say). */
  fetch?: typeof fetch;
  /** An EventSource to use instead of the platform's or the `eventsource` package's. */
  EventSource?: EventSourceConstructor;
  /** Told before a throttled read is retried ("rate limited, retrying in N s"). */
  onRetry?: (notice: RetryNotice) => void;
  /** The largest answer accepted, in bytes (2 MB by default). */
  maxAnswerBytes?: number;
  /** The fill stream's bounds: how long it may take to open, go quiet, and how large one message may be. */
  streamLimits?: StreamLimits;
}

export interface PageOptions {
  page?: number;
  limit?: number;
}

interface CallSpec {
  method?: HttpMethod;
  route: string;
  params?: Record<string, string>;
  query?: Query;
  body?: unknown;
  context?: Record<string, unknown>;
}

export class AggregatorClient {
  readonly apiUrl: string;
  readonly sseUrl: string;
  readonly timeoutMs: number;
  private readonly logger: Logger;
  private readonly fetchImpl: typeof fetch | undefined;
  private readonly eventSourceImpl: EventSourceConstructor | undefined;
  private readonly onRetry: ((notice: RetryNotice) => void) | undefined;
  private readonly maxAnswerBytes: number | undefined;
  private readonly streamLimits: StreamLimits | undefined;

  constructor(options: AggregatorClientOptions) {
    if (!options || typeof options.apiUrl !== 'string' || options.apiUrl.trim() === '') {
      throw invalidParameter("Missing required parameter 'apiUrl'.", 'AggregatorClient');
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
      throw invalidParameter("Parameter 'timeoutMs' must be a positive number of milliseconds.", 'AggregatorClient');
    }
    this.apiUrl = options.apiUrl;
    this.sseUrl = options.sseUrl ?? options.apiUrl;
    this.timeoutMs = timeoutMs;
    this.logger = options.logger ?? consoleLogger;
    this.fetchImpl = options.fetch;
    this.eventSourceImpl = options.EventSource;
    this.onRetry = options.onRetry;
    this.maxAnswerBytes = options.maxAnswerBytes;
    this.streamLimits = options.streamLimits;
  }

  /** GET /v1/events/{id}: one event with its markets. */
  getEvent(protocol: string, marketId: string): Promise<PredictionEvent> {
    return this.byId('getEvent', EventSchema, AGGREGATOR_PATHS.event, protocol, ['marketId', marketId]);
  }

  /** GET /v1/markets/{id}: one market with its outcome tokens. */
  getMarket(protocol: string, exchangeId: string): Promise<Market> {
    return this.byId('getMarket', MarketSchema, AGGREGATOR_PATHS.market, protocol, ['exchangeId', exchangeId]);
  }

  /** GET /v1/ongoing-events: one page of live events (page 1, 50 a page by default). */
  listOngoingEvents(
    protocol: string,
    { page = 1, limit = ONGOING_EVENTS_PAGE_SIZE }: PageOptions = {},
  ): Promise<PredictionEvent[]> {
    return this.call('listOngoingEvents', EventSchema.array(), () => {
      requireParam('protocol', protocol, 'listOngoingEvents');
      requirePositiveWhole('page', page, 'listOngoingEvents');
      requirePositiveWhole('limit', limit, 'listOngoingEvents');
      return {
        route: AGGREGATOR_PATHS.ongoingEvents,
        query: { protocol, page, limit },
        context: { protocol, page, limit },
      };
    });
  }

  /** GET /v1/events/{id}/comments: the event's discussion. */
  getEventComments(protocol: string, marketId: string): Promise<Comment[]> {
    return this.byId('getEventComments', CommentSchema.array(), AGGREGATOR_PATHS.eventComments, protocol, [
      'marketId',
      marketId,
    ]);
  }

  /** GET /v1/markets/{id}/orderbook: one book per outcome token, keyed by token id. */
  getOrderBooks(protocol: string, exchangeId: string): Promise<MarketOrderBooks> {
    return this.byId('getOrderBooks', MarketOrderBooksSchema, AGGREGATOR_PATHS.marketOrderBooks, protocol, [
      'exchangeId',
      exchangeId,
    ]);
  }

  /** GET /v1/markets/{id}/orderbook/filledevents: fills per outcome token, in position_tokens order. */
  getFillHistory(protocol: string, exchangeId: string): Promise<FillHistory> {
    return this.byId('getFillHistory', FillHistorySchema, AGGREGATOR_PATHS.marketFillHistory, protocol, [
      'exchangeId',
      exchangeId,
    ]);
  }

  /** GET /v1/trader/{address}: a trader's profile and stats. The address is checked before the protocol. */
  getTrader(protocol: string, traderAddress: string): Promise<Trader> {
    return this.byId(
      'getTrader',
      TraderSchema,
      AGGREGATOR_PATHS.trader,
      protocol,
      ['traderAddress', traderAddress],
      true,
    );
  }

  /** GET /v1/trader/{address}/positions: a trader's open positions. */
  getTraderPositions(protocol: string, traderAddress: string): Promise<TraderPosition[]> {
    return this.byId(
      'getTraderPositions',
      TraderPositionSchema.array(),
      AGGREGATOR_PATHS.traderPositions,
      protocol,
      ['traderAddress', traderAddress],
      true,
    );
  }

  /** GET /v1/agg/sluglist: one page of slugs across providers (page 1, 100 a page by default). */
  listSlugs({ page = 1, limit = SLUG_LIST_PAGE_SIZE }: PageOptions = {}): Promise<string[]> {
    return this.call('listSlugs', SlugListSchema, () => {
      requirePositiveWhole('page', page, 'listSlugs');
      requirePositiveWhole('limit', limit, 'listSlugs');
      return { route: AGGREGATOR_PATHS.slugList, query: { page, limit }, context: { page, limit } };
    });
  }

  /** GET /v1/agg: the events with this slug on every provider. None (or a 404) is a not-found error. */
  getEventsBySlug(slug: string): Promise<PredictionEvent[]> {
    return this.slugLookup('getEventsBySlug', EventSchema.array(), AGGREGATOR_PATHS.eventsBySlug, slug, 'Market');
  }

  /** GET /v1/agg/market: the markets with this slug on every provider. None (or a 404) is a not-found error. */
  getMarketsBySlug(slug: string): Promise<Market[]> {
    return this.slugLookup('getMarketsBySlug', MarketSchema.array(), AGGREGATOR_PATHS.marketsBySlug, slug, 'Exchange');
  }

  /** GET /v1/agg/retrieve: free-text search, best match first. Optional filters are sent only when given. */
  search(query: string, filter: SearchFilter = {}): Promise<SearchMatch[]> {
    return this.call('search', SearchMatchSchema.array(), () => {
      requireParam('query', query, 'search');
      optionalFinite('topK', filter.topK, 'search');
      optionalFinite('threshold', filter.threshold, 'search');
      const protocols = (filter.protocols ?? []).map((p) => p.trim()).filter(Boolean);
      return {
        route: AGGREGATOR_PATHS.search,
        query: {
          query,
          topK: filter.topK,
          protocols: protocols.length ? protocols.join(',') : undefined,
          isIncludeComment: filter.isIncludeComment,
          threshold: filter.threshold,
        },
        context: { query: truncate(query, 50), protocols },
      };
    });
  }

  /**
   * POST /v1/proposePrice with `{order}`: offers a signed order's price to the aggregator's price oracle.
   * Resolves with the server's answer, or null on any failure (logged), as docs/protocol.md#errors says.
   */
  async proposePrice(order: Record<string, unknown>): Promise<unknown> {
    try {
      const body = { order: toPolyOrder(order, 'proposePrice') };
      const { data } = await this.send('proposePrice', { method: 'POST', route: AGGREGATOR_PATHS.proposePrice, body });
      return data ?? {};
    } catch (error) {
      this.logger.warn('proposePrice failed; returning null', wrapOnce(error, 'proposePrice'));
      return null;
    }
  }

  /** POST /v1/verifyPrice (no body): asks the oracle keeper to verify pending prices. Null on any failure (logged). */
  async verifyPrice(): Promise<unknown> {
    try {
      const { data } = await this.send('verifyPrice', { method: 'POST', route: AGGREGATOR_PATHS.verifyPrice });
      return data ?? {};
    } catch (error) {
      this.logger.warn('verifyPrice failed; returning null', wrapOnce(error, 'verifyPrice'));
      return null;
    }
  }

  /** GET /v1/scanPendingPriceData: whether any pending oracle price can be verified now. False on any failure (logged). */
  async scanPendingPriceData(): Promise<boolean> {
    try {
      return await this.scanPendingPriceDataOrThrow();
    } catch (error) {
      this.logger.warn('scanPendingPriceData failed; returning false', wrapOnce(error, 'scanPendingPriceData'));
      return false;
    }
  }

  /**
   * The same scan, a failure thrown (catalogued) instead of read as false: for a caller that must tell "nothing
   * pending" from "the aggregator did not answer" (`pmdesk oracle scan`).
   */
  async scanPendingPriceDataOrThrow(): Promise<boolean> {
    const { data } = await this.send('scanPendingPriceData', { route: AGGREGATOR_PATHS.scanPendingPriceData });
    const result = (data as { result?: unknown } | undefined)?.result;
    if (typeof result !== 'boolean') {
      throw new PmDeskError(
        ErrorCode.VALIDATION_ERROR,
        'Unexpected response from the API server: result: expected boolean',
        {
          methodName: 'scanPendingPriceData',
        },
      );
    }
    return result;
  }

  /** GET (SSE) /sse/fillevent?protocol=…&id=…: live fills of one market. No automatic reconnect. */
  subscribeToFills(protocol: string, id: string, handlers: FillHandlers = {}): FillSubscription {
    return subscribeToFills({
      sseUrl: this.sseUrl,
      protocol,
      id,
      handlers,
      logger: this.logger,
      EventSource: this.eventSourceImpl,
      fetch: this.fetchImpl,
      // The stream takes no longer to open than a request takes to answer.
      limits: { connectTimeoutMs: this.timeoutMs, ...this.streamLimits },
    });
  }

  /**
   * A read of one resource by protocol and id: both are required (trader reads check the address first,
   * as the reference SDK did), the id fills the route's one `{…}` and is masked in any error's context.
   */
  private byId<S extends z.ZodType>(
    methodName: string,
    schema: S,
    route: string,
    protocol: string,
    [idName, id]: [string, string],
    idFirst = false,
  ): Promise<z.output<S>> {
    return this.call(methodName, schema, () => {
      const checks: [string, unknown][] = [
        ['protocol', protocol],
        [idName, id],
      ];
      for (const [name, value] of idFirst ? checks.reverse() : checks) requireParam(name, value, methodName);
      const placeholder = /\{(\w+)\}/.exec(route)?.[1] ?? 'id';
      return { route, params: { [placeholder]: id }, query: { protocol }, context: { protocol, [idName]: maskId(id) } };
    });
  }

  private slugLookup<S extends z.ZodType>(
    methodName: string,
    schema: S,
    route: string,
    slug: string,
    noun: string,
  ): Promise<z.output<S>> {
    const detail = `${noun} with slug '${slug}' not found.`;
    const notFound = (responseData?: unknown) =>
      new PmDeskError(ErrorCode.NOT_FOUND, detail, {
        methodName,
        statusCode: 404,
        responseData,
        context: { slug: maskId(slug) },
      });
    return this.call(
      methodName,
      schema,
      () => {
        requireParam('slug', slug, methodName);
        return { route, query: { slug }, context: { slug: maskId(slug) } };
      },
      {
        check: (found) => {
          if (!Array.isArray(found) || found.length === 0) throw notFound(found);
        },
        mapError: (error) =>
          error.statusCode === 404 && error.detail !== detail ? notFound(error.responseData) : error,
      },
    );
  }

  /**
   * Validates (the prepare step throws before anything is sent), sends, parses the answer with its schema,
   * then wraps any failure once, lets the caller re-word it, and logs it.
   */
  private async call<S extends z.ZodType>(
    methodName: string,
    schema: S,
    prepare: () => CallSpec,
    after: { check?: (value: z.output<S>) => void; mapError?: (error: PmDeskError) => PmDeskError } = {},
  ): Promise<z.output<S>> {
    try {
      const { data, status } = await this.send(methodName, prepare());
      const parsed = schema.safeParse(data);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue?.path.length ? issue.path.join('.') : '(root)';
        throw new PmDeskError(
          ErrorCode.VALIDATION_ERROR,
          `Unexpected response from the API server: ${where}: ${issue?.message ?? 'invalid'}`,
          {
            methodName,
            statusCode: status,
            responseData: truncate(JSON.stringify(data) ?? String(data), 300),
            context: { field: where },
          },
        );
      }
      after.check?.(parsed.data);
      return parsed.data;
    } catch (error) {
      let wrapped = wrapOnce(error, methodName);
      if (after.mapError) wrapped = after.mapError(wrapped);
      this.logger.error(wrapped.message, wrapped);
      throw wrapped;
    }
  }

  /** One request, a throttled read retried as Retry-After says (the oracle's POSTs never are). */
  private send(methodName: string, spec: CallSpec) {
    const method = spec.method ?? 'GET';
    const announce = (notice: RetryNotice) => {
      this.logger.warn(`${methodName}: ${retryNoticeText(notice)}`);
      this.onRetry?.(notice);
    };
    return withThrottleRetries(
      { method, methodName, api: 'The aggregator' },
      () =>
        httpRequest({
          method,
          baseUrl: this.apiUrl,
          path: spec.params ? fillPath(spec.route, spec.params) : spec.route,
          route: spec.route,
          query: spec.query,
          body: spec.body,
          timeoutMs: this.timeoutMs,
          methodName,
          context: spec.context,
          fetch: this.fetchImpl,
          maxBytes: this.maxAnswerBytes,
        }),
      { onRetry: announce },
    );
  }
}

/**
 * A signed order as the oracle takes it: the thirteen fields of docs/protocol.md#entities, each a string
 * (numbers and bigints stringified; side BUY/SELL written as "0"/"1").
 */
export function toPolyOrder(order: Record<string, unknown>, methodName = 'proposePrice'): PolyOrder {
  if (!order || typeof order !== 'object' || Array.isArray(order)) {
    throw invalidParameter("Missing required parameter 'order'.", methodName);
  }
  const out = {} as PolyOrder;
  for (const field of POLY_ORDER_FIELDS) {
    let value = order[field];
    if (field === 'side' && typeof value === 'string') value = { BUY: '0', SELL: '1' }[value.toUpperCase()] ?? value;
    if (value === undefined || value === null || value === '') {
      throw invalidParameter(`Missing required parameter '${field}'.`, methodName);
    }
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint') {
      throw invalidParameter(`Parameter '${field}' must be a string or a number.`, methodName);
    }
    out[field] = String(value);
  }
  if (out.side !== '0' && out.side !== '1')
    throw invalidParameter("Parameter 'side' must be BUY (0) or SELL (1).", methodName);
  return out;
}
