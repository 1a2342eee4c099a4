// The trade tape of the chosen outcome: the market's fills, newest first, with a row wherever the fill feed
// was down (fills of that time may be missing).
import { useMemo } from 'react';
import { useMarket } from '../../store/market';
import { useSelection } from '../../store/selection';
import { feedKey, useSession } from '../../store/session';
import { clockTime, formatCents, formatShares, tapeRows } from './model';

export function TradeTape() {
  const tape = useMarket((s) => s.tape);
  const error = useMarket((s) => s.tapeError);
  const tokenId = useSelection((s) => s.tokenId);
  const outcomeIndex = useMarket((s) => Math.max(0, s.market?.position_tokens.findIndex((t) => t.token_id === tokenId) ?? 0));
  const rows = useMemo(() => tapeRows(tape, outcomeIndex), [tape, outcomeIndex]);
  const marketId = useSelection((s) => s.market?.marketId);
  const feed = useSession((s) => (marketId ? s.feeds[feedKey('fills', marketId)]?.state : undefined));
  return (
    <div className={`tape-panel${feed === 'closed' ? ' stale' : ''}`} data-testid="trade-tape" data-feed={feed ?? 'none'}>
      <div className="panel-header">Trades</div>
      {feed === 'closed' && <div className="stale-banner" role="status">The trade feed is down: trades of this time may be missing.</div>}
      {error && <div className="stale-banner" role="alert">{error}</div>}
      <div className="panel-body">
        {rows.length === 0 ? (
          <div className="empty">No trades yet.</div>
        ) : (
          <table className="dense tape">
            <thead>
              <tr>
                <th>Time</th>
                <th>Side</th>
                <th className="num">Price</th>
                <th className="num">Size</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) =>
                row.kind === 'gap' ? (
                  <tr key={row.key} className="tape-gap" data-kind="gap">
                    <td colSpan={4}>{row.text}</td>
                  </tr>
                ) : (
                  <tr key={row.key} className="tape-fill" data-kind="fill" data-price={String(row.price)} data-size={String(row.size)}>
                    <td className="muted">{clockTime(row.time)}</td>
                    <td className={row.side === 'BUY' ? 'bid' : row.side === 'SELL' ? 'ask' : 'muted'} title={row.inferred ? 'Guessed from the price move' : undefined}>
                      {row.side ? `${row.side === 'BUY' ? 'Buy' : 'Sell'}${row.inferred ? '*' : ''}` : '—'}
                    </td>
                    <td className="num">{formatCents(row.price!, 1)}</td>
                    <td className="num">{formatShares(row.size!)}</td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
