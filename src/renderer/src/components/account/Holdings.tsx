// Positions (with PnL), trades (pending until the exchange says CONFIRMED) and balances of the active
// wallet, with CSV exports of positions and trades.
import { useEffect } from 'react';
import { refreshHoldings, useAccount } from '../../store/account';
import { WindowedRows } from '../../live/visible-rows';
import { formatCents, formatShares, formatUsd } from '../ticket/order-math';
import { positionPnl, positionsCsv, tradeTime, tradesCsv } from './account-math';
import { downloadText, exportFileName } from './download';
import { OutcomeLabel } from './OutcomeLabel';
import { PositionsTable } from './PositionsTable';
import { FundsView, PositionActions, useAccountFunds, useMoneyDialog } from './Funds';

function ExportButton({ what, count, make, testId }: { what: string; count: number; make(): string; testId: string }) {
  return (
    <button
      type="button"
      data-testid={testId}
      disabled={count === 0}
      title={count === 0 ? `No ${what} to export.` : `Save the ${what} as a CSV file`}
      onClick={() => downloadText(exportFileName(what), make())}
    >
      Export CSV
    </button>
  );
}

export function Positions() {
  const positions = useAccount((s) => s.positions);
  const error = useAccount((s) => s.holdingsError);
  const wallet = useAccount((s) => s.wallet);
  const { funds } = useAccountFunds(wallet);
  const money = useMoneyDialog(wallet);
  const unavailable = funds?.actionsUnavailable ?? null;
  // Opening the tab reads the positions again: a market that resolved since changes no trade, so nothing else would.
  useEffect(() => {
    if (wallet) void refreshHoldings(wallet);
  }, [wallet]);
  return (
    <div className="account-tab" data-testid="positions">
      <div className="account-actions">
        {error ? <span className="error-text">{error}</span> : null}
        <ExportButton what="positions" count={positions.length} make={() => positionsCsv(positions)} testId="export-positions" />
      </div>
      {positions.length === 0 ? (
        <div className="empty">No positions.</div>
      ) : (
        <PositionsTable
          withActions
          rows={positions.map((p) => ({
            key: `${p.conditionId}:${p.outcome}`,
            market: p.marketSlug ?? p.conditionId ?? '—',
            marketTitle: p.conditionId ?? '',
            outcome: p.outcome,
            size: p.size,
            averagePrice: p.averagePrice,
            currentPrice: p.currentPrice,
            currentValue: p.currentValue,
            pnl: positionPnl(p),
            pnlTitle: positionPnl(p) === null ? 'No average price: PnL unknown' : 'Value − size × average price',
            actions: <PositionActions position={p} unavailable={unavailable} open={money.open} />,
          }))}
        />
      )}
      {money.dialog}
    </div>
  );
}

function TradeStatus({ status, pending }: { status: string; pending: boolean }) {
  const failed = status.toUpperCase() === 'FAILED';
  const label = failed ? 'failed' : pending ? 'pending' : 'confirmed';
  return (
    <span className={`badge ${label}`} title={`The exchange says ${status || 'nothing yet'}`} data-status={label}>
      {label}
      {pending && status ? <span className="muted"> · {status.toLowerCase()}</span> : null}
    </span>
  );
}

export function Trades() {
  const trades = useAccount((s) => s.trades);
  return (
    <div className="account-tab" data-testid="trades">
      <div className="account-actions">
        <ExportButton what="trades" count={trades.length} make={() => tradesCsv(trades)} testId="export-trades" />
      </div>
      {trades.length === 0 ? (
        <div className="empty">No trades.</div>
      ) : (
        <table className="dense windowed" aria-rowcount={trades.length + 1}>
          <thead>
            <tr>
              <th>Time</th>
              <th>Outcome</th>
              <th>Side</th>
              <th className="num">Price</th>
              <th className="num">Size</th>
              <th>Status</th>
            </tr>
          </thead>
          <WindowedRows
            rows={trades}
            columns={6}
                render={(t) => (
              <tr key={t.tradeId} data-trade-id={t.tradeId}>
                <td className="muted">{t.matchedAt ? tradeTime(t.matchedAt).toLocaleString() : '—'}</td>
                <td>
                  <OutcomeLabel tokenId={t.tokenId} conditionId={t.conditionId} />
                </td>
                <td className={t.side === 'BUY' ? 'bid' : 'ask'}>{t.side}</td>
                <td className="num">{formatCents(t.price)}</td>
                <td className="num">{formatShares(t.size)}</td>
                <td>
                  <TradeStatus status={t.status} pending={t.pending} />
                </td>
              </tr>
            )}
          />
        </table>
      )}
    </div>
  );
}

export function BalancesView() {
  const balances = useAccount((s) => s.balances);
  const error = useAccount((s) => s.holdingsError);
  const wallet = useAccount((s) => s.wallet);
  return (
    <div className="account-tab" data-testid="balances">
      {wallet ? <FundsView wallet={wallet} /> : null}
      {error ? <div className="error-text">{error}</div> : null}
      {balances ? (
        <dl className="balances">
          <dt>Collateral (USDC)</dt>
          <dd className="num" data-testid="collateral">
            {formatUsd(balances.collateral)}
          </dd>
          {Object.entries(balances.outcomes).map(([tokenId, shares]) => (
            <div key={tokenId} className="contents">
              <dt>
                <OutcomeLabel tokenId={tokenId} />
              </dt>
              <dd className="num">{formatShares(shares)} shares</dd>
            </div>
          ))}
        </dl>
      ) : (
        <div className="empty">{error ? '' : 'Reading balances…'}</div>
      )}
    </div>
  );
}
