// A market's largest holders of each outcome (Polymarket's Data API), read when the section opens and again on
// asking: amount in shares, the holder's name opening their profile.
import { useCallback, useEffect, useState } from 'react';
import type { OutcomeHolderList } from '../../../../shared/contract';
import { ask, messageOf } from '../../bridge/terminal';
import { unitsShares } from '../../store/traders';
import { TraderLink } from '../profile/TraderLink';
import './traders.css';

type Read =
  { state: 'loading' } | { state: 'done'; outcomes: OutcomeHolderList[] } | { state: 'failed'; message: string };

export function HoldersSection({
  protocol,
  marketId,
}: {
  protocol: 'polymarket' | 'limitless' | 'truemarket';
  marketId: string;
}) {
  const [read, setRead] = useState<Read>({ state: 'loading' });
  const load = useCallback(() => {
    let current = true;
    setRead({ state: 'loading' });
    ask('getMarketHolders', { protocol, marketId }).then(
      (outcomes) => current && setRead({ state: 'done', outcomes }),
      (error: unknown) => current && setRead({ state: 'failed', message: messageOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [protocol, marketId]);
  useEffect(load, [load]);
  return (
    <div className="holders-section" data-testid="holders" data-state={read.state}>
      <div className="account-actions">
        <strong>Top holders</strong>
        <button type="button" data-testid="holders-refresh" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      {read.state === 'failed' ? (
        <div className="error-text">The holders could not be read: {read.message}</div>
      ) : read.state === 'loading' ? (
        <div className="empty">Reading the holders…</div>
      ) : (
        <table className="dense" data-testid="holders-table">
          <thead>
            <tr>
              <th>Outcome</th>
              <th>Holder</th>
              <th className="num">Shares</th>
            </tr>
          </thead>
          <tbody>
            {read.outcomes.flatMap((o) =>
              o.holders.map((h) => (
                <tr
                  key={`${o.tokenId}:${h.wallet}`}
                  data-testid="holder-row"
                  data-wallet={h.wallet}
                  data-outcome={o.outcome}
                >
                  <td>{o.outcome}</td>
                  <td>
                    <TraderLink address={h.wallet} name={h.name || null} />
                  </td>
                  <td className="num" data-testid="holder-amount">
                    {unitsShares(h.amount)}
                  </td>
                </tr>
              )),
            )}
            {read.outcomes.every((o) => o.holders.length === 0) ? (
              <tr>
                <td colSpan={3} className="empty">
                  Nobody holds this market’s shares.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      )}
    </div>
  );
}
