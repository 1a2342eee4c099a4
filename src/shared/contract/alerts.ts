// Alerts and client-side stops: what they watch, how main keeps them, and the operations that set and clear
// them (evaluated in main; they run only while PM Desk is open).
import { z } from 'zod';
import { id, label, noInput, op, positive, price, protocol, tokenId, type Protocol } from './inputs';

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

export const alertOperations = {
  // Alerts and client-side stops (evaluated in main; they run only while PM Desk is open)
  listAlerts: op<{ alerts: AlertInfo[]; log: AlertLogEntry[] }>()(noInput, {
    summary: 'The alerts set on this network and the alert log (newest first).',
  }),
  createAlert: op<AlertInfo>()(alertIntent, {
    summary: 'Set an alert: a price crossing a level, a spread, a volume spike, a fill of mine, a market resolving.',
  }),
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
  cancelStop: op<StopInfo>()(z.strictObject({ id }), {
    summary: 'Disarm a stop; it stays in the history as cancelled.',
  }),
} as const;
