// The price chart of the chosen outcome (lightweight-charts): Polymarket's ranges, each asking main for candles of
// its own width (or one the trader picks), the probability line by default or candles, volume beneath, a legend
// of the bucket under the pointer, prices in ¢, a linear time axis (a slot per bucket, chart/timeline.ts), live
// fills growing the last candle, the theme's colours, and the size of its container.
import { useEffect, useRef, useState } from 'react';
import {
  CandlestickSeries,
  ColorType,
  HistogramSeries,
  LineSeries,
  createChart,
  type AutoscaleInfo,
  type IChartApi,
  type ISeriesApi,
  type TickMarkFormatter,
  type Time,
} from 'lightweight-charts';
import type { Candle } from '@pmdesk/toolkit/model';
import { useMarket, useMarketStore, useShownMarket } from '../../store/market';
import { useSession } from '../../store/session';
import { ask, messageOf } from '../../bridge/terminal';
import { ChartCredit, ChartLegend } from './chart/ChartLegend';
import {
  CHART_RANGES,
  INTERVAL_LABELS,
  INTERVAL_SECONDS,
  RANGE_INTERVALS,
  RANGE_LABELS,
  applyFillToCandles,
  rangePlan,
  rememberChartMode,
  rememberedChartMode,
  type CandleInterval,
  type ChartMode,
  type ChartRange,
} from '../../model/chart-plan';
import {
  axisMark,
  bucketTime,
  candlePoint,
  centsLabel,
  linePoint,
  timeline,
  volumePoint,
  type Slot,
} from './chart/timeline';
import { chartPriceRange } from '../../model/market';
import { centDecimals } from '../../format/numbers';

interface Palette {
  background: string;
  text: string;
  line: string;
  accent: string;
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
    accent: v('--accent', '#4c9aff'),
    up: v('--bid', '#2fbf71'),
    down: v('--ask', '#ef5350'),
    upFaint: v('--bid-bg', 'rgba(47, 191, 113, 0.4)'),
    downFaint: v('--ask-bg', 'rgba(239, 83, 80, 0.4)'),
  };
}

interface Parts {
  chart: IChartApi;
  candles: ISeriesApi<'Candlestick'>;
  line: ISeriesApi<'Line'>;
  volume: ISeriesApi<'Histogram'>;
}

function applyTheme(parts: Parts, colours: Palette): void {
  parts.chart.applyOptions({
    layout: { background: { type: ColorType.Solid, color: colours.background }, textColor: colours.text },
    grid: { vertLines: { color: colours.line }, horzLines: { color: colours.line } },
    rightPriceScale: { borderColor: colours.line },
    timeScale: { borderColor: colours.line },
  });
  parts.candles.applyOptions({
    upColor: colours.up,
    downColor: colours.down,
    wickUpColor: colours.up,
    wickDownColor: colours.down,
    borderVisible: false,
  });
  parts.line.applyOptions({ color: colours.accent });
}

const volumeColours = (colours: Palette) => ({ up: colours.upFaint, down: colours.downFaint });

/** Every slot into the three series at once (a mode switch only shows the other one). */
function drawAll(parts: Parts, slots: readonly Slot[]): void {
  parts.candles.setData(slots.map(candlePoint));
  parts.line.setData(slots.map(linePoint));
  const colours = volumeColours(palette());
  parts.volume.setData(slots.map((s) => volumePoint(s, colours)));
}

/** Slots from the last drawn one onwards: the first replaces it, the rest are appended. */
function drawTail(parts: Parts, tail: readonly Slot[]): void {
  const colours = volumeColours(palette());
  for (const slot of tail) {
    parts.candles.update(candlePoint(slot));
    parts.line.update(linePoint(slot));
    parts.volume.update(volumePoint(slot, colours));
  }
}

type LoadState =
  | { state: 'loading' }
  | { state: 'ready'; interval: CandleInterval; count: number; trades: number; slots: number }
  | { state: 'error'; message: string };

/** What the sandbox's tests read of the chart (never set on a real network): the series as the library holds them. */
interface ChartProbe {
  mode: ChartMode;
  series(): { candles: readonly unknown[]; line: readonly unknown[]; volume: readonly unknown[] };
  visible(): { candles: boolean; line: boolean; volume: boolean };
  priceLabel(cents: number): string;
  timeLabel(time: number, markType: number): string | null;
  /** Where a bucket sits across the plot, in pixels from its left edge (null: not on the axis or not in view). */
  x(time: number): number | null;
  /** The slots fed to the library, a trade in them or not (the library's data() leaves out the empty ones). */
  slots(): { time: number; traded: boolean }[];
  /** The plot's width in pixels (the time axis's length). */
  plotWidth(): number;
}

export function PriceChart() {
  const { market, tokenId } = useShownMarket();
  const store = useMarketStore();
  const outcomeIndex = useMarket((s) => s.market?.position_tokens.findIndex((t) => t.token_id === tokenId) ?? -1);
  const decimals = centDecimals(useMarket((s) => s.market?.minimum_tick_size));
  const sandbox = useSession((s) => s.network?.sandbox ?? false);
  const [range, setRange] = useState<ChartRange>('max');
  /** A candle width the trader picked for this range; null: the range's own. */
  const [picked, setPicked] = useState<CandleInterval | null>(null);
  const [mode, setMode] = useState<ChartMode>(() => rememberedChartMode());
  const [load, setLoad] = useState<LoadState>({ state: 'loading' });
  /** Bumped by a gap in the tape: the candles are refilled from history. */
  const [refills, setRefills] = useState(0);
  /** The latest slot, as the legend shows it. */
  const [last, setLast] = useState<Slot | null>(null);
  /** The slot under the pointer, shown in the legend instead of the latest while hovering. */
  const [hovered, setHovered] = useState<Slot | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const partsRef = useRef<Parts | null>(null);
  /** The slots drawn now, oldest first (the crosshair and the theme watcher read them). */
  const slotsRef = useRef<Slot[]>([]);
  /** The bucket width drawn now, and the cents' decimals: the library's formatters read them when they draw. */
  const widthRef = useRef(INTERVAL_SECONDS['1d']);
  const decimalsRef = useRef(decimals);
  /** The width asked for (the span is worked out when the candles are read: it ends at that moment). */
  const { interval, width } = rangePlan(range, 0, picked);

  // The chart itself: made once, themed now and whenever the theme changes, sized by its container.
  useEffect(() => {
    if (!box.current) return;
    const chart = createChart(box.current, {
      autoSize: true,
      // The credit is a line of text beside the legend (ChartCredit): the logo would sit on the oldest bars.
      layout: { attributionLogo: false },
      timeScale: {
        timeVisible: true,
        secondsVisible: false,
        // The range is the whole picture, as on Polymarket: no scrolling off into empty space either side.
        fixLeftEdge: true,
        fixRightEdge: true,
        tickMarkFormatter: (time: Time, markType: number) => axisMark(time as number, markType),
      },
      localization: { timeFormatter: (time: Time) => bucketTime(time as number, widthRef.current) },
      // No margins of the scale's own: chartPriceRange puts them inside 0–100¢ (the scale's would run past them).
      rightPriceScale: { scaleMargins: { top: 0, bottom: 0 } },
      crosshair: { mode: 0 },
    });
    const priceFormat = {
      type: 'custom' as const,
      formatter: (cents: number) => centsLabel(cents, decimalsRef.current),
      minMove: 0.01,
    };
    const autoscaleInfoProvider = (original: () => AutoscaleInfo | null) => {
      const info = original();
      return info?.priceRange
        ? { ...info, priceRange: chartPriceRange(info.priceRange.minValue, info.priceRange.maxValue) }
        : info;
    };
    const candles = chart.addSeries(CandlestickSeries, { priceFormat, autoscaleInfoProvider, visible: false });
    const line = chart.addSeries(LineSeries, { priceFormat, autoscaleInfoProvider, lineWidth: 2, visible: false });
    const volume = chart.addSeries(HistogramSeries, {
      priceScaleId: 'volume',
      priceFormat: { type: 'volume' },
      lastValueVisible: false,
      priceLineVisible: false,
    });
    chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    const parts: Parts = { chart, candles, line, volume };
    applyTheme(parts, palette());
    partsRef.current = parts;
    chart.subscribeCrosshairMove((param) => {
      const time = param.time as number | undefined;
      const slots = slotsRef.current;
      const index =
        time === undefined || slots.length === 0 ? -1 : Math.round((time - slots[0]!.time) / widthRef.current);
      setHovered(slots[index]?.time === time ? slots[index]! : null);
    });
    const themeWatch = new MutationObserver(() => {
      const colours = palette();
      applyTheme(parts, colours);
      volume.setData(slotsRef.current.map((s) => volumePoint(s, volumeColours(colours))));
    });
    themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    // The range is the whole picture at every size: the library resizes the canvas (autoSize) but keeps its bar
    // spacing, so a tile that narrows (another tile added, a splitter dragged, a smaller window) would show only
    // the oldest part of the range. Fitted again on the frame after any change of width.
    let fittedWidth = -1;
    let fitFrame = 0;
    const resizeWatch = new ResizeObserver(([entry]) => {
      const widthNow = Math.round(entry?.contentRect.width ?? 0);
      if (widthNow === fittedWidth || widthNow === 0) return;
      fittedWidth = widthNow;
      cancelAnimationFrame(fitFrame);
      fitFrame = requestAnimationFrame(() => chart.timeScale().fitContent());
    });
    resizeWatch.observe(box.current);
    return () => {
      cancelAnimationFrame(fitFrame);
      resizeWatch.disconnect();
      themeWatch.disconnect();
      partsRef.current = null;
      chart.remove();
    };
  }, []);

  // Line or candles: both series hold the data; the mode shows one (a hidden series leaves the autoscale too).
  useEffect(() => {
    partsRef.current?.candles.applyOptions({ visible: mode === 'candles' });
    partsRef.current?.line.applyOptions({ visible: mode === 'line' });
    rememberChartMode(mode);
  }, [mode]);

  // The cents' decimals follow the market's tick ("42¢" at 0.01, "42.5¢" at 0.001).
  useEffect(() => {
    decimalsRef.current = decimals;
    const minMove = 10 ** -decimals;
    for (const series of [partsRef.current?.candles, partsRef.current?.line]) {
      series?.applyOptions({
        priceFormat: { type: 'custom', formatter: (cents: number) => centsLabel(cents, decimalsRef.current), minMove },
      });
    }
  }, [decimals]);

  // Candles for the market, outcome, range and width; live fills then grow the last one, and the axis runs on to now.
  useEffect(() => {
    const parts = partsRef.current;
    if (!market || outcomeIndex < 0 || !parts) return;
    let live = true;
    const { interval, width, from } = rangePlan(range, Math.floor(Date.now() / 1000), picked);
    const bars: Candle[] = [];
    slotsRef.current = [];
    widthRef.current = width;
    const nowBucket = () => Math.floor(Date.now() / 1000 / width) * width;
    /** The newest tape entry already in the candles; null until the candles are in. */
    let seenSeq: number | null = null;
    setLoad({ state: 'loading' });
    setLast(null);
    setHovered(null);
    const settle = () => {
      const slots = slotsRef.current;
      setLast(slots.at(-1) ?? null);
      setLoad({
        state: 'ready',
        interval,
        count: bars.length,
        trades: slots.filter((s) => s.candle).length,
        slots: slots.length,
      });
    };
    /**
     * Redraws from the last drawn slot to now (a fill in it or after it, or the clock moving on); from scratch
     * when a fill landed in an earlier slot (the clock had already opened later ones) or nothing is drawn yet.
     */
    const extend = (changedFrom = Infinity) => {
      const slots = slotsRef.current;
      const lastDrawn = slots.at(-1);
      if (!lastDrawn || changedFrom < lastDrawn.time) {
        slotsRef.current = timeline(bars, width, from, nowBucket());
        drawAll(parts, slotsRef.current);
      } else {
        const tail = timeline(bars, width, lastDrawn.time, nowBucket());
        drawTail(parts, tail);
        slots.splice(slots.length - 1, 1, ...tail);
      }
      settle();
    };
    const flip = outcomeIndex === 1;
    const unsubscribe = store.subscribe((state, previous) => {
      if (seenSeq === null || state.tape === previous.tape) return;
      let newest = seenSeq;
      let gap = false;
      let changedFrom = Infinity;
      // The tape is ordered by time, not arrival: look at every entry newer than the last seen, oldest first.
      for (const entry of [...state.tape].reverse()) {
        if (entry.seq <= seenSeq) continue;
        newest = Math.max(newest, entry.seq);
        if (entry.kind === 'gap') gap = true;
        if (entry.kind !== 'fill' || !entry.live) continue;
        const price = flip ? 1 - entry.price : entry.price;
        const changed = applyFillToCandles(bars, { price, size: entry.size, time: entry.time }, interval);
        if (changed) changedFrom = Math.min(changedFrom, changed.time);
      }
      seenSeq = newest;
      if (changedFrom < Infinity) extend(changedFrom);
      // Fills missed while the stream was down are in the price history: the candles are read again from it.
      if (gap) setRefills((n) => n + 1);
    });
    // The axis runs on to now between trades: a new bucket opens empty when the clock reaches it.
    const clock = setInterval(() => {
      if (seenSeq !== null && (slotsRef.current.at(-1)?.time ?? Infinity) < nowBucket()) extend();
    }, 10_000);
    ask('getCandles', { protocol: market.protocol, marketId: market.marketId, outcomeIndex, interval })
      .then((candles) => {
        if (!live) return;
        bars.splice(0, bars.length, ...candles.map((c) => ({ ...c })));
        // Fills heard before this answer are in it already.
        seenSeq = store.getState().tape.reduce((max, e) => Math.max(max, e.seq), 0);
        slotsRef.current = [];
        extend();
        parts.chart.timeScale().fitContent();
      })
      .catch(
        (error: unknown) =>
          live && setLoad({ state: 'error', message: `The chart could not be loaded: ${messageOf(error)}` }),
      );
    return () => {
      live = false;
      clearInterval(clock);
      unsubscribe();
    };
  }, [market, store, outcomeIndex, range, picked, refills]);

  // The sandbox's test hook: what the library holds, read the way the axis and legend read it.
  useEffect(() => {
    const parts = partsRef.current;
    if (!sandbox || !parts) return;
    const probe: ChartProbe = {
      mode,
      series: () => ({ candles: parts.candles.data(), line: parts.line.data(), volume: parts.volume.data() }),
      visible: () => ({
        candles: parts.candles.options().visible,
        line: parts.line.options().visible,
        volume: parts.volume.options().visible,
      }),
      priceLabel: (cents) => parts.candles.priceFormatter().format(cents),
      x: (time) => parts.chart.timeScale().timeToCoordinate(time as Time),
      slots: () => slotsRef.current.map((slot) => ({ time: slot.time, traded: slot.candle !== null })),
      plotWidth: () => parts.chart.timeScale().width(),
      timeLabel: (time, markType) =>
        (parts.chart.options().timeScale as { tickMarkFormatter?: TickMarkFormatter }).tickMarkFormatter?.(
          time as Time,
          markType,
          'en-US',
        ) ?? null,
    };
    const host = globalThis as unknown as { __pmdeskChart?: ChartProbe };
    host.__pmdeskChart = probe;
    return () => {
      if (host.__pmdeskChart === probe) delete host.__pmdeskChart;
    };
  }, [sandbox, mode]);

  const shown = hovered ?? last;
  const empty = load.state === 'ready' && load.trades === 0;
  return (
    <div
      className="chart-panel"
      data-testid="price-chart"
      data-range={range}
      data-mode={mode}
      data-state={load.state}
      data-interval={load.state === 'ready' ? load.interval : undefined}
      data-candles={load.state === 'ready' ? load.count : undefined}
      data-trades={load.state === 'ready' ? load.trades : undefined}
      data-slots={load.state === 'ready' ? load.slots : undefined}
    >
      <div className="chart-toolbar">
        <div className="chart-ranges" role="group" aria-label="Chart range">
          {CHART_RANGES.map((r) => (
            <button
              key={r}
              type="button"
              aria-pressed={r === range}
              data-range={r}
              onClick={() => {
                setRange(r);
                setPicked(null);
              }}
            >
              {RANGE_LABELS[r]}
            </button>
          ))}
        </div>
        <select
          className="chart-interval"
          aria-label="Candle width"
          title="The time each candle (and each point of the line) covers"
          value={interval}
          onChange={(e) => setPicked(e.target.value as CandleInterval)}
        >
          {RANGE_INTERVALS[range].map((i) => (
            <option key={i} value={i}>
              {INTERVAL_LABELS[i]}
            </option>
          ))}
        </select>
        <div className="chart-modes" role="group" aria-label="Chart style">
          {(['line', 'candles'] as const).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={m === mode}
              data-mode={m}
              onClick={() => setMode(m)}
              title={m === 'line' ? 'The price as a line, as on Polymarket' : 'Open, high, low and close per bucket'}
            >
              {m === 'line' ? 'Line' : 'Candles'}
            </button>
          ))}
        </div>
        {empty && (
          <span className="muted" data-testid="chart-empty">
            {range === 'max' ? 'No trades in this market yet.' : 'No trades in this range.'}
          </span>
        )}
        {load.state === 'error' && (
          <span className="error-text" role="alert">
            {load.message}
          </span>
        )}
      </div>
      <div className="chart-legend-row">
        {shown && load.state === 'ready' && (
          <ChartLegend slot={shown} latest={!hovered} mode={mode} width={width} decimals={decimals} />
        )}
        <ChartCredit />
      </div>
      <div className="chart-canvas" ref={box} />
    </div>
  );
}
