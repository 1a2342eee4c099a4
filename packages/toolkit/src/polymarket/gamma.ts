// Gamma, Polymarket's discovery API (docs/protocol.md#gamma): events and their markets, public search,
// comments and public profiles. Snake_case query parameters, camelCase answers; lists page by keyset
// (`/events/keyset`, `/markets/keyset` with `after_cursor`), the deprecated offset lists kept as a fallback.
import { z } from 'zod';
import { isPmDeskError, maskId, truncate } from '../model/errors';
import { apiHttp, readAllPages, required, wholeNumber, type ApiClientOptions } from './client-options';
import {
  COMMENTS_MAX_OFFSET,
  COMMENTS_PAGE_SIZE,
  EVENTS_PAGE_SIZE,
  GAMMA_PATHS,
  KEYSET_PAGE_MAX,
  MAX_COMMENTS,
} from './endpoints';
import type { PolymarketHttp } from './http';
import {
  GammaCommentSchema,
  GammaEventSchema,
  GammaEventsKeysetSchema,
  GammaMarketSchema,
  GammaMarketsKeysetSchema,
  GammaProfileSchema,
  GammaSearchSchema,
  type GammaComment,
  type GammaEvent,
  type GammaMarket,
  type GammaProfile,
  type GammaSearch,
} from './gamma-schemas';

export interface EventQuery {
  limit?: number;
  offset?: number;
  /** A field to sort by (volume24hr, volume, liquidity, endDate …). */
  order?: string;
  ascending?: boolean;
  tagSlug?: string;
  active?: boolean;
  closed?: boolean;
}

/** A list's filters, the same on the keyset and the offset paths. */
export interface ListFilters {
  /** A field to sort by (volume24hr, volume, liquidity, endDate …). */
  order?: string;
  ascending?: boolean;
  tagSlug?: string;
  active?: boolean;
  closed?: boolean;
}

/** One keyset page: its rows and, unless it is the last, the cursor of the next. */
export interface KeysetPage<T> {
  items: T[];
  nextCursor?: string;
}

export class GammaClient {
  private readonly http: PolymarketHttp;

  constructor(options: ApiClientOptions) {
    this.http = apiHttp('Gamma', 'gamma', options, 'GammaClient');
  }

  /** GET /events: one offset page of events with their markets (deprecated; the fallback when /events/keyset is missing). */
  listEvents(query: EventQuery = {}): Promise<GammaEvent[]> {
    const { limit = EVENTS_PAGE_SIZE, offset = 0 } = query;
    wholeNumber('limit', limit, 1, 'listEvents');
    wholeNumber('offset', offset, 0, 'listEvents');
    return this.http.read('listEvents', z.array(GammaEventSchema), {
      route: GAMMA_PATHS.events,
      budget: 'events',
      query: { limit, offset, ...filterQuery(query) },
      context: { limit, offset, order: query.order },
    });
  }

  /**
   * GET /events/keyset: one page of at most 100 events after `afterCursor` (the first page without one). Null
   * when Gamma has no keyset list (a 404): the caller falls back to the offset list and says so.
   */
  async listEventsKeyset(
    filters: ListFilters,
    limit: number,
    afterCursor?: string,
  ): Promise<KeysetPage<GammaEvent> | null> {
    const page = await this.keysetPage(
      'listEventsKeyset',
      GammaEventsKeysetSchema,
      'events',
      filters,
      limit,
      afterCursor,
    );
    return page ? { items: page.events, nextCursor: page.next_cursor } : null;
  }

  /** GET /markets/keyset: as listEventsKeyset, for markets. */
  async listMarketsKeyset(
    filters: ListFilters,
    limit: number,
    afterCursor?: string,
  ): Promise<KeysetPage<GammaMarket> | null> {
    const page = await this.keysetPage(
      'listMarketsKeyset',
      GammaMarketsKeysetSchema,
      'markets',
      filters,
      limit,
      afterCursor,
    );
    return page ? { items: page.markets, nextCursor: page.next_cursor } : null;
  }

  /** One keyset page of events or markets, as Gamma sends it; null on a 404 (no keyset list on that host). */
  private keysetPage<S extends z.ZodType>(
    methodName: string,
    schema: S,
    list: 'events' | 'markets',
    filters: ListFilters,
    limit: number,
    afterCursor: string | undefined,
  ): Promise<z.output<S> | null> {
    wholeNumber('limit', limit, 1, methodName);
    return this.http.read(methodName, schema.nullable(), {
      route: list === 'events' ? GAMMA_PATHS.eventsKeyset : GAMMA_PATHS.marketsKeyset,
      budget: list,
      query: keysetQuery(filters, limit, afterCursor),
      context: {
        limit,
        order: filters.order,
        afterCursor: afterCursor === undefined ? undefined : truncate(afterCursor, 40),
      },
      absentIsNull: true,
    });
  }

  /** GET /markets: one offset page of markets (deprecated; the fallback when /markets/keyset is missing). */
  listMarkets(query: EventQuery = {}): Promise<GammaMarket[]> {
    const { limit = EVENTS_PAGE_SIZE, offset = 0 } = query;
    wholeNumber('limit', limit, 1, 'listMarkets');
    wholeNumber('offset', offset, 0, 'listMarkets');
    return this.http.read('listMarkets', z.array(GammaMarketSchema), {
      route: GAMMA_PATHS.markets,
      budget: 'markets',
      query: { limit, offset, ...filterQuery(query) },
      context: { limit, offset, order: query.order },
    });
  }

  /** GET /events/{id}. */
  getEvent(eventId: string): Promise<GammaEvent> {
    required('eventId', eventId, 'getEvent');
    return this.http.read('getEvent', GammaEventSchema, {
      route: GAMMA_PATHS.event,
      params: { id: eventId },
      budget: 'events',
      context: { eventId: maskId(eventId) },
      notFound: `Event '${eventId}' not found.`,
    });
  }

  /** GET /events/slug/{slug}. */
  getEventBySlug(slug: string): Promise<GammaEvent> {
    required('slug', slug, 'getEventBySlug');
    return this.http.read('getEventBySlug', GammaEventSchema, {
      route: GAMMA_PATHS.eventBySlug,
      params: { slug },
      budget: 'events',
      context: { slug: maskId(slug) },
      notFound: `Event with slug '${slug}' not found.`,
    });
  }

  /** GET /markets/{id}. */
  getMarket(marketId: string): Promise<GammaMarket> {
    required('marketId', marketId, 'getMarket');
    return this.http.read('getMarket', GammaMarketSchema, {
      route: GAMMA_PATHS.market,
      params: { id: marketId },
      budget: 'markets',
      context: { marketId: maskId(marketId) },
      notFound: `Market '${marketId}' not found.`,
    });
  }

  /** GET /markets/slug/{slug}. */
  getMarketBySlug(slug: string): Promise<GammaMarket> {
    required('slug', slug, 'getMarketBySlug');
    return this.http.read('getMarketBySlug', GammaMarketSchema, {
      route: GAMMA_PATHS.marketBySlug,
      params: { slug },
      budget: 'markets',
      context: { slug: maskId(slug) },
      notFound: `Market with slug '${slug}' not found.`,
    });
  }

  /** GET /public-search: one page (1-based) of matches. */
  searchPage(q: string, page = 1, limitPerType?: number): Promise<GammaSearch> {
    required('query', q, 'search');
    wholeNumber('page', page, 1, 'search');
    return this.http.read('search', GammaSearchSchema, {
      route: GAMMA_PATHS.publicSearch,
      budget: 'search',
      query: { q, page, limit_per_type: limitPerType },
      context: { query: truncate(q, 50), page },
    });
  }

  /**
   * GET /public-search page by page while `pagination.hasMore` says there is more, until `wanted` events or
   * `maxPages` pages are read.
   */
  async searchEvents(q: string, wanted: number, maxPages: number): Promise<GammaEvent[]> {
    const events: GammaEvent[] = [];
    for (let page = 1; page <= maxPages && events.length < wanted; page++) {
      const answer = await this.searchPage(q, page);
      events.push(...answer.events);
      if (!answer.pagination?.hasMore || answer.events.length === 0) break;
    }
    return events.slice(0, wanted);
  }

  /**
   * GET /comments for an event, newest first, page by page within Gamma's offset cap (COMMENTS_MAX_OFFSET); a
   * 422 on a later page (a cap lower than known) ends the paging with the comments already read.
   */
  listEventComments(eventId: string, maxComments = MAX_COMMENTS): Promise<GammaComment[]> {
    required('eventId', eventId, 'getEventComments');
    return readAllPages(
      (offset, limit) =>
        this.http
          .read('getEventComments', z.array(GammaCommentSchema), {
            route: GAMMA_PATHS.comments,
            budget: 'comments',
            query: {
              parent_entity_type: 'Event',
              parent_entity_id: eventId,
              limit,
              offset,
              order: 'createdAt',
              ascending: false,
            },
            context: { eventId: maskId(eventId), offset },
          })
          .catch((error: unknown) => {
            if (offset > 0 && isPmDeskError(error) && error.statusCode === 422) return [];
            throw error;
          }),
      { limit: COMMENTS_PAGE_SIZE, maxRows: maxComments, maxOffset: COMMENTS_MAX_OFFSET },
    );
  }

  /** GET /public-profile?address=: the profile, or null when the address has none (a JSON null or a 404). */
  async getPublicProfile(address: string): Promise<GammaProfile | null> {
    required('address', address, 'getPublicProfile');
    const answer = await this.http.read('getPublicProfile', GammaProfileSchema.nullable().optional(), {
      route: GAMMA_PATHS.publicProfile,
      query: { address },
      context: { address: maskId(address) },
      absentIsNull: true,
    });
    return answer ?? null;
  }
}

/** The keyset list's query as Polymarket's own client sends it: `limit` (at most 100), `after_cursor`, then the filters. */
function keysetQuery(filters: ListFilters, limit: number, afterCursor: string | undefined) {
  return { limit: Math.min(limit, KEYSET_PAGE_MAX), after_cursor: afterCursor, ...filterQuery(filters) };
}

/** The lists' filters as Gamma names them, the same on the keyset and the offset lists. */
function filterQuery(filters: ListFilters) {
  return {
    order: filters.order,
    ascending: filters.order === undefined ? undefined : (filters.ascending ?? false),
    tag_slug: filters.tagSlug,
    active: filters.active,
    closed: filters.closed,
  };
}
