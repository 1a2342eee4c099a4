// The sandbox CLOB's state in the data folder: API keys, orders, trades and notifications as one JSON file
// (bigints as decimal strings), so a restart keeps what traders registered, rested and traded.
import { randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { ExchangeOrder } from '../chain/order-typed-data';
import type { Catalog } from '../market/catalog';
import type { OrderType, RestingOrder, Side } from './engine';
import type { ApiCredentials } from './auth';
import type { OrderStatus, TradeStatus } from './records';

/** Bumped whenever the shape below changes: an older file is refused rather than half understood. */
export const CLOB_STATE_VERSION = 1;

type Bigs<T> = { [K in keyof T]: T[K] extends bigint ? string : T[K] };

export interface SavedOrder {
  id: string;
  owner: string;
  order: Bigs<ExchangeOrder>;
  terms: { side: Side; collateral: string; shares: string; price: number; size: string };
  conditionId: string;
  outcome: 0 | 1;
  venue: string;
  orderType: OrderType;
  status: OrderStatus;
  matched: string;
  makingRemaining: string;
  createdAt: number;
  trades: string[];
  /** Only for LIVE orders: the book entry with its time priority (`seq`) and what is left of it. */
  resting?: Bigs<RestingOrder>;
}

export interface SavedTrade {
  id: string;
  takerOrderId: string;
  conditionId: string;
  tokenId: string;
  outcome: 0 | 1;
  side: Side;
  shares: string;
  price: number;
  status: TradeStatus;
  matchTime: number;
  lastUpdate: number;
  owner: string;
  makerAddress: string;
  makers: {
    orderId: string;
    owner: string;
    makerAddress: string;
    shares: string;
    price: number;
    tokenId: string;
    outcome: 0 | 1;
    side: Side;
  }[];
  transactionHash: string;
  errMsg: string | null;
}

export interface SavedClobState {
  version: number;
  /** Which exchange the orders were signed for: a state from another deployment is refused. */
  chainId: number;
  exchange: string;
  orderVersion: number;
  apiKeys: (ApiCredentials & { address: string; nonce: string })[];
  /** Every order the server still knows, in the order it learnt them. */
  orders: SavedOrder[];
  /** Ids of finished orders in the order they finished (what `retain` forgets first). */
  finished: string[];
  /** Ids already forgotten: still refused if posted again. */
  retired: string[];
  trades: SavedTrade[];
  notifications: { id: number; type: number; owner: string; payload: Record<string, unknown>; timestamp: number }[];
  notificationSeq: number;
}

export type StateRead = { state: SavedClobState } | { missing: true } | { refused: string };

const ORDER_BIGINTS = [
  'salt',
  'tokenId',
  'makerAmount',
  'takerAmount',
  'expiration',
  'nonce',
  'feeRateBps',
  'timestamp',
] as const;

export function saveOrder(order: ExchangeOrder): Bigs<ExchangeOrder> {
  const out = { ...order } as unknown as Record<string, unknown>;
  for (const k of ORDER_BIGINTS) out[k] = order[k].toString();
  return out as Bigs<ExchangeOrder>;
}

export function loadOrder(saved: Bigs<ExchangeOrder>): ExchangeOrder {
  const out = { ...saved } as unknown as Record<string, unknown>;
  for (const k of ORDER_BIGINTS) out[k] = big(saved[k]);
  for (const k of ['maker', 'signer', 'taker', 'metadata', 'builder', 'signature'] as const) text(saved[k], k);
  return out as unknown as ExchangeOrder;
}

export function saveResting(r: RestingOrder): Bigs<RestingOrder> {
  return { ...r, size: r.size.toString(), remaining: r.remaining.toString() };
}

export function loadResting(saved: Bigs<RestingOrder>): RestingOrder {
  if (!Number.isInteger(saved.seq) || !Number.isInteger(saved.price))
    throw new Error(`order ${saved.id}: bad book entry`);
  return { ...saved, size: big(saved.size), remaining: big(saved.remaining) };
}

/** A decimal string back to a bigint; anything else is a corrupt file. */
export function big(value: unknown): bigint {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value))
    throw new Error(`not a decimal integer: ${JSON.stringify(value)}`);
  return BigInt(value);
}

function text(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new Error(`${name} is not a string`);
  return value;
}

/** Reads and checks the file; never throws: a missing file is a first start, anything unreadable is refused with why. */
export async function readClobState(
  file: string,
  expected: { chainId: number; exchange: string; orderVersion: number },
  catalog: Catalog,
): Promise<StateRead> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true };
    return { refused: `unreadable (${(error as Error).message})` };
  }
  let state: SavedClobState;
  try {
    state = JSON.parse(raw) as SavedClobState;
  } catch (error) {
    return { refused: `not valid JSON (${(error as Error).message})` };
  }
  if (!state || typeof state !== 'object') return { refused: 'not a JSON object' };
  if (state.version !== CLOB_STATE_VERSION)
    return { refused: `version ${JSON.stringify(state.version)}, this sandbox reads version ${CLOB_STATE_VERSION}` };
  if (
    state.chainId !== expected.chainId ||
    state.orderVersion !== expected.orderVersion ||
    String(state.exchange).toLowerCase() !== expected.exchange.toLowerCase()
  ) {
    return {
      refused: `saved for another deployment (chain ${state.chainId}, exchange ${state.exchange}, order version ${state.orderVersion})`,
    };
  }
  for (const list of ['apiKeys', 'orders', 'finished', 'retired', 'trades', 'notifications'] as const) {
    if (!Array.isArray(state[list])) return { refused: `"${list}" is missing or not a list` };
  }
  if (!Number.isInteger(state.notificationSeq)) return { refused: '"notificationSeq" is missing' };
  for (const o of state.orders) {
    if (!o || typeof o !== 'object' || typeof o.id !== 'string' || !catalog.marketByCondition(o.conditionId)) {
      return { refused: `order ${JSON.stringify((o as { id?: unknown } | null)?.id)} names no market of this sandbox` };
    }
  }
  return { state };
}

/** Writes the whole state to a temp file and renames it over the old one: a reader sees the old file or the new one. */
export async function writeClobState(file: string, state: SavedClobState): Promise<void> {
  const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  try {
    await writeFile(temp, JSON.stringify(state), { mode: 0o600 });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
