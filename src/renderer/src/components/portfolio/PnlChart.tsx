// The PnL chart of the Portfolio view: cumulative PnL over the period, measured stretches solid and estimated ones
// dashed, $0 marked, with the note saying what was estimated; the figures are also listed for screen readers.
import type { PnlSeries } from '../../../../shared/contract';
import { planPnlChart, signedCents } from '../../model/portfolio';

const WIDTH = 600;
const HEIGHT = 140;

export function PnlChart({ series }: { series: PnlSeries }) {
  const plan = planPnlChart(series.points, WIDTH, HEIGHT);
  const lastPoint = series.points[series.points.length - 1];
  if (series.points.length === 0)
    return (
      <div className="empty portfolio-chart" data-testid="pnl-chart" data-period={series.period} data-points="0">
        No activity in this period to chart.
      </div>
    );
  const when = (at: number) => new Date(at).toLocaleString();
  return (
    <figure
      className="portfolio-chart"
      data-testid="pnl-chart"
      data-period={series.period}
      data-points={series.points.length}
      data-first={plan.first ?? ''}
    >
      <svg
        viewBox={`-4 -4 ${WIDTH + 8} ${HEIGHT + 8}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`PnL from ${when(plan.first!)} to ${when(plan.last!)}: ${lastPoint ? signedCents(lastPoint.pnl.units) : ''} at the end, between ${signedCents(plan.low)} and ${signedCents(plan.high)}.`}
      >
        {plan.zeroY !== null ? <line className="pnl-zero" x1={0} x2={WIDTH} y1={plan.zeroY} y2={plan.zeroY} /> : null}
        {plan.lines.map((line, i) => (
          <path
            key={i}
            d={line.d}
            className={line.estimated ? 'pnl-line estimated' : 'pnl-line'}
            data-estimated={line.estimated ? 'true' : 'false'}
            vectorEffect="non-scaling-stroke"
          />
        ))}
      </svg>
      <figcaption className="muted">
        <span>
          {when(plan.first!)} → {when(plan.last!)}
        </span>{' '}
        <span>
          high {signedCents(plan.high)} · low {signedCents(plan.low)}
        </span>
        {series.estimatedNote ? (
          <span className="pnl-estimated-note" data-testid="pnl-estimated-note">
            {' '}
            Dashed: estimated. {series.estimatedNote}
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}
