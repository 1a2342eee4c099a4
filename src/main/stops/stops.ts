// Client-side stop-losses and take-profits: kept in the data folder (stops.json), armed in main while their
// network is in use, watching the outcome's live book through the shared book feeds. When the best bid reaches a
// stop's level it sells once, a FAK market sell through the normal order path (placeOrder: region, close-only,
// balance and every pre-trade check), tells the trader (a notice and a `stop` event) and is kept as fired.
// They run only while PM Desk is open: they are not orders on the exchange.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { OperationInput, ParsedInput, PlacedOrder, Balances, StopInfo } from '../../shared/contract';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import type { Market } from '@pmdesk/toolkit/model';
import { centsOf, countOf } from '../../shared/words';
import type { EventHub } from '../ipc/event-hub';
import type { MarketSource } from '@pmdesk/toolkit';
import type { Logger } from '@pmdesk/toolkit';
import { KeptFile } from '../watch/kept-file';
import { MarketWatch, type WatchFeeds } from '../watch/market-watch';
import { bookTop } from '../watch/rules';
import { sharesToSell, stopTriggered } from './rules';

export const STOPS_FILE = 'stops.json';
export const RUNS_ONLY_WHILE_OPEN = 'runs only while PM Desk is open';
/** History kept: armed stops always, the last fired or cancelled ones up to this many. */
const HISTORY = 100;

const price = z.number().gt(0).lt(1);
const StopSchema = z.object({
  id: z.string().min(1).max(64),
  network: z.string().min(1).max(64),
  wallet: z.string().min(1).max(64),
  protocol: z.enum(['polymarket', 'limitless', 'truemarket']),
  marketId: z.string().min(1).max(200),
  marketName: z.string().max(500),
  tokenId: z.string().regex(/^\d{1,80}$/),
  outcome: z.string().max(200),
  kind: z.enum(['stop-loss', 'take-profit']),
  level: price,
  size: z.number().positive().nullable(),
  worstPrice: price.nullable(),
  state: z.enum(['armed', 'fired', 'cancelled']),
  createdAt: z.number(),
  firedAt: z.number().nullable(),
  result: z.string().max(1000).nullable(),
  orderId: z.string().max(200).nullable(),
});
export const StopsFileSchema = z.object({ version: z.literal(1), stops: z.array(StopSchema).max(10_000) });
export type StopsFile = z.infer<typeof StopsFileSchema>;

/** The stops file of a data folder (one per terminal, shared by the networks it switches between). */
export const stopsFile = (dataDir: string, logger?: Logger) =>
  new KeptFile<StopsFile>(dataDir, STOPS_FILE, StopsFileSchema, () => ({ version: 1, stops: [] }), logger);

/** The order path a stop sells through: the contract's own trading operations, with all their checks. */
export interface StopTrading {
  placeOrder(input: ParsedInput<'placeOrder'>): Promise<PlacedOrder>;
  getBalances(input: ParsedInput<'getBalances'>): Promise<Balances>;
}

export interface StopServiceOptions {
  hub: EventHub;
  network: string;
  feeds: WatchFeeds;
  markets: Pick<MarketSource, 'getMarket' | 'getOrderBooks'>;
  /** Absent on a network that cannot trade: stops can then be listed, not armed. */
  trading?: StopTrading;
  file: KeptFile<StopsFile>;
  logger?: Logger;
  /** After a sell that could not be placed, the next try waits this long (5 s unless told). */
  retryMs?: number;
  now?: () => number;
}

const KIND_WORDS = { 'stop-loss': 'Stop-loss', 'take-profit': 'Take-profit' } as const;

export class StopService {
  private stops: StopInfo[] = [];
  private readonly watch: MarketWatch;
  private readonly selling = new Set<string>();
  private readonly lastTry = new Map<string, number>();
  private readonly ticks = new Map<string, number>();
  private rearmed: string | null = null;
  private ready: Promise<void> | undefined;
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly options: StopServiceOptions) {
    this.now = options.now ?? Date.now;
    this.watch = new MarketWatch(options.hub, 'main:stops', options.feeds, {
      onBook: (update) => {
        const stale = update.book.stale === true;
        this.evaluate(update.marketId, update.tokenId, stale ? null : bookTop(update.book).bid);
      },
      onWalletLock: (lock) => {
        // A stop that could not sell because its wallet was locked tries again as soon as it is unlocked.
        if (lock.locked) return;
        for (const stop of this.armed()) {
          if (!stop.result) continue;
          this.lastTry.delete(stop.id);
          void this.check(stop);
        }
      },
    });
  }

  /** Loads the kept stops and arms this network's armed ones; says how many were re-armed. */
  start(): Promise<void> {
    this.ready ??= (async () => {
      const file = await this.options.file.read();
      this.stops = file.stops;
      const mine = this.armed();
      if (mine.length === 0 || !this.options.trading) return;
      this.rearmed = `${countOf(mine.length, 'stop')} re-armed (${RUNS_ONLY_WHILE_OPEN}).`;
      for (const stop of mine) this.arm(stop);
    })();
    return this.ready;
  }

  async list(): Promise<{ stops: StopInfo[]; rearmed: string | null }> {
    await this.start();
    const order = (s: StopInfo) => (s.state === 'armed' ? 0 : 1);
    const stops = this.stops
      .filter((s) => s.network === this.options.network)
      .sort((a, b) => order(a) - order(b) || b.createdAt - a.createdAt);
    return { stops: stops.map((s) => ({ ...s })), rearmed: this.rearmed };
  }

  async create(input: ParsedInput<'createStop'>): Promise<StopInfo> {
    await this.start();
    if (!this.options.trading)
      throw new PmDeskError(ErrorCode.INVALID_PARAMETER, 'Stops need trading, which this network does not offer.');
    const market = await this.options.markets.getMarket(input.protocol, input.marketId);
    const token = market.position_tokens.find((t) => t.token_id === input.tokenId);
    if (!token)
      throw invalidParameter(
        `The market "${market.name}" has no outcome with the token id ${input.tokenId.slice(0, 20)}.`,
        'createStop',
      );
    if (input.worstPrice !== undefined && input.kind === 'take-profit' && input.worstPrice > input.level) {
      throw invalidParameter(
        `A take-profit at ${centsOf(input.level)} with a worst price of ${centsOf(input.worstPrice)} could never sell at its level: give a worst price at or below the level.`,
        'createStop',
      );
    }
    // A position to protect: refused when the chain says there is none (a read that fails does not block it).
    const held = await this.held(input.wallet, input.marketId, input.tokenId).catch(() => undefined);
    if (held !== undefined && held <= 0)
      throw invalidParameter(
        `${input.wallet} holds no ${token.name} shares of "${market.name}": there is nothing for a stop to sell.`,
        'createStop',
      );
    // A level the bid is already past would sell at once: that is a market sell, which the ticket places.
    const bid = await this.bestBid(input.protocol, input.marketId, input.tokenId).catch(() => null);
    if (stopTriggered(input.kind, bid, input.level)) {
      throw invalidParameter(
        `The best bid ${centsOf(bid!)} is already ${input.kind === 'stop-loss' ? 'at or below' : 'at or above'} ${centsOf(input.level)}: this ${KIND_WORDS[input.kind].toLowerCase()} would sell at once. Sell from the ticket, or choose another level.`,
        'createStop',
      );
    }
    this.rememberTick(input.tokenId, market);
    const stop: StopInfo = {
      id: randomUUID(),
      network: this.options.network,
      wallet: input.wallet,
      protocol: input.protocol,
      marketId: input.marketId,
      marketName: market.name || market.question,
      tokenId: input.tokenId,
      outcome: token.name,
      kind: input.kind,
      level: input.level,
      size: input.size ?? null,
      worstPrice: input.worstPrice ?? null,
      state: 'armed',
      createdAt: this.now(),
      firedAt: null,
      result: null,
      orderId: null,
    };
    this.stops.push(stop);
    await this.save();
    this.arm(stop);
    this.options.hub.emit('stop', { ...stop });
    return { ...stop };
  }

  async cancel(id: string): Promise<StopInfo> {
    await this.start();
    const stop = this.stops.find((s) => s.id === id && s.network === this.options.network);
    if (!stop) throw new PmDeskError(ErrorCode.NOT_FOUND, 'There is no such stop on this network.');
    if (stop.state === 'armed') {
      stop.state = 'cancelled';
      this.watch.unfollowBook(stop.marketId);
      await this.save();
      this.options.hub.emit('stop', { ...stop });
    }
    return { ...stop };
  }

  /** Stops watching; resolves once the stops file holds every change made before. */
  close(): Promise<void> {
    this.closed = true;
    this.watch.close();
    return this.options.file.settled();
  }

  private armed(): StopInfo[] {
    return this.stops.filter((s) => s.state === 'armed' && s.network === this.options.network);
  }

  /** Follows the outcome's book, and reads it once now: a feed another window already follows sends only changes. */
  private arm(stop: StopInfo): void {
    this.watch.followBook(stop.protocol, stop.marketId);
    if (!this.ticks.has(stop.tokenId)) {
      void this.options.markets
        .getMarket(stop.protocol, stop.marketId)
        .then((market) => this.rememberTick(stop.tokenId, market))
        .catch(() => undefined);
    }
    void this.check(stop);
  }

  private async check(stop: StopInfo): Promise<void> {
    const bid = await this.bestBid(stop.protocol, stop.marketId, stop.tokenId).catch(() => null);
    this.evaluate(stop.marketId, stop.tokenId, bid);
  }

  private evaluate(marketId: string, tokenId: string, bid: number | null): void {
    if (this.closed) return;
    for (const stop of this.armed()) {
      if (stop.marketId !== marketId || stop.tokenId !== tokenId || !stopTriggered(stop.kind, bid, stop.level))
        continue;
      void this.sell(stop, bid!);
    }
  }

  private async sell(stop: StopInfo, bid: number): Promise<void> {
    const trading = this.options.trading;
    if (!trading || this.selling.has(stop.id)) return;
    const last = this.lastTry.get(stop.id);
    if (last !== undefined && this.now() - last < (this.options.retryMs ?? 5_000)) return;
    this.selling.add(stop.id);
    this.lastTry.set(stop.id, this.now());
    const what = `${KIND_WORDS[stop.kind]} on ${stop.outcome} of "${stop.marketName}"`;
    try {
      const held = await this.held(stop.wallet, stop.marketId, stop.tokenId).catch(() => undefined);
      const shares = sharesToSell(stop.size, held ?? stop.size ?? 0);
      if (held !== undefined && shares <= 0) {
        return await this.finish(
          stop,
          `${what} fired (best bid ${centsOf(bid)}, level ${centsOf(stop.level)}) but ${stop.wallet} holds no ${stop.outcome} shares: nothing was sold.`,
          null,
        );
      }
      if (shares <= 0)
        throw new Error(`the position could not be read: ${stop.wallet}'s ${stop.outcome} shares are unknown`);
      const worst = stop.worstPrice ?? this.ticks.get(stop.tokenId) ?? 0.01;
      const placed = await trading.placeOrder({
        wallet: stop.wallet,
        marketId: stop.marketId,
        tokenId: stop.tokenId,
        side: 'SELL',
        orderType: 'FAK',
        price: worst,
        size: shares,
        postOnly: false,
      } satisfies OperationInput<'placeOrder'> as ParsedInput<'placeOrder'>);
      const how =
        placed.status.toLowerCase() === 'matched' ? 'sold' : `placed a sell (${placed.status.toLowerCase()}) of`;
      const message = `${KIND_WORDS[stop.kind]} fired: ${how} ${shares} ${stop.outcome} of "${stop.marketName}" into a best bid of ${centsOf(bid)} (level ${centsOf(stop.level)}, no lower than ${centsOf(worst)}), FAK order ${placed.orderId ?? 'without an id'}.`;
      await this.finish(stop, message, placed.orderId);
    } catch (error) {
      // Still armed: the sell is tried again at the next book change past the level (not sooner than retryMs),
      // and at once when a locked wallet is unlocked. Said once per reason.
      const said = error instanceof PmDeskError ? error.detail : error instanceof Error ? error.message : String(error);
      // The order path's refusal may list its reasons on lines of their own: one sentence here.
      const why = said.replace(/:?\s*\n[-•]?\s*/g, ': ').trim();
      const message = `${what} reached its level (best bid ${centsOf(bid)}) but could not sell: ${why.replace(/\.$/, '')}. It stays armed and tries again while the bid is past its level.`;
      if (stop.result !== message && stop.state === 'armed') {
        stop.result = message;
        await this.save().catch(() => undefined);
        this.options.hub.emit('notice', { wallet: stop.wallet, kind: 'info', message });
        this.options.hub.emit('stop', { ...stop });
      }
    } finally {
      this.selling.delete(stop.id);
    }
  }

  private async finish(stop: StopInfo, message: string, orderId: string | null): Promise<void> {
    if (stop.state !== 'armed') return;
    stop.state = 'fired';
    stop.firedAt = this.now();
    stop.result = message;
    stop.orderId = orderId;
    this.watch.unfollowBook(stop.marketId);
    await this.save().catch((error: unknown) =>
      this.options.logger?.warn(`The stops file could not be written: ${(error as Error).message}`),
    );
    this.options.hub.emit('notice', { wallet: stop.wallet, kind: 'info', message });
    this.options.hub.emit('stop', { ...stop });
  }

  private async held(wallet: string, marketId: string, tokenId: string): Promise<number> {
    if (!this.options.trading) throw new Error('no trading');
    const balances = await this.options.trading.getBalances({ wallet, marketId });
    return balances.outcomes[tokenId] ?? 0;
  }

  private async bestBid(protocol: StopInfo['protocol'], marketId: string, tokenId: string): Promise<number | null> {
    const books = await this.options.markets.getOrderBooks(protocol, marketId);
    const book = books[tokenId];
    return book ? bookTop(book).bid : null;
  }

  private rememberTick(tokenId: string, market: Market): void {
    const tick = Number(market.minimum_tick_size);
    if (tick > 0 && tick < 1) this.ticks.set(tokenId, tick);
  }

  /** Writes the stops, keeping every armed one and the latest history. */
  private async save(): Promise<void> {
    const armed = this.stops.filter((s) => s.state === 'armed');
    const history = this.stops
      .filter((s) => s.state !== 'armed')
      .sort((a, b) => (b.firedAt ?? b.createdAt) - (a.firedAt ?? a.createdAt))
      .slice(0, HISTORY);
    this.stops = [...armed, ...history];
    await this.options.file.update(() => ({ version: 1, stops: this.stops }));
  }
}
