// The trade tape of the chosen outcome: the market's fills, newest first (time, the aggressor's side as the
// exchange recorded it, price at the ladder's precision, shares, dollars, and who took it, a click away from
// their profile), with a row wherever the fill feed was down (fills of that time may be missing).
import { useMemo, useRef } from 'react';
import { useMarket, useShownMarket } from '../../store/market';
import { feedKey, useSession } from '../../store/session';
import { useVisibleRows } from '../../live/visible-rows';
import { TraderLink } from '../profile/TraderLink';
import { tapeCells, tapeRows, type TapeRow } from '../../model/market';
import { centDecimals } from '../../format/numbers';

/** A tape row's height in px, as market.css sets it. */
const ROW_HEIGHT = 22;

export function TradeTape() {
  const tape = useMarket((s) => s.tape);
  const error = useMarket((s) => s.tapeError);
  const shown = useShownMarket();
  const tokenId = shown.tokenId;
  const outcomeIndex = useMarket((s) =>
    Math.max(0, s.market?.position_tokens.findIndex((t) => t.token_id === tokenId) ?? 0),
  );
  const rows = useMemo(() => tapeRows(tape, outcomeIndex), [tape, outcomeIndex]);
  // The ladder's precision: the market's tick, else the live book's.
  const tick = useMarket((s) => s.market?.minimum_tick_size ?? (tokenId ? s.books[tokenId]?.tickSize : undefined));
  const decimals = centDecimals(tick);
  const marketId = shown.market?.marketId;
  const feed = useSession((s) => (marketId ? s.feeds[feedKey('fills', marketId)]?.state : undefined));
  const start = useRef<HTMLDivElement>(null);
  // Only the rows in view are in the page (see live/visible-rows.tsx); spacers stand for the others.
  const { first, end, rowHeight } = useVisibleRows(start, rows.length, ROW_HEIGHT);
  const fills = useMemo(() => rows.reduce((n, row) => n + (row.kind === 'fill' ? 1 : 0), 0), [rows]);
  return (
    <div
      className={`tape-panel${feed === 'closed' ? ' stale' : ''}`}
      data-testid="trade-tape"
      data-feed={feed ?? 'none'}
    >
      <div className="panel-header">Trades</div>
      {feed === 'closed' && (
        <div className="stale-banner" role="status">
          The trade feed is down: trades of this time may be missing.
        </div>
      )}
      {error && (
        <div className="stale-banner" role="alert">
          {error}
        </div>
      )}
      {/* Like the ladder's: a scroller sized by its panel, so a new fill lays out the tape and not the page. */}
      <div className="panel-body list-body">
        <div className="list-scroll">
          {rows.length === 0 ? (
            <div className="empty">No trades yet.</div>
          ) : (
            <div className="tape" role="table" aria-label="Trades" aria-rowcount={rows.length + 1} data-fills={fills}>
              <div className="tape-head" role="row">
                <span role="columnheader">Time</span>
                <span role="columnheader">Side</span>
                <span role="columnheader" className="num">
                  Price
                </span>
                <span role="columnheader" className="num">
                  Size
                </span>
                <span role="columnheader" className="num" title="Dollars that changed hands: price × shares">
                  Value
                </span>
                <span role="columnheader" className="tape-trader">
                  Trader
                </span>
              </div>
              <div ref={start} aria-hidden="true" style={{ height: first * rowHeight }} />
              {rows.slice(first, end).map((row, i) =>
                row.kind === 'gap' ? (
                  <div
                    key={row.key}
                    className="tape-row tape-gap"
                    role="row"
                    aria-rowindex={first + i + 2}
                    data-kind="gap"
                  >
                    <span role="cell">{row.text}</span>
                  </div>
                ) : (
                  <FillRow key={row.key} row={row} index={first + i + 2} decimals={decimals} />
                ),
              )}
              <div aria-hidden="true" style={{ height: (rows.length - end) * rowHeight }} />
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

/** One fill: its cells' text is made here, for the rows in view only. */
function FillRow({ row, index, decimals }: { row: TapeRow; index: number; decimals: number }) {
  const cells = tapeCells(row, decimals);
  return (
    <div
      className="tape-row tape-fill"
      role="row"
      aria-rowindex={index}
      data-kind="fill"
      data-price={String(row.price)}
      data-size={String(row.size)}
      data-side={row.side ?? 'unknown'}
      data-trader={row.trader ?? ''}
    >
      <span role="cell" className="muted">
        {cells.time}
      </span>
      <span role="cell" className={cells.sideClass} title={cells.sideTitle}>
        {cells.side}
      </span>
      <span role="cell" className="num">
        {cells.price}
      </span>
      <span role="cell" className="num">
        {cells.size}
      </span>
      <span role="cell" className="num">
        {cells.notional}
      </span>
      <span role="cell" className="tape-trader">
        <TraderLink address={row.trader} name={row.traderName} />
      </span>
    </div>
  );
}
