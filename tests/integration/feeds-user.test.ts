// The user feed against the real sandbox CLOB's /ws/user (a real chain, real orders): a resting order arrives as
// a placement, a fill goes MATCHED → MINED → CONFIRMED and stays pending until confirmed, a cancel removes the
// order, bad credentials end in `unauthorized` with no retry, PING is answered, and after every connection is
// dropped the feed reconnects and takes from REST an order placed while it was down; a settlement the exchange
// retries (the sandbox's settlement fault) goes MATCHED → RETRYING → FAILED (not pending) or on to CONFIRMED.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Wallet } from 'ethers';
import {
  UserFeed,
  type TradeView,
  type UserFeedState,
  type UserOrder,
  type UserTrade,
} from '../../src/main/feeds/user-feed';
import { ManualScheduler } from '../../src/main/feeds/scheduler';
import {
  allPages,
  credsOf,
  l2Request,
  limitOrder,
  postOrder,
  signedOrderJson,
  startClobSandbox,
  type ClobSandbox,
} from '../helpers/sandbox-clob';

let sb: ClobSandbox;
const feeds: UserFeed[] = [];
beforeAll(async () => {
  sb = await startClobSandbox({ orderVersion: 2 });
});
afterAll(async () => {
  for (const feed of feeds) feed.close();
  await sb?.stop();
});

/** Conditions re-checked after every feed event: tests wait on what the feed says, never on the clock. */
const waiters: { check: () => boolean; resolve: () => void }[] = [];
function settle(): void {
  for (const w of waiters.filter((w) => w.check())) {
    waiters.splice(waiters.indexOf(w), 1);
    w.resolve();
  }
}
const until = (check: () => boolean) =>
  new Promise<void>((resolve) => (check() ? resolve() : waiters.push({ check, resolve })));

interface Recorded {
  feed: UserFeed;
  scheduler: ManualScheduler;
  states: UserFeedState[];
  orderEvents: { order: UserOrder; open: boolean }[];
  trades: TradeView[];
  reconciled: (string | undefined)[];
}
function userFeed(wallet: Wallet, credentials = sb.server.apiKeyFor(wallet.address)): Recorded {
  // A hand-driven clock: reconnects and pings happen exactly when the test says.
  const scheduler = new ManualScheduler();
  const r: Omit<Recorded, 'feed'> = { scheduler, states: [], orderEvents: [], trades: [], reconciled: [] };
  const feed = new UserFeed({
    wsUrl: `${sb.server.url.replace(/^http/, 'ws')}/ws`,
    credentials: { apiKey: credentials.apiKey, secret: credentials.secret, passphrase: credentials.passphrase },
    fetchOpenOrders: () => allPages<UserOrder>(sb, wallet, '/data/orders'),
    fetchTrades: () => allPages<UserTrade>(sb, wallet, '/data/trades'),
    scheduler,
    backoffMs: { initial: 500, max: 8_000 },
    handlers: {
      onState: (s) => (r.states.push(s), settle()),
      onOrder: (order, open) => (r.orderEvents.push({ order, open }), settle()),
      onTrade: (view) => (r.trades.push(view), settle()),
      onReconciled: (error) => (r.reconciled.push(error), settle()),
      onPong: settle,
    },
  });
  feeds.push(feed);
  return { ...r, feed };
}

describe('user feed on the sandbox CLOB', () => {
  it('tracks own orders and trades: placement, a fill pending until CONFIRMED, a cancel, PING, a reconnect', async () => {
    const [alice, bob] = sb.wallets as [Wallet, Wallet];
    const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
    const a = userFeed(alice);
    a.feed.start();
    await until(() => a.reconciled.length === 1);
    expect(a.reconciled).toEqual([undefined]);
    expect(a.feed.state).toBe('live');
    expect(a.feed.openOrders()).toEqual([]);

    // Placement: reconciliation ran once, so this can only have come over the socket.
    const resting = await postOrder(sb, alice, limitOrder(yes, 'BUY', 0.4, 10));
    await until(() => a.feed.order(resting) !== undefined);
    expect(a.feed.order(resting)).toMatchObject({
      id: resting,
      status: 'LIVE',
      side: 'BUY',
      price: '0.4',
      original_size: '10',
      size_matched: '0',
    });
    expect(a.feed.order(resting)).not.toHaveProperty('event_type');

    // A fill: bob's NO bid at 0.6 crosses alice's YES bid at 0.4 (a mint match).
    await postOrder(sb, bob, limitOrder(no, 'BUY', 0.6, 10));
    await until(() => a.trades.some((t) => t.trade.status === 'CONFIRMED'));
    const tradeId = a.trades.find((t) => t.trade.status === 'CONFIRMED')!.trade.id;
    const seen = a.trades.filter((t) => t.trade.id === tradeId);
    expect(seen.map((t) => [t.trade.status, t.pending, t.failed])).toEqual([
      ['MATCHED', true, false],
      ['MINED', true, false],
      ['CONFIRMED', false, false],
    ]);
    expect(a.feed.trade(tradeId)).toMatchObject({
      pending: false,
      failed: false,
      trade: { id: tradeId, status: 'CONFIRMED', size: '10' },
    });
    // Fully filled: no longer open, as the UPDATE said.
    await until(() => a.feed.order(resting) === undefined);
    expect(a.orderEvents.at(-1)).toMatchObject({
      open: false,
      order: { id: resting, status: 'MATCHED', size_matched: '10' },
    });

    // A cancel removes the order.
    const toCancel = await postOrder(sb, alice, limitOrder(yes, 'BUY', 0.3, 5));
    await until(() => a.feed.order(toCancel) !== undefined);
    const cancelled = await l2Request(
      sb.server.url,
      alice,
      credsOf(sb, alice),
      'DELETE',
      '/order',
      JSON.stringify({ orderID: toCancel }),
    );
    expect(cancelled.status).toBe(200);
    await until(() => a.feed.order(toCancel) === undefined);
    expect(a.orderEvents.at(-1)).toMatchObject({ open: false, order: { id: toCancel, status: 'CANCELED' } });

    // PING every 10 s (on the hand-driven clock), answered PONG.
    a.scheduler.advance(10_000);
    expect(a.feed.pingsSent).toBe(1);
    await until(() => a.feed.pongs === 1);
    expect(a.feed.reconciliations).toBe(1);
    const marker = await postOrder(sb, alice, limitOrder(yes, 'BUY', 0.2, 5));
    await until(() => a.feed.order(marker) !== undefined);

    // Dropped: while down, an order is placed and the marker cancelled; the reconnect's REST reconciliation
    // brings in the one and removes the other.
    sb.server.wsFaults().dropAll('user');
    await until(() => a.feed.state === 'reconnecting');
    const whileDown = await postOrder(sb, alice, limitOrder(yes, 'BUY', 0.25, 5));
    expect(
      (
        await l2Request(
          sb.server.url,
          alice,
          credsOf(sb, alice),
          'DELETE',
          '/order',
          JSON.stringify({ orderID: marker }),
        )
      ).status,
    ).toBe(200);
    expect(a.feed.order(whileDown)).toBeUndefined();
    expect(a.feed.order(marker)).toBeDefined();
    a.scheduler.advance(500); // the first backoff step
    await until(() => a.reconciled.length === 2);
    expect(a.reconciled).toEqual([undefined, undefined]);
    expect(a.feed.state).toBe('live');
    expect(a.feed.order(whileDown)).toMatchObject({ id: whileDown, status: 'LIVE', price: '0.25' });
    expect(a.feed.order(marker)).toBeUndefined();
    expect(
      a.feed
        .openOrders()
        .map((o) => o.id)
        .sort(),
    ).toEqual((await allPages<UserOrder>(sb, alice, '/data/orders')).map((o) => o.id).sort());
    // The confirmed trade is still confirmed (REST agrees), not set back to pending.
    expect(a.feed.trade(tradeId)).toMatchObject({ pending: false, trade: { status: 'CONFIRMED' } });

    // And live again on the new connection.
    const after = await postOrder(sb, alice, limitOrder(yes, 'BUY', 0.15, 5));
    await until(() => a.feed.order(after) !== undefined);
    expect(a.states).toEqual(['connecting', 'live', 'reconnecting', 'live']);
  });

  it('bad credentials: closed with 4401, state unauthorized, no reconnect scheduled', async () => {
    const [, , carol] = sb.wallets as [Wallet, Wallet, Wallet];
    const real = sb.server.apiKeyFor(carol.address);
    const bad = userFeed(carol, { ...real, secret: Buffer.from('not the secret').toString('base64') });
    bad.feed.start();
    await until(() => bad.feed.state === 'unauthorized');
    expect(bad.states.at(-1)).toBe('unauthorized');
    expect(bad.scheduler.pending).toBe(0);
    bad.scheduler.advance(60_000);
    expect(bad.feed.state).toBe('unauthorized');
  });

  it('a settlement the exchange retries stays pending (RETRYING) and ends FAILED (not pending) or CONFIRMED', async () => {
    const [, , , dave, erin] = sb.wallets as [Wallet, Wallet, Wallet, Wallet, Wallet];
    const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];
    const d = userFeed(dave);
    d.feed.start();
    await until(() => d.reconciled.length === 1);
    const faults = sb.server.exchangeFaults();
    const statuses = (id: string) =>
      d.trades.filter((t) => t.trade.id === id).map((t) => [t.trade.status, t.pending, t.failed]);

    // Retried twice, then failed: dave's resting bid is put back on the book.
    const resting = await postOrder(sb, dave, limitOrder(yes, 'BUY', 0.45, 5));
    await until(() => d.feed.order(resting) !== undefined);
    faults.nextSettlement({ retries: 2, fail: true });
    const creds = credsOf(sb, erin);
    const refused = await l2Request(
      sb.server.url,
      erin,
      creds,
      'POST',
      '/order',
      JSON.stringify({
        deferExec: false,
        postOnly: false,
        order: await signedOrderJson(sb, erin, limitOrder(no, 'BUY', 0.55, 5)),
        owner: creds.key,
        orderType: 'GTC',
      }),
    );
    expect(refused.status).toBe(400);
    await until(() => d.trades.some((t) => t.failed));
    const failedId = d.trades.find((t) => t.failed)!.trade.id;
    expect(statuses(failedId)).toEqual([
      ['MATCHED', true, false],
      ['RETRYING', true, false],
      ['RETRYING', true, false],
      ['FAILED', false, true],
    ]);
    expect(d.feed.trade(failedId)).toMatchObject({ pending: false, failed: true });

    // Retried once, then settled.
    faults.nextSettlement({ retries: 1, fail: false });
    await postOrder(sb, erin, limitOrder(no, 'BUY', 0.55, 5));
    await until(() => d.trades.some((t) => t.trade.status === 'CONFIRMED'));
    const settledId = d.trades.find((t) => t.trade.status === 'CONFIRMED')!.trade.id;
    expect(statuses(settledId)).toEqual([
      ['MATCHED', true, false],
      ['RETRYING', true, false],
      ['MINED', true, false],
      ['CONFIRMED', false, false],
    ]);
  });
});
