// Polymarket's wire shapes mapped onto the market model (packages/toolkit/src/model/market-model.ts): a Gamma event with its
// markets, comments, a profile with its value, Data API positions, activity and trades. A field the source
// does not give stays absent or null; nothing here invents a value that would look real.
import type {
  Comment,
  Market,
  MarketFees,
  MarketTrade,
  PositionToken,
  PredictionEvent,
  Trader,
  TraderActivity,
  TraderPosition,
  TradeRecord,
} from '../model/market-model';
import type { LiveActivityTrade, RtdsTrade } from './clob-schemas';
import type { DataActivity, DataPosition, DataTrade } from './data-schemas';
import { tokenFieldOf, type GammaComment, type GammaEvent, type GammaMarket, type GammaProfile } from './gamma-schemas';

export const POLYMARKET = 'polymarket';

/** One Gamma event → one PredictionEvent; a multi-outcome (neg-risk) event stays one event holding its markets. */
export function toPredictionEvent(event: GammaEvent): PredictionEvent {
  return defined({
    id: event.id,
    protocol: POLYMARKET,
    // Gamma names no region for an event; the field stays empty rather than guessed.
    region: '',
    slug: event.slug,
    title: event.title,
    description: event.description,
    startDate: event.startDate,
    creationDate: event.creationDate,
    endDate: event.endDate,
    image: event.image,
    icon: event.icon,
    active: event.active,
    closed: event.closed,
    liquidity: event.liquidity,
    volume: event.volume,
    volume24hr: event.volume24hr,
    neg_risk: event.negRisk ?? event.enableNegRisk,
    negRiskMarketId: event.negRiskMarketID ?? undefined,
    markets: event.markets.map(toMarket),
  });
}

/** One Gamma market → one Market with its outcome tokens in Gamma's outcome order. */
export function toMarket(market: GammaMarket): Market {
  return defined({
    id: market.id,
    name: market.groupItemTitle || market.question,
    question: market.question,
    end: market.endDate ?? market.endDateIso ?? '',
    description: market.description,
    image: market.image,
    icon: market.icon,
    slug: market.slug,
    active: market.active,
    rewardsMinSize: market.rewardsMinSize,
    rewardsMaxSpread: market.rewardsMaxSpread,
    spread: market.spread,
    position_tokens: positionTokens(market),
    groupItemTitle: market.groupItemTitle,
    neg_risk: market.negRisk,
    ...(market.negRisk ? { negRiskMarketId: market.negRiskMarketID ?? undefined } : {}),
    ...(market.negRisk ? { questionId: market.questionID ?? undefined } : {}),
    conditionId: market.conditionId ?? undefined,
    minimum_tick_size: market.orderPriceMinTickSize,
    minimum_order_size: market.orderMinSize ?? undefined,
    accepting_orders: market.acceptingOrders,
    closed: market.closed,
    ...resolution(market),
    version: market.version,
    fees: marketFees(market),
    bestBid: market.bestBid,
    bestAsk: market.bestAsk,
    lastTradePrice: market.lastTradePrice,
    volume: market.volumeNum ?? market.volume,
    volume24hr: market.volume24hr,
    oneDayPriceChange: market.oneDayPriceChange,
  });
}

/**
 * Whether Gamma says the market is resolved (its UMA resolution status), and the winner where its final prices
 * name exactly one outcome at 1 (a 50-50 settlement names none). Gamma's `active` stays true after resolution.
 */
function resolution(market: GammaMarket): { resolved?: true; winnerTokenId?: string } {
  if (market.umaResolutionStatus?.toLowerCase() !== 'resolved') return {};
  const tokens = market[tokenFieldOf(market)] ?? [];
  const winners = (market.outcomePrices ?? []).flatMap((price, index) =>
    Number(price) === 1 && tokens[index] ? [tokens[index]] : [],
  );
  return winners.length === 1 ? { resolved: true, winnerTokenId: winners[0] } : { resolved: true };
}

/**
 * A market's fee terms from Gamma: its feeSchedule when it states a rate; a market with fees disabled charges
 * none; otherwise unknown. `takerBaseFee` is not a rate: real markets carry `takerBaseFee: 1000` beside a
 * `feeSchedule.rate` of 0.05 or 0.07, so dividing it would guess 0.1 (issue 27). The exchange's own
 * `/clob-markets` terms win when an order is priced (trading/order-fees.ts).
 */
export function marketFees(market: Pick<GammaMarket, 'feesEnabled' | 'feeSchedule'>): MarketFees | undefined {
  const schedule = market.feeSchedule;
  if (schedule && typeof schedule.rate === 'number')
    return { rate: schedule.rate, exponent: schedule.exponent ?? 1, takerOnly: schedule.takerOnly ?? true };
  if (market.feesEnabled === false) return { rate: 0, exponent: 1, takerOnly: true };
  return undefined;
}

/**
 * Outcomes zipped with their token ids (a V2 market's positionIds) and Gamma's cached prices; the schema has
 * already checked the lists line up. A price Gamma does not give is '' (unknown), never "0".
 */
export function positionTokens(market: GammaMarket): PositionToken[] {
  const tokens = market[tokenFieldOf(market)] ?? [];
  const outcomes = market.outcomes ?? [];
  return tokens.map((token_id, index) => ({
    token_id,
    name: outcomes[index] ?? '',
    price: market.outcomePrices?.[index] ?? '',
  }));
}

export function toComment(comment: GammaComment): Comment {
  const profile = comment.profile;
  return defined({
    id: comment.id,
    parent_comment_id: comment.parentCommentID === '' ? null : (comment.parentCommentID ?? null),
    name: profile?.name ?? '',
    pseudonym: profile?.pseudonym ?? '',
    displayUsernamePublic: profile?.displayUsernamePublic,
    bio: profile?.bio ?? '',
    baseAddress: profile?.proxyWallet || comment.userAddress,
    profileImage: profile?.profileImage ?? '',
    // A holder's position names its token; the comment does not say which market of the event it belongs to.
    positions: (profile?.positions ?? []).map((p) => ({
      position: p.tokenId,
      positionSize: p.positionSize,
      marketId: '',
    })),
    createdAt: comment.createdAt,
    reportCount: comment.reportCount,
    reactionCount: comment.reactionCount,
    content: comment.body,
  });
}

export interface TraderFacts {
  address: string;
  profile: GammaProfile | null;
  /** Data /value: the portfolio's value in dollars, null when unknown. */
  value: number | null;
  /** Data /traded: how many markets the trader has traded, null when unknown. */
  marketsTraded: number | null;
}

/** A profile (or none: an API-only trader has no profile) and the Data API's figures → Trader. */
export function toTrader({ address, profile, value, marketsTraded }: TraderFacts): Trader {
  return {
    user: {
      tradingWallet: profile?.proxyWallet || address,
      name: profile?.name ?? '',
      pseudonym: profile?.pseudonym ?? '',
      bio: profile?.bio ?? '',
      avatar: profile?.profileImage ?? '',
      createdAt: profile?.createdAt ?? '',
    },
    // Polymarket's public reads give no lifetime volume, profit or trade count: those stay null.
    stats: { portfolioValue: value, cumulativeVolume: null, cumulativeProfit: null, totalTrades: null, marketsTraded },
  };
}

export function toTraderPosition(position: DataPosition): TraderPosition {
  return defined({
    conditionId: position.conditionId ?? null,
    marketSlug: position.slug ?? null,
    title: position.title,
    tokenId: position.asset,
    outcome: position.outcome,
    outcomeIndex: outcomeIndexOf(position.outcomeIndex),
    size: position.size,
    averagePrice: position.avgPrice,
    currentPrice: position.curPrice,
    currentValue: position.currentValue,
    initialValue: position.initialValue,
    cashPnl: position.cashPnl,
    percentPnl: position.percentPnl,
    icon: position.icon,
    endsOn: position.endDate,
    redeemable: position.redeemable ?? undefined,
  });
}

export function toTraderActivity(activity: DataActivity): TraderActivity {
  return {
    type: activity.type,
    timestamp: activity.timestamp,
    conditionId: activity.conditionId,
    tokenId: activity.asset,
    title: activity.title,
    slug: activity.slug,
    outcome: activity.outcome,
    outcomeIndex: outcomeIndexOf(activity.outcomeIndex),
    side: activity.side,
    size: activity.size,
    // A split, merge or redeem has no price even when the row carries a 0.
    price: activity.side === null ? null : activity.price,
    usdcSize: activity.usdcSize,
    transactionHash: activity.transactionHash,
  };
}

/** Polymarket's "not applicable" outcome index (a row about no one outcome, as a whole-condition redeem). */
export const NO_OUTCOME_INDEX = 999;

/** A row's outcome index, or null where Polymarket wrote none or its "not applicable" 999. */
function outcomeIndexOf(index: number | null | undefined): number | null {
  return index === undefined || index === null || index === NO_OUTCOME_INDEX ? null : index;
}

/** The label a tape shows for a trader: the profile name, else the pseudonym. */
function traderLabel(trade: { name: string; pseudonym: string }): string {
  return trade.name || trade.pseudonym;
}

export function toMarketTrade(trade: DataTrade): MarketTrade {
  return {
    trader: trade.proxyWallet,
    traderName: traderLabel(trade),
    side: trade.side,
    conditionId: trade.conditionId,
    tokenId: trade.asset,
    title: trade.title,
    slug: trade.slug,
    outcome: trade.outcome,
    outcomeIndex: outcomeIndexOf(trade.outcomeIndex),
    size: trade.size,
    price: trade.price,
    timestamp: trade.timestamp,
    transactionHash: trade.transactionHash,
  };
}

/** A Data API trade or a real-time trade (the same fields) → one fill with side, token, trader and transaction. */
export function toTradeRecord(trade: DataTrade | RtdsTrade): TradeRecord {
  return defined({
    price: trade.price,
    volumeBase: trade.size,
    timestamp: trade.timestamp,
    side: trade.side,
    tokenId: trade.asset,
    trader: trade.proxyWallet || undefined,
    traderName: traderLabel(trade) || undefined,
    transactionHash: trade.transactionHash || undefined,
  });
}

/** A CLOB live-activity trade → one fill. */
export function liveActivityToTradeRecord(trade: LiveActivityTrade): TradeRecord {
  return defined({
    price: trade.price,
    volumeBase: trade.size,
    timestamp: trade.timestamp,
    side: trade.side,
    tokenId: trade.market.asset_id,
    trader: trade.user?.address || undefined,
    traderName: trade.user?.username || trade.user?.pseudonym || undefined,
    transactionHash: trade.transaction_hash || undefined,
  });
}

/**
 * A market's live fill as its stream sends it, in the market's first outcome (the aggregator's stream and the
 * terminal's tape and chart read it so). Polymarket's feeds write each trade in its taker's outcome: a trade of
 * the second outcome at q is one of the first at 1 − q, the other way round (buying No is selling Yes).
 */
export function inFirstOutcome(fill: TradeRecord, tokens: readonly PositionToken[]): TradeRecord {
  const [first, second] = tokens;
  if (!first || !second || tokens.length !== 2 || fill.tokenId !== second.token_id) return fill;
  const side = fill.side === 'BUY' ? 'SELL' : fill.side === 'SELL' ? 'BUY' : undefined;
  // Prices are decimals of a cent grid; the complement is rounded back onto it (no 0.44999999999999996).
  return defined({ ...fill, tokenId: first.token_id, price: Math.round((1 - fill.price) * 1e6) / 1e6, side });
}

/** The key real-time and polled trades are deduplicated by (docs/protocol.md#real-time-data-service). */
export function fillKey(fill: { transactionHash?: string; tokenId?: string; volumeBase: number }): string {
  return `${fill.transactionHash ?? ''}|${fill.tokenId ?? ''}|${fill.volumeBase}`;
}

/** The object without its undefined fields, so "absent" reads as absent (not as a key holding undefined). */
function defined<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) if (value[key] === undefined) delete value[key];
  return value;
}
