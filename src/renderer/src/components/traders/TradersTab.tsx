// The Traders tab: Polymarket's leaderboard (by profit or volume, over a day, week, month or all time; a row
// opens the trader's profile, a button follows them), the traders followed on this network (an alert switch
// each, unfollow), and the tape of their trades as they happen, newest first.
import { useEffect } from 'react';
import type { FollowedFeedMode } from '../../../../shared/contract';
import { useSession } from '../../store/session';
import { openTraderProfile } from '../../store/profile';
import {
  loadLeaderboard,
  setFollowedAlert,
  unfollowTrader,
  unitsShares,
  unitsUsd,
  useTraders,
  type LeaderboardBy,
  type LeaderboardPeriod,
} from '../../store/traders';
import { formatCents } from '../../format/numbers';
import { FollowButton, useFollowedTraders } from '../profile/FollowButton';
import { TraderLink } from '../profile/TraderLink';
import './traders.css';

const BY: [LeaderboardBy, string][] = [
  ['pnl', 'Profit'],
  ['volume', 'Volume'],
];
const PERIODS: [LeaderboardPeriod, string][] = [
  ['day', 'Day'],
  ['week', 'Week'],
  ['month', 'Month'],
  ['all', 'All time'],
];
const MODE_WORDS: Record<FollowedFeedMode, string> = {
  live: 'live',
  polling: 'the live feed is away: read every few seconds',
  connecting: 'connecting…',
  idle: 'nobody followed',
};

export function TradersTab() {
  const network = useSession((s) => s.network?.name ?? null);
  useFollowedTraders();
  // Read again on another network: its Data API ranks its own traders.
  useEffect(() => {
    if (network !== null) loadLeaderboard();
  }, [network]);
  return (
    <div className="account-tab traders-tab" data-testid="traders-tab">
      <Leaderboard />
      <div className="traders-followed">
        <Followed />
        <FollowedTape />
      </div>
    </div>
  );
}

function Switch<T extends string>({
  name,
  options,
  value,
  onPick,
}: {
  name: string;
  options: [T, string][];
  value: T;
  onPick(value: T): void;
}) {
  return (
    <div className="traders-switch" role="radiogroup" aria-label={name}>
      {options.map(([id, label]) => (
        <button
          key={id}
          type="button"
          role="radio"
          aria-checked={value === id}
          data-testid={`leaderboard-${name.toLowerCase()}-${id}`}
          onClick={() => value !== id && onPick(id)}
        >
          {label}
        </button>
      ))}
    </div>
  );
}

function Leaderboard() {
  const by = useTraders((s) => s.by);
  const period = useTraders((s) => s.period);
  const board = useTraders((s) => s.board);
  return (
    <section className="traders-board" data-testid="leaderboard" data-by={by} data-period={period}>
      <div className="account-actions">
        <strong>Leaderboard</strong>
        <Switch name="By" options={BY} value={by} onPick={(next) => loadLeaderboard(next, period)} />
        <Switch name="Period" options={PERIODS} value={period} onPick={(next) => loadLeaderboard(by, next)} />
      </div>
      {board?.state === 'failed' ? (
        <div className="error-text" data-testid="leaderboard-error">
          The leaderboard could not be read: {board.message}
        </div>
      ) : board?.state === 'done' ? (
        <table className="dense" data-testid="leaderboard-table" data-state="done">
          <thead>
            <tr>
              <th className="num">#</th>
              <th>Trader</th>
              <th>Address</th>
              <th className="num">PnL</th>
              <th className="num">Volume</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {board.rows.map((r) => (
              <tr key={r.wallet} data-testid="leaderboard-row" data-wallet={r.wallet}>
                <td className="num">{r.rank}</td>
                <td>
                  <button
                    type="button"
                    className="link"
                    title="Open this trader's profile"
                    onClick={() => openTraderProfile(r.wallet, r.name)}
                  >
                    {r.name || '—'}
                  </button>
                </td>
                <td className="muted mono">{r.wallet}</td>
                <td className={`num ${r.pnl.startsWith('-') ? 'ask' : 'bid'}`} data-testid="leaderboard-pnl">
                  {unitsUsd(r.pnl)}
                </td>
                <td className="num" data-testid="leaderboard-volume">
                  {unitsUsd(r.volume)}
                </td>
                <td>
                  <FollowButton address={r.wallet} name={r.name} />
                </td>
              </tr>
            ))}
            {board.rows.length === 0 ? (
              <tr>
                <td colSpan={6} className="empty">
                  Nobody traded in this period.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      ) : (
        <div className="empty">Reading the leaderboard…</div>
      )}
    </section>
  );
}

function Followed() {
  const followed = useTraders((s) => s.followed);
  const error = useTraders((s) => s.error);
  const mode = useTraders((s) => s.mode);
  return (
    <section data-testid="followed-traders" data-mode={mode}>
      <div className="account-actions">
        <strong>Following</strong>
        <span className="muted" data-testid="followed-mode">
          {MODE_WORDS[mode]}
        </span>
      </div>
      {error ? <div className="error-text">{error}</div> : null}
      {followed.length === 0 ? (
        <div className="empty">Follow a trader from the leaderboard or their profile to see their trades here.</div>
      ) : (
        <ul className="followed-list">
          {followed.map((t) => (
            <li key={t.address} data-testid="followed-trader" data-wallet={t.address}>
              <TraderLink address={t.address} name={t.name || null} />
              <label title="A notification on each of their trades">
                <input
                  type="checkbox"
                  checked={t.alert}
                  data-testid="followed-alert"
                  onChange={(e) => void setFollowedAlert(t.address, e.target.checked)}
                />
                alert
              </label>
              <button type="button" data-testid="unfollow" onClick={() => void unfollowTrader(t.address)}>
                Unfollow
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function FollowedTape() {
  const tape = useTraders((s) => s.tape);
  return (
    <section className="followed-tape">
      <strong>Their trades</strong>
      <table className="dense" data-testid="followed-tape">
        <thead>
          <tr>
            <th>Time</th>
            <th>Trader</th>
            <th>Side</th>
            <th>Outcome</th>
            <th>Market</th>
            <th className="num">Price</th>
            <th className="num">Shares</th>
          </tr>
        </thead>
        <tbody>
          {tape.map((t) => (
            <tr key={t.key} data-testid="followed-trade" data-wallet={t.wallet} data-tx={t.transactionHash}>
              <td className="muted">{new Date(t.timestamp * 1000).toLocaleTimeString()}</td>
              <td>
                <TraderLink address={t.wallet} name={t.name || null} />
              </td>
              <td className={t.side === 'BUY' ? 'bid' : 'ask'}>{t.side === 'BUY' ? 'Buy' : 'Sell'}</td>
              <td>{t.outcome}</td>
              <td className="followed-market" title={t.market}>
                {t.market}
              </td>
              <td className="num">{formatCents(t.price)}</td>
              <td className="num" data-testid="followed-trade-size">
                {unitsShares(t.size)}
              </td>
            </tr>
          ))}
          {tape.length === 0 ? (
            <tr>
              <td colSpan={7} className="empty">
                No trades of the traders you follow since PM Desk started.
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </section>
  );
}
