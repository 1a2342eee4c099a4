// Every path of the aggregator API (docs/protocol.md#aggregator), in one table: the whole surface at a glance.

export const AGGREGATOR_PATHS = {
  event: '/v1/events/{id}',
  market: '/v1/markets/{id}',
  ongoingEvents: '/v1/ongoing-events',
  eventComments: '/v1/events/{id}/comments',
  marketOrderBooks: '/v1/markets/{id}/orderbook',
  marketFillHistory: '/v1/markets/{id}/orderbook/filledevents',
  trader: '/v1/trader/{address}',
  traderPositions: '/v1/trader/{address}/positions',
  slugList: '/v1/agg/sluglist',
  eventsBySlug: '/v1/agg',
  marketsBySlug: '/v1/agg/market',
  search: '/v1/agg/retrieve',
  proposePrice: '/v1/proposePrice',
  verifyPrice: '/v1/verifyPrice',
  scanPendingPriceData: '/v1/scanPendingPriceData',
  fillStream: '/sse/fillevent',
} as const;

/** Fills a `{name}` template with encoded values. */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
}

export const DEFAULT_TIMEOUT_MS = 100_000;
export const ONGOING_EVENTS_PAGE_SIZE = 50;
export const SLUG_LIST_PAGE_SIZE = 100;
