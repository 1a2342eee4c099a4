// Live fills of one Polymarket market, under the same contract as the aggregator's stream (state, latest,
// close, done, onClose once; fills in the market's first outcome): the real-time service's
// `activity/orders_matched` trades filtered by the market's slug, and when that service cannot be reached (no
// URL, refused, dropped) the Data API's trades polled every few seconds (only new ones), until the real-time
// service opens again. A live subscription that goes silent while the market trades (the Data API has trades
// it never sent) is subscribed again once, then given up for polling.
import { ErrorCode, PmDeskError, maskId, wrapOnce } from '../model/errors';
import type { Market, TradeRecord } from '../model/market-model';
import type { FillHandlers, FillSubscription } from '../model/market-source';
import type { Logger } from '../base/logger';
import type { DataTrade } from './data-schemas';
import { fillKey, inFirstOutcome, toTradeRecord } from './mapping';
import { RtdsStream, type WebSocketConstructor } from './rtds';

export interface FillTiming {
  /** How often the Data API is polled while the real-time service is away; 3 s by default. */
  pollMs?: number;
  /** How long after losing the real-time service it is tried again; 10 s by default. */
  rtdsRetryMs?: number;
  /** The real-time keepalive; 5 s by default. */
  pingMs?: number;
  /** How long the real-time socket may take to open before polling takes over; 10 s by default. */
  rtdsOpenTimeoutMs?: number;
  /**
   * How long a live subscription may send no trade before the Data API is asked whether it missed any; 60 s by
   * default. The service can stop sending a subscription's trades while its pings keep the socket open.
   */
  silenceMs?: number;
}

export interface PolymarketFillOptions {
  marketId: string;
  /** Reads the market (its slug, condition id and tokens). */
  loadMarket: () => Promise<Market>;
  /** Reads the market's recent trades, newest first (the Data API's /trades). */
  pollTrades: (conditionId: string) => Promise<DataTrade[]>;
  rtdsUrl?: string;
  WebSocket?: WebSocketConstructor;
  handlers?: FillHandlers;
  logger: Logger;
  timing?: FillTiming;
}

const METHOD = 'subscribeToFills';
const SEEN_WINDOW = 5_000;

export function subscribePolymarketFills(options: PolymarketFillOptions): FillSubscription {
  const { logger } = options;
  const handlers = options.handlers ?? {};
  const pollMs = options.timing?.pollMs ?? 3_000;
  const rtdsRetryMs = options.timing?.rtdsRetryMs ?? 10_000;
  const silenceMs = options.timing?.silenceMs ?? 60_000;
  const context = { marketId: maskId(options.marketId) };
  // Only trades from now on: the caller seeds the tape from getFillHistory.
  const since = Math.floor(Date.now() / 1000);

  let state: FillSubscription['state'] = 'connecting';
  let mode: 'live' | 'polling' | undefined;
  let latest: TradeRecord | null = null;
  let market: Market | undefined;
  let rtds: RtdsStream | undefined;
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;
  /** Audits that found trades the live subscription never sent, since its last trade: 1 resubscribes, 2 polls. */
  let silentStrikes = 0;
  const seen = new Set<string>();
  let settle!: (error: PmDeskError | null) => void;
  const done = new Promise<PmDeskError | null>((resolve) => (settle = resolve));

  // Read through a function: the state changes while a poll awaits.
  const isClosed = () => state === 'closed';
  const safely = <A extends unknown[]>(name: string, fn: ((...args: A) => void) | undefined, ...args: A) => {
    if (!fn) return;
    try {
      fn(...args);
    } catch (error) {
      logger.error(`fill stream handler ${name} threw`, wrapOnce(error, METHOD, context));
    }
  };

  const emit = (trade: TradeRecord) => {
    if (state === 'closed') return;
    // Deduplicated as the feeds wrote it (a match's legs in both outcomes stay two fills), then sent in the first outcome.
    const key = fillKey(trade);
    if (seen.has(key)) return;
    seen.add(key);
    if (seen.size > SEEN_WINDOW) seen.delete(seen.values().next().value as string);
    const fill = inFirstOutcome(trade, market?.position_tokens ?? []);
    latest = fill;
    safely('onFill', handlers.onFill, fill);
  };

  const enter = (next: 'live' | 'polling') => {
    if (state === 'closed' || mode === next) return;
    mode = next;
    if (state === 'connecting') {
      state = 'open';
      safely('onOpen', handlers.onOpen);
    }
    safely('onMode', handlers.onMode, next);
  };

  const finish = (error: PmDeskError | null) => {
    if (state === 'closed') return;
    state = 'closed';
    clearTimeout(pollTimer);
    clearTimeout(retryTimer);
    clearTimeout(silenceTimer);
    rtds?.close();
    if (error) {
      logger.error(error.message, error);
      safely('onError', handlers.onError, error);
    }
    safely('onClose', handlers.onClose, error ?? undefined);
    settle(error);
  };

  /** One poll: the trades newer than the subscription that were not seen yet, oldest first. */
  const pollOnce = async () => {
    if (!market?.conditionId) return;
    try {
      const trades = await options.pollTrades(market.conditionId);
      for (const trade of [...trades].reverse()) if (trade.timestamp >= since) emit(toTradeRecord(trade));
    } catch (error) {
      // A failed poll is reported and the next one tried: the stream stays open.
      safely('onError', handlers.onError, wrapOnce(error, METHOD, context));
    }
  };

  const schedulePoll = () => {
    clearTimeout(pollTimer);
    pollTimer = setTimeout(() => {
      if (state === 'closed' || mode !== 'polling') return;
      // pollOnce reports its own failures through onError, so this chain never rejects.
      void pollOnce().then(() => {
        if (!isClosed() && mode === 'polling') schedulePoll();
      });
    }, pollMs);
  };

  const startPolling = () => {
    if (state === 'closed') return;
    const wasPolling = mode === 'polling';
    enter('polling');
    if (!wasPolling) void pollOnce().then(() => !isClosed() && mode === 'polling' && schedulePoll());
    if (options.rtdsUrl && market?.slug) {
      clearTimeout(retryTimer);
      retryTimer = setTimeout(openLive, rtdsRetryMs);
    }
  };

  /** Live and quiet for silenceMs: the Data API is asked whether the market traded without the feed saying so. */
  const watchSilence = () => {
    clearTimeout(silenceTimer);
    silenceTimer = setTimeout(() => void auditSilence(), silenceMs);
  };

  const auditSilence = async () => {
    if (state === 'closed' || mode !== 'live' || !market?.conditionId) return;
    let missed: DataTrade[];
    try {
      missed = (await options.pollTrades(market.conditionId)).filter(
        (trade) => trade.timestamp >= since && !seen.has(fillKey(toTradeRecord(trade))),
      );
    } catch (error) {
      safely('onError', handlers.onError, wrapOnce(error, METHOD, context));
      if (!isClosed() && mode === 'live') watchSilence();
      return;
    }
    if (isClosed() || mode !== 'live') return;
    if (missed.length === 0) return watchSilence();
    // The feed is open but silent: what it missed is passed on first, oldest first.
    for (const trade of [...missed].reverse()) emit(toTradeRecord(trade));
    silentStrikes += 1;
    const live = rtds;
    rtds = undefined;
    live?.close();
    if (silentStrikes === 1) {
      logger.warn(`the real-time feed missed ${missed.length} trade(s) of the market; subscribing again`);
      openLive();
    } else {
      logger.warn('the real-time feed stays silent while the market trades; polling the Data API');
      startPolling();
    }
  };

  const openLive = () => {
    if (state === 'closed' || !market?.slug || !options.rtdsUrl) return;
    rtds = new RtdsStream({
      url: options.rtdsUrl,
      subscriptions: [{ topic: 'activity', type: 'orders_matched', filters: { market_slug: market.slug } }],
      logger,
      WebSocket: options.WebSocket,
      pingMs: options.timing?.pingMs,
      openTimeoutMs: options.timing?.rtdsOpenTimeoutMs,
      handlers: {
        onOpen: () => {
          const wasPolling = mode === 'polling';
          clearTimeout(pollTimer);
          enter('live');
          watchSilence();
          // Trades between the last poll and the socket opening: one catch-up poll (duplicates are dropped).
          if (wasPolling) void pollOnce();
        },
        onTrade: (trade) => {
          if (market?.conditionId && trade.conditionId && trade.conditionId !== market.conditionId) return;
          silentStrikes = 0;
          watchSilence();
          emit(toTradeRecord(trade));
        },
        onError: (error) => safely('onError', handlers.onError, error),
        onClose: ({ byCaller }) => {
          if (byCaller || state === 'closed') return;
          clearTimeout(silenceTimer);
          logger.warn('real-time trades unavailable; polling the Data API');
          startPolling();
        },
      },
    });
  };

  options
    .loadMarket()
    .then((loaded) => {
      if (state === 'closed') return;
      market = loaded;
      if (!loaded.conditionId) {
        finish(
          new PmDeskError(ErrorCode.VALIDATION_ERROR, 'The market has no condition id to follow its trades by.', {
            methodName: METHOD,
            context,
          }),
        );
        return;
      }
      // The real-time service filters by slug; a market without one can still be polled by condition id.
      if (options.rtdsUrl && loaded.slug) openLive();
      else startPolling();
    })
    .catch((error: unknown) => finish(wrapOnce(error, METHOD, context)));

  return {
    get state() {
      return state;
    },
    latest: () => latest,
    close: () => finish(null),
    done,
  };
}
