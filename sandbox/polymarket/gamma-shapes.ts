// Gamma's JSON for the sandbox's events, markets, tags and comments (docs/protocol.md#gamma), built from the
// catalog and the live books and fills: camelCase except Gamma's own names (`questionID`, `negRiskMarketID`,
// `parentEntityID`), ids as strings, `outcomes`/`outcomePrices`/`clobTokenIds` as JSON-encoded strings,
// `volume`/`liquidity` as strings on markets next to their `…Num` numbers.
import { getAddress, id as keccakText, keccak256, toUtf8Bytes } from 'ethers';
import { SANDBOX_TAGS, type CatalogEvent, type CatalogMarket } from '../market/catalog';
import { feeRateBps } from '../market/fees';
import type { MarketData } from '../market/market-data';
import { round } from './http';

const DAY = 86_400;

export interface GammaShapeContext {
  marketData: MarketData;
  /** Milliseconds. */
  now: () => number;
  /** When the sandbox started (ISO), for created/updated times. */
  createdAt: string;
}

/**
 * The id Gamma gives a neg-risk group: a bytes32, the same for every market of the event; the event's market id
 * on the chain's neg-risk adapter (the one `convertPositions` takes) when the catalog has it.
 */
export function negRiskMarketIdOf(event: CatalogEvent): string {
  return event.markets[0]?.negRiskEvent?.marketId ?? keccak256(toUtf8Bytes(`sandbox neg-risk market ${event.id}`));
}

/**
 * A market's question id, stable per market: for a neg-risk market the adapter's (event market id + index, as
 * Polymarket's), else the UMA question the condition was prepared for.
 */
export function questionIdOf(market: CatalogMarket): string {
  return market.negRiskEvent?.questionId ?? keccakText(`sandbox question ${market.id}`);
}

export function tagJson(tag: (typeof SANDBOX_TAGS)[number], createdAt: string) {
  return {
    id: tag.id,
    label: tag.label,
    slug: tag.slug,
    forceShow: false,
    forceHide: false,
    isCarousel: false,
    publishedAt: createdAt,
    createdAt,
    updatedAt: createdAt,
  };
}

export function tagsOf(event: CatalogEvent) {
  return SANDBOX_TAGS.filter((t) => event.tags?.includes(t.slug));
}

/** Volume of a market since `sinceS` (unix s), in collateral: each trade counted once (its first-outcome fill). */
export function marketVolume(ctx: GammaShapeContext, market: CatalogMarket, sinceS: number): number {
  let sum = 0;
  // Every trade is on both tapes (p and 1 − p, the same shares): half of both is the trade at the first
  // outcome's and the second's price, so the event's number equals the aggregator's.
  for (const token of market.tokens)
    for (const f of ctx.marketData.fills(token.tokenId)) if (f.timestamp >= sinceS) sum += f.price * f.volumeBase;
  return sum / 2;
}

function liquidityOf(ctx: GammaShapeContext, market: CatalogMarket): number {
  let sum = 0;
  for (const token of market.tokens) {
    const book = ctx.marketData.book(token.tokenId);
    for (const level of [...(book?.bids ?? []), ...(book?.asks ?? [])]) sum += Number(level.price) * Number(level.size);
  }
  return sum / 2;
}

/** The first outcome's traded price at `atS` (the last fill at or before it), if any. */
function priceAt(ctx: GammaShapeContext, tokenId: string, atS: number): number | undefined {
  const fills = ctx.marketData.fills(tokenId);
  for (let i = fills.length - 1; i >= 0; i--) if (fills[i]!.timestamp <= atS) return fills[i]!.price;
  return undefined;
}

export function marketJson(
  ctx: GammaShapeContext,
  event: CatalogEvent,
  market: CatalogMarket,
  { withEvent = false } = {},
) {
  const data = ctx.marketData;
  const decimals = market.tickSize.split('.')[1]!.length;
  const [yes] = market.tokens;
  const book = data.book(yes.tokenId);
  const bestBid = book?.bids.length ? Math.max(...book.bids.map((l) => Number(l.price))) : undefined;
  const bestAsk = book?.asks.length ? Math.min(...book.asks.map((l) => Number(l.price))) : undefined;
  const last = data.lastTradePrice(yes.tokenId);
  const nowS = Math.floor(ctx.now() / 1000);
  const change = (seconds: number) => {
    const then = priceAt(ctx, yes.tokenId, nowS - seconds);
    return last !== undefined && then !== undefined ? round(last - then, 4) : 0;
  };
  const volume = round(marketVolume(ctx, market, 0), 6);
  const liquidity = round(liquidityOf(ctx, market), 6);
  const v = (days: number) => round(marketVolume(ctx, market, nowS - days * DAY), 6);
  const index = event.markets.indexOf(market);
  return {
    id: market.id,
    question: market.question,
    conditionId: market.conditionId,
    questionID: questionIdOf(market),
    slug: market.slug,
    description: market.description,
    resolutionSource: '',
    startDate: event.startDate,
    endDate: market.end,
    startDateIso: event.startDate.slice(0, 10),
    endDateIso: market.end.slice(0, 10),
    image: '',
    icon: '',
    // The app shows the same price the aggregator does: the midpoint, else the last trade, on the tick grid.
    outcomes: JSON.stringify(market.tokens.map((t) => t.name)),
    // Resolved: the winner settles at "1" and the loser at "0" (docs/protocol.md#positions-and-resolution).
    outcomePrices: JSON.stringify(
      market.tokens.map((t) =>
        market.resolution
          ? market.resolution.winner === t.index
            ? '1'
            : '0'
          : (data.displayPrice(t.tokenId) ?? 0.5).toFixed(decimals),
      ),
    ),
    clobTokenIds: JSON.stringify(market.tokens.map((t) => t.tokenId)),
    // Gamma names the AMM of a pre-CLOB market here; an order-book market has none and Gamma sends "" (the
    // field is always present, and Polymarket's own client requires it).
    marketMakerAddress: '',
    active: market.active,
    closed: market.closed,
    archived: false,
    restricted: false,
    approved: true,
    acceptingOrders: market.acceptingOrders,
    enableOrderBook: true,
    orderPriceMinTickSize: Number(market.tickSize),
    orderMinSize: market.minOrderSize,
    negRisk: market.negRisk,
    negRiskOther: false,
    ...(market.negRisk ? { negRiskMarketID: negRiskMarketIdOf(event), negRiskRequestID: questionIdOf(market) } : {}),
    bestBid: bestBid ?? 0,
    bestAsk: bestAsk ?? 1,
    spread: bestBid !== undefined && bestAsk !== undefined ? round(bestAsk - bestBid, decimals) : 1,
    lastTradePrice: last ?? 0,
    oneHourPriceChange: change(3600),
    oneDayPriceChange: change(DAY),
    oneWeekPriceChange: change(7 * DAY),
    oneMonthPriceChange: change(30 * DAY),
    volume: String(volume),
    volumeNum: volume,
    volumeClob: volume,
    volume24hr: v(1),
    volume1wk: v(7),
    volume1mo: v(30),
    volume1yr: v(365),
    volume24hrClob: v(1),
    liquidity: String(liquidity),
    liquidityNum: liquidity,
    liquidityClob: liquidity,
    groupItemTitle: market.groupItemTitle,
    // Gamma orders a group's rows by this (a string); the catalog's order is the row order.
    groupItemThreshold: String(index),
    umaResolutionStatus: market.resolution ? 'resolved' : '',
    ...(market.resolution ? { closedTime: market.resolution.at } : {}),
    // Taker-only fees: the rate in basis points, and the schedule the exchange charges at match time.
    feesEnabled: market.fees !== undefined,
    makerBaseFee: 0,
    takerBaseFee: feeRateBps(market.fees),
    ...(market.fees
      ? {
          feeSchedule: {
            rate: market.fees.rate,
            exponent: market.fees.exponent,
            takerOnly: market.fees.takerOnly,
            rebateRate: 0,
          },
        }
      : {}),
    rewardsMinSize: market.minOrderSize * 10,
    rewardsMaxSpread: 3.5,
    clobRewards: [],
    version: 'v1',
    createdAt: event.creationDate,
    updatedAt: ctx.createdAt,
    ...(withEvent ? { events: [eventSummary(ctx, event)] } : {}),
  };
}

/** An event's own fields, without its markets (what a market's `events[]` carries). */
function eventSummary(ctx: GammaShapeContext, event: CatalogEvent) {
  const nowS = Math.floor(ctx.now() / 1000);
  const sum = (f: (m: CatalogMarket) => number) =>
    round(
      event.markets.reduce((s, m) => s + f(m), 0),
      6,
    );
  const v = (days: number) => sum((m) => marketVolume(ctx, m, nowS - days * DAY));
  return {
    id: event.id,
    ticker: event.slug,
    slug: event.slug,
    title: event.title,
    subtitle: '',
    description: event.description,
    resolutionSource: '',
    startDate: event.startDate,
    creationDate: event.creationDate,
    endDate: event.endDate,
    image: '',
    icon: '',
    active: event.markets.some((m) => m.active),
    closed: event.markets.every((m) => m.closed),
    archived: false,
    new: false,
    featured: false,
    restricted: false,
    liquidity: sum((m) => liquidityOf(ctx, m)),
    volume: sum((m) => marketVolume(ctx, m, 0)),
    openInterest: 0,
    volume24hr: v(1),
    volume1wk: v(7),
    volume1mo: v(30),
    volume1yr: v(365),
    competitive: 0,
    enableOrderBook: true,
    commentCount: event.comments.length,
    negRisk: event.negRisk,
    enableNegRisk: event.negRisk,
    negRiskAugmented: false,
    ...(event.negRisk ? { negRiskMarketID: negRiskMarketIdOf(event), negRiskFeeBips: 0 } : {}),
    showAllOutcomes: true,
    createdAt: event.creationDate,
    updatedAt: ctx.createdAt,
  };
}

export function eventJson(ctx: GammaShapeContext, event: CatalogEvent) {
  return {
    ...eventSummary(ctx, event),
    markets: event.markets.map((m) => marketJson(ctx, event, m)),
    series: [],
    tags: tagsOf(event).map((t) => tagJson(t, ctx.createdAt)),
    categories: [],
    collections: [],
  };
}

/** A stable wallet for a comment's author (the catalog's authors are names, not wallets). */
function authorWallet(author: string): string {
  return getAddress(keccakText(`sandbox commenter ${author}`).slice(0, 42));
}

/** An event's comments in Gamma's shape: top-level comments (no `parentCommentID`), each with its author's profile. */
export function commentsJson(ctx: GammaShapeContext, event: CatalogEvent) {
  return event.comments.map((c, i) => {
    const wallet = authorWallet(c.author);
    const createdAt = new Date(ctx.now() - c.hoursAgo * 3_600_000).toISOString();
    return {
      id: String(Number(event.id) * 1000 + i + 1),
      body: c.text,
      parentEntityType: 'Event',
      parentEntityID: Number(event.id),
      userAddress: wallet,
      createdAt,
      updatedAt: createdAt,
      reportCount: 0,
      reactionCount: (i * 7) % 11,
      reactions: [],
      profile: {
        name: c.author,
        pseudonym: c.author,
        displayUsernamePublic: true,
        bio: '',
        isMod: false,
        isCreator: false,
        proxyWallet: wallet,
        baseAddress: wallet,
        profileImage: '',
        positions: [],
      },
    };
  });
}
