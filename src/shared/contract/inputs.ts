// The pieces the operations' input schemas are built from, and the shape of one operation: small, bounded
// values, so longer or stranger input is refused by its schema before it reaches a service.
import { z } from 'zod';
import { CHART_INTERVALS, PROTOCOLS } from '@pmdesk/toolkit/model';

/** Inputs are small: longer text is refused by its schema before it reaches a service. */
export const id = z.string().trim().min(1).max(200);
export const label = z.string().trim().min(1).max(64);
/** The signer checks strength (8+ characters); here only the shape and a sane upper bound. */
export const password = z.string().min(1).max(1024);
/** The providers the aggregator lists and the candle widths are the toolkit's lists, never a copy that drifts. */
export { PROTOCOLS, type Protocol } from '@pmdesk/toolkit/model';
export const protocol = z.enum(PROTOCOLS).default('polymarket');
export const tokenId = z.string().regex(/^\d{1,80}$/, 'a token id is a decimal number');
export const orderId = z.string().regex(/^0x[0-9a-fA-F]{1,128}$/, 'an order id is 0x-prefixed hex');
export const price = z.number().gt(0).lt(1);
export const positive = z.number().positive().finite().max(1e12);
export const side = z.enum(['BUY', 'SELL']);
export const noInput = z.strictObject({});

/** Candle widths the chart may ask for: a minute to a week (the sources' ChartInterval). */
export const CANDLE_INTERVALS = CHART_INTERVALS;

export interface OperationSpec<I extends z.ZodType = z.ZodType, O = unknown> {
  input: I;
  /** Phantom: the output type, for the typed `window.terminal`. */
  readonly output?: O;
  /** What the trader asks for, in one line (the preload and docs read it). */
  summary: string;
  /** The largest payload this operation accepts, in bytes of JSON; 16 KiB when absent. */
  maxPayloadBytes?: number;
  /** The result path of a `ShownOnce` secret, when the operation hands one out. */
  shownOnce?: string;
}

export function op<O>() {
  return <I extends z.ZodType>(input: I, spec: Omit<OperationSpec<I, O>, 'input' | 'output'>): OperationSpec<I, O> => ({
    input,
    ...spec,
  });
}

export const walletRef = z.strictObject({ wallet: label });
export const httpUrl = z
  .string()
  .trim()
  .max(500)
  .regex(/^https?:\/\/[^\s]+$/, 'a URL starting with http:// or https://');
export const wsUrl = z
  .string()
  .trim()
  .max(500)
  .regex(/^wss?:\/\/[^\s]+$/, 'a URL starting with ws:// or wss://');
