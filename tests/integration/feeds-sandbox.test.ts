// The market feed against the real sandbox CLOB's /ws/market (a real chain, real orders): after every order
// placed, grown, crossed and cancelled, the feed's book of both outcomes equals GET /book, levels and hash; the
// hashes are checked on the way and force no resync; then under the sandbox's faults (a duplicate, a corrupt
// hash, two changes swapped, changes lost in a stall, every connection dropped) the books come back to GET /book,
// by dropping the replay, resyncing from REST, or reconnecting to fresh snapshots.
import { bookFromLevels } from '../../src/shared/book';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Wallet } from 'ethers';
import { MarketFeed, type BookView, type RestBook } from '../../src/main/feeds/market-feed';
import { DeadManSwitch } from '../../src/main/feeds/heartbeat';
import { ClobClient } from '../../packages/toolkit/src/clob/client';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';
import {
  credsOf,
  l2Request,
  limitOrder,
  postOrder,
  signedOrderJson,
  startClobSandbox,
  type ClobSandbox,
} from '../helpers/sandbox-clob';

let sb: ClobSandbox;
let feed: MarketFeed;
beforeAll(async () => {
  // A 1 s dead-man switch (Polymarket: 10 s), so the heartbeat test sees it fire without a long wait.
  sb = await startClobSandbox({ orderVersion: 2, heartbeatTimeoutMs: 1_000 });
});
afterAll(async () => {
  feed?.close();
  await sb?.stop();
});

describe('market feed on the sandbox CLOB', () => {
  it('keeps both outcomes equal to GET /book through placements, a trade and a cancel', async () => {
    const [alice, bob, carol] = sb.wallets as [Wallet, Wallet, Wallet];
    const restBook = async (tokenId: string) =>
      (await (await fetch(`${sb.server.url}/book?token_id=${tokenId}`)).json()) as RestBook;
    const [yes, no] = [sb.binary.tokens[0].tokenId, sb.binary.tokens[1].tokenId];

    const views: BookView[] = [];
    const waiters: { match: (v: BookView) => boolean; resolve: () => void }[] = [];
    feed = new MarketFeed({
      wsUrl: `${sb.server.url.replace(/^http/, 'ws')}/ws`,
      fetchBook: restBook,
      depth: 1000,
      handlers: {
        onBook: (view) => {
          views.push(view);
          for (const w of waiters.filter((w) => w.match(view))) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve();
          }
        },
      },
    });
    const viewWith = (tokenId: string, hash: string) =>
      new Promise<void>((resolve) =>
        views.some((v) => v.tokenId === tokenId && v.hash === hash)
          ? resolve()
          : waiters.push({ match: (v) => v.tokenId === tokenId && v.hash === hash, resolve }),
      );
    /** After an action, both outcomes' books in the feed are GET /book's (the CLOB lists best last). */
    const matchesRest = async () => {
      for (const token of [yes, no]) {
        const rest = await restBook(token);
        await viewWith(token, rest.hash!);
        const book = feed.book(token, 1000)!;
        // The REST book (strings, best last) in the one Book shape the feed hands out (numbers, best first).
        const asBook = bookFromLevels(token, rest);
        expect({ bids: book.bids, asks: book.asks, hash: book.hash, timestamp: String(book.timestamp) }).toEqual({
          bids: asBook.bids,
          asks: asBook.asks,
          hash: rest.hash,
          timestamp: rest.timestamp,
        });
      }
    };

    feed.subscribe([yes, no]);
    feed.start();
    await matchesRest();
    const first = await postOrder(sb, alice, limitOrder(yes, 'BUY', 0.4, 10));
    await matchesRest();
    await postOrder(sb, bob, limitOrder(no, 'BUY', 0.55, 8));
    await matchesRest();
    await postOrder(sb, alice, limitOrder(yes, 'BUY', 0.4, 5));
    await matchesRest();
    await postOrder(sb, carol, limitOrder(no, 'BUY', 0.62, 12)); // crosses alice's YES bids: a trade
    await matchesRest();
    const creds = credsOf(sb, alice);
    const cancelled = await l2Request(
      sb.server.url,
      alice,
      creds,
      'DELETE',
      '/order',
      JSON.stringify({ orderID: first }),
    );
    expect(cancelled.status).toBe(200);
    await matchesRest();

    expect(feed.state).toBe('live');
    expect(feed.resyncs).toBe(0);
    // The hashes were checked, not skipped: a change whose hash the book does not give forces a resync.
    expect([feed.hashChecked(yes), feed.hashChecked(no)]).toEqual([true, true]);
    expect(feed.book(yes)!.tickSize).toBe(sb.binary.tickSize); // learnt from GET /book: the channel's snapshot has none

    // The sandbox's faults, on the same feed: each ends with both books equal to GET /book again.
    const faults = sb.server.wsFaults();
    const bid = (price: number) => postOrder(sb, bob, limitOrder(yes, 'BUY', price, 5));
    faults.duplicateNext(); // a replay: dropped, no resync
    await bid(0.2);
    await matchesRest();
    expect(feed.resyncs).toBe(0);

    faults.corruptNextHash(); // a hash no book has: resynced from GET /book (a YES bid moves the NO book too)
    await bid(0.21);
    await matchesRest();
    expect(feed.resyncs).toBe(2);

    faults.swapNext(); // two changes out of order
    await bid(0.22);
    await bid(0.23);
    await matchesRest();
    expect(feed.resyncs).toBeGreaterThan(2);

    const before = feed.resyncs;
    faults.stall(); // changes lost in a stall: the next one's hash reveals the drift
    await bid(0.24);
    faults.resume(false);
    await bid(0.25);
    await matchesRest();
    expect(feed.resyncs).toBeGreaterThan(before);

    const states: string[] = [];
    const live = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        states.push(feed.state);
        if (states.includes('reconnecting') && feed.state === 'live') {
          clearInterval(check);
          resolve();
        }
      }, 5);
    });
    faults.dropAll('market'); // a restarting server: reconnect, fresh snapshots
    await live;
    await bid(0.26);
    await matchesRest();
  });

  it('dead-man switch: heartbeats keep an order alive past the timeout; once stopped, the exchange cancels it', async () => {
    const wallet = (sb.wallets[3] ?? sb.wallets[0]) as Wallet;
    const c = sb.server.apiKeyFor(wallet.address);
    const creds = { key: c.apiKey, secret: c.secret, passphrase: c.passphrase };
    const client = new ClobClient({
      host: sb.server.url,
      chainId: sb.chain.chainId,
      signer: privateKeySigner(wallet.privateKey),
      creds,
    });
    const token = sb.binary.tokens[0].tokenId;
    const dms = new DeadManSwitch({ client, intervalMs: 200 });
    dms.start();
    const wait = async (check: () => boolean | Promise<boolean>, what: string) => {
      for (let i = 0; i < 500; i++) {
        if (await check()) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`never happened: ${what}`);
    };
    await wait(() => dms.state === 'on', 'switch on');
    const order = await signedOrderJson(sb, wallet, limitOrder(token, 'BUY', 0.07, 5));
    const posted = await l2Request(
      sb.server.url,
      wallet,
      creds,
      'POST',
      '/order',
      JSON.stringify({ deferExec: false, postOnly: false, order, owner: creds.key, orderType: 'GTC' }),
    );
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    const orderId = (posted.body as { orderID: string }).orderID;
    const status = async () => ((await client.getOrder(orderId)) as { status?: string }).status;
    const beats = dms.beats;
    await wait(() => dms.beats >= beats + 8, 'eight more beats'); // 1.6 s of beats: longer than the 1 s timeout
    expect(await status()).toBe('LIVE');
    expect(dms.state).toBe('on');
    dms.stop();
    await wait(async () => (await status()) !== 'LIVE', 'cancelled by the exchange');
    expect(await status()).toMatch(/CANCEL/);
  });
});
