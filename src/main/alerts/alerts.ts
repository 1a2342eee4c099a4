// The trader's alerts: kept in the data folder (alerts.json, with a bounded log), watched in main while their
// network is in use, through the same shared book, fill and account feeds the windows use. Each alert fires
// once (then it is kept as fired; delete it or set it again): a log line, an `alert` event the windows toast,
// and a desktop notification through the injected notifier (Electron's; browser mode's page asks the browser).
// A "last" alert reads the last trade as the screen does (src/shared/last-trade.ts): every fill of the market's
// stream, priced in its first outcome whether or not it names a token, seeded from the market's recent trades.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  ALERT_KINDS,
  ALERT_PRICES,
  type AlertInfo,
  type AlertLogEntry,
  type ParsedInput,
  type TerminalEvents,
  type TradeInfo,
} from '../../shared/contract';
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';
import type { Market, TradeRecord } from '@pmdesk/toolkit/model';
import { firstOutcomePrice, historyInFirstOutcome, inOutcome } from '../../shared/last-trade';
import { centsOf } from '../../shared/words';
import type { EventHub } from '../ipc/event-hub';
import type { Logger } from '@pmdesk/toolkit';
import type { MarketSource } from '@pmdesk/toolkit';
import { KeptFile } from '../watch/kept-file';
import { MarketWatch, type WatchFeeds } from '../watch/market-watch';
import type { DesktopNotifier } from './notifier';
import { bookTop, crossed, priceOf, spreadWider, volumeSpike, type BookTop } from '../watch/rules';

export const ALERTS_FILE = 'alerts.json';
/** The log keeps this many lines, newest first. */
export const ALERT_LOG_SIZE = 200;

const AlertSchema = z.object({
  id: z.string().min(1).max(64),
  network: z.string().min(1).max(64),
  kind: z.enum(ALERT_KINDS),
  protocol: z.enum(['polymarket', 'limitless', 'truemarket']),
  marketId: z.string().max(200),
  marketName: z.string().max(500),
  tokenId: z
    .string()
    .regex(/^\d{1,80}$/)
    .nullable(),
  outcome: z.string().max(200).nullable(),
  price: z.enum(ALERT_PRICES).optional(),
  direction: z.enum(['up', 'down']).optional(),
  level: z.number().gt(0).lt(1).optional(),
  minutes: z.number().int().min(1).max(30).optional(),
  multiple: z.number().min(1).max(100).optional(),
  wallet: z.string().min(1).max(64).optional(),
  state: z.enum(['armed', 'fired']),
  createdAt: z.number(),
  firedAt: z.number().nullable(),
  seen: z.number().gt(0).lt(1).optional(),
});
const LogSchema = z.object({
  id: z.string().max(64),
  alertId: z.string().max(64),
  at: z.number(),
  title: z.string().max(300),
  message: z.string().max(1000),
});
export const AlertsFileSchema = z.object({
  version: z.literal(1),
  alerts: z.array(AlertSchema).max(10_000),
  log: z.array(LogSchema).max(ALERT_LOG_SIZE),
});
export type AlertsFile = z.infer<typeof AlertsFileSchema>;

export const alertsFile = (dataDir: string, logger?: Logger) =>
  new KeptFile<AlertsFile>(dataDir, ALERTS_FILE, AlertsFileSchema, () => ({ version: 1, alerts: [], log: [] }), logger);

export interface AlertServiceOptions {
  hub: EventHub;
  network: string;
  feeds: WatchFeeds;
  markets: Pick<MarketSource, 'getMarket' | 'getOrderBooks' | 'getFillHistory'>;
  file: KeptFile<AlertsFile>;
  /** Electron's desktop notifications; absent in browser mode (the page asks the browser's). */
  notifier?: DesktopNotifier;
  /**
   * A market's question and outcome names by its condition id (the exchange's record, read once per market:
   * trading/trade-facts.ts), so a fill alert names what filled; undefined or a failure leaves the token id instead.
   */
  marketFacts?: (conditionId: string) => Promise<{ question: string; outcomes: Record<string, string> } | undefined>;
  logger?: Logger;
  /** How often a resolving alert asks the source whether its market closed (60 s unless told). */
  resolveCheckMs?: number;
  now?: () => number;
}

/** What one armed alert remembers between readings (a price alert's last side is also kept: AlertInfo.seen). */
interface Watching {
  previous?: number | null;
  fills?: Pick<TradeRecord, 'timestamp' | 'volumeBase'>[];
  seenTrades?: Set<string>;
  /** A fill alert: when it was armed, in the exchange's seconds (a trade matched since then is told, whenever its snapshot comes). */
  armedAtS?: number;
  timer?: ReturnType<typeof setInterval>;
}

const PRICE_WORDS = { bid: 'best bid', ask: 'best ask', mid: 'midpoint', last: 'last trade' } as const;

export class AlertService {
  private alerts: AlertInfo[] = [];
  private log: AlertLogEntry[] = [];
  private readonly watching = new Map<string, Watching>();
  private readonly tops = new Map<string, BookTop>();
  /** By market: its last trade as its fill stream (or, before one, its history) gave it, in the first outcome or naming its token. */
  private readonly lastFills = new Map<string, Pick<TradeRecord, 'price' | 'tokenId'>>();
  /** By market: its token ids in position order (what turns a first-outcome price into an outcome's). */
  private readonly tokensOf = new Map<string, string[]>();
  private readonly readingLast = new Set<string>();
  private readonly watch: MarketWatch;
  private ready: Promise<void> | undefined;
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly options: AlertServiceOptions) {
    this.now = options.now ?? Date.now;
    this.watch = new MarketWatch(options.hub, 'main:alerts', options.feeds, {
      onBook: (update) => this.onBook(update),
      onFill: (update) => this.onFill(update),
      onAccount: (update) => this.onAccount(update),
      onMarketState: (update) => {
        for (const alert of this.armed())
          if (alert.kind === 'resolved' && alert.marketId === update.marketId) this.tellState(alert, update);
      },
      onWalletLock: (lock) => {
        if (lock.locked) return;
        for (const alert of this.armed()) if (alert.kind === 'fill' && alert.waiting) void this.followWallet(alert);
      },
    });
  }

  start(): Promise<void> {
    this.ready ??= (async () => {
      const file = await this.options.file.read();
      this.alerts = file.alerts as AlertInfo[];
      this.log = file.log;
      for (const alert of this.armed()) this.arm(alert);
    })();
    return this.ready;
  }

  async list(): Promise<{ alerts: AlertInfo[]; log: AlertLogEntry[] }> {
    await this.start();
    return {
      alerts: this.alerts.filter((a) => a.network === this.options.network).map((a) => ({ ...a })),
      log: this.log.map((l) => ({ ...l })),
    };
  }

  async create(input: ParsedInput<'createAlert'>): Promise<AlertInfo> {
    await this.start();
    let market: Market | undefined;
    if (input.kind !== 'fill') market = await this.options.markets.getMarket(input.protocol, input.marketId);
    const tokenId = 'tokenId' in input ? input.tokenId : null;
    const token = tokenId ? market?.position_tokens.find((t) => t.token_id === tokenId) : undefined;
    if (tokenId && !token)
      throw invalidParameter(
        `The market "${market?.name}" has no outcome with the token id ${tokenId.slice(0, 20)}.`,
        'createAlert',
      );
    const alert: AlertInfo = {
      id: randomUUID(),
      network: this.options.network,
      kind: input.kind,
      protocol: input.protocol,
      marketId: input.kind === 'fill' ? '' : input.marketId,
      marketName: market ? market.name || market.question : `${input.kind === 'fill' ? input.wallet : ''}'s orders`,
      tokenId,
      outcome: token?.name ?? null,
      ...(input.kind === 'price' ? { price: input.price, direction: input.direction, level: input.level } : {}),
      ...(input.kind === 'spread' ? { level: input.level } : {}),
      ...(input.kind === 'volume' ? { minutes: input.minutes, multiple: input.multiple } : {}),
      ...(input.kind === 'fill' ? { wallet: input.wallet } : {}),
      state: 'armed',
      createdAt: this.now(),
      firedAt: null,
    };
    this.alerts.push(alert);
    await this.save();
    this.arm(alert);
    return { ...alert };
  }

  async remove(id: string): Promise<{ id: string; deleted: boolean }> {
    await this.start();
    const alert = this.alerts.find((a) => a.id === id && a.network === this.options.network);
    if (!alert) throw new PmDeskError(ErrorCode.NOT_FOUND, 'There is no such alert on this network.');
    if (alert.state === 'armed') this.disarm(alert);
    this.alerts = this.alerts.filter((a) => a !== alert);
    await this.save();
    return { id, deleted: true };
  }

  /** Stops watching; resolves once the alerts file holds every change made before (a firing is written after it is told). */
  close(): Promise<void> {
    this.closed = true;
    for (const w of this.watching.values()) if (w.timer) clearInterval(w.timer);
    this.watching.clear();
    this.watch.close();
    return this.options.file.settled();
  }

  private armed(): AlertInfo[] {
    return this.alerts.filter((a) => a.state === 'armed' && a.network === this.options.network);
  }

  private arm(alert: AlertInfo): void {
    // A price alert starts from its kept reading: one that crossed while the terminal was closed fires at once.
    const w: Watching = alert.seen !== undefined ? { previous: alert.seen } : {};
    this.watching.set(alert.id, w);
    const { protocol, marketId } = alert;
    if (alert.kind === 'price' || alert.kind === 'spread') {
      this.watch.followBook(protocol, marketId);
      if (alert.price === 'last') {
        this.watch.followFills(protocol, marketId);
        void this.readLast(protocol, marketId);
      }
      // The book as it is now: a feed a window already follows sends only changes.
      void this.options.markets
        .getOrderBooks(protocol, marketId)
        .then((books) => {
          for (const [tokenId, book] of Object.entries(books))
            if (!this.tops.has(tokenId)) this.tops.set(tokenId, bookTop(book));
          this.evaluate(marketId);
        })
        .catch(() => undefined);
    } else if (alert.kind === 'volume') {
      w.fills = [];
      this.watch.followFills(protocol, marketId);
      // The hour before the alert was set, from the source's recent fills: the baseline starts full.
      void this.options.markets
        .getFillHistory(protocol, marketId)
        .then((history) => {
          const since = this.now() / 1000 - 3600 - (alert.minutes ?? 5) * 60;
          w.fills = [...history.flat().filter((f) => f.timestamp > since), ...(w.fills ?? [])];
        })
        .catch(() => undefined);
    } else if (alert.kind === 'fill') {
      w.armedAtS = Math.floor(this.now() / 1000);
      void this.followWallet(alert);
    } else if (alert.kind === 'resolved') {
      // Pushed within seconds where this network follows markets' states (the chain's word); the source is still
      // asked on the slow schedule below, for a network that pushes none.
      void this.watch.followState(protocol, marketId).then((state) => state && this.tellState(alert, state));
      const check = () =>
        void this.options.markets
          .getMarket(protocol, marketId)
          .then((market) => {
            if (market.closed === true || market.winnerTokenId)
              this.fire(alert, `"${alert.marketName}" has ${market.winnerTokenId ? 'resolved' : 'closed'}.`);
          })
          .catch(() => undefined);
      check();
      w.timer = setInterval(check, this.options.resolveCheckMs ?? 60_000);
    }
  }

  /** A resolving alert hears its market's state: closed or resolved, it fires. */
  private tellState(alert: AlertInfo, state: TerminalEvents['marketState']): void {
    if (state.state === 'open') return;
    this.fire(alert, `"${alert.marketName}" has ${state.state === 'resolved' ? 'resolved' : 'closed'}.`);
  }

  private disarm(alert: AlertInfo): void {
    const w = this.watching.get(alert.id);
    this.watching.delete(alert.id);
    if (w?.timer) clearInterval(w.timer);
    if (alert.kind === 'price' || alert.kind === 'spread') this.watch.unfollowBook(alert.marketId);
    if ((alert.kind === 'price' && alert.price === 'last') || alert.kind === 'volume')
      this.watch.unfollowFills(alert.marketId);
    if (alert.kind === 'fill' && alert.wallet && !alert.waiting) this.watch.unfollowAccount(alert.wallet);
    if (alert.kind === 'resolved') this.watch.unfollowState(alert.marketId);
  }

  private async followWallet(alert: AlertInfo): Promise<void> {
    try {
      await this.watch.followAccount(alert.wallet!);
      if (alert.waiting) {
        delete alert.waiting;
        this.options.hub.emit('notice', {
          kind: 'info',
          message: `The fill alert of ${alert.wallet} is watching again.`,
        });
      }
    } catch (error) {
      // A locked wallet without exchange credentials yet: the alert waits, and watches once it is unlocked.
      alert.waiting =
        error instanceof PmDeskError ? error.detail : error instanceof Error ? error.message : String(error);
    }
  }

  private onBook(update: TerminalEvents['bookUpdate']): void {
    this.tops.set(update.tokenId, update.book.stale ? { bid: null, ask: null } : bookTop(update.book));
    this.evaluate(update.marketId);
  }

  private onFill({ marketId, fill }: TerminalEvents['fill']): void {
    // Every fill moves the last trade, the aggregator's too (they name no token: they are in the first outcome).
    this.lastFills.set(
      marketId,
      fill.tokenId === undefined ? { price: fill.price } : { price: fill.price, tokenId: fill.tokenId },
    );
    if (!this.tokensOf.has(marketId)) {
      const waiting = this.armed().find((a) => a.marketId === marketId && a.kind === 'price' && a.price === 'last');
      if (waiting) void this.readLast(waiting.protocol, marketId);
    }
    for (const alert of this.armed()) {
      if (alert.marketId !== marketId || alert.kind !== 'volume') continue;
      const w = this.watching.get(alert.id);
      if (!w?.fills) continue;
      const nowSeconds = this.now() / 1000;
      w.fills.push({ timestamp: fill.timestamp, volumeBase: fill.volumeBase });
      w.fills = w.fills.filter((f) => f.timestamp > nowSeconds - 3600 - alert.minutes! * 60);
      const reading = volumeSpike(w.fills, nowSeconds, alert.minutes!, alert.multiple!);
      if (reading.spike) {
        const shares = (n: number) => Number(n.toFixed(2));
        this.fire(
          alert,
          `${shares(reading.recent)} shares traded in the last ${alert.minutes} min on "${alert.marketName}", over ${alert.multiple}× the ${shares(reading.baseline)} of an average ${alert.minutes} min in the hour before.`,
        );
      }
    }
    this.evaluate(marketId);
  }

  private onAccount(update: TerminalEvents['account']): void {
    for (const alert of this.armed()) {
      if (alert.kind !== 'fill' || alert.wallet?.toLowerCase() !== update.wallet.toLowerCase()) continue;
      const w = this.watching.get(alert.id);
      if (!w) continue;
      const ids = update.trades.map((t) => t.tradeId);
      if (!w.seenTrades) {
        // The first snapshot this alert hears is what was there before, except trades matched after the second it
        // was armed in: a fill can land before that snapshot (a feed still reading the exchange when it was armed).
        w.seenTrades = new Set(update.trades.filter((t) => !(t.matchedAt > w.armedAtS!)).map((t) => t.tradeId));
      }
      const fresh = update.trades.filter((t) => !w.seenTrades!.has(t.tradeId));
      for (const id of ids) w.seenTrades.add(id);
      if (fresh.length > 0) void this.tellFill(alert, fresh);
    }
  }

  /** Fires a fill alert naming what filled: side, shares, outcome, price, the market's question, the wallet. */
  private async tellFill(alert: AlertInfo, fresh: readonly TradeInfo[]): Promise<void> {
    const first = fresh[0]!;
    let question = first.question;
    let outcome = first.outcome;
    if (!question || !outcome) {
      // The account feed names a market once its facts were read; before that they are read here (once per market).
      const facts = await this.options.marketFacts?.(first.conditionId).catch(() => undefined);
      question ||= facts?.question;
      outcome ||= facts?.outcomes[first.tokenId];
    }
    // The title names the market that filled, as every other alert's does (the alert itself names only a wallet).
    this.fire(
      alert,
      fillMessage(first, { question, outcome }, alert.wallet!, fresh.length - 1),
      question ? `Alert: fill on "${question}"` : undefined,
    );
  }

  /** The market's tokens (once) and, while no fill came yet, its last trade from its recent trades, as the tape is seeded. */
  private async readLast(protocol: string, marketId: string): Promise<void> {
    if (this.readingLast.has(marketId)) return;
    this.readingLast.add(marketId);
    try {
      let tokens = this.tokensOf.get(marketId);
      if (!tokens) {
        tokens = (await this.options.markets.getMarket(protocol, marketId)).position_tokens.map((t) => t.token_id);
        this.tokensOf.set(marketId, tokens);
      }
      if (!this.lastFills.has(marketId)) {
        const newest = historyInFirstOutcome(
          await this.options.markets.getFillHistory(protocol, marketId),
          tokens[0],
        ).at(-1);
        if (newest && !this.lastFills.has(marketId)) this.lastFills.set(marketId, { price: newest.price });
      }
    } catch {
      // Unread now: the market's next fill asks again (never a loop of its own against a source that is away).
      return;
    } finally {
      this.readingLast.delete(marketId);
    }
    this.evaluate(marketId);
  }

  /** The last trade of an alert's outcome, as the screen shows it; null while unknown. */
  private lastOf(alert: AlertInfo): number | null {
    const fill = this.lastFills.get(alert.marketId);
    const tokens = this.tokensOf.get(alert.marketId);
    if (!fill || !tokens || !alert.tokenId) return null;
    const index = tokens.indexOf(alert.tokenId);
    if (index < 0) return null;
    // Only a binary market's outcomes are each other's complement; in any other a fill counts for its own token.
    if (tokens.length !== 2) return fill.tokenId === alert.tokenId ? fill.price : null;
    return inOutcome(firstOutcomePrice(fill, tokens), index);
  }

  private evaluate(marketId: string): void {
    if (this.closed) return;
    for (const alert of this.armed()) {
      if (alert.marketId !== marketId || !alert.tokenId) continue;
      const top = this.tops.get(alert.tokenId);
      const w = this.watching.get(alert.id);
      if (!w) continue;
      const last = alert.kind === 'price' && alert.price === 'last';
      // A last alert reads trades, not the book: it needs no book read first.
      if (!top && !last) continue;
      if (alert.kind === 'spread' && top) {
        if (spreadWider(top, alert.level!)) {
          this.fire(
            alert,
            `The spread of ${alert.outcome} on "${alert.marketName}" is ${centsOf(top.ask! - top.bid!)} (bid ${centsOf(top.bid!)}, ask ${centsOf(top.ask!)}), wider than ${centsOf(alert.level!)}.`,
          );
        }
        continue;
      }
      if (alert.kind !== 'price') continue;
      const value = priceOf(alert.price!, top ?? { bid: null, ask: null }, last ? this.lastOf(alert) : null);
      const fires = crossed(w.previous, value, alert.level!, alert.direction!);
      if (value !== null) w.previous = value;
      if (
        value !== null &&
        !fires &&
        (alert.seen === undefined || sideOf(value, alert) !== sideOf(alert.seen, alert))
      ) {
        // Kept when the reading lands on the other side of the level (rare, so not a write per book change); a
        // crossing needs no keeping: firing writes the file.
        alert.seen = value;
        void this.save().catch((error: unknown) =>
          this.options.logger?.warn(`The alerts file could not be written: ${(error as Error).message}`),
        );
      }
      if (fires) {
        this.fire(
          alert,
          `The ${PRICE_WORDS[alert.price!]} of ${alert.outcome} on "${alert.marketName}" ${alert.direction === 'up' ? 'rose' : 'fell'} to ${centsOf(value!)}, crossing ${centsOf(alert.level!)}.`,
        );
      }
    }
  }

  private fire(alert: AlertInfo, message: string, heading?: string): void {
    if (alert.state !== 'armed' || this.closed) return;
    this.disarm(alert);
    alert.state = 'fired';
    alert.firedAt = this.now();
    const title = (heading ?? `Alert: ${alert.marketName}`).slice(0, 300);
    const entry: AlertLogEntry = { id: randomUUID(), alertId: alert.id, at: alert.firedAt, title, message };
    this.log = [entry, ...this.log].slice(0, ALERT_LOG_SIZE);
    void this.save().catch((error: unknown) =>
      this.options.logger?.warn(`The alerts file could not be written: ${(error as Error).message}`),
    );
    this.options.hub.emit('alert', { alert: { ...alert }, entry });
    try {
      this.options.notifier?.show(title, message);
    } catch {
      /* the in-app toast and the log already told it */
    }
  }

  private async save(): Promise<void> {
    await this.options.file.update(() => ({
      version: 1,
      alerts: this.alerts.map(({ waiting: _w, ...a }) => a),
      log: this.log,
    }));
  }
}

/** Which side of a price alert's level a reading is on: waiting for the crossing, or already past the level. */
function sideOf(value: number, alert: AlertInfo): 'waiting' | 'past' {
  return crossed(alert.direction === 'up' ? 0 : 1, value, alert.level!, alert.direction!) ? 'past' : 'waiting';
}

/** A token id as a trader can tell it apart: its first and last digits. */
const shortToken = (tokenId: string) => (tokenId.length > 12 ? `${tokenId.slice(0, 6)}…${tokenId.slice(-4)}` : tokenId);
/** Shares as the tables show them: at most two decimals. */
const sharesOf = (n: number) => String(Number(n.toFixed(2)));

/**
 * A fill alert's sentence: "Fill: bought 10 Yes at 52¢ — Will X happen? (desk)", and how many more came with it.
 * Without the market's facts the token id stands in for the outcome and the question.
 */
export function fillMessage(
  trade: Pick<TradeInfo, 'side' | 'size' | 'price' | 'tokenId'>,
  facts: { question?: string; outcome?: string },
  wallet: string,
  more = 0,
): string {
  const what = facts.outcome ? `${sharesOf(trade.size)} ${facts.outcome}` : sharesOf(trade.size);
  const where = facts.question || `token ${shortToken(trade.tokenId)}`;
  const others = more > 0 ? ` and ${more} more ${more === 1 ? 'fill' : 'fills'}` : '';
  return `Fill: ${trade.side === 'BUY' ? 'bought' : 'sold'} ${what} at ${centsOf(trade.price)} — ${where} (${wallet})${others}`;
}
