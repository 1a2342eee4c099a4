// The terminal's market model: what every market-data source (the aggregator, Polymarket's own APIs) answers
// once its wire shapes are parsed and mapped in its own folder (packages/toolkit/src/aggregator,
// packages/toolkit/src/polymarket). The renderer, the order flow and the CLI read only these types, so they never
// know which source answered. Field names follow the first source the app was built on (snake_case outcome
// tokens, `neg_risk`); the trading fields a market states are typed here instead of read from loose JSON.

/** One outcome of a market: its token id on the exchange, its name and a display price (a decimal string, "0.53"). */
export interface PositionToken {
  token_id: string;
  name: string;
  price: string;
}

/** A market's fee parameters as the exchange charges them at match time (docs/protocol.md#fees). */
export interface MarketFees {
  /** Fee rate (0.072 for crypto markets, 0.04 for politics …); 0 when the market charges none. */
  rate: number;
  /** The exponent of the fee curve (fee = rate × size × (p × (1 − p))^exponent). */
  exponent: number;
  /** True when only the taker pays. */
  takerOnly: boolean;
}

/** One binary question with its outcome tokens. */
export interface Market {
  id: string;
  /** The short label ("25 bps cut") inside a multi-outcome event, else the question. */
  name: string;
  question: string;
  /** When the market ends (ISO date or datetime); '' when unknown. */
  end: string;
  description: string;
  image: string;
  icon: string;
  slug?: string | null;
  active?: boolean;
  funded?: boolean;
  rewardsMinSize?: number | null;
  rewardsMaxSpread?: number | null;
  spread?: number | null;
  position_tokens: PositionToken[];
  groupItemTitle: string;
  neg_risk?: boolean;
  /**
   * A neg-risk market's event and question on the neg-risk adapter (Gamma's `negRiskMarketID`, `questionID`):
   * the question's index in its event is their difference. What a conversion names.
   */
  negRiskMarketId?: string;
  questionId?: string;
  /** The exchange's condition id (0x + 64 hex). */
  conditionId?: string;
  /** The tick as the exchange writes it ("0.01"); a number from a source is turned into its string. */
  minimum_tick_size?: string;
  /** The smallest order in shares. */
  minimum_order_size?: number;
  accepting_orders?: boolean;
  closed?: boolean;
  /** Polymarket's market generation: 'v1' (CTF tokens) or 'v2' (Protocol V2 positions). */
  version?: 'v1' | 'v2';
  /** Fee parameters, when the source states them. */
  fees?: MarketFees;
  bestBid?: number | null;
  bestAsk?: number | null;
  lastTradePrice?: number | null;
  /** Lifetime and 24 h volume in dollars, when the source states them per market. */
  volume?: number | null;
  volume24hr?: number | null;
  /** Change of the first outcome's price over 24 h, in price units (0.03 = +3¢). */
  oneDayPriceChange?: number | null;
  /** True once the market's outcome is settled (Gamma's `umaResolutionStatus: "resolved"`); `active` says nothing of it. */
  resolved?: boolean;
  /** Where a resolved market's winner is known: the winning outcome's token id. */
  winnerTokenId?: string;
}

/** An event grouping markets (a multi-outcome question is one event of several binary markets). */
export interface PredictionEvent {
  id: string;
  protocol: string;
  region: string;
  slug: string;
  title: string;
  description: string;
  startDate: string;
  creationDate: string;
  endDate: string;
  image: string;
  icon: string;
  active?: boolean;
  closed?: boolean;
  liquidity?: number | null;
  volume?: number | null;
  volume24hr?: number | null;
  neg_risk?: boolean;
  /** A negative-risk event's market id on the neg-risk adapter (Gamma's `negRiskMarketID`). */
  negRiskMarketId?: string;
  markets: Market[];
}

/** One comment of an event's discussion. */
export interface Comment {
  id: string;
  parent_comment_id?: string | number | null;
  name: string;
  pseudonym: string;
  displayUsernamePublic?: boolean;
  bio: string;
  /** The author's trading wallet, when known. */
  baseAddress: string;
  profileImage: string;
  positions: { position: string; positionSize: string; marketId: string }[];
  createdAt: string;
  reportCount?: number | null;
  reactionCount?: number | null;
  content: string;
}

export interface BookLevel {
  price: number;
  size: number;
}

/** One outcome token's order book; levels in the order the source sent them. */
export interface OrderBookSummary {
  market: string;
  asset_id: string;
  timestamp?: string | number;
  bids: BookLevel[];
  asks: BookLevel[];
  hash: string;
}

/** One book per outcome token, keyed by token id. */
export type MarketOrderBooks = Record<string, OrderBookSummary>;

/**
 * One fill: price 0..1, size in outcome tokens, time in Unix seconds. What a source knows beyond that (the
 * aggressor's side, the outcome token, the taker's wallet, the transaction) comes with it; nothing is guessed.
 */
export interface TradeRecord {
  price: number;
  volumeBase: number;
  timestamp: number;
  /** The taker's side, as the exchange recorded it. */
  side?: 'BUY' | 'SELL';
  tokenId?: string;
  /** The taker's trading wallet and display name. */
  trader?: string;
  traderName?: string;
  transactionHash?: string;
}

/** Fills per outcome token, in the order of the market's position_tokens. */
export type FillHistory = TradeRecord[][];

/** One candle of a price chart: bucket start in Unix seconds (what lightweight-charts takes), OHLC, volume in shares. */
export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Shares traded in the bucket (0 where the source gives prices only). */
  volume: number;
}

export interface Trader {
  user: {
    tradingWallet: string;
    /** The key that owns the trading wallet, when the source knows it. */
    proxyOwner?: string | null;
    name: string;
    pseudonym: string;
    bio: string;
    avatar: string;
    createdAt: string;
  };
  stats: {
    portfolioValue?: number | null;
    cumulativeVolume?: number | null;
    cumulativeProfit?: number | null;
    totalTrades?: number | null;
    balanceInProtocol?: number | null;
    /** How many markets the trader has traded (Polymarket's Data API /traded), when the source states it. */
    marketsTraded?: number | null;
  };
}

export interface TraderPosition {
  conditionId?: string | null;
  marketSlug?: string | null;
  /** The market's question, when the source states it. */
  title?: string;
  /** The outcome token, when the source states it. */
  tokenId?: string;
  outcome: string;
  outcomeIndex?: number | null;
  size: number;
  averagePrice?: number | null;
  currentPrice: number;
  currentValue: number;
  initialValue: number;
  cashPnl?: number | null;
  percentPnl?: number | null;
  icon: string;
  endsOn: string;
  /** The market resolved and this position can be redeemed. */
  redeemable?: boolean;
}

/** One line of a trader's on-chain activity (a trade, split, merge, redeem …). */
export interface TraderActivity {
  /** TRADE, SPLIT, MERGE, REDEEM, REWARD, CONVERSION … as the source names it. */
  type: string;
  timestamp: number;
  conditionId: string;
  tokenId: string;
  title: string;
  slug: string;
  outcome: string;
  outcomeIndex: number | null;
  /** BUY or SELL for trades; null where the activity has no side. */
  side: 'BUY' | 'SELL' | null;
  /** Shares, and the price for trades (null where the activity has none). */
  size: number;
  price: number | null;
  /** Dollars moved. */
  usdcSize: number;
  transactionHash: string;
}

/** One trade of a trader, or of a market's tape. */
export interface MarketTrade {
  trader: string;
  traderName: string;
  side: 'BUY' | 'SELL';
  conditionId: string;
  tokenId: string;
  title: string;
  slug: string;
  outcome: string;
  outcomeIndex: number | null;
  size: number;
  price: number;
  timestamp: number;
  transactionHash: string;
}

/** A search hit: the event and how well it matched (1 = best; sources without a score rank by order). */
export interface SearchMatch {
  event: PredictionEvent;
  cosineSimilarity: number;
}

export interface SearchFilter {
  /** Sent comma-joined, and only when not empty (the aggregator); ignored where a source has one protocol. */
  protocols?: string[];
  isIncludeComment?: boolean;
  topK?: number;
  /** Minimum score, 0..1. */
  threshold?: number;
}

/** Region and account restrictions on trading (Polymarket's geoblock endpoint and the CLOB's closed-only mode). */
export interface TradingAccess {
  /** True when PM Desk may place new orders from here. */
  allowed: boolean;
  /** 'ok', 'blocked' (region), 'close-only' (region or account), or 'unknown' (the check could not be made). */
  state: 'ok' | 'blocked' | 'close-only' | 'unknown';
  /** The sentence the trader sees when trading is not allowed. */
  reason: string;
  country?: string;
  region?: string;
}
