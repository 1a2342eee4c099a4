// The terminal reads markets only through the MarketSource it is given: a source written here in memory (no
// aggregator, no HTTP) answers every market operation through the real router, candles and event pages come
// from the source's own getCandles and listEvents, a followed market's fills come from its subscribeToFills (a
// fall-back to polling shows as `source: 'polling'`), and the network says which source it reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, NetworkInfo, Result, TerminalEvents } from '../../src/shared/contract';
import { ErrorCode, PmDeskError } from '../../packages/toolkit/src/model/errors';
import type { Candle, Market, PredictionEvent, TradeRecord } from '../../packages/toolkit/src/model/market-model';
import { allowOrigins, type SenderInfo } from '../../src/main/ipc/router';
import { openTerminal, type Terminal } from '../../src/main/terminal/terminal';
import type {
  ChartInterval,
  EventListOptions,
  FillHandlers,
  FillSubscription,
  MarketSource,
} from '../../packages/toolkit/src/model/market-source';

const APP = 'app://pmdesk';
const sender: SenderInfo = { origin: APP, mainFrame: true, clientId: 'window-1' };
const YES = '1001';
const NO = '1002';

const market: Market = {
  id: 'm-1',
  name: 'Rain',
  question: 'Will it rain in Lisbon tomorrow?',
  end: '2026-12-01T00:00:00Z',
  description: '',
  image: '',
  icon: '',
  position_tokens: [
    { token_id: YES, name: 'Yes', price: '0.61' },
    { token_id: NO, name: 'No', price: '0.39' },
  ],
  groupItemTitle: '',
  conditionId: `0x${'cd'.repeat(32)}`,
  minimum_tick_size: '0.01',
  minimum_order_size: 5,
  accepting_orders: true,
  closed: false,
};
const event: PredictionEvent = {
  id: 'e-1',
  protocol: 'polymarket',
  region: '',
  slug: 'rain-in-lisbon',
  title: 'Rain in Lisbon',
  description: '',
  startDate: '',
  creationDate: '',
  endDate: '',
  image: '',
  icon: '',
  markets: [market],
};
const candles: Candle[] = [{ time: 1_764_000_000, open: 0.6, high: 0.62, low: 0.59, close: 0.61, volume: 40 }];

/** Every call the terminal made, by method, with its arguments. */
const calls: { method: string; args: unknown[] }[] = [];
let fillHandlers: FillHandlers | undefined;

const notHere = () => Promise.reject(new PmDeskError(ErrorCode.NOT_FOUND, 'Not in this source.'));
const source: MarketSource = {
  kind: 'polymarket',
  listEvents: async (options?: EventListOptions) => (calls.push({ method: 'listEvents', args: [options] }), [event]),
  getEvent: async (...args) => (calls.push({ method: 'getEvent', args }), event),
  getEventsBySlug: async (...args) => (calls.push({ method: 'getEventsBySlug', args }), [event]),
  getMarket: async (...args) => (calls.push({ method: 'getMarket', args }), market),
  getMarketsBySlug: async () => [market],
  search: async () => [{ event, cosineSimilarity: 1 }],
  listSlugs: async () => [event.slug],
  getEventComments: async () => [],
  getOrderBooks: async () => ({
    [YES]: {
      market: market.conditionId!,
      asset_id: YES,
      bids: [{ price: 0.6, size: 100 }],
      asks: [{ price: 0.62, size: 80 }],
      hash: 'h1',
    },
  }),
  getFillHistory: async () => [[{ price: 0.61, volumeBase: 40, timestamp: 1_764_000_010 }], []],
  getCandles: async (protocol: string, marketId: string, outcomeIndex: number, interval: ChartInterval) => (
    calls.push({ method: 'getCandles', args: [protocol, marketId, outcomeIndex, interval] }),
    candles
  ),
  getTrader: notHere,
  getTraderPositions: async () => [],
  getTraderActivity: async () => [],
  getTraderTrades: async () => [],
  subscribeToFills: (protocol: string, marketId: string, handlers: FillHandlers = {}): FillSubscription => {
    calls.push({ method: 'subscribeToFills', args: [protocol, marketId] });
    fillHandlers = handlers;
    return {
      state: 'open',
      latest: (): TradeRecord | null => null,
      close: () => handlers.onClose?.(),
      done: new Promise(() => {}),
    };
  },
};

let terminal: Terminal;
const heard: { event: EventName; payload: unknown }[] = [];
const of = <E extends EventName>(name: E) =>
  heard.filter((h) => h.event === name).map((h) => h.payload as TerminalEvents[E]);
const value = async <T>(op: string, input: unknown): Promise<T> => {
  const result = (await terminal.router.call(op, input, sender)) as Result<T>;
  if (!result.ok) throw new Error(`${op}: ${result.error.code} ${result.error.message}`);
  return result.value;
};

beforeAll(() => {
  terminal = openTerminal({
    // A Polymarket-direct profile on a local chain: no aggregatorUrl at all.
    profile: {
      name: 'direct',
      chainId: 31338,
      source: 'polymarket',
      gammaUrl: 'http://127.0.0.1:9/gamma',
      dataUrl: 'http://127.0.0.1:9/data',
      clobUrl: 'http://127.0.0.1:9',
    },
    shell: 'browser',
    allowSender: allowOrigins([APP]),
    markets: source,
  });
  terminal.hub.connect(sender.clientId, (event, payload) => heard.push({ event, payload }));
});
afterAll(() => terminal?.close());

describe('the terminal on a MarketSource', () => {
  it('says which source the network reads, and that a local one is the sandbox without any aggregator URL', async () => {
    expect(await value<NetworkInfo>('getNetwork', {})).toEqual({
      name: 'direct',
      chainId: 31338,
      orderVersion: null,
      source: 'polymarket',
      clobUrl: 'http://127.0.0.1:9',
      aggregatorUrl: '',
      gammaUrl: 'http://127.0.0.1:9/gamma',
      sandbox: true,
      shell: 'browser',
    });
    expect(terminal.services.markets).toBe(source);
  });

  it('pages events through listEvents and reads markets, books and history through the source', async () => {
    expect(await value('listEvents', { page: 2, limit: 1 })).toEqual({
      events: [event],
      page: 2,
      limit: 1,
      hasMore: true,
    });
    expect(calls.find((c) => c.method === 'listEvents')?.args).toEqual([{ protocol: 'polymarket', page: 2, limit: 1 }]);
    expect(await value<Market>('getMarket', { marketId: 'm-1' })).toEqual(market);
    expect(await value('getOrderBook', { marketId: 'm-1' })).toMatchObject({ [YES]: { hash: 'h1' } });
    expect(await value('getPriceHistory', { marketId: 'm-1' })).toEqual([
      [{ price: 0.61, volumeBase: 40, timestamp: 1_764_000_010 }],
      [],
    ]);
    expect(await value<PredictionEvent>('getEvent', { eventId: 'e-1' })).toEqual(event);
    expect(calls.find((c) => c.method === 'getEvent')?.args).toEqual(['polymarket', 'e-1']);
  });

  it("answers another protocol's list as empty and its market as not found on a Polymarket-only source, without asking it", async () => {
    const asked = calls.length;
    expect(await value('listEvents', { protocol: 'limitless', page: 1, limit: 50 })).toEqual({
      events: [],
      page: 1,
      limit: 50,
      hasMore: false,
    });
    const missing = (await terminal.router.call(
      'getMarket',
      { protocol: 'truemarket', marketId: 'm-1' },
      sender,
    )) as Result<Market>;
    expect(missing.ok).toBe(false);
    if (!missing.ok) {
      expect(missing.error.code).toBe(ErrorCode.NOT_FOUND);
      expect(missing.error.message).toMatch(/Market 'm-1' not found: this network reads Polymarket's markets only\./);
    }
    expect(calls.slice(asked)).toEqual([]);
  });

  it("asks the source for candles (it may build them however it likes) with the chart's interval", async () => {
    expect(await value('getCandles', { marketId: 'm-1', outcomeIndex: 1, interval: '6h' })).toEqual(candles);
    expect(calls.filter((c) => c.method === 'getCandles').map((c) => c.args)).toEqual([['polymarket', 'm-1', 1, '6h']]);
  });

  it("follows fills through the source's subscribeToFills; polling shows as source: 'polling'", async () => {
    expect(await value('subscribeFills', { marketId: 'm-1' })).toEqual({ marketId: 'm-1', state: 'connecting' });
    expect(calls.filter((c) => c.method === 'subscribeToFills').map((c) => c.args)).toEqual([['polymarket', 'm-1']]);
    fillHandlers!.onOpen?.();
    fillHandlers!.onFill?.({ price: 0.62, volumeBase: 3, timestamp: 1_764_000_100, side: 'BUY' });
    fillHandlers!.onMode?.('polling');
    expect(of('fill')).toEqual([
      { marketId: 'm-1', fill: { price: 0.62, volumeBase: 3, timestamp: 1_764_000_100, side: 'BUY' } },
    ]);
    expect(of('feedStatus').filter((s) => s.feed === 'fills')).toEqual([
      { feed: 'fills', marketId: 'm-1', state: 'connecting' },
      { feed: 'fills', marketId: 'm-1', state: 'open' },
      { feed: 'fills', marketId: 'm-1', state: 'open', source: 'polling' },
    ]);
    expect(await value('unsubscribeFills', { marketId: 'm-1' })).toEqual({ marketId: 'm-1', wasSubscribed: true });
  });
});
