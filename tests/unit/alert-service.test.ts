// The alert service over a real event hub and the polling book feeds, with a source of fixed answers: a spread
// alert fires once on a polled book (log line, `alert` event, the notifier asked) and lets go of the book without
// closing it for a window that still follows it; a volume spike fires against the hour read from the source's
// fill history; a midpoint crossing up; alerts kept across a new service on the same folder; a corrupt file set aside.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TerminalEvents } from '../../src/shared/contract';
import type { Market, MarketOrderBooks, TradeRecord } from '../../packages/toolkit/src/model/market-model';
import { ALERTS_FILE, AlertService, alertsFile } from '../../src/main/alerts/alerts';
import { BookFeeds } from '../../src/main/ipc/book-feeds';
import { EventHub } from '../../src/main/ipc/event-hub';

const MARKET = { id: 'm1', name: 'Test market', question: 'Test market?', position_tokens: [{ token_id: '1', name: 'Yes' }, { token_id: '2', name: 'No' }] } as unknown as Market;
const book = (bid: number, ask: number) => ({ market: 'm1', asset_id: '1', hash: `${bid}-${ask}`, bids: [{ price: bid, size: 10 }], asks: [{ price: ask, size: 10 }] });

let dir: string;
let hub: EventHub;
let books: MarketOrderBooks;
let history: TradeRecord[][];
let feeds: BookFeeds;
let service: AlertService;
const fills = { follow: (_c: string, _p: string, marketId: string) => ({ marketId, state: 'open' as const }), unfollow: () => true };
const shown: string[] = [];
const heard: TerminalEvents['alert'][] = [];

function open(): AlertService {
  const s = new AlertService({
    hub,
    network: 'test',
    feeds: { books: feeds, fills },
    markets: { getMarket: async () => MARKET, getOrderBooks: async () => books, getFillHistory: async () => history },
    file: alertsFile(dir),
    notifier: { show: (_title, body) => shown.push(body) },
  });
  void s.start();
  return s;
}
const next = () => new Promise<TerminalEvents['alert']>((resolve) => hub.connect(`w-${Math.random()}`, (event, payload) => event === 'alert' && resolve(payload as TerminalEvents['alert'])));

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pmdesk-alerts-'));
  hub = new EventHub();
  hub.connect('window-1', (event, payload) => event === 'alert' && heard.push(payload as TerminalEvents['alert']));
  books = { '1': book(0.4, 0.44), '2': book(0.56, 0.6) };
  history = [[], []];
  feeds = new BookFeeds(async () => books, hub, 20);
  shown.length = 0;
  heard.length = 0;
  service = open();
});
afterEach(async () => {
  service.close();
  feeds.closeAll();
  await rm(dir, { recursive: true, force: true });
});

describe('the alert service', () => {
  it('a spread alert fires once on a polled book, and lets go of the book a window still follows', async () => {
    feeds.follow('window-1', 'polymarket', 'm1');
    const alert = await service.create({ kind: 'spread', protocol: 'polymarket', marketId: 'm1', tokenId: '1', level: 0.05 });
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
  });

  it('a volume spike fires against the hour before, read from the source', async () => {
    const now = Date.now() / 1000;
    // 120 shares over the hour before the last 5 minutes: an average of 10 per 5 minutes.
    history = [Array.from({ length: 12 }, (_, i) => ({ price: 0.4, volumeBase: 10, timestamp: now - 400 - i * 290 })), []];
    await service.create({ kind: 'volume', protocol: 'polymarket', marketId: 'm1', minutes: 5, multiple: 3 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const fired = next();
    hub.emit('fill', { marketId: 'm1', fill: { price: 0.41, volumeBase: 30, timestamp: now, tokenId: '1' } }, ['main:alerts']);
    hub.emit('fill', { marketId: 'm1', fill: { price: 0.41, volumeBase: 1, timestamp: now + 1, tokenId: '1' } }, ['main:alerts']);
    const { entry } = await fired;
    expect(entry.message).toBe('31 shares traded in the last 5 min on "Test market", over 3× the 10 of an average 5 min in the hour before.');
  });

  it('a midpoint crossing up fires; kept across a new service on the same folder', async () => {
    const alert = await service.create({ kind: 'price', protocol: 'polymarket', marketId: 'm1', tokenId: '1', price: 'mid', direction: 'up', level: 0.45 });
    service.close();
    service = open();
    expect((await service.list()).alerts.map((a) => [a.id, a.state])).toEqual([[alert.id, 'armed']]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const fired = next();
    books = { ...books, '1': book(0.44, 0.48) };
    expect((await fired).entry.message).toBe('The midpoint of Yes on "Test market" rose to 46¢, crossing 45¢.');
  });

  it('a corrupt alerts file is set aside: the service starts empty', async () => {
    service.close();
    await writeFile(join(dir, ALERTS_FILE), '{"version":1,"alerts":"no","log":[]}');
    service = open();
    expect(await service.list()).toEqual({ alerts: [], log: [] });
    expect(existsSync(join(dir, `${ALERTS_FILE}.bad`))).toBe(true);
  });
});
