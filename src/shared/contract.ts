// The one IPC contract: every operation the renderer may ask main for and every event main may push, each
// with its schema. The preload, the browser-mode bridge and the router are all built from these tables, so
// they cannot drift. There is deliberately no generic `invoke(channel, …)`: a page script must not reach
// anything this file does not name (a raw channel would let it, say, call a password check in a loop), and
// no operation signs bytes the renderer chose: trading operations are intents that main turns into orders.
import { z } from 'zod';
import type { Candle, Comment, FillHistory, Market, PredictionEvent, SearchMatch, TradeRecord, Trader, TraderActivity, TraderPosition, TradingAccess } from '@pmdesk/toolkit/model';
import type { ErrorCodeValue } from '@pmdesk/toolkit/model';
import { PRESET_ACTIONS, SIZE_PRESET_MAX, TRADING_ACTIONS, isBindableKey, isSizePreset, type KeyBindings, type SizePresets } from './key-bindings';
import { WorkspacesByNetworkSchema, type NetworkWorkspaces } from './workspaces';
import type { Book } from './book';

/** A book leaves main in one shape, the one the ladder draws (src/shared/book.ts). */
export type { Book, BookLevel } from './book';

// ---------------------------------------------------------------------------------------------------------
// Results

/**
 * Codes the contract adds to the catalogue. `ERR_NOT_AVAILABLE`: the operation is part of the contract but
 * the service behind it is not in this build or this session (trading before the order flow lands, wallets
 * when no signer could start). It is never a fake result.
 */
export const ContractErrorCode = { NOT_AVAILABLE: 'ERR_NOT_AVAILABLE' } as const;
export type ResultErrorCode = ErrorCodeValue | (typeof ContractErrorCode)[keyof typeof ContractErrorCode];

export interface ResultError {
  code: ResultErrorCode;
  /** A sentence a trader can act on; never a secret, a stack or a cause. */
  message: string;
}
export type Result<T> = { ok: true; value: T } | { ok: false; error: ResultError };

/**
 * A secret main hands over exactly once, to be written down (a new wallet's recovery phrase). Its own type
 * so the UI shows it on a dedicated screen and never stores it, and so the secret scan of the tests knows
 * the one place such a value may appear; no other result or event carries one.
 */
export interface ShownOnce<T extends string = string> {
  shownOnce: true;
  value: T;
}

// ---------------------------------------------------------------------------------------------------------
// Input pieces

/** Inputs are small: longer text is refused by its schema before it reaches a service. */
const id = z.string().trim().min(1).max(200);
const label = z.string().trim().min(1).max(64);
/** The signer checks strength (8+ characters); here only the shape and a sane upper bound. */
const password = z.string().min(1).max(1024);
/** The providers the aggregator lists (one at a time); Polymarket direct has only polymarket. */
export const PROTOCOLS = ['polymarket', 'limitless', 'truemarket'] as const;
export type Protocol = (typeof PROTOCOLS)[number];
const protocol = z.enum(PROTOCOLS).default('polymarket');
const tokenId = z.string().regex(/^\d{1,80}$/, 'a token id is a decimal number');
const orderId = z.string().regex(/^0x[0-9a-fA-F]{1,128}$/, 'an order id is 0x-prefixed hex');
const price = z.number().gt(0).lt(1);
const positive = z.number().positive().finite().max(1e12);
const side = z.enum(['BUY', 'SELL']);
const noInput = z.strictObject({});

/** Candle widths the chart may ask for: a minute to a week (the sources' ChartInterval). */
export const CANDLE_INTERVALS = ['1m', '5m', '15m', '1h', '6h', '1d', '1w'] as const;

// ---------------------------------------------------------------------------------------------------------
// Outputs

/** Where a network reads markets: Polymarket's own APIs, or the aggregator. */
export const MARKET_SOURCES = ['polymarket', 'aggregator'] as const;
export type MarketSourceName = (typeof MARKET_SOURCES)[number];

export interface NetworkInfo {
  name: string;
  chainId: number;
  orderVersion: number | null;
  /** Which market-data source this network reads from. */
  source: MarketSourceName;
  clobUrl: string;
  /** '' when the network reads Polymarket directly. */
  aggregatorUrl: string;
  /** Polymarket's Gamma API; '' on an aggregator network. */
  gammaUrl: string;
  /** True for the local sandbox: nothing there is real money. */
  sandbox: boolean;
  /** 'electron' for the desktop window, 'browser' for browser mode. */
  shell: 'electron' | 'browser';
}

/** Something an API said about itself this session (a deprecated endpoint, a list read through its fallback). */
export interface ApiNoticeInfo {
  kind: 'deprecated' | 'fallback' | 'engine-restarting' | 'post-only';
  /** "Gamma", "Data API", "CLOB". */
  api: string;
  /** The method and route (`GET /events`), never an id. */
  endpoint: string;
  message: string;
  /** The network whose source heard it. */
  network: string;
  /** When it was first heard, epoch ms. */
  at: number;
}

/** The last rate-limit headers (`Poly-RateLimit-*`) one endpoint answered with. */
export interface RateLimitInfo {
  api: string;
  endpoint: string;
  status: number;
  remaining?: number;
  /** When the budget resets, epoch ms. */
  resetAt?: number;
  tier?: string;
  /** Polymarket is in warning mode: not yet enforcing, but would be. */
  warning: boolean;
  network: string;
  at: number;
}

/** What the APIs said about themselves this session: the diagnostics view. */
export interface DiagnosticsInfo {
  notices: ApiNoticeInfo[];
  rateLimits: RateLimitInfo[];
}

export interface EventPage {
  events: PredictionEvent[];
  page: number;
  limit: number;
  /** A full page came back: there may be another. */
  hasMore: boolean;
}

/** A chart candle as the contract carries it (the toolkit's Candle). */
export type CandleBar = Candle;

export interface WalletInfo {
  label: string;
  address: string;
  unlocked: boolean;
}

/** One account a key could trade from on the network in use (ACCOUNTS-NOTES §a): the key itself or a derived wallet. */
export interface AccountCandidateInfo {
  address: string;
  kind: 'eoa' | 'proxy' | 'safe' | 'deposit-wallet';
  /** The signature type its orders carry: 0 key, 1 proxy, 2 Safe, 3 deposit wallet. */
  signatureType: 0 | 1 | 2 | 3;
  /** The key itself, a CREATE2 derivation from the chain's factories, or the trader's Polymarket profile. */
  foundBy: 'key' | 'derivation' | 'profile';
  /** The chain shows contract code there (always false for the key). */
  deployed: boolean;
  /** Collateral held there, in dollars. */
  collateral: number;
  /** Deposit wallets: made in the current (beacon) era or before the factory's upgrade (uups). */
  era?: 'beacon' | 'uups';
}

/** The Polymarket account a wallet's key trades from on the network in use, and the others it could. */
export interface WalletAccount {
  /** The wallet's label. */
  wallet: string;
  /** The key's own address. */
  owner: string;
  network: string;
  /** Where orders trade from: funds, positions, open orders and trades are this address's. */
  account: AccountCandidateInfo;
  /** 'found': PM Desk's pick (`reason` says on what evidence); 'trader': the trader's choice, kept per wallet and network. */
  chosenBy: 'found' | 'trader';
  reason: 'profile' | 'funded' | 'deployed' | 'key' | 'trader';
  /** "Polymarket account 0x… (Safe, owned by key 0x…)", or the key trading from its own address. */
  description: string;
  /** The key and each of its derived wallets, with what the chain says of them. */
  candidates: AccountCandidateInfo[];
  /** Other candidates the chain shows in use (deployed or funded): worth a look before trading. */
  alsoInUse: string[];
  /** Said when the Polymarket profile names a wallet that is not one of this key's accounts by derivation. */
  profileNote?: string;
}

export interface FillSubscriptionInfo {
  marketId: string;
  /** Fills (or books) arrive as `fill` (`bookUpdate`) events; the feed's state as `feedStatus` events. */
  state: FeedState;
}

export interface OpenOrder {
  orderId: string;
  /** The market's condition id, as the exchange names markets. */
  conditionId: string;
  tokenId: string;
  side: 'BUY' | 'SELL';
  price: number;
  originalSize: number;
  sizeMatched: number;
  orderType: string;
  status: string;
  createdAt: number;
  /** When a GTD order expires (unix seconds, as signed); 0 for an order that rests until cancelled or filled. */
  expiresAt: number;
}

export interface PlacedOrder {
  /** The exchange's id; null when the exchange placed nothing (a FOK that found no match, say). */
  orderId: string | null;
  /** As the exchange reports it after posting ("live", "matched", …). */
  status: string;
  /** The id joined the pending list (spec §4): it is not matched yet. */
  pending: boolean;
}

/** A trade from the wallet's own side (its outcome, side, price and size, whether it took or made). */
export interface TradeInfo {
  tradeId: string;
  /** The market's condition id, as the exchange names markets. */
  conditionId: string;
  tokenId: string;
  side: 'BUY' | 'SELL';
  price: number;
  size: number;
  status: string;
  matchedAt: number;
  /** Spec: a fill counts as pending until the exchange says CONFIRMED (MATCHED, MINED, RETRYING are pending; FAILED is not a fill). */
  pending: boolean;
  /** The outcome's name ("Yes"), as the exchange states it, when it does. */
  outcome?: string;
  /** The market's question, when main could read the exchange's record of the market. */
  question?: string;
  /** The fee this leg paid, in dollars (0 for a maker on a taker-only market); null when the market's fee terms are unknown. */
  fee?: number | null;
  /** The settlement transaction, once the exchange has sent it; null before. */
  txHash?: string | null;
}

/**
 * A market's state as main last read it, pushed as `marketState` when it changes: open, closed awaiting its
 * resolution, or resolved (the chain's payouts, else the source's final word).
 */
export interface MarketStateInfo {
  protocol: string;
  marketId: string;
  state: 'open' | 'closed' | 'resolved';
  /** Resolved: the outcome that pays $1 a share; null otherwise (and for a market that split its payout). */
  winnerTokenId: string | null;
  /** Resolved: what each outcome's share pays (1 or 0; 0.5 each for a 50/50), by token id; null before. */
  finalPrices: Record<string, number> | null;
  /** The market's record as read with this state. */
  market: Market;
}

export interface Balances {
  /** Collateral on the chain, in dollars (6-decimal base units converted once, for display). */
  collateral: number;
  /** Outcome tokens of the market and the tokens asked about, in shares, by token id. */
  outcomes: Record<string, number>;
}

export interface PositionInfo {
  conditionId: string | null;
  marketSlug: string | null;
  outcome: string;
  size: number;
  averagePrice: number | null;
  currentPrice: number;
  currentValue: number;
  /** The market resolved and the position can be redeemed (as the market-data source says). */
  redeemable?: boolean;
  /** The market's question, when the source or the exchange states it. */
  question?: string | null;
  /** The market's id as the market-data source names it (what opens it), when found. */
  marketId?: string | null;
  /** The outcome token, when known. */
  tokenId?: string | null;
}

/** An exact amount: base units as a decimal string (6 decimals for pUSD/USDC.e/shares, 18 for POL) and how it reads. */
export interface MoneyAmount {
  units: string;
  /** "$12.50", "0.0012 POL", "12.5" shares. */
  text: string;
}

export const MONEY_ACTIONS = ['wrap', 'unwrap', 'split', 'merge', 'redeem'] as const;
export type MoneyAction = (typeof MONEY_ACTIONS)[number];

/** A wallet's money on this network: its account's pUSD and USDC.e, and the POL its key pays gas with. */
export interface AccountFunds {
  wallet: string;
  /** Where the funds sit (the Polymarket account, or the key itself). */
  account: string;
  accountKind: 'eoa' | 'proxy' | 'safe' | 'deposit-wallet';
  key: string;
  pusd: MoneyAmount;
  /** Null when the network has no USDC.e. */
  usdcE: MoneyAmount | null;
  /** The key's POL: it pays every transaction's gas, whichever account acts. */
  keyGas: MoneyAmount;
  /** The account's own POL (a wallet contract's; the same as keyGas for the key itself). */
  accountGas: MoneyAmount;
  /** Null when wrap, unwrap, split, merge and redeem can be sent from here; else why not (a deposit wallet: relayer only). */
  actionsUnavailable: string | null;
}

/** What a money action will move and cost, worked out (and its gas quoted) before anything is sent. */
export interface MoneyActionPreview {
  action: MoneyAction;
  wallet: string;
  account: string;
  accountKind: AccountFunds['accountKind'];
  key: string;
  marketId: string | null;
  question: string | null;
  /** Moved: wrapped, unwrapped, split or merged; for a redeem, the payout. */
  amount: MoneyAmount;
  /** Redeem: "Won $12.50" or "Lost"; else null. */
  result: string | null;
  /** Redeem: each outcome's shares held. */
  held: { outcome: string; shares: MoneyAmount }[];
  /** The exact effect, line by line ("$5.00 USDC.e → $5.00 pUSD"). */
  lines: string[];
  transactions: number;
  atomic: boolean;
  note: string | null;
  /** About what the gas costs, and the key's POL now. */
  gas: MoneyAmount;
  keyGas: MoneyAmount;
}

export interface MoneyActionDone extends MoneyActionPreview {
  txHashes: string[];
  /** Whether the exchange was told to read the account's balances and allowances again. */
  exchangeRefreshed: boolean;
}

/** What an order would do, worked out in main before anything is signed (the ticket shows it). */
export interface OrderPreview {
  side: 'BUY' | 'SELL';
  orderType: 'GTC' | 'GTD' | 'FOK' | 'FAK';
  /** The limit price snapped to the market's tick (a market order: the worst price it may fill at). */
  price: number;
  /** Shares the order is for (a market BUY: an estimate from the book). */
  shares: number;
  /** Dollars paid (BUY) or received (SELL) at that price. */
  cost: number;
  /** Dollars paid out if the outcome wins (1 per share held). */
  payout: number;
  /** Fees the exchange would charge, in dollars (a BUY pays them on top of the cost, a SELL out of it). */
  fees: number;
  /** How the exchange computes them, in the trader's words ("taker fee 4 %·p(1−p)"); absent on a fee-free market. */
  feeTerms?: string;
  /** True when neither the exchange nor the market states fee terms: `fees` is then no figure, and "fee unknown" is shown. */
  feeUnknown?: boolean;
  tickSize: string;
  minOrderSize: number;
  /** Every failed pre-trade check, each a sentence; a blocking one means the order would not be placed. */
  problems: { check: string; blocking: boolean; message: string }[];
  /** Token approvals the first order must send before it is posted (shown with progress when placed). */
  approvalsNeeded: number;
}

/** The dead-man switch of one wallet: while on, the exchange cancels its open orders if heartbeats stop. */
export interface DeadManSwitchInfo {
  wallet: string;
  enabled: boolean;
  /** `beating`: heartbeats answered; `failing`: the last one did not get through (orders may be cancelled). */
  state: 'off' | 'beating' | 'failing';
  intervalSeconds: number;
  /** Unix milliseconds of the last answered heartbeat. */
  lastBeatAt: number | null;
  error?: ResultError;
}

/**
 * Whether new orders may be placed now: the network's region check (Polymarket's geoblock answer) and, when a
 * wallet is named, its account's close-only mode. `reason` is the sentence the banner and the ticket show; with
 * state 'unknown' (the check could not be made) trading stays allowed and `reason` is a quiet note saying so.
 * `wallet` is the label asked about, or null for the region alone.
 */
export type TradingAccessInfo = TradingAccess & { wallet: string | null };

/** What the terminal remembers across restarts (kept by main in its data folder, not in the page). */
export interface Settings {
  theme: 'dark' | 'light';
  /** Market ids, in the order the trader put them. */
  watchlist: string[];
  /** The key that cancels every open order of the active wallet (with a confirmation). */
  cancelAllKey: string;
  /** The markets grid's visible columns, in order. */
  marketColumns: string[];
  /** The wallet last used, to select it again. */
  activeWallet: string | null;
  /**
   * The trader's panel sizes in CSS pixels, by panel ("markets", "ticket" width; "account" height), as the
   * splitters left them. A panel not named has its default size; the renderer keeps each within its bounds.
   */
  panelSizes: Record<string, number>;
  /** Keyboard trading: the key of each action (key-bindings.ts), every action bound, no key twice. */
  keyBindings: KeyBindings;
  /** The sizes the preset keys choose, in shares or dollars. */
  sizePresets: SizePresets;
  /** Keyboard orders go straight to placeOrder (its checks still run) instead of opening the confirmation. */
  keyboardOrdersWithoutConfirm: boolean;
  /**
   * A market order's default worst price: this many ticks past the price the book reaches for it (a BUY's max
   * price above, a SELL's min price below). The ticket shows it and the trader may type another price.
   */
  marketSlippageTicks: number;
  /**
   * The trader's named workspaces (tiles of markets and their widths) and the one shown, per network by its name:
   * a market id belongs to one network. A network has none until its first is saved.
   */
  workspaces: Record<string, NetworkWorkspaces>;
}

/** Bounds of a saved panel size: a name like "markets", a size in pixels no screen exceeds. */
export const PANEL_SIZE_NAME = /^[a-z][a-zA-Z0-9-]{0,39}$/;
export const PANEL_SIZE_MAX = 10_000;
export const PANEL_SIZES_MAX = 20;
/** A market order's slippage in ticks: 0 (the price the book reaches, no more) to this many. */
export const MARKET_SLIPPAGE_TICKS_MAX = 50;
export const DEFAULT_MARKET_SLIPPAGE_TICKS = 3;
/** What an alert watches: a price crossing a level, a spread wider than one, a volume spike, a fill of mine, a market resolving. */
export const ALERT_KINDS = ['price', 'spread', 'volume', 'fill', 'resolved'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
/** Which price of an outcome a price alert reads (the one price model's names). */
export const ALERT_PRICES = ['bid', 'ask', 'mid', 'last'] as const;
export type AlertPrice = (typeof ALERT_PRICES)[number];

/** One alert as main keeps it: armed until it fires once, then kept as fired (delete it to forget it). */
export interface AlertInfo {
  id: string;
  /** The network it was set on: it watches only while that network is in use. */
  network: string;
  kind: AlertKind;
  protocol: Protocol;
  marketId: string;
  /** The market's name when it was set (for the list and the notification). */
  marketName: string;
  /** The outcome watched (price, spread; volume and resolving watch the whole market). */
  tokenId: string | null;
  outcome: string | null;
  price?: AlertPrice;
  direction?: 'up' | 'down';
  /** Price alerts: the level crossed; spread alerts: the width (both 0–1). */
  level?: number;
  /** Volume alerts: the last `minutes` against `multiple` times the hour before. */
  minutes?: number;
  multiple?: number;
  /** Fill alerts: the wallet whose fills are told. */
  wallet?: string;
  state: 'armed' | 'fired';
  createdAt: number;
  firedAt: number | null;
  /** Why it cannot watch right now (a locked wallet, a market the network does not have), when it cannot. */
  waiting?: string;
  /**
   * Price alerts: a reading of the price, kept in the file whenever a reading lands on the other side of the
   * level, so a price that crosses while PM Desk restarts or is closed still fires when it opens again.
   */
  seen?: number;
}

/** One line of the alert log. */
export interface AlertLogEntry {
  id: string;
  alertId: string;
  at: number;
  title: string;
  message: string;
}

/**
 * A client-side stop-loss or take-profit: it runs only while PM Desk is open. It watches the outcome's best bid
 * (what a market sell fills at) and sells through the normal order path once when the bid reaches its level.
 */
export interface StopInfo {
  id: string;
  network: string;
  wallet: string;
  protocol: Protocol;
  marketId: string;
  marketName: string;
  tokenId: string;
  outcome: string;
  kind: 'stop-loss' | 'take-profit';
  level: number;
  /** Shares to sell; null sells the whole position held when it fires. */
  size: number | null;
  /** The lowest price it may sell at; null takes any bid. */
  worstPrice: number | null;
  /** `armed` watches; `fired` sold (kept in history); `cancelled` by the trader. */
  state: 'armed' | 'fired' | 'cancelled';
  createdAt: number;
  firedAt: number | null;
  /** What happened when it fired (or why it could not sell yet, while still armed). */
  result: string | null;
  /** The order it placed, when it did. */
  orderId: string | null;
}

/** A network the terminal can switch to. */
export interface NetworkChoice {
  name: string;
  chainId: number;
  /** Where it reads markets. */
  source: MarketSourceName;
  sandbox: boolean;
  /** The one this session trades on. */
  current: boolean;
  /** False when it cannot be used from here (the sandbox is not running); `reason` says why. */
  available: boolean;
  reason?: string;
}

// ---------------------------------------------------------------------------------------------------------
// Operations

export interface OperationSpec<I extends z.ZodType = z.ZodType, O = unknown> {
  input: I;
  /** Phantom: the output type, for the typed `window.terminal`. */
  readonly output?: O;
  /** What the trader asks for, in one line (the preload and docs read it). */
  summary: string;
  /** The largest payload this operation accepts, in bytes of JSON; 16 KiB when absent. */
  maxPayloadBytes?: number;
  /** The result path of a `ShownOnce` secret, when the operation hands one out. */
  shownOnce?: string;
}

function op<O>() {
  return <I extends z.ZodType>(input: I, spec: Omit<OperationSpec<I, O>, 'input' | 'output'>): OperationSpec<I, O> => ({ input, ...spec });
}

const walletRef = z.strictObject({ wallet: label });
const httpUrl = z.string().trim().max(500).regex(/^https?:\/\/[^\s]+$/, 'a URL starting with http:// or https://');
const wsUrl = z.string().trim().max(500).regex(/^wss?:\/\/[^\s]+$/, 'a URL starting with ws:// or wss://');

/** An order as the trader asks for it; shared by previewOrder and placeOrder so the preview is of the same order. */
const orderIntent = z
  .strictObject({
    wallet: label,
    marketId: id,
    tokenId,
    side,
    orderType: z.enum(['GTC', 'GTD', 'FOK', 'FAK']).default('GTC'),
    price: price.optional(),
    size: positive.optional(),
    amountUsd: positive.optional(),
    /** Unix seconds; GTD only. */
    expiration: z.number().int().min(0).max(2 ** 40).optional(),
    /** Rest only: refused rather than matched on arrival (GTC/GTD). */
    postOnly: z.boolean().default(false),
  })
  .refine((o) => o.size !== undefined || o.amountUsd !== undefined, { message: 'give a size or a dollar amount' })
  .refine((o) => (o.orderType === 'GTD') === (o.expiration !== undefined), { message: 'an expiration goes with GTD orders, and only with them' })
  .refine((o) => !o.postOnly || o.orderType === 'GTC' || o.orderType === 'GTD', { message: 'post-only goes with GTC and GTD orders' });

/** A money action as the trader asks for it; shared by previewMoneyAction and runMoneyAction so the preview is of the same action. */
const moneyIntent = z
  .strictObject({
    wallet: label,
    action: z.enum(MONEY_ACTIONS),
    /** Split, merge and redeem. */
    marketId: id.optional(),
    /** Dollars (shares for a merge) as exact decimal text, at most 6 decimals; every action but redeem. Not trimmed:
     * "5\n" is not exactly a number, and an amount of money is taken only as exactly one. */
    amount: z.string().regex(/^[0-9]{1,12}(\.[0-9]{1,6})?$/, 'an amount is dollars with at most 6 decimals, like 12.5').optional(),
  })
  .refine((m) => (m.action === 'redeem') === (m.amount === undefined), { message: 'an amount goes with every action but redeem' })
  .refine((m) => (m.action === 'wrap' || m.action === 'unwrap') === (m.marketId === undefined), { message: 'split, merge and redeem name a market; wrap and unwrap do not' });

/** An alert as the trader sets it, one shape per kind. */
const alertIntent = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('price'),
    protocol,
    marketId: id,
    tokenId,
    price: z.enum(ALERT_PRICES),
    direction: z.enum(['up', 'down']),
    level: price,
  }),
  z.strictObject({ kind: z.literal('spread'), protocol, marketId: id, tokenId, level: price }),
  z.strictObject({
    kind: z.literal('volume'),
    protocol,
    marketId: id,
    minutes: z.number().int().min(1).max(30).default(5),
    multiple: z.number().min(1.1).max(100).default(3),
  }),
  z.strictObject({ kind: z.literal('fill'), protocol, wallet: label }),
  z.strictObject({ kind: z.literal('resolved'), protocol, marketId: id }),
]);

export const operations = {
  // Network and markets (reads of the network's market-data source)
  getNetwork: op<NetworkInfo>()(noInput, { summary: 'The network this session trades on.' }),
  listEvents: op<EventPage>()(
    z.strictObject({ protocol, page: z.number().int().min(1).max(10_000).default(1), limit: z.number().int().min(1).max(100).default(50) }),
    { summary: 'One page of ongoing events.' },
  ),
  searchMarkets: op<SearchMatch[]>()(
    z.strictObject({ query: z.string().trim().min(1).max(200), topK: z.number().int().min(1).max(100).optional(), threshold: z.number().min(0).max(1).optional() }),
    { summary: 'Free-text market search, best match first.' },
  ),
  getEvent: op<PredictionEvent>()(z.strictObject({ protocol, eventId: id }), { summary: 'One event with its markets.' }),
  getMarket: op<Market>()(z.strictObject({ protocol, marketId: id }), { summary: 'One market with its outcome tokens.' }),
  getEventComments: op<Comment[]>()(z.strictObject({ protocol, eventId: id }), { summary: "An event's discussion." }),
  getOrderBook: op<Record<string, Book>>()(z.strictObject({ protocol, marketId: id }), { summary: "A market's order books, one per outcome token (keyed by token id), each side best first." }),
  getPriceHistory: op<FillHistory>()(z.strictObject({ protocol, marketId: id }), { summary: "A market's fills per outcome token." }),
  getCandles: op<CandleBar[]>()(
    z.strictObject({
      protocol,
      marketId: id,
      outcomeIndex: z.number().int().min(0).max(63).default(0),
      interval: z.enum(CANDLE_INTERVALS).default('1h'),
    }),
    { summary: 'Candles of one outcome of a market.' },
  ),
  subscribeFills: op<FillSubscriptionInfo>()(z.strictObject({ protocol, marketId: id }), { summary: "Follow a market's live fills." }),
  unsubscribeFills: op<{ marketId: string; wasSubscribed: boolean }>()(z.strictObject({ marketId: id }), { summary: "Stop following a market's fills." }),
  subscribeBook: op<FillSubscriptionInfo>()(z.strictObject({ protocol, marketId: id }), {
    summary: "Follow a market's order books: `bookUpdate` events when an outcome's book changes.",
  }),
  unsubscribeBook: op<{ marketId: string; wasSubscribed: boolean }>()(z.strictObject({ marketId: id }), { summary: "Stop following a market's books." }),
  getDiagnostics: op<DiagnosticsInfo>()(noInput, {
    summary: "What Polymarket's APIs said about themselves this session: deprecated endpoints, lists read through a fallback, the last rate-limit headers per endpoint.",
  }),
  reportFrames: op<{ aligned: boolean }>()(z.strictObject({ frameAt: z.number().finite().positive(), intervalMs: z.number().min(4).max(50) }), {
    summary: "When this window's frames begin (epoch ms) and how often: busy books are handed out just before a frame begins (aligned: false where books are polled).",
  }),

  // Wallets
  listWallets: op<WalletInfo[]>()(noInput, { summary: 'The wallets on this machine and which are unlocked.' }),
  createWallet: op<{ wallet: WalletInfo; recoveryPhrase: ShownOnce }>()(z.strictObject({ label, password }), {
    summary: 'A new wallet; its recovery phrase is shown this once.',
    shownOnce: 'recoveryPhrase',
  }),
  importWallet: op<WalletInfo>()(
    z.strictObject({
      label,
      password,
      source: z.discriminatedUnion('kind', [
        z.strictObject({ kind: z.literal('mnemonic'), phrase: z.string().min(1).max(1000), index: z.number().int().min(0).max(2 ** 31 - 1).default(0) }),
        z.strictObject({ kind: z.literal('privateKey'), privateKey: z.string().min(1).max(200) }),
        z.strictObject({ kind: z.literal('keystore'), keystoreJson: z.string().min(2).max(16_384) }),
      ]),
    }),
    { summary: 'Import a wallet from a recovery phrase, a private key or a keystore file.', maxPayloadBytes: 24_576 },
  ),
  importSandboxWallet: op<WalletInfo>()(z.strictObject({ label, password }), {
    summary: "Import the sandbox's funded test wallet (on the sandbox network only); its key stays in main.",
  }),
  unlockWallet: op<WalletInfo>()(
    z.strictObject({ label, password, autoLockMinutes: z.number().int().min(0).max(24 * 60).default(30) }),
    { summary: 'Unlock a wallet for trading; it locks itself after the idle time (0: never).' },
  ),
  lockWallet: op<WalletInfo>()(z.strictObject({ label }), { summary: 'Lock a wallet: its key is dropped from memory.' }),
  getWalletAccount: op<WalletAccount>()(walletRef, {
    summary: "The Polymarket account a wallet's key trades from on this network (proxy, Safe, deposit wallet or the key), found or chosen.",
  }),
  chooseWalletAccount: op<WalletAccount>()(z.strictObject({ wallet: label, account: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an account is a 0x address').nullable() }), {
    summary: "Trade from another of the key's accounts (or the key itself) on this network; null goes back to the one found. Kept per wallet and network.",
  }),
  exportWallet: op<{ fileName: string; keystoreJson: string }>()(z.strictObject({ label, password }), {
    summary: 'The wallet as an encrypted keystore file (password required, so a page script cannot take it).',
  }),

  // Trading (the order flow): intents only, never "sign these bytes"
  previewOrder: op<OrderPreview>()(orderIntent, { summary: "What an order would cost and pay, and every pre-trade check it fails; nothing is signed." }),
  readyOrder: op<{ ready: boolean }>()(orderIntent, {
    summary:
      "Make a limit order ready while its confirmation is open: checked, built and signed in the signer worker, nothing sent; placeOrder of the same order within 15 s posts it as made. False: the click makes it the usual way.",
  }),
  placeOrder: op<PlacedOrder>()(orderIntent, { summary: 'Place an order.' }),
  cancelOrder: op<{ cancelled: string[] }>()(z.strictObject({ wallet: label, orderId }), { summary: 'Cancel one order.' }),
  cancelAll: op<{ cancelled: string[] }>()(walletRef, { summary: "Cancel every open order of a wallet." }),
  cancelMarket: op<{ cancelled: string[] }>()(z.strictObject({ wallet: label, marketId: id, tokenId: tokenId.optional() }), {
    summary: "Cancel a wallet's open orders in one market.",
  }),
  listOpenOrders: op<OpenOrder[]>()(z.strictObject({ wallet: label, marketId: id.optional() }), { summary: "A wallet's open orders." }),
  listTrades: op<TradeInfo[]>()(z.strictObject({ wallet: label, marketId: id.optional() }), { summary: "A wallet's trades." }),
  getBalances: op<Balances>()(z.strictObject({ wallet: label, marketId: id.optional(), tokenIds: z.array(tokenId).max(150).optional() }), {
    summary: "A wallet's collateral, and the outcome tokens of a market and of the tokens named (every holding), from the chain.",
  }),
  getPositions: op<PositionInfo[]>()(walletRef, { summary: "A wallet's positions." }),
  getAccountFunds: op<AccountFunds>()(walletRef, { summary: "A wallet's pUSD and USDC.e, and its key's POL for gas." }),
  previewMoneyAction: op<MoneyActionPreview>()(moneyIntent, { summary: 'What a wrap, unwrap, split, merge or redeem would move and cost in gas; nothing is sent.' }),
  runMoneyAction: op<MoneyActionDone>()(moneyIntent, { summary: 'Send a wrap, unwrap, split, merge or redeem as the wallet’s account.' }),

  // Live account data and the dead-man switch
  watchMarketState: op<MarketStateInfo>()(z.strictObject({ protocol, marketId: id }), {
    summary: "Follow a market's state (open, closed awaiting resolution, resolved with its winner): `marketState` events when it changes.",
  }),
  unwatchMarketState: op<{ marketId: string; wasWatched: boolean }>()(z.strictObject({ marketId: id }), { summary: "Stop following a market's state." }),
  watchAccount: op<{ wallet: string; state: FeedState }>()(walletRef, {
    summary: "Follow a wallet's own orders and trades live: `account` events (level 2 credentials stay in main).",
  }),
  unwatchAccount: op<{ wallet: string; wasWatched: boolean }>()(walletRef, { summary: "Stop following a wallet's orders and trades." }),
  setDeadManSwitch: op<DeadManSwitchInfo>()(z.strictObject({ wallet: label, enabled: z.boolean() }), {
    summary: "Turn a wallet's dead-man switch on or off: while on, its open orders are cancelled if this terminal stops answering.",
  }),
  getDeadManSwitch: op<DeadManSwitchInfo>()(walletRef, { summary: "Whether a wallet's dead-man switch is on, and its last heartbeat." }),
  getTradingAccess: op<TradingAccessInfo>()(z.strictObject({ wallet: label.optional() }), {
    summary: "Whether new orders may be placed from here (region) and, for a wallet, whether its account is in close-only mode.",
  }),

  // Alerts and client-side stops (evaluated in main; they run only while PM Desk is open)
  listAlerts: op<{ alerts: AlertInfo[]; log: AlertLogEntry[] }>()(noInput, { summary: 'The alerts set on this network and the alert log (newest first).' }),
  createAlert: op<AlertInfo>()(alertIntent, { summary: 'Set an alert: a price crossing a level, a spread, a volume spike, a fill of mine, a market resolving.' }),
  deleteAlert: op<{ id: string; deleted: boolean }>()(z.strictObject({ id }), { summary: 'Forget an alert.' }),
  listStops: op<{ stops: StopInfo[]; rearmed: string | null }>()(noInput, {
    summary: 'The stop-losses and take-profits of this network (armed ones first), and what was re-armed at start.',
  }),
  createStop: op<StopInfo>()(
    z.strictObject({
      wallet: label,
      protocol,
      marketId: id,
      tokenId,
      kind: z.enum(['stop-loss', 'take-profit']),
      level: price,
      size: positive.optional(),
      worstPrice: price.optional(),
    }),
    { summary: 'Arm a client-side stop-loss or take-profit on a position (it runs only while PM Desk is open).' },
  ),
  cancelStop: op<StopInfo>()(z.strictObject({ id }), { summary: 'Disarm a stop; it stays in the history as cancelled.' }),

  // More market-data reads
  listSlugs: op<string[]>()(z.strictObject({ page: z.number().int().min(1).max(10_000).default(1), limit: z.number().int().min(1).max(500).default(100) }), {
    summary: 'One page of event slugs.',
  }),
  getEventsBySlug: op<PredictionEvent[]>()(z.strictObject({ slug: z.string().trim().min(1).max(300) }), { summary: 'The events of a slug.' }),
  getTraderPositions: op<TraderPosition[]>()(z.strictObject({ protocol, address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an address is 0x and 40 hex digits') }), {
    summary: "A trader's positions, from the network's market-data source.",
  }),
  // A trader's profile (what the tape, the discussion and the lookup open): who, their stats, their activity.
  getTrader: op<Trader>()(z.strictObject({ protocol, address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an address is 0x and 40 hex digits') }), {
    summary: "A trader's public profile and the stats the network's market-data source states (portfolio value, volume, PnL, markets traded).",
  }),
  getTraderActivity: op<TraderActivity[]>()(
    z.strictObject({ address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'an address is 0x and 40 hex digits'), limit: z.number().int().min(1).max(500).default(100) }),
    { summary: "A trader's recent activity (trades, splits, merges, redeems), newest first, where the source has it." },
  ),

  // Settings and networks
  getSettings: op<Settings>()(noInput, { summary: 'What the terminal remembers across restarts.' }),
  saveSettings: op<Settings>()(
    z.strictObject({
      theme: z.enum(['dark', 'light']).optional(),
      watchlist: z.array(id).max(1000).optional(),
      cancelAllKey: z.string().min(1).max(24).optional(),
      marketColumns: z.array(z.string().min(1).max(40)).max(40).optional(),
      activeWallet: label.nullable().optional(),
      panelSizes: z
        .record(z.string().regex(PANEL_SIZE_NAME), z.number().finite().min(0).max(PANEL_SIZE_MAX))
        .refine((sizes) => Object.keys(sizes).length <= PANEL_SIZES_MAX, { message: `at most ${PANEL_SIZES_MAX} panel sizes` })
        .optional(),
      keyBindings: z
        .partialRecord(z.enum(TRADING_ACTIONS), z.string().min(1).max(8).refine(isBindableKey, { message: 'a letter, a digit, a sign or F1–F12' }))
        .refine((keys) => new Set(Object.values(keys)).size === Object.values(keys).length, { message: 'one key per action' })
        .optional(),
      sizePresets: z
        .strictObject({ unit: z.enum(['shares', 'usd']), sizes: z.array(z.number().refine(isSizePreset, { message: `a positive size of at most ${SIZE_PRESET_MAX} with two decimals` })).length(PRESET_ACTIONS.length) })
        .optional(),
      keyboardOrdersWithoutConfirm: z.boolean().optional(),
      marketSlippageTicks: z.number().int().min(0).max(MARKET_SLIPPAGE_TICKS_MAX).optional(),
      /** The networks named here get these workspaces; the other networks' stay as they are. */
      workspaces: WorkspacesByNetworkSchema.optional(),
    }),
    { summary: 'Change some settings; the rest stay as they are (workspaces: per network named).', maxPayloadBytes: 65_536 },
  ),
  listNetworks: op<NetworkChoice[]>()(noInput, { summary: 'The networks this terminal can switch to.' }),
  switchNetwork: op<NetworkInfo>()(z.strictObject({ name: label }), {
    summary: 'Trade on another network: feeds are closed and reopened, wallets stay as they are.',
  }),
  addNetwork: op<NetworkChoice>()(
    z
      .strictObject({
        name: label,
        chainId: z.number().int().positive().max(2 ** 40),
        /** Where its markets are read: the aggregator (aggregatorUrl) or Polymarket's APIs (gammaUrl, dataUrl). */
        source: z.enum(MARKET_SOURCES).default('aggregator'),
        aggregatorUrl: httpUrl.optional(),
        gammaUrl: httpUrl.optional(),
        dataUrl: httpUrl.optional(),
        clobUrl: httpUrl,
        rpcUrl: httpUrl,
        wsUrl: wsUrl.optional(),
        rtdsUrl: wsUrl.optional(),
        orderVersion: z.union([z.literal(1), z.literal(2), z.literal(3)]),
      })
      .refine((n) => n.source !== 'aggregator' || n.aggregatorUrl !== undefined, { message: 'an aggregator network needs its aggregatorUrl', path: ['aggregatorUrl'] })
      .refine((n) => n.source !== 'polymarket' || (n.gammaUrl !== undefined && n.dataUrl !== undefined), {
        message: 'a Polymarket network needs its gammaUrl and dataUrl',
        path: ['gammaUrl'],
      }),
    { summary: 'Remember a custom network (a private CLOB, a fork): its market-data source and URLs.' },
  ),
} as const;

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export const OPERATION_NAMES = Object.freeze(Object.keys(operations) as OperationName[]);
export const DEFAULT_MAX_PAYLOAD_BYTES = 16_384;

export type OperationInput<K extends OperationName> = z.input<Operations[K]['input']>;
export type ParsedInput<K extends OperationName> = z.output<Operations[K]['input']>;
export type OperationOutput<K extends OperationName> = NonNullable<Operations[K]['output']>;

export function isOperationName(value: unknown): value is OperationName {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(operations, value);
}

// ---------------------------------------------------------------------------------------------------------
// Events main pushes

/** `stale`: connected, but nothing (not even a PONG) heard for a while: its books may be behind. */
export type FeedState = 'connecting' | 'open' | 'stale' | 'closed';

export interface TerminalEvents {
  /** A book changed (the exchange's live book, or the source's when polled); at most one per token per frame. */
  /** A live book may carry the exchange's tick and whether it is stale (its socket is down and not yet resynced). */
  bookUpdate: { marketId: string; tokenId: string; book: Book };
  /** One live fill of a followed market. */
  fill: { marketId: string; fill: TradeRecord };
  /** An order of a wallet changed state through this terminal (placed, cancelled); `sizeMatched` in shares when known. */
  orderUpdate: { wallet: string; orderId: string; status: string; sizeMatched?: number };
  /**
   * A live feed's state; `error` says why it closed (or why a polled book feed is stale: GET /book is refused too,
   * its books are unknown). `source` is `polling` when its WebSocket is unreachable and the data is read over REST
   * instead (slower, but not stale while GET /book answers).
   */
  feedStatus: { feed: 'fills' | 'book' | 'user'; marketId: string; state: FeedState; source?: 'live' | 'polling'; error?: ResultError };
  /** A wallet locked (by the trader, after its idle time, or because the signer stopped) or unlocked. */
  walletLock: { address: string; label?: string; locked: boolean; reason: 'unlock' | 'lock' | 'idle' | 'signer-stopped' };
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
  notice: { wallet?: string; kind: 'approval' | 'credentials' | 'info' | 'cancelled'; message: string; txHash?: string; orderIds?: string[] };
  /** The region check's answer changed (wallet null), or a wallet's close-only mode did (that wallet's whole answer). */
  tradingAccess: TradingAccessInfo;
  /** An alert fired: its log line (the renderer toasts it; in browser mode it also asks for a browser notification). */
  alert: { alert: AlertInfo; entry: AlertLogEntry };
  /** A stop changed: armed, fired (sold, or could not sell yet), cancelled. */
  stop: StopInfo;
  /** A followed market's state changed (it closed, or resolved: its winner and final prices). */
  marketState: MarketStateInfo;
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
] as const satisfies readonly EventName[]);

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (EVENT_NAMES as readonly string[]).includes(value);
}

// ---------------------------------------------------------------------------------------------------------
// window.terminal

export type Unsubscribe = () => void;

/** What the renderer sees as `window.terminal`, in Electron and in browser mode alike. */
export type Terminal = {
  readonly [K in OperationName]: (input: OperationInput<K>) => Promise<Result<OperationOutput<K>>>;
} & {
  on<E extends EventName>(event: E, listener: (payload: TerminalEvents[E]) => void): Unsubscribe;
};

/** The two wires a `Terminal` is built over: a request/answer call and an event listener. */
export interface TerminalWire {
  call(operation: OperationName, input: unknown): Promise<unknown>;
  listen(event: EventName, listener: (payload: unknown) => void): Unsubscribe;
}

/**
 * Builds `window.terminal` from the contract's lists: one function per operation and `on` for events,
 * frozen, and nothing else. Input goes to main as it is (main validates); an unknown event name throws.
 */
export function buildTerminal(wire: TerminalWire): Terminal {
  const terminal: Record<string, unknown> = {};
  for (const name of OPERATION_NAMES) terminal[name] = (input: unknown) => wire.call(name, input === undefined ? {} : input);
  // State events: main announces them once (at connect); a listener added later hears the latest at once.
  const latest = new Map<EventName, unknown>();
  for (const event of STATE_EVENTS) wire.listen(event, (payload) => latest.set(event, payload));
  terminal.on = (event: unknown, listener: unknown) => {
    if (!isEventName(event)) throw new TypeError(`There is no terminal event named ${String(event).slice(0, 40)}.`);
    if (typeof listener !== 'function') throw new TypeError('A terminal event listener must be a function.');
    const deliver = listener as (payload: unknown) => void;
    const unsubscribe = wire.listen(event, deliver);
    if (latest.has(event)) {
      const payload = latest.get(event);
      // Asynchronously, as every event arrives; a listener that throws here affects nobody else.
      void Promise.resolve()
        .then(() => deliver(payload))
        .catch(() => undefined);
    }
    return unsubscribe;
  };
  return Object.freeze(terminal) as Terminal;
}

/** Events that describe current state rather than something that happened: replayed to late listeners. */
export const STATE_EVENTS: readonly EventName[] = Object.freeze(['network'] as const);

/** Channel names on Electron's IPC: one per operation, one for pushed events. */
export const IPC_CHANNEL_PREFIX = 'terminal:';
export const IPC_EVENT_CHANNEL = 'terminal-event';
export const ipcChannel = (operation: OperationName): string => `${IPC_CHANNEL_PREFIX}${operation}`;

// ---------------------------------------------------------------------------------------------------------
// Browser-mode wire format (JSON over the /bridge WebSocket)

export interface BridgeRequest {
  id: number;
  op: string;
  input: unknown;
}
export type BridgeMessage = { id: number; result: Result<unknown> } | { event: EventName; payload: unknown };
/**
 * What one WebSocket frame from the host carries: a message, or several in order (events pushed in the same few
 * milliseconds travel together, so a busy book costs the page one decode per batch, not per update).
 */
export type BridgeFrame = BridgeMessage | BridgeMessage[];
export const BRIDGE_PATH = '/bridge';
