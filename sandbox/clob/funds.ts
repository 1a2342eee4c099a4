// Whether a maker can pay for an order: balance and allowance on the chain, minus what its open orders already
// reserve; and the cached balance-allowance views that a settlement makes stale.
import type { ExchangeOrder } from '../chain/order-typed-data';
import type { CatalogMarket } from '../market/catalog';
import { formatUnits, reservedAmount, type OrderTerms } from './order-rules';
import type { OrderRecord } from './records';
import { seenShares } from './share-views';
import type { ClobState } from './state';

/** The message traders know, or undefined when the maker can cover this order on top of its open ones. */
export async function fundsShortfall(
  state: ClobState,
  order: ExchangeOrder,
  terms: OrderTerms,
  venue: string,
  outcome: 0 | 1,
  market: CatalogMarket,
  adding: bigint = order.makerAmount,
): Promise<string | undefined> {
  const maker = order.maker.toLowerCase();
  const open = [...state.live].filter((o) => o.order.maker.toLowerCase() === maker);
  const remainingOf = (o: OrderRecord) => state.books.get(o.market.conditionId)?.order(o.id)?.remaining ?? 0n;
  const message = (have: bigint, need: bigint, what: string) =>
    `not enough balance / allowance: ${what} ${formatUnits(have)} available, ${formatUnits(need)} needed by this order and the open ones`;
  if (terms.side === 'BUY') {
    const reserved = open
      .filter((o) => o.terms.side === 'BUY')
      .reduce((sum, o) => sum + reservedAmount(o.terms, remainingOf(o)), 0n);
    const reservedHere = open
      .filter((o) => o.terms.side === 'BUY' && o.venue === venue)
      .reduce((sum, o) => sum + reservedAmount(o.terms, remainingOf(o)), 0n);
    const [balance, allowance] = (await Promise.all([
      state.collateral.getFunction('balanceOf')(order.maker),
      state.collateral.getFunction('allowance')(order.maker, venue),
    ])) as [bigint, bigint];
    state.balanceCache.set(`${maker}:collateral`, {
      balance,
      allowances: { ...state.balanceCache.get(`${maker}:collateral`)?.allowances, [venue]: allowance },
    });
    if (balance < reserved + adding) return message(balance, reserved + adding, 'balance');
    if (allowance < reservedHere + adding) return message(allowance, reservedHere + adding, 'allowance');
    return undefined;
  }
  const tokenId = market.tokens[outcome].tokenId;
  const reserved = open
    .filter((o) => o.terms.side === 'SELL' && o.tokenId === tokenId)
    .reduce((sum, o) => sum + remainingOf(o), 0n);
  const [onChain, approved] = (await Promise.all([
    state.ctf.getFunction('balanceOf')(order.maker, tokenId),
    state.ctf.getFunction('isApprovedForAll')(order.maker, venue),
  ])) as [bigint, boolean];
  // What the exchange sees: a fill's shares may not be seen yet (its balance/allowance cache).
  const balance = seenShares(state, maker, tokenId, onChain);
  if (balance < reserved + adding) return message(balance, reserved + adding, 'balance');
  if (!approved)
    return 'not enough balance / allowance: the exchange is not approved for the outcome tokens (setApprovalForAll)';
  return undefined;
}

/** Drops an address's cached balance-allowance views: its funds moved on the chain. */
export function forgetBalances(state: ClobState, address: string): void {
  const prefix = `${address.toLowerCase()}:`;
  for (const key of [...state.balanceCache.keys()]) if (key.startsWith(prefix)) state.balanceCache.delete(key);
}
