// The sandbox's aggregator: the aggregator API with its response shapes (docs/protocol.md#aggregator), built
// from the sandbox's own catalog, books, fills and traders, plus the fill-event SSE stream (unnamed
// `data:` frames, timestamps in seconds). Errors answer `{message}` (or `{error}`) with the right status;
// nothing a client sends can crash it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getAddress } from 'ethers';
import {
  PROTOCOLS,
  POLY_ORDER_FIELDS,
  type TradeRecord,
  type Trader,
  type TraderPosition,
} from '@pmdesk/toolkit/aggregator-wire';
import type { Catalog, CatalogEvent, CatalogMarket } from '../market/catalog';
import type { MarketData } from '../market/market-data';
import { rewardTerms } from '../market/reward-programme';
import { SearchIndex } from './search';
import { pseudonymOf } from './pseudonym';
import type { TraderDirectory } from './traders';

export type { TraderDirectory } from './traders';

export interface AggregatorServerOptions {
  catalog: Catalog;
  marketData: MarketData;
  traders?: TraderDirectory;
  host?: string;
  port?: number;
  /** The clock, for comment times and oracle records (tests pin it). */
  now?: () => number;
  /** Milliseconds between SSE keep-alive comments. */
  keepAliveMs?: number;
  /** How far back filledevents reaches (the aggregator serves about a month). */
  historyDays?: number;
}

const MAX_BODY_BYTES = 64 * 1024;
const ORACLE_MIN_COLLATERAL = 1_000_000n; // 1 USDC in base units
const PROTOCOL_SET = new Set<string>(PROTOCOLS);

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field: 'message' | 'error' = 'message',
  ) {
    super(message);
  }
}

interface PendingPrice {
  tokenId: string;
  complement: string;
  price: number;
  complementPrice: number;
  createdAt: number;
}

export class AggregatorServer {
  private server: Server | undefined;
  private readonly search: SearchIndex<CatalogEvent>;
  private readonly searchWithComments: SearchIndex<CatalogEvent>;
  private readonly pending: PendingPrice[] = [];
  private readonly oraclePrices = new Map<string, { price: number; createdAt: number }>();
  /** Open fill streams, each with what stops it feeding. */
  private readonly streams = new Map<ServerResponse, () => void>();
  private readonly now: () => number;

  constructor(private readonly options: AggregatorServerOptions) {
    this.now = options.now ?? Date.now;
    const text = (e: CatalogEvent) =>
      [e.title, e.description, e.slug, ...e.markets.flatMap((m) => [m.question, m.groupItemTitle, m.description])].join(
        ' ',
      );
    this.search = new SearchIndex(options.catalog.events.map((e) => ({ item: e, text: text(e) })));
    this.searchWithComments = new SearchIndex(
      options.catalog.events.map((e) => ({ item: e, text: `${text(e)} ${e.comments.map((c) => c.text).join(' ')}` })),
    );
  }

  get url(): string {
    const address = this.server?.address() as AddressInfo | undefined;
    if (!address) throw new Error('the aggregator server is not listening');
    return `http://${this.options.host ?? '127.0.0.1'}:${address.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', () => resolve());
    });
    return this;
  }

  /**
   * A fault for tests: every fill stream ends now, as when the aggregator restarts. Fills recorded before the
   * clients reconnect are in the price history only (what a trader's tape shows as a gap).
   */
  dropFillStreams(): number {
    const open = [...this.streams];
    for (const [stream, stopFeeding] of open) {
      stopFeeding();
      stream.end();
    }
    return open.length;
  }

  async stop(): Promise<void> {
    for (const stream of this.streams.keys()) stream.end();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://sandbox');
      const method = req.method ?? 'GET';
      const body = method === 'POST' ? await readBody(req) : undefined;
      const result = await this.route(method, url, body, req, res);
      if (result !== STREAMING) json(res, 200, result);
    } catch (error) {
      if (res.headersSent) {
        res.end();
        return;
      }
      // A body refused part-way is never read to its end, so its connection can carry no other request: it is
      // closed after the answer (kept alive, a client reusing it would wait until the keep-alive timeout).
      if (error instanceof HttpError && error.status === 413) res.setHeader('Connection', 'close');
      if (error instanceof HttpError) json(res, error.status, { [error.field]: error.message });
      else json(res, 500, { error: 'internal error' });
    }
  }

  private async route(
    method: string,
    url: URL,
    body: string | undefined,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<unknown> {
    const q = url.searchParams;
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const segments = path.split('/').filter(Boolean).map(decodeURIComponentSafe);
    const get = method === 'GET';

    if (get && segments[0] === 'v1' && segments[1] === 'events' && segments.length === 3)
      return this.eventJson(this.event(requireProtocol(q), segments[2]!));
    if (
      get &&
      segments[0] === 'v1' &&
      segments[1] === 'events' &&
      segments[3] === 'comments' &&
      segments.length === 4
    ) {
      return this.comments(this.event(requireProtocol(q), segments[2]!));
    }
    if (get && segments[0] === 'v1' && segments[1] === 'markets' && segments.length === 3)
      return this.marketJson(this.market(requireProtocol(q), segments[2]!));
    if (
      get &&
      segments[0] === 'v1' &&
      segments[1] === 'markets' &&
      segments[3] === 'orderbook' &&
      segments.length === 4
    ) {
      return this.books(this.market(requireProtocol(q), segments[2]!));
    }
    if (
      get &&
      segments[0] === 'v1' &&
      segments[1] === 'markets' &&
      segments[3] === 'orderbook' &&
      segments[4] === 'filledevents' &&
      segments.length === 5
    ) {
      return this.fillHistory(this.market(requireProtocol(q), segments[2]!));
    }
    if (get && path === '/v1/ongoing-events')
      return this.ongoing(requireProtocol(q), page(q, 'page', 1), page(q, 'limit', 50));
    // The address is checked before the protocol, as the toolkit's client does.
    if (get && segments[0] === 'v1' && segments[1] === 'trader' && segments.length === 3)
      return this.trader(traderAddress(segments[2]!), requireProtocol(q));
    if (
      get &&
      segments[0] === 'v1' &&
      segments[1] === 'trader' &&
      segments[3] === 'positions' &&
      segments.length === 4
    ) {
      return this.positions(traderAddress(segments[2]!), requireProtocol(q));
    }
    if (get && path === '/v1/agg/sluglist') return this.slugs(page(q, 'page', 1), page(q, 'limit', 100));
    if (get && path === '/v1/agg')
      return this.options.catalog.events.filter((e) => e.slug === required(q, 'slug')).map((e) => this.eventJson(e));
    if (get && path === '/v1/agg/market') {
      const slug = required(q, 'slug');
      return this.allMarkets()
        .filter((m) => m.slug === slug)
        .map((m) => this.marketJson(m));
    }
    if (get && path === '/v1/agg/retrieve') return this.retrieve(q);
    if (method === 'POST' && path === '/v1/proposePrice') return this.proposePrice(body ?? '');
    if (method === 'POST' && path === '/v1/verifyPrice') return this.verifyPrice();
    if (get && path === '/v1/scanPendingPriceData') return { result: this.pending.length > 0 };
    if (get && path === '/sse/fillevent') return this.fillStream(q, req, res);
    throw new HttpError(404, `No route for ${method} ${path}.`);
  }

  private allMarkets(): CatalogMarket[] {
    return this.options.catalog.events.flatMap((e) => e.markets);
  }

  private event(protocol: string, id: string): CatalogEvent {
    const event = protocol === 'polymarket' ? this.options.catalog.events.find((e) => e.id === id) : undefined;
    if (!event) throw new HttpError(404, `Event '${id}' not found.`);
    return event;
  }

  private market(protocol: string, id: string): CatalogMarket {
    const market = protocol === 'polymarket' ? this.options.catalog.market(id) : undefined;
    if (!market) throw new HttpError(404, `Market '${id}' not found.`);
    return market;
  }

  private eventJson(event: CatalogEvent) {
    const markets = event.markets.map((m) => this.marketJson(m));
    const data = this.options.marketData;
    let volume = 0;
    let liquidity = 0;
    for (const market of event.markets) {
      for (const token of market.tokens) {
        for (const fill of data.fills(token.tokenId)) volume += fill.price * fill.volumeBase;
        const book = data.book(token.tokenId);
        for (const level of [...(book?.bids ?? []), ...(book?.asks ?? [])])
          liquidity += Number(level.price) * Number(level.size);
      }
    }
    return {
      id: event.id,
      protocol: 'polymarket',
      region: 'global',
      slug: event.slug,
      title: event.title,
      description: event.description,
      startDate: event.startDate,
      creationDate: event.creationDate,
      endDate: event.endDate,
      image: '',
      icon: '',
      active: event.markets.some((m) => m.active),
      liquidity: round2(liquidity / 2),
      volume: round2(volume / 2), // each fill shows on both outcome tokens
      neg_risk: event.negRisk,
      markets,
    };
  }

  private marketJson(market: CatalogMarket) {
    const data = this.options.marketData;
    const decimals = market.tickSize.split('.')[1]!.length;
    const [first] = market.tokens;
    const book = data.book(first.tokenId);
    const bestBid = book?.bids.length ? Math.max(...book.bids.map((l) => Number(l.price))) : undefined;
    const bestAsk = book?.asks.length ? Math.min(...book.asks.map((l) => Number(l.price))) : undefined;
    return {
      id: market.id,
      name: market.groupItemTitle || market.question,
      question: market.question,
      end: market.end,
      description: market.description,
      image: '',
      icon: '',
      slug: market.slug,
      active: market.active,
      funded: true,
      ...rewardTerms(market),
      spread: bestBid !== undefined && bestAsk !== undefined ? Number((bestAsk - bestBid).toFixed(decimals)) : null,
      // A resolved market prices its winner at 1 and the loser at 0, and names the winner.
      position_tokens: market.tokens.map((t) => ({
        token_id: t.tokenId,
        name: t.name,
        price: market.resolution
          ? market.resolution.winner === t.index
            ? '1'
            : '0'
          : (data.displayPrice(t.tokenId) ?? 0.5).toFixed(decimals),
        ...(market.resolution ? { winner: market.resolution.winner === t.index } : {}),
      })),
      groupItemTitle: market.groupItemTitle,
      conditionId: market.conditionId,
      neg_risk: market.negRisk,
      minimum_tick_size: market.tickSize,
      minimum_order_size: market.minOrderSize,
      accepting_orders: market.acceptingOrders,
      closed: market.closed,
      // The taker fee charged at match time (rate, exponent, taker-only), or null on a fee-free market.
      fee_schedule: market.fees
        ? { rate: market.fees.rate, exponent: market.fees.exponent, taker_only: market.fees.takerOnly }
        : null,
    };
  }

  private comments(event: CatalogEvent) {
    return event.comments.map((c, i) => ({
      id: `${event.id}-c${i + 1}`,
      parent_comment_id: null,
      name: c.author,
      pseudonym: c.author,
      displayUsernamePublic: true,
      bio: '',
      baseAddress: '',
      profileImage: '',
      positions: [],
      createdAt: new Date(this.now() - c.hoursAgo * 3_600_000).toISOString(),
      reportCount: 0,
      reactionCount: (i * 7) % 11,
      content: c.text,
    }));
  }

  private books(market: CatalogMarket) {
    const out: Record<string, unknown> = {};
    for (const token of market.tokens) {
      out[token.tokenId] = this.options.marketData.book(token.tokenId) ?? {
        market: market.conditionId,
        asset_id: token.tokenId,
        timestamp: String(this.now()),
        hash: '',
        bids: [],
        asks: [],
        min_order_size: String(market.minOrderSize),
        tick_size: market.tickSize,
        neg_risk: market.negRisk,
        last_trade_price: String(this.options.marketData.lastTradePrice(token.tokenId) ?? ''),
      };
    }
    return out;
  }

  private fillHistory(market: CatalogMarket): TradeRecord[][] {
    const since = Math.floor((this.now() - (this.options.historyDays ?? 31) * 86_400_000) / 1000);
    return market.tokens.map((t) => this.options.marketData.fills(t.tokenId).filter((f) => f.timestamp >= since));
  }

  private ongoing(protocol: string, pageNumber: number, limit: number) {
    if (protocol !== 'polymarket') return [];
    const active = this.options.catalog.events.filter((e) => e.markets.some((m) => m.active && !m.closed));
    return active.slice((pageNumber - 1) * limit, pageNumber * limit).map((e) => this.eventJson(e));
  }

  /**
   * A trader's profile. A well-formed address the sandbox knows nothing of (no trades, no positions, not a named
   * wallet, or another protocol) is an empty profile, never a 404, just as its positions are an empty list: every
   * address can trade, and the app asks both for a fresh wallet of its own.
   */
  private async trader(address: string, protocol: string): Promise<Trader> {
    const trader = protocol === 'polymarket' ? await this.options.traders?.trader(address) : undefined;
    return trader ?? emptyTrader(address);
  }

  private async positions(address: string, protocol: string): Promise<TraderPosition[]> {
    if (protocol !== 'polymarket' || !this.options.traders) return [];
    return this.options.traders.positions(address);
  }

  private slugs(pageNumber: number, limit: number) {
    return this.options.catalog.events.map((e) => e.slug).slice((pageNumber - 1) * limit, pageNumber * limit);
  }

  private retrieve(q: URLSearchParams) {
    const query = required(q, 'query');
    const topK = q.has('topK') ? page(q, 'topK', 10) : 10;
    const threshold = q.has('threshold') ? Number(q.get('threshold')) : 0;
    if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1)
      throw new HttpError(400, "Parameter 'threshold' must be between 0 and 1.");
    const protocols = q
      .get('protocols')
      ?.split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    for (const p of protocols ?? []) if (!PROTOCOL_SET.has(p)) throw new HttpError(400, `Unknown protocol '${p}'.`);
    if (protocols?.length && !protocols.includes('polymarket')) return [];
    const index = q.get('isIncludeComment') === 'true' ? this.searchWithComments : this.search;
    return index
      .search(query, topK, threshold)
      .map(({ item, score }) => ({ event: this.eventJson(item), cosineSimilarity: score }));
  }

  private proposePrice(body: string) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new HttpError(400, 'Body must be JSON: {"order": {…}}.', 'error');
    }
    const order = (parsed as { order?: Record<string, unknown> } | null)?.order;
    if (!order || typeof order !== 'object')
      throw new HttpError(400, 'Body must hold the signed order as "order".', 'error');
    for (const field of POLY_ORDER_FIELDS) {
      if (typeof order[field] !== 'string' || order[field] === '')
        throw new HttpError(400, `order.${field} must be a non-empty string.`, 'error');
    }
    const o = order as Record<(typeof POLY_ORDER_FIELDS)[number], string>;
    if (o.side !== '0' && o.side !== '1')
      throw new HttpError(400, 'order.side must be "0" (BUY) or "1" (SELL).', 'error');
    const makerAmount = baseUnits(o.makerAmount, 'makerAmount');
    const takerAmount = baseUnits(o.takerAmount, 'takerAmount');
    const found = this.options.catalog.token(o.tokenId);
    if (!found) throw new HttpError(400, `order.tokenId ${o.tokenId} is not a sandbox outcome token.`, 'error');
    const [collateral, tokens] = o.side === '0' ? [makerAmount, takerAmount] : [takerAmount, makerAmount];
    if (collateral < ORACLE_MIN_COLLATERAL)
      throw new HttpError(400, 'The order is below the oracle minimum of 1 USDC.', 'error');
    const price = Number((collateral * 1_000_000n) / tokens) / 1_000_000;
    if (!(price > 0 && price < 1)) throw new HttpError(400, 'The order implies a price outside (0, 1).', 'error');
    const complement = found.market.tokens[1 - found.token.index]!.tokenId;
    const record: PendingPrice = {
      tokenId: o.tokenId,
      complement,
      price,
      complementPrice: Number((1 - price).toFixed(6)),
      createdAt: Math.floor(this.now() / 1000),
    };
    this.pending.push(record);
    return { success: true, pending: record };
  }

  private verifyPrice() {
    const verified = this.pending.splice(0);
    for (const p of verified) {
      this.oraclePrices.set(p.tokenId, { price: p.price, createdAt: p.createdAt });
      this.oraclePrices.set(p.complement, { price: p.complementPrice, createdAt: p.createdAt });
    }
    return { verified: verified.length, prices: verified };
  }

  /** Streams the market's fills, priced in its first outcome (a trade of the second at q shows as 1 − q). */
  private fillStream(q: URLSearchParams, req: IncomingMessage, res: ServerResponse): typeof STREAMING {
    const protocol = requireProtocol(q);
    const id = required(q, 'id');
    const byToken = this.options.catalog.token(id);
    const market = byToken?.market ?? this.market(protocol, id);
    if (protocol !== 'polymarket') throw new HttpError(404, `Market '${id}' not found.`);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write(': connected\n\n');
    const wanted = byToken ? [byToken.token.tokenId] : [market.tokens[0].tokenId];
    const complement = byToken ? undefined : market.tokens[1].tokenId;
    const decimals = market.tickSize.split('.')[1]!.length;
    // A trade is recorded on both outcomes; a market's stream sends it once (its mirror is skipped), a token's
    // stream every fill of that token's tape.
    const stop = this.options.marketData.onFill((tokenId, fill, mirror) => {
      if (mirror && !byToken) return;
      if (wanted.includes(tokenId)) res.write(`data: ${JSON.stringify(fill)}\n\n`);
      else if (tokenId === complement)
        res.write(`data: ${JSON.stringify({ ...fill, price: Number((1 - fill.price).toFixed(decimals)) })}\n\n`);
    });
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), this.options.keepAliveMs ?? 15_000);
    const close = () => {
      clearInterval(keepAlive);
      stop();
      this.streams.delete(res);
    };
    this.streams.set(res, close);
    req.on('close', close);
    res.on('close', close);
    return STREAMING;
  }
}

const STREAMING = Symbol('streaming');

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }).end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `Request body over ${MAX_BODY_BYTES} bytes.`, 'error');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function required(q: URLSearchParams, name: string): string {
  const value = q.get(name);
  if (value === null || value.trim() === '') throw new HttpError(400, `Missing required parameter '${name}'.`);
  return value;
}

/**
 * The trader address of a path, checksummed: 0x and 40 hex digits in any case, else 400 with one message for
 * both trader routes. The message does not repeat the address (clients keep addresses out of their logs).
 */
function traderAddress(segment: string): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(segment)) throw new HttpError(400, 'Invalid trader address: 0x and 40 hex digits.');
  return getAddress(segment.toLowerCase());
}

/** The profile of an address with no activity: its pseudonym, no name, zero stats. */
function emptyTrader(address: string): Trader {
  return {
    user: {
      tradingWallet: address,
      proxyOwner: null,
      name: '',
      pseudonym: pseudonymOf(address),
      bio: '',
      avatar: '',
      createdAt: '',
    },
    stats: { portfolioValue: 0, cumulativeVolume: 0, cumulativeProfit: null, totalTrades: 0, balanceInProtocol: null },
  };
}

function requireProtocol(q: URLSearchParams): string {
  const protocol = required(q, 'protocol');
  if (!PROTOCOL_SET.has(protocol)) throw new HttpError(400, `Unknown protocol '${protocol}'.`);
  return protocol;
}

function page(q: URLSearchParams, name: string, fallback: number): number {
  const raw = q.get(name);
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new HttpError(400, `Parameter '${name}' must be 1 or greater.`);
  return Math.min(value, 1000);
}

function baseUnits(value: string, field: string): bigint {
  if (!/^\d{1,40}$/.test(value) || BigInt(value) === 0n)
    throw new HttpError(400, `order.${field} must be a positive whole number of base units.`, 'error');
  return BigInt(value);
}

function decodeURIComponentSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, 'Malformed path.');
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;
