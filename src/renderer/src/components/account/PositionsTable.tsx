// One table of positions, for the wallet's own (Positions) and any trader's (Trader lookup): market (the
// question), outcome, size, average and current price, value and PnL in dollars and percent, signed and
// coloured the same way in both, with a totals row when the caller gives one.
import type { ReactNode } from 'react';
import { WindowedRows } from '../../live/visible-rows';
import { QuoteText } from '../../prices/useQuote';
import type { Quote } from '../../model/quote';
import type { PositionTotals } from '../../model/account-math';
import { formatShares, formatTickCents, formatUsd, signedPercent, signedUsd } from '../../format/numbers';

export interface PositionRow {
  key: string;
  /** The market's question (or its slug or id when the source gives none). */
  market: string;
  /** Shown on hover over the market (the whole question, its condition id). */
  marketTitle?: string;
  outcome: string;
  size: number;
  averagePrice: number | null;
  /** The source's price: shown when no `quote` is given. */
  currentPrice: number;
  currentValue: number;
  /** Null when unknown (no average price). */
  pnl: number | null;
  pnlTitle?: string;
  /** PnL over cost in percent; absent or null: "—". */
  pnlPercent?: number | null;
  /** The outcome's current price through the price model (mid / last / listed, with its reason on hover). */
  quote?: Quote;
  tokenId?: string | null;
  /** Opens the position's market (the market cell becomes a link). */
  onOpenMarket?: () => void;
  /** The wallet's own positions: Close and Limit sell, Redeem, Split and Merge. */
  actions?: ReactNode;
}

const CURRENT_TITLE =
  "The outcome's price as Polymarket shows it: the midpoint of the book, or the last trade when the spread is wider than 10¢ (tag on each price; listed when there is no book).";

function Signed({ value, percent = false }: { value: number | null | undefined; percent?: boolean }) {
  if (value === null || value === undefined) return <span className="muted">—</span>;
  return (
    <span className={value > 0 ? 'bid' : value < 0 ? 'ask' : ''}>
      {percent ? signedPercent(value) : signedUsd(value)}
    </span>
  );
}

export function PositionsTable({
  rows,
  withActions = false,
  totals,
}: {
  rows: readonly PositionRow[];
  withActions?: boolean;
  totals?: PositionTotals;
}) {
  const columns = withActions ? 9 : 8;
  return (
    <table className="dense windowed positions-table" aria-rowcount={rows.length + 1}>
      <thead>
        <tr>
          <th>Market</th>
          <th>Outcome</th>
          <th className="num">Size</th>
          <th className="num" title="What each share cost on average">
            Avg price
          </th>
          <th className="num" title={CURRENT_TITLE} data-testid="positions-current-header">
            Current (mid/last)
          </th>
          <th className="num" title="Size × current price">
            Value
          </th>
          <th className="num" title="Value − size × average price">
            PnL
          </th>
          <th className="num" title="PnL over what the shares cost">
            PnL %
          </th>
          {withActions ? <th>Actions</th> : null}
        </tr>
      </thead>
      <WindowedRows
        rows={rows}
        columns={columns}
        render={(p) => (
          <tr key={p.key} data-position={p.key} data-token={p.tokenId ?? undefined}>
            <td className="position-market" title={p.marketTitle ?? p.market}>
              {p.onOpenMarket ? (
                <button type="button" className="link" data-testid="position-open-market" onClick={p.onOpenMarket}>
                  {p.market}
                </button>
              ) : (
                p.market
              )}
            </td>
            <td data-testid="position-outcome">{p.outcome}</td>
            <td className="num" data-testid="position-size">
              {formatShares(p.size)}
            </td>
            <td className="num" data-testid="position-avg">
              {p.averagePrice === null ? '—' : formatTickCents(p.averagePrice)}
            </td>
            <td className="num" data-testid="position-current">
              {p.quote ? <QuoteText quote={p.quote} tokenId={p.tokenId} /> : formatTickCents(p.currentPrice)}
            </td>
            <td className="num" data-testid="position-value">
              {formatUsd(p.currentValue)}
            </td>
            <td className="num" title={p.pnlTitle} data-testid="position-pnl">
              <Signed value={p.pnl} />
            </td>
            <td className="num" data-testid="position-pnl-percent">
              <Signed value={p.pnlPercent} percent />
            </td>
            {withActions ? <td className="position-actions-cell">{p.actions}</td> : null}
          </tr>
        )}
      />
      {totals ? (
        <tfoot>
          <tr className="positions-totals" data-testid="positions-totals">
            <th
              colSpan={5}
              title={
                totals.unknownCost
                  ? `${totals.unknownCost} position(s) without an average price are left out of cost and PnL`
                  : undefined
              }
            >
              Total
              {totals.cost !== null ? (
                <span className="muted" data-testid="positions-total-cost">
                  {' '}
                  · cost {formatUsd(totals.cost)}
                </span>
              ) : null}
              {totals.unknownCost ? <span className="muted"> ({totals.unknownCost} without cost)</span> : null}
            </th>
            <td className="num" data-testid="positions-total-value">
              {formatUsd(totals.value)}
            </td>
            <td className="num" data-testid="positions-total-pnl">
              <Signed value={totals.pnl} />
            </td>
            <td className="num" data-testid="positions-total-pnl-percent">
              <Signed value={totals.pnlPercent} percent />
            </td>
            {withActions ? <td /> : null}
          </tr>
        </tfoot>
      ) : null}
    </table>
  );
}
