// The polling fallback on the sandbox CLOB: while its WebSocket channels refuse every connection (the sandbox's
// `refuse` fault, a 503 before the upgrade), followed books come from GET /book and a watched account from REST
// open orders and trades, each said as `source: 'polling'`; once connections are let in again both go back to
// the live socket. Waits are on events; the backoff and the polling interval are short, never asserted on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Wallet } from 'ethers';
import type { EventName, TerminalEvents } from '../../src/shared/contract';
import { EventHub } from '../../src/main/ipc/event-hub';
import { LiveBookFeeds } from '../../src/main/follow/live-book-feeds';
import type { RestBook } from '../../src/main/feeds/market-feed';
import { UserFeed, type FeedSource, type UserOrder, type UserTrade } from '../../src/main/feeds/user-feed';
import {
  allPages,
  credsOf,
  l2Request,
  limitOrder,
  postOrder,
  startClobSandbox,
  type ClobSandbox,
} from '../helpers/sandbox-clob';

let sb: ClobSandbox;
beforeAll(async () => {
  sb = await startClobSandbox({ orderVersion: 2 });
});
afterAll(async () => {
  await sb?.stop();
});

const restBook = async (tokenId: string): Promise<RestBook> => {
  const response = await fetch(`${sb.server.url}/book?token_id=${tokenId}`);
  if (!response.ok) throw new Error(`GET /book answered ${response.status}`);
  return (await response.json()) as RestBook;
};

/** Conditions re-checked after every event. */
function recorder() {
  const waiters: { check: () => boolean; resolve: () => void }[] = [];
  return {
    settle: () => {
      for (const w of waiters.filter((w) => w.check())) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
    until: (check: () => boolean) =>
      new Promise<void>((resolve) => (check() ? resolve() : waiters.push({ check, resolve }))),
  };
}

describe('polling fallback while the exchange WebSocket is unreachable', () => {
  it('keeps books coming from GET /book and says polling, then goes back to the live socket', async () => {
    const faults = sb.server.wsFaults();
    const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
    const hub = new EventHub();
    const heard: { event: EventName; payload: unknown }[] = [];
    const r = recorder();
    hub.connect(
      'c',
      <E extends EventName>(event: E, payload: TerminalEvents[E]) => (heard.push({ event, payload }), r.settle()),
    );
    const statuses = () =>
      heard.filter((h) => h.event === 'feedStatus').map((h) => h.payload as TerminalEvents['feedStatus']);
    const bids = (tokenId: string) =>
      heard
        .filter((h) => h.event === 'bookUpdate' && (h.payload as { tokenId: string }).tokenId === tokenId)
        .map((h) => (h.payload as TerminalEvents['bookUpdate']).book.bids);

    faults.refuse(true, 'market');
    const live = new LiveBookFeeds(async () => ({ [yes]: {}, [no]: {} }) as never, hub, {
      wsUrl: `${sb.server.url.replace(/^http/, 'ws')}/ws`,
      fetchBook: restBook,
      backoffMs: { initial: 20, max: 100 },
      pollMs: 50,
    });
    try {
      live.follow('c', 'polymarket', 'm1');
      await r.until(() => statuses().some((s) => s.source === 'polling'));
      expect(statuses()).toEqual([{ feed: 'book', marketId: 'm1', state: 'open', source: 'polling' }]);
      await r.until(() => bids(yes).length > 0 && bids(no).length > 0);

      // The book moves while the socket is unreachable: a poll brings the change.
      const [alice] = sb.wallets as [Wallet];
      await postOrder(sb, alice, limitOrder(yes, 'BUY', 0.07, 10));
      await r.until(() => bids(yes).some((levels) => levels.some((l) => l.price === 0.07 && l.size === 10)));
      expect(statuses()).toHaveLength(1);

      faults.refuse(false, 'market');
      await r.until(() => statuses().length === 2);
      expect(statuses()[1]).toEqual({ feed: 'book', marketId: 'm1', state: 'open', source: 'live' });
      // Live again: a change comes over the socket.
      await postOrder(sb, alice, limitOrder(yes, 'BUY', 0.06, 10));
      await r.until(() => bids(yes).some((levels) => levels.some((l) => l.price === 0.06)));
    } finally {
      faults.refuse(false);
      live.closeAll();
    }
  });

  it('says the books are unknown (stale, exchange unreachable) while GET /book is refused too, keeping the last one, and open again when it answers', async () => {
    const faults = sb.server.wsFaults();
    const yes = sb.binary.tokens[0].tokenId;
    const hub = new EventHub();
    const heard: { event: EventName; payload: unknown }[] = [];
    const r = recorder();
    hub.connect(
      'c',
      <E extends EventName>(event: E, payload: TerminalEvents[E]) => (heard.push({ event, payload }), r.settle()),
    );
    const statuses = () =>
      heard.filter((h) => h.event === 'feedStatus').map((h) => h.payload as TerminalEvents['feedStatus']);
    const books = () =>
      heard.filter((h) => h.event === 'bookUpdate').map((h) => (h.payload as TerminalEvents['bookUpdate']).book);
    // GET /book from the sandbox, or from a port where nothing listens (a real refused connection) while "down".
    let restUrl = sb.server.url;
    const fetchBook = async (tokenId: string): Promise<RestBook> => {
      const response = await fetch(`${restUrl}/book?token_id=${tokenId}`);
      if (!response.ok) throw new Error(`GET /book answered ${response.status}`);
      return (await response.json()) as RestBook;
    };

    faults.refuse(true, 'market');
    const live = new LiveBookFeeds(async () => ({ [yes]: {} }) as never, hub, {
      wsUrl: `${sb.server.url.replace(/^http/, 'ws')}/ws`,
      fetchBook,
      backoffMs: { initial: 20, max: 100 },
      pollMs: 50,
    });
    try {
      live.follow('c', 'polymarket', 'm1');
      await r.until(() => books().length > 0 && statuses().length > 0);
      expect(statuses()).toEqual([{ feed: 'book', marketId: 'm1', state: 'open', source: 'polling' }]);
      const known = books().at(-1)!;
      expect(known.stale).toBe(false);

      restUrl = 'http://127.0.0.1:1';
      await r.until(() => statuses().length === 2);
      expect(statuses()[1]).toMatchObject({
        feed: 'book',
        marketId: 'm1',
        state: 'stale',
        source: 'polling',
        error: { code: 'ERR_NETWORK' },
      });
      // The last book is handed out again, marked stale, with its levels as they were: never an empty one.
      await r.until(() => books().at(-1)!.stale === true);
      expect({ ...books().at(-1)!, stale: false }).toEqual(known);

      restUrl = sb.server.url;
      await r.until(() => statuses().length === 3 && books().at(-1)!.stale === false);
      expect(statuses()[2]).toEqual({ feed: 'book', marketId: 'm1', state: 'open', source: 'polling' });
    } finally {
      faults.refuse(false);
      live.closeAll();
    }
  });

  it("reads a wallet's open orders from REST while /ws/user is unreachable, then follows the socket again", async () => {
    const faults = sb.server.wsFaults();
    const [, bob] = sb.wallets as [Wallet, Wallet];
    const yes = sb.binary.tokens[0].tokenId;
    const r = recorder();
    const sources: FeedSource[] = [];
    const c = sb.server.apiKeyFor(bob.address);
    faults.refuse(true, 'user');
    const feed = new UserFeed({
      wsUrl: `${sb.server.url.replace(/^http/, 'ws')}/ws`,
      credentials: { apiKey: c.apiKey, secret: c.secret, passphrase: c.passphrase },
      fetchOpenOrders: () => allPages<UserOrder>(sb, bob, '/data/orders'),
      fetchTrades: () => allPages<UserTrade>(sb, bob, '/data/trades'),
      backoffMs: { initial: 20, max: 100 },
      pollMs: 50,
      handlers: {
        onSource: (s) => (sources.push(s), r.settle()),
        onOrder: r.settle,
        onState: r.settle,
        onReconciled: r.settle,
      },
    });
    try {
      feed.start();
      await r.until(() => feed.source === 'polling' && feed.polls > 0);
      expect(feed.state).toBe('reconnecting');
      const placed = await postOrder(sb, bob, limitOrder(yes, 'BUY', 0.05, 6));
      // No socket to say so: a REST poll finds it.
      await r.until(() => feed.order(placed) !== undefined);
      expect(feed.order(placed)).toMatchObject({ id: placed, status: 'LIVE', price: '0.05' });

      faults.refuse(false, 'user');
      await r.until(() => feed.source === 'live' && feed.state === 'live');
      expect(sources).toEqual(['polling', 'live']);
      const polls = feed.polls;
      // Over the socket again: a cancel arrives as an event, not through a poll.
      const creds = credsOf(sb, bob);
      const cancelled = await l2Request(
        sb.server.url,
        bob,
        creds,
        'DELETE',
        '/order',
        JSON.stringify({ orderID: placed }),
      );
      expect(cancelled.status).toBe(200);
      await r.until(() => feed.order(placed) === undefined);
      expect(feed.polls).toBe(polls);
    } finally {
      faults.refuse(false);
      feed.close();
    }
  });
});
