// The Alerts tab: set an alert on the open market (a price crossing a level, a spread, a volume spike, its
// resolving) or on the active wallet's fills; the alerts with their state, each deletable; and the alert log.
// Main watches them (while PM Desk is open, window or not) and each fires once.
import { useState } from 'react';
import type { AlertInfo, AlertKind, AlertPrice } from '../../../../shared/contract';
import { centsOf } from '../../../../shared/words';
import { createAlert, deleteAlert, useAlerts } from '../../store/alerts';
import { useMarket } from '../../store/market';
import { useSelection } from '../../store/selection';
import { useSession } from '../../store/session';
import './alerts.css';

const KIND_NAMES: Record<AlertKind, string> = {
  price: 'Price crosses a level',
  spread: 'Spread wider than',
  volume: 'Volume spike',
  fill: 'A fill of mine',
  resolved: 'Market resolves',
};
const PRICE_NAMES: Record<AlertPrice, string> = {
  bid: 'Best bid',
  ask: 'Best ask',
  mid: 'Midpoint',
  last: 'Last trade',
};

/** One alert in a line: what it watches. */
export function describeAlert(a: AlertInfo): string {
  const where = a.outcome ? `${a.outcome} · ${a.marketName}` : a.marketName;
  switch (a.kind) {
    case 'price':
      return `${PRICE_NAMES[a.price!]} ${a.direction === 'up' ? 'rises to' : 'falls to'} ${centsOf(a.level!)} — ${where}`;
    case 'spread':
      return `Spread wider than ${centsOf(a.level!)} — ${where}`;
    case 'volume':
      return `Volume of the last ${a.minutes} min over ${a.multiple}× the hour before — ${where}`;
    case 'fill':
      return `A fill of ${a.wallet}'s orders`;
    default:
      return `Resolves — ${where}`;
  }
}

const cents = (text: string) => Number((Number(text) / 100).toFixed(6));

export function AlertsTab() {
  const alerts = useAlerts((s) => s.alerts);
  const log = useAlerts((s) => s.log);
  const error = useAlerts((s) => s.error);
  const permission = useAlerts((s) => s.permission);
  const selection = useSelection((s) => s.market);
  const selectedToken = useSelection((s) => s.tokenId);
  const market = useMarket((s) => s.market);
  const wallet = useSession((s) => s.activeWallet);
  const [kind, setKind] = useState<AlertKind>('price');
  const [tokenChoice, setToken] = useState<string>('');
  const [price, setPrice] = useState<AlertPrice>('bid');
  const [direction, setDirection] = useState<'up' | 'down'>('down');
  const [level, setLevel] = useState('');
  const [minutes, setMinutes] = useState('5');
  const [multiple, setMultiple] = useState('3');
  const tokens = market?.position_tokens ?? [];
  const tokenId = tokenChoice || selectedToken || tokens[0]?.token_id || '';
  const needsMarket = kind !== 'fill';
  const ready =
    kind === 'fill'
      ? !!wallet
      : !!selection &&
        (kind === 'volume' || kind === 'resolved' || (!!tokenId && Number(level) > 0 && Number(level) < 100));

  const submit = async () => {
    if (!ready) return;
    const base = { protocol: selection?.protocol ?? 'polymarket', marketId: selection?.marketId ?? '' };
    const ok =
      kind === 'price'
        ? await createAlert({ kind, ...base, tokenId, price, direction, level: cents(level) })
        : kind === 'spread'
          ? await createAlert({ kind, ...base, tokenId, level: cents(level) })
          : kind === 'volume'
            ? await createAlert({ kind, ...base, minutes: Number(minutes), multiple: Number(multiple) })
            : kind === 'fill'
              ? await createAlert({ kind, protocol: base.protocol, wallet: wallet! })
              : await createAlert({ kind, ...base });
    if (ok) setLevel('');
  };

  return (
    <div className="account-tab alerts-tab" data-testid="alerts-tab">
      <form
        className="account-actions alert-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <select
          aria-label="Alert kind"
          data-testid="alert-kind"
          value={kind}
          onChange={(e) => setKind(e.target.value as AlertKind)}
        >
          {(Object.keys(KIND_NAMES) as AlertKind[]).map((k) => (
            <option key={k} value={k}>
              {KIND_NAMES[k]}
            </option>
          ))}
        </select>
        {kind === 'price' || kind === 'spread' ? (
          <select
            aria-label="Outcome"
            data-testid="alert-outcome"
            value={tokenId}
            onChange={(e) => setToken(e.target.value)}
          >
            {tokens.map((t) => (
              <option key={t.token_id} value={t.token_id}>
                {t.name}
              </option>
            ))}
          </select>
        ) : null}
        {kind === 'price' ? (
          <>
            <select
              aria-label="Price"
              data-testid="alert-price"
              value={price}
              onChange={(e) => setPrice(e.target.value as AlertPrice)}
            >
              {(Object.keys(PRICE_NAMES) as AlertPrice[]).map((p) => (
                <option key={p} value={p}>
                  {PRICE_NAMES[p]}
                </option>
              ))}
            </select>
            <select
              aria-label="Direction"
              data-testid="alert-direction"
              value={direction}
              onChange={(e) => setDirection(e.target.value as 'up' | 'down')}
            >
              <option value="down">falls to</option>
              <option value="up">rises to</option>
            </select>
          </>
        ) : null}
        {kind === 'price' || kind === 'spread' ? (
          <label>
            <input
              aria-label="Level in cents"
              data-testid="alert-level"
              inputMode="decimal"
              placeholder="¢"
              value={level}
              onChange={(e) => setLevel(e.target.value)}
            />
            ¢
          </label>
        ) : null}
        {kind === 'volume' ? (
          <>
            <label>
              last{' '}
              <input
                aria-label="Minutes"
                className="short"
                value={minutes}
                onChange={(e) => setMinutes(e.target.value)}
              />{' '}
              min over
            </label>
            <label>
              <input
                aria-label="Multiple"
                className="short"
                value={multiple}
                onChange={(e) => setMultiple(e.target.value)}
              />
              × the hour before
            </label>
          </>
        ) : null}
        <button type="submit" data-testid="alert-create" disabled={!ready}>
          Set alert
        </button>
        <span className="muted">
          {needsMarket
            ? selection
              ? (market?.name ?? '')
              : 'Open a market first'
            : wallet
              ? `Fills of ${wallet}`
              : 'Choose a wallet first'}
        </span>
      </form>
      <div className="muted alert-note">
        Alerts are watched by PM Desk while it is open and fire once.
        {permission === 'denied' ? ' Notifications are blocked in this browser: alerts show in PM Desk only.' : ''}
      </div>
      {error ? <div className="error-text account-error">{error}</div> : null}
      <table className="dense">
        <thead>
          <tr>
            <th>Alert</th>
            <th>State</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {alerts.length === 0 ? (
            <tr>
              <td colSpan={3} className="muted">
                No alerts.
              </td>
            </tr>
          ) : (
            alerts.map((a) => (
              <tr key={a.id} data-alert={a.id} data-state={a.state}>
                <td>{describeAlert(a)}</td>
                <td title={a.waiting}>
                  {a.state === 'fired'
                    ? `Fired ${new Date(a.firedAt!).toLocaleTimeString()}`
                    : a.waiting
                      ? 'Waiting'
                      : 'Armed'}
                </td>
                <td>
                  <button type="button" className="ghost" onClick={() => void deleteAlert(a.id)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      <h3 className="alert-log-title">Alert log</h3>
      <ul className="alert-log" data-testid="alert-log">
        {log.map((l) => (
          <li key={l.id}>
            <span className="muted">{new Date(l.at).toLocaleTimeString()}</span> {l.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
