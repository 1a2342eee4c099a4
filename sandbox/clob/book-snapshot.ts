// Books as Polymarket's CLOB serves them (GET /book): decimal strings, bids worst-to-best and asks
// worst-to-best (the best level last, which the official clients' market-price walk relies on), and the
// hash: sha1 over the summary's JSON with `hash` empty.
import { createHash } from 'node:crypto';
import type { BookSnapshot } from '../market/market-data';
import { PRICE_ONE, type BookLevel } from './engine';

/** 1e-4 price units as the shortest decimal string ("0.45", "0.0025"). */
export function priceString(units: number): string {
  return trimDecimal((units / PRICE_ONE).toFixed(4));
}

/** Base units (6 decimals) as the shortest decimal string ("12.5"). */
export function sharesString(baseUnits: bigint): string {
  const whole = baseUnits / 1_000_000n;
  const fraction = (baseUnits % 1_000_000n).toString().padStart(6, '0');
  return trimDecimal(`${whole}.${fraction}`);
}

function trimDecimal(text: string): string {
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** sha1 of the summary's JSON with an empty hash: what the server sends and a client can recompute. */
export function bookHash(book: Omit<BookSnapshot, 'hash'> & { hash?: string }): string {
  return createHash('sha1')
    .update(JSON.stringify({ ...book, hash: '' }))
    .digest('hex');
}

type Level = { price: string; size: string };

/**
 * The levels whose size changed on one side, as a price_change lists them: each level of `after` whose size is
 * new (in `after`'s order), then each price gone from it with size "0". A book whose prices all stayed in their
 * places (the usual change: sizes only) is compared place by place, without a map of the old side.
 */
export function levelChanges(
  before: readonly Level[],
  after: readonly Level[],
  side: 'BUY' | 'SELL',
): { price: string; size: string; side: 'BUY' | 'SELL' }[] {
  const out: { price: string; size: string; side: 'BUY' | 'SELL' }[] = [];
  if (before.length === after.length && before.every((l, i) => l.price === after[i]!.price)) {
    after.forEach((l, i) => {
      if (before[i]!.size !== l.size) out.push({ price: l.price, size: l.size, side });
    });
    return out;
  }
  const old = new Map(before.map((l) => [l.price, l.size]));
  for (const l of after) {
    if (old.get(l.price) !== l.size) out.push({ price: l.price, size: l.size, side });
    old.delete(l.price);
  }
  for (const price of old.keys()) out.push({ price, size: '0', side });
  return out;
}

export interface SnapshotInput {
  conditionId: string;
  tokenId: string;
  levels: { bids: BookLevel[]; asks: BookLevel[] };
  minOrderSize: number;
  tickSize: string;
  negRisk: boolean;
  lastTradePrice?: number;
  timestamp: number;
}

export function bookSnapshot(input: SnapshotInput): BookSnapshot {
  const level = (l: BookLevel) => ({ price: priceString(l.price), size: sharesString(l.size) });
  // Engine levels come best first; the CLOB lists the best level last on both sides.
  const summary = {
    market: input.conditionId,
    asset_id: input.tokenId,
    timestamp: String(input.timestamp),
    hash: '',
    bids: [...input.levels.bids].reverse().map(level),
    asks: [...input.levels.asks].reverse().map(level),
    min_order_size: String(input.minOrderSize),
    tick_size: input.tickSize,
    neg_risk: input.negRisk,
    last_trade_price: input.lastTradePrice === undefined ? '' : String(input.lastTradePrice),
  };
  return { ...summary, hash: bookHash(summary) };
}
