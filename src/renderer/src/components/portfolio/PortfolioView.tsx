// The Portfolio view, for the active wallet's trading account (the account row's Portfolio tab) or any address
// (the trader profile's Portfolio section): totals, open and closed positions, sums by market or event tag, the
// PnL chart over a day / week / month / all, where our figures and Polymarket's differ, and the activity export.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ask, listen, messageOf } from '../../bridge/terminal';
import { useAccount } from '../../store/account';
import {
  PORTFOLIO_PERIODS,
  type MoneyAmount,
  type Portfolio,
  type PortfolioGroup,
  type PortfolioPeriod,
} from '../../../../shared/contract';
import { CLOSE_WORDS, signedCents, type PortfolioOwner } from '../../model/portfolio';
import { formatTickCents } from '../../format/numbers';
import { PnlChart } from './PnlChart';
import { ExportActivityDialog } from './ExportActivityDialog';
import './portfolio.css';

type Grouping = 'market' | 'tag';
type Read = { state: 'loading' } | { state: 'done'; value: Portfolio } | { state: 'failed'; message: string };

const PERIOD_WORDS: Record<PortfolioPeriod, string> = { day: 'Day', week: 'Week', month: 'Month', all: 'All' };

function Signed({ amount, testId }: { amount: MoneyAmount; testId?: string }) {
  const units = BigInt(amount.units);
  return (
    <span className={units > 0n ? 'bid' : units < 0n ? 'ask' : ''} data-testid={testId} data-units={amount.units}>
      {signedCents(units)}
    </span>
  );
}

const ownerKey = (owner: PortfolioOwner) => ('wallet' in owner ? `wallet:${owner.wallet}` : `address:${owner.address}`);

export function PortfolioView({ owner }: { owner: PortfolioOwner }) {
  const [period, setPeriod] = useState<PortfolioPeriod>('all');
  const [grouping, setGrouping] = useState<Grouping>('market');
  const [read, setRead] = useState<Read>({ state: 'loading' });
  const [exporting, setExporting] = useState(false);
  const key = ownerKey(owner);
  const asked = useRef(0);

  const load = useCallback(
    (fresh: boolean) => {
      const ticket = ++asked.current;
      setRead((r) => (r.state === 'done' ? r : { state: 'loading' }));
      ask('getPortfolio', { ...owner, period, fresh: fresh || undefined }).then(
        (value) => ticket === asked.current && setRead({ state: 'done', value }),
        (error: unknown) => ticket === asked.current && setRead({ state: 'failed', message: messageOf(error) }),
      );
    },
    // The owner is compared by its key: a new object for the same owner is not a new read.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key, period],
  );
  // A new owner shows nothing of the last one while its portfolio is read.
  useEffect(() => setRead({ state: 'loading' }), [key]);
  useEffect(() => load(false), [load]);

  // The wallet's own fills change its book, as they match and again as they settle: it is read again, built anew.
  const fills = useAccount((s) =>
    'wallet' in owner && s.wallet === owner.wallet
      ? `${s.trades.length}:${s.trades.filter((t) => t.pending).length}`
      : null,
  );
  const seenFills = useRef(fills);
  useEffect(() => {
    if (fills === seenFills.current) return;
    seenFills.current = fills;
    if (fills !== null) load(true);
  }, [fills, load]);
  useEffect(
    () =>
      'wallet' in owner
        ? listen('notice', (n) => {
            if (n.wallet === owner.wallet && n.txHash) load(true);
          })
        : undefined,
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key, load],
  );

  const portfolio = read.state === 'done' ? read.value : null;
  return (
    <section className="account-tab portfolio" data-testid="portfolio" data-state={read.state} aria-label="Portfolio">
      <div className="account-actions portfolio-bar">
        <div role="radiogroup" aria-label="PnL period" className="portfolio-periods">
          {PORTFOLIO_PERIODS.map((p) => (
            <button
              key={p}
              type="button"
              role="radio"
              aria-checked={period === p}
              data-testid={`portfolio-period-${p}`}
              onClick={() => setPeriod(p)}
            >
              {PERIOD_WORDS[p]}
            </button>
          ))}
        </div>
        <button type="button" data-testid="portfolio-refresh" onClick={() => load(true)}>
          Refresh
        </button>
        <button type="button" data-testid="portfolio-export" onClick={() => setExporting(true)}>
          Export activity…
        </button>
        {portfolio ? (
          <span className="muted portfolio-whose" title={portfolio.address}>
            {portfolio.wallet ? `${portfolio.wallet} · ` : ''}account {portfolio.address.slice(0, 6)}…
            {portfolio.address.slice(-4)} · as of {new Date(portfolio.asOf).toLocaleTimeString()}
          </span>
        ) : null}
      </div>
      {read.state === 'loading' ? (
        <div className="empty" role="status">
          Reading the account’s activity and positions…
        </div>
      ) : null}
      {read.state === 'failed' ? (
        <div className="error-text" role="alert" data-testid="portfolio-error">
          The portfolio could not be built: {read.message}
        </div>
      ) : null}
      {portfolio ? (
        <>
          <Totals portfolio={portfolio} />
          <PnlChart series={portfolio.series} />
          <Reconciliation portfolio={portfolio} />
          {portfolio.notes.length ? (
            <ul
              className="muted portfolio-note"
              data-testid="portfolio-notes"
              aria-label="What this book could not know"
            >
              {portfolio.notes.map((note, i) => (
                <li key={i}>{note}</li>
              ))}
            </ul>
          ) : null}
          <OpenPositions portfolio={portfolio} />
          <ClosedPositions portfolio={portfolio} />
          <Groups portfolio={portfolio} grouping={grouping} onGrouping={setGrouping} />
        </>
      ) : null}
      {exporting ? <ExportActivityDialog owner={owner} onClose={() => setExporting(false)} /> : null}
    </section>
  );
}

function Totals({ portfolio }: { portfolio: Portfolio }) {
  const { totals } = portfolio;
  const items: [string, string, MoneyAmount, string][] = [
    ['realized', 'Realized PnL', totals.realized, 'What closed positions made or lost, fees not included'],
    ['unrealized', 'Unrealized PnL', totals.unrealized, 'What open positions would make at their current price'],
    ['fees', 'Fees paid', totals.feesPaid, 'Trading fees as the exchange charged them at each match'],
    ['rewards', 'Rewards earned', totals.rewardsEarned, 'Liquidity rewards and maker rebates paid to the account'],
  ];
  return (
    <dl className="portfolio-totals" data-testid="portfolio-totals">
      {items.map(([id, label, amount, title]) => (
        <div key={id} title={title}>
          <dt>{label}</dt>
          <dd>
            {id === 'fees' ? (
              <span data-testid={`portfolio-total-${id}`} data-units={amount.units}>
                {signedCents(amount.units).replace(/^[+−]/, '')}
              </span>
            ) : (
              <Signed amount={amount} testId={`portfolio-total-${id}`} />
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function Reconciliation({ portfolio }: { portfolio: Portfolio }) {
  const { reconciliation } = portfolio;
  if (!reconciliation.compared)
    return (
      <p className="muted portfolio-note" data-testid="portfolio-reconciliation">
        Polymarket states no figures of its own for this account here, so nothing was compared.
      </p>
    );
  if (reconciliation.agrees)
    return (
      <p className="muted portfolio-note" data-testid="portfolio-reconciliation">
        These figures agree with Polymarket’s own.
      </p>
    );
  return (
    <div className="portfolio-note" data-testid="portfolio-reconciliation">
      <h3>Where these figures differ from Polymarket’s</h3>
      <ul>
        {reconciliation.lines.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

function OpenPositions({ portfolio }: { portfolio: Portfolio }) {
  return (
    <div className="portfolio-section">
      <h3 id="portfolio-open-title">Open positions</h3>
      {portfolio.open.length === 0 ? (
        <div className="empty">Nothing is held now.</div>
      ) : (
        <div className="table-scroll">
          <table className="dense" aria-labelledby="portfolio-open-title" data-testid="portfolio-open">
            <thead>
              <tr>
                <th>Market</th>
                <th>Outcome</th>
                <th className="num">Shares</th>
                <th className="num">Cost</th>
                <th className="num">Price</th>
                <th className="num">Value</th>
                <th className="num">Unrealized</th>
                <th className="num">Realized</th>
                <th className="num">Fees</th>
              </tr>
            </thead>
            <tbody>
              {portfolio.open.map((p) => (
                <tr key={`${p.conditionId}:${p.tokenId ?? p.outcome}`} data-token={p.tokenId ?? undefined}>
                  <td className="position-market" title={p.question}>
                    {p.question}
                  </td>
                  <td>{p.outcome}</td>
                  <td className="num">{p.shares.text}</td>
                  <td className="num">{signedCents(p.cost.units).replace(/^[+−]/, '')}</td>
                  <td className="num">{p.price === null ? '—' : formatTickCents(p.price)}</td>
                  <td className="num">{p.value ? signedCents(p.value.units).replace(/^[+−]/, '') : '—'}</td>
                  <td className="num" title={p.unrealized ? undefined : 'No price is known for this outcome'}>
                    {p.unrealized ? <Signed amount={p.unrealized} testId="open-unrealized" /> : '—'}
                  </td>
                  <td className="num">
                    <Signed amount={p.realized} testId="open-realized" />
                  </td>
                  <td className="num" data-testid="open-fees" data-units={p.feesPaid.units}>
                    {signedCents(p.feesPaid.units).replace(/^[+−]/, '')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function ClosedPositions({ portfolio }: { portfolio: Portfolio }) {
  return (
    <div className="portfolio-section">
      <h3 id="portfolio-closed-title">Closed positions</h3>
      {portfolio.closed.length === 0 ? (
        <div className="empty">
          Nothing has closed yet: a position closes when it is sold, redeemed, merged or lost.
        </div>
      ) : (
        <div className="table-scroll">
          <table className="dense" aria-labelledby="portfolio-closed-title" data-testid="portfolio-closed">
            <thead>
              <tr>
                <th>Market</th>
                <th>Outcome</th>
                <th>How</th>
                <th>When</th>
                <th className="num">Shares</th>
                <th className="num">Realized</th>
                <th className="num">Fees</th>
              </tr>
            </thead>
            <tbody>
              {portfolio.closed.map((p, i) => (
                <tr key={`${p.conditionId}:${p.tokenId ?? p.outcome}:${i}`} data-token={p.tokenId ?? undefined}>
                  <td className="position-market" title={p.question}>
                    {p.question}
                  </td>
                  <td>{p.outcome}</td>
                  <td data-testid="closed-how">{CLOSE_WORDS[p.how]}</td>
                  <td>
                    <time dateTime={new Date(p.closedAt).toISOString()}>{new Date(p.closedAt).toLocaleString()}</time>
                  </td>
                  <td className="num">{p.shares.text}</td>
                  <td className="num">
                    <Signed amount={p.realized} testId="closed-realized" />
                  </td>
                  <td className="num" data-testid="closed-fees" data-units={p.feesPaid.units}>
                    {signedCents(p.feesPaid.units).replace(/^[+−]/, '')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function Groups({
  portfolio,
  grouping,
  onGrouping,
}: {
  portfolio: Portfolio;
  grouping: Grouping;
  onGrouping(g: Grouping): void;
}) {
  const groups: PortfolioGroup[] = grouping === 'market' ? portfolio.byMarket : portfolio.byTag;
  return (
    <div className="portfolio-section">
      <h3 id="portfolio-groups-title">
        By{' '}
        <select
          aria-label="Group by"
          data-testid="portfolio-grouping"
          value={grouping}
          onChange={(e) => onGrouping(e.target.value as Grouping)}
        >
          <option value="market">market</option>
          <option value="tag">event tag</option>
        </select>
      </h3>
      {groups.length === 0 ? (
        <div className="empty">
          {grouping === 'tag' ? 'No event tags are known for these markets.' : 'No market traded yet.'}
        </div>
      ) : (
        <div className="table-scroll">
          <table className="dense" aria-labelledby="portfolio-groups-title" data-testid="portfolio-groups">
            <thead>
              <tr>
                <th>{grouping === 'market' ? 'Market' : 'Tag'}</th>
                <th className="num">Realized</th>
                <th className="num">Unrealized</th>
                <th className="num">Fees</th>
                <th className="num">Open</th>
                <th className="num">Closed</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((g) => (
                <tr key={g.key} data-group={g.key}>
                  <td className="position-market" title={g.label}>
                    {g.label}
                  </td>
                  <td className="num">
                    <Signed amount={g.realized} />
                  </td>
                  <td className="num">
                    <Signed amount={g.unrealized} />
                  </td>
                  <td className="num">{signedCents(g.feesPaid.units).replace(/^[+−]/, '')}</td>
                  <td className="num">{g.openCount}</td>
                  <td className="num">{g.closedCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
