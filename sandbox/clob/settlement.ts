// Settlement of a match ON the chain: one matchOrders by the operator per taker, the trade's record and its
// statuses (MATCHED → MINED → CONFIRMED, or RETRYING/FAILED with the makers put back), then the book-keeping
// that follows the chain: what each order made and matched, fill notifications and both outcome tapes. On a
// market with fees, orders of version 2 and 3 (which sign no fee) pay the taker fee set here at match time.
import { randomUUID } from 'node:crypto';
import { TX_OVERRIDES } from '../chain/deploy';
import type { ExchangeOrder } from '../chain/order-typed-data';
import type { CatalogMarket } from '../market/catalog';
import { feeRateBps, takerFee } from '../market/fees';
import { priceString, sharesString } from './book-snapshot';
import { PRICE_ONE, type Fill } from './engine';
import { forgetBalances, fundsShortfall } from './funds';
import { holdShareViews } from './share-views';
import { formatUnits, settlementPlan, type PlanOrder } from './order-rules';
import { NOTIFY_CANCEL, NOTIFY_FILL, refused, type OrderRecord, type OrderResponse, type TradeRecord } from './records';
import type { ClobState } from './state';

/** Settles a taker's fills with one matchOrders; marks trades MATCHED → MINED → CONFIRMED, or FAILED and restores the makers. */
export async function settle(
  state: ClobState,
  taker: OrderRecord,
  fills: Fill[],
  response: OrderResponse,
): Promise<OrderResponse> {
  const makers = new Map<string, PlanOrder>();
  const makerRecords = new Map<string, OrderRecord>();
  for (const fill of fills) {
    const record = state.orders.get(fill.makerId)!;
    makerRecords.set(record.id, record);
    makers.set(record.id, {
      side: record.terms.side,
      makerAmount: record.order.makerAmount,
      takerAmount: record.order.takerAmount,
      makingRemaining: record.makingRemaining,
    });
  }
  let plan: ReturnType<typeof settlementPlan>;
  try {
    plan = settlementPlan(
      {
        side: taker.terms.side,
        makerAmount: taker.order.makerAmount,
        takerAmount: taker.order.takerAmount,
        makingRemaining: taker.makingRemaining,
      },
      makers,
      fills,
    );
  } catch (error) {
    // A match the contract would refuse is a server bug: nothing is sent, the book is put back, the order refused.
    console.error('[sandbox clob] settlement plan refused', error);
    await restoreAfterFailure(state, taker, fills, makerRecords);
    return refused(`settlement failed: ${error instanceof Error ? error.message : String(error)}`, taker.id);
  }
  // Version 1 orders sign their fee rate (charged by the contract); later versions pay the market's, set here.
  const fee = state.options.deployment.orderVersion === 1 ? 0n : takerFee(taker.market.fees, fills);
  const feeShort =
    fee > 0n && taker.terms.side === 'BUY'
      ? await buyerShortOfFee(state, taker, plan.takerFillAmount + fee)
      : undefined;
  if (feeShort) {
    await restoreAfterFailure(state, taker, fills, makerRecords);
    return refused(feeShort, taker.id);
  }
  const nowS = state.nowSeconds();
  const shares = fills.reduce((sum, f) => sum + f.shares, 0n);
  const takerPaid = plan.takerFillAmount;
  const trade: TradeRecord = {
    id: randomUUID(),
    takerOrderId: taker.id,
    market: taker.market,
    tokenId: taker.tokenId,
    outcome: taker.outcome,
    side: taker.terms.side,
    shares,
    price: Number(fills.reduce((sum, f) => sum + f.shares * BigInt(f.takerPrice), 0n) / shares),
    status: 'MATCHED',
    matchTime: nowS,
    lastUpdate: nowS,
    owner: taker.owner,
    makerAddress: taker.order.maker,
    makers: plan.legs.map((leg) => {
      const m = makerRecords.get(leg.makerId)!;
      return {
        orderId: m.id,
        owner: m.owner,
        makerAddress: m.order.maker,
        shares: leg.shares,
        price: leg.makerPrice,
        tokenId: m.tokenId,
        outcome: m.outcome,
        side: m.terms.side,
      };
    }),
    transactionHash: '',
    errMsg: null,
  };
  state.recordTrade(trade);
  taker.trades.push(trade.id);
  for (const m of makerRecords.values()) m.trades.push(trade.id);

  const exchange = state.exchanges.get(taker.venue.toLowerCase())!;
  const tuple = (o: ExchangeOrder) => ({ ...o });
  const fault = state.settlementFault;
  state.settlementFault = undefined;
  try {
    for (let retry = 0; retry < (fault?.retries ?? 0); retry++) state.setTradeStatus(trade, 'RETRYING');
    if (fault?.fail) throw new Error('settlement failed after retries (sandbox fault)');
    const args = [
      tuple(taker.order),
      plan.legs.map((leg) => tuple(makerRecords.get(leg.makerId)!.order)),
      plan.takerFillAmount,
      plan.legs.map((leg) => leg.fillAmount),
    ];
    // The wallets that receive shares keep the exchange's view of them from before the fill (when modelled).
    const buyers = [taker, ...makerRecords.values()]
      .filter((o) => o.terms.side === 'BUY')
      .map((o) => ({ owner: o.order.maker, tokenId: o.tokenId }));
    await holdShareViews(state, buyers);
    const data =
      fee > 0n
        ? exchange.interface.encodeFunctionData('matchOrdersWithFee', [...args, fee])
        : exchange.interface.encodeFunctionData('matchOrders', args);
    trade.transactionHash = await sendAsOperator(state, await exchange.getAddress(), data, plan.legs.length);
    const receipt = await receiptOf(state, trade.transactionHash);
    if (receipt.status !== '0x1') throw new Error('settlement transaction reverted');
    state.setTradeStatus(trade, 'MINED');
    // Anvil mines on receipt and nothing reorganises it: confirmed as soon as mined, in the same instant.
    state.setTradeStatus(trade, 'CONFIRMED', trade.lastUpdate);
  } catch (error) {
    trade.errMsg = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 300) : String(error);
    state.setTradeStatus(trade, 'FAILED');
    await restoreAfterFailure(state, taker, fills, makerRecords);
    return { ...refused(`settlement failed: ${trade.errMsg}`, taker.id), tradeIDs: [trade.id] };
  }

  // Book-keeping follows the chain: what each order made, what it matched, the fills on both tapes.
  taker.makingRemaining -= plan.takerFillAmount;
  taker.matched += shares;
  for (const leg of plan.legs) {
    const m = makerRecords.get(leg.makerId)!;
    m.makingRemaining -= leg.fillAmount;
    m.matched += leg.shares;
    if (!state.books.get(m.market.conditionId)!.order(m.id)) state.setOrderStatus(m, 'MATCHED');
    state.notify(m.owner, NOTIFY_FILL, {
      order_id: m.id,
      trade_id: trade.id,
      matched_amount: sharesString(leg.shares),
      price: priceString(leg.makerPrice),
    });
  }
  for (const m of makerRecords.values()) state.orderEvent(m, 'UPDATE');
  for (const fill of fills) recordTape(state, taker.market, taker.outcome, taker.terms.side, fill, nowS);
  for (const address of [taker.order.maker, ...[...makerRecords.values()].map((m) => m.order.maker)])
    forgetBalances(state, address);
  const taking = plan.takerReceives;
  return {
    ...response,
    status: 'matched',
    makingAmount: formatUnits(takerPaid),
    takingAmount: formatUnits(taking),
    transactionsHashes: [trade.transactionHash],
    tradeIDs: [trade.id],
  };
}

/**
 * A buying taker pays the platform fee on top of the price, from the same balance and allowance: the refusal
 * traders know when the two together are more than it has, else undefined.
 */
async function buyerShortOfFee(state: ClobState, taker: OrderRecord, need: bigint): Promise<string | undefined> {
  const [balance, allowance] = (await Promise.all([
    state.collateral.getFunction('balanceOf')(taker.order.maker),
    state.collateral.getFunction('allowance')(taker.order.maker, taker.venue),
  ])) as [bigint, bigint];
  const have = balance < allowance ? balance : allowance;
  if (have >= need) return undefined;
  return `not enough balance / allowance: ${balance < allowance ? 'balance' : 'allowance'} ${formatUnits(have)} available, ${formatUnits(need)} needed by this order and its taker fee`;
}

/**
 * Signs and sends one operator transaction. The call is run first (eth_call), so a settlement that would
 * revert fails here with the contract's reason and never reaches a block; the gas limit is a generous bound
 * per leg (a leg costs at most about 270 000 gas) rather than an estimate, which anvil finds by bisection.
 */
async function sendAsOperator(state: ClobState, to: string, data: string, legs: number): Promise<string> {
  const from = state.operator.address;
  const gasLimit = BigInt(Math.min(25_000_000, 250_000 + 400_000 * legs));
  const [, nonce] = await Promise.all([
    state.provider.call({ from, to, data, gasLimit }),
    state.provider.getTransactionCount(from, 'pending'),
  ]);
  const signed = await state.operator.signTransaction({
    ...TX_OVERRIDES,
    chainId: state.options.deployment.chainId,
    nonce,
    to,
    data,
    gasLimit,
  });
  return (await state.provider.send('eth_sendRawTransaction', [signed])) as string;
}

/** The receipt of a transaction, asked for at once and then every few milliseconds (anvil mines on receipt). */
async function receiptOf(state: ClobState, hash: string): Promise<{ status: string }> {
  for (let attempt = 0; ; attempt++) {
    const receipt = (await state.provider.send('eth_getTransactionReceipt', [hash])) as { status: string } | null;
    if (receipt) return receipt;
    if (attempt > 2000) throw new Error(`no receipt for ${hash}`);
    await new Promise((resolve) => setTimeout(resolve, attempt < 10 ? 2 : 25));
  }
}

/**
 * After a reverted settlement nothing moved on the chain: makers that can still cover their orders get their
 * shares back on the book (same price, same time priority); the others are cancelled. The taker's unfilled
 * part is not retried: its answer says the settlement failed.
 */
async function restoreAfterFailure(
  state: ClobState,
  taker: OrderRecord,
  fills: Fill[],
  makers: Map<string, OrderRecord>,
): Promise<void> {
  const book = state.books.get(taker.market.conditionId)!;
  book.cancel(taker.id);
  state.setOrderStatus(taker, 'CANCELED');
  for (const fill of fills) {
    const m = makers.get(fill.makerId)!;
    if (!m.resting) continue;
    book.restore(m.resting, fill.shares);
    state.setOrderStatus(m, 'LIVE');
    // Restored first, then judged with every open order of its maker counted, itself included.
    const short = await fundsShortfall(state, m.order, m.terms, m.venue, m.outcome, m.market, 0n).catch(
      () => 'chain unavailable',
    );
    if (short) {
      book.cancel(m.id);
      state.setOrderStatus(m, 'CANCELED');
      state.notify(m.owner, NOTIFY_CANCEL, { order_id: m.id, reason: short });
    }
  }
}

/** Both outcome tapes and both last-trade prices, for one fill. */
function recordTape(
  state: ClobState,
  market: CatalogMarket,
  takerOutcome: 0 | 1,
  takerSide: 'BUY' | 'SELL',
  fill: Fill,
  timestamp: number,
): void {
  const volumeBase = Number(fill.shares) / 1e6;
  const price = fill.takerPrice / PRICE_ONE;
  const data = state.options.marketData;
  // Both outcome tapes agree: the taker's token at its price, the complement at 1 − price.
  data.recordFill(market.tokens[takerOutcome].tokenId, { price, volumeBase, timestamp });
  data.recordFill(
    market.tokens[1 - takerOutcome]!.tokenId,
    { price: (PRICE_ONE - fill.takerPrice) / PRICE_ONE, volumeBase, timestamp },
    { mirror: true },
  );
  // Buying one outcome at p is selling the other at 1 − p: each token's last_trade_price says so.
  const common = {
    market: market.conditionId,
    size: sharesString(fill.shares),
    timestamp: String(state.now()),
    fee_rate_bps: String(feeRateBps(market.fees)),
  };
  state.feed?.lastTrade({
    ...common,
    asset_id: market.tokens[takerOutcome].tokenId,
    price: priceString(fill.takerPrice),
    side: takerSide,
  });
  state.feed?.lastTrade({
    ...common,
    asset_id: market.tokens[1 - takerOutcome]!.tokenId,
    price: priceString(PRICE_ONE - fill.takerPrice),
    side: takerSide === 'BUY' ? 'SELL' : 'BUY',
  });
}
