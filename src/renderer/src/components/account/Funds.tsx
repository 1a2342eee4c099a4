// The account's money on this network — pUSD, USDC.e and the POL its key pays gas with — with Wrap and Unwrap,
// and the money actions on a position's row (Redeem a resolved market, Split and Merge complete sets). It says
// whether they go through Polymarket's relayer (no gas) or from the key, and a wallet account's relayer credentials
// are entered here; a deposit wallet without them has its buttons off, saying why (relayer only).
import { useCallback, useEffect, useState } from 'react';
import { ask, messageOf } from '../../bridge/terminal';
import { refreshHoldings } from '../../store/account';
import { useSession } from '../../store/session';
import type { AccountFunds, MoneyAction, PositionInfo } from '../../../../shared/contract';
import { MoneyDialog, type MoneyDialogProps } from './MoneyDialog';
import { balanceText } from '../../model/account-math';
import { formatUsd } from '../../format/numbers';
import { RelayerDialog } from './RelayerDialog';

type Asked = Omit<MoneyDialogProps, 'wallet' | 'onClose' | 'onDone'>;

/**
 * The wallet's funds on the network in use, read on open, after each action and after a network switch (whose
 * funds are another chain's: the previous network's are dropped at once, never shown under the new one's name);
 * `null` until read.
 */
export function useAccountFunds(wallet: string | null): {
  funds: AccountFunds | null;
  error: string | null;
  reload(): void;
} {
  const network = useSession((s) => s.network?.name ?? null);
  const [funds, setFunds] = useState<AccountFunds | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [readFor, setReadFor] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const key = wallet && network ? `${network}\n${wallet}` : null;
  if (readFor !== key) {
    // Another wallet or network: what was read for the previous one goes before this render shows it.
    setReadFor(key);
    setFunds(null);
    setError(null);
  }
  useEffect(() => {
    if (!wallet || !network) return;
    let live = true;
    ask('getAccountFunds', { wallet }).then(
      (read) => live && (setFunds(read), setError(null)),
      (e: unknown) => live && setError(`Balances could not be read: ${messageOf(e)}`),
    );
    return () => {
      live = false;
    };
  }, [wallet, network, tick]);
  return { funds, error, reload: useCallback(() => setTick((t) => t + 1), []) };
}

/** One money action at a time, and what to read again after it. */
export function useMoneyDialog(wallet: string | null, after?: () => void) {
  const [asked, setAsked] = useState<Asked | null>(null);
  const dialog =
    asked && wallet ? (
      <MoneyDialog
        wallet={wallet}
        {...asked}
        onClose={() => setAsked(null)}
        onDone={() => {
          void refreshHoldings(wallet);
          after?.();
        }}
      />
    ) : null;
  return { open: setAsked, dialog };
}

export function FundsView({ wallet }: { wallet: string }) {
  const { funds, error, reload } = useAccountFunds(wallet);
  const money = useMoneyDialog(wallet, reload);
  const [relayerOpen, setRelayerOpen] = useState(false);
  const off = funds?.actionsUnavailable ?? null;
  return (
    <div className="funds" data-testid="funds">
      {error ? <div className="error-text">{error}</div> : null}
      {funds ? (
        <dl className="balances">
          <dt>pUSD (trades with)</dt>
          <dd
            className="num"
            data-testid="funds-pusd"
            title={`${funds.pusd.units} base units`}
            data-exact={funds.pusd.text}
          >
            {balanceText(funds.pusd.units)}
          </dd>
          <dt>USDC.e (wrap to trade)</dt>
          <dd
            className="num"
            data-testid="funds-usdce"
            title={funds.usdcE ? `${funds.usdcE.units} base units` : ''}
            data-exact={funds.usdcE?.text}
          >
            {funds.usdcE ? balanceText(funds.usdcE.units) : 'none on this network'}
          </dd>
          <dt>
            Gas: key {funds.key.slice(0, 6)}…{funds.key.slice(-4)}
          </dt>
          <dd className="num" data-testid="funds-gas" title={`${funds.keyGas.units} wei`}>
            {funds.keyGas.text}
          </dd>
          <dt>Actions sent</dt>
          <dd data-testid="funds-via" data-via={funds.via}>
            {funds.via === 'relayer' ? "through Polymarket's relayer (no gas)" : 'by the key (gas in POL)'}
          </dd>
        </dl>
      ) : null}
      <div className="account-actions">
        {(['wrap', 'unwrap'] as const).map((action) => (
          <button
            key={action}
            type="button"
            data-testid={`funds-${action}`}
            disabled={!funds || !!off || (action === 'wrap' && !funds.usdcE)}
            title={
              off ??
              (action === 'wrap' ? 'Turn USDC.e into pUSD through the collateral onramp' : 'Turn pUSD back into USDC.e')
            }
            onClick={() => money.open({ action })}
          >
            {action === 'wrap' ? 'Wrap' : 'Unwrap'}
          </button>
        ))}
      </div>
      {off ? (
        <div className="muted" data-testid="funds-unavailable">
          {off}
        </div>
      ) : null}
      {funds && funds.accountKind !== 'eoa' ? (
        <button
          type="button"
          className="ghost"
          data-testid="funds-relayer"
          title={funds.viaReason}
          onClick={() => setRelayerOpen(true)}
        >
          Relayer credentials…
        </button>
      ) : null}
      {relayerOpen ? <RelayerDialog wallet={wallet} onClose={() => setRelayerOpen(false)} onChanged={reload} /> : null}
      {money.dialog}
    </div>
  );
}

/** A position's money actions: "Won $X — Redeem" or "Lost" once its market resolved, else Split and Merge. */
export function PositionActions({
  position,
  unavailable,
  open,
}: {
  position: PositionInfo;
  unavailable: string | null;
  open(asked: Asked): void;
}) {
  const marketId = position.marketSlug ?? position.conditionId;
  if (!marketId) return null;
  const question = position.question ?? position.marketSlug ?? undefined;
  const act = (action: MoneyAction, label: string, title: string, className = '') => (
    <button
      type="button"
      className={className}
      data-testid={`position-${action}`}
      disabled={!!unavailable}
      title={unavailable ?? title}
      onClick={() => open({ action, marketId, question })}
    >
      {label}
    </button>
  );
  if (position.redeemable) {
    // The Data API's value; the confirmation shows the exact payout read from the chain.
    return position.currentPrice > 0 ? (
      act(
        'redeem',
        `Won ${formatUsd(position.currentValue)} — Redeem`,
        'Collect the winnings: review the exact payout and gas first',
        'buy',
      )
    ) : (
      <span className="muted" data-testid="position-lost">
        Lost
      </span>
    );
  }
  return (
    <span className="row position-actions">
      {act('split', 'Split', 'Turn pUSD into a complete set of this market’s outcomes')}
      {act('merge', 'Merge', 'Turn complete sets of this market back into pUSD')}
    </span>
  );
}
