// The account row: the active wallet's positions, open orders, trades and balances, and any trader's profile
// (looked up, or opened from the tape, a discussion or a position). It follows the active wallet (live `account`
// events, or reads every few seconds) and binds the configurable cancel-all key, which always asks before
// cancelling. A network switch follows the wallet again on the new network.
import { useCallback, useEffect, useState } from 'react';
import { ask } from '../../bridge/terminal';
import { registerShortcut, useDialogEscape } from '../../keys/keyboard';
import { followAccount, useAccount } from '../../store/account';
import { useSession } from '../../store/session';
import { BalancesView, Positions, Trades } from './Holdings';
import { OpenOrders, cancelWith } from './OpenOrders';
import { TraderProfile } from '../profile/TraderProfile';
import { useProfile } from '../../store/profile';
import { AlertsTab } from '../alerts/AlertsTab';
import { StopsTab } from '../stops/StopsTab';
import { RewardsTab } from './RewardsTab';
import { TradersTab } from '../traders/TradersTab';
import { PortfolioView } from '../portfolio/PortfolioView';
import { StopDialogHost } from '../stops/StopDialog';
import { countOf } from '../../../../shared/words';
import { useWalletAccount } from '../wallets/AccountChoice';
import { shortAddress } from '../wallets/Dialog';
import { SandboxWalletDialog } from '../wallets/SandboxWalletDialog';
import './account.css';

type Tab =
  'positions' | 'orders' | 'trades' | 'balances' | 'trader' | 'alerts' | 'stops' | 'portfolio' | 'rewards' | 'traders';
// Keys 1–9 and then 0 open them in this order: the first seven keep the keys they always had.
const TAB_ORDER: Tab[] = [
  'positions',
  'orders',
  'trades',
  'balances',
  'trader',
  'alerts',
  'stops',
  'portfolio',
  'rewards',
  'traders',
];
const KIND_WORDS = { eoa: 'key', proxy: 'proxy wallet', safe: 'Safe', 'deposit-wallet': 'deposit wallet' } as const;
const TAB_NAMES: Record<Tab, string> = {
  positions: 'Positions',
  orders: 'Open orders',
  trades: 'Trades',
  balances: 'Balances',
  trader: 'Trader profile',
  alerts: 'Alerts',
  stops: 'Stops',
  portfolio: 'Portfolio',
  rewards: 'Rewards',
  traders: 'Traders',
};

export function AccountPanel() {
  const wallet = useSession((s) => s.activeWallet);
  const networkName = useSession((s) => s.network?.name ?? null);
  const cancelAllKey = useSession((s) => s.settings.cancelAllKey);
  const openCount = useAccount((s) => s.openOrders.length);
  const pendingCount = useAccount((s) => s.trades.filter((t) => t.pending).length);
  const source = useAccount((s) => s.source);
  const ordersError = useAccount((s) => s.ordersError);
  const [tab, setTab] = useState<Tab>('positions');
  const [confirmCancelAll, setConfirmCancelAll] = useState(false);

  // Another network is another exchange: main closed the old network's account feed with it, so the wallet
  // is followed again (watchAccount) there and everything is read again from it.
  // Unlocking matters too: a wallet with no exchange credentials yet can be followed live only once unlocked.
  const unlocked = useSession((s) => s.wallets.find((w) => w.label === s.activeWallet)?.unlocked ?? false);
  useEffect(() => (wallet && networkName ? followAccount(wallet) : undefined), [wallet, networkName, unlocked]);
  // The Polymarket account whose funds these are (AccountChoice reads everything again when another is chosen).
  const account = useWalletAccount((s) => (wallet ? s.byWallet[wallet] : undefined));

  // Nothing to confirm when nothing is open: the key says so instead of offering to cancel "0 open orders".
  const askCancelAll = useCallback(() => {
    const { wallet: following, openOrders } = useAccount.getState();
    if (!following) return;
    if (openOrders.length === 0) return useSession.getState().notify('info', 'No open orders to cancel.');
    setConfirmCancelAll(true);
  }, []);
  // 1–9 and 0 open the tabs in the order shown, from anywhere but a field.
  useEffect(() => {
    const offs = TAB_ORDER.map((id, i) =>
      registerShortcut({ key: String((i + 1) % 10), description: `Account: ${TAB_NAMES[id]}`, run: () => setTab(id) }),
    );
    return () => offs.forEach((off) => off());
  }, []);
  useEffect(
    () =>
      registerShortcut({ key: cancelAllKey, description: 'Cancel all open orders (asks first)', run: askCancelAll }),
    [cancelAllKey, askCancelAll],
  );
  // A trader opened from the tape, a discussion or a position (openTraderProfile) is shown here.
  const profileOpened = useProfile((s) => s.opened);
  useEffect(() => {
    if (profileOpened > 0) setTab('trader');
  }, [profileOpened]);

  const tabs: [Tab, string][] = TAB_ORDER.map((id) => [
    id,
    id === 'orders' && openCount
      ? `${TAB_NAMES[id]} (${openCount})`
      : id === 'trades' && pendingCount
        ? `${TAB_NAMES[id]} (${pendingCount} pending)`
        : TAB_NAMES[id],
  ]);

  return (
    <div className="panel account">
      <div className="tabs account-tabs" role="tablist" aria-label="Account">
        {tabs.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            data-testid={`account-tab-${id}`}
            title={`${TAB_NAMES[id]} (${TAB_ORDER.indexOf(id) + 1})`}
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
        <span className="account-status muted">
          {wallet ? (
            <>
              {wallet}
              {account && account.account.kind !== 'eoa' ? (
                <span data-testid="account-source" title={account.description}>
                  {' '}
                  · {KIND_WORDS[account.account.kind]} {shortAddress(account.account.address)}
                </span>
              ) : null}{' '}
              · {source === 'live' ? 'live' : source === 'polling' ? `refreshed every few seconds` : ''}
            </>
          ) : (
            'No wallet'
          )}
        </span>
      </div>
      <div className="panel-body">
        {!wallet && tab !== 'trader' && tab !== 'alerts' && tab !== 'stops' && tab !== 'traders' ? (
          <NoWallet />
        ) : (
          <>
            {ordersError && (tab === 'orders' || tab === 'trades') ? (
              <div className="error-text account-error">{ordersError}</div>
            ) : null}
            {tab === 'positions' ? <Positions /> : null}
            {tab === 'orders' ? <OpenOrders onCancelAll={askCancelAll} cancelAllKey={cancelAllKey} /> : null}
            {tab === 'trades' ? <Trades /> : null}
            {tab === 'balances' ? <BalancesView /> : null}
            {tab === 'trader' ? <TraderProfile /> : null}
            {tab === 'alerts' ? <AlertsTab /> : null}
            {tab === 'stops' ? <StopsTab /> : null}
            {tab === 'portfolio' && wallet ? <PortfolioView owner={{ wallet }} /> : null}
            {tab === 'rewards' ? <RewardsTab /> : null}
            {tab === 'traders' ? <TradersTab /> : null}
          </>
        )}
      </div>
      <StopDialogHost />
      {confirmCancelAll && wallet ? (
        <CancelAllDialog
          wallet={wallet}
          count={openCount}
          onClose={() => setConfirmCancelAll(false)}
          onConfirm={() => {
            setConfirmCancelAll(false);
            void cancelWith(() => ask('cancelAll', { wallet }), 'all');
          }}
        />
      ) : null}
    </div>
  );
}

function CancelAllDialog({
  wallet,
  count,
  onClose,
  onConfirm,
}: {
  wallet: string;
  count: number;
  onClose(): void;
  onConfirm(): void;
}) {
  useDialogEscape('Keep the orders', onClose);
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby="cancel-all-title"
        data-testid="cancel-all-dialog"
      >
        <h2 id="cancel-all-title">Cancel every open order of {wallet}?</h2>
        <div>
          {count === 1 ? 'One open order' : `All ${countOf(count, 'open order')}`} in every market will be cancelled on
          the exchange.
        </div>
        <div className="row dialog-actions">
          <button type="button" onClick={onClose}>
            Keep them (Esc)
          </button>
          <button type="button" className="sell" data-testid="confirm-cancel-all" autoFocus onClick={onConfirm}>
            Cancel all
          </button>
        </div>
      </div>
    </div>
  );
}

/**
 * What the account row says with no wallet chosen. On a first run on the sandbox (no wallet at all) it points at
 * the sandbox's funded test wallet, so a newcomer can trade at once instead of hunting for it in the wallet menu.
 */
function NoWallet() {
  const firstRunOnSandbox = useSession(
    (s) => s.walletsLoaded && s.wallets.length === 0 && (s.network?.sandbox ?? false),
  );
  const [using, setUsing] = useState(false);
  if (!firstRunOnSandbox)
    return <div className="empty">Add or choose a wallet to see its positions, orders and trades.</div>;
  return (
    <div className="empty" data-testid="first-run">
      No wallet yet. This sandbox has a funded test wallet ready to trade with:{' '}
      <button type="button" className="primary" data-testid="first-run-sandbox-wallet" onClick={() => setUsing(true)}>
        Use the sandbox test wallet…
      </button>{' '}
      or create or import one from the Wallet menu (w).
      {using ? <SandboxWalletDialog onClose={() => setUsing(false)} /> : null}
    </div>
  );
}
