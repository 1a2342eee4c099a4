// Padding of secrets the app stores itself (docs/protocol.md#constants-and-limits): whole 2048-byte blocks, so length tells nothing.
import { describe, expect, it } from 'vitest';
import { PADDING_BLOCK, padSecret, padText, unpadSecret, unpadText } from '../../src/main/wallets/padding';

describe('padding to 2048-byte blocks', () => {
  it('pads any payload up to 2044 bytes to exactly one block, and gives it back', () => {
    for (const size of [0, 1, 35, 500, 2043, 2044]) {
      const payload = new Uint8Array(size).map((_, i) => (i * 7 + 1) % 256);
      const padded = padSecret(payload);
      expect(padded.length).toBe(PADDING_BLOCK);
      expect(Buffer.from(unpadSecret(padded)).equals(Buffer.from(payload))).toBe(true);
    }
  });

  it('takes a second block only past 2044 bytes (4 bytes hold the length)', () => {
    expect(padSecret(new Uint8Array(2045)).length).toBe(2 * PADDING_BLOCK);
    expect(padSecret(new Uint8Array(4092)).length).toBe(2 * PADDING_BLOCK);
    expect(padSecret(new Uint8Array(4093)).length).toBe(3 * PADDING_BLOCK);
  });

  it('makes API credentials of different lengths the same size', () => {
    const short = padText(JSON.stringify({ key: 'k', secret: 's', passphrase: 'p' }));
    const long = padText(JSON.stringify({ key: 'k'.repeat(40), secret: 's'.repeat(44), passphrase: 'p'.repeat(64) }));
    expect(short.length).toBe(long.length);
    expect(JSON.parse(unpadText(long))).toEqual({
      key: 'k'.repeat(40),
      secret: 's'.repeat(44),
      passphrase: 'p'.repeat(64),
    });
  });

  it('refuses damaged padding rather than return garbage', () => {
    const padded = padSecret(Buffer.from('hello'));
    expect(() => unpadSecret(padded.slice(0, 2047))).toThrow('bad padding');
    const longLength = padded.slice();
    longLength[0] = 0xff;
    expect(() => unpadSecret(longLength)).toThrow('bad padding');
    const dirtyTail = padded.slice();
    dirtyTail[2000] = 1;
    expect(() => unpadSecret(dirtyTail)).toThrow('bad padding');
    expect(() => unpadText('not base64!')).toThrow('not base64');
  });
});
