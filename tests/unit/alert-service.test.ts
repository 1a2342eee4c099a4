// The alert service over a real event hub and the polling book feeds, with a source of fixed answers: a spread
// alert fires once on a polled book (log line, `alert` event, the notifier asked) and lets go of the book without
// closing it for a window that still follows it; a volume spike fires against the hour read from the source's
// fill history; a midpoint crossing up; alerts kept across a new service on the same folder; a corrupt file set aside.
// A last-trade alert follows every fill as the screen does (in the first outcome, with or without a token id, the
// second outcome its complement), starting from the market's history. A fill of mine names its outcome and market
// (read once per market), or the token id when that read fails. Closing waits until the file holds a firing.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TerminalEvents, TradeInfo } from '../../src/shared/contract';
import type { Market, MarketOrderBooks, TradeRecord } from '../../packages/toolkit/src/model/market-model';
import { ALERTS_FILE, AlertService, alertsFile, type AlertServiceOptions } from '../../src/main/alerts/alerts';
import { BookFeeds } from '../../src/main/follow/book-feeds';
import { EventHub } from '../../src/main/ipc/event-hub';

const MARKET = {
  id: 'm1',
  name: 'Test market',
  question: 'Test market?',
  position_tokens: [
    { token_id: '1', name: 'Yes' },
    { token_id: '2', name: 'No' },
  ],
} as unknown as Market;
const book = (bid: number, ask: number) => ({
  market: 'm1',
  asset_id: '1',
  hash: `${bid}-${ask}`,
  bids: [{ price: bid, size: 10 }],
  asks: [{ price: ask, size: 10 }],
});

let dir: string;
let hub: EventHub;
let books: MarketOrderBooks;
let history: TradeRecord[][];
let feeds: BookFeeds;
let service: AlertService;
const fills = {
  follow: (_c: string, _p: string, marketId: string) => ({ marketId, state: 'open' as const }),
  unfollow: () => true,
};
const accounts = {
  follow: async (_c: string, wallet: string) => ({ wallet, state: 'open' as const }),
  unfollow: () => true,
  releaseClient: () => undefined,
  watched: () => [],
  closeAll: () => undefined,
};
const shown: string[] = [];
const heard: TerminalEvents['alert'][] = [];
let marketFacts: AlertServiceOptions['marketFacts'];
/** Reads of the market from this one on fail (the source went away). */
let awayFromRead = Infinity;
let marketReads = 0;
const factsAsked: string[] = [];

function open(): AlertService {
  const s = new AlertService({
    hub,
    network: 'test',
    feeds: { books: feeds, fills, accounts },
    markets: {
      getMarket: async () => {
        marketReads += 1;
        if (marketReads >= awayFromRead) throw new Error('the source is away');
        return MARKET;
      },
      getOrderBooks: async () => books,
      getFillHistory: async () => history,
    },
    file: alertsFile(dir),
    notifier: { show: (_title, body) => shown.push(body) },
    marketFacts: (conditionId) => (factsAsked.push(conditionId), marketFacts!(conditionId)),
  });
  void s.start();
  return s;
}
const next = () =>
  new Promise<TerminalEvents['alert']>((resolve) =>
    hub.connect(
      `w-${Math.random()}`,
      (event, payload) => event === 'alert' && resolve(payload as TerminalEvents['alert']),
    ),
  );

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-alerts-'));
  hub = new EventHub();
  hub.connect('window-1', (event, payload) => event === 'alert' && heard.push(payload as TerminalEvents['alert']));
  books = { '1': book(0.4, 0.44), '2': book(0.56, 0.6) };
  history = [[], []];
  feeds = new BookFeeds(async () => books, hub, 20);
  shown.length = 0;
  heard.length = 0;
  factsAsked.length = 0;
  awayFromRead = Infinity;
  marketReads = 0;
  marketFacts = async () => ({ question: 'Test market?', outcomes: { '1': 'Yes', '2': 'No' } });
  service = open();
});
afterEach(async () => {
  // A firing is written after it is told: the folder goes only once the file has settled.
  await service.close();
  feeds.closeAll();
  await rm(dir, { recursive: true, force: true });
});

describe('the alert service', () => {
  it('a spread alert fires once on a polled book, and lets go of the book a window still follows', async () => {
    feeds.follow('window-1', 'polymarket', 'm1');
    const alert = await service.create({
      kind: 'spread',
      protocol: 'polymarket',
      marketId: 'm1',
      tokenId: '1',
      level: 0.05,
    });
    expect(feeds.followed()).toEqual(['polymarket:m1']);
    const fired = next();
    books = { ...books, '1': book(0.4, 0.5) };
    const { entry, alert: after } = await fired;
    expect(entry.message).toBe('The spread of Yes on "Test market" is 10¢ (bid 40¢, ask 50¢), wider than 5¢.');
    expect(after).toMatchObject({ id: alert.id, state: 'fired' });
    expect(shown).toEqual([entry.message]);
    expect(heard).toHaveLength(1);
    // The window still shows the book: it stays open; once the window lets go too, it closes.
    expect(feeds.followed()).toEqual(['polymarket:m1']);
    feeds.unfollow('window-1', 'm1');
    expect(feeds.followed()).toEqual([]);
    // Fired once: a wider spread again tells nothing more.
    expect((await service.list()).log.map((l) => l.alertId)).toEqual([alert.id]);
    // The firing is written after it is told; closing waits for it, so a terminal quit right after keeps it.
    await service.close();
    const kept = JSON.parse(await readFile(join(dir, ALERTS_FILE), 'utf8')) as {
      alerts: { id: string; state: string }[];
      log: { id: string }[];
    };
    expect(kept.alerts.map((a) => [a.id, a.state])).toEqual([[alert.id, 'fired']]);
    expect(kept.log.map((l) => l.id)).toEqual([entry.id]);
  });

  it('a volume spike fires against the hour before, read from the source', async () => {
    const now = Date.now() / 1000;
    // 120 shares over the hour before the last 5 minutes: an average of 10 per 5 minutes.
    history = [
      Array.from({ length: 12 }, (_, i) => ({ price: 0.4, volumeBase: 10, timestamp: now - 400 - i * 290 })),
      [],
    ];
    await service.create({ kind: 'volume', protocol: 'polymarket', marketId: 'm1', minutes: 5, multiple: 3 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const fired = next();
    hub.emit('fill', { marketId: 'm1', fill: { price: 0.41, volumeBase: 30, timestamp: now, tokenId: '1' } }, [
      'main:alerts',
    ]);
    hub.emit('fill', { marketId: 'm1', fill: { price: 0.41, volumeBase: 1, timestamp: now + 1, tokenId: '1' } }, [
      'main:alerts',
    ]);
    const { entry } = await fired;
    expect(entry.message).toBe(
      '31 shares traded in the last 5 min on "Test market", over 3× the 10 of an average 5 min in the hour before.',
    );
  });

  it('a midpoint crossing up fires; kept across a new service on the same folder', async () => {
    const alert = await service.create({
      kind: 'price',
      protocol: 'polymarket',
      marketId: 'm1',
      tokenId: '1',
      price: 'mid',
      direction: 'up',
      level: 0.45,
    });
    await service.close();
    service = open();
    expect((await service.list()).alerts.map((a) => [a.id, a.state])).toEqual([[alert.id, 'armed']]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const fired = next();
    books = { ...books, '1': book(0.44, 0.48) };
    expect((await fired).entry.message).toBe('The midpoint of Yes on "Test market" rose to 46¢, crossing 45¢.');
  });

  it('a price that crosses while the terminal is closed fires when it opens; one already past when set does not', async () => {
    const falls = await service.create({
      kind: 'price',
      protocol: 'polymarket',
      marketId: 'm1',
      tokenId: '1',
      price: 'bid',
      direction: 'down',
      level: 0.35,
    });
    const past = await service.create({
      kind: 'price',
      protocol: 'polymarket',
      marketId: 'm1',
      tokenId: '1',
      price: 'bid',
      direction: 'down',
      level: 0.45,
    });
    const kept = async () =>
      JSON.parse(await readFile(join(dir, ALERTS_FILE), 'utf8')) as { alerts: { id: string; seen?: number }[] };
    const seenOf = async (id: string) => (await kept()).alerts.find((a) => a.id === id)?.seen;
    await vi.waitFor(async () => expect(await seenOf(falls.id)).toBe(0.4));
    // Another reading on the same side is not written: the file keeps the first one.
    books = { ...books, '1': book(0.41, 0.44) };
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await seenOf(falls.id)).toBe(0.4);
    expect(await seenOf(past.id)).toBe(0.4);
    await service.close();
    books = { ...books, '1': book(0.3, 0.44) };
    const fired = next();
    service = open();
    const { entry, alert } = await fired;
    expect(alert.id).toBe(falls.id);
    expect(entry.message).toBe('The best bid of Yes on "Test market" fell to 30¢, crossing 35¢.');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(heard.map((h) => h.alert.id)).toEqual([falls.id]);
  });

  it('a last-trade alert moves with every fill: one naming no token (the aggregator), one naming the second outcome', async () => {
    const now = Date.now() / 1000;
    // The aggregator's history: each outcome's own tape, naming no token; the tape (and the screen) read the first.
    history = [
      [{ price: 0.4, volumeBase: 5, timestamp: now - 60 }],
      [{ price: 0.6, volumeBase: 5, timestamp: now - 60 }],
    ];
    const noFalls = await service.create({
      kind: 'price',
      protocol: 'polymarket',
      marketId: 'm1',
      tokenId: '2',
      price: 'last',
      direction: 'down',
      level: 0.55,
    });
    const yesRises = await service.create({
      kind: 'price',
      protocol: 'polymarket',
      marketId: 'm1',
      tokenId: '1',
      price: 'last',
      direction: 'up',
      level: 0.5,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // A trade at 46¢ in the first outcome, no token named: No's last trade is 54¢, past its level from 60¢.
    let fired = next();
    hub.emit('fill', { marketId: 'm1', fill: { price: 0.46, volumeBase: 3, timestamp: now } }, ['main:alerts']);
    let heardNow = await fired;
    expect(heardNow.alert.id).toBe(noFalls.id);
    expect(heardNow.entry.message).toBe('The last trade of No on "Test market" fell to 54¢, crossing 55¢.');
    // A fill naming the second outcome's token is in that outcome: No at 45¢ is Yes at 55¢, up through 50¢.
    fired = next();
    hub.emit('fill', { marketId: 'm1', fill: { price: 0.45, volumeBase: 3, timestamp: now + 1, tokenId: '2' } }, [
      'main:alerts',
    ]);
    heardNow = await fired;
    expect(heardNow.alert.id).toBe(yesRises.id);
    expect(heardNow.entry.message).toBe('The last trade of Yes on "Test market" rose to 55¢, crossing 50¢.');
  });

  it("a last-trade alert whose market could not be read asks again on the market's next fill, not in a loop", async () => {
    const now = Date.now() / 1000;
    // Setting the alert reads the market; arming it reads it again, and that read fails.
    awayFromRead = 2;
    const set = await service.create({
      kind: 'price',
      protocol: 'polymarket',
      marketId: 'm1',
      tokenId: '1',
      price: 'last',
      direction: 'up',
      level: 0.5,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(marketReads).toBe(2);
    // Back: the market's next fill reads it, and the one after crosses.
    awayFromRead = Infinity;
    hub.emit('fill', { marketId: 'm1', fill: { price: 0.45, volumeBase: 1, timestamp: now } }, ['main:alerts']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(marketReads).toBe(3);
    const fired = next();
    hub.emit('fill', { marketId: 'm1', fill: { price: 0.55, volumeBase: 1, timestamp: now + 1 } }, ['main:alerts']);
    const { entry } = await fired;
    expect(entry.alertId).toBe(set.id);
    expect(entry.message).toBe('The last trade of Yes on "Test market" rose to 55¢, crossing 50¢.');
  });

  it('a fill of mine names side, shares, outcome, price and the market, read once per market; unread, the token id', async () => {
    const trade = (tradeId: string, extra: Partial<TradeInfo> = {}): TradeInfo => ({
      tradeId,
      conditionId: '0xc1',
      tokenId: '1',
      side: 'BUY',
      price: 0.52,
      size: 10,
      status: 'MATCHED',
      matchedAt: 1,
      pending: true,
      ...extra,
    });
    const snapshot = (trades: TradeInfo[]): TerminalEvents['account'] => ({
      wallet: 'desk',
      openOrders: [],
      trades,
      state: 'open',
    });
    const alert = await service.create({ kind: 'fill', protocol: 'polymarket', wallet: 'desk' });
    expect(alert.marketName).toBe("desk's orders");
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The first snapshot is what was there before; the next one's new trade is told, with the market read for it.
    hub.emit('account', snapshot([trade('t0')]), ['main:alerts']);
    let fired = next();
    hub.emit('account', snapshot([trade('t1'), trade('t0')]), ['main:alerts']);
    const { entry } = await fired;
    expect(entry.message).toBe('Fill: bought 10 Yes at 52¢ — Test market? (desk)');
    expect(shown).toEqual([entry.message]);
    expect(factsAsked).toEqual(['0xc1']);

    // The market's facts cannot be read: the alert still fires, naming the token.
    await service.remove(alert.id);
    marketFacts = async () => {
      throw new Error('the exchange is away');
    };
    await service.create({ kind: 'fill', protocol: 'polymarket', wallet: 'desk' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const token = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
    hub.emit('account', snapshot([trade('t1')]), ['main:alerts']);
    fired = next();
    hub.emit(
      'account',
      snapshot([trade('t3', { side: 'SELL', size: 2.5, price: 0.415, tokenId: token }), trade('t2'), trade('t1')]),
      ['main:alerts'],
    );
    expect((await fired).entry.message).toBe('Fill: sold 2.5 at 41.5¢ — token 713210…2563 (desk) and 1 more fill');
  });

  it('a corrupt alerts file is set aside: the service starts empty', async () => {
    await service.close();
    await writeFile(join(dir, ALERTS_FILE), '{"version":1,"alerts":"no","log":[]}');
    service = open();
    expect(await service.list()).toEqual({ alerts: [], log: [] });
    expect(existsSync(join(dir, `${ALERTS_FILE}.bad`))).toBe(true);
  });
});
