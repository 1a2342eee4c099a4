// One table of positions, for the wallet's own (Positions) and any trader's (Trader lookup): market, outcome,
// size, average and current price, value and PnL, signed and coloured the same way in both.
import type { ReactNode } from 'react';
import { WindowedRows } from '../../live/visible-rows';
import { formatCents, formatShares, formatUsd } from '../ticket/order-math';

export interface PositionRow {
  key: string;
  market: string;
  /** Shown on hover over the market (its condition id). */
  marketTitle?: string;
  outcome: string;
  size: number;
  averagePrice: number | null;
  currentPrice: number;
  currentValue: number;
  /** Null when unknown (no average price). */
  pnl: number | null;
  pnlTitle?: string;
  /** The wallet's own positions: Redeem, or Split and Merge (Funds.tsx). */
  actions?: ReactNode;
}

export function PositionsTable({ rows, withActions = false }: { rows: readonly PositionRow[]; withActions?: boolean }) {
  return (
    <table className="dense windowed" aria-rowcount={rows.length + 1}>
      <thead>
        <tr>
          <th>Market</th>
          <th>Outcome</th>
          <th className="num">Size</th>
          <th className="num">Avg price</th>
          <th className="num">Current</th>
          <th className="num">Value</th>
          <th className="num">PnL</th>
          {withActions ? <th>Actions</th> : null}
        </tr>
      </thead>
      <WindowedRows
        rows={rows}
        columns={withActions ? 8 : 7}
        render={(p) => (
          <tr key={p.key} data-position={p.key}>
            <td title={p.marketTitle}>{p.market}</td>
            <td>{p.outcome}</td>
            <td className="num">{formatShares(p.size)}</td>
            <td className="num">{p.averagePrice === null ? '—' : formatCents(p.averagePrice)}</td>
            <td className="num">{formatCents(p.currentPrice)}</td>
            <td className="num">{formatUsd(p.currentValue)}</td>
            <td className={`num ${p.pnl === null ? 'muted' : p.pnl >= 0 ? 'bid' : 'ask'}`} title={p.pnlTitle}>
              {p.pnl === null ? '—' : `${p.pnl >= 0 ? '+' : '−'}${formatUsd(Math.abs(p.pnl))}`}
            </td>
            {withActions ? <td className="position-actions-cell">{p.actions}</td> : null}
          </tr>
        )}
      />
    </table>
  );
}
