// Orders onto and off the book: every check Polymarket makes before an order rests (body, owner, market,
// EIP-712 signature against the market's exchange, tick and size, expiry, nonce, balance and allowance on the
// chain), then matching and settlement; and cancels. Both run inside the state's queue.
import { TypedDataEncoder } from 'ethers';
import { ORDER_TYPES as TYPED_ORDER, exchangeDomain, signedMessage } from '../chain/order-typed-data';
import type { CatalogMarket } from '../market/catalog';
import { feeRateBps } from '../market/fees';
import { signatureRefusal } from './accounts';
import { fundsShortfall } from './funds';
import { OrderRejected, orderTerms, parseOrderBody, type OrderTerms } from './order-rules';
import { refused, type Caller, type OrderRecord, type OrderResponse } from './records';
import { settle } from './settlement';
import type { ClobState } from './state';

/** GTD orders must live at least this long (Polymarket: "invalid expiration"). */
export const GTD_MIN_LIFETIME_SECONDS = 60;
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** Validates, matches and settles one order; runs inside the queue. A refusal is a response, never a throw. */
export async function placeOrder(state: ClobState, body: unknown, caller: Caller): Promise<OrderResponse> {
  if (state.stopped) return refused('the exchange is shutting down');
  const { deployment, catalog } = state.options;
  let parsed;
  try {
    parsed = parseOrderBody(body, deployment.orderVersion);
  } catch (error) {
    if (error instanceof OrderRejected) return refused(error.message);
    throw error;
  }
  const { order, orderType, postOnly } = parsed;
  if (parsed.owner !== caller.apiKey) return refused('the order owner has to be the owner of the API KEY');
  const found = catalog.token(order.tokenId.toString());
  if (!found) return refused('invalid token id: the market does not exist');
  const { market } = found;
  const outcome = found.token.index as 0 | 1;
  if (!market.acceptingOrders || market.closed) return refused('the market is not accepting orders');
  const venue = market.negRisk ? deployment.contracts.negRiskExchange : deployment.contracts.exchange;

  // Signature: EIP-712 over the server's version and the market's exchange, recovered with ethers.
  const version = deployment.orderVersion;
  let orderId: string;
  try {
    orderId = TypedDataEncoder.hash(
      exchangeDomain(version, deployment.chainId, venue),
      TYPED_ORDER[version],
      signedMessage(version, order),
    );
  } catch {
    return refused('invalid signature');
  }
  // Per account kind (accounts.ts): ECDSA by the key's EOA, or the deposit wallet's ERC-1271.
  const signatureProblem = await signatureRefusal(order, orderId, caller.address, deployment.wallets, state.provider);
  if (signatureProblem) return refused(signatureProblem, orderId);
  const exchange = state.exchanges.get(venue.toLowerCase())!;

  if (state.orders.has(orderId) || state.retired.has(orderId)) return refused('order already exists', orderId);
  let terms: OrderTerms;
  try {
    terms = orderTerms(order, orderType, market);
  } catch (error) {
    if (error instanceof OrderRejected) return refused(error.message, orderId);
    throw error;
  }
  const nowS = state.nowSeconds();
  if (orderType === 'GTD') {
    if (order.expiration < BigInt(nowS + GTD_MIN_LIFETIME_SECONDS)) {
      return refused(
        `invalid expiration: a GTD order must expire at least ${GTD_MIN_LIFETIME_SECONDS} seconds from now`,
        orderId,
      );
    }
  } else if (order.expiration !== 0n) {
    return refused('invalid expiration: only GTD orders may expire', orderId);
  }
  if (postOnly && orderType !== 'GTC' && orderType !== 'GTD')
    return refused('invalid post-only order: only GTC and GTD orders can be post-only', orderId);
  if (version === 1) {
    if (order.taker.toLowerCase() !== ZERO_ADDRESS)
      return refused('invalid order: private orders (taker set) are not supported', orderId);
    // Version 1 signs the market's rate (GET /fee-rate), and the exchange charges it from the signed order.
    const marketBps = BigInt(feeRateBps(market.fees));
    if (order.feeRateBps !== marketBps)
      return refused(
        `invalid user provided fee rate: (${order.feeRateBps}), fee rate for the market must be ${marketBps}`,
        orderId,
      );
  }

  // The chain's answers, asked together (one round trip instead of four) and judged in the order above.
  const contractWallet = order.signatureType === 1 || order.signatureType === 2;
  const [wallet, nonce, status, shortfall] = await Promise.all([
    contractWallet
      ? (exchange.getFunction(order.signatureType === 1 ? 'getPolyProxyWalletAddress' : 'getSafeAddress')(
          order.signer,
        ) as Promise<string>)
      : undefined,
    version === 1 ? (exchange.getFunction('nonces')(order.maker) as Promise<bigint>) : undefined,
    exchange.getFunction('getOrderStatus')(orderId) as Promise<{ isFilledOrCancelled: boolean }>,
    // Balance and allowance on the chain, minus what the maker's open orders already reserve.
    fundsShortfall(state, order, terms, venue, outcome, market),
  ]);
  if (contractWallet && (wallet === ZERO_ADDRESS || wallet!.toLowerCase() !== order.maker.toLowerCase())) {
    return refused(
      `invalid signature: the maker is not the signer's ${order.signatureType === 1 ? 'proxy wallet' : 'safe'}`,
      orderId,
    );
  }
  if (version === 1 && order.nonce !== nonce) return refused('invalid nonce', orderId);
  if (status.isFilledOrCancelled) return refused('order already exists: it is filled or cancelled on chain', orderId);
  if (shortfall) return refused(shortfall, orderId);

  const record: OrderRecord = {
    id: orderId,
    owner: caller.apiKey,
    order,
    terms,
    market,
    outcome,
    tokenId: order.tokenId.toString(),
    venue,
    orderType,
    status: 'LIVE',
    matched: 0n,
    makingRemaining: order.makerAmount,
    createdAt: nowS,
    trades: [],
  };
  const book = state.books.get(market.conditionId)!;
  state.expireBook(book);
  const result = book.submit(
    {
      id: orderId,
      owner: caller.apiKey,
      maker: order.maker,
      outcome,
      side: terms.side,
      price: terms.price,
      size: terms.size,
      type: orderType,
      expiration: Number(order.expiration),
      postOnly,
    },
    nowS,
  );
  if (!result.ok) return refused(result.message, orderId);
  record.resting = result.resting;
  state.orders.set(orderId, record);
  state.live.add(record);
  state.orderEvent(record, 'PLACEMENT');

  let response: OrderResponse = {
    success: true,
    errorMsg: '',
    orderID: orderId,
    status: result.status,
    takingAmount: '0',
    makingAmount: '0',
    transactionsHashes: [],
    tradeIDs: [],
  };
  if (result.fills.length) response = await settle(state, record, result.fills, response);
  if (!result.resting && record.status === 'LIVE') state.setOrderStatus(record, 'MATCHED');
  if (record.matched > 0n) state.orderEvent(record, 'UPDATE');
  state.publishBook(market);
  return response;
}

/** Cancels the caller's orders by id, naming each one it could not cancel and why. */
export function cancelOrders(
  state: ClobState,
  caller: Caller,
  ids: readonly string[],
): { canceled: string[]; not_canceled: Record<string, string> } {
  const canceled: string[] = [];
  const notCanceled: Record<string, string> = {};
  const touched = new Set<CatalogMarket>();
  for (const id of ids) {
    const record = state.orders.get(id);
    if (!record || record.owner !== caller.apiKey) notCanceled[id] = "the order doesn't exist or isn't yours";
    else if (record.status === 'CANCELED') notCanceled[id] = 'order already canceled';
    else if (record.status === 'MATCHED') notCanceled[id] = 'order already fully matched';
    else {
      state.books.get(record.market.conditionId)!.cancel(id);
      state.setOrderStatus(record, 'CANCELED');
      canceled.push(id);
      touched.add(record.market);
    }
  }
  for (const market of touched) state.publishBook(market);
  return { canceled, not_canceled: notCanceled };
}
