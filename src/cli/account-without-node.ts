// The one account rule for `order place` when no chain node is named: the key's Polymarket profile names its
// wallet, or the exchange says which of the key's derived wallets (Safe, proxy) holds collateral; what only a node
// could tell (a wallet deployed but empty, which deposit wallet era) is not guessed: the command is refused and
// told how to say it, rather than signing as the key behind the trader's back.
import { invalidParameter } from '@pmdesk/toolkit/model';
import { AccountKind, classifyAccount, deriveAccounts, type WalletConfig } from '@pmdesk/toolkit';
import type { ActingAccount } from './trading-account';

export interface NodelessReads {
  /** The wallet the key's public profile names (Gamma's proxyWallet), if the source has profiles. */
  profileWallet(): Promise<string | null | undefined>;
  /** Collateral the exchange sees at the key's account of this signature type (GET /balance-allowance), base units. */
  exchangeBalance(signatureType: 1 | 2 | 3): Promise<bigint>;
}

/** The account `account show` would name, as far as it can be known without a node; else a refusal that says what to pass. */
export async function accountWithoutNode(
  owner: string,
  config: WalletConfig,
  reads: NodelessReads,
): Promise<ActingAccount> {
  let named: string | null | undefined;
  try {
    named = await reads.profileWallet();
  } catch {
    // No profile answer: the exchange is asked instead.
    named = undefined;
  }
  if (named) {
    try {
      const account = classifyAccount(owner, named, config);
      return { address: account.address, kind: account.kind, signatureType: account.signatureType, reason: 'profile' };
    } catch {
      // A profile wallet that is not one of this key's: not trusted, as `account show` does not trust it.
    }
  }
  const derived = deriveAccounts(owner, config);
  // A funded deposit wallet cannot be told apart by era without a node: refused below rather than guessed.
  const depositFunded = derived.depositWallet ? (await reads.exchangeBalance(3)) > 0n : false;
  if (!depositFunded) {
    for (const [kind, address, signatureType] of [
      [AccountKind.SAFE, derived.safe, 2],
      [AccountKind.PROXY, derived.proxy, 1],
    ] as const) {
      if (address && (await reads.exchangeBalance(signatureType)) > 0n)
        return { address, kind, signatureType, reason: 'funded' };
    }
  }
  throw invalidParameter(
    `No chain node is named (a --network profile with an rpcUrl, or PMDESK_RPC_URL) to find which account of the key ${owner} trades, ` +
      `and neither its Polymarket profile nor the exchange names a funded wallet of it: pass --signature-type (0 for the key itself) or --account, ` +
      `or name a node. Nothing was signed or sent.`,
  );
}

/** A balance answer's collateral in base units; anything unreadable counts as none. */
export function balanceOf(answer: unknown): bigint {
  const raw = (answer as { balance?: unknown } | null)?.balance;
  const text = typeof raw === 'number' ? String(Math.trunc(raw)) : typeof raw === 'string' ? raw.split('.')[0]! : '';
  return /^\d+$/.test(text) ? BigInt(text) : 0n;
}
