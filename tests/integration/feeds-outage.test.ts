// Back quickly after an outage: the sandbox's exchange is stopped under an open market for longer than the old
// back-off's doubling could keep up with (it reached 8 s and more), then started again on the SAME port with its
// saved state; with the feeds' default back-off, the market feed's book and the user feed are live again, the book
// rebuilt from a fresh snapshot that equals GET /book, including an order placed after the restart, and the user
// feed holds that order from its REST reconciliation. How soon is the back-off's cap (2 s), proven on a hand-driven
// clock in tests/unit/feeds-redial.test.ts: no wall-clock time is asserted here.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketFeed, type MarketFeedState, type RestBook } from '../../src/main/feeds/market-feed';
import { UserFeed, type UserFeedState, type UserOrder, type UserTrade } from '../../src/main/feeds/user-feed';
import { startClobServer, type ClobServer } from '../../sandbox/clob/server';
import { allPages, limitOrder, postOrder, startClobSandbox, type ClobSandbox } from '../helpers/sandbox-clob';

let sb: ClobSandbox;
let restarted: ClobServer | undefined;
let stateFile: string;
const feeds: { close(): void }[] = [];

beforeAll(async () => {
  stateFile = join(await mkdtemp(join(tmpdir(), 'pmdesk-outage-')), 'clob-state.json');
  sb = await startClobSandbox({ orderVersion: 2, stateFile, saveIntervalMs: 50 });
}, 120_000);
afterAll(async () => {
  for (const feed of feeds) feed.close();
  await restarted?.stop();
  await sb?.stop().catch(() => undefined);
});

/** Resolves when `check` holds, polled every 20 ms; rejects after `ms`. */
async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the live feeds after the exchange was down', () => {
  it('are live again once the exchange answers, books resynced from a fresh snapshot', async () => {
    const [alice, bob] = sb.wallets as [Wallet, Wallet];
    const yes = sb.binary.tokens[0].tokenId;
    const url = sb.server.url;
    const port = Number(new URL(url).port);
    const wsUrl = `${url.replace(/^http/, 'ws')}/ws`;
    const restBook = async (tokenId: string) =>
      (await (await fetch(`${url}/book?token_id=${tokenId}`)).json()) as RestBook;
    await postOrder(sb, alice, limitOrder(yes, 'BUY', 0.4, 10));

    // Default back-off: what the terminal runs with (no backoffMs given).
    const marketStates: MarketFeedState[] = [];
    const market = new MarketFeed({
      wsUrl,
      fetchBook: restBook,
      depth: 100,
      handlers: { onState: (s) => marketStates.push(s) },
    });
    feeds.push(market);
    const userStates: UserFeedState[] = [];
    let reconciled = 0;
    const creds = sb.server.apiKeyFor(bob.address);
    const user = new UserFeed({
      wsUrl,
      credentials: { apiKey: creds.apiKey, secret: creds.secret, passphrase: creds.passphrase },
      // The REST reads go to whichever server is up: the first, then the one restarted on its port.
      fetchOpenOrders: () => allPages<UserOrder>({ ...sb, server: restarted ?? sb.server }, bob, '/data/orders'),
      fetchTrades: () => allPages<UserTrade>({ ...sb, server: restarted ?? sb.server }, bob, '/data/trades'),
      handlers: {
        onState: (s) => userStates.push(s),
        onReconciled: (error) => void (error === undefined && reconciled++),
      },
    });
    feeds.push(user);
    market.start();
    market.subscribe([yes]);
    user.start();
    await until(
      () => market.state === 'live' && market.book(yes, 100) !== undefined && user.state === 'live' && reconciled > 0,
      10_000,
      'both feeds live',
    );
    const before = market.book(yes, 100)!;
    expect(before.bids.map((l) => l.price)).toEqual([0.4]);

    // The outage: long enough for the reconnects to fail several times over, the back-off at its cap.
    await new Promise((resolve) => setTimeout(resolve, 400)); // the state file has the resting order
    await sb.server.stop();
    await until(
      () => market.state === 'reconnecting' && user.state === 'reconnecting',
      5_000,
      'both feeds see the drop',
    );
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    const reconciledBefore = reconciled;
    const marketLiveBefore = marketStates.filter((s) => s === 'live').length;
    const userLiveBefore = userStates.filter((s) => s === 'live').length;

    // Back on the same port with its saved orders; an order placed at once changes the book while the feeds are still away.
    restarted = await startClobServer({
      deployment: sb.chain,
      catalog: sb.catalog,
      marketData: sb.data,
      port,
      stateFile,
    });
    expect(restarted.url).toBe(url);
    await postOrder({ ...sb, server: restarted }, bob, limitOrder(yes, 'BUY', 0.42, 5));
    const rest = await restBook(yes);
    expect(rest.bids.map((l) => l.price)).toEqual(['0.4', '0.42']);

    await until(
      () =>
        marketStates.filter((s) => s === 'live').length > marketLiveBefore && market.book(yes, 100)?.hash === rest.hash,
      20_000,
      'the book live from a fresh snapshot',
    );
    await until(
      () => userStates.filter((s) => s === 'live').length > userLiveBefore && reconciled > reconciledBefore,
      20_000,
      `the user feed live and reconciled (${userStates.join(',')})`,
    );
    const after = market.book(yes, 100)!;
    expect([...after.bids].reverse()).toEqual(rest.bids.map((l) => ({ price: Number(l.price), size: Number(l.size) })));
    expect(user.openOrders().map((o) => o.price)).toEqual(['0.42']);
  }, 60_000);
});
