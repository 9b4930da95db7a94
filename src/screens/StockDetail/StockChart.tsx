import {
  type Chart as ChartInstance,
  Chart as ChartJS,
  type ChartOptions,
  LinearScale,
  LineController,
  LineElement,
  type Plugin,
  PointElement,
} from 'chart.js';
import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import { Chart } from 'react-chartjs-2';
import { useTranslation } from 'react-i18next';
import type { ChartFrame } from '../../api/useChart';
import type { Period } from '../../shared/contract/market';
import { formatAxisTime, formatDate, formatPrice } from '../../shared/format';
import { useColourScheme } from '../../ui/scheme';
import {
  type ChartWindow,
  candleAt,
  followData,
  type Gesture,
  gestureOf,
  initialWindow,
  MAX_VISIBLE,
  MIN_VISIBLE,
  panWindow,
  stepCrosshair,
  visibleRange,
  windowExtent,
  zoomWindow,
} from './chartWindow';
import s from './stock.module.css';

// Only what this chart uses: candles and volume are drawn by the plugin below, the lines by chart.js.
ChartJS.register(LineController, LineElement, PointElement, LinearScale);

type Mode = 'timeline' | 'candles';
type Point = { x: number; y: number };
/** What one bar of each period is, for the time axis's labels. */
const AXIS_BARS = { '1m': 'minute', '1d': 'day', '1wk': 'month', '1mo': 'month' } as const satisfies Record<
  Period,
  string
>;

/** The moving averages' colours for the legend (tokens.css); the canvas reads the same tokens. */
export const MA_COLOURS = { ma5: 'var(--c-ma5)', ma10: 'var(--c-ma10)', ma20: 'var(--c-ma20)' } as const;

interface Colours {
  up: string;
  down: string;
  grid: string;
  text: string;
  line: string;
  avg: string;
  ma5: string;
  ma10: string;
  ma20: string;
  /** The crosshair's lines and its time label's fill; the label's text. */
  cross: string;
  crossInk: string;
  /** The app's font stack (chart.js would draw in its own Helvetica stack). */
  font: string;
}

/** The canvas cannot use CSS variables: it reads the design tokens' current values (theme aware). */
function readColours(el: Element): Colours {
  const cs = getComputedStyle(el);
  const v = (name: string) => cs.getPropertyValue(name).trim();
  return {
    up: v('--c-up'),
    down: v('--c-down'),
    grid: v('--c-border'),
    text: v('--c-text-3'),
    line: v('--c-primary'),
    avg: v('--c-ma5'),
    ma5: v('--c-ma5'),
    ma10: v('--c-ma10'),
    ma20: v('--c-ma20'),
    cross: v('--c-text-2'),
    crossInk: v('--c-surface'),
    font: v('--font'),
  };
}

/** What the plugin draws from, per chart. */
interface DrawState {
  frame: ChartFrame;
  mode: Mode;
  colours: Colours;
  /** The crosshair's candle (null: none), shared with the pointer and key handlers. */
  cross: { index: number | null };
  /** When candle i was, for the crosshair's label on the time axis. */
  when: (i: number) => string;
}
const drawState = new WeakMap<ChartInstance, DrawState>();

/**
 * Candles (wick and body) and volume bars for the candles in view, straight from the worker's
 * typed arrays: one path per colour, nothing parsed or allocated per candle. Candle i spans
 * [i, i + 1] on the x axis.
 */
const candlesPlugin: Plugin<'line'> = {
  id: 'bourseCandles',
  beforeDatasetsDraw(chart) {
    const st = drawState.get(chart as unknown as ChartInstance);
    if (!st) return;
    const { ctx, chartArea: area, scales } = chart;
    const x = scales.x!;
    const y = scales.y!;
    const vol = scales.volume!;
    const { frame: f, mode, colours } = st;
    const { from, to } = visibleRange({ start: x.min, end: x.max }, f.n);
    const per = area.width / (x.max - x.min);
    const body = Math.max(1, per * 0.7);
    const base = vol.getPixelForValue(0);
    ctx.save();
    ctx.beginPath();
    ctx.rect(area.left, area.top, area.width, area.bottom - area.top);
    ctx.clip();
    for (const upPass of [1, 0]) {
      const colour = upPass ? colours.up : colours.down;
      ctx.fillStyle = colour;
      ctx.strokeStyle = colour;
      ctx.globalAlpha = 0.55;
      ctx.beginPath();
      for (let i = from; i < to; i++) {
        if (f.up[i] !== upPass) continue;
        const top = vol.getPixelForValue(f.v[i]!);
        ctx.rect(x.getPixelForValue(i + 0.5) - body / 2, top, body, base - top);
      }
      ctx.fill();
      ctx.globalAlpha = 1;
      if (mode === 'timeline') continue;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let i = from; i < to; i++) {
        if (f.up[i] !== upPass) continue;
        const cx = Math.round(x.getPixelForValue(i + 0.5)) + 0.5;
        ctx.moveTo(cx, y.getPixelForValue(f.h[i]!));
        ctx.lineTo(cx, y.getPixelForValue(f.l[i]!));
      }
      ctx.stroke();
      ctx.beginPath();
      for (let i = from; i < to; i++) {
        if (f.up[i] !== upPass) continue;
        const yo = y.getPixelForValue(f.o[i]!);
        const yc = y.getPixelForValue(f.c[i]!);
        ctx.rect(
          x.getPixelForValue(i + 0.5) - body / 2,
          Math.min(yo, yc),
          body,
          Math.max(1, Math.abs(yc - yo)),
        );
      }
      ctx.fill();
    }
    ctx.restore();
  },
  /** The crosshair: a vertical line through the candle's middle, a level line and a dot at its close. */
  afterDatasetsDraw(chart) {
    const st = drawState.get(chart as unknown as ChartInstance);
    const i = st?.cross.index;
    if (!st || i === null || i === undefined || i >= st.frame.n) return;
    const { ctx, chartArea: area, scales } = chart;
    const px = Math.round(scales.x!.getPixelForValue(i + 0.5)) + 0.5;
    const py = Math.round(scales.y!.getPixelForValue(st.frame.c[i]!)) + 0.5;
    if (px < area.left || px > area.right) return;
    ctx.save();
    ctx.strokeStyle = st.colours.cross;
    ctx.fillStyle = st.colours.cross;
    ctx.lineWidth = 1;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(px, area.top);
    ctx.lineTo(px, area.bottom);
    if (py >= area.top && py <= area.bottom) {
      ctx.moveTo(area.left, py);
      ctx.lineTo(area.right, py);
    }
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.arc(px, py, 3, 0, Math.PI * 2);
    ctx.fill();
    // The candle's time at the head of the line, kept inside the plot: readable above the finger
    // when the header (which shows it too) has scrolled away, and clear of the Buy/Sell bar.
    const text = st.when(i);
    ctx.font = `11px ${st.colours.font}`;
    const w = Math.ceil(ctx.measureText(text).width) + 10;
    const h = 16;
    const x = Math.min(area.right - w, Math.max(area.left, px - w / 2));
    ctx.fillRect(x, area.top, w, h);
    ctx.fillStyle = st.colours.crossInk;
    ctx.textBaseline = 'middle';
    ctx.fillText(text, x + 5, area.top + h / 2);
    ctx.restore();
  },
};

function points(values: Float64Array, n: number): Point[] {
  const out = new Array<Point>(n);
  for (let i = 0; i < n; i++) out[i] = { x: i + 0.5, y: values[i]! };
  return out;
}

function series(frame: ChartFrame, mode: Mode): Float64Array[] {
  return mode === 'timeline' ? [frame.c, frame.avg] : [frame.ma5, frame.ma10, frame.ma20];
}

function datasets(frame: ChartFrame, mode: Mode, colours: Colours) {
  const line = { yAxisID: 'y', pointRadius: 0, borderWidth: 1.25, tension: 0, spanGaps: false };
  return mode === 'timeline'
    ? [
        {
          ...line,
          label: 'price',
          data: points(frame.c, frame.n),
          borderColor: colours.line,
          borderWidth: 1.75,
        },
        { ...line, label: 'avg', data: points(frame.avg, frame.n), borderColor: colours.avg },
      ]
    : (['ma5', 'ma10', 'ma20'] as const).map((k) => ({
        ...line,
        label: k,
        data: points(frame[k], frame.n),
        borderColor: colours[k],
      }));
}

const limitsFor = (mode: Mode, n: number) =>
  mode === 'timeline'
    ? { min: Math.min(30, n), max: Math.max(n, 1) }
    : { min: MIN_VISIBLE, max: MAX_VISIBLE };

export interface StockChartProps {
  frame: ChartFrame;
  period: Period;
  label: string;
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
export const StockChart = memo(function StockChart({ frame, period, label, onCross }: StockChartProps) {
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
        return i >= 0 && i < frame.n ? formatAxisTime(frame.t[i]!, AXIS_BARS[period], i18n.language) : '';
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
        ? formatAxisTime(frame.t[i]!, 'minute', i18n.language)
        : period === '1mo'
          ? formatAxisTime(frame.t[i]!, 'month', i18n.language)
          : formatDate(frame.t[i]!, i18n.language);
    drawState.set(chart as unknown as ChartInstance, { frame, mode, colours, cross: cross.current, when });
    shown.current = { frame, mode, scheme };
    draw();
  }, [frame, mode, period, draw, setCross, i18n.language, scheme]);

  useEffect(() => () => cancelAnimationFrame(raf.current), []);

  // Drag pans or scrubs, two fingers pinch, the wheel zooms, the keyboard moves the crosshair,
  // pans and zooms.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const pointers = new Map<number, number>();
    let spread = 0;
    /** The one finger's gesture, decided by its first movement past the slop. */
    let gesture: Gesture | null = null;
    let origin = { x: 0, y: 0 };
    const n = () => shown.current.frame?.n ?? 0;
    const limits = () => limitsFor(shown.current.mode ?? 'candles', n());
    const perCandle = () => {
      const area = chartRef.current?.chartArea;
      return area ? area.width / Math.max(1, win.current.end - win.current.start) : 1;
    };
    const anchorAt = (clientX: number) => {
      const area = chartRef.current?.chartArea;
      if (!area) return 1;
      return (clientX - el.getBoundingClientRect().left - area.left) / area.width;
    };
    const candleUnder = (clientX: number) => candleAt(win.current, n(), anchorAt(clientX));
    const distance = () => {
      const [a, b] = [...pointers.values()];
      return Math.abs((a ?? 0) - (b ?? 0));
    };
    const down = (e: PointerEvent) => {
      try {
        el.setPointerCapture(e.pointerId);
      } catch {
        // The pointer is already gone (released between events): follow it without capture.
      }
      pointers.set(e.pointerId, e.clientX);
      if (pointers.size === 1) {
        gesture = 'pending';
        origin = { x: e.clientX, y: e.clientY };
        setCross(candleUnder(e.clientX));
      } else {
        // A second finger: a pinch, never a scrub.
        gesture = 'pan';
        setCross(null);
      }
      if (pointers.size === 2) spread = distance();
    };
    const move = (e: PointerEvent) => {
      const before = pointers.get(e.pointerId);
      if (before === undefined) return;
      if (pointers.size === 1 && gesture === 'pending') {
        gesture = gestureOf(e.clientX - origin.x, e.clientY - origin.y);
        // Still deciding: the crosshair stays with the finger, the chart does not move yet.
        if (gesture === 'pending') return setCross(candleUnder(e.clientX));
        // A pan starts from where the finger came down, so it moves the whole way the finger did.
        if (gesture === 'pan') setCross(null);
      }
      pointers.set(e.pointerId, e.clientX);
      if (pointers.size === 1 && gesture === 'scrub') return setCross(candleUnder(e.clientX));
      if (pointers.size === 1) {
        win.current = panWindow(win.current, (before - e.clientX) / perCandle(), n());
      } else if (pointers.size === 2) {
        const next = distance();
        if (spread > 0 && next > 0) {
          const [a, b] = [...pointers.values()];
          const { min, max } = limits();
          win.current = zoomWindow(
            win.current,
            spread / next,
            anchorAt(((a ?? 0) + (b ?? 0)) / 2),
            n(),
            min,
            max,
          );
        }
        spread = next;
      }
      schedule();
    };
    const up = (e: PointerEvent) => {
      pointers.delete(e.pointerId);
      spread = pointers.size === 2 ? distance() : 0;
      if (pointers.size === 0) {
        gesture = null;
        setCross(null);
      }
    };
    const wheel = (e: WheelEvent) => {
      e.preventDefault();
      const { min, max } = limits();
      win.current = zoomWindow(
        win.current,
        e.deltaY > 0 ? 1.15 : 1 / 1.15,
        anchorAt(e.clientX),
        n(),
        min,
        max,
      );
      schedule();
    };
    const key = (e: KeyboardEvent) => {
      const size = win.current.end - win.current.start;
      const { min, max } = limits();
      const arrow = e.key === 'ArrowLeft' ? -1 : e.key === 'ArrowRight' ? 1 : 0;
      if (arrow !== 0 && !e.shiftKey) {
        // The arrows move the crosshair a candle at a time; the chart follows it past either edge.
        const next = stepCrosshair(win.current, n(), cross.current.index, arrow);
        win.current = next.window;
        setCross(next.index);
      } else if (arrow !== 0) win.current = panWindow(win.current, (arrow * size) / 10, n());
      else if (e.key === 'Escape' && cross.current.index !== null) setCross(null);
      else if (e.key === '+' || e.key === '=')
        win.current = zoomWindow(win.current, 1 / 1.25, 0.5, n(), min, max);
      else if (e.key === '-') win.current = zoomWindow(win.current, 1.25, 0.5, n(), min, max);
      else return;
      e.preventDefault();
      schedule();
    };
    el.addEventListener('pointerdown', down);
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', up);
    el.addEventListener('wheel', wheel, { passive: false });
    el.addEventListener('keydown', key);
    const blur = () => {
      if (pointers.size === 0) setCross(null);
    };
    el.addEventListener('blur', blur);
    return () => {
      el.removeEventListener('blur', blur);
      el.removeEventListener('pointerdown', down);
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      el.removeEventListener('pointercancel', up);
      el.removeEventListener('wheel', wheel);
      el.removeEventListener('keydown', key);
    };
  }, [schedule, setCross]);

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
