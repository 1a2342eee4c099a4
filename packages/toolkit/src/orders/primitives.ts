// The two primitives every signed order pays for: keccak-256 and a deterministic secp256k1 signature.
// libsecp256k1 and the Keccak code package through their native bindings when the prebuilt binaries shipped
// in those npm packages load on this platform (signing about 8× faster than ethers' pure-JS @noble/curves 1.x),
// ethers' own pure-JS code otherwise, each primitive on its own. Both sign by RFC 6979 with low s, so a
// signature is the same bytes whichever backend made it (tests/unit/orders-primitives.test.ts checks them
// against each other and against ethers; the conformance suite checks whole orders against the official clients).
// No Node module is imported: the native packages are reached through base/platform.ts, so a browser bundle gets the
// pure-JS path and never sees a Node built-in.
import { SigningKey, getBytes, keccak256 as ethersKeccak256 } from 'ethers';
import { compareBytes, toHex } from '../base/bytes';
import { nodeRequire } from '../base/platform';

export type Keccak256 = (data: Uint8Array) => Uint8Array;
/** Binds one 32-byte key: digest in, `0x` r ‖ s ‖ v out (v = 27 or 28, as ethers serializes). */
export type DigestSignerFactory = (privateKey: Uint8Array) => (digest: Uint8Array) => string;

export interface Primitives {
  /** Names the code actually doing the work, for the benchmark and for diagnostics. */
  readonly name: string;
  readonly keccak256: Keccak256;
  readonly digestSigner: DigestSignerFactory;
}

/** The slice of the `secp256k1` package's API used here (its `bindings` entry: native only, never its elliptic fallback). */
interface NativeSecp256k1 {
  ecdsaSign(
    msg32: Uint8Array,
    privateKey: Uint8Array,
    options?: object,
    output?: Uint8Array,
  ): { signature: Uint8Array; recid: number };
}
/** The Keccak package's native sponge, the class its own JS wrapper drives (that wrapper is a stream: costly per hash). */
interface NativeKeccakState {
  initialize(rate: number, capacity: number): void;
  absorb(data: Uint8Array): void;
  squeeze(length: number): Uint8Array;
}
type NativeKeccakStateClass = new () => NativeKeccakState;

export const jsKeccak256: Keccak256 = (data) => getBytes(ethersKeccak256(data));

export const jsDigestSigner: DigestSignerFactory = (privateKey) => {
  const key = new SigningKey(privateKey);
  return (digest) => key.sign(digest).serialized;
};

/** Resolves the optional native packages from where the toolkit is installed (undefined in a browser). */
const require = nodeRequire(import.meta.url);
/** n, the order of secp256k1's group. */
const CURVE_ORDER = getBytes('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');

/** libsecp256k1's signer, or undefined where the package has no binary for this platform. */
export function loadNativeDigestSigner(): DigestSignerFactory | undefined {
  if (!require) return undefined;
  let secp: NativeSecp256k1;
  try {
    // The `bindings` entry throws when the native code is missing instead of silently falling back to JS.
    secp = require('secp256k1/bindings') as NativeSecp256k1;
  } catch {
    return undefined;
  }
  return (privateKey) => {
    if (privateKey.length !== 32) throw new Error('private key must be 32 bytes');
    const key = Uint8Array.from(privateKey);
    // One output buffer per key: the signature is turned into text before the next call can overwrite it.
    const out = new Uint8Array(64);
    let js: ((digest: Uint8Array) => string) | undefined;
    return (digest) => {
      // The bundled libsecp256k1 feeds a digest ≥ n to its RFC 6979 nonce unreduced, where RFC 6979 (and
      // @noble/curves, hence the official clients) reduce it mod n first: a different signature. Such a digest
      // is a 2^-128 event for keccak output, but correctness is not left to odds: it goes to the JS signer.
      if (digest[0] === 0xff && compareBytes(digest, CURVE_ORDER) >= 0) return (js ??= jsDigestSigner(key))(digest);
      const { recid } = secp.ecdsaSign(digest, key, {}, out);
      // ethers writes v = 28 for any non-zero recovery id; so does this.
      return `0x${toHex(out)}${recid ? '1c' : '1b'}`;
    };
  };
}

/** Keccak-256 on the Keccak code package's native sponge, or undefined where it has no binary for this platform. */
export function loadNativeKeccak256(): Keccak256 | undefined {
  if (!require) return undefined;
  let sponge: NativeKeccakState;
  try {
    // Loaded the way keccak/bindings.js loads it, through the node-gyp-build that package depends on.
    const keccakRequire = nodeRequire(require.resolve('keccak/bindings'))!;
    const loadAddon = keccakRequire('node-gyp-build') as (dir: string) => unknown;
    const packageJson = keccakRequire.resolve('keccak/package.json');
    const State = loadAddon(packageJson.slice(0, -'package.json'.length - 1)) as NativeKeccakStateClass;
    sponge = new State();
  } catch {
    return undefined;
  }
  // Rate 1088, capacity 512, Keccak's own padding (not SHA-3's). Synchronous, so one sponge serves every call.
  const keccak256: Keccak256 = (data) => {
    sponge.initialize(1088, 512);
    sponge.absorb(data);
    return sponge.squeeze(32);
  };
  // The sponge is driven below its package's public API: prove it is Keccak-256 before trusting orders to it.
  const probe = new TextEncoder().encode('pmdesk keccak probe');
  return toHex(keccak256(probe)) === ethersKeccak256(probe).slice(2) ? keccak256 : undefined;
}

function choose(): Primitives {
  const nativeSign = loadNativeDigestSigner();
  const nativeKeccak = loadNativeKeccak256();
  return {
    name: `${nativeSign ? 'native libsecp256k1 (secp256k1 package)' : 'pure-JS secp256k1 (ethers 6, @noble/curves 1.x)'} + ${
      nativeKeccak ? 'native Keccak (keccak package)' : 'pure-JS keccak (ethers 6, @noble/hashes 1.x)'
    }`,
    keccak256: nativeKeccak ?? jsKeccak256,
    digestSigner: nativeSign ?? jsDigestSigner,
  };
}

/** What this process uses: each primitive native when it loads, pure JS otherwise. */
export const primitives: Primitives = choose();
