// Any trader's positions by address, from the aggregator (what a trader checks before following someone).
import { useState } from 'react';
import type { TraderPosition } from '../../../../shared/aggregator';
import { ask, messageOf } from '../../terminal';
import { formatCents, formatShares, formatUsd } from '../ticket/order-math';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export function TraderLookup() {
  const [address, setAddress] = useState('');
  const [state, setState] = useState<{ status: 'idle' | 'loading' } | { status: 'done'; address: string; positions: TraderPosition[] } | { status: 'failed'; message: string }>({ status: 'idle' });
  const trimmed = address.trim();
  const whyNot = !trimmed ? 'Type an address.' : !ADDRESS.test(trimmed) ? 'An address is 0x and 40 hex digits.' : state.status === 'loading' ? 'Looking it up…' : null;

  const lookUp = async () => {
    if (whyNot) return;
    setState({ status: 'loading' });
    try {
      setState({ status: 'done', address: trimmed, positions: await ask('getTraderPositions', { protocol: 'polymarket', address: trimmed }) });
    } catch (error) {
      setState({ status: 'failed', message: messageOf(error) });
    }
  };

  return (
    <div className="account-tab" data-testid="trader-lookup">
      <form
        className="account-actions"
        onSubmit={(e) => {
          e.preventDefault();
          void lookUp();
        }}
      >
        <input aria-label="Trader address" data-testid="trader-address" placeholder="0x… trader address" value={address} onChange={(e) => setAddress(e.target.value)} spellCheck={false} />
        <button type="submit" data-testid="trader-lookup-submit" disabled={!!whyNot} title={whyNot ?? "Show this trader's positions"}>
          Look up
        </button>
      </form>
      {state.status === 'failed' ? <div className="error-text">{state.message}</div> : null}
      {state.status === 'done' && state.positions.length === 0 ? <div className="empty">{state.address} holds no positions.</div> : null}
      {state.status === 'done' && state.positions.length > 0 ? (
        <table className="dense">
          <thead>
            <tr>
              <th>Market</th>
              <th>Outcome</th>
              <th className="num">Size</th>
              <th className="num">Avg price</th>
              <th className="num">Current</th>
              <th className="num">Value</th>
              <th className="num">PnL</th>
            </tr>
          </thead>
          <tbody>
            {state.positions.map((p, i) => (
              <tr key={`${p.conditionId ?? i}:${p.outcome}`}>
                <td>{p.marketSlug ?? p.conditionId ?? '—'}</td>
                <td>{p.outcome}</td>
                <td className="num">{formatShares(p.size)}</td>
                <td className="num">{p.averagePrice == null ? '—' : formatCents(p.averagePrice)}</td>
                <td className="num">{formatCents(p.currentPrice)}</td>
                <td className="num">{formatUsd(p.currentValue)}</td>
                <td className={`num ${p.cashPnl == null ? 'muted' : p.cashPnl >= 0 ? 'bid' : 'ask'}`}>{p.cashPnl == null ? '—' : formatUsd(p.cashPnl)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
