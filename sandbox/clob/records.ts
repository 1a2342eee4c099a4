// What the sandbox CLOB remembers about each order, trade and notification, and the answers and statuses it
// shares with Polymarket's protocol: the records every route module and settlement read and write.
import type { ExchangeOrder } from '../chain/order-typed-data';
import type { CatalogMarket } from '../market/catalog';
import type { OrderType, RestingOrder } from './engine';
import type { OrderTerms } from './order-rules';

export type OrderStatus = 'LIVE' | 'MATCHED' | 'CANCELED';
export type TradeStatus = 'MATCHED' | 'RETRYING' | 'MINED' | 'CONFIRMED' | 'FAILED';

/**
 * Faults of the exchange itself (the WebSocket channels have theirs in `WsFaults`), for tests of what a client
 * shows when settlement or the dead-man switch go wrong; a real chain and server cannot be made to on demand.
 */
export interface ExchangeFaults {
  /** Every POST /v1/heartbeats answers 503 while on (the chain of ids is kept, so silence still cancels). */
  failHeartbeats(on: boolean): void;
  /**
   * The next match's settlement is retried `retries` times (a RETRYING trade event each, as Polymarket sends when
   * its transaction must be resubmitted), then fails (FAILED, the makers restored) or, with `fail` false, settles.
   */
  nextSettlement(plan: { retries: number; fail: boolean }): void;
  /**
   * Puts the account of an API key's address in close-only mode (or takes it out): GET
   * /auth/ban-status/closed-only then answers `{closed_only: true}` for it, as Polymarket does for a restricted
   * account. Only the answer changes; PM Desk itself refuses the new orders.
   */
  closedOnly(address: string, on: boolean): void;
}

/** Polymarket's POST /order answer. */
export interface OrderResponse {
  success: boolean;
  errorMsg: string;
  orderID: string;
  status: 'live' | 'matched' | 'delayed' | 'unmatched';
  takingAmount: string;
  makingAmount: string;
  transactionsHashes: string[];
  tradeIDs: string[];
}

/** A refusal as Polymarket answers it: success false and the message traders know, never a throw. */
export function refused(message: string, orderID = ''): OrderResponse {
  return {
    success: false,
    errorMsg: message,
    orderID,
    status: 'unmatched',
    takingAmount: '0',
    makingAmount: '0',
    transactionsHashes: [],
    tradeIDs: [],
  };
}

export interface OrderRecord {
  id: string;
  owner: string;
  order: ExchangeOrder;
  terms: OrderTerms;
  market: CatalogMarket;
  outcome: 0 | 1;
  tokenId: string;
  venue: string;
  orderType: OrderType;
  status: OrderStatus;
  /** Shares matched so far. */
  matched: bigint;
  /** What the chain still lets the order make, in its making terms. */
  makingRemaining: bigint;
  createdAt: number;
  trades: string[];
  /** The engine's entry while it rests (kept after it leaves the book so a failed settlement can restore it). */
  resting?: RestingOrder;
}

export interface TradeRecord {
  id: string;
  takerOrderId: string;
  market: CatalogMarket;
  tokenId: string;
  outcome: 0 | 1;
  side: 'BUY' | 'SELL';
  shares: bigint;
  /** Average price in the taker's outcome, 1e-4 units. */
  price: number;
  status: TradeStatus;
  matchTime: number;
  lastUpdate: number;
  owner: string;
  makerAddress: string;
  makers: {
    orderId: string;
    owner: string;
    makerAddress: string;
    shares: bigint;
    price: number;
    tokenId: string;
    outcome: 0 | 1;
    side: 'BUY' | 'SELL';
  }[];
  transactionHash: string;
  errMsg: string | null;
}

export interface Notification {
  id: number;
  type: number;
  owner: string;
  payload: Record<string, unknown>;
  timestamp: number;
}

/** Who called a private route: the API key's address and the key (the `owner` of its orders). */
export type Caller = { address: string; apiKey: string };

/** Notification types: an order was cancelled by the server, an order was (partly) filled. */
export const NOTIFY_CANCEL = 1;
export const NOTIFY_FILL = 2;
