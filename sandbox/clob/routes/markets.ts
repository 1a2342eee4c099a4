// The CLOB's public market reads: health and clock, markets (full, simplified, sampling, compact, by token),
// books, prices, midpoints, spreads, last trade prices, tick/neg-risk/fee lookups, prices history and a
// market's live activity. No authentication.
import type { CatalogMarket } from '../../market/catalog';
import { feeRateBps } from '../../market/fees';
import { priceString } from '../book-snapshot';
import { HttpError, parseJson, type Query } from '../http';
import type { TradeRecord } from '../records';
import { NOT_FOUND, pathId, type ClobRequest } from '../routing';
import type { ClobState } from '../state';
import { marketTradeEventJson } from '../views';
import { publicPrints } from '../public-trades';
import { clobRewardsJson } from './rewards';

export function marketRoutes(state: ClobState, { key, path, q, raw }: ClobRequest): unknown {
  const { deployment } = state.options;
  switch (key) {
    case 'GET /':
    case 'GET /ok':
      return 'OK';
    case 'GET /time':
      return state.nowSeconds();
    case 'GET /version':
      return { version: deployment.orderVersion };
    case 'GET /markets':
      return state.page(
        state.allMarkets().map((m) => marketJson(state, m)),
        q,
      );
    case 'GET /sampling-markets':
      return state.page(
        state
          .allMarkets()
          .filter((m) => m.acceptingOrders)
          .map((m) => marketJson(state, m)),
        q,
      );
    case 'GET /simplified-markets':
      return state.page(
        state.allMarkets().map((m) => simplifiedJson(state, m)),
        q,
      );
    case 'GET /sampling-simplified-markets':
      return state.page(
        state
          .allMarkets()
          .filter((m) => m.acceptingOrders)
          .map((m) => simplifiedJson(state, m)),
        q,
      );
    case 'GET /book':
      return state.snapshot(...state.tokenParam(q.get('token_id')));
    case 'POST /books':
      return tokenList(raw).map((t) => state.snapshot(...state.tokenParam(t.token_id)));
    case 'GET /midpoint':
      return { mid: midpoint(state, ...state.tokenParam(q.get('token_id'))) };
    case 'POST /midpoints':
      return Object.fromEntries(
        tokenList(raw).map((t) => [t.token_id, midpoint(state, ...state.tokenParam(t.token_id))]),
      );
    case 'GET /price':
      return { price: price(state, state.tokenParam(q.get('token_id')), sideParam(q.get('side'))) };
    case 'POST /prices':
      return prices(state, tokenList(raw));
    case 'GET /spread':
      return { spread: spread(state, ...state.tokenParam(q.get('token_id'))) };
    case 'POST /spreads':
      return Object.fromEntries(
        tokenList(raw).map((t) => [t.token_id, spread(state, ...state.tokenParam(t.token_id))]),
      );
    case 'GET /last-trade-price':
      return lastTrade(state, q.get('token_id'));
    case 'POST /last-trades-prices':
      return tokenList(raw).map((t) => ({ token_id: t.token_id, ...lastTrade(state, t.token_id) }));
    case 'GET /tick-size':
      return { minimum_tick_size: Number(state.tokenParam(q.get('token_id'))[0].tickSize) };
    case 'GET /neg-risk':
      return { neg_risk: state.tokenParam(q.get('token_id'))[0].negRisk };
    case 'GET /fee-rate':
      // The market's rate in basis points (Polymarket answers its fee-bearing markets' rate here too).
      return { base_fee: feeRateBps(state.tokenParam(q.get('token_id'))[0].fees) };
    case 'GET /prices-history':
      return pricesHistory(state, q);
  }
  if (!key.startsWith('GET ')) return NOT_FOUND;
  const marketId = pathId(path, '/markets/');
  if (marketId !== undefined && !marketId.startsWith('live-activity/'))
    return marketJson(state, state.marketParam(marketId));
  const clobId = pathId(path, '/clob-markets/');
  if (clobId !== undefined) {
    const m = state.marketParam(clobId);
    return {
      c: m.conditionId,
      t: m.tokens.map((t) => ({ t: t.tokenId, o: t.name })),
      mts: Number(m.tickSize),
      nr: m.negRisk,
      // Fee details: rate, exponent, taker-only (docs/protocol.md#fees); a fee-free market reads r 0.
      fd: m.fees ? { r: m.fees.rate, e: m.fees.exponent, to: m.fees.takerOnly } : { r: 0, e: 0, to: true },
      mbf: 0,
      tbf: 0,
      r: null,
      ao: m.acceptingOrders && !m.closed,
      mos: m.minOrderSize,
    };
  }
  const byToken = pathId(path, '/markets-by-token/');
  if (byToken !== undefined) {
    const [m] = state.tokenParam(byToken);
    return {
      condition_id: m.conditionId,
      primary_token_id: m.tokens[0].tokenId,
      secondary_token_id: m.tokens[1].tokenId,
    };
  }
  const live = pathId(path, '/live-activity/events/') ?? pathId(path, '/markets/live-activity/');
  if (live !== undefined) return liveActivity(state, live);
  const builderFees = pathId(path, '/fees/builder-fees/');
  if (builderFees !== undefined) return { builder_maker_fee_rate_bps: 0, builder_taker_fee_rate_bps: 0 };
  return NOT_FOUND;
}

function sideParam(side: unknown): 'BUY' | 'SELL' {
  if (side !== 'BUY' && side !== 'SELL') throw new HttpError(400, 'Invalid side: BUY or SELL');
  return side;
}

function tokenList(raw: string): { token_id: string; side?: unknown }[] {
  const list = parseJson(raw);
  if (
    !Array.isArray(list) ||
    list.length > 500 ||
    list.some((p) => !p || typeof p !== 'object' || typeof (p as { token_id?: unknown }).token_id !== 'string')
  ) {
    throw new HttpError(400, 'Invalid payload: a list of {token_id}');
  }
  return list as { token_id: string; side?: unknown }[];
}

/**
 * POST /prices: `{<token_id>: {BUY?, SELL?}}`. One token may be asked for twice (BUY, then SELL): the answers
 * merge into its one entry, as Polymarket's do; an item without a side asks for both.
 */
function prices(
  state: ClobState,
  list: { token_id: string; side?: unknown }[],
): Record<string, Partial<Record<'BUY' | 'SELL', string>>> {
  const answer: Record<string, Partial<Record<'BUY' | 'SELL', string>>> = {};
  for (const t of list) {
    const token = state.tokenParam(t.token_id);
    const sides = t.side === undefined ? (['BUY', 'SELL'] as const) : [sideParam(t.side)];
    const entry = (answer[t.token_id] ??= {});
    for (const side of sides) entry[side] = price(state, token, side);
  }
  return answer;
}

function midpoint(state: ClobState, market: CatalogMarket, outcome: 0 | 1): string {
  const { bids, asks } = state.levels(market, outcome);
  if (!bids.length || !asks.length) throw new HttpError(404, 'No orderbook exists for the requested token id');
  return priceString((bids[0]!.price + asks[0]!.price) / 2);
}

/** Polymarket's docs: side BUY answers the best bid, SELL the best ask. */
function price(state: ClobState, [market, outcome]: [CatalogMarket, 0 | 1], side: 'BUY' | 'SELL'): string {
  const { bids, asks } = state.levels(market, outcome);
  const best = side === 'BUY' ? bids[0] : asks[0];
  if (!best) throw new HttpError(404, 'No orderbook exists for the requested token id');
  return priceString(best.price);
}

function spread(state: ClobState, market: CatalogMarket, outcome: 0 | 1): string {
  const { bids, asks } = state.levels(market, outcome);
  if (!bids.length || !asks.length) throw new HttpError(404, 'No orderbook exists for the requested token id');
  return priceString(asks[0]!.price - bids[0]!.price);
}

function lastTrade(state: ClobState, tokenId: unknown): { price: string; side: 'BUY' | 'SELL' } {
  const [market, outcome] = state.tokenParam(tokenId);
  const id = market.tokens[outcome].tokenId;
  let last: TradeRecord | undefined;
  for (let i = state.trades.length - 1; i >= 0 && !last; i--)
    if (state.trades[i]!.market === market && state.trades[i]!.status !== 'FAILED') last = state.trades[i];
  const fills = state.options.marketData.fills(id);
  const lastFill = fills.at(-1);
  // Polymarket always names a side, and its own client requires BUY or SELL. A market with no fill at all
  // (none in the catalog: every market has a history) answers the middle price, as a buy.
  if (!lastFill) return { price: '0.5', side: 'BUY' };
  const price = String(lastFill.price);
  // The exchange's last trade, seen from this outcome (a BUY of the other outcome is a SELL of this one).
  if (last && lastFill.timestamp >= last.matchTime)
    return { price, side: last.tokenId === id ? last.side : last.side === 'BUY' ? 'SELL' : 'BUY' };
  // A generated fill carries no side: the tick rule names it (a trade above the last different price was a
  // buy, below it a sell), from the same fills the price comes from.
  for (let i = fills.length - 2; i >= 0; i--)
    if (fills[i]!.price !== lastFill.price) return { price, side: lastFill.price > fills[i]!.price ? 'BUY' : 'SELL' };
  return { price, side: 'BUY' };
}

function pricesHistory(state: ClobState, q: Query): { history: { t: number; p: number }[] } {
  const [market, outcome] = state.tokenParam(q.get('market'));
  const nowS = state.nowSeconds();
  const interval = q.get('interval');
  const spans: Record<string, number> = {
    '1h': 3600,
    '6h': 6 * 3600,
    '1d': 86_400,
    '1w': 7 * 86_400,
    '1m': 30 * 86_400,
    max: Infinity,
  };
  const number = (name: string): number | undefined => {
    const text = q.get(name);
    if (text === null) return undefined;
    if (!/^\d{1,12}$/.test(text)) throw new HttpError(400, `Invalid ${name}`);
    return Number(text);
  };
  let start = number('startTs');
  let end = number('endTs');
  if (interval !== null) {
    if (!(interval in spans)) throw new HttpError(400, `Invalid interval: one of ${Object.keys(spans).join(', ')}`);
    if (start !== undefined || end !== undefined)
      throw new HttpError(400, 'startTs/endTs and interval are mutually exclusive');
    end = nowS;
    start = nowS - spans[interval]!;
  }
  const fidelity = number('fidelity') ?? 1;
  if (fidelity < 1) throw new HttpError(400, 'Invalid fidelity');
  const bucket = fidelity * 60;
  const history: { t: number; p: number }[] = [];
  for (const fill of state.options.marketData.fills(market.tokens[outcome].tokenId)) {
    if (start !== undefined && fill.timestamp < start) continue;
    if (end !== undefined && fill.timestamp > end) continue;
    const t = Math.floor(fill.timestamp / bucket) * bucket;
    const last = history.at(-1);
    if (last && last.t === t) last.p = fill.price;
    else history.push({ t, p: fill.price });
  }
  return { history };
}

/**
 * GET /markets/live-activity/{condition_id} (version 1: /live-activity/events/{id}): the market's trades, newest
 * first, as MarketTradeEvent; a failed settlement is no trade. As many as a page of the paged lists.
 */
function liveActivity(state: ClobState, conditionId: string) {
  if (!CONDITION_ID.test(conditionId)) throw new HttpError(400, 'Invalid condition id: 0x and 64 hex digits');
  const market = state.marketParam(conditionId);
  const events: ReturnType<typeof marketTradeEventJson>[] = [];
  for (let i = state.trades.length - 1; i >= 0 && events.length < state.pageSize; i--) {
    const trade = state.trades[i]!;
    if (trade.market !== market || trade.status === 'FAILED') continue;
    // Newest first: a several-level trade's last level (its last print) comes first.
    for (const print of publicPrints(trade).reverse())
      if (events.length < state.pageSize) events.push(marketTradeEventJson(trade, print));
  }
  return events;
}

const CONDITION_ID = /^0x[0-9a-fA-F]{64}$/;

function questionId(state: ClobState, market: CatalogMarket): string {
  return (
    state.options.deployment.markets.find((m) => m.conditionId === market.conditionId)?.questionId ??
    `0x${'0'.repeat(64)}`
  );
}

function tokensJson(state: ClobState, market: CatalogMarket) {
  // A resolved market prices its winner at 1 and the loser at 0.
  const resolved = market.resolution;
  return market.tokens.map((t) => ({
    token_id: t.tokenId,
    outcome: t.name,
    price: resolved ? (resolved.winner === t.index ? 1 : 0) : (state.options.marketData.displayPrice(t.tokenId) ?? 0.5),
    winner: resolved?.winner === t.index,
  }));
}

function marketJson(state: ClobState, m: CatalogMarket) {
  return {
    enable_order_book: true,
    active: m.active,
    closed: m.closed,
    archived: false,
    accepting_orders: m.acceptingOrders,
    accepting_order_timestamp: null,
    minimum_order_size: m.minOrderSize,
    minimum_tick_size: Number(m.tickSize),
    condition_id: m.conditionId,
    question_id: questionId(state, m),
    question: m.question,
    description: m.description,
    market_slug: m.slug,
    end_date_iso: m.end,
    game_start_time: null,
    seconds_delay: 0,
    fpmm: '',
    maker_base_fee: 0,
    taker_base_fee: feeRateBps(m.fees),
    notifications_enabled: true,
    neg_risk: m.negRisk,
    neg_risk_market_id: m.negRisk ? m.eventId : '',
    neg_risk_request_id: '',
    icon: '',
    image: '',
    rewards: clobRewardsJson(state, m),
    is_50_50_outcome: false,
    tokens: tokensJson(state, m),
    tags: [],
  };
}

function simplifiedJson(state: ClobState, m: CatalogMarket) {
  return {
    condition_id: m.conditionId,
    rewards: clobRewardsJson(state, m),
    tokens: tokensJson(state, m),
    active: m.active,
    closed: m.closed,
    archived: false,
    accepting_orders: m.acceptingOrders,
  };
}
