// The events main pushes to the page, each with its payload, and the ones replayed to late listeners.
import type { TradeRecord } from '@pmdesk/toolkit/model';
import type { Book } from '../book';
import type { ResultError } from './result';
import type { FeedState, MarketStateInfo } from './markets';
import type { NetworkInfo } from './settings';
import type { DeadManSwitchInfo, OpenOrder, TradeInfo, TradingAccessInfo } from './trading';
import type { AlertInfo, AlertLogEntry, StopInfo } from './alerts';
import type { FollowedFeedMode, FollowedTradeInfo } from './traders';

export interface TerminalEvents {
  /** A book changed (the exchange's live book, or the source's when polled); at most one per token per frame. */
  /** A live book may carry the exchange's tick and whether it is stale (its socket is down and not yet resynced). */
  bookUpdate: { marketId: string; tokenId: string; book: Book };
  /**
   * The last trade of a followed book's token, as the exchange's market channel announced it (its price in that
   * token; the event board shows it as its outcome's last without waiting for the event's record).
   */
  lastTrade: { marketId: string; tokenId: string; price: number; size: number; side: string; timestamp: number };
  /** One live fill of a followed market. */
  fill: { marketId: string; fill: TradeRecord };
  /** An order of a wallet changed state through this terminal (placed, cancelled); `sizeMatched` in shares when known. */
  orderUpdate: { wallet: string; orderId: string; status: string; sizeMatched?: number };
  /**
   * A live feed's state; `error` says why it closed (or why a polled book feed is stale: GET /book is refused too,
   * its books are unknown). `source` is `polling` when its WebSocket is unreachable and the data is read over REST
   * instead (slower, but not stale while GET /book answers).
   */
  feedStatus: {
    feed: 'fills' | 'book' | 'user';
    marketId: string;
    state: FeedState;
    source?: 'live' | 'polling';
    error?: ResultError;
  };
  /** A wallet locked (by the trader, after its idle time, or because the signer stopped) or unlocked. */
  walletLock: {
    address: string;
    label?: string;
    locked: boolean;
    reason: 'unlock' | 'lock' | 'idle' | 'signer-stopped';
  };
  /** The network changed (or is announced at start). */
  network: NetworkInfo;
  /** A watched wallet's open orders and trades as they now stand (sent whole on each change, once a frame at most). */
  account: { wallet: string; openOrders: OpenOrder[]; trades: TradeInfo[]; state: FeedState };
  /** A wallet's dead-man switch changed state (turned on or off, a heartbeat failed or recovered). */
  deadManSwitch: DeadManSwitchInfo;
  /** A market's tick size changed: tickets say so, and refuse a price left off the new tick. */
  tickSize: { marketId: string; tokenId: string; previous: string; tickSize: string; message: string };
  /** A fill stream was down between these times (Unix ms): the tape shows a gap marker; candles were refilled. */
  tapeGap: { marketId: string; from: number; to: number };
  /** Something the trader should know while an order goes out: an approval sent (with its hash), credentials made. */
  /** `cancelled`: the exchange cancelled orders the trader did not cancel here (the dead-man switch…), with their ids. */
  notice: {
    wallet?: string;
    kind: 'approval' | 'credentials' | 'info' | 'cancelled';
    message: string;
    txHash?: string;
    orderIds?: string[];
  };
  /** The region check's answer changed (wallet null), or a wallet's close-only mode did (that wallet's whole answer). */
  tradingAccess: TradingAccessInfo;
  /** An alert fired: its log line (the renderer toasts it; in browser mode it also asks for a browser notification). */
  alert: { alert: AlertInfo; entry: AlertLogEntry };
  /** A stop changed: armed, fired (sold, or could not sell yet), cancelled. */
  stop: StopInfo;
  /** A followed market's state changed (it closed, or resolved: its winner and final prices). */
  marketState: MarketStateInfo;
  /** A followed trader traded (the tape of followed traders), or where their trades come from changed. */
  followedTrade: { trade?: FollowedTradeInfo; mode: FollowedFeedMode };
}
export type EventName = keyof TerminalEvents;
export const EVENT_NAMES = Object.freeze([
  'bookUpdate',
  'fill',
  'orderUpdate',
  'feedStatus',
  'walletLock',
  'network',
  'account',
  'deadManSwitch',
  'tickSize',
  'tapeGap',
  'notice',
  'tradingAccess',
  'alert',
  'stop',
  'marketState',
  'followedTrade',
  'lastTrade',
] as const satisfies readonly EventName[]);

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (EVENT_NAMES as readonly string[]).includes(value);
}
/** Events that describe current state rather than something that happened: replayed to late listeners. */
export const STATE_EVENTS: readonly EventName[] = Object.freeze(['network'] as const);
