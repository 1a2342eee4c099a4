// Orders and trades as Polymarket's protocol shows them (GET /data/orders, /data/trades, the user channel and a
// market's public live activity): one shape per record, shared by the REST routes and the WebSocket events so
// the two never disagree.
import { feeRateBps } from '../market/fees';
import { priceString, sharesString } from './book-snapshot';
import type { OrderRecord, TradeRecord } from './records';

export function openOrderJson(o: OrderRecord) {
  return {
    id: o.id,
    status: o.status,
    owner: o.owner,
    maker_address: o.order.maker,
    market: o.market.conditionId,
    asset_id: o.tokenId,
    side: o.terms.side,
    original_size: sharesString(o.terms.size),
    size_matched: sharesString(o.matched),
    price: priceString(o.terms.price),
    associate_trades: [...o.trades],
    outcome: o.market.tokens[o.outcome].name,
    created_at: o.createdAt,
    expiration: o.order.expiration.toString(),
    order_type: o.orderType,
  };
}

/** A trade as `viewer` (an API key) sees it: TAKER when its order took, else MAKER. */
export function tradeJson(t: TradeRecord, viewer: string) {
  return {
    id: t.id,
    taker_order_id: t.takerOrderId,
    market: t.market.conditionId,
    asset_id: t.tokenId,
    side: t.side,
    size: sharesString(t.shares),
    // The taker's rate; makers pay none (Polymarket's fees are taker-only).
    fee_rate_bps: String(feeRateBps(t.market.fees)),
    price: priceString(t.price),
    status: t.status,
    match_time: String(t.matchTime),
    last_update: String(t.lastUpdate),
    outcome: t.market.tokens[t.outcome].name,
    bucket_index: 0,
    owner: t.owner,
    maker_address: t.makerAddress,
    maker_orders: t.makers.map((m) => ({
      order_id: m.orderId,
      owner: m.owner,
      maker_address: m.makerAddress,
      matched_amount: sharesString(m.shares),
      price: priceString(m.price),
      fee_rate_bps: '0',
      asset_id: m.tokenId,
      outcome: t.market.tokens[m.outcome].name,
      side: m.side,
    })),
    transaction_hash: t.transactionHash,
    err_msg: t.errMsg,
    trader_side: t.owner === viewer ? 'TAKER' : 'MAKER',
  };
}

/**
 * One print of a trade as the public sees it in a market's live activity (clob-client-v2's MarketTradeEvent): the
 * taker's side and outcome, the price of one level it took and the shares taken there (public-trades.ts prints a
 * several-level trade once per level, never at its average), and the taker's trading address as the user. The
 * sandbox keeps no profiles, so name, pseudonym and pictures are empty, as Polymarket's are for a wallet without one.
 */
export function marketTradeEventJson(t: TradeRecord, print: { price: number; size: number }) {
  return {
    event_type: 'trade',
    market: {
      condition_id: t.market.conditionId,
      asset_id: t.tokenId,
      question: t.market.question,
      icon: '',
      slug: t.market.slug,
    },
    user: { address: t.makerAddress, username: '', profile_picture: '', optimized_profile_picture: '', pseudonym: '' },
    side: t.side,
    size: String(print.size),
    fee_rate_bps: String(feeRateBps(t.market.fees)),
    price: String(print.price),
    outcome: t.market.tokens[t.outcome].name,
    outcome_index: t.outcome,
    transaction_hash: t.transactionHash,
    timestamp: String(t.matchTime),
  };
}
