// Every path of Polymarket's exchange service (CLOB) in one table, as the official clients name them:
// a reader sees the whole surface at a glance. Paths ending in "/" take an id appended.

export const CLOB_PATHS = {
  // Health, time, version
  ROOT: '/',
  OK: '/ok',
  TIME: '/time',
  VERSION: '/version',
  HEARTBEAT: '/v1/heartbeats',
  // API keys (level 1 to create or derive, level 2 for the rest)
  CREATE_API_KEY: '/auth/api-key',
  DERIVE_API_KEY: '/auth/derive-api-key',
  GET_API_KEYS: '/auth/api-keys',
  DELETE_API_KEY: '/auth/api-key',
  CLOSED_ONLY: '/auth/ban-status/closed-only',
  // Markets
  GET_SAMPLING_SIMPLIFIED_MARKETS: '/sampling-simplified-markets',
  GET_SAMPLING_MARKETS: '/sampling-markets',
  GET_SIMPLIFIED_MARKETS: '/simplified-markets',
  GET_MARKETS: '/markets',
  GET_MARKET: '/markets/',
  GET_CLOB_MARKET: '/clob-markets/',
  GET_MARKET_BY_TOKEN: '/markets-by-token/',
  // Books and prices
  GET_ORDER_BOOK: '/book',
  GET_ORDER_BOOKS: '/books',
  GET_MIDPOINT: '/midpoint',
  GET_MIDPOINTS: '/midpoints',
  GET_PRICE: '/price',
  GET_PRICES: '/prices',
  GET_SPREAD: '/spread',
  GET_SPREADS: '/spreads',
  GET_LAST_TRADE_PRICE: '/last-trade-price',
  GET_LAST_TRADES_PRICES: '/last-trades-prices',
  GET_TICK_SIZE: '/tick-size',
  GET_NEG_RISK: '/neg-risk',
  GET_FEE_RATE: '/fee-rate',
  GET_PRICES_HISTORY: '/prices-history',
  // Orders and trades
  POST_ORDER: '/order',
  POST_ORDERS: '/orders',
  CANCEL_ORDER: '/order',
  CANCEL_ORDERS: '/orders',
  CANCEL_ALL: '/cancel-all',
  CANCEL_MARKET_ORDERS: '/cancel-market-orders',
  GET_ORDER: '/data/order/',
  GET_OPEN_ORDERS: '/data/orders',
  GET_TRADES: '/data/trades',
  IS_ORDER_SCORING: '/order-scoring',
  ARE_ORDERS_SCORING: '/orders-scoring',
  // Account
  GET_NOTIFICATIONS: '/notifications',
  DROP_NOTIFICATIONS: '/notifications',
  GET_BALANCE_ALLOWANCE: '/balance-allowance',
  UPDATE_BALANCE_ALLOWANCE: '/balance-allowance/update',
  // Rewards
  GET_EARNINGS_FOR_USER_FOR_DAY: '/rewards/user',
  GET_TOTAL_EARNINGS_FOR_USER_FOR_DAY: '/rewards/user/total',
  GET_LIQUIDITY_REWARD_PERCENTAGES: '/rewards/user/percentages',
  GET_REWARDS_MARKETS_CURRENT: '/rewards/markets/current',
  GET_REWARDS_MARKETS: '/rewards/markets/',
  GET_REWARDS_EARNINGS_PERCENTAGES: '/rewards/user/markets',
  // Market trade events: version 1's path, and the one the version 2 service moved it to
  GET_MARKET_TRADES_EVENTS: '/live-activity/events/',
  GET_MARKET_TRADES_EVENTS_V2: '/markets/live-activity/',
} as const;

/** The largest page of a cursor-paged list: Polymarket's /markets answers up to 1,000 markets a page, over 1 MB. */
export const PAGE_MAX_BYTES = 16 * 1024 * 1024;

/** base64("0"): the first page of every list. */
export const INITIAL_CURSOR = 'MA==';
/** base64("-1"): no more pages. */
export const END_CURSOR = 'LTE=';

/** Said by the server when a posted order was signed for another exchange version. */
export const ORDER_VERSION_MISMATCH = 'order_version_mismatch';

/** Tick sizes are re-read after five minutes (the official client's default): markets do change their tick. */
export const DEFAULT_TICK_SIZE_TTL_MS = 300_000;

export const DEFAULT_CLOB_URL = 'https://clob.polymarket.com';
