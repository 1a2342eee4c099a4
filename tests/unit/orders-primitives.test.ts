// The signing and hashing backends: native (libsecp256k1, Keccak bindings) and pure JS give the same bytes as ethers.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SigningKey, Wallet, keccak256, recoverAddress } from 'ethers';
import {
  jsDigestSigner,
  jsKeccak256,
  loadNativeDigestSigner,
  loadNativeKeccak256,
  primitives,
} from '../../packages/toolkit/src/orders/primitives';
import { privateKeySigner } from '../../packages/toolkit/src/orders/signer';

const hex = (bytes: Uint8Array): string => `0x${Buffer.from(bytes).toString('hex')}`;
// Keys at the edges of the scalar range as well as random ones: 1, n − 1 and a key with leading zero bytes.
const KEYS = [
  `0x${'00'.repeat(31)}01`,
  '0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140',
  `0x0000${'ab'.repeat(30)}`,
  ...Array.from({ length: 5 }, () => hex(randomBytes(32))),
];
const N = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141';
const N_PLUS_1 = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364142';
const N_MINUS_1 = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140';
// Digests at and above the group order n are where libsecp256k1's nonce and RFC 6979's part ways (see primitives.ts).
const DIGESTS = [
  new Uint8Array(32),
  new Uint8Array(32).fill(0xff),
  ...[N, N_PLUS_1, N_MINUS_1].map((d) => Buffer.from(d, 'hex')),
  ...Array.from({ length: 60 }, () => randomBytes(32)),
];

const nativeSigner = loadNativeDigestSigner();
const nativeKeccak = loadNativeKeccak256();
// The packages ship binaries for linux-x64 (where CI runs), win32-x64 and darwin (arm64 for secp256k1, x64 for keccak).
const shipsBinaries = process.platform === 'linux' && process.arch === 'x64';

describe('signing backends', () => {
  it('load natively where the packages ship a binary, and say which one signs', () => {
    if (shipsBinaries) {
      expect(nativeSigner).toBeDefined();
      expect(nativeKeccak).toBeDefined();
      expect(primitives.name).toMatch(/native libsecp256k1.*native Keccak/);
    }
    if (!nativeSigner) expect(primitives.digestSigner).toBe(jsDigestSigner);
    if (!nativeKeccak) expect(primitives.keccak256).toBe(jsKeccak256);
  });

  it("sign every digest with every key exactly as ethers' SigningKey does (RFC 6979, low s, v 27/28)", () => {
    const backends = [jsDigestSigner, ...(nativeSigner ? [nativeSigner] : [])];
    let highRecovery = 0;
    for (const key of KEYS) {
      const reference = new SigningKey(key);
      const signers = backends.map((make) => make(Buffer.from(key.slice(2), 'hex')));
      for (const digest of DIGESTS) {
        const expected = reference.sign(digest);
        if (expected.v === 28) highRecovery++;
        for (const sign of signers) expect(sign(digest)).toBe(expected.serialized);
      }
    }
    // Both recovery ids occur in the grid, so v = 27 and v = 28 are both compared.
    expect(highRecovery).toBeGreaterThan(0);
    expect(highRecovery).toBeLessThan(KEYS.length * DIGESTS.length);
  });

  it('hash every length across the rate boundary as ethers does', () => {
    const backends = [jsKeccak256, ...(nativeKeccak ? [nativeKeccak] : [])];
    for (const length of [0, 1, 31, 32, 66, 135, 136, 137, 271, 272, 384, 416, 1000]) {
      const data = randomBytes(length);
      for (const hash of backends) expect(hex(hash(data))).toBe(keccak256(data));
      // A view into a larger buffer hashes only its own bytes.
      const backing = new Uint8Array(length + 3).fill(7);
      backing.set(data, 3);
      const view = backing.subarray(3);
      for (const hash of backends) expect(hex(hash(view))).toBe(keccak256(data));
    }
  });

  it('give signatures that recover to the key, through the signer the toolkit hands out', async () => {
    const wallet = Wallet.createRandom();
    const signer = privateKeySigner(wallet.privateKey);
    expect(await signer.getAddress()).toBe(wallet.address);
    for (const digest of DIGESTS.slice(0, 8)) {
      const signature = signer.signDigest!(hex(digest));
      expect(recoverAddress(hex(digest), signature)).toBe(wallet.address);
    }
    expect(() => signer.signDigest!('0x1234')).toThrow(/32 bytes/);
    expect(() => signer.signDigest!(`0x${'ab'.repeat(31)}zz`)).toThrow(/32 bytes/);
    expect(() => signer.signDigest!(`00${'ab'.repeat(32)}`)).toThrow(/32 bytes/);
  });
});
