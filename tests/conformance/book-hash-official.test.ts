// Order book hashes against both official clients' getOrderBookHash, for books with and without a hash field.
import { describe, expect, it } from 'vitest';
import { ClobClient as ClobClientV1 } from '@polymarket/clob-client';
import { ClobClient as ClobClientV2 } from '@polymarket/clob-client-v2';
import { orderBookHash } from '../../packages/toolkit/src/clob/book';

const books: Record<string, unknown>[] = [
  {
    market: '0xbd31dc8a20211944f6b70f31557f1001557b59905b7738480ca09bd4532f84af',
    asset_id: '52114319501245915516055106046884209969926127482827954674443846427813813222426',
    timestamp: '1757908892351',
    hash: '0x1234',
    bids: [
      { price: '0.4', size: '100' },
      { price: '0.45', size: '20.5' },
    ],
    asks: [
      { price: '0.6', size: '3' },
      { price: '0.55', size: '1000' },
    ],
    min_order_size: '5',
    tick_size: '0.01',
    neg_risk: false,
  },
  { asset_id: '1', bids: [], asks: [], timestamp: '1' },
  { hash: '', market: 'é ✓', asset_id: '2', bids: [{ price: '0.001', size: '1e3' }], asks: [] },
];

describe('order book hash', () => {
  it('equals both official clients, without mutating the book', async () => {
    const v1 = new ClobClientV1('http://127.0.0.1:9', 137);
    const v2 = new ClobClientV2({ host: 'http://127.0.0.1:9', chain: 137 as never });
    for (const book of books) {
      const before = JSON.stringify(book);
      const ours = orderBookHash(book);
      expect(JSON.stringify(book)).toBe(before);
      expect(ours).toMatch(/^[0-9a-f]{40}$/);
      expect(ours).toBe(await v1.getOrderBookHash(structuredClone(book) as never));
      expect(ours).toBe(await v2.getOrderBookHash(structuredClone(book) as never));
    }
    expect(orderBookHash(books[0]!)).not.toBe(orderBookHash({ ...books[0]!, timestamp: '1757908892352' }));
  });
});
