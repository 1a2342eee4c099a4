// The fees a wallet's trades paid, read from the trade itself: the exchange's OrderFilled events in each trade's
// transaction (its `fee`, set at match time), never recomputed from a fee rate.
import { Interface, type Log } from 'ethers';
import type { TraderActivity } from '../model/market-model';
import type { FeeLookup } from './entries';

const ORDER_FILLED = new Interface([
  'event OrderFilled(bytes32 indexed orderHash, address indexed maker, address indexed taker, uint256 makerAssetId, uint256 takerAssetId, uint256 makerAmountFilled, uint256 takerAmountFilled, uint256 fee)',
]);

/** Receipts asked of the node at once. */
export const RECEIPTS_AT_ONCE = 8;

/** What the fee reader needs of a chain node: a transaction's receipt logs. */
export interface ReceiptReader {
  getTransactionReceipt(hash: string): Promise<{ logs: readonly Log[] } | null>;
}

/**
 * The fee `wallet` paid in each transaction: the sum of `fee` over the OrderFilled events of the given exchanges
 * whose order maker is the wallet (its taker order's fill, and its maker orders' fills). The fee is counted in
 * collateral base units: from order version 2 on it is the match-time platform fee, paid in collateral.
 */
export async function feesFromChain(
  chain: ReceiptReader,
  exchanges: readonly string[],
  wallet: string,
  transactionHashes: readonly string[],
): Promise<Map<string, bigint>> {
  const venues = new Set(exchanges.map((a) => a.toLowerCase()));
  const topic = ORDER_FILLED.getEvent('OrderFilled')!.topicHash;
  const out = new Map<string, bigint>();
  const hashes = [...new Set(transactionHashes.filter(Boolean))];
  // A few receipts at a time: a long history is read without one request per trade in flight at once.
  for (let i = 0; i < hashes.length; i += RECEIPTS_AT_ONCE) {
    const batch = hashes.slice(i, i + RECEIPTS_AT_ONCE);
    const receipts = await Promise.all(batch.map((hash) => chain.getTransactionReceipt(hash)));
    receipts.forEach((receipt, n) => {
      if (!receipt) return;
      let fee = 0n;
      for (const log of receipt.logs) {
        if (!venues.has(log.address.toLowerCase()) || log.topics[0] !== topic) continue;
        const parsed = ORDER_FILLED.parseLog({ topics: [...log.topics], data: log.data });
        if (parsed && (parsed.args.maker as string).toLowerCase() === wallet.toLowerCase())
          fee += parsed.args.fee as bigint;
      }
      out.set(batch[n]!, fee);
    });
  }
  return out;
}

/**
 * A fee lookup over fees per transaction: the transaction's fee on its first trade row, 0 on the others (a taker
 * order that took several levels is several rows of one transaction), undefined where the chain had no receipt.
 */
export function feeLookup(fees: ReadonlyMap<string, bigint>): FeeLookup {
  const told = new Set<string>();
  return (row: TraderActivity) => {
    const fee = fees.get(row.transactionHash);
    if (fee === undefined) return undefined;
    if (told.has(row.transactionHash)) return 0n;
    told.add(row.transactionHash);
    return fee;
  };
}
