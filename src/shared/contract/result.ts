// The answer every operation gives (a value, or an error with a catalogue code and a sentence), and the one
// kind of secret a result may carry once.
import type { ErrorCodeValue } from '@pmdesk/toolkit/model';

/**
 * Codes the contract adds to the catalogue. `ERR_NOT_AVAILABLE`: the operation is part of the contract but
 * the service behind it is not in this build or this session (trading before the order flow lands, wallets
 * when no signer could start). It is never a fake result.
 */
export const ContractErrorCode = { NOT_AVAILABLE: 'ERR_NOT_AVAILABLE' } as const;
export type ResultErrorCode = ErrorCodeValue | (typeof ContractErrorCode)[keyof typeof ContractErrorCode];

export interface ResultError {
  code: ResultErrorCode;
  /** A sentence a trader can act on; never a secret, a stack or a cause. */
  message: string;
}
export type Result<T> = { ok: true; value: T } | { ok: false; error: ResultError };

/**
 * A secret main hands over exactly once, to be written down (a new wallet's recovery phrase). Its own type
 * so the UI shows it on a dedicated screen and never stores it, and so the secret scan of the tests knows
 * the one place such a value may appear; no other result or event carries one.
 */
export interface ShownOnce<T extends string = string> {
  shownOnce: true;
  value: T;
}
