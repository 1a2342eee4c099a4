// Gamma, Polymarket's discovery API (DIRECT-DATA-NOTES §a): events and their markets, public search,
// comments and public profiles. Snake_case query parameters, camelCase answers, offset paging.
import { z } from 'zod';
import { isPmDeskError, maskId, truncate } from '../model/errors';
import { apiHttp, readAllPages, required, wholeNumber, type ApiClientOptions } from './client-options';
import { COMMENTS_MAX_OFFSET, COMMENTS_PAGE_SIZE, EVENTS_PAGE_SIZE, GAMMA_PATHS, MAX_COMMENTS } from './endpoints';
import type { PolymarketHttp } from './http';
import {
  GammaCommentSchema,
  GammaEventSchema,
  GammaMarketSchema,
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

export class GammaClient {
  private readonly http: PolymarketHttp;

  constructor(options: ApiClientOptions) {
    this.http = apiHttp('Gamma', 'gamma', options, 'GammaClient');
  }

  /** GET /events: one page of events with their markets. */
  listEvents(query: EventQuery = {}): Promise<GammaEvent[]> {
    const { limit = EVENTS_PAGE_SIZE, offset = 0 } = query;
    wholeNumber('limit', limit, 1, 'listEvents');
    wholeNumber('offset', offset, 0, 'listEvents');
    return this.http.read('listEvents', z.array(GammaEventSchema), {
      route: GAMMA_PATHS.events,
      budget: 'events',
      query: {
        limit,
        offset,
        order: query.order,
        ascending: query.order === undefined ? undefined : (query.ascending ?? false),
        tag_slug: query.tagSlug,
        active: query.active,
        closed: query.closed,
      },
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
            query: { parent_entity_type: 'Event', parent_entity_id: eventId, limit, offset, order: 'createdAt', ascending: false },
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
