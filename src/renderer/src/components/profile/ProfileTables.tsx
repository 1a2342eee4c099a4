// A trader profile's two tables: their positions (current price through the price model, PnL in dollars and
// percent) and their recent activity (trades with side, outcome, price, shares and dollars; splits, merges,
// redeems by name).
import type { TraderActivity, TraderPosition } from '@pmdesk/toolkit/model';
import { WindowedRows } from '../../live/visible-rows';
import { QuotePrice } from '../../prices/useQuote';
import { activityKind, activityTime, percentPnl, pnlText } from './profile-words';
import { formatShares, formatTickCents, formatUsd } from '../../format/numbers';

export function ProfilePositions({ positions }: { positions: readonly TraderPosition[] }) {
  return (
    <table className="dense windowed" aria-rowcount={positions.length + 1} data-testid="profile-positions">
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
      <WindowedRows
        rows={positions}
        columns={7}
        render={(p, i) => {
          const cash = typeof p.cashPnl === 'number' ? p.cashPnl : null;
          return (
            <tr
              key={`${p.tokenId ?? p.conditionId ?? i}:${p.outcome}`}
              data-position={p.tokenId ?? `${p.conditionId ?? i}:${p.outcome}`}
            >
              <td title={p.conditionId ?? undefined}>{p.title || p.marketSlug || p.conditionId || '—'}</td>
              <td>{p.outcome}</td>
              <td className="num">{formatShares(p.size)}</td>
              <td className="num">{typeof p.averagePrice === 'number' ? formatTickCents(p.averagePrice) : '—'}</td>
              <td className="num">
                <QuotePrice tokenId={p.tokenId} fallback={{ listed: p.currentPrice }} />
              </td>
              <td className="num">{formatUsd(p.currentValue)}</td>
              <td
                className={`num ${cash === null ? 'muted' : cash >= 0 ? 'bid' : 'ask'}`}
                title={cash === null ? 'This source gives no PnL for this position' : 'Value now less what it cost'}
              >
                {pnlText(cash, percentPnl(p))}
              </td>
            </tr>
          );
        }}
      />
    </table>
  );
}

export function ProfileActivity({ activity }: { activity: readonly TraderActivity[] }) {
  return (
    <table className="dense windowed" aria-rowcount={activity.length + 1} data-testid="profile-activity">
      <thead>
        <tr>
          <th>Time</th>
          <th>Market</th>
          <th>Side</th>
          <th>Outcome</th>
          <th className="num">Price</th>
          <th className="num">Size</th>
          <th className="num">Value</th>
        </tr>
      </thead>
      <WindowedRows
        rows={activity}
        columns={7}
        render={(a, i) => {
          const kind = activityKind(a);
          return (
            <tr
              key={`${a.transactionHash}:${a.tokenId}:${i}`}
              data-activity={a.type}
              data-side={a.side ?? ''}
              data-token={a.tokenId}
            >
              <td className="muted">{activityTime(a.timestamp)}</td>
              <td title={a.conditionId}>{a.title || a.slug || a.conditionId || '—'}</td>
              <td className={kind.className}>{kind.text}</td>
              <td>{a.outcome || '—'}</td>
              <td className="num">{a.price === null ? '—' : formatTickCents(a.price)}</td>
              <td className="num">{formatShares(a.size)}</td>
              <td className="num">{formatUsd(a.usdcSize)}</td>
            </tr>
          );
        }}
      />
    </table>
  );
}
