// The chart's legend: the bucket under the pointer (or the latest one) in words — its time, its price (line) or
// open/high/low/close (candles) in ¢, its volume — and the library's credit, on a row of their own above the
// plot so neither hides a candle.
import type { ChartMode } from '../../../model/chart-plan';
import { bucketTime, type Slot } from './timeline';
import { formatCents, formatShares } from '../../../format/numbers';

export function ChartLegend({
  slot,
  latest,
  mode,
  width,
  decimals,
}: {
  slot: Slot;
  latest: boolean;
  mode: ChartMode;
  width: number;
  decimals: number;
}) {
  const c = slot.candle;
  const cents = (p: number) => formatCents(p, decimals);
  const close =
    slot.price === null ? null : (
      <b data-close data-price={slot.price}>
        {cents(slot.price)}
      </b>
    );
  return (
    <span
      className="chart-legend num"
      data-testid={latest ? 'chart-last' : 'chart-hovered'}
      data-time={slot.time}
      title={`${latest ? 'The latest bucket' : 'The bucket under the pointer'}: ${mode === 'line' ? 'the last traded price in it' : 'open, high, low and close'} in cents, and the shares traded. These are trades, not the quote.`}
    >
      <span className="chart-legend-time">{bucketTime(slot.time, width)}</span>
      {c && mode === 'candles' ? (
        <>
          {' '}
          O <b>{cents(c.open)}</b> H <b>{cents(c.high)}</b> L <b>{cents(c.low)}</b> C {close}
        </>
      ) : close ? (
        // The line's point, or an empty bucket's price carried from the last trade before it.
        <> {close}</>
      ) : null}
      {c ? (
        <>
          {' '}
          · Vol <b data-volume>{formatShares(c.volume)}</b>
        </>
      ) : (
        <span className="muted" data-no-trades>
          {' '}
          · no trades
        </span>
      )}
    </span>
  );
}

/**
 * The credit lightweight-charts' licence asks for (its NOTICE and a link to TradingView), as a line of text
 * beside the legend instead of the library's logo, which sits on the plot's bottom-left over the oldest bars.
 */
export function ChartCredit() {
  return (
    <span className="chart-credit muted" data-testid="chart-credit">
      Chart:{' '}
      <a href="https://www.tradingview.com/" target="_blank" rel="noreferrer noopener">
        TradingView Lightweight Charts™
      </a>{' '}
      · Copyright (c) 2023 TradingView, Inc.
    </span>
  );
}
