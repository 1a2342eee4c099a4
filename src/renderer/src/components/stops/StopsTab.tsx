// The Stops tab: the network's client-side stop-losses and take-profits (armed first, then the history of fired
// and cancelled ones with what happened), each armed one cancellable, and "New stop" on the open market's outcome.
// Every row says it runs only while PM Desk is open.
import type { StopInfo } from '../../../../shared/contract';
import { centsOf } from '../../../../shared/words';
import { RUNS_ONLY_WHILE_OPEN, cancelStop, openStopDialog, useStops } from '../../store/stops';
import { useMarket } from '../../store/market';
import { useSelection } from '../../store/selection';
import '../alerts/alerts.css';

const KIND = { 'stop-loss': 'Stop-loss', 'take-profit': 'Take-profit' } as const;

function stateText(stop: StopInfo): string {
  if (stop.state === 'fired') return `Fired ${new Date(stop.firedAt!).toLocaleTimeString()}`;
  if (stop.state === 'cancelled') return 'Cancelled';
  return stop.result ? 'Armed — could not sell yet' : 'Armed';
}

export function StopsTab() {
  const stops = useStops((s) => s.stops);
  const error = useStops((s) => s.error);
  const selection = useSelection((s) => s.market);
  const tokenId = useSelection((s) => s.tokenId);
  const market = useMarket((s) => s.market);
  const firstToken = market?.position_tokens[0]?.token_id;

  return (
    <div className="account-tab stops-tab" data-testid="stops-tab">
      <div className="account-actions">
        <button
          type="button"
          data-testid="stop-new"
          disabled={!selection || !(tokenId ?? firstToken)}
          onClick={() =>
            selection &&
            openStopDialog({
              protocol: selection.protocol,
              marketId: selection.marketId,
              tokenId: (tokenId ?? firstToken)!,
              market: market?.name,
            })
          }
        >
          New stop on the open market
        </button>
        <span className="stop-label">{RUNS_ONLY_WHILE_OPEN}: stops are not orders on the exchange.</span>
      </div>
      {error ? <div className="error-text account-error">{error}</div> : null}
      <table className="dense">
        <thead>
          <tr>
            <th>Stop</th>
            <th className="num">Level</th>
            <th className="num">Shares</th>
            <th>State</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {stops.length === 0 ? (
            <tr>
              <td colSpan={5} className="muted">
                No stops. {RUNS_ONLY_WHILE_OPEN}.
              </td>
            </tr>
          ) : (
            stops.map((s) => (
              <tr key={s.id} data-stop={s.id} data-state={s.state}>
                <td>
                  {KIND[s.kind]} · {s.outcome} · {s.marketName} · {s.wallet}
                  <div className="stop-label">{RUNS_ONLY_WHILE_OPEN}</div>
                  {s.result ? <div className="muted stop-result">{s.result}</div> : null}
                </td>
                <td className="num">
                  {centsOf(s.level)}
                  {s.worstPrice !== null ? ` (≥ ${centsOf(s.worstPrice)})` : ''}
                </td>
                <td className="num">{s.size === null ? 'all' : s.size}</td>
                <td>{stateText(s)}</td>
                <td>
                  {s.state === 'armed' ? (
                    <button type="button" className="ghost" onClick={() => void cancelStop(s.id)}>
                      Cancel
                    </button>
                  ) : null}
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
