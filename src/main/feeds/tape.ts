// One market's trade tape and candles, from the market-data source's fill stream (resubscribed with backoff
// here, since a source never reconnects on its own) and the exchange's `last_trade_price`: a visible gap marker
// covers the time the stream was down, and the candles of that gap are refilled from the fill history.
import type { Candle, TradeRecord } from '@pmdesk/toolkit/model';
import { generateCandles } from '@pmdesk/toolkit';
import type { SourceFillHandlers as FillHandlers, SourceFillSubscription as FillSubscription } from '@pmdesk/toolkit';
import type { PmDeskError } from '@pmdesk/toolkit/model';
import type { LastTrade } from './market-feed';
import { realScheduler, type Scheduler } from './scheduler';
import { MAX_RECONNECT_BACKOFF_MS } from './redial';

export type TapeEntry =
  /** `source`: the market-data source's fill stream; `exchange`: the exchange's market WebSocket. */
  | {
      kind: 'fill';
      source: 'source' | 'exchange';
      price: number;
      size: number;
      side?: string;
      /** Unix seconds. */ timestamp: number;
    }
  /** The stream was down from gapFrom to gapTo (ms): fills of that time may be missing from the tape. */
  | { kind: 'gap'; gapFrom: number; gapTo: number };

export type TapeState = 'connecting' | 'live' | 'reconnecting' | 'closed';

export interface TapeOptions {
  /** Opens the source's fill stream for this market (MarketSource.subscribeToFills bound to it). */
  subscribe: (handlers: FillHandlers) => FillSubscription;
  /** The market's fill history (getFillHistory, for the outcome the candles follow); without it a gap is only marked. */
  fillHistory?: () => Promise<TradeRecord[]>;
  candleMs: number;
  scheduler?: Scheduler;
  backoffMs?: { initial: number; max: number };
  /** Entries kept on the tape (newest last). */
  maxEntries?: number;
  onEntry?: (entry: TapeEntry) => void;
  /** Each fill as the source's stream gave it (the tape keeps only price, size and time). */
  onFill?: (fill: TradeRecord) => void;
  /** The stream dropped (or could not open) and will be opened again after the backoff. */
  onDrop?: (error: PmDeskError) => void;
  onCandles?: (candles: Candle[]) => void;
  onState?: (state: TapeState) => void;
  /** The source's stream fell back to polling (its live feed is unreachable) or went live again. */
  onMode?: (mode: 'live' | 'polling') => void;
}

export class TradeTape {
  private readonly tape: TapeEntry[] = [];
  /** The fills candles are built from (the source's records; exchange trades only while none came). */
  private fills: TradeRecord[] = [];
  private readonly seen = new Set<string>();
  private subscription: FillSubscription | undefined;
  private stateValue: TapeState = 'closed';
  private running = false;
  private attempt = 0;
  private timer: unknown;
  /** When the stream went down (ms), until it is back. */
  private downSince: number | undefined;
  private readonly scheduler: Scheduler;
  private sawSourceFill = false;

  constructor(private readonly options: TapeOptions) {
    this.scheduler = options.scheduler ?? realScheduler;
  }

  get state(): TapeState {
    return this.stateValue;
  }

  entries(): readonly TapeEntry[] {
    return this.tape;
  }

  candles(): Candle[] {
    return generateCandles(this.fills, this.options.candleMs);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.open('connecting');
  }

  close(): void {
    this.running = false;
    if (this.timer !== undefined) this.scheduler.clearTimeout(this.timer);
    this.timer = undefined;
    const subscription = this.subscription;
    this.subscription = undefined;
    subscription?.close();
    this.setState('closed');
  }

  /** A `last_trade_price` from the market WebSocket. */
  addTrade(trade: LastTrade): void {
    const entry: TapeEntry = {
      kind: 'fill',
      source: 'exchange',
      price: trade.price,
      size: trade.size,
      side: trade.side,
      timestamp: trade.timestamp / 1000,
    };
    this.push(entry);
    // Both report the same trades: the exchange's count for candles only where the source's stream is silent.
    if (!this.sawSourceFill)
      this.addFills([{ price: trade.price, volumeBase: trade.size, timestamp: trade.timestamp / 1000 }]);
  }

  private open(state: TapeState): void {
    this.setState(state);
    const subscription = this.options.subscribe({
      onOpen: () => {
        if (this.subscription !== subscription) return;
        this.attempt = 0;
        this.setState('live');
        if (this.downSince !== undefined) {
          const gap = { kind: 'gap' as const, gapFrom: this.downSince, gapTo: this.scheduler.now() };
          this.downSince = undefined;
          this.push(gap);
          void this.refill(gap.gapFrom, gap.gapTo);
        }
      },
      onFill: (fill) => {
        if (this.subscription !== subscription) return;
        this.sawSourceFill = true;
        this.push({
          kind: 'fill',
          source: 'source',
          price: fill.price,
          size: fill.volumeBase,
          timestamp: fill.timestamp,
        });
        this.addFills([fill]);
        this.options.onFill?.(fill);
      },
      onMode: (mode) => {
        if (this.subscription !== subscription) return;
        this.options.onMode?.(mode);
      },
      onClose: (error) => {
        if (this.subscription !== subscription) return;
        this.subscription = undefined;
        if (!this.running || !error) return;
        this.downSince ??= this.scheduler.now();
        this.reconnectLater();
        this.options.onDrop?.(error);
      },
    });
    this.subscription = subscription;
  }

  private reconnectLater(): void {
    const { initial, max } = this.options.backoffMs ?? { initial: 1_000, max: MAX_RECONNECT_BACKOFF_MS };
    const delay = Math.min(max, initial * 2 ** this.attempt);
    this.attempt++;
    this.setState('reconnecting');
    this.timer = this.scheduler.setTimeout(() => {
      this.timer = undefined;
      if (this.running) this.open('reconnecting');
    }, delay);
  }

  /** Adds the fills of the gap from the history (those the live stream never delivered). */
  private async refill(fromMs: number, toMs: number): Promise<void> {
    if (!this.options.fillHistory) return;
    let history: TradeRecord[];
    try {
      history = await this.options.fillHistory();
    } catch {
      return; // the gap marker stays: the tape says plainly what it does not know
    }
    if (!this.running) return;
    this.addFills(history.filter((f) => f.timestamp * 1000 >= fromMs && f.timestamp * 1000 <= toMs));
  }

  private addFills(fills: readonly TradeRecord[]): void {
    let added = false;
    for (const fill of fills) {
      const key = `${fill.timestamp}|${fill.price}|${fill.volumeBase}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      this.fills.push(fill);
      added = true;
    }
    if (!added) return;
    const limit = (this.options.maxEntries ?? 5_000) * 4;
    if (this.fills.length > limit) this.fills = this.fills.slice(-limit);
    this.options.onCandles?.(this.candles());
  }

  private push(entry: TapeEntry): void {
    this.tape.push(entry);
    if (this.tape.length > (this.options.maxEntries ?? 5_000)) this.tape.shift();
    this.options.onEntry?.(entry);
  }

  private setState(state: TapeState): void {
    if (state === this.stateValue) return;
    this.stateValue = state;
    this.options.onState?.(state);
  }
}
