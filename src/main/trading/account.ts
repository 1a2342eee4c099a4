// The Polymarket account an order trades from: the key's proxy wallet, Safe or deposit wallet (or the key itself),
// as the order flow is given it, and what the trader is told when that account cannot trade yet.
import type { AccountKind } from '@pmdesk/toolkit';
import type { PreTradeProblem } from './checks';

/**
 * The Polymarket account a key trades from (docs/protocol.md#accounts-and-signature-types): its proxy wallet, Safe or deposit wallet holds the
 * funds and is the orders' maker; the key signs. Absent, or the key's own address with type 0: the key trades itself.
 */
export interface TradingAccount {
  address: string;
  kind: AccountKind;
  signatureType: 0 | 1 | 2 | 3;
}

const KIND_NAMES: Readonly<Record<AccountKind, string>> = {
  eoa: 'key',
  proxy: 'proxy wallet',
  safe: 'Safe',
  'deposit-wallet': 'deposit wallet',
};

/** A deposit wallet's approvals need Polymarket's relayer (docs/protocol.md#on-chain-actions-per-account): PM Desk cannot send them. */
export function accountNotApproved(account: TradingAccount): string {
  return `The ${KIND_NAMES[account.kind]} ${account.address} has not approved the exchange, and a deposit wallet's approvals go through Polymarket's relayer: approve on polymarket.com, then place the order again.`;
}

/** What the trader is told when the account's missing approvals go through the relayer before the order. */
export function approvalsThroughRelayer(missing: number): string {
  return `${missing} allowance${missing === 1 ? ' is' : 's are'} missing: ${missing === 1 ? 'it' : 'they'} will be set through Polymarket's relayer before the order (no gas needed).`;
}

/**
 * The pre-trade problems of an order from an account: a proxy wallet's or Safe's missing approvals are sent as the
 * account (the key signs and pays; never an approval from the key, which would allow nothing for the account), or
 * through the relayer when `relayed` (the owner has relayer credentials); a deposit wallet's only through the
 * relayer, so without it a missing one stops the order. The gas check, about the account paying, goes; a lock is
 * the key's.
 */
export function accountProblems(
  problems: readonly PreTradeProblem[],
  key: string,
  account: TradingAccount,
  relayed = false,
  missing = 0,
): PreTradeProblem[] {
  return problems
    .filter((p) => p.check !== 'NOT_ENOUGH_GAS')
    .map((p) =>
      p.check === 'ALLOWANCE_MISSING' && relayed
        ? { ...p, message: approvalsThroughRelayer(missing) }
        : p.check === 'ALLOWANCE_MISSING' && account.kind === 'deposit-wallet'
          ? { ...p, blocking: true, message: accountNotApproved(account) }
          : p.check === 'WALLET_LOCKED'
            ? { ...p, message: `The wallet ${key} is locked: unlock it with its password, then place the order again.` }
            : p,
    );
}

/**
 * The address exchange credentials are made and used for (ClobAuth.address, POLY_ADDRESS, the vault's entry): the
 * key's own for the key and a Safe (the official client's habit), the account for a proxy wallet (clob-client#248:
 * Magic accounts need the funder there) and a deposit wallet (its API key is tied to the order's signer, the
 * wallet; py-clob-client-v2#49). docs/protocol.md#which-address-authenticates calls the server's rule unconfirmed; the sandbox accepts both.
 */
export function credentialsAddress(key: string, account: TradingAccount | undefined): string {
  return account && (account.signatureType === 1 || account.signatureType === 3) ? account.address : key;
}
