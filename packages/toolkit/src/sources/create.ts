// Which market-data source a network profile names, and the source itself: the aggregator (its API and fill
// stream) or Polymarket direct (Gamma, Data API, CLOB reads, real-time feed). A profile with an aggregator
// URL and no `source` keeps the aggregator, as profiles did before there was a choice.
import { invalidParameter } from '../model/errors';
import { AggregatorSource } from '../aggregator/source';
import type { Logger } from '../base/logger';
import type { ApiNotice, RateLimitReading } from '../http/answer-headers';
import type { RetryNotice } from '../http/retry';
import { PolymarketSource } from '../polymarket/source';
import type { MarketSource, MarketSourceKind } from '../model/market-source';

/** The URLs a source needs, as a network profile names them. */
export interface SourceEndpoints {
  source?: MarketSourceKind;
  aggregatorUrl?: string;
  sseUrl?: string;
  gammaUrl?: string;
  dataUrl?: string;
  clobUrl?: string;
  /** Polymarket's real-time data service (whole-market trade activity), a ws:// or wss:// URL. */
  rtdsUrl?: string;
}

export interface SourceOptions {
  logger?: Logger;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Told before a throttled read is retried, to show "rate limited, retrying in N s". */
  onRetry?: (notice: RetryNotice) => void;
  /** Polymarket direct: told once of a deprecated endpoint or a list read through its deprecated fallback. */
  onNotice?: (notice: ApiNotice) => void;
  /** Polymarket direct: told of every answer's `Poly-RateLimit-*` headers. */
  onRateLimit?: (reading: RateLimitReading) => void;
}

/** The source a profile uses: the one it names, else the aggregator when it has an aggregator URL, else Polymarket direct. */
export function sourceKindOf(endpoints: SourceEndpoints): MarketSourceKind {
  return endpoints.source ?? (endpoints.aggregatorUrl ? 'aggregator' : 'polymarket');
}

/** The source a profile names, over its URLs; a URL the source needs and the profile lacks is a clear error. */
export function createMarketSource(endpoints: SourceEndpoints, options: SourceOptions = {}): MarketSource {
  const { logger, timeoutMs, fetch, onRetry, onNotice, onRateLimit } = options;
  if (sourceKindOf(endpoints) === 'aggregator') {
    const { aggregatorUrl, sseUrl } = endpoints;
    if (!aggregatorUrl)
      throw invalidParameter(
        'This network reads markets from the aggregator but its profile names no aggregatorUrl.',
        'createMarketSource',
      );
    return new AggregatorSource({
      apiUrl: aggregatorUrl,
      sseUrl: sseUrl || undefined,
      logger,
      timeoutMs,
      fetch,
      onRetry,
    });
  }
  const { gammaUrl, dataUrl, clobUrl, rtdsUrl } = endpoints;
  const missing = (['gammaUrl', 'dataUrl', 'clobUrl'] as const).filter((key) => !endpoints[key]);
  if (missing.length > 0) {
    throw invalidParameter(
      `This network reads markets from Polymarket directly but its profile names no ${missing.join(', ')}.`,
      'createMarketSource',
    );
  }
  return new PolymarketSource({
    gammaUrl: gammaUrl!,
    dataUrl: dataUrl!,
    clobUrl: clobUrl!,
    rtdsUrl: rtdsUrl || undefined,
    logger,
    timeoutMs,
    fetch,
    onRetry,
    onNotice,
    onRateLimit,
  });
}
