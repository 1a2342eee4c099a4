// The CLOB state in the sandbox's data folder: debounced saves taken inside the queue (never half a
// settlement), the last word on stop, and loading at start with the chain asked about every resting order.
import { rename } from 'node:fs/promises';
import { NOTIFY_CANCEL, type OrderRecord, type TradeRecord } from './records';
import {
  CLOB_STATE_VERSION,
  big,
  loadOrder,
  loadResting,
  readClobState,
  saveOrder,
  saveResting,
  writeClobState,
  type SavedClobState,
} from './state-file';
import type { ClobState } from './state';

/** What the state file keeps at most (see `stateHistory`): finished orders and trades, and forgotten ids. */
const SAVED_HISTORY = 20_000;
const SAVED_RETIRED_IDS = 200_000;

export class ClobStateKeeper {
  private saveTimer: NodeJS.Timeout | undefined;
  /** Something worth saving changed since the last save. */
  private dirty = false;
  private lastSaveMs = 0;

  constructor(
    private readonly state: ClobState,
    private readonly file: string,
  ) {
    state.whenChanged(() => this.changed());
  }

  /** No more debounced saves: work still queued marks the state dirty and `saveIfDirty` writes it. */
  stopSaving(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
  }

  /** The last word: whatever changed since the last debounced save. */
  async saveIfDirty(): Promise<void> {
    if (this.dirty) await this.save();
  }

  private log(line: string): void {
    const { log } = this.state.options;
    if (log) log(line);
    else console.error(`[sandbox clob] ${line}`);
  }

  /**
   * A save is due. Debounced (one per interval, longer when writes get slow so a big state never hogs the
   * queue) and taken inside the queue, so it never captures half a settlement.
   */
  private changed(): void {
    this.dirty = true;
    if (this.saveTimer || this.state.stopped) return;
    const interval = Math.max(this.state.options.saveIntervalMs ?? 200, 5 * this.lastSaveMs);
    this.saveTimer = setTimeout(() => {
      void this.state.exclusive(async () => {
        this.saveTimer = undefined;
        if (this.dirty) await this.save();
      }, false);
    }, interval);
    this.saveTimer.unref();
  }

  private async save(): Promise<void> {
    const started = Date.now();
    const saved = this.exportState();
    this.dirty = false;
    try {
      await writeClobState(this.file, saved);
    } catch (error) {
      this.dirty = true;
      this.log(
        `could not save the CLOB state to ${this.file}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    this.lastSaveMs = Date.now() - started;
  }

  private exportState(): SavedClobState {
    const { state } = this;
    const { deployment } = state.options;
    // Bounded (see stateHistory): the oldest finished orders are saved as forgotten ids, still refused if posted again.
    const history = state.options.stateHistory ?? SAVED_HISTORY;
    const oldFinished = state.finished.slice(0, Math.max(0, state.finished.length - history));
    const dropped = new Set(
      oldFinished.filter((o) => o.status !== 'LIVE' && state.orders.get(o.id) === o).map((o) => o.id),
    );
    return {
      version: CLOB_STATE_VERSION,
      chainId: deployment.chainId,
      exchange: deployment.contracts.exchange,
      orderVersion: deployment.orderVersion,
      apiKeys: [...state.apiKeys.values()].map((k) => ({
        apiKey: k.apiKey,
        secret: k.secret,
        passphrase: k.passphrase,
        address: k.address,
        nonce: k.nonce.toString(),
      })),
      orders: [...state.orders.values()]
        .filter((o) => !dropped.has(o.id))
        .map((o) => {
          const entry = o.status === 'LIVE' ? state.books.get(o.market.conditionId)!.order(o.id) : undefined;
          return {
            id: o.id,
            owner: o.owner,
            order: saveOrder(o.order),
            terms: {
              side: o.terms.side,
              collateral: o.terms.collateral.toString(),
              shares: o.terms.shares.toString(),
              price: o.terms.price,
              size: o.terms.size.toString(),
            },
            conditionId: o.market.conditionId,
            outcome: o.outcome,
            venue: o.venue,
            orderType: o.orderType,
            status: o.status,
            matched: o.matched.toString(),
            makingRemaining: o.makingRemaining.toString(),
            createdAt: o.createdAt,
            trades: [...o.trades],
            ...(entry ? { resting: saveResting(entry) } : {}),
          };
        }),
      finished: state.finished.filter((o) => !dropped.has(o.id)).map((o) => o.id),
      retired: [...state.retired, ...dropped].slice(-SAVED_RETIRED_IDS),
      trades: state.trades.slice(Math.max(0, state.trades.length - history)).map(({ market, ...t }) => ({
        ...t,
        conditionId: market.conditionId,
        shares: t.shares.toString(),
        makers: t.makers.map((m) => ({ ...m, shares: m.shares.toString() })),
      })),
      notifications: [...state.notifications.values()].flat(),
      notificationSeq: state.notificationSeq,
    };
  }

  /** Loads the state file; a file that cannot be read back whole is set aside and the server starts empty. */
  async load(): Promise<void> {
    const { state, file } = this;
    const { deployment, catalog } = state.options;
    const read = await readClobState(
      file,
      { chainId: deployment.chainId, exchange: deployment.contracts.exchange, orderVersion: deployment.orderVersion },
      catalog,
    );
    if ('missing' in read) return;
    let parsed: ReturnType<ClobStateKeeper['parseState']>;
    try {
      if ('refused' in read) throw new Error(read.refused);
      parsed = this.parseState(read.state);
    } catch (error) {
      const aside = `${file}.refused-${Date.now()}`;
      await rename(file, aside).catch(() => undefined);
      this.log(
        `CLOB state in ${file} refused: ${error instanceof Error ? error.message : String(error)}; starting with an empty CLOB (the file is kept as ${aside})`,
      );
      return;
    }
    const { state: saved, orders, trades } = parsed;

    // Ask the chain about every live order first: one filled or cancelled there while we were down stays off the book.
    const live = orders.filter((o) => o.record.status === 'LIVE');
    const onChain = await Promise.all(
      live.map(
        (o) =>
          state.exchanges.get(o.record.venue.toLowerCase())!.getFunction('getOrderStatus')(o.record.id) as Promise<{
            isFilledOrCancelled: boolean;
            remaining: bigint;
          }>,
      ),
    );
    const gone = new Set<string>();
    live.forEach((o, i) => {
      if (onChain[i]!.isFilledOrCancelled) gone.add(o.record.id);
    });

    for (const k of saved.apiKeys)
      state.apiKeys.set(k.apiKey, {
        apiKey: k.apiKey,
        secret: k.secret,
        passphrase: k.passphrase,
        address: k.address,
        nonce: big(k.nonce),
      });
    for (const { record } of orders) state.orders.set(record.id, record);
    for (const id of saved.finished) {
      const record = state.orders.get(id);
      if (record && record.status !== 'LIVE') state.finished.push(record);
    }
    for (const id of saved.retired) state.retired.add(id);
    // Trades come back as they were, without events: they are history, not news.
    for (const trade of trades) {
      state.trades.push(trade);
      state.tradesById.set(trade.id, trade);
      state.publicTrades.recorded(trade, { loaded: true });
    }
    for (const n of saved.notifications)
      state.notifications.set(n.owner, [...(state.notifications.get(n.owner) ?? []), n]);
    state.notificationSeq = saved.notificationSeq;

    // Back on the book WITHOUT matching (nothing crossed when saved), each with its own time priority.
    for (const { record, resting } of live) {
      if (gone.has(record.id)) {
        // Only this server fills orders, so the chain must have cancelled it (cancelOrder by its maker).
        state.setOrderStatus(record, 'CANCELED');
        state.notify(record.owner, NOTIFY_CANCEL, { order_id: record.id, reason: 'filled or cancelled on the chain' });
        continue;
      }
      state.books.get(record.market.conditionId)!.restore(resting!, resting!.remaining);
      record.resting = resting;
      state.live.add(record);
    }
    // GTD orders whose time ran out while the sandbox was down expire here, and every book is published again.
    for (const market of state.allMarkets()) {
      state.expireBook(state.books.get(market.conditionId)!);
      state.publishBook(market);
    }
    this.dirty = false;
    if (gone.size) this.changed();
    this.log(
      `CLOB state loaded from ${file}: ${saved.apiKeys.length} API keys, ${state.live.size} resting orders, ${trades.length} trades${gone.size ? `; ${gone.size} orders filled or cancelled on the chain were not restored` : ''}`,
    );
  }

  /** The saved state as the server's records; throws on anything malformed, before any of it is used. */
  private parseState(saved: SavedClobState) {
    const { catalog } = this.state.options;
    const marketOf = (conditionId: string) => {
      const market = catalog.marketByCondition(conditionId);
      if (!market) throw new Error(`unknown market ${conditionId}`);
      return market;
    };
    const orders = saved.orders.map((o) => {
      const market = marketOf(o.conditionId);
      if (!['LIVE', 'MATCHED', 'CANCELED'].includes(o.status))
        throw new Error(`order ${o.id}: bad status ${JSON.stringify(o.status)}`);
      const order = loadOrder(o.order);
      const record: OrderRecord = {
        id: o.id,
        owner: o.owner,
        order,
        terms: {
          side: o.terms.side,
          collateral: big(o.terms.collateral),
          shares: big(o.terms.shares),
          price: o.terms.price,
          size: big(o.terms.size),
        },
        market,
        outcome: o.outcome,
        tokenId: order.tokenId.toString(),
        venue: o.venue,
        orderType: o.orderType,
        status: o.status,
        matched: big(o.matched),
        makingRemaining: big(o.makingRemaining),
        createdAt: o.createdAt,
        trades: [...o.trades],
      };
      if (o.status === 'LIVE' && !(o.resting && big(o.resting.remaining) > 0n))
        throw new Error(`live order ${o.id} has no book entry`);
      if (!this.state.exchanges.has(String(o.venue).toLowerCase()))
        throw new Error(`order ${o.id}: unknown exchange ${o.venue}`);
      return { record, resting: o.status === 'LIVE' ? loadResting(o.resting!) : undefined };
    });
    const trades = saved.trades.map(({ conditionId, ...t }): TradeRecord => ({
      ...t,
      market: marketOf(conditionId),
      shares: big(t.shares),
      makers: t.makers.map((m) => ({ ...m, shares: big(m.shares) })),
    }));
    for (const n of saved.notifications)
      if (typeof n.owner !== 'string' || !Number.isInteger(n.id)) throw new Error('bad notification');
    for (const k of saved.apiKeys)
      if (typeof k.apiKey !== 'string' || typeof k.secret !== 'string' || typeof k.address !== 'string')
        throw new Error('bad API key');
    return { state: saved, orders, trades };
  }
}
