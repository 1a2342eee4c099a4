// Condition ids as the position contracts take them: 32 bytes for ConditionalTokens and its adapters, 31 bytes for
// Protocol V2's Router (whose position ids carry the outcome in their low byte).
import { invalidParameter } from '../model/errors';

/** A CTF condition id: 32 bytes of hex. */
export function conditionId32(id: string): string {
  if (typeof id !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(id))
    throw invalidParameter(`A condition id is 32 bytes of hex, got ${String(id)}.`);
  return id.toLowerCase();
}

/**
 * A Protocol V2 condition id as the Router takes it (bytes31). A 32-byte id is accepted the way the ts-sdk does:
 * its trailing outcome byte (00 or 01) is dropped; any other trailing byte is refused rather than guessed at.
 */
export function conditionId31(id: string): string {
  if (typeof id === 'string' && /^0x[0-9a-fA-F]{62}$/.test(id)) return id.toLowerCase();
  if (typeof id === 'string' && /^0x[0-9a-fA-F]{62}0[01]$/.test(id)) return id.slice(0, 64).toLowerCase();
  throw invalidParameter(
    `A Protocol V2 condition id is 31 bytes of hex (or 32 ending in an outcome byte 00/01), got ${String(id)}.`,
  );
}
