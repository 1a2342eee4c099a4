// The PM Desk toolkit: everything a developer needs to read Polymarket markets (through one market-data source
// interface: the aggregator, or Polymarket direct) and to trade on the exchange, usable on its own under plain Node.
/**
 * Everything: market sources, the CLOB client, orders and signing, accounts, chain actions, networks, the model and errors.
 * @module @pmdesk/toolkit
 */
export * from './model/errors';
export * from './model/market-rules';
export * from './model/market-model';
export * from './aggregator/schemas';
export {
  MARKET_SOURCE_KINDS,
  CHART_INTERVALS,
  type MarketSource,
  type MarketSourceKind,
  type ChartInterval,
  type EventListOptions,
  type EventListPage,
  type TradePageOptions,
  type FillHandlers as SourceFillHandlers,
  type FillSubscription as SourceFillSubscription,
} from './model/market-source';
export { createMarketSource, sourceKindOf, type SourceEndpoints, type SourceOptions } from './sources/create';
export { AggregatorSource, CHART_INTERVAL_MS, type AggregatorSourceOptions } from './aggregator/source';
export { AggregatorClient, toPolyOrder, type AggregatorClientOptions, type PageOptions } from './aggregator/client';
export {
  AGGREGATOR_PATHS,
  DEFAULT_TIMEOUT_MS,
  ONGOING_EVENTS_PAGE_SIZE,
  SLUG_LIST_PAGE_SIZE,
} from './aggregator/endpoints';
export {
  subscribeToFills,
  parseFillMessage,
  resolveEventSource,
  type FillHandlers,
  type FillSubscription,
  type FillStreamState,
  type EventSourceConstructor,
} from './aggregator/fills';
export {
  generateCandles,
  candleIntervalMillis,
  CANDLE_INTERVAL_MS,
  PRICE_HISTORY_INTERVALS,
  type Candle,
  type CandleIntervalName,
  type PriceHistoryInterval,
} from './aggregator/candles';
export { httpRequest, type HttpRequest, type HttpResponse, type HttpMethod } from './http/request';
export { buildQuery, encodeQueryValue } from './http/query';
export { consoleLogger, silentLogger, type Logger } from './base/logger';
export {
  ClobClient,
  orderScoringParams,
  dropNotificationParams,
  type ClobClientOptions,
  type BookParams,
  type PriceHistoryParams,
  type PriceHistoryInterval as ClobPriceHistoryInterval,
  type TradeParams,
  type OpenOrderParams,
  type BalanceAllowanceParams,
  type OrderBookSummary,
  type OrderOptions,
  type CreateOrDeriveOrder,
} from './clob/client';
// Liquidity rewards: markets that pay, order scoring and why not, earnings per day (exact base units).
export {
  readRewardMarkets,
  readMarketRewardConfig,
  readOrderScoring,
  readOrdersScoring,
  readRewardEarningsForDay,
  readTotalRewardEarningsForDay,
  rewardScoringVerdict,
  collateralUnitsOf,
  NOT_SCORING_TEXT,
  type RewardsClobReads,
  type RewardMarket,
  type MarketRewardConfig,
  type RewardEarning,
  type RewardTotal,
  type NotScoringReason,
  type ScoringVerdict as RewardScoringVerdict,
} from './clob/rewards';
export { isClobError, errorResult, type ClobErrorResult, type ClobResult } from './clob/transport';
export {
  CLOB_PATHS,
  INITIAL_CURSOR,
  END_CURSOR,
  ORDER_VERSION_MISMATCH,
  DEFAULT_TICK_SIZE_TTL_MS,
  DEFAULT_CLOB_URL,
} from './clob/endpoints';
export {
  createL1Headers,
  createL2Headers,
  buildHmacSignature,
  clobAuthDomain,
  CLOB_AUTH_TYPES,
  CLOB_AUTH_MESSAGE,
  CREDS_CREATION_WARNING,
  L1_AUTH_UNAVAILABLE,
  L2_AUTH_UNAVAILABLE,
  type ApiCredentials,
  type L1Headers,
  type L2Headers,
} from './clob/auth';
export {
  OrderBuilder,
  SignatureType,
  SIGNATURE_TYPE_NAMES,
  POLY_1271_V1_UNSUPPORTED,
  signOrder,
  newSalt,
  type BuiltOrder,
  type SignedOrder,
  type SignedOrderV1,
  type SignedOrderV2,
  type LimitOrderInput,
  type MarketOrderInput,
  type MarketTerms,
  type OrderBuilderOptions,
} from './orders/builder';
export { orderBody, type OrderBody, type PostOrderOptions } from './orders/body';
export { privateKeySigner, type ClobSigner } from './orders/signer';
export {
  signAsDepositWallet,
  depositWalletDigest,
  ORDER_TYPE_STRING,
  TYPED_DATA_SIGN_TYPES,
} from './orders/wallet-signature';
export {
  orderDigest,
  domainSeparator,
  exchangeDomain,
  ORDER_TYPES_V1,
  ORDER_TYPES_V2,
  type OrderV1Fields,
  type OrderV2Fields,
} from './orders/eip712';
export {
  marketPriceFromBook,
  assertPriceInRange,
  isPriceInRange,
  resolveTickSize,
  ORDER_TYPES,
  type OrderType,
  type BookLevel,
  type BookSides,
} from './orders/price';
export {
  ROUNDING,
  TICK_SIZES,
  V1_TICK_SIZES,
  toTickSize,
  isTickSize,
  roundNormal,
  roundDown,
  roundUp,
  decimalPlaces,
  limitOrderRawAmounts,
  marketOrderRawAmounts,
  toBaseUnits,
  type TickSize,
  type RoundingRule,
  type OrderSide,
} from './orders/rounding';
export {
  POLYGON,
  AMOY,
  networkFor,
  walletConfigFor,
  parseNetworkProfile,
  verifyingContract,
  ORDER_VERSIONS,
  ZERO_ADDRESS,
  BYTES32_ZERO,
  COLLATERAL_TOKEN_DECIMALS,
  CONDITIONAL_TOKEN_DECIMALS,
  type NetworkProfile,
  type ContractAddresses,
  type KnownNetwork,
  type OrderVersion,
} from './chain/networks';
export { orderBookHash } from './clob/book';
export { waitForReceipt, type ReceiptWait } from './chain/receipts';
export {
  ExchangeContract,
  type ExchangeAbiKind,
  type OrderStatusOnChain,
  type ExchangeEvent,
  type DecodedEvent,
} from './orders/exchange';
export { AMOY_WALLETS, POLYGON_WALLETS, walletConfigSchema, type WalletConfig } from './chain/wallet-config';
export {
  AccountKind,
  SIGNATURE_TYPE_OF,
  checkedAddress,
  deriveAccounts,
  deriveDepositWallet,
  deriveProxyWallet,
  deriveSafeWallet,
  depositWalletInitCode,
  proxyInitCode,
  proxyInitCodeHash,
  type DepositWalletEra,
  type DerivedAccounts,
} from './accounts/derive';
export {
  accountForOverride,
  classifyAccount,
  findAccounts,
  type Account,
  type AccountOverride,
  type AccountCandidate,
  type ChainRead,
  type ChoiceReason,
  type FindAccountsOptions,
  type FoundAccounts,
  type FoundBy,
} from './accounts/classify';
export { rpcChainRead, depositWalletEra, type RpcReader } from './accounts/chain-read';
export {
  accountTransactions,
  proxyFactoryData,
  PROXY_FACTORY_ABI,
  PROXY_CALL,
  DEPOSIT_WALLET_RELAYER_ONLY,
  type ActionAccount,
  type AccountActionOptions,
  type AccountActionPlan,
  type ChainCall,
  type OwnerTransaction,
  type TypedDataSigner,
} from './accounts/actions';
export {
  SafeOperation,
  SAFE_TX_TYPES,
  safeDomain,
  safeTxFor,
  safeTxTypedData,
  packMultiSend,
  unpackMultiSend,
  packSafeSignature,
  recoverSafeSigner,
  execTransactionData,
  readSafeNonce,
  type SafeCall,
  type SafeTx,
  type SafeSignatureKind,
  type ContractCallReader,
} from './accounts/safe';
export {
  RelayerTransactionType,
  RelayerState,
  FINAL_RELAYER_STATES,
  POLYGON_RELAY_HUB,
  DEFAULT_PROXY_GAS_LIMIT,
  DEFAULT_BATCH_LIFETIME_SECONDS,
  SAFE_FACTORY_NAME,
  CREATE_PROXY_TYPES,
  DEPOSIT_WALLET_BATCH_TYPES,
  depositWalletDomain,
  walletBatchTypedData,
  proxyRelayHash,
  buildProxyRequest,
  buildSafeRequest,
  buildSafeCreateRequest,
  buildWalletBatchRequest,
  buildWalletCreateRequest,
  relayerRequestBody,
  type RelayerSigner,
  type RelayerNetwork,
  type RelayerRequest,
  type ProxyRequest,
  type ProxyRequestInput,
  type ProxyRelayHashFields,
  type ProxySignatureParams,
  type SafeRequest,
  type SafeRequestInput,
  type SafeSignatureParams,
  type SafeCreateRequest,
  type SafeCreateSignatureParams,
  type WalletBatchRequest,
  type WalletBatchInput,
  type WalletCreateRequest,
  type DepositWalletCall,
} from './relayer/requests';
export {
  relayerApiKeyHeaders,
  builderHeaders,
  relayerAuthHeaders,
  type RelayerApiKey,
  type RelayerApiKeyHeaders,
  type BuilderCredentials,
  type BuilderHeaders,
  type RelayerCredentials,
  type RelayerAuthRequest,
} from './relayer/auth';
export {
  RelayerClient,
  POLYMARKET_RELAYER_URL,
  RELAYER_MAX_POLLS,
  RELAYER_POLL_INTERVAL_MS,
  outcome as relayerOutcome,
  type RelayerClientOptions,
  type RelayerOutcome,
  type RelayerSubmitted,
  type RelayerTransaction,
} from './relayer/client';
export {
  relayCalls,
  relayerTypeOf,
  relayerReadsFor,
  buildRelayedCalls,
  buildRelayedDeployment,
  type RelayedAccount,
  type RelayedCallsInput,
  type RelayerReads,
  type RelayStep,
  type RelayCallsOptions,
  type RelayResult,
} from './relayer/account-relay';
export {
  checkGasFunds,
  quoteGas,
  providerGasReader,
  formatPol,
  formatPolNeeded,
  GAS_HEADROOM_PERCENT,
  type GasReader,
  type GasProvider,
  type GasQuote,
} from './accounts/gas';
export {
  actionContractsFor,
  requireContract,
  POLYGON_ACTION_CONTRACTS,
  SAFE_MULTISEND_130,
  type ActionContracts,
} from './accounts/action-contracts';
export {
  wrapCalls,
  unwrapCalls,
  collateralBaseUnits,
  collateralBalances,
  tokenBalance,
  type CollateralAmount,
  type CollateralBalances,
  type TokenReader,
} from './collateral/pusd';
export {
  splitCalls,
  mergeCalls,
  redeemCalls,
  mergeableAmount,
  positionRoute,
  BINARY_PARTITION,
  type PositionMarket,
  type PositionRoute,
  type PositionOptions,
} from './positions/calls';
export { conditionId31, conditionId32 } from './positions/condition-id';
export {
  resolutionOf,
  positionBalances,
  redeemPlan,
  formatUsd,
  type Resolution,
  type RedeemPlan,
  type RedeemOutcome,
  type ContractReader,
} from './positions/resolution';
export {
  moneyActionCalls,
  baseUnitsOf,
  sharesText,
  MONEY_ACTIONS,
  type MoneyActionKind,
  type MoneyActionRequest,
  type MoneyActionCalls,
  type MoneyMarket,
} from './positions/money-calls';
export { tradingApprovalCalls, type TradingApproval } from './positions/approval-calls';
export {
  convertPlan,
  convertCalls,
  convertIndexSet,
  convertLines,
  questionIdOf as negRiskQuestionIdOf,
  NEG_RISK_CONVERT_ABI,
  type ConvertRequest,
  type ConvertPlan,
  type ConvertLeg,
} from './positions/convert-calls';
export { convertEventOf, chooseOutcomes, type ConvertEvent, type ConvertOutcome } from './positions/convert-event';
export {
  fillFee,
  adjustBuyAmountForFees,
  adjustBuySizeForFees,
  checkFeeSlippage,
  unitsToAmount,
  FEE_DECIMALS,
  type FeeTerms,
  type FillFee,
  type FillFeeInput,
  type BuyShrinkInput,
  type BuySizeShrinkInput,
} from './orders/fees';
export { isVersionMismatch } from './clob/service';
export { postOrderOnce, isOrderInDoubt, type PostedOrder } from './clob/post-once';
export { assertPostOnlyAllowed } from './orders/body';
export { retryNoticeText, type RetryNotice } from './http/retry';
export {
  deprecationText,
  rateLimitText,
  readDeprecation,
  readRateLimit,
  type ApiNotice,
  type DeprecationHeaders,
  type RateLimitHeaders,
  type RateLimitReading,
} from './http/answer-headers';
export { WS_HANDSHAKE_TIMEOUT_MS, WS_MAX_MESSAGE_BYTES } from './http/limits';
export { checkGeoblock } from './polymarket/geoblock';
export { parseAnswer } from './polymarket/http';
export { type TypedDataTypes } from './orders/signer';
export { EXCHANGE_DOMAIN_NAME } from './orders/eip712';
export { DEPOSIT_WALLET_DOMAIN_NAME, DEPOSIT_WALLET_DOMAIN_VERSION } from './orders/wallet-signature';
export { primitives, type Primitives } from './orders/primitives';
export { PolymarketSource, type PolymarketSourceOptions } from './polymarket/source';
export { readMarketTags, TAGGED_MARKETS_MAX } from './polymarket/market-tags';
export {
  TraderBoards,
  LEADERBOARD_METRICS,
  LEADERBOARD_PERIODS,
  HOLDERS_MAX,
  type LeaderboardEntry,
  type LeaderboardMetric,
  type LeaderboardPeriod,
  type LeaderboardQuery,
  type MarketHolder,
  type OutcomeHolders,
} from './polymarket/traders';
export {
  followTraders,
  followedTradeKey,
  followedWallets,
  MAX_FOLLOWED_WALLETS,
  type FollowedTrade,
  type FollowHandlers,
  type FollowMode,
  type FollowTiming,
  type TraderFollow,
} from './polymarket/followed-trades';
export { MAX_COMMENTS as POLYMARKET_MAX_COMMENTS } from './polymarket/endpoints';
// A trader's book from their activity: positions, realized PnL, the PnL series and the accounting export.
export * from './portfolio/index';
