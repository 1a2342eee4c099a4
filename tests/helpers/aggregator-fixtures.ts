// Sample aggregator answers in the shapes docs/protocol.md#aggregator declares, with the quirks real servers
// have (numbers as strings, nulls), for wire-level tests.

export const YES_TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
export const NO_TOKEN = '52114319501245915516055106046884209969926127482827954674443846427813813222426';

export const market = {
  id: '506729',
  name: 'Google',
  groupItemTitle: 'Google',
  question: 'Will Google have the top AI model on May 31?',
  end: '2025-05-31T12:00:00Z',
  description: 'Resolves YES if…',
  image: 'https://example.test/g.png',
  icon: 'https://example.test/g-icon.png',
  slug: 'will-google-have-the-top-ai-model-on-may-31',
  active: true,
  funded: true,
  rewardsMinSize: 50,
  rewardsMaxSpread: '3.5',
  spread: 0.01,
  position_tokens: [
    { token_id: YES_TOKEN, name: 'Yes', price: '0.53' },
    { token_id: NO_TOKEN, name: 'No', price: '0.47' },
  ],
};

export const event = {
  id: '12483',
  protocol: 'polymarket',
  region: 'global',
  slug: 'which-company-has-best-ai-model-end-of-may',
  title: 'Which company has best AI model end of May?',
  description: 'Grouped markets',
  startDate: '2025-04-01T00:00:00Z',
  creationDate: '2025-03-31T18:00:00Z',
  endDate: '2025-05-31T12:00:00Z',
  image: 'https://example.test/e.png',
  icon: 'https://example.test/e-icon.png',
  active: true,
  liquidity: '153201.4',
  volume: 2831002.1,
  markets: [market],
};

export const comment = {
  id: 'c1',
  parent_comment_id: null,
  name: 'alice',
  pseudonym: 'Bright-Owl',
  displayUsernamePublic: true,
  bio: '',
  baseAddress: '0x00000000000000000000000000000000000000a1',
  profileImage: '',
  positions: [{ position: 'Yes', positionSize: '120.5', marketId: '506729' }],
  createdAt: '2025-05-01T10:00:00Z',
  reportCount: 0,
  reactionCount: '3',
  content: 'Gemini looks strong.',
};

export const books = {
  [YES_TOKEN]: {
    market: '0xabc',
    asset_id: YES_TOKEN,
    timestamp: '1747400000000',
    hash: '0f3c',
    bids: [{ price: '0.52', size: '1200' }],
    asks: [{ price: 0.54, size: 800 }],
  },
  [NO_TOKEN]: {
    market: '0xabc',
    asset_id: NO_TOKEN,
    timestamp: 1747400000000,
    hash: '9a1b',
    bids: [],
    asks: [{ price: '0.48', size: '1200' }],
  },
};

export const fillHistory = [
  [
    { price: 0.51, volumeBase: 100, timestamp: 1747390000 },
    { price: '0.55', volumeBase: '20', timestamp: 1747390500 },
    { price: 0.5, volumeBase: 5, timestamp: 1747394000 },
  ],
  [{ price: 0.49, volumeBase: 40, timestamp: 1747390100 }],
];

export const trader = {
  user: {
    tradingWallet: '0x00000000000000000000000000000000000000a1',
    proxyOwner: null,
    name: 'alice',
    pseudonym: 'Bright-Owl',
    bio: '',
    avatar: 'https://example.test/a.png',
    createdAt: '2024-11-02T10:00:00Z',
  },
  stats: { portfolioValue: 1234.5, cumulativeVolume: '98765.4', cumulativeProfit: null, totalTrades: 152 },
};

export const positions = [
  {
    conditionId: '0xc0',
    marketSlug: 'will-google-have-the-top-ai-model-on-may-31',
    outcome: 'Yes',
    outcomeIndex: 0,
    size: '150',
    averagePrice: 0.41,
    currentPrice: 0.53,
    currentValue: 79.5,
    initialValue: 61.5,
    cashPnl: 18,
    percentPnl: 29.27,
    icon: '',
    endsOn: '2025-05-31T12:00:00Z',
  },
];

export const searchResults = [{ event, cosineSimilarity: '0.83' }];

export const signedOrder = {
  salt: 479249096354,
  maker: '0x00000000000000000000000000000000000000a1',
  signer: '0x00000000000000000000000000000000000000a1',
  taker: '0x0000000000000000000000000000000000000000',
  tokenId: YES_TOKEN,
  makerAmount: 5300000,
  takerAmount: '10000000',
  expiration: 0,
  nonce: 0,
  feeRateBps: 0,
  side: 'BUY',
  signatureType: 0,
  signature: '0x' + 'ab'.repeat(65),
};
