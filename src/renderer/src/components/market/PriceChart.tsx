// The price chart of the chosen outcome: candles and volume (lightweight-charts), a range picker that asks
// main for candles of a width the contract offers, live fills growing the last candle, the theme's colours,
// and the size of its container.
import { useEffect, useRef, useState } from 'react';
import {
  CandlestickSeries,
  ColorType,
  HistogramSeries,
  createChart,
  type CandlestickData,
  type HistogramData,
  type IChartApi,
  type AutoscaleInfo,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { Candle } from '@pmdesk/toolkit/model';
import { useMarket } from '../../store/market';
import { useSelection } from '../../store/selection';
import { ask, messageOf } from '../../terminal';
import { CHART_RANGES, applyFillToCandles, chartPriceRange, formatShares, rangePlan, type CandleInterval, type ChartRange } from './model';

interface Palette {
  background: string;
  text: string;
  line: string;
  up: string;
  down: string;
  upFaint: string;
  downFaint: string;
}

/** The chart's colours from the page's CSS variables, so it follows the dark and light themes. */
function palette(): Palette {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    background: v('--panel', '#151a21'),
    text: v('--muted', '#8593a3'),
    line: v('--line', '#262f3b'),
    up: v('--bid', '#2fbf71'),
    down: v('--ask', '#ef5350'),
    upFaint: v('--bid-bg', 'rgba(47, 191, 113, 0.4)'),
    downFaint: v('--ask-bg', 'rgba(239, 83, 80, 0.4)'),
  };
}

function applyTheme(chart: IChartApi, candles: ISeriesApi<'Candlestick'>, colours: Palette): void {
  chart.applyOptions({
    layout: { background: { type: ColorType.Solid, color: colours.background }, textColor: colours.text },
    grid: { vertLines: { color: colours.line }, horzLines: { color: colours.line } },
    rightPriceScale: { borderColor: colours.line },
    timeScale: { borderColor: colours.line },
  });
  candles.applyOptions({ upColor: colours.up, downColor: colours.down, wickUpColor: colours.up, wickDownColor: colours.down, borderVisible: false });
}

/** Prices are drawn in cents, as everywhere else in the terminal. */
const candleBar = (c: Candle): CandlestickData => ({ time: c.time as UTCTimestamp, open: c.open * 100, high: c.high * 100, low: c.low * 100, close: c.close * 100 });
const volumeBar = (c: Candle, colours: Palette): HistogramData => ({ time: c.time as UTCTimestamp, value: c.volume, color: c.close >= c.open ? colours.upFaint : colours.downFaint });

type LoadState = { state: 'loading' } | { state: 'ready'; interval: CandleInterval; count: number } | { state: 'error'; message: string };

function Legend({ candle, latest }: { candle: Candle; latest: boolean }) {
  const cents = (p: number) => (p * 100).toFixed(1);
  return (
    <span
      className="chart-legend num"
      data-testid={latest ? 'chart-last' : 'chart-hovered'}
      title={`${latest ? 'The latest candle' : 'The candle under the pointer'}: open, high, low, close (cents) and volume (shares)`}
    >
      O <b>{cents(candle.open)}</b> H <b>{cents(candle.high)}</b> L <b>{cents(candle.low)}</b> C <b data-close>{cents(candle.close)}</b> · Vol{' '}
      <b data-volume>{formatShares(candle.volume)}</b>
    </span>
  );
}

export function PriceChart() {
  const market = useSelection((s) => s.market);
  const tokenId = useSelection((s) => s.tokenId);
  const outcomeIndex = useMarket((s) => s.market?.position_tokens.findIndex((t) => t.token_id === tokenId) ?? -1);
  const [range, setRange] = useState<ChartRange>('max');
  const [load, setLoad] = useState<LoadState>({ state: 'loading' });
  /** Bumped by a gap in the tape: the candles are refilled from history. */
  const [refills, setRefills] = useState(0);
  /** The latest candle, as the legend shows it (a copy: the drawn one is changed in place). */
  const [last, setLast] = useState<Candle | null>(null);
  /** The candle under the pointer, shown in the legend instead of the latest while hovering. */
  const [hovered, setHovered] = useState<Candle | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const chartRef = useRef<{ chart: IChartApi; candles: ISeriesApi<'Candlestick'>; volume: ISeriesApi<'Histogram'> } | null>(null);
  /** The candles drawn now (the theme watcher recolours their volume bars). */
  const barsRef = useRef<Candle[]>([]);

  // The chart itself: made once, themed now and whenever the theme changes, sized by its container.
  useEffect(() => {
    if (!box.current) return;
    const chart = createChart(box.current, {
      autoSize: true,
      timeScale: { timeVisible: true, secondsVisible: false },
      // No margins of the scale's own: chartPriceRange puts them inside 0–100¢ (the scale's would run past them).
      rightPriceScale: { scaleMargins: { top: 0, bottom: 0 } },
      crosshair: { mode: 0 },
    });
    const candles = chart.addSeries(CandlestickSeries, {
      priceFormat: { type: 'price', precision: 1, minMove: 0.1 },
      autoscaleInfoProvider: (original: () => AutoscaleInfo | null) => {
        const info = original();
        return info?.priceRange ? { ...info, priceRange: chartPriceRange(info.priceRange.minValue, info.priceRange.maxValue) } : info;
      },
    });
    const volume = chart.addSeries(HistogramSeries, { priceScaleId: 'volume', priceFormat: { type: 'volume' }, lastValueVisible: false, priceLineVisible: false });
    chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    applyTheme(chart, candles, palette());
    chartRef.current = { chart, candles, volume };
    chart.subscribeCrosshairMove((param) => {
      const time = param.time as number | undefined;
      setHovered(time === undefined ? null : (barsRef.current.find((c) => c.time === time) ?? null));
    });
    const themeWatch = new MutationObserver(() => {
      const colours = palette();
      applyTheme(chart, candles, colours);
      volume.setData(barsRef.current.map((c) => volumeBar(c, colours)));
    });
    themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      themeWatch.disconnect();
      chartRef.current = null;
      chart.remove();
    };
  }, []);

  // Candles for the market, outcome and range; live fills then grow the last one.
  useEffect(() => {
    const parts = chartRef.current;
    if (!market || outcomeIndex < 0 || !parts) return;
    let live = true;
    const plan = rangePlan(range, Math.floor(Date.now() / 1000));
    const bars: Candle[] = [];
    barsRef.current = bars;
    /** The newest tape entry already in the candles; null until the candles are in. */
    let seenSeq: number | null = null;
    setLoad({ state: 'loading' });
    setLast(null);
    const flip = outcomeIndex === 1;
    const unsubscribe = useMarket.subscribe((state, previous) => {
      if (seenSeq === null || state.tape === previous.tape) return;
      let newest = seenSeq;
      let gap = false;
      // The tape is ordered by time, not arrival: look at every entry newer than the last seen, oldest first.
      for (const entry of [...state.tape].reverse()) {
        if (entry.seq <= seenSeq) continue;
        newest = Math.max(newest, entry.seq);
        if (entry.kind === 'gap') gap = true;
        if (entry.kind !== 'fill' || !entry.live) continue;
        const price = flip ? 1 - entry.price : entry.price;
        const changed = applyFillToCandles(bars, { price, size: entry.size, time: entry.time }, plan.interval);
        if (changed) {
          setLast({ ...bars.at(-1)! });
          parts.candles.update(candleBar(changed));
          parts.volume.update(volumeBar(changed, palette()));
        }
      }
      seenSeq = newest;
      // Fills missed while the stream was down are in the price history: the candles are read again from it.
      if (gap) setRefills((n) => n + 1);
    });
    ask('getCandles', { protocol: market.protocol, marketId: market.marketId, outcomeIndex, interval: plan.interval })
      .then((candles) => {
        if (!live) return;
        bars.splice(0, bars.length, ...candles.map((c) => ({ ...c })));
        // Fills heard before this answer are in it already.
        seenSeq = useMarket.getState().tape.reduce((max, e) => Math.max(max, e.seq), 0);
        parts.candles.setData(bars.map(candleBar));
        const colours = palette();
        parts.volume.setData(bars.map((c) => volumeBar(c, colours)));
        try {
          if (plan.visible && bars.length > 0) parts.chart.timeScale().setVisibleRange({ from: plan.visible.from as UTCTimestamp, to: plan.visible.to as UTCTimestamp });
          else parts.chart.timeScale().fitContent();
        } catch {
          parts.chart.timeScale().fitContent();
        }
        setLast(bars.length > 0 ? { ...bars.at(-1)! } : null);
        setLoad({ state: 'ready', interval: plan.interval, count: bars.length });
      })
      .catch((error: unknown) => live && setLoad({ state: 'error', message: `The chart could not be loaded: ${messageOf(error)}` }));
    return () => {
      live = false;
      unsubscribe();
    };
  }, [market, outcomeIndex, range, refills]);

  return (
    <div
      className="chart-panel"
      data-testid="price-chart"
      data-range={range}
      data-state={load.state}
      data-interval={load.state === 'ready' ? load.interval : undefined}
      data-candles={load.state === 'ready' ? load.count : undefined}
    >
      <div className="chart-ranges" role="group" aria-label="Chart range">
        {CHART_RANGES.map((r) => (
          <button key={r} type="button" aria-pressed={r === range} data-range={r} onClick={() => setRange(r)}>
            {r === 'max' ? 'Max' : r.toUpperCase()}
          </button>
        ))}
        {(hovered ?? last) && (
          <Legend candle={(hovered ?? last)!} latest={!hovered} />
        )}
        {load.state === 'ready' && load.count === 0 && <span className="muted">No trades in this market yet.</span>}
        {load.state === 'error' && <span className="error-text" role="alert">{load.message}</span>}
      </div>
      <div className="chart-canvas" ref={box} />
    </div>
  );
}
