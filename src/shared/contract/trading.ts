// Trading: orders as intents (main turns them into signed orders; nothing here signs bytes the page chose),
// their previews, open orders and trades, the dead-man switch and whether trading is allowed from here.
import { z } from 'zod';
import type { TradingAccess } from '@pmdesk/toolkit/model';
import type { ResultError } from './result';
import { id, label, op, orderId, positive, price, side, tokenId, walletRef } from './inputs';

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
  /** The id joined the pending list (docs/protocol.md#order-flow): it is not matched yet. */
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
    expiration: z
      .number()
      .int()
      .min(0)
      .max(2 ** 40)
      .optional(),
    /** Rest only: refused rather than matched on arrival (GTC/GTD). */
    postOnly: z.boolean().default(false),
  })
  .refine((o) => o.size !== undefined || o.amountUsd !== undefined, { message: 'give a size or a dollar amount' })
  .refine((o) => (o.orderType === 'GTD') === (o.expiration !== undefined), {
    message: 'an expiration goes with GTD orders, and only with them',
  })
  .refine((o) => !o.postOnly || o.orderType === 'GTC' || o.orderType === 'GTD', {
    message: 'post-only goes with GTC and GTD orders',
  });

export const tradingOperations = {
  // Trading (the order flow): intents only, never "sign these bytes"
  previewOrder: op<OrderPreview>()(orderIntent, {
    summary: 'What an order would cost and pay, and every pre-trade check it fails; nothing is signed.',
  }),
  readyOrder: op<{ ready: boolean }>()(orderIntent, {
    summary:
      'Make a limit order ready while its confirmation is open: checked, built and signed in the signer worker, nothing sent; placeOrder of the same order within 15 s posts it as made. False: the click makes it the usual way.',
  }),
  placeOrder: op<PlacedOrder>()(orderIntent, { summary: 'Place an order.' }),
  cancelOrder: op<{ cancelled: string[] }>()(z.strictObject({ wallet: label, orderId }), {
    summary: 'Cancel one order.',
  }),
  cancelAll: op<{ cancelled: string[] }>()(walletRef, { summary: 'Cancel every open order of a wallet.' }),
  cancelMarket: op<{ cancelled: string[] }>()(
    z.strictObject({ wallet: label, marketId: id, tokenId: tokenId.optional() }),
    {
      summary: "Cancel a wallet's open orders in one market.",
    },
  ),
  listOpenOrders: op<OpenOrder[]>()(z.strictObject({ wallet: label, marketId: id.optional() }), {
    summary: "A wallet's open orders.",
  }),
  listTrades: op<TradeInfo[]>()(z.strictObject({ wallet: label, marketId: id.optional() }), {
    summary: "A wallet's trades.",
  }),
  setDeadManSwitch: op<DeadManSwitchInfo>()(z.strictObject({ wallet: label, enabled: z.boolean() }), {
    summary:
      "Turn a wallet's dead-man switch on or off: while on, its open orders are cancelled if this terminal stops answering.",
  }),
  getDeadManSwitch: op<DeadManSwitchInfo>()(walletRef, {
    summary: "Whether a wallet's dead-man switch is on, and its last heartbeat.",
  }),
  getTradingAccess: op<TradingAccessInfo>()(z.strictObject({ wallet: label.optional() }), {
    summary:
      'Whether new orders may be placed from here (region) and, for a wallet, whether its account is in close-only mode.',
  }),
} as const;
