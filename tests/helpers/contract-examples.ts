// One valid input per contract operation (the fuzz tests mutate these into invalid ones), and the secret
// scan every end-to-end test runs over what crosses to the renderer.
import type { OperationInput, OperationName } from '../../src/shared/contract';

export const VALID_INPUT: { [K in OperationName]: OperationInput<K> } = {
  getNetwork: {},
  getDiagnostics: {},
  listEvents: { protocol: 'polymarket', page: 1, limit: 10 },
  searchMarkets: { query: 'bitcoin', topK: 5 },
  getEvent: { protocol: 'polymarket', eventId: '12483' },
  getMarket: { protocol: 'polymarket', marketId: '506729' },
  getEventComments: { protocol: 'polymarket', eventId: '12483' },
  getOrderBook: { protocol: 'polymarket', marketId: '506729' },
  getPriceHistory: { protocol: 'polymarket', marketId: '506729' },
  getCandles: { protocol: 'polymarket', marketId: '506729', outcomeIndex: 0, interval: '1h' },
  subscribeFills: { protocol: 'polymarket', marketId: '506729' },
  unsubscribeFills: { marketId: '506729' },
  subscribeBook: { protocol: 'polymarket', marketId: '506729' },
  unsubscribeBook: { marketId: '506729' },
  reportFrames: { frameAt: 1_764_000_000_016.7, intervalMs: 16.67 },
  listWallets: {},
  createWallet: { label: 'fuzz', password: 'correct horse battery' },
  importWallet: {
    label: 'fuzz',
    password: 'correct horse battery',
    source: { kind: 'privateKey', privateKey: `0x${'11'.repeat(32)}` },
  },
  importSandboxWallet: { label: 'fuzz-test', password: 'correct horse battery' },
  unlockWallet: { label: 'fuzz', password: 'correct horse battery', autoLockMinutes: 5 },
  lockWallet: { label: 'fuzz' },
  exportWallet: { label: 'fuzz', password: 'correct horse battery' },
  getWalletAccount: { wallet: 'fuzz' },
  chooseWalletAccount: { wallet: 'fuzz', account: null },
  placeOrder: {
    wallet: 'fuzz',
    marketId: '506729',
    tokenId: '123',
    side: 'BUY',
    orderType: 'GTC',
    price: 0.5,
    size: 10,
  },
  readyOrder: {
    wallet: 'fuzz',
    marketId: '506729',
    tokenId: '123',
    side: 'BUY',
    orderType: 'GTC',
    price: 0.5,
    size: 10,
  },
  cancelOrder: { wallet: 'fuzz', orderId: '0xabc' },
  cancelAll: { wallet: 'fuzz' },
  cancelMarket: { wallet: 'fuzz', marketId: '506729' },
  listOpenOrders: { wallet: 'fuzz' },
  listTrades: { wallet: 'fuzz' },
  getBalances: { wallet: 'fuzz' },
  getPositions: { wallet: 'fuzz' },
  getAccountFunds: { wallet: 'fuzz' },
  previewMoneyAction: { wallet: 'fuzz', action: 'split', marketId: '506729', amount: '12.5' },
  runMoneyAction: { wallet: 'fuzz', action: 'wrap', amount: '5' },
  saveRelayerCredentials: { wallet: 'fuzz', kind: 'api-key', relayerKey: 'relayer-key-example' },
  forgetRelayerCredentials: { wallet: 'fuzz' },
  getConversionChoices: { wallet: 'fuzz', eventId: '9001' },
  previewConversion: { wallet: 'fuzz', eventId: '9001', fromNo: [0, 2], size: '4' },
  runConversion: { wallet: 'fuzz', eventId: 'fed-decision-in-december-2026', fromNo: [1], size: '2.5', via: 'relayer' },
  previewOrder: {
    wallet: 'fuzz',
    marketId: '506729',
    tokenId: '123',
    side: 'BUY',
    orderType: 'GTC',
    price: 0.5,
    size: 10,
  },
  watchMarketState: { protocol: 'polymarket', marketId: '506729' },
  unwatchMarketState: { marketId: '506729' },
  watchAccount: { wallet: 'fuzz' },
  unwatchAccount: { wallet: 'fuzz' },
  setDeadManSwitch: { wallet: 'fuzz', enabled: true },
  getDeadManSwitch: { wallet: 'fuzz' },
  listAlerts: {},
  createAlert: {
    kind: 'price',
    protocol: 'polymarket',
    marketId: '506729',
    tokenId: '123',
    price: 'bid',
    direction: 'down',
    level: 0.4,
  },
  deleteAlert: { id: 'a1' },
  listStops: {},
  createStop: {
    wallet: 'fuzz',
    protocol: 'polymarket',
    marketId: '506729',
    tokenId: '123',
    kind: 'stop-loss',
    level: 0.4,
  },
  cancelStop: { id: 's1' },
  getTradingAccess: { wallet: 'fuzz' },
  listRewardMarkets: {},
  getOrderScoring: { wallet: 'fuzz' },
  getRewardEarnings: { wallet: 'fuzz', day: '2026-11-28' },
  listSlugs: { page: 1, limit: 10 },
  getEventsBySlug: { slug: 'fed-decision' },
  getTraderPositions: { protocol: 'polymarket', address: `0x${'ab'.repeat(20)}` },
  getTrader: { protocol: 'polymarket', address: `0x${'ab'.repeat(20)}` },
  getTraderActivity: { address: `0x${'ab'.repeat(20)}`, limit: 20 },
  getPortfolio: { wallet: 'fuzz', period: 'week' },
  exportActivity: { address: `0x${'ab'.repeat(20)}`, from: '2026-11-01', to: '2026-11-28' },
  downloadAccountingSnapshot: { address: `0x${'ab'.repeat(20)}` },
  getSettings: {},
  saveSettings: { theme: 'light', watchlist: ['506729'] },
  listNetworks: {},
  switchNetwork: { name: 'sandbox' },
  addNetwork: {
    name: 'fork',
    chainId: 31337,
    aggregatorUrl: 'http://127.0.0.1:1',
    clobUrl: 'http://127.0.0.1:2',
    rpcUrl: 'http://127.0.0.1:3',
    orderVersion: 2,
  },
  getLeaderboard: { by: 'volume', period: 'week', limit: 10 },
  getMarketHolders: { protocol: 'polymarket', marketId: '506729' },
  listFollowedTraders: {},
  followTrader: { address: `0x${'ab'.repeat(20)}`, name: 'whale', alert: true },
  unfollowTrader: { address: `0x${'ab'.repeat(20)}` },
  setFollowedTraderAlert: { address: `0x${'ab'.repeat(20)}`, alert: false },
};

/** Values no field of the contract accepts: each one, put in any field, makes the input invalid. */
export const WRONG_FOR_EVERY_FIELD: unknown[] = [null, true, false, [], [1, 2], {}, { nested: 'x' }];

export interface SecretFinding {
  where: string;
  kind: string;
}

/** Fields that hold public 32-byte values (condition ids, book and transaction hashes), never a key. */
const PUBLIC_BYTES32_FIELDS = new Set([
  'conditionId',
  'questionId',
  // A negative-risk event's id on its adapter (Gamma's negRiskMarketID): public, on chain.
  'negRiskMarketId',
  'market',
  'hash',
  'txHash',
  'transactionHash',
  'parentCollectionId',
  'orderId',
  'cancelled',
]);
const SECRET_FIELD = /^(privateKey|private_key|mnemonic|phrase|password|passphrase|secret|apiSecret|seed)$/i;
const BYTES32 = /^(0x)?[0-9a-fA-F]{64}$/;

/**
 * Looks through a value that crossed to the renderer for anything secret: a 32-byte hex string outside the
 * fields known to hold public hashes (a private key), a field named like a secret, and any of the known
 * secrets of the run (passwords, phrases, keys, API credentials) as text anywhere. The one-time secret of
 * a `ShownOnce` is looked for by the caller, which knows when it is expected.
 */
export function findSecrets(value: unknown, known: readonly string[], where = 'value'): SecretFinding[] {
  const findings: SecretFinding[] = [];
  const walk = (v: unknown, path: string, key: string) => {
    if (typeof v === 'string') {
      if (BYTES32.test(v) && !PUBLIC_BYTES32_FIELDS.has(key))
        findings.push({ where: `${where}${path}`, kind: '32 bytes of hex (a private key?)' });
      return;
    }
    if (!v || typeof v !== 'object') return;
    for (const [k, child] of Object.entries(v)) {
      if (!Array.isArray(v) && SECRET_FIELD.test(k))
        findings.push({ where: `${where}${path}.${k}`, kind: 'a field named like a secret' });
      // An array's items are judged by the array's own field name (a list of order ids, say).
      walk(child, `${path}.${k}`, Array.isArray(v) ? key : k);
    }
  };
  walk(value, '', '');
  const text = JSON.stringify(value) ?? '';
  for (const secret of known) {
    if (!secret) continue;
    const bare = secret.replace(/^0x/i, '');
    if (text.includes(secret) || (bare.length >= 32 && text.toLowerCase().includes(bare.toLowerCase())))
      findings.push({ where, kind: 'a known secret of this run' });
    // A phrase's words in order, however they are joined.
    const words = secret.trim().split(/\s+/);
    if (words.length >= 12 && new RegExp(words.join('\\W+')).test(text))
      findings.push({ where, kind: 'a recovery phrase' });
  }
  return findings;
}
