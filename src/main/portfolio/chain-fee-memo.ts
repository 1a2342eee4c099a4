// Each trade's fee as the chain recorded it, read once a session: a mined trade's fee never changes, so a book
// built again (after a fill, on another period) reads only the transactions it has not seen yet.
import { feesFromChain, type ReceiptReader } from '@pmdesk/toolkit';

export type ChainFees = (address: string, transactionHashes: string[]) => Promise<ReadonlyMap<string, bigint>>;

/** The fees `address` paid in these transactions, from the exchanges' OrderFilled events, remembered per address. */
export function rememberedChainFees(chain: { reader: ReceiptReader; exchanges: readonly string[] }): ChainFees {
  const known = new Map<string, bigint>();
  return async (address, hashes) => {
    const key = (hash: string) => `${address.toLowerCase()}|${hash.toLowerCase()}`;
    const unread = [...new Set(hashes)].filter((hash) => !known.has(key(hash)));
    // A transaction without a receipt yet is not remembered: it is asked again next time.
    for (const [hash, fee] of await feesFromChain(chain.reader, chain.exchanges, address, unread))
      known.set(key(hash), fee);
    const fees = new Map<string, bigint>();
    for (const hash of hashes) {
      const fee = known.get(key(hash));
      if (fee !== undefined) fees.set(hash, fee);
    }
    return fees;
  };
}
