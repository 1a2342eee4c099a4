// The Polymarket account an order trades from: the key's proxy wallet, Safe or deposit wallet (or the key itself),
// as the order flow is given it, and what the trader is told when that account cannot trade yet.
import type { AccountKind } from '../toolkit/accounts/derive';

/**
 * The Polymarket account a key trades from (ACCOUNTS-NOTES §a): its proxy wallet, Safe or deposit wallet holds the
 * funds and is the orders' maker; the key signs. Absent, or the key's own address with type 0: the key trades itself.
 */
export interface TradingAccount {
  address: string;
  kind: AccountKind;
  signatureType: 0 | 1 | 2 | 3;
}

const KIND_NAMES: Readonly<Record<AccountKind, string>> = { eoa: 'key', proxy: 'proxy wallet', safe: 'Safe', 'deposit-wallet': 'deposit wallet' };

/** Approvals go out from the key only: an account's must be sent by the account itself (not here yet). */
export function accountNotApproved(account: TradingAccount): string {
  return `The ${KIND_NAMES[account.kind]} ${account.address} has not approved the exchange: approve from the account (coming) or from polymarket.com, then place the order again.`;
}

