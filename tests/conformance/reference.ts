// Shared set-up for the conformance suites: the official Polymarket clients as the reference, driven with a
// viem account (so the reference signs with different code from ours) and pinned time and randomness.
import { privateKeyToAccount } from 'viem/accounts';
import { vi } from 'vitest';

/** Hardhat's first well-known test key: public, never funded on a real network. */
export const TEST_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
export const TEST_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
export const FUNDER = '0x1234567890AbcdEF1234567890aBcdef12345678';
export const TOKEN_ID = '71321045679252212594626385532706912750332728571942532289631379312455583992563';

export const account = privateKeyToAccount(TEST_KEY);

/** A viem-WalletClient-shaped signer the official clients accept. */
export const referenceSigner = {
  account,
  signTypedData: (args: Parameters<typeof account.signTypedData>[0]) => account.signTypedData(args),
} as unknown as never;

/** Pins Date.now() and Math.random() so the official clients' salt and timestamp are known: salt = round(random × now). */
export function pinClock(now: number, random: number): { salt: string; timestamp: string } {
  vi.useFakeTimers({ now, toFake: ['Date'] });
  vi.spyOn(Math, 'random').mockReturnValue(random);
  return { salt: String(Math.round(random * now)), timestamp: String(now) };
}

export function unpinClock(): void {
  vi.useRealTimers();
  vi.restoreAllMocks();
}

/** Runs a builder and reports either its result or its error message, so refusals are compared too. */
export async function outcome<T>(
  run: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
