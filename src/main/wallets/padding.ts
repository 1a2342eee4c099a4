// Length hiding for secrets the app encrypts or stores itself (docs/protocol.md#constants-and-limits): the payload is padded to a whole
// number of 2048-byte blocks first, so the stored size tells nothing about what is inside.
import { ErrorCode, PmDeskError } from '@pmdesk/toolkit/model';

export const PADDING_BLOCK = 2048;
/** A 4-byte big-endian length comes first, so the padding (zeros) can be told from the payload. */
const LENGTH_BYTES = 4;

/** The payload, prefixed by its length and zero-filled to the next multiple of `block` bytes. */
export function padSecret(payload: Uint8Array, block = PADDING_BLOCK): Uint8Array {
  if (!Number.isInteger(block) || block <= LENGTH_BYTES)
    throw new RangeError(`padding block must be an integer above ${LENGTH_BYTES}`);
  const used = LENGTH_BYTES + payload.length;
  const total = Math.max(1, Math.ceil(used / block)) * block;
  const out = new Uint8Array(total);
  new DataView(out.buffer).setUint32(0, payload.length, false);
  out.set(payload, LENGTH_BYTES);
  return out;
}

/** The payload back. A size that is not whole blocks, a length past the end or non-zero padding is refused. */
export function unpadSecret(padded: Uint8Array, block = PADDING_BLOCK): Uint8Array {
  const broken = () => new PmDeskError(ErrorCode.VALIDATION_ERROR, 'The stored secret is damaged (bad padding).');
  if (padded.length === 0 || padded.length % block !== 0) throw broken();
  const length = new DataView(padded.buffer, padded.byteOffset, padded.byteLength).getUint32(0, false);
  if (length > padded.length - LENGTH_BYTES) throw broken();
  for (let i = LENGTH_BYTES + length; i < padded.length; i++) if (padded[i] !== 0) throw broken();
  return padded.slice(LENGTH_BYTES, LENGTH_BYTES + length);
}

/** A UTF-8 string padded and base64-encoded, for stores that keep text (the OS keychain). */
export function padText(text: string, block = PADDING_BLOCK): string {
  return Buffer.from(padSecret(Buffer.from(text, 'utf8'), block)).toString('base64');
}

export function unpadText(encoded: string, block = PADDING_BLOCK): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded))
    throw new PmDeskError(ErrorCode.VALIDATION_ERROR, 'The stored secret is damaged (not base64).');
  return Buffer.from(unpadSecret(Buffer.from(encoded, 'base64'), block)).toString('utf8');
}
