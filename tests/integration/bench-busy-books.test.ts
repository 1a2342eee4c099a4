// The latency and soak benches' busy books (bench/busy-books.ts) on the real sandbox CLOB: published through
// ClobServer.publishBooks they reach the terminal's market feed as price_change deltas whose hashes the feed
// recomputes and accepts (no resync, which would swap in the engine's own book and end the measurement), the
// book never crosses, and the last message's send timestamp is the book the feed hands out. No timing asserted.
import { bookFromLevels } from '../../src/shared/book';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarketFeed, type BookView, type RestBook } from '../../src/main/feeds/market-feed';
import { BusyBook, clockOffset, driveBooks, percentile } from '../../bench/busy-books';
import { startClobSandbox, type ClobSandbox } from '../helpers/sandbox-clob';
import { until } from '../helpers/until';

let sb: ClobSandbox;
let feed: MarketFeed | undefined;
beforeAll(async () => {
  sb = await startClobSandbox({ orderVersion: 2 });
});
afterAll(async () => {
  feed?.close();
  await sb?.stop();
});

describe('busy books for the benches', () => {
  it('reach the market feed as deltas it checks by hash, never crossed, stamped with their send time', async () => {
    const markets = [sb.binary, sb.catalog.events.flatMap((e) => e.markets).find((m) => m.tickSize === '0.001')!];
    expect(markets[1]).toBeDefined();
    const books = markets.map((market, i) => new BusyBook(sb.server, market, { seed: i + 7 }));
    for (const book of books) book.publishCurrent();

    const last = new Map<string, BookView>();
    let crossed = 0;
    const warnings: string[] = [];
    feed = new MarketFeed({
      wsUrl: `${sb.server.url.replace(/^http/, 'ws')}/ws`,
      fetchBook: async (tokenId) =>
        (await (await fetch(`${sb.server.url}/book?token_id=${tokenId}`)).json()) as RestBook,
      depth: 1000,
      handlers: {
        onBook: (view) => {
          last.set(view.tokenId, view);
          if (view.bids[0] && view.asks[0] && Number(view.bids[0].price) >= Number(view.asks[0].price)) crossed += 1;
        },
        onWarning: (warning) => warnings.push(`${warning.kind}: ${'reason' in warning ? warning.reason : ''}`),
      },
    });
    feed.subscribe(books.map((b) => b.tokenId));
    feed.start();
    await until(() => books.every((b) => last.has(b.tokenId)), 'the first snapshots');

    const before = Date.now();
    const { sent } = await driveBooks(books, 400, 0.5);
    expect(sent).toBe(2 * 200);
    const final = books.map((b) => b.snapshot(0));
    await until(() => final.every((s) => last.get(s.asset_id)?.hash === s.hash), 'the last published books');

    expect(warnings).toEqual([]);
    expect(feed.resyncs).toBe(0);
    expect(crossed).toBe(0);
    for (const snapshot of final) {
      const view = last.get(snapshot.asset_id)!;
      // The feed's book is the published one, level for level, and carries the last message's send time.
      // (The published book lists levels as the CLOB does, strings best last; the feed's is the one Book shape.)
      const published = bookFromLevels(snapshot.asset_id, snapshot);
      expect({ bids: view.bids, asks: view.asks }).toEqual({ bids: published.bids, asks: published.asks });
      expect(view.timestamp).toBe(Number(snapshot.timestamp));
      expect(view.timestamp).toBeGreaterThanOrEqual(before);
      expect(view.timestamp).toBeLessThanOrEqual(Date.now());
    }

    // The hashes were checked, not merely passed along: a book under a wrong hash is doubted at once.
    const moved = books[0]!.snapshot(Date.now());
    sb.server.publishBooks(markets[0]!.conditionId, [{ ...moved, bids: moved.bids.slice(1), hash: 'f'.repeat(40) }]);
    await until(() => feed!.resyncs === 1, 'a resync on the wrong hash');
  });

  it('percentile is the nearest rank; a clock read against itself is off by about nothing', async () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([5, 1, 4, 2, 3], 99)).toBe(5);
    expect(percentile([], 50)).toBeNaN();
    const { offsetMs, rttMs } = await clockOffset(async () => performance.timeOrigin + performance.now());
    expect(Math.abs(offsetMs)).toBeLessThanOrEqual(rttMs);
  });
});
