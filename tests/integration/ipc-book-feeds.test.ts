// Followed books through the contract: read from a real (fixture) aggregator over HTTP, pushed as bookUpdate
// only when an outcome's book changes, shared by clients, closed when the last leaves, and a failed read
// closes the feed with its reason. Every wait is on an event or a request, never on the clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TerminalEvents } from '../../src/shared/contract';
import type { Heard } from '../helpers/hub-client';
import { allowOrigins } from '../../src/main/ipc/router';
import { openTerminal, type Terminal } from '../../src/main/terminal/terminal';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server';
import { NO_TOKEN, YES_TOKEN, books } from '../helpers/aggregator-fixtures';
import { hubClient } from '../helpers/hub-client';

const APP = 'app://pmdesk';
let server: FixtureServer;
let terminal: Terminal;
let current: Record<string, unknown> = books;
let status = 200;
const readWaiters: { count: number; resolve: () => void }[] = [];
let reads = 0;

beforeAll(async () => {
  server = await startFixtureServer();
  server.on('GET', '/v1/markets/506729/orderbook', (_r, reply) => {
    reads++;
    if (status === 200) reply.json(200, current);
    else reply.json(status, { message: 'gone' });
    for (const waiter of readWaiters.filter((w) => reads >= w.count)) {
      readWaiters.splice(readWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  terminal = openTerminal({
    profile: { name: 'fixture', chainId: 31338, clobUrl: '', aggregatorUrl: server.url },
    shell: 'browser',
    allowSender: allowOrigins([APP]),
    bookPollMs: 5,
  });
});
afterAll(async () => {
  await terminal?.close();
  await server?.stop();
});

const client = (id: string) => hubClient(terminal, id, APP);
const readsReach = (count: number) =>
  new Promise<void>((resolve) => (reads >= count ? resolve() : readWaiters.push({ count, resolve })));
const isUpdate = (tokenId: string) => (e: Heard) =>
  e.event === 'bookUpdate' && (e.payload as { tokenId: string }).tokenId === tokenId;

describe('followed books', () => {
  it('pushes each outcome once, then only what changed', async () => {
    const a = client('a');
    const firstYes = a.next(isUpdate(YES_TOKEN));
    const firstNo = a.next(isUpdate(NO_TOKEN));
    expect(await a.call('subscribeBook', { marketId: '506729' })).toMatchObject({
      ok: true,
      value: { marketId: '506729' },
    });
    expect((await firstYes).payload).toMatchObject({
      marketId: '506729',
      book: { hash: '0f3c', bids: [{ price: 0.52, size: 1200 }] },
    });
    await firstNo;
    // Several more reads of the same books: nothing new is pushed.
    await readsReach(reads + 3);
    expect(a.heard.filter((e) => e.event === 'bookUpdate')).toHaveLength(2);
    expect(a.heard.filter((e) => e.event === 'feedStatus')).toEqual([
      { event: 'feedStatus', payload: { feed: 'book', marketId: '506729', state: 'open' } },
    ]);

    const changed = a.next(isUpdate(YES_TOKEN));
    // The source lists levels as the CLOB does (best last), one price twice, an empty level: main hands out the
    // one Book shape (numbers, one level a price, best first), so the page neither parses nor sorts.
    const bids = [
      { price: '0.5', size: '4' },
      { price: '0.51', size: '0' },
      { price: '0.5', size: '6' },
      { price: '0.53', size: '10' },
    ];
    const asks = [
      { price: '0.6', size: '1' },
      { price: '0.55', size: '2' },
    ];
    current = { ...books, [YES_TOKEN]: { ...books[YES_TOKEN], hash: 'beef', bids, asks } };
    const book = ((await changed).payload as TerminalEvents['bookUpdate']).book;
    expect(book).toMatchObject({ tokenId: YES_TOKEN, hash: 'beef' });
    expect([book.bids, book.asks]).toEqual([
      [
        { price: 0.53, size: 10 },
        { price: 0.5, size: 10 },
      ],
      [
        { price: 0.55, size: 2 },
        { price: 0.6, size: 1 },
      ],
    ]);
    expect(a.heard.filter((e) => e.event === 'bookUpdate')).toHaveLength(3);
    // A read of the books answers the same shape.
    const read = await a.call('getOrderBook', { protocol: 'polymarket', marketId: '506729' });
    expect(read).toMatchObject({
      ok: true,
      value: { [YES_TOKEN]: { tokenId: YES_TOKEN, bids: book.bids, asks: book.asks } },
    });

    const b = client('b');
    expect(await b.call('subscribeBook', { marketId: '506729' })).toMatchObject({ ok: true, value: { state: 'open' } });
    expect(terminal.services.books.followed()).toEqual(['polymarket:506729']);
    expect(await a.call('unsubscribeBook', { marketId: '506729' })).toMatchObject({
      ok: true,
      value: { wasSubscribed: true },
    });
    expect(terminal.services.books.followed()).toEqual(['polymarket:506729']);
    terminal.hub.disconnect('b');
    expect(terminal.services.books.followed()).toEqual([]);
    expect(await a.call('unsubscribeBook', { marketId: '506729' })).toMatchObject({
      ok: true,
      value: { wasSubscribed: false },
    });
  });

  it('a failed read closes the feed and says why', async () => {
    const c = client('c');
    status = 404;
    const closed = c.next((e) => e.event === 'feedStatus' && (e.payload as { state: string }).state === 'closed');
    await c.call('subscribeBook', { marketId: '506729' });
    expect((await closed).payload).toMatchObject({
      feed: 'book',
      marketId: '506729',
      state: 'closed',
      error: { code: 'ERR_NOT_FOUND' },
    });
    expect(terminal.services.books.followed()).toEqual([]);
    status = 200;
  });
});
