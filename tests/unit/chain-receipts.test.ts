// Waiting for a receipt: found as soon as the node has it, and a deadline that names the transaction.
import { describe, expect, it } from 'vitest';
import type { TransactionReceipt } from 'ethers';
import { waitForReceipt } from '../../packages/toolkit/src/chain/receipts';

/** A node that has the receipt after `after` asks (the part of a provider the wait uses). */
function node(after: number) {
  let asked = 0;
  return {
    get asked() {
      return asked;
    },
    getTransactionReceipt: async () =>
      ++asked > after ? ({ status: 1, blockNumber: 7 } as unknown as TransactionReceipt) : null,
  };
}

describe('waitForReceipt', () => {
  it('returns the receipt once the node has it, without waiting for another block', async () => {
    const chain = node(3);
    expect(await waitForReceipt(chain, '0xabc', { pollMs: 1 })).toMatchObject({ status: 1 });
    expect(chain.asked).toBe(4);
  });

  it('gives up at its deadline with ERR_TIMEOUT naming the transaction', async () => {
    await expect(waitForReceipt(node(Infinity), '0xdead', { timeoutMs: 30, pollMs: 5 })).rejects.toMatchObject({
      code: 'ERR_TIMEOUT',
      message: expect.stringContaining('0xdead'),
    });
  });
});
