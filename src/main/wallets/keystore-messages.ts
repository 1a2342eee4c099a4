// The wallet and keystore messages (docs/protocol.md#errors), as errors with catalogue codes. One place, so the signer
// worker, the wallet store and the CLI say exactly the same words.
import { ErrorCode, PmDeskError, invalidParameter } from '@pmdesk/toolkit/model';

export const INVALID_PASSWORD = 'invalid password';
export const ADDRESS_MISMATCH = 'address mismatch';
export const INVALID_JSON_WALLET = 'invalid JSON wallet';
export const PRIVATE_KEY_ADDRESS_MISMATCH = 'privateKey/address mismatch';

/** A wrong password is refused like a failed login: ERR_UNAUTHORIZED (exit 1 in the CLI), throttled. */
export const invalidPassword = (): PmDeskError => new PmDeskError(ErrorCode.UNAUTHORIZED, INVALID_PASSWORD);
/** The keystore's recorded address is not the key inside it: a damaged or tampered file. */
export const addressMismatch = (): PmDeskError => new PmDeskError(ErrorCode.VALIDATION_ERROR, ADDRESS_MISMATCH);
/** Not a Web3 Secret Storage v3 keystore: invalid input (exit 2). */
export const invalidJsonWallet = (): PmDeskError => invalidParameter(INVALID_JSON_WALLET);
/** An imported key does not belong to the address the trader said it would. */
export const privateKeyAddressMismatch = (): PmDeskError => invalidParameter(PRIVATE_KEY_ADDRESS_MISMATCH);

export function isInvalidPassword(error: unknown): boolean {
  return error instanceof PmDeskError && error.code === ErrorCode.UNAUTHORIZED && error.detail === INVALID_PASSWORD;
}
