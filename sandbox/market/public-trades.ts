// The exchange's settled trades as public feeds show them (Polymarket's Data API /trades, the real-time
// activity feed, the CLOB's live-activity): who took, at what price, in which outcome, with the transaction.
// The CLOB server produces them; the Gamma/Data/real-time server reads them, so both answer from one state.

export interface PublicTradeMaker {
  /** The maker order's trading wallet (its `maker` field). */
  address: string;
  side: 'BUY' | 'SELL';
  tokenId: string;
  outcomeIndex: 0 | 1;
  /** The maker's price in its own outcome, 0..1. */
  price: number;
  /** Shares. */
  size: number;
}

export interface PublicTrade {
  id: string;
  conditionId: string;
  /** The taker's outcome token, its name and index. */
  tokenId: string;
  outcome: string;
  outcomeIndex: 0 | 1;
  /** The taker's side: the aggressor, as the exchange recorded it. */
  side: 'BUY' | 'SELL';
  /**
   * The price of the level taken, in the taker's outcome, 0..1: always on the market's tick. A taker order that
   * took several levels is one print per level (never one print at its average).
   */
  price: number;
  /** Shares. */
  size: number;
  /** The taker order's trading wallet (its `maker` field). */
  taker: string;
  makers: PublicTradeMaker[];
  transactionHash: string;
  /** Unix seconds. */
  timestamp: number;
  status: 'MATCHED' | 'RETRYING' | 'MINED' | 'CONFIRMED' | 'FAILED';
}

export interface PublicTradeSource {
  /** Every trade so far, oldest first (failed settlements excluded). */
  trades(): readonly PublicTrade[];
  /**
   * Called once per trade when it is matched and its settlement is mined (so it carries its transaction hash and a
   * failed settlement is never announced); returns the unsubscribe.
   */
  onTrade(listener: (trade: PublicTrade) => void): () => void;
}
