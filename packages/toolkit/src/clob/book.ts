// The order book summary's hash (docs/protocol.md#entities: a SHA-1 digest of the book summary), computed the way the exchange
// and the official clients do, so a locally kept book can be checked against the server's `hash`.
import { sha1 } from '@noble/hashes/sha1';
import { toHex } from '../base/bytes';

/**
 * SHA-1 (hex) of the book's JSON with `hash` set to "" in its place (appended when absent). Unlike the
 * official client, the book passed in is left untouched.
 */
export function orderBookHash(book: Record<string, unknown>): string {
  return toHex(sha1(new TextEncoder().encode(JSON.stringify({ ...book, hash: '' }))));
}
