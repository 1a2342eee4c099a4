// Sample answers of Polymarket's public APIs in the shapes docs/protocol.md#endpoints documents (field lists from the
// official SDKs, not captured traffic), with the quirks docs/protocol.md#gamma warns about: Gamma's JSON-encoded string
// lists, numbers as strings, ids as numbers, nulls, unknown fields, a neg-risk event of several markets and a
// Protocol V2 market with positionIds. Hosts here are loopback fixture servers only.

export const YES_TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
export const NO_TOKEN = '52114319501245915516055106046884209969926127482827954674443846427813813222426';
export const CONDITION_ID = '0x5f65177b394277fd294cd75650044e32ba009a95022d88a0c1d565897d72f8f1';
export const WALLET = '0x00000000000000000000000000000000000000a1';
export const OWNER = '0x00000000000000000000000000000000000000b2';
export const TX = '0x' + 'ab'.repeat(32);

/** A binary Gamma market as /markets/{id} sends it. */
export function gammaMarket(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: '506729',
    question: 'Will the Fed cut rates by 25 bps in December?',
    conditionId: CONDITION_ID,
    questionID: '0x' + '11'.repeat(32),
    slug: 'fed-cut-25-bps-december',
    description: 'Resolves YES if…',
    image: 'https://example.test/m.png',
    icon: 'https://example.test/m-icon.png',
    outcomes: '["Yes","No"]',
    outcomePrices: '["0.53","0.47"]',
    clobTokenIds: JSON.stringify([YES_TOKEN, NO_TOKEN]),
    active: true,
    closed: false,
    archived: false,
    acceptingOrders: true,
    enableOrderBook: true,
    orderPriceMinTickSize: 0.01,
    orderMinSize: 5,
    negRisk: false,
    bestBid: 0.52,
    bestAsk: '0.54',
    spread: 0.02,
    lastTradePrice: 0.53,
    oneDayPriceChange: -0.015,
    volume: '2831002.1',
    volumeNum: 2831002.1,
    volume24hr: 120431.5,
    liquidity: '15320.4',
    liquidityNum: 15320.4,
    groupItemTitle: '',
    endDate: '2026-12-10T19:00:00Z',
    endDateIso: '2026-12-10',
    umaResolutionStatuses: '[]',
    clobRewards: [{ id: '1', rewardsAmount: 0 }],
    someFieldGammaAddedLater: { nested: true },
    ...overrides,
  };
}

export const V2_POSITION_YES = '9001';
export const V2_POSITION_NO = '9002';

/** A Protocol V2 market: version "v2", positionIds a real array, and no clobTokenIds. */
export function v2Market(): Record<string, unknown> {
  const market = gammaMarket({
    id: '700001',
    version: 'v2',
    positionIds: [V2_POSITION_YES, V2_POSITION_NO],
    orderPriceMinTickSize: 0.001,
  });
  delete market.clobTokenIds;
  return market;
}

/** A multi-outcome (neg-risk) event: one event holding one binary market per outcome. */
export function negRiskEvent(): Record<string, unknown> {
  const outcome = (id: number, title: string, yes: string, no: string, price: string) =>
    gammaMarket({
      id,
      question: `Fed decision in December: ${title}?`,
      groupItemTitle: title,
      slug: `fed-december-${id}`,
      conditionId: '0x' + String(id).padStart(64, '0'),
      clobTokenIds: JSON.stringify([yes, no]),
      outcomePrices: JSON.stringify([price, String((1 - Number(price)).toFixed(2))]),
      negRisk: true,
      negRiskMarketID: '0x' + 'cd'.repeat(32),
    });
  return {
    id: 12483,
    ticker: 'fed-decision-in-december',
    slug: 'fed-decision-in-december',
    title: 'Fed decision in December?',
    description: 'Grouped markets',
    startDate: '2026-10-01T00:00:00Z',
    creationDate: '2026-09-30T18:00:00Z',
    endDate: '2026-12-10T19:00:00Z',
    image: 'https://example.test/e.png',
    icon: null,
    active: true,
    closed: false,
    liquidity: '153201.4',
    volume: 2831002.1,
    volume24hr: '120431.5',
    negRisk: true,
    enableNegRisk: true,
    negRiskMarketID: '0x' + 'cd'.repeat(32),
    commentCount: 3,
    tags: [{ id: '2', label: 'Economy', slug: 'economy' }],
    markets: [
      outcome(601, '25 bps cut', '111', '112', '0.61'),
      outcome(602, 'No change', '121', '122', '0.35'),
      outcome(603, '50+ bps cut', '131', '132', '0.04'),
    ],
  };
}

export function gammaComment(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: '88001',
    body: 'The dots say two cuts.',
    parentEntityType: 'Event',
    parentEntityID: 12483,
    parentCommentID: '',
    userAddress: OWNER,
    replyAddress: null,
    createdAt: '2026-11-20T10:00:00Z',
    updatedAt: '2026-11-20T10:00:00Z',
    reportCount: 0,
    reactionCount: 3,
    reactions: [],
    profile: {
      name: 'alice',
      pseudonym: 'Bright-Owl',
      displayUsernamePublic: true,
      bio: '',
      isMod: false,
      isCreator: false,
      proxyWallet: WALLET,
      baseAddress: OWNER,
      profileImage: '',
      positions: [{ tokenId: YES_TOKEN, positionSize: '120500000' }],
    },
    ...overrides,
  };
}

export const profile = {
  createdAt: '2025-01-02T03:04:05Z',
  proxyWallet: WALLET,
  profileImage: 'https://example.test/a.png',
  displayUsernamePublic: true,
  bio: 'macro',
  pseudonym: 'Bright-Owl',
  name: 'alice',
  users: [{ id: '1', creator: false, mod: false }],
  xUsername: null,
  verifiedBadge: false,
};

/** A Data API trade row (the tape's and a trader's history's shape). */
export function dataTrade(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    proxyWallet: WALLET,
    side: 'BUY',
    asset: YES_TOKEN,
    conditionId: CONDITION_ID,
    size: 25,
    price: 0.53,
    timestamp: 1_764_000_000,
    title: 'Will the Fed cut rates by 25 bps in December?',
    slug: 'fed-cut-25-bps-december',
    icon: '',
    eventSlug: 'fed-decision-in-december',
    outcome: 'Yes',
    outcomeIndex: 0,
    name: 'alice',
    pseudonym: 'Bright-Owl',
    bio: '',
    profileImage: '',
    profileImageOptimized: '',
    transactionHash: TX,
    ...overrides,
  };
}

export function dataPosition(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    proxyWallet: WALLET,
    asset: YES_TOKEN,
    conditionId: CONDITION_ID,
    size: '120.5',
    avgPrice: 0.41,
    initialValue: 49.405,
    currentValue: 63.865,
    cashPnl: 14.46,
    percentPnl: 29.27,
    totalBought: 120.5,
    realizedPnl: 0,
    percentRealizedPnl: 0,
    curPrice: 0.53,
    redeemable: false,
    mergeable: false,
    title: 'Will the Fed cut rates by 25 bps in December?',
    slug: 'fed-cut-25-bps-december',
    icon: 'https://example.test/m-icon.png',
    eventSlug: 'fed-decision-in-december',
    eventId: '12483',
    outcome: 'Yes',
    outcomeIndex: 0,
    oppositeOutcome: 'No',
    oppositeAsset: NO_TOKEN,
    endDate: '2026-12-10',
    negativeRisk: false,
    ...overrides,
  };
}

export function dataActivity(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...dataTrade(), type: 'TRADE', usdcSize: 13.25, ...overrides };
}

/** A CLOB /book answer: bids ascending, asks descending (best last), strings for numbers. */
export function clobBook(tokenId: string): Record<string, unknown> {
  return {
    market: CONDITION_ID,
    asset_id: tokenId,
    timestamp: '1764000000123',
    hash: 'a1b2c3',
    bids: [
      { price: '0.50', size: '100' },
      { price: '0.52', size: '40.5' },
    ],
    asks: [
      { price: '0.56', size: '80' },
      { price: '0.54', size: '12' },
    ],
    min_order_size: '5',
    neg_risk: false,
    tick_size: '0.01',
    last_trade_price: '0.53',
  };
}

/** The real-time service's trade message for a market (envelope and payload). */
export function rtdsTrade(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    topic: 'activity',
    type: 'orders_matched',
    timestamp: 1_764_000_100_000,
    payload: {
      asset: YES_TOKEN,
      conditionId: CONDITION_ID,
      eventSlug: 'fed-decision-in-december',
      slug: 'fed-cut-25-bps-december',
      title: 'Will the Fed cut rates by 25 bps in December?',
      icon: '',
      outcome: 'Yes',
      outcomeIndex: 0,
      price: 0.55,
      side: 'SELL',
      size: 10,
      timestamp: Math.floor(Date.now() / 1000),
      transactionHash: '0x' + 'cd'.repeat(32),
      proxyWallet: WALLET,
      name: 'alice',
      pseudonym: 'Bright-Owl',
      bio: '',
      profileImage: '',
      ...overrides,
    },
  };
}

/** One trade of CLOB /markets/live-activity/{condition_id} (clob-client-v2 MarketTradeEvent). */
export function liveActivityTrade(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event_type: 'trade',
    market: {
      condition_id: CONDITION_ID,
      asset_id: YES_TOKEN,
      question: 'Will the Fed cut rates by 25 bps in December?',
      icon: '',
      slug: 'fed-cut-25-bps-december',
    },
    user: {
      address: WALLET,
      username: 'alice',
      profile_picture: '',
      optimized_profile_picture: '',
      pseudonym: 'Bright-Owl',
    },
    side: 'BUY',
    size: '12.5',
    fee_rate_bps: '0',
    price: '0.54',
    outcome: 'Yes',
    outcome_index: 0,
    transaction_hash: TX,
    timestamp: '1764000000',
    ...overrides,
  };
}
