// Any trader's positions by address, from the aggregator (what a trader checks before following someone).
import { useState } from 'react';
import type { TraderPosition } from '@pmdesk/toolkit/model';
import { ask, messageOf } from '../../terminal';
import { PositionsTable } from './PositionsTable';

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
        <PositionsTable
          rows={state.positions.map((p, i) => ({
            key: `${p.conditionId ?? i}:${p.outcome}`,
            market: p.marketSlug ?? p.conditionId ?? '—',
            outcome: p.outcome,
            size: p.size,
            averagePrice: p.averagePrice ?? null,
            currentPrice: p.currentPrice,
            currentValue: p.currentValue,
            pnl: p.cashPnl ?? null,
            pnlTitle: "The aggregator's cash PnL",
          }))}
        />
      ) : null}
    </div>
  );
}
