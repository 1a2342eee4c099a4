// Which Polymarket account each wallet's key trades from on the network in use: found once a session (the
// profile's wallet from the market source, the key's CREATE2 derivations, what the chain shows at each), or
// chosen by the trader and kept in settings per wallet and network; the order flow is handed the result.
import { formatUnits } from 'ethers';
import type { AccountCandidateInfo, WalletAccount } from '../../shared/contract';
import { ErrorCode, PmDeskError, isPmDeskError } from '@pmdesk/toolkit/model';
import { classifyAccount, findAccounts, type AccountCandidate, type FoundAccounts } from '@pmdesk/toolkit';
import { rpcChainRead, type RpcReader } from '@pmdesk/toolkit';
import { AccountKind, checkedAddress } from '@pmdesk/toolkit';
import type { WalletConfig } from '@pmdesk/toolkit';
import { COLLATERAL_TOKEN_DECIMALS } from '@pmdesk/toolkit';
import type { Logger } from '@pmdesk/toolkit';
import type { MarketSource } from '@pmdesk/toolkit';
import type { TradingAccount } from './account';
import type { WalletSummary } from '../ipc/services';
import type { SettingsStore } from '../settings/settings';

/** What finding needs of the network: its name (choices are kept under it), factories, collateral and a chain reader. */
export interface AccountNetwork {
  name: string;
  wallets: WalletConfig;
  /** The collateral tokens whose balance says an account is funded. */
  collateral: readonly string[];
  chain: RpcReader;
}

const KIND_NAMES: Readonly<Record<AccountKind, string>> = {
  eoa: 'key',
  proxy: 'proxy wallet',
  safe: 'Safe',
  'deposit-wallet': 'deposit wallet',
};

/**
 * "Polymarket account 0x… (Safe, owned by key 0x…)", or the key trading from its own address. Why this one is said
 * beside it (found through the profile, the chain, or chosen): the description never claims there is no account
 * wallet, which a profile naming the key, or a trader choosing it over a Safe, would contradict.
 */
export function describeAccount(owner: string, account: { address: string; kind: AccountKind }): string {
  if (account.kind === AccountKind.EOA) return `The key ${owner} trades from its own address`;
  return `Polymarket account ${account.address} (${KIND_NAMES[account.kind]}, owned by key ${owner})`;
}

export class WalletAccounts {
  /** Found once a session per key; a new unlock looks again. */
  private readonly found = new Map<string, Promise<FoundAccounts & { profileNote?: string }>>();

  constructor(
    private readonly network: AccountNetwork,
    private readonly wallets: { list(): Promise<WalletSummary[]> },
    private readonly markets: MarketSource,
    private readonly settings: SettingsStore | undefined,
    private readonly logger?: Logger,
  ) {}

  /** Looks again for this key's accounts (on unlock or import); a failure is logged and said when the account is asked for. */
  refresh(owner: string): void {
    this.found.delete(owner.toLowerCase());
    this.findFor(owner).catch((error) => this.logger?.warn(`finding the Polymarket account of ${owner} failed`, error));
  }

  /** The account the wallet trades from, with every candidate and how it was found or chosen. */
  async accountOf(label: string): Promise<WalletAccount> {
    const wallet = await this.walletNamed(label);
    return this.view(wallet, await this.findFor(wallet.address), await this.choiceOf(wallet.address));
  }

  /**
   * Trades from `account` (the key or one of its own accounts on this chain) from now on, kept across restarts;
   * null goes back to the found one. Any other address is refused here, before anything is signed for it.
   */
  async choose(label: string, account: string | null): Promise<WalletAccount> {
    const wallet = await this.walletNamed(label);
    if (!this.settings)
      throw new PmDeskError(
        ErrorCode.NOT_AVAILABLE,
        'An account choice cannot be kept in this session: it has no data folder.',
      );
    const chosen = account === null ? null : classifyAccount(wallet.address, account, this.network.wallets).address;
    await this.settings.saveAccountChoice(this.network.name, wallet.address, chosen);
    return this.accountOf(wallet.label);
  }

  /** What the order flow trades with for this key: the trader's choice, else the found account. */
  async tradingAccount(owner: string): Promise<TradingAccount> {
    const choice = await this.choiceOf(owner);
    if (choice) return { address: choice.address, kind: choice.kind, signatureType: choice.signatureType };
    const { chosen } = await this.findFor(owner);
    return { address: chosen.address, kind: chosen.kind, signatureType: chosen.signatureType };
  }

  private async walletNamed(label: string): Promise<WalletSummary> {
    const wanted = label.trim().toLowerCase();
    const found = (await this.wallets.list()).find((w) => w.label.toLowerCase() === wanted);
    if (!found) throw new PmDeskError(ErrorCode.NOT_FOUND, `There is no wallet named ${label.slice(0, 64)}.`);
    return found;
  }

  /** The kept choice, classified again (a choice that no longer classifies on this chain's factories is refused). */
  private async choiceOf(owner: string) {
    const kept = await this.settings?.accountChoice(this.network.name, owner);
    return kept ? classifyAccount(owner, kept, this.network.wallets) : undefined;
  }

  private findFor(owner: string): Promise<FoundAccounts & { profileNote?: string }> {
    const key = owner.toLowerCase();
    let finding = this.found.get(key);
    if (!finding) {
      finding = this.find(checkedAddress(owner, 'owner'));
      this.found.set(key, finding);
      const pending = finding;
      pending.catch(() => this.found.get(key) === pending && this.found.delete(key));
    }
    return finding;
  }

  private async find(owner: string): Promise<FoundAccounts & { profileNote?: string }> {
    const chainRead = rpcChainRead(this.network.chain, this.network.collateral);
    let profileNote: string | undefined;
    let profileWallet: string | undefined;
    try {
      profileWallet = (await this.markets.getProfileWallet?.(owner)) ?? undefined;
    } catch (error) {
      // The profile only confirms: without it the chain still tells which account is in use.
      this.logger?.warn(`the Polymarket profile of ${owner} could not be read`, error);
      profileNote = `The Polymarket profile of ${owner} could not be read (${isPmDeskError(error) ? error.detail : 'no answer'}): the account was found from the chain alone.`;
    }
    let usable = profileWallet;
    if (profileWallet) {
      try {
        classifyAccount(owner, profileWallet, this.network.wallets);
      } catch {
        // polymarket-cli #14/#27: some web accounts' wallets differ from the derivation. Orders for such a wallet
        // would not pass the exchange's check (nor our signer's), so it is named, not used.
        profileNote = `The Polymarket profile of ${owner} names the wallet ${profileWallet}, which is not one of this key's accounts on this chain: PM Desk cannot trade from it.`;
        usable = undefined;
      }
    }
    let found: FoundAccounts;
    try {
      found = await findAccounts(owner, { profileWallet: usable, chainRead, config: this.network.wallets });
    } catch (error) {
      if (isPmDeskError(error)) throw error;
      throw new PmDeskError(
        ErrorCode.NETWORK_ERROR,
        `The chain's node did not answer while looking for the Polymarket account of ${owner}: check that the network (or the local sandbox) is running.`,
        {
          cause: error,
        },
      );
    }
    return { ...found, ...(profileNote ? { profileNote } : {}) };
  }

  private view(
    wallet: WalletSummary,
    found: FoundAccounts & { profileNote?: string },
    choice: ReturnType<typeof classifyAccount> | undefined,
  ): WalletAccount {
    const candidates = found.candidates.map(candidateInfo);
    const chosen = choice
      ? (candidates.find((c) => c.address === choice.address) ?? {
          ...choice,
          foundBy: 'derivation' as const,
          deployed: false,
          collateral: 0,
        })
      : candidateInfo(found.chosen);
    return {
      wallet: wallet.label,
      owner: found.owner,
      network: this.network.name,
      account: chosen,
      chosenBy: choice ? 'trader' : 'found',
      reason: choice ? 'trader' : found.reason,
      description: describeAccount(found.owner, chosen),
      candidates,
      alsoInUse: found.candidates
        .filter((c) => c.kind !== AccountKind.EOA && (c.deployed || c.balance > 0n) && c.address !== chosen.address)
        .map((c) => c.address),
      ...(found.profileNote ? { profileNote: found.profileNote } : {}),
    };
  }
}

function candidateInfo(c: AccountCandidate): AccountCandidateInfo {
  return {
    address: c.address,
    kind: c.kind,
    signatureType: c.signatureType,
    foundBy: c.foundBy,
    deployed: c.deployed,
    collateral: Number(formatUnits(c.balance, COLLATERAL_TOKEN_DECIMALS)),
    ...(c.era ? { era: c.era } : {}),
  };
}
