// The network switch in the network badge: the current network's name, always visible, opening the list of
// networks this terminal knows (the ones it cannot use disabled, with the reason), each tagged with what its
// money is (sandbox, test network, real money), a confirmation before leaving the sandbox, and a form to remember
// a custom network.
import { useEffect, useRef, useState } from 'react';
import type { NetworkChoice } from '../../../../shared/contract';
import { useSession } from '../../store/session';
import { registerShortcut } from '../../keys/keyboard';
import { focusFirstItem, onMenuArrows } from '../../keys/menu-keys';
import { ask, messageOf } from '../../bridge/terminal';
import { Dialog, ErrorLine } from './Dialog';
import { AddNetworkDialog } from './AddNetworkDialog';
import './wallets.css';

/** Polygon's test network: its pUSD and POL come from faucets and are worth nothing. */
export const AMOY_CHAIN_ID = 80_002;

/** What a network's money is, as its tag says it: the local sandbox, a test network, or real money. */
export function moneyTag(network: Pick<NetworkChoice, 'sandbox' | 'chainId'>) {
  if (network.sandbox) return <span className="tag">SANDBOX</span>;
  if (network.chainId === AMOY_CHAIN_ID)
    return (
      <span className="tag test" title="A test network: its pUSD has no value">
        TEST NETWORK
      </span>
    );
  return <span className="tag real">REAL MONEY</span>;
}

export function NetworkSwitch() {
  const name = useSession((s) => s.network?.name ?? '');
  const networks = useSession((s) => s.networks);
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [switching, setSwitching] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<NetworkChoice | null>(null);
  const [adding, setAdding] = useState(false);
  const root = useRef<HTMLSpanElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => registerShortcut({ key: 'n', description: 'Open the network list', run: () => setOpen(true) }), []);

  useEffect(() => {
    if (!open) return;
    void useSession.getState().refreshNetworks();
    const outside = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    focusFirstItem(list.current);
    const unregister = registerShortcut({
      key: 'Escape',
      description: 'Close the network list',
      inFields: true,
      run: () => {
        setOpen(false);
        button.current?.focus();
      },
    });
    return () => {
      document.removeEventListener('mousedown', outside);
      unregister();
    };
  }, [open]);

  async function switchTo(choice: NetworkChoice) {
    setConfirming(null);
    setSwitching(choice.name);
    setProblem(null);
    try {
      const network = await ask('switchNetwork', { name: choice.name });
      useSession.setState({ network });
      setOpen(false);
      await useSession.getState().refreshNetworks();
    } catch (error) {
      setProblem(messageOf(error));
    } finally {
      setSwitching(null);
    }
  }

  function choose(choice: NetworkChoice) {
    if (choice.current) return setOpen(false);
    // Real money: said plainly, and asked once more.
    if (!choice.sandbox) return setConfirming(choice);
    void switchTo(choice);
  }

  return (
    <span className="network-switch" ref={root}>
      <button
        type="button"
        className="ghost network-name"
        data-testid="network-switch"
        ref={button}
        aria-haspopup="menu"
        aria-expanded={open}
        title="Switch network (n)"
        aria-keyshortcuts="n"
        onClick={() => setOpen(!open)}
      >
        {name || 'No network'} <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <div className="network-dropdown" role="menu" data-testid="network-list" ref={list} onKeyDown={onMenuArrows}>
          {networks.map((choice) => {
            const why = !choice.available
              ? (choice.reason ?? 'Not usable from here.')
              : switching
                ? `Switching to ${switching}…`
                : undefined;
            return (
              <button
                key={choice.name}
                type="button"
                role="menuitemradio"
                aria-checked={choice.current}
                className="network-option"
                data-testid="network-option"
                data-name={choice.name}
                disabled={why !== undefined}
                title={
                  why ??
                  (choice.current
                    ? 'The network this session trades on'
                    : `Trade on ${choice.name} (chain ${choice.chainId})`)
                }
                onClick={() => choose(choice)}
              >
                <span className="check" aria-hidden="true">
                  {choice.current ? '●' : ''}
                </span>
                <span>{choice.name}</span>
                <span className="muted">chain {choice.chainId}</span>
                <span className="muted">{choice.source === 'aggregator' ? 'aggregator' : 'Polymarket'}</span>
                {moneyTag(choice)}
              </button>
            );
          })}
          <ErrorLine message={problem} />
          <button
            type="button"
            className="menu-item"
            data-testid="network-add"
            onClick={() => {
              setOpen(false);
              setAdding(true);
            }}
          >
            Add a custom network…
          </button>
        </div>
      ) : null}
      {confirming ? (
        <Dialog title={`Switch to ${confirming.name}?`} testId="network-confirm" onClose={() => setConfirming(null)}>
          <p data-testid="network-confirm-money">
            {confirming.chainId === AMOY_CHAIN_ID ? (
              <>
                <strong>{confirming.name} is a test network.</strong> Orders placed there trade its test pUSD, which has
                no value (chain {confirming.chainId}).
              </>
            ) : (
              <>
                <strong className="error-text">{confirming.name} is real money.</strong> Orders placed there spend real
                pUSD (chain {confirming.chainId}).
              </>
            )}{' '}
            Live feeds are closed and reopened; wallets stay as they are.
          </p>
          <div className="row dialog-actions">
            <button type="button" className="ghost" onClick={() => setConfirming(null)}>
              Stay here
            </button>
            <button
              type="button"
              className="primary"
              data-testid="network-confirm-switch"
              onClick={() => void switchTo(confirming)}
            >
              Switch to {confirming.name}
            </button>
          </div>
        </Dialog>
      ) : null}
      {adding ? <AddNetworkDialog onClose={() => setAdding(false)} /> : null}
    </span>
  );
}
