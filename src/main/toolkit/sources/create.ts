// Which market-data source a network profile names, and the source itself: the aggregator (its API and fill
// stream) or Polymarket direct (Gamma, Data API, CLOB reads, real-time feed). A profile with an aggregator
// URL and no `source` keeps the aggregator, as profiles did before there was a choice.
import { ErrorCode, PmDeskError } from '../../../shared/errors';
import type { Logger } from '../logger';
import { PolymarketSource } from '../polymarket/source';
import type { MarketSource, MarketSourceKind } from './market-source';

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
}

/** The source a profile uses: the one it names, else the aggregator when it has an aggregator URL, else Polymarket direct. */
export function sourceKindOf(endpoints: SourceEndpoints): MarketSourceKind {
  return endpoints.source ?? (endpoints.aggregatorUrl ? 'aggregator' : 'polymarket');
}

export function createMarketSource(endpoints: SourceEndpoints, options: SourceOptions = {}): MarketSource {
  const kind = sourceKindOf(endpoints);
  if (kind === 'polymarket') {
    // A missing Gamma, Data API or CLOB URL is refused by the constructor, naming it.
    return new PolymarketSource({
      gammaUrl: endpoints.gammaUrl!,
      dataUrl: endpoints.dataUrl!,
      clobUrl: endpoints.clobUrl!,
      rtdsUrl: endpoints.rtdsUrl,
      timeoutMs: options.timeoutMs,
      logger: options.logger,
      fetch: options.fetch,
    });
  }
  throw new PmDeskError(ErrorCode.NOT_AVAILABLE, `The ${kind} market-data source is not built yet.`);
}
