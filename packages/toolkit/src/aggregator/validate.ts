// Client-side checks of docs/protocol.md#validation-messages, each with its exact message, run before any request is sent.
import { invalidParameter } from '../model/errors';

/** "Missing required parameter 'name'." for an absent or blank value. */
export function requireParam(name: string, value: unknown, methodName: string): void {
  if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
    throw invalidParameter(`Missing required parameter '${name}'.`, methodName);
  }
}

/** page and limit: whole numbers of at least 1. */
export function requirePositiveWhole(name: string, value: number, methodName: string): void {
  if (typeof value !== 'number' || !(value >= 1)) {
    throw invalidParameter(`Parameter '${name}' must be 1 or greater.`, methodName, { [name]: value });
  }
  if (!Number.isInteger(value)) {
    throw invalidParameter(`Parameter '${name}' must be a whole number.`, methodName, { [name]: value });
  }
}

/** An optional number that must be finite (topK, threshold) when given. */
export function optionalFinite(name: string, value: number | undefined, methodName: string): void {
  if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value))) {
    throw invalidParameter(`Parameter '${name}' must be a number.`, methodName, { [name]: String(value) });
  }
}
