// The toolkit's Node-free byte helpers and hashes (packages/toolkit/src/base/bytes.ts, the HMAC and book hash that
// replaced node:crypto) against Node's own Buffer and crypto, so the browser path gives the same bytes.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compareBytes, fromHex, toHex, writeHex, writeUint32BE } from '../../packages/toolkit/src/base/bytes';
import { buildHmacSignature } from '../../packages/toolkit/src/clob/auth';
import { orderBookHash } from '../../packages/toolkit/src/clob/book';
import { isNode, nodeRequire } from '../../packages/toolkit/src/base/platform';

describe('bytes without Buffer', () => {
  it('hex both ways equals Buffer’s, for every byte value and random lengths', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(toHex(all)).toBe(Buffer.from(all).toString('hex'));
    for (let n = 0; n < 50; n++) {
      const bytes = randomBytes(n);
      const hex = bytes.toString('hex');
      expect(toHex(bytes)).toBe(hex);
      expect(Buffer.from(fromHex(`0x${hex}`)).equals(bytes)).toBe(true);
      expect(Buffer.from(fromHex(hex.toUpperCase())).equals(bytes)).toBe(true);
    }
  });

  it('writes hex and big-endian words where Buffer would', () => {
    const mine = new Uint8Array(40);
    const theirs = Buffer.alloc(40);
    writeHex(mine, 'deadBEEF', 3);
    theirs.write('deadbeef', 3, 'hex');
    writeUint32BE(mine, 0xfedcba98, 20);
    theirs.writeUInt32BE(0xfedcba98, 20);
    expect(Buffer.from(mine).equals(theirs)).toBe(true);
  });

  it('compares as unsigned big-endian numbers', () => {
    expect(compareBytes(fromHex('00ff'), fromHex('0100'))).toBe(-1);
    expect(compareBytes(fromHex('ff00'), fromHex('00ff'))).toBe(1);
    expect(compareBytes(fromHex('abcd'), fromHex('abcd'))).toBe(0);
  });
});

describe('hashes without node:crypto', () => {
  it('the L2 HMAC equals node:crypto’s for base64 and base64url secrets, padded or not', () => {
    for (let i = 0; i < 40; i++) {
      const raw = randomBytes(16 + i);
      const message = `${1_700_000_000 + i}POST/order{"n":${i}}`;
      const expected = createHmac('sha256', raw)
        .update(message)
        .digest('base64')
        .replace(/\+/g, '-')
        .replace(/\//g, '_');
      const standard = raw.toString('base64');
      for (const secret of [standard, standard.replace(/=+$/, ''), raw.toString('base64url')]) {
        expect(buildHmacSignature(secret, 1_700_000_000 + i, 'POST', '/order', `{"n":${i}}`)).toBe(expected);
      }
    }
  });

  it('the book hash is SHA-1 of the summary with hash "", as node:crypto computes it', () => {
    const book = {
      market: '0xabc',
      asset_id: '123',
      timestamp: '1700000000000',
      bids: [{ price: '0.4', size: '10' }],
      asks: [],
      hash: 'old',
      tick_size: '0.01',
    };
    const expected = createHash('sha1')
      .update(JSON.stringify({ ...book, hash: '' }))
      .digest('hex');
    expect(orderBookHash(book)).toBe(expected);
    expect(book.hash).toBe('old');
  });
});

describe('the platform seen from the toolkit', () => {
  it('under Node, finds packages through process.getBuiltinModule; with no file to resolve from, nothing', () => {
    expect(isNode).toBe(true);
    const require = nodeRequire(import.meta.url);
    expect(typeof require?.resolve('ethers')).toBe('string');
    expect(nodeRequire(undefined)).toBeUndefined();
  });
});
