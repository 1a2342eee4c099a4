// The Rewards tab: what the active wallet's resting orders earned in liquidity rewards on a day (today by
// default), per market and in total, exactly as the exchange paid it; read when opened, when the day changes and
// on Refresh (rewards are paid once a day, so nothing polls).
import { useEffect, useState } from 'react';
import type { RewardEarningsInfo } from '../../../../shared/contract';
import { ask, messageOf } from '../../bridge/terminal';
import { useSession } from '../../store/session';
import { rewardOf, useRewards } from '../../store/rewards';

const today = () => new Date().toISOString().slice(0, 10);

export function RewardsTab() {
  const wallet = useSession((s) => s.activeWallet);
  const markets = useRewards((s) => s.markets);
  const [day, setDay] = useState(today);
  const [earnings, setEarnings] = useState<RewardEarningsInfo | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [reads, setReads] = useState(0);

  useEffect(() => {
    if (!wallet || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return;
    let current = true;
    setProblem(null);
    ask('getRewardEarnings', { wallet, day }).then(
      (answer) => current && setEarnings(answer),
      (error: unknown) => {
        if (!current) return;
        setEarnings(null);
        setProblem(messageOf(error));
      },
    );
    return () => {
      current = false;
    };
  }, [wallet, day, reads]);

  return (
    <div className="account-tab" data-testid="rewards-tab">
      <div className="account-actions">
        <label>
          Day (UTC) <input type="date" data-testid="rewards-day" value={day} onChange={(e) => setDay(e.target.value)} />
        </label>
        <button type="button" data-testid="rewards-refresh" onClick={() => setReads((n) => n + 1)}>
          Refresh
        </button>
        <span className="muted">
          {Object.keys(markets).length} market{Object.keys(markets).length === 1 ? '' : 's'} pay liquidity rewards now
        </span>
      </div>
      {problem ? <div className="empty">{problem}</div> : null}
      {earnings && earnings.day === day ? (
        <>
          {earnings.markets.length === 0 ? (
            <div className="empty">No rewards earned on {day}.</div>
          ) : (
            <table className="dense">
              <thead>
                <tr>
                  <th>Market</th>
                  <th>Paid to</th>
                  <th className="num">Daily rate</th>
                  <th className="num">Earned</th>
                </tr>
              </thead>
              <tbody>
                {earnings.markets.map((m) => (
                  <tr key={`${m.conditionId}:${m.maker}`} data-testid="reward-earning">
                    <td title={m.conditionId}>{m.conditionId.slice(0, 10)}…</td>
                    <td className="muted">{m.maker}</td>
                    <td className="num">{rewardOf(markets, m.conditionId)?.dailyRate.text ?? '—'}</td>
                    <td className="num" data-testid="reward-earned" data-units={m.earnings.units}>
                      {m.earnings.text}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <div className="account-feed-line" data-testid="reward-total" data-units={earnings.total.units}>
            Total on {day}: <strong>{earnings.total.text}</strong>
          </div>
        </>
      ) : null}
    </div>
  );
}
