// The check before an owner transaction is sent: the key pays the gas in POL whichever account acts, so an
// estimate above the key's balance becomes one sentence the trader can act on instead of a node's revert text.
import { formatUnits } from 'ethers';
import { ErrorCode, PmDeskError, invalidParameter } from '../model/errors';
import { checkedAddress } from './derive';
import type { OwnerTransaction } from './actions';

/** What the check reads from the chain (an ethers provider fits: getBalance, estimateGas, and getFeeData().gasPrice). */
export interface GasReader {
  getBalance(address: string): Promise<bigint>;
  estimateGas(tx: { from: string; to: string; data: string; value: bigint }): Promise<bigint>;
  gasPrice(): Promise<bigint>;
}

/** The three reads an ethers provider offers under its own names. */
export interface GasProvider {
  getBalance(address: string): Promise<bigint>;
  estimateGas(tx: { from: string; to: string; data: string; value: bigint }): Promise<bigint>;
  getFeeData(): Promise<{ gasPrice: bigint | null }>;
}

/** A GasReader over an ethers provider; a node that gives no gas price is an ERR_VALIDATION, not a free transaction. */
export function providerGasReader(provider: GasProvider): GasReader {
  return {
    getBalance: (address) => provider.getBalance(address),
    estimateGas: (tx) => provider.estimateGas(tx),
    async gasPrice() {
      const { gasPrice } = await provider.getFeeData();
      if (gasPrice === null)
        throw new PmDeskError(ErrorCode.VALIDATION_ERROR, 'The node gave no gas price.', { methodName: 'quoteGas' });
      return gasPrice;
    },
  };
}

export interface GasQuote {
  gasLimit: bigint;
  gasPrice: bigint;
  /** gasLimit × gasPrice, in wei. */
  cost: bigint;
  /** The key's POL balance, in wei. */
  balance: bigint;
}

/** Headroom on the node's estimate (a percentage): gas used can move between the estimate and the block. */
export const GAS_HEADROOM_PERCENT = 20n;

/** POL (18 decimals) as a trader reads it: at most 6 decimals, cut down (a balance is never overstated). */
export function formatPol(wei: bigint): string {
  const [whole, fraction = ''] = formatUnits(wei, 18).split('.');
  const cut = fraction.slice(0, 6).replace(/0+$/, '');
  return cut ? `${whole}.${cut}` : whole!;
}

/** A need rounded up to two significant digits ("about 0.02 POL"), so it is never understated. */
export function formatPolNeeded(wei: bigint): string {
  if (wei <= 0n) return '0';
  const digits = wei.toString().length;
  const unit = digits > 2 ? 10n ** BigInt(digits - 2) : 1n;
  return formatPol(((wei + unit - 1n) / unit) * unit);
}

/** Refuses before sending when the key's POL cannot pay `cost`: "The key 0x… has 0.001 POL; this needs about 0.02 POL for gas." */
export function checkGasFunds(key: string, balance: bigint, cost: bigint): void {
  if (balance >= cost) return;
  throw new PmDeskError(
    ErrorCode.INVALID_PARAMETER,
    `The key ${checkedAddress(key, 'key')} has ${formatPol(balance)} POL; this needs about ${formatPolNeeded(cost)} POL for gas.`,
    {
      methodName: 'checkGasFunds',
    },
  );
}

/**
 * Estimates an owner transaction's gas (plus headroom), prices it and checks the key can pay, before anything is
 * sent. A node that cannot estimate (the call would revert) is reported as such, with its reason when it gave one.
 */
export async function quoteGas(
  tx: OwnerTransaction,
  reader: GasReader,
  headroomPercent: bigint = GAS_HEADROOM_PERCENT,
): Promise<GasQuote> {
  if (headroomPercent < 0n) throw invalidParameter('The gas headroom cannot be negative.', 'quoteGas');
  let estimate: bigint;
  try {
    estimate = await reader.estimateGas({ from: tx.from, to: tx.to, data: tx.data, value: tx.value });
  } catch (error) {
    const reason =
      (error as { shortMessage?: string; reason?: string }).reason ?? (error as { shortMessage?: string }).shortMessage;
    throw new PmDeskError(
      ErrorCode.API_REQUEST_FAILED,
      `The chain would refuse this transaction, so nothing was sent${reason ? `: ${reason}` : '.'}`,
      { methodName: 'quoteGas', cause: error },
    );
  }
  const [gasPrice, balance] = await Promise.all([reader.gasPrice(), reader.getBalance(tx.from)]);
  for (const [name, value] of [
    ['estimateGas', estimate],
    ['gasPrice', gasPrice],
    ['getBalance', balance],
  ] as const) {
    if (typeof value !== 'bigint' || value < 0n)
      throw new PmDeskError(ErrorCode.VALIDATION_ERROR, `${name} answered ${String(value)}, not a whole number.`, {
        methodName: 'quoteGas',
      });
  }
  const gasLimit = estimate + (estimate * headroomPercent) / 100n;
  const cost = gasLimit * gasPrice;
  checkGasFunds(tx.from, balance, cost);
  return { gasLimit, gasPrice, cost, balance };
}
