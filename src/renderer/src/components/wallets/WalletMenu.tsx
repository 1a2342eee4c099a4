// The wallet menu in the top bar: which wallet orders would be signed with, locked or not, and everything
// done with wallets — switch, unlock, lock, create, import, export — plus the dead-man switch, whose badge
// stays in the bar while it is on (red when its heartbeats fail), so a trader always knows it is armed.
import { useEffect, useRef, useState } from 'react';
import { activeWalletInfo, useSession } from '../../store/session';
import { useAccount } from '../../store/account';
import { registerShortcut } from '../../keys/keyboard';
import { focusFirstItem, onMenuArrows } from '../../keys/menu-keys';
import { ask, messageOf } from '../../bridge/terminal';
import { Dialog, shortAddress } from './Dialog';
import { UnlockDialog } from './UnlockDialog';
import { CreateWalletDialog } from './CreateWalletDialog';
import { ImportWalletDialog } from './ImportWalletDialog';
import { ExportWalletDialog } from './ExportWalletDialog';
import { SandboxWalletDialog } from './SandboxWalletDialog';
import { describeDeadManSwitch, followDeadManSwitch, useDeadManSwitch } from './dead-man-switch';
import { AccountChoice, useWalletAccount } from './AccountChoice';
import './wallets.css';

type OpenDialog =
  { kind: 'unlock' | 'export' | 'dms-off'; wallet: string } | { kind: 'create' | 'import' | 'sandbox' } | null;

export function WalletMenu() {
  const wallets = useSession((s) => s.wallets);
  // The sandbox offers its funded test wallet (main imports it; nothing there is real money).
  const onSandbox = useSession((s) => s.network?.sandbox ?? false);
  const active = useSession(activeWalletInfo);
  const setActiveWallet = useSession((s) => s.setActiveWallet);
  const [menuOpen, setMenuOpen] = useState(false);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const dropdown = useRef<HTMLDivElement>(null);

  const activeLabel = active?.label;
  const dms = useDeadManSwitch((s) => (activeLabel ? s.byWallet[activeLabel] : undefined));
  const dmsProblem = useDeadManSwitch((s) => (activeLabel ? s.problem[activeLabel] : undefined));
  const dmsUnavailable = useDeadManSwitch((s) => (activeLabel ? s.unavailable[activeLabel] : undefined));
  const dmsBusy = useDeadManSwitch((s) => (activeLabel ? (s.busy[activeLabel] ?? false) : false));

  useEffect(() => followDeadManSwitch(), []);
  useEffect(
    () => registerShortcut({ key: 'w', description: 'Open the wallet menu', run: () => setMenuOpen(true) }),
    [],
  );
  // Each network has its own switch (main rebuilds them on a switch): read it again after one.
  const networkName = useSession((s) => s.network?.name ?? null);
  useEffect(() => {
    if (activeLabel && networkName) void useDeadManSwitch.getState().load(activeLabel);
  }, [activeLabel, networkName]);

  // The account behind the key: read when the menu opens (main looks for it on unlock), per wallet and network.
  const unlocked = active?.unlocked ?? false;
  useEffect(() => {
    if (activeLabel && networkName && (menuOpen || unlocked)) void useWalletAccount.getState().load(activeLabel);
  }, [activeLabel, networkName, menuOpen, unlocked]);

  useEffect(() => {
    if (!menuOpen) return;
    const outside = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setMenuOpen(false);
    };
    document.addEventListener('mousedown', outside);
    focusFirstItem(dropdown.current);
    const unregister = registerShortcut({
      key: 'Escape',
      description: 'Close the wallet menu',
      inFields: true,
      run: () => {
        setMenuOpen(false);
        button.current?.focus();
      },
    });
    return () => {
      document.removeEventListener('mousedown', outside);
      unregister();
    };
  }, [menuOpen]);

  function open(next: OpenDialog) {
    setMenuOpen(false);
    setDialog(next);
  }

  async function lock(label: string) {
    try {
      await ask('lockWallet', { label });
    } catch (error) {
      useSession.getState().notify('error', messageOf(error));
    }
    await useSession.getState().refreshWallets();
  }

  const dmsOn = dms?.enabled === true;
  const dmsBlocked = !active
    ? 'Choose a wallet first.'
    : dmsUnavailable
      ? dmsUnavailable
      : dmsBusy
        ? 'Waiting for main…'
        : undefined;

  return (
    <div className="wallet-menu" data-testid="wallet-menu" ref={root}>
      <button
        type="button"
        className="wallet-current"
        data-testid="wallet-current"
        ref={button}
        aria-haspopup="menu"
        aria-expanded={menuOpen}
        title={active ? `${active.label}: ${active.address}` : 'No wallet yet: create or import one'}
        aria-keyshortcuts="w"
        onClick={() => setMenuOpen(!menuOpen)}
      >
        {active ? (
          <>
            <span className="wallet-label" data-testid="wallet-label">
              {active.label}
            </span>
            <span className="wallet-address">{shortAddress(active.address)}</span>
            <span
              className={`lock-state ${active.unlocked ? 'unlocked' : 'locked'}`}
              data-testid="wallet-state"
              data-unlocked={active.unlocked}
            >
              {active.unlocked ? 'Unlocked' : 'Locked'}
            </span>
          </>
        ) : (
          <span className="muted" data-testid="wallet-label">
            No wallet
          </span>
        )}
        <span aria-hidden="true">▾</span>
      </button>
      {dmsOn && dms ? (
        <span
          className={`dms-badge ${dms.state === 'failing' ? 'failing' : ''}`}
          data-testid="dms-badge"
          data-state={dms.state}
          title={describeDeadManSwitch(dms)}
        >
          DMS ON
        </span>
      ) : null}
      {active?.unlocked ? (
        <button
          type="button"
          data-testid="wallet-lock"
          title="Lock this wallet: its key is dropped from memory"
          onClick={() => void lock(active.label)}
        >
          Lock
        </button>
      ) : (
        <button
          type="button"
          data-testid="wallet-unlock"
          disabled={!active}
          title={active ? 'Unlock this wallet to trade' : 'Create or import a wallet first.'}
          onClick={() => active && open({ kind: 'unlock', wallet: active.label })}
        >
          Unlock
        </button>
      )}

      {menuOpen ? (
        <div
          className="wallet-dropdown"
          role="menu"
          data-testid="wallet-dropdown"
          ref={dropdown}
          onKeyDown={onMenuArrows}
        >
          <div className="menu-section">Wallets</div>
          {wallets.length === 0 ? (
            <div className="muted menu-note" data-testid="no-wallets">
              {onSandbox
                ? 'No wallets yet: use the sandbox test wallet, or create or import one.'
                : 'No wallets yet: create or import one.'}
            </div>
          ) : null}
          {wallets.map((w) => (
            <button
              key={w.label}
              type="button"
              role="menuitemradio"
              aria-checked={w.label === active?.label}
              className="wallet-option"
              data-testid="wallet-option"
              data-label={w.label}
              title={w.address}
              onClick={() => {
                setActiveWallet(w.label);
                setMenuOpen(false);
              }}
            >
              <span className="check" aria-hidden="true">
                {w.label === active?.label ? '●' : ''}
              </span>
              <span className="wallet-label">{w.label}</span>
              <span className="wallet-address">{shortAddress(w.address)}</span>
              <span className={`lock-state ${w.unlocked ? 'unlocked' : 'locked'}`}>
                {w.unlocked ? 'Unlocked' : 'Locked'}
              </span>
            </button>
          ))}
          {active ? <AccountChoice wallet={active.label} /> : null}
          <div className="menu-section">Dead-man switch</div>
          <label className="dms-toggle" title={dmsBlocked ?? DMS_MEANING}>
            <input
              type="checkbox"
              data-testid="dms-toggle"
              checked={dmsOn}
              disabled={dmsBlocked !== undefined}
              onChange={(e) => {
                if (!activeLabel) return;
                // Off is not a disarm: the exchange cancels the open orders once the heartbeats stop. Asked first.
                if (!e.target.checked) return open({ kind: 'dms-off', wallet: activeLabel });
                void useDeadManSwitch.getState().turn(activeLabel, true);
              }}
            />
            Cancel my open orders if PM Desk stops answering
          </label>
          {dmsUnavailable ? (
            <div className="muted menu-note" data-testid="dms-unavailable">
              {dmsUnavailable}
            </div>
          ) : null}
          {dmsProblem ? (
            <div className="error-text menu-note" data-testid="dms-problem">
              {dmsProblem}
            </div>
          ) : null}
          <div className="menu-section">Manage</div>
          {onSandbox ? (
            <button
              type="button"
              className="menu-item"
              data-testid="wallet-sandbox"
              title="The sandbox's funded test wallet: test money on this sandbox only"
              onClick={() => open({ kind: 'sandbox' })}
            >
              Use the sandbox test wallet…
            </button>
          ) : null}
          <button
            type="button"
            className="menu-item"
            data-testid="wallet-create"
            onClick={() => open({ kind: 'create' })}
          >
            Create a wallet…
          </button>
          <button
            type="button"
            className="menu-item"
            data-testid="wallet-import"
            onClick={() => open({ kind: 'import' })}
          >
            Import a wallet…
          </button>
          <button
            type="button"
            className="menu-item"
            data-testid="wallet-export"
            disabled={!active}
            title={active ? `Download ${active.label}’s keystore file` : 'Choose a wallet first.'}
            onClick={() => active && open({ kind: 'export', wallet: active.label })}
          >
            Export keystore file…
          </button>
        </div>
      ) : null}

      {dialog?.kind === 'unlock' ? <UnlockDialog wallet={dialog.wallet} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'export' ? <ExportWalletDialog wallet={dialog.wallet} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'dms-off' ? (
        <TurnOffDeadManSwitch wallet={dialog.wallet} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === 'create' ? <CreateWalletDialog onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'import' ? <ImportWalletDialog onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'sandbox' ? <SandboxWalletDialog onClose={() => setDialog(null)} /> : null}
    </div>
  );
}

const DMS_MEANING =
  'While on, PM Desk sends the exchange a heartbeat every few seconds; if the heartbeats stop (the terminal closes, crashes or loses its link), the exchange cancels this wallet’s open orders about 10 s later. Turning it off stops the heartbeats, so it cancels them too.';

/** What turning the switch off will do, said before it is done: the exchange cancels the open orders. */
function TurnOffDeadManSwitch({ wallet, onClose }: { wallet: string; onClose(): void }) {
  // The account panel follows the active wallet: its open orders are the ones that will go.
  const followed = useAccount((s) => s.wallet === wallet && s.loaded);
  const count = useAccount((s) => s.openOrders.length);
  const orders = !followed
    ? 'every open order of this wallet'
    : count === 0
      ? 'its open orders (none now)'
      : count === 1
        ? 'its one open order'
        : `its ${count} open orders`;
  return (
    <Dialog title={`Turn off ${wallet}’s dead-man switch?`} testId="dms-off-dialog" onClose={onClose}>
      <p data-testid="dms-off-text">
        There is no way to disarm it quietly: turning it off stops the heartbeats, and about 10 s later the exchange
        cancels {orders} in every market. Orders placed after that stay.
      </p>
      <div className="row dialog-actions">
        <button type="button" className="ghost" onClick={onClose}>
          Keep it on (Esc)
        </button>
        <button
          type="button"
          className="primary"
          data-testid="dms-off-confirm"
          onClick={() => {
            onClose();
            void useDeadManSwitch.getState().turn(wallet, false);
          }}
        >
          Turn it off
        </button>
      </div>
    </Dialog>
  );
}
