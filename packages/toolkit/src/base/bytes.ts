// Bytes without Node's Buffer: hex and base64 on plain Uint8Array, so the same signing and auth code runs in
// Node and in a browser bundle and gives the same bytes in both (tests/conformance proves them).

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const NIBBLE: Record<string, number> = {};
for (let i = 0; i < 16; i++) {
  NIBBLE[i.toString(16)] = i;
  NIBBLE[i.toString(16).toUpperCase()] = i;
}

/** Lowercase hex of the bytes, without `0x`. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]!];
  return out;
}

/** Writes hex text (no `0x`, even length, already checked by the caller) into `target` from `offset`. */
export function writeHex(target: Uint8Array, hex: string, offset = 0): void {
  for (let i = 0, at = offset; i < hex.length; i += 2, at++)
    target[at] = (NIBBLE[hex[i]!]! << 4) | NIBBLE[hex[i + 1]!]!;
}

/** Hex text (with or without `0x`) as bytes; the caller has checked it is hex. */
export function fromHex(hex: string): Uint8Array {
  const text = hex.startsWith('0x') ? hex.slice(2) : hex;
  const out = new Uint8Array(text.length >> 1);
  writeHex(out, text);
  return out;
}

/** Writes an unsigned 32-bit integer big-endian at `offset`. */
export function writeUint32BE(target: Uint8Array, value: number, offset: number): void {
  target[offset] = value >>> 24;
  target[offset + 1] = (value >>> 16) & 0xff;
  target[offset + 2] = (value >>> 8) & 0xff;
  target[offset + 3] = value & 0xff;
}

/** a < b, a = b, a > b as -1, 0, 1 over unsigned big-endian bytes of one length. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}
