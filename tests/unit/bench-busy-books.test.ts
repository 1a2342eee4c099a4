import { describe, expect, it } from 'vitest';
import { BusyBook } from '../../bench/busy-books';
import { bookHash } from '../../sandbox/clob/book-snapshot';
import type { BookSnapshot } from '../../sandbox/market/market-data';

const market = {
  conditionId: `0x${'c'.repeat(64)}`,
  tokens: [{ tokenId: '1234567890123456789' }, { tokenId: '2' }],
  tickSize: '0.01',
  negRisk: false,
};

describe("the benches' busy books", () => {
  it('hash every published book as the exchange hashes a summary, through thousands of steps', () => {
    const published: BookSnapshot[] = [];
    const book = new BusyBook({ publishBooks: (_id, books) => published.push(...books) }, market as never, { seed: 3 });
    book.publishCurrent();
    for (let i = 0; i < 2000; i++) book.publish();
    const hashes = new Set<string>();
    for (const snapshot of published) {
      // bookHash empties `hash` in its place: the summary as GET /book orders its fields.
      expect(snapshot.hash).toBe(bookHash(snapshot));
      hashes.add(snapshot.hash);
    }
    // The books really moved (a hash each), best levels emptied and refilled on the way.
    expect(hashes.size).toBeGreaterThan(1900);
    expect(new Set(published.map((b) => b.bids.length + b.asks.length)).size).toBeGreaterThan(1);
  });

  it('hash a coarse-tick, negative-risk book the same way', () => {
    const published: BookSnapshot[] = [];
    const coarse = { ...market, tickSize: '0.1', negRisk: true };
    const book = new BusyBook({ publishBooks: (_id, books) => published.push(...books) }, coarse as never, {
      seed: 9,
      minOrderSize: '15',
      outcome: 1,
    });
    for (let i = 0; i < 200; i++) book.publish();
    for (const snapshot of published) expect(snapshot.hash).toBe(bookHash(snapshot));
    expect(published[0]!.neg_risk).toBe(true);
  });
});
