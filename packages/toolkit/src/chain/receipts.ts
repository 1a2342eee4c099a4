// Waiting for a transaction to be mined, with a deadline. ethers' `waitForTransaction` reads the block number
// (shared with any identical request of the last 250 ms, so possibly from before the transaction was mined),
// finds the receipt "not yet confirmed" against that stale number, and waits for a 'block' event — whose poller
// starts by reading the block number afresh and only reports blocks after it. When the receipt read between the
// two takes over 250 ms (a loaded machine), the poller starts at the transaction's block and waits for a later
// one, which a chain that mines only on demand (the sandbox's anvil, a quiet testnet) never makes: a hang with no
// timeout. (Measured: with the stale number the wait costs a 4 s poll; this was the trading-versions test that
// hung in 2 of 4 full runs.) Here the receipt itself is asked for until it exists — a receipt is one
// confirmation — and the wait has an end.
import type { Provider, TransactionReceipt } from 'ethers';
import { ErrorCode, PmDeskError } from '../model/errors';

export interface ReceiptWait {
  /** Give up after this long (ms). Two minutes unless told: a Polygon block is ~2 s; a stuck transaction says so. */
  timeoutMs?: number;
  /** Ask again this often (ms). */
  pollMs?: number;
}

/** The receipt of `hash` once it is mined; ERR_TIMEOUT naming the transaction when it is not mined in time. */
export async function waitForReceipt(
  provider: Pick<Provider, 'getTransactionReceipt'>,
  hash: string,
  { timeoutMs = 120_000, pollMs = 250 }: ReceiptWait = {},
): Promise<TransactionReceipt> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await provider.getTransactionReceipt(hash);
    if (receipt) return receipt;
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new PmDeskError(
        ErrorCode.TIMEOUT_ERROR,
        `Transaction ${hash} was not mined within ${Math.round(timeoutMs / 1000)} s: it may still be pending; check it on the chain before sending it again.`,
        {
          context: { txHash: hash },
        },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, left)));
  }
}
