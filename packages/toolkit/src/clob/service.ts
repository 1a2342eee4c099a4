// The exchange service's calls (docs/protocol.md#clob, plus version 2's /version, /ok,
// /clob-markets and heartbeats): public reads, level 1 key management, level 2 trading calls, paging and
// the per-token caches. ClobClient (client.ts) adds the order flow on top.
import type { z } from 'zod';
import { ErrorCode, PmDeskError, invalidParameter } from '../model/errors';
import { networkFor, type NetworkProfile, type OrderVersion } from '../chain/networks';
import { pathSegment, type Query } from '../http/query';
import type { ApiNotice, RateLimitReading } from '../http/answer-headers';
import { parseRetryAfter, type RetryNotice } from '../http/retry';
import { silentLogger, type Logger } from '../base/logger';
import type { BuiltOrder, SignatureType } from '../orders/builder';
import { orderBody, type PostOrderOptions } from '../orders/body';
import type { BookSides, OrderType } from '../orders/price';
import { isTickSize, type OrderSide, type TickSize } from '../orders/rounding';
import type { ClobSigner } from '../orders/signer';
import {
  CREDS_CREATION_WARNING,
  createL1Headers,
  createL2Headers,
  l1Unavailable,
  l2Unavailable,
  type ApiCredentials,
} from './auth';
import {
  CLOB_PATHS as P,
  PAGE_MAX_BYTES,
  DEFAULT_TICK_SIZE_TTL_MS,
  END_CURSOR,
  INITIAL_CURSOR,
  ORDER_VERSION_MISMATCH,
} from './endpoints';
import * as A from './schemas';
import { answerProblem } from './schemas';
import { ClobTransport, errorResult, isClobError, type Attempt, type ClobCall, type ClobResult } from './transport';

export interface ClobClientOptions {
  host: string;
  chainId: number;
  signer?: ClobSigner;
  creds?: ApiCredentials;
  signatureType?: SignatureType;
  /** The account's wallet (proxy, Safe or deposit wallet) that holds the funds: the order's maker. */
  funder?: string;
  /**
   * The address API keys are bound to: ClobAuth.address and POLY_ADDRESS on level 1 and level 2. Default the
   * key's own address, as the official v2 client sends for every account kind (see auth.ts on why that is unconfirmed).
   */
  authAddress?: string;
  /** Version 1's geo-block token, added to every request. */
  geoBlockToken?: string;
  /** Ask the server for the time before each signed call (for machines whose clock drifts). */
  useServerTime?: boolean;
  tickSizeTtlMs?: number;
  /** Throw catalogued errors instead of returning `{ error }` objects. */
  throwOnError?: boolean;
  timeoutMs?: number;
  logger?: Logger;
  /** Custom network profiles (the local sandbox). */
  networks?: readonly NetworkProfile[];
  fetch?: typeof fetch;
  /** Answer size caps (reads 2 MB, signed writes 256 KB by default) and the throttled-read notice. */
  maxAnswerBytes?: number;
  maxOrderAnswerBytes?: number;
  onRetry?: (notice: RetryNotice) => void;
  /** Told once per endpoint when the exchange's answers say it is deprecated or past its sunset. */
  onNotice?: (notice: ApiNotice) => void;
  /** Told of every answer's `Poly-RateLimit-*` headers (remaining, reset, tier, warning). */
  onRateLimit?: (reading: RateLimitReading) => void;
  /**
   * What this exchange said about itself, shared by every client given the same object (an app that makes a client
   * per order passes one per network, so a post-only 503 holds back the next order whichever client sends it).
   */
  exchangeMode?: ExchangeMode;
}

/** The exchange's mode as its answers said it: until when (epoch ms) it takes only post-only orders. */
export interface ExchangeMode {
  postOnlyUntil: number;
}

export type BookParams = { token_id: string; side?: OrderSide };
export type PriceHistoryInterval = 'max' | '1w' | '1d' | '6h' | '1h';
export interface PriceHistoryParams {
  market: string;
  startTs?: number;
  endTs?: number;
  fidelity?: number;
  interval?: PriceHistoryInterval;
}
export interface TradeParams {
  id?: string;
  maker_address?: string;
  market?: string;
  asset_id?: string;
  before?: string;
  after?: string;
}
export interface OpenOrderParams {
  id?: string;
  market?: string;
  asset_id?: string;
}
export interface BalanceAllowanceParams {
  asset_type: 'COLLATERAL' | 'CONDITIONAL' | 'CONDITIONAL-V2';
  token_id?: string;
}
export interface OrderBookSummary extends BookSides {
  market?: string;
  asset_id?: string;
  timestamp?: string;
  hash?: string;
  tick_size?: string | number;
  neg_risk?: boolean;
  min_order_size?: string;
}

/** What a market answers about itself for order building; any given value skips its request. */
export interface OrderOptions {
  tickSize?: TickSize;
  negRisk?: boolean;
  version?: OrderVersion;
}

export type CreateOrDeriveOrder = 'derive-first' | 'create-first';

const DEFAULT_TIMEOUT_MS = 100_000;
/** How long a 503 post-only answer keeps other orders here when it names no Retry-After, and the longest it may. */
export const POST_ONLY_HOLD_MS = 10_000;
const POST_ONLY_MAX_HOLD_MS = 60_000;

/** What a 503 to an order post means on Polymarket: post-only mode (issue 27). */
export const POST_ONLY_MODE =
  'The exchange is in post-only mode (503): only post-only orders, which rest on the book without taking, are accepted for now.';

/** Comma-joined `order_ids` for order scoring (docs/protocol.md#entities query helpers). */
export function orderScoringParams(orderIds: readonly string[]): { order_ids: string } {
  return { order_ids: orderIds.join(',') };
}
/** Comma-joined `ids` for dropping notifications. */
export function dropNotificationParams(ids: readonly string[]): { ids: string } {
  return { ids: ids.join(',') };
}

export class ClobService {
  readonly host: string;
  readonly chainId: number;
  readonly signatureType: SignatureType;
  protected readonly transport: ClobTransport;
  /** Everything but the secrets: those live in true private fields, out of inspection, JSON and logs. */
  protected readonly options: Omit<ClobClientOptions, 'signer' | 'creds'>;
  readonly #signer: ClobSigner | undefined;
  readonly #creds: ApiCredentials | undefined;
  private readonly logger: Logger;
  private readonly tickSizes = new Map<string, { tickSize: TickSize; at: number }>();
  private readonly negRisks = new Map<string, boolean>();
  private readonly feeRates = new Map<string, number>();
  private cachedVersion: OrderVersion | undefined;
  /** Until when (epoch ms) the exchange is taken to be in post-only mode, from its last 503 to an order. */
  private readonly mode: ExchangeMode;

  constructor(options: ClobClientOptions) {
    const { signer, creds, ...rest } = options;
    this.options = rest;
    this.#signer = signer;
    this.#creds = creds;
    this.host = options.host.replace(/\/+$/, '');
    this.chainId = options.chainId;
    this.signatureType = options.signatureType ?? 0;
    this.logger = options.logger ?? silentLogger;
    this.mode = options.exchangeMode ?? { postOnlyUntil: 0 };
    this.transport = new ClobTransport({
      host: this.host,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      logger: this.logger,
      throwOnError: options.throwOnError ?? false,
      geoBlockToken: options.geoBlockToken,
      fetch: options.fetch,
      maxAnswerBytes: options.maxAnswerBytes,
      maxOrderAnswerBytes: options.maxOrderAnswerBytes,
      onRetry: options.onRetry,
      onNotice: options.onNotice,
      onRateLimit: options.onRateLimit,
    });
  }

  // ---- plumbing -------------------------------------------------------------------------------

  /** A public read, its answer judged by the endpoint's schema (clob/schemas.ts) before anyone sees it. */
  private get(
    methodName: string,
    schema: z.ZodType,
    path: string,
    query?: Query,
    route?: string,
    maxBytes?: number,
  ): Promise<ClobResult<unknown>> {
    return this.checked(
      methodName,
      schema,
      this.transport.send({ methodName, method: 'GET', path, query, route, maxBytes }),
    );
  }

  private post(methodName: string, schema: z.ZodType, path: string, payload: unknown): Promise<ClobResult<unknown>> {
    return this.checked(
      methodName,
      schema,
      this.transport.send({ methodName, method: 'POST', path, body: JSON.stringify(payload) }),
    );
  }

  private async checked(
    methodName: string,
    schema: z.ZodType,
    sent: Promise<ClobResult<unknown>>,
  ): Promise<ClobResult<unknown>> {
    const result = await sent;
    if (isClobError(result)) return result;
    const problem = answerProblem(schema, result, methodName);
    return problem ? this.failure(methodName, problem) : result;
  }

  /** A read inside an operation (tick, neg-risk, fee, time): thrown on any failure, the wrong shape included. */
  protected async readOrThrow<T>(methodName: string, schema: z.ZodType, path: string, query?: Query): Promise<T> {
    const answer = await this.transport.sendOrThrow<T>({ methodName, method: 'GET', path, query });
    const problem = answerProblem(schema, answer, methodName);
    if (problem) throw problem;
    return answer;
  }

  protected requireSigner(methodName: string): ClobSigner {
    if (!this.#signer) throw l1Unavailable(methodName);
    return this.#signer;
  }

  /** Level 2 needs the signer too: POLY_ADDRESS is the signer's address (or authAddress). */
  private requireCreds(methodName: string): { signer: ClobSigner; creds: ApiCredentials } {
    if (!this.#signer || !this.#creds) throw l2Unavailable(methodName);
    return { signer: this.#signer, creds: this.#creds };
  }

  private async authTimestamp(): Promise<number | undefined> {
    if (!this.options.useServerTime) return undefined;
    return Number(await this.readOrThrow<number>('getServerTime', A.ServerTimeAnswer, P.TIME));
  }

  private async l1Headers(methodName: string, nonce?: number): Promise<Record<string, string>> {
    const signer = this.requireSigner(methodName);
    return {
      ...(await createL1Headers(signer, this.chainId, nonce, await this.authTimestamp(), this.options.authAddress)),
    };
  }

  private async l2Headers(
    methodName: string,
    method: string,
    requestPath: string,
    body?: string,
  ): Promise<Record<string, string>> {
    const { signer, creds } = this.requireCreds(methodName);
    return {
      ...(await createL2Headers(
        signer,
        creds,
        { method, requestPath, body },
        await this.authTimestamp(),
        this.options.authAddress,
      )),
    };
  }

  /** A level 2 call: headers signed over exactly the path and body sent. */
  private async signed(call: Omit<ClobCall, 'headers'>): Promise<ClobResult<unknown>> {
    const headers = await this.l2Headers(call.methodName, call.method, call.path, call.body);
    return this.transport.send({ ...call, headers });
  }

  /** A level 2 call whose answer is judged by its schema, as the public reads are. */
  private signedChecked(schema: z.ZodType, call: Omit<ClobCall, 'headers'>): Promise<ClobResult<unknown>> {
    return this.checked(call.methodName, schema, this.signed(call));
  }

  /**
   * Reads a cursor-paged list from `MA==` (or the given cursor) to `LTE=`, or one page when asked.
   * The headers are signed once for the whole walk, as the official client does.
   */
  private async paged<T>(
    methodName: string,
    path: string,
    query: Query | ((cursor: string) => Query),
    headers: Record<string, string> | undefined,
    onlyFirstPage = false,
    cursor?: string,
  ): Promise<ClobResult<T[]>> {
    const items: T[] = [];
    const seen = new Set<string>();
    let next = cursor || INITIAL_CURSOR;
    while (next !== END_CURSOR) {
      if (seen.has(next)) {
        return this.failure(
          methodName,
          new PmDeskError(ErrorCode.VALIDATION_ERROR, `The server repeated the page cursor ${next}.`, { methodName }),
        );
      }
      seen.add(next);
      // A function places the cursor where the official client puts it in the query.
      const pageQuery = typeof query === 'function' ? query(next) : { ...query, next_cursor: next };
      const page = await this.transport.send<{ data?: T[]; next_cursor?: string }>({
        methodName,
        method: 'GET',
        path,
        query: pageQuery,
        headers,
        maxBytes: PAGE_MAX_BYTES,
      });
      if (isClobError(page)) return page;
      if (!page || !Array.isArray(page.data) || typeof page.next_cursor !== 'string') {
        return this.failure(
          methodName,
          new PmDeskError(ErrorCode.VALIDATION_ERROR, 'The server answered a list without data and next_cursor.', {
            methodName,
          }),
        );
      }
      items.push(...page.data);
      if (onlyFirstPage) break;
      next = page.next_cursor;
    }
    return items;
  }

  private failure(methodName: string, error: PmDeskError): ClobResult<never> {
    this.logger.error(`${methodName} failed`, error);
    if (this.options.throwOnError) throw error;
    return { error: error.detail };
  }

  // ---- health, time, version -----------------------------------------------------------------

  /** Version 1's health check, `GET /`. */
  getHealth(): Promise<ClobResult<unknown>> {
    return this.get('getHealth', A.HealthAnswer, P.ROOT);
  }
  /** Version 2's health check, `GET /ok`. */
  getOk(): Promise<ClobResult<unknown>> {
    return this.get('getOk', A.HealthAnswer, P.OK);
  }
  /** The server's clock, unix seconds. */
  getServerTime(): Promise<ClobResult<number>> {
    return this.get('getServerTime', A.ServerTimeAnswer, P.TIME) as Promise<ClobResult<number>>;
  }
  /** The order version the server expects (2 when it does not say). */
  async getVersion(): Promise<ClobResult<number>> {
    const result = await this.get('getVersion', A.VersionAnswer, P.VERSION);
    if (isClobError(result)) return result;
    return (result as { version?: number } | undefined)?.version ?? 2;
  }

  /**
   * The order version to sign: the network profile's when it names one, else the server's `/version`
   * (cached; `refresh` re-reads it after a version-mismatch rejection, and from then on the server's word wins).
   */
  async resolveVersion(refresh = false): Promise<OrderVersion> {
    // A version the server named (after a mismatch, or when no profile names one) outranks the profile.
    if (!refresh && this.cachedVersion !== undefined) return this.cachedVersion;
    const profile = networkFor(this.chainId, this.options.networks).orderVersion;
    if (profile && !refresh) return profile;
    const result = await this.readOrThrow<{ version?: number } | undefined>('getVersion', A.VersionAnswer, P.VERSION);
    const version = result?.version ?? 2;
    if (version !== 1 && version !== 2 && version !== 3) {
      throw new PmDeskError(
        ErrorCode.VALIDATION_ERROR,
        `The server asks for order version ${String(version)}, which this toolkit does not sign.`,
        {
          methodName: 'resolveVersion',
        },
      );
    }
    this.cachedVersion = version;
    return version;
  }

  /**
   * Dead-man switch: once started, the server cancels every open order when no heartbeat comes within about
   * 10 s. Chain the returned id; the first beat sends "" as the live (version 2) client does (version 1 sent null).
   */
  postHeartbeat(heartbeatId: string | null = ''): Promise<ClobResult<unknown>> {
    const body = JSON.stringify({ heartbeat_id: heartbeatId });
    return this.signed({ methodName: 'postHeartbeat', method: 'POST', path: P.HEARTBEAT, body });
  }

  // ---- markets --------------------------------------------------------------------------------

  getSamplingSimplifiedMarkets(nextCursor = INITIAL_CURSOR): Promise<ClobResult<unknown>> {
    return this.get(
      'getSamplingSimplifiedMarkets',
      A.MarketsPageAnswer,
      P.GET_SAMPLING_SIMPLIFIED_MARKETS,
      { next_cursor: nextCursor },
      undefined,
      PAGE_MAX_BYTES,
    );
  }
  getSamplingMarkets(nextCursor = INITIAL_CURSOR): Promise<ClobResult<unknown>> {
    return this.get(
      'getSamplingMarkets',
      A.MarketsPageAnswer,
      P.GET_SAMPLING_MARKETS,
      { next_cursor: nextCursor },
      undefined,
      PAGE_MAX_BYTES,
    );
  }
  getSimplifiedMarkets(nextCursor = INITIAL_CURSOR): Promise<ClobResult<unknown>> {
    return this.get(
      'getSimplifiedMarkets',
      A.MarketsPageAnswer,
      P.GET_SIMPLIFIED_MARKETS,
      { next_cursor: nextCursor },
      undefined,
      PAGE_MAX_BYTES,
    );
  }
  getMarkets(nextCursor = INITIAL_CURSOR): Promise<ClobResult<unknown>> {
    return this.get(
      'getMarkets',
      A.MarketsPageAnswer,
      P.GET_MARKETS,
      { next_cursor: nextCursor },
      undefined,
      PAGE_MAX_BYTES,
    );
  }
  /** Every market, page after page until the end cursor. */
  getAllMarkets(): Promise<ClobResult<unknown[]>> {
    return this.paged('getAllMarkets', P.GET_MARKETS, {}, undefined);
  }
  getMarket(conditionId: string): Promise<ClobResult<unknown>> {
    return this.get(
      'getMarket',
      A.MarketAnswer,
      P.GET_MARKET + pathSegment(conditionId),
      undefined,
      `${P.GET_MARKET}{conditionId}`,
    );
  }

  /** Version 2's compact market details; its tokens' tick sizes and neg-risk flags go into the caches. */
  async getClobMarketInfo(conditionId: string): Promise<ClobResult<unknown>> {
    const result = await this.get(
      'getClobMarketInfo',
      A.ClobMarketInfoAnswer,
      P.GET_CLOB_MARKET + pathSegment(conditionId),
      undefined,
      `${P.GET_CLOB_MARKET}{conditionId}`,
    );
    if (isClobError(result)) return result;
    const info = result as { t?: { t?: string }[]; mts?: number | string; nr?: boolean } | undefined;
    for (const token of info?.t ?? []) {
      if (!token?.t) continue;
      if (info?.mts !== undefined) this.cacheTickSize(token.t, info.mts);
      this.negRisks.set(token.t, info?.nr ?? false);
    }
    return result;
  }

  // ---- books and prices -----------------------------------------------------------------------

  async getOrderBook(tokenId: string): Promise<ClobResult<OrderBookSummary>> {
    const book = await this.get('getOrderBook', A.BookAnswer, P.GET_ORDER_BOOK, { token_id: tokenId });
    this.seedTickSizes([book]);
    return book as ClobResult<OrderBookSummary>;
  }
  async getOrderBooks(params: readonly BookParams[]): Promise<ClobResult<OrderBookSummary[]>> {
    const books = await this.post('getOrderBooks', A.BooksAnswer, P.GET_ORDER_BOOKS, params);
    if (Array.isArray(books)) this.seedTickSizes(books);
    return books as ClobResult<OrderBookSummary[]>;
  }
  getMidpoint(tokenId: string): Promise<ClobResult<unknown>> {
    return this.get('getMidpoint', A.MidpointAnswer, P.GET_MIDPOINT, { token_id: tokenId });
  }
  getMidpoints(params: readonly BookParams[]): Promise<ClobResult<unknown>> {
    return this.post('getMidpoints', A.PerTokenDecimalAnswer, P.GET_MIDPOINTS, params);
  }
  getPrice(tokenId: string, side: OrderSide): Promise<ClobResult<unknown>> {
    return this.get('getPrice', A.PriceAnswer, P.GET_PRICE, { token_id: tokenId, side });
  }
  getPrices(params: readonly BookParams[]): Promise<ClobResult<unknown>> {
    return this.post('getPrices', A.PricesAnswer, P.GET_PRICES, params);
  }
  getSpread(tokenId: string): Promise<ClobResult<unknown>> {
    return this.get('getSpread', A.SpreadAnswer, P.GET_SPREAD, { token_id: tokenId });
  }
  getSpreads(params: readonly BookParams[]): Promise<ClobResult<unknown>> {
    return this.post('getSpreads', A.PerTokenDecimalAnswer, P.GET_SPREADS, params);
  }
  getLastTradePrice(tokenId: string): Promise<ClobResult<unknown>> {
    return this.get('getLastTradePrice', A.LastTradeAnswer, P.GET_LAST_TRADE_PRICE, { token_id: tokenId });
  }
  getLastTradesPrices(params: readonly BookParams[]): Promise<ClobResult<unknown>> {
    return this.post('getLastTradesPrices', A.LastTradesAnswer, P.GET_LAST_TRADES_PRICES, params);
  }
  getPricesHistory(params: PriceHistoryParams): Promise<ClobResult<unknown>> {
    return this.get('getPricesHistory', A.PricesHistoryAnswer, P.GET_PRICES_HISTORY, { ...params });
  }

  /** The market's minimum tick, cached per token for the TTL (a market can change its tick). */
  async getTickSize(tokenId: string): Promise<TickSize> {
    const cached = this.tickSizes.get(tokenId);
    const ttl = this.options.tickSizeTtlMs ?? DEFAULT_TICK_SIZE_TTL_MS;
    if (cached && Date.now() - cached.at < ttl) return cached.tickSize;
    const result = await this.readOrThrow<{ minimum_tick_size?: unknown }>(
      'getTickSize',
      A.TickSizeAnswer,
      P.GET_TICK_SIZE,
      { token_id: tokenId },
    );
    return this.cacheTickSize(tokenId, result?.minimum_tick_size);
  }

  /**
   * Keeps a tick the caller learnt elsewhere (the market channel's tick_size_change, a market read it already
   * holds) as if GET /tick-size had answered it now, so the next order for the token does not ask.
   */
  rememberTickSize(tokenId: string, tickSize: TickSize): void {
    this.cacheTickSize(tokenId, tickSize);
  }

  clearTickSizeCache(tokenId?: string): void {
    if (tokenId === undefined) this.tickSizes.clear();
    else this.tickSizes.delete(tokenId);
  }

  /** Whether the token trades on the neg-risk exchange; cached for good (a market never changes kind). */
  async getNegRisk(tokenId: string): Promise<boolean> {
    const cached = this.negRisks.get(tokenId);
    if (cached !== undefined) return cached;
    const result = await this.readOrThrow<{ neg_risk?: unknown }>('getNegRisk', A.NegRiskAnswer, P.GET_NEG_RISK, {
      token_id: tokenId,
    });
    if (typeof result?.neg_risk !== 'boolean')
      throw new PmDeskError(ErrorCode.VALIDATION_ERROR, 'The server answered /neg-risk without neg_risk.', {
        methodName: 'getNegRisk',
      });
    this.negRisks.set(tokenId, result.neg_risk);
    return result.neg_risk;
  }

  /** The market's fee rate in basis points (version 1 orders sign it); cached. */
  async getFeeRateBps(tokenId: string): Promise<number> {
    const cached = this.feeRates.get(tokenId);
    if (cached !== undefined) return cached;
    const result = await this.readOrThrow<{ base_fee?: unknown }>('getFeeRateBps', A.FeeRateAnswer, P.GET_FEE_RATE, {
      token_id: tokenId,
    });
    const fee = Number(result?.base_fee);
    if (!Number.isInteger(fee) || fee < 0)
      throw new PmDeskError(ErrorCode.VALIDATION_ERROR, 'The server answered /fee-rate without a valid base_fee.', {
        methodName: 'getFeeRateBps',
      });
    this.feeRates.set(tokenId, fee);
    return fee;
  }

  private cacheTickSize(tokenId: string, value: unknown): TickSize {
    const text = typeof value === 'number' ? String(value) : value;
    // A tick the toolkit has no rounding rule for is the server's answer at fault, not the trader's input.
    if (!isTickSize(text))
      throw new PmDeskError(
        ErrorCode.VALIDATION_ERROR,
        `The server answered an unknown tick size (${String(value)}).`,
        { methodName: 'getTickSize' },
      );
    const tickSize = text;
    this.tickSizes.set(tokenId, { tickSize, at: Date.now() });
    return tickSize;
  }

  private seedTickSizes(books: unknown[]): void {
    for (const book of books) {
      const b = book as OrderBookSummary | undefined;
      if (!b || isClobError(b) || !b.asset_id || b.tick_size === undefined) continue;
      try {
        this.cacheTickSize(b.asset_id, b.tick_size);
      } catch {
        // A book with an unknown tick leaves the cache alone; /tick-size is asked when an order needs it.
      }
    }
  }

  // ---- API keys -------------------------------------------------------------------------------

  /** Creates new credentials (level 1). They cannot be recovered later: the caller must store them. */
  async createApiKey(nonce?: number): Promise<ClobResult<ApiCredentials>> {
    return this.transport.settle(await this.keyAttempt('create', nonce));
  }

  /** The credentials already created for this wallet and nonce (level 1). */
  async deriveApiKey(nonce?: number): Promise<ClobResult<ApiCredentials>> {
    return this.transport.settle(await this.keyAttempt('derive', nonce));
  }

  /**
   * Credentials whichever way they come (docs/protocol.md#order-flow): by default derive first and create when none results;
   * `create-first` is the other reading (create, then derive when the server gives no key).
   */
  async createOrDeriveApiKey(
    nonce?: number,
    order: CreateOrDeriveOrder = 'derive-first',
  ): Promise<ClobResult<ApiCredentials>> {
    if (order === 'create-first') {
      const created = await this.keyAttempt('create', nonce);
      if (created.ok && created.value.key) return created.value;
      // Deriving only reads, so any failure to create may fall back to it (a lost answer may even have made the key).
      return this.deriveApiKey(nonce);
    }
    const derived = await this.keyAttempt('derive', nonce);
    if (derived.ok && derived.value.key) return derived.value;
    // Creating is not harmless: only a definite "no key" (an answer without one, or a 4xx refusal) leads to it;
    // a timeout or a server error is reported instead of guessed past.
    const status = derived.ok ? undefined : derived.error.statusCode;
    if (!derived.ok && (status === undefined || status < 400 || status >= 500)) return this.transport.settle(derived);
    return this.createApiKey(nonce);
  }

  private async keyAttempt(kind: 'create' | 'derive', nonce?: number): Promise<Attempt<ApiCredentials>> {
    const methodName = kind === 'create' ? 'createApiKey' : 'deriveApiKey';
    const headers = await this.l1Headers(methodName, nonce);
    const attempt = await this.transport.attempt({
      methodName,
      method: kind === 'create' ? 'POST' : 'GET',
      path: kind === 'create' ? P.CREATE_API_KEY : P.DERIVE_API_KEY,
      headers,
    });
    if (!attempt.ok) return attempt;
    const raw = (attempt.value ?? {}) as { apiKey?: string; secret?: string; passphrase?: string };
    const creds = { key: raw.apiKey ?? '', secret: raw.secret ?? '', passphrase: raw.passphrase ?? '' };
    if (kind === 'create' && creds.key) this.logger.warn(CREDS_CREATION_WARNING);
    return { ok: true, value: creds };
  }

  getApiKeys(): Promise<ClobResult<unknown>> {
    return this.signedChecked(A.ApiKeysAnswer, { methodName: 'getApiKeys', method: 'GET', path: P.GET_API_KEYS });
  }
  deleteApiKey(): Promise<ClobResult<unknown>> {
    return this.signed({ methodName: 'deleteApiKey', method: 'DELETE', path: P.DELETE_API_KEY });
  }
  getClosedOnlyMode(): Promise<ClobResult<unknown>> {
    return this.signed({ methodName: 'getClosedOnlyMode', method: 'GET', path: P.CLOSED_ONLY });
  }

  // ---- orders and trades ------------------------------------------------------------------------

  getOrder(orderId: string): Promise<ClobResult<unknown>> {
    // The id is part of the signed path.
    return this.signedChecked(A.OrderAnswer, {
      methodName: 'getOrder',
      method: 'GET',
      path: P.GET_ORDER + pathSegment(orderId),
      route: `${P.GET_ORDER}{id}`,
    });
  }

  async getTrades(
    params: TradeParams = {},
    onlyFirstPage = false,
    nextCursor?: string,
  ): Promise<ClobResult<unknown[]>> {
    const headers = await this.l2Headers('getTrades', 'GET', P.GET_TRADES);
    return this.paged('getTrades', P.GET_TRADES, { ...params }, headers, onlyFirstPage, nextCursor);
  }

  async getOpenOrders(
    params: OpenOrderParams = {},
    onlyFirstPage = false,
    nextCursor?: string,
  ): Promise<ClobResult<unknown[]>> {
    const headers = await this.l2Headers('getOpenOrders', 'GET', P.GET_OPEN_ORDERS);
    return this.paged('getOpenOrders', P.GET_OPEN_ORDERS, { ...params }, headers, onlyFirstPage, nextCursor);
  }

  /** Posts one signed order; a version-mismatch answer refreshes the cached server version. */
  async postOrder(order: BuiltOrder, options: PostOrderOptions = {}): Promise<ClobResult<unknown>> {
    return this.transport.settle(await this.postOrderAttempt(order, options));
  }

  async postOrders(
    orders: readonly { order: BuiltOrder; orderType?: OrderType }[],
    options: Omit<PostOrderOptions, 'orderType'> = {},
  ): Promise<ClobResult<unknown>> {
    const refused = this.refusedInPostOnlyMode('postOrders', options.postOnly);
    if (refused) return this.transport.settle(refused);
    const { creds } = this.requireCreds('postOrders');
    const body = JSON.stringify(
      orders.map(({ order, orderType }) => orderBody(order, creds.key, { ...options, orderType })),
    );
    return this.transport.settle(await this.postAttempt('postOrders', A.OrdersPostAnswer, P.POST_ORDERS, body));
  }

  protected async postOrderAttempt(order: BuiltOrder, options: PostOrderOptions): Promise<Attempt<unknown>> {
    const refused = this.refusedInPostOnlyMode('postOrder', options.postOnly);
    if (refused) return refused;
    const { creds } = this.requireCreds('postOrder');
    return this.postAttempt(
      'postOrder',
      A.OrderPostAnswer,
      P.POST_ORDER,
      JSON.stringify(orderBody(order, creds.key, options)),
    );
  }

  /**
   * While the exchange said it is in post-only mode, an order that is not post-only is refused before anything is
   * sent (INVALID_PARAM, as a post-only FOK is: nothing reached the exchange, so nothing needs looking up).
   */
  private refusedInPostOnlyMode(methodName: string, postOnly: boolean | undefined): Attempt<unknown> | undefined {
    if (postOnly || Date.now() >= this.mode.postOnlyUntil) return undefined;
    const seconds = Math.max(1, Math.ceil((this.mode.postOnlyUntil - Date.now()) / 1000));
    return {
      ok: false,
      error: invalidParameter(
        `${POST_ONLY_MODE} Not sent: mark it post-only, or try again in ${seconds} s.`,
        methodName,
      ),
    };
  }

  /**
   * A 503 is post-only mode (said as such). A 200 of the wrong shape fails as ERR_VALIDATION with status 200: not a
   * refusal, so the reconciler (post-once.ts) treats it as no answer and looks the order up by its hash first.
   */
  private async postAttempt(
    methodName: string,
    schema: z.ZodType,
    path: string,
    body: string,
  ): Promise<Attempt<unknown>> {
    const headers = await this.l2Headers(methodName, 'POST', path, body);
    const attempt = await this.transport.attempt({ methodName, method: 'POST', path, body, headers });
    if (!attempt.ok && isVersionMismatch(errorResult(attempt.error))) await this.resolveVersion(true);
    if (!attempt.ok && attempt.error.statusCode === 503)
      return { ok: false, error: this.postOnlyMode(methodName, path, attempt.error) };
    if (!attempt.ok) return attempt;
    const problem = answerProblem(schema, attempt.value, methodName, 200);
    if (!problem) return attempt;
    this.logger.error(`${methodName} failed`, problem);
    return { ok: false, error: problem };
  }

  /**
   * A 503 to an order post: the exchange is in post-only mode, where only orders that rest on the book (post-only)
   * are accepted. Said in that sentence (the server's own words kept as its data), and told once as a notice.
   */
  private postOnlyMode(methodName: string, path: string, error: PmDeskError): PmDeskError {
    const message = POST_ONLY_MODE;
    // Until the exchange's Retry-After (or a short while), only post-only orders are sent; the others are refused here.
    const named = typeof error.context?.retryAfter === 'string' ? parseRetryAfter(error.context.retryAfter) : undefined;
    this.mode.postOnlyUntil = Date.now() + Math.min(named ?? POST_ONLY_HOLD_MS, POST_ONLY_MAX_HOLD_MS);
    this.options.onNotice?.({ kind: 'post-only', api: 'CLOB', endpoint: `POST ${path}`, message });
    return new PmDeskError(ErrorCode.SERVER_ERROR, message, {
      methodName,
      statusCode: 503,
      responseData: error.responseData,
      context: error.context,
    });
  }

  cancelOrder(orderId: string): Promise<ClobResult<unknown>> {
    return this.signedChecked(A.CancelAnswer, {
      methodName: 'cancelOrder',
      method: 'DELETE',
      path: P.CANCEL_ORDER,
      body: JSON.stringify({ orderID: orderId }),
    });
  }
  cancelOrders(orderIds: readonly string[]): Promise<ClobResult<unknown>> {
    return this.signedChecked(A.CancelAnswer, {
      methodName: 'cancelOrders',
      method: 'DELETE',
      path: P.CANCEL_ORDERS,
      body: JSON.stringify(orderIds),
    });
  }
  cancelAll(): Promise<ClobResult<unknown>> {
    return this.signedChecked(A.CancelAnswer, { methodName: 'cancelAll', method: 'DELETE', path: P.CANCEL_ALL });
  }
  cancelMarketOrders(params: { market?: string; asset_id?: string }): Promise<ClobResult<unknown>> {
    return this.signedChecked(A.CancelAnswer, {
      methodName: 'cancelMarketOrders',
      method: 'DELETE',
      path: P.CANCEL_MARKET_ORDERS,
      body: JSON.stringify(params),
    });
  }

  isOrderScoring(params: { order_id: string }): Promise<ClobResult<unknown>> {
    return this.signed({ methodName: 'isOrderScoring', method: 'GET', path: P.IS_ORDER_SCORING, query: { ...params } });
  }
  areOrdersScoring(params: { orderIds: readonly string[] }): Promise<ClobResult<unknown>> {
    return this.signed({
      methodName: 'areOrdersScoring',
      method: 'POST',
      path: P.ARE_ORDERS_SCORING,
      body: JSON.stringify(params.orderIds),
    });
  }

  // ---- account ------------------------------------------------------------------------------------

  getNotifications(): Promise<ClobResult<unknown>> {
    return this.signed({
      methodName: 'getNotifications',
      method: 'GET',
      path: P.GET_NOTIFICATIONS,
      query: { signature_type: this.signatureType },
    });
  }
  dropNotifications(params: { ids: readonly string[] }): Promise<ClobResult<unknown>> {
    return this.signed({
      methodName: 'dropNotifications',
      method: 'DELETE',
      path: P.DROP_NOTIFICATIONS,
      query: dropNotificationParams(params.ids),
    });
  }
  getBalanceAllowance(params: BalanceAllowanceParams): Promise<ClobResult<unknown>> {
    return this.signedChecked(A.BalanceAllowanceAnswer, {
      methodName: 'getBalanceAllowance',
      method: 'GET',
      path: P.GET_BALANCE_ALLOWANCE,
      query: { ...params, signature_type: this.signatureType },
    });
  }
  /** Asks the server to re-read the chain after approvals or a deposit (a GET, as the service defines it). */
  updateBalanceAllowance(params: BalanceAllowanceParams): Promise<ClobResult<unknown>> {
    return this.signed({
      methodName: 'updateBalanceAllowance',
      method: 'GET',
      path: P.UPDATE_BALANCE_ALLOWANCE,
      query: { ...params, signature_type: this.signatureType },
    });
  }

  // ---- rewards and events -------------------------------------------------------------------------

  async getEarningsForUserForDay(date: string): Promise<ClobResult<unknown[]>> {
    const headers = await this.l2Headers('getEarningsForUserForDay', 'GET', P.GET_EARNINGS_FOR_USER_FOR_DAY);
    return this.paged(
      'getEarningsForUserForDay',
      P.GET_EARNINGS_FOR_USER_FOR_DAY,
      { date, signature_type: this.signatureType },
      headers,
    );
  }
  getTotalEarningsForUserForDay(date: string): Promise<ClobResult<unknown>> {
    return this.signed({
      methodName: 'getTotalEarningsForUserForDay',
      method: 'GET',
      path: P.GET_TOTAL_EARNINGS_FOR_USER_FOR_DAY,
      query: { date, signature_type: this.signatureType },
    });
  }
  async getUserEarningsAndMarketsConfig(
    date: string,
    orderBy = '',
    position = '',
    noCompetition = false,
  ): Promise<ClobResult<unknown[]>> {
    const headers = await this.l2Headers('getUserEarningsAndMarketsConfig', 'GET', P.GET_REWARDS_EARNINGS_PERCENTAGES);
    const query = (cursor: string) => ({
      date,
      signature_type: this.signatureType,
      next_cursor: cursor,
      order_by: orderBy,
      position,
      no_competition: noCompetition,
    });
    return this.paged('getUserEarningsAndMarketsConfig', P.GET_REWARDS_EARNINGS_PERCENTAGES, query, headers);
  }
  getRewardPercentages(): Promise<ClobResult<unknown>> {
    return this.signed({
      methodName: 'getRewardPercentages',
      method: 'GET',
      path: P.GET_LIQUIDITY_REWARD_PERCENTAGES,
      query: { signature_type: this.signatureType },
    });
  }
  getCurrentRewards(): Promise<ClobResult<unknown[]>> {
    return this.paged('getCurrentRewards', P.GET_REWARDS_MARKETS_CURRENT, {}, undefined);
  }
  getRawRewardsForMarket(conditionId: string): Promise<ClobResult<unknown[]>> {
    return this.paged('getRawRewardsForMarket', P.GET_REWARDS_MARKETS + pathSegment(conditionId), {}, undefined);
  }
  /** Recent trades of a market; version 2 moved the path, so the resolved order version picks it. */
  async getMarketTradesEvents(conditionId: string): Promise<ClobResult<unknown>> {
    const base = (await this.resolveVersion()) === 1 ? P.GET_MARKET_TRADES_EVENTS : P.GET_MARKET_TRADES_EVENTS_V2;
    return this.get(
      'getMarketTradesEvents',
      A.MarketTradesAnswer,
      base + pathSegment(conditionId),
      undefined,
      `${base}{conditionId}`,
    );
  }
}

export function isVersionMismatch(result: unknown): boolean {
  if (!isClobError(result) || !result.error) return false;
  const text = typeof result.error === 'string' ? result.error : JSON.stringify(result.error);
  return text.includes(ORDER_VERSION_MISMATCH);
}
