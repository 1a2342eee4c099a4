// Busy books for the latency and soak benches: one outcome's book of a sandbox market moved from Node at a set
// rate and published on the sandbox CLOB's own /ws/market (price_change deltas, hashed as the exchange hashes
// them), each message stamped with its send time in the book's `timestamp` (epoch ms, as Polymarket sends it).
// The terminal follows the book through its real feed; the ladder shows the drawn book's timestamp in
// `data-book-ts`, which the page reads back after each paint. No order flow reaches these rates (every order
// is signed and matched), hence ClobServer.publishBooks.
import { createHash } from 'node:crypto';
import type { ClobServer } from '../sandbox/clob/server';
import type { CatalogMarket } from '../sandbox/market/catalog';
import type { BookSnapshot } from '../sandbox/market/market-data';

type Level = { price: string; size: string };

/** Levels a side; 40 fit on a 1¢ tick around 50¢ with room for the best prices to move. */
export const LEVELS = 40;

/**
 * Each level's JSON, written once: a step replaces two or three level objects and keeps the rest, so the summary
 * the hash covers is mostly these strings joined (JSON.stringify of the whole book on every message was the
 * largest part of what the exchange process spent driving the books).
 */
const levelJson = new WeakMap<Level, string>();
function jsonOf(level: Level): string {
  let text = levelJson.get(level);
  if (text === undefined) {
    text = JSON.stringify(level);
    levelJson.set(level, text);
  }
  return text;
}

/** Sizes in hundredths of a share, written as the exchange writes them ("123.4", "50"). */
function sizeText(hundredths: number): string {
  return String(hundredths / 100);
}

/** A price in ticks as the exchange writes it ("0.49", "0.5", "0.125"). */
function priceText(ticks: number, tick: number, decimals: number): string {
  return String(Number((ticks * tick).toFixed(decimals)));
}

/**
 * One outcome book that moves like a busy market's: each update changes a couple of sizes near the top, and
 * now and then empties or refills a best level, so the spread moves too. Deterministic (its own generator).
 */
export class BusyBook {
  readonly tokenId: string;
  /** Best level last on both sides, as the CLOB lists them. */
  private bids: Level[];
  private asks: Level[];
  private readonly fixed: Pick<BookSnapshot, 'min_order_size' | 'tick_size' | 'neg_risk' | 'last_trade_price'>;
  /** The summary's JSON around its timestamp and levels (its fields in GET /book's order, `hash` empty). */
  private readonly jsonHead: string;
  private readonly jsonTail: string;
  private seed: number;
  private lastTimestamp = 0;
  /** Updates published so far. */
  sent = 0;

  constructor(
    private readonly clob: Pick<ClobServer, 'publishBooks'>,
    private readonly market: Pick<CatalogMarket, 'conditionId' | 'tokens' | 'tickSize' | 'negRisk'>,
    options: { outcome?: 0 | 1; seed?: number; minOrderSize?: string } = {},
  ) {
    this.tokenId = market.tokens[options.outcome ?? 0].tokenId;
    this.seed = options.seed ?? 1;
    const tick = Number(market.tickSize);
    const decimals = market.tickSize.split('.')[1]?.length ?? 0;
    const mid = Math.round(0.5 / tick);
    const level = (ticks: number) => ({
      price: priceText(ticks, tick, decimals),
      size: sizeText(1000 + this.random(100_000)),
    });
    // Worst first: bids from mid-n up to mid-1, asks from mid+n down to mid+1 (fewer on a coarse tick).
    const n = Math.min(LEVELS, mid - 1);
    this.bids = Array.from({ length: n }, (_, i) => level(mid - n + i));
    this.asks = Array.from({ length: n }, (_, i) => level(mid + n - i));
    this.fixed = {
      min_order_size: options.minOrderSize ?? '5',
      tick_size: market.tickSize,
      neg_risk: market.negRisk,
      last_trade_price: '',
    };
    this.jsonHead = `{"market":${JSON.stringify(market.conditionId)},"asset_id":${JSON.stringify(this.tokenId)},"timestamp":`;
    this.jsonTail = `,${JSON.stringify(this.fixed).slice(1)}`;
  }

  /** The book now, stamped `timestamp` (never earlier than the last one: the feed drops older messages). */
  snapshot(timestamp: number): BookSnapshot {
    this.lastTimestamp = Math.max(this.lastTimestamp, timestamp);
    const summary = {
      market: this.market.conditionId,
      asset_id: this.tokenId,
      timestamp: String(this.lastTimestamp),
      hash: '',
      bids: this.bids,
      asks: this.asks,
      ...this.fixed,
    };
    // bookHash(summary), from the levels' JSON kept between steps (tests/unit/bench-busy-books.test.ts holds them equal).
    const json = `${this.jsonHead}${JSON.stringify(summary.timestamp)},"hash":"","bids":[${this.bids.map(jsonOf).join(',')}],"asks":[${this.asks.map(jsonOf).join(',')}]${this.jsonTail}`;
    return { ...summary, hash: createHash('sha1').update(json).digest('hex') };
  }

  /** Moves the book one step and publishes it on /ws/market, stamped now. */
  publish(): void {
    this.step();
    this.clob.publishBooks(this.market.conditionId, [this.snapshot(Date.now())]);
    this.sent += 1;
  }

  /** Publishes the book as it is (the first state a page opens on). */
  publishCurrent(): void {
    this.clob.publishBooks(this.market.conditionId, [this.snapshot(Date.now())]);
  }

  /** Two size changes in the top ten levels of either side; one time in ten a best level empties or comes back. */
  private step(): void {
    // New arrays each step: the sandbox keeps the last published snapshot to diff the next one from.
    this.bids = [...this.bids];
    this.asks = [...this.asks];
    for (let k = 0; k < 2; k++) {
      const side = this.random(2) === 0 ? this.bids : this.asks;
      const at = side.length - 1 - this.random(Math.min(10, side.length));
      side[at] = { price: side[at]!.price, size: sizeText(1000 + this.random(100_000)) };
    }
    if (this.random(10) === 0) {
      const bidsSide = this.random(2) === 0;
      const side = bidsSide ? this.bids : this.asks;
      const tick = Number(this.market.tickSize);
      const decimals = this.market.tickSize.split('.')[1]?.length ?? 0;
      const best = Math.round(Number(side.at(-1)!.price) / tick);
      const mid = Math.round(0.5 / tick);
      // Between one tick and two off the middle: the book never crosses and never thins out.
      if (bidsSide ? best === mid - 1 : best === mid + 1) side.pop();
      else
        side.push({
          price: priceText(bidsSide ? best + 1 : best - 1, tick, decimals),
          size: sizeText(1000 + this.random(100_000)),
        });
    }
  }

  /** 0 ≤ n < below, from a small linear congruential generator. */
  private random(below: number): number {
    this.seed = (Math.imul(this.seed, 1_103_515_245) + 12_345) >>> 0;
    return (this.seed >>> 8) % below;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Publishes `rate` updates a second on each book for `seconds`, paced by the clock rather than by a timer's
 * promise (a driver that fell behind catches up). Returns the updates sent and the seconds it really took.
 */
export async function driveBooks(
  books: readonly BusyBook[],
  rate: number,
  seconds: number,
  stop?: () => boolean,
): Promise<{ sent: number; seconds: number }> {
  const total = Math.round(rate * seconds);
  const started = performance.now();
  let sent = 0;
  while (sent < total && !stop?.()) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
    for (; sent < due; sent++) for (const book of books) book.publish();
    await sleep(1);
  }
  return { sent: sent * books.length, seconds: (performance.now() - started) / 1000 };
}

/** The p-th percentile (nearest rank) of `values`; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** How far a clock read by `read` (epoch ms) is ahead of Date.now(): the reading with the shortest round trip. */
export async function clockOffset(
  read: () => Promise<number>,
  rounds = 15,
): Promise<{ offsetMs: number; rttMs: number }> {
  let best = { offsetMs: 0, rttMs: Infinity };
  for (let i = 0; i < rounds; i++) {
    const before = performance.timeOrigin + performance.now();
    const other = await read();
    const after = performance.timeOrigin + performance.now();
    if (after - before < best.rttMs) best = { offsetMs: other - (before + after) / 2, rttMs: after - before };
  }
  // Against Node's high-resolution epoch: the clock Date.now() reads to the millisecond.
  return best;
}
