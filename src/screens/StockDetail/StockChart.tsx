import {
  type Chart as ChartInstance,
  Chart as ChartJS,
  type ChartOptions,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
} from 'chart.js';
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import { Chart } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';
import type { ChartFrame } from '../../api/useChart';
import type { Period } from '../../shared/contract/market';
import { formatAxisTime, formatDate, formatPrice } from '../../shared/format';
import type { ScheduleId } from '../../shared/market-hours';
import { useColourScheme } from '../../ui/scheme';
import {
  AXIS_BARS,
  candlesPlugin,
  datasets,
  drawState,
  limitsFor,
  type Mode,
  type Point,
  readColours,
  series,
} from './chartDraw';
import {
  type ChartWindow,
  followData,
  initialWindow,
  visibleRange,
  windowExtent,
  zoomWindow,
} from './chartWindow';
import s from './stock.module.css';
import { useChartGestures } from './useChartGestures';

// Only what this chart uses: candles and volume are drawn by its plugin (chartDraw.ts), the lines by chart.js.
ChartJS.register(LineController, LineElement, PointElement, LinearScale);

export interface StockChartProps {
  frame: ChartFrame;
  period: Period;
  label: string;
  /** The instrument's market hours: the axis and the crosshair's time in its exchange's zone. */
  hours: ScheduleId;
  /** The crosshair's candle while the user inspects one (null when it goes); a stable function. */
  onCross?: (index: number | null) => void;
}

/**
 * The stock detail chart. Created once and then updated in place (`update('none')`): a new frame
 * replaces the arrays (or only the last point when the bars are the same), pan and pinch move the
 * window on the next animation frame without React. `touch-action: none` keeps the page from
 * zooming or scrolling under a drag. A finger held on the chart shows the crosshair; see
 * `gestureOf` for how a drag becomes a pan or a scrub (no timer decides).
 */
export const StockChart = memo(function StockChart({
  frame,
  period,
  label,
  hours,
  onCross,
}: StockChartProps) {
  const { t, i18n } = useTranslation();
  const chartRef = useRef<ChartInstance<'line', Point[]> | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const win = useRef<ChartWindow>({ start: 0, end: 0 });
  const shown = useRef<{ frame: ChartFrame | null; mode: Mode | null; scheme: string | null }>({
    frame: null,
    mode: null,
    scheme: null,
  });
  // A colour-scheme switch redraws with the tokens' new values (the canvas cannot follow CSS).
  const scheme = useColourScheme();
  const raf = useRef(0);
  const cross = useRef<{ index: number | null }>({ index: null });
  const crossTo = useRef(onCross);
  crossTo.current = onCross;
  const mode: Mode = period === '1m' ? 'timeline' : 'candles';

  const data = useMemo(() => ({ datasets: [] as never[] }), []);
  const options = useMemo<ChartOptions<'line'>>(
    () => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      parsing: false,
      normalized: true,
      // Our own pointer handling: chart.js need not hit-test every move.
      events: [],
      layout: { padding: { left: 4, right: 0, top: 8, bottom: 0 } },
      plugins: { legend: { display: false }, tooltip: { enabled: false } },
      scales: {
        x: {
          type: 'linear',
          min: 0,
          max: 1,
          border: { display: false },
          ticks: { maxTicksLimit: 4, maxRotation: 0 },
        },
        y: { type: 'linear', position: 'right', stack: 'chart', stackWeight: 4, border: { display: false } },
        volume: {
          type: 'linear',
          position: 'right',
          stack: 'chart',
          stackWeight: 1,
          offset: true,
          min: 0,
          grid: { display: false },
          border: { display: false },
          ticks: { display: false },
        },
      },
    }),
    [],
  );
  const plugins = useMemo(() => [candlesPlugin], []);

  /** Axis ranges for the current window, then one redraw without animation. */
  const draw = useCallback(() => {
    raf.current = 0;
    const chart = chartRef.current;
    const f = shown.current.frame;
    const m = shown.current.mode;
    if (!chart || !f || !m) return;
    const w = win.current;
    const ext = windowExtent(f, w, f.n, series(f, m));
    const sc = chart.options.scales!;
    Object.assign(sc.x!, { min: w.start, max: w.end });
    Object.assign(sc.y!, { min: ext.min, max: ext.max });
    Object.assign(sc.volume!, { max: ext.volumeMax * 1.05 });
    chart.update('none');
    const { from, to } = visibleRange(w, f.n);
    const el = box.current;
    if (el) {
      el.dataset.candles = String(to - from);
      el.dataset.from = String(from);
    }
  }, []);

  const schedule = useCallback(() => {
    if (!raf.current) raf.current = requestAnimationFrame(draw);
  }, [draw]);

  /** Moves (or removes) the crosshair: redrawn on the next frame, told to the header at once. */
  const setCross = useCallback(
    (index: number | null) => {
      if (cross.current.index === index) return;
      cross.current.index = index;
      const el = box.current;
      if (el) {
        if (index === null) delete el.dataset.cross;
        else el.dataset.cross = String(index);
      }
      crossTo.current?.(index);
      schedule();
    },
    [schedule],
  );

  // A new frame: swap the arrays in (or move the last point only), follow the live edge.
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart || !box.current) return;
    const prev = shown.current;
    const colours = readColours(box.current);
    const sameBars =
      prev.scheme === scheme &&
      prev.frame !== null &&
      prev.frame.period === frame.period &&
      prev.frame.symbol === frame.symbol &&
      prev.frame.n === frame.n &&
      prev.frame.t[0] === frame.t[0];
    if (sameBars) {
      const last = frame.n - 1;
      series(frame, mode).forEach((values, d) => {
        const pts = chart.data.datasets[d]?.data;
        if (pts?.[last]) pts[last].y = values[last]!;
      });
    } else {
      chart.data.datasets = datasets(frame, mode, colours) as never;
      const limits = limitsFor(mode, frame.n);
      // Another period or instrument starts on its newest candles; the same one follows the live edge.
      const before = prev.frame;
      win.current =
        before === null || before.period !== frame.period || before.symbol !== frame.symbol
          ? initialWindow(frame.n, mode === 'timeline' ? frame.n : undefined)
          : followData(win.current, before.n, frame.n);
      // Other bars under the crosshair: it goes (the finger or key that placed it picks anew).
      setCross(null);
      if (mode === 'timeline') win.current = zoomWindow(win.current, 1, 1, frame.n, limits.min, limits.max);
    }
    const sc = chart.options.scales!;
    const axisText = { color: colours.text, font: { size: 10, family: colours.font } };
    sc.x!.ticks = {
      ...sc.x!.ticks,
      ...axisText,
      includeBounds: false,
      callback: (v) => {
        const i = Math.floor(Number(v));
        return i >= 0 && i < frame.n
          ? formatAxisTime(frame.t[i]!, AXIS_BARS[period], i18n.language, hours)
          : '';
      },
    };
    sc.x!.grid = { color: colours.grid };
    sc.y!.ticks = {
      ...axisText,
      maxTicksLimit: 5,
      includeBounds: false,
      callback: (v) => formatPrice(Number(v), frame.decimals),
    };
    sc.y!.grid = { color: colours.grid };
    const when = (i: number) =>
      period === '1m'
        ? formatAxisTime(frame.t[i]!, 'minute', i18n.language, hours)
        : period === '1mo'
          ? formatAxisTime(frame.t[i]!, 'month', i18n.language, hours)
          : formatDate(frame.t[i]!, i18n.language, hours);
    drawState.set(chart as unknown as ChartInstance, { frame, mode, colours, cross: cross.current, when });
    shown.current = { frame, mode, scheme };
    draw();
  }, [frame, mode, period, draw, setCross, i18n.language, scheme, hours]);

  useEffect(() => () => cancelAnimationFrame(raf.current), []);

  useChartGestures({ box, chart: chartRef, win, shown, cross }, setCross, schedule);

  return (
    <div
      ref={box}
      className={s.canvasBox}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the chart pans and zooms with the arrow keys and +/-
      tabIndex={0}
      role="img"
      aria-label={`${label}. ${t('markets.detail.chartKeys')}`}
      data-period={period}
      data-total={frame.n}
    >
      <Chart
        ref={chartRef}
        type="line"
        data={data}
        options={options}
        plugins={plugins}
        role="presentation"
        aria-hidden="true"
      />
    </div>
  );
});
