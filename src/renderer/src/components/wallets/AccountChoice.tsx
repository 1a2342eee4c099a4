// The wallet menu's "Polymarket account" section: which account the active wallet's key trades from on this
// network ("Polymarket account 0x… (Safe, owned by key 0x…)"), how it was found, and a way to trade from
// another of the key's accounts or the key itself (main keeps the choice per wallet and network).
import { create } from 'zustand';
import { ContractErrorCode, type AccountCandidateInfo, type WalletAccount } from '../../../../shared/contract';
import { TerminalError, ask, messageOf } from '../../bridge/terminal';
import { refreshAccount, useAccount } from '../../store/account';
import { shortAddress } from './Dialog';

interface WalletAccountState {
  /** Per wallet label, on the network it was read on. */
  byWallet: Record<string, WalletAccount>;
  problem: Record<string, string>;
  busy: boolean;
  load(wallet: string): Promise<void>;
  choose(wallet: string, account: string | null): Promise<void>;
}

export const useWalletAccount = create<WalletAccountState>()((set) => ({
  byWallet: {},
  problem: {},
  busy: false,
  async load(wallet) {
    try {
      const account = await ask('getWalletAccount', { wallet });
      set((s) => ({ byWallet: { ...s.byWallet, [wallet]: account }, problem: without(s.problem, wallet) }));
    } catch (error) {
      set((s) => ({ byWallet: without(s.byWallet, wallet), problem: { ...s.problem, [wallet]: sentence(error) } }));
    }
  },
  async choose(wallet, account) {
    set({ busy: true });
    try {
      const chosen = await ask('chooseWalletAccount', { wallet, account });
      set((s) => ({ byWallet: { ...s.byWallet, [wallet]: chosen }, problem: without(s.problem, wallet) }));
      // Balances, positions and trades are another address's now.
      if (useAccount.getState().wallet === wallet) void refreshAccount(wallet);
    } catch (error) {
      set((s) => ({ problem: { ...s.problem, [wallet]: messageOf(error) } }));
    } finally {
      set({ busy: false });
    }
  },
}));

function sentence(error: unknown): string {
  if (error instanceof TerminalError && error.code === ContractErrorCode.NOT_AVAILABLE)
    return 'Accounts are read where this network can trade: ' + error.message;
  return messageOf(error);
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _gone, ...rest } = record;
  return rest;
}

const KIND_WORDS: Record<AccountCandidateInfo['kind'], string> = {
  eoa: 'the key itself',
  proxy: 'proxy wallet',
  safe: 'Safe',
  'deposit-wallet': 'deposit wallet',
};
const REASON_WORDS: Record<WalletAccount['reason'], string> = {
  profile: 'named by your Polymarket profile',
  funded: 'it holds funds on chain',
  deployed: 'it is deployed on chain',
  key: 'no account wallet is in use on chain',
  trader: 'your choice, kept for this wallet on this network',
};

/** One line per candidate: what it is, and what the chain shows there. */
function candidateLine(c: AccountCandidateInfo): string {
  const kind =
    c.kind === 'deposit-wallet' && c.era === 'uups' ? 'deposit wallet (made before the upgrade)' : KIND_WORDS[c.kind];
  const chain = c.kind === 'eoa' ? '' : c.deployed ? ', deployed' : ', not deployed';
  return `${kind} ${shortAddress(c.address)} — $${c.collateral.toFixed(2)}${chain}`;
}

export function AccountChoice({ wallet }: { wallet: string }) {
  const account = useWalletAccount((s) => s.byWallet[wallet]);
  const problem = useWalletAccount((s) => s.problem[wallet]);
  const busy = useWalletAccount((s) => s.busy);
  return (
    <>
      <div className="menu-section">Polymarket account</div>
      {account ? (
        <>
          <div
            className="menu-note"
            data-testid="wallet-account"
            data-account={account.account.address}
            data-kind={account.account.kind}
            title={account.account.address}
          >
            {account.description}
          </div>
          <div className="muted menu-note" data-testid="wallet-account-reason">
            {account.chosenBy === 'trader' ? REASON_WORDS.trader : `Found: ${REASON_WORDS[account.reason]}.`}
            {account.alsoInUse.length > 0
              ? ` Also in use: ${account.alsoInUse.map(shortAddress).join(', ')} — check which one you trade from.`
              : ''}
          </div>
          {account.profileNote ? <div className="error-text menu-note">{account.profileNote}</div> : null}
          {account.candidates.map((c) => (
            <button
              key={c.address}
              type="button"
              role="menuitemradio"
              aria-checked={c.address === account.account.address}
              className="wallet-option"
              data-testid="account-option"
              data-account={c.address}
              disabled={busy}
              title={`Trade from ${c.address}`}
              onClick={() => void useWalletAccount.getState().choose(wallet, c.address)}
            >
              <span className="check" aria-hidden="true">
                {c.address === account.account.address ? '●' : ''}
              </span>
              <span className="wallet-label">{candidateLine(c)}</span>
            </button>
          ))}
          {account.chosenBy === 'trader' ? (
            <button
              type="button"
              className="menu-item"
              data-testid="account-found"
              disabled={busy}
              onClick={() => void useWalletAccount.getState().choose(wallet, null)}
            >
              Use the account PM Desk finds
            </button>
          ) : null}
        </>
      ) : problem ? null : (
        <div className="muted menu-note">Looking for the account…</div>
      )}
      {problem ? (
        <div className="error-text menu-note" data-testid="wallet-account-problem">
          {problem}
        </div>
      ) : null}
    </>
  );
}
