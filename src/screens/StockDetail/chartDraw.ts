import type { Chart as ChartInstance, Plugin } from 'chart.js';
import type { ChartFrame } from '../../api/useChart';
import type { Period } from '../../shared/contract/market';
import { MAX_VISIBLE, MIN_VISIBLE, visibleRange } from './chartWindow';

/**
 * What the stock detail chart draws and with what (StockChart.tsx): the design tokens' colours read
 * for the canvas, the line datasets of a frame, and the plugin that draws candles, volume and the
 * crosshair straight from the worker's typed arrays.
 */

/** A 1-minute chart is a timeline (price and average lines); the other periods are candles. */
export type Mode = 'timeline' | 'candles';
export type Point = { x: number; y: number };
/** What one bar of each period is, for the time axis's labels. */
export const AXIS_BARS = {
  '1m': 'minute',
  '1d': 'day',
  '1wk': 'month',
  '1mo': 'month',
} as const satisfies Record<Period, string>;

/** The moving averages' colours for the legend (tokens.css); the canvas reads the same tokens. */
export const MA_COLOURS = { ma5: 'var(--c-ma5)', ma10: 'var(--c-ma10)', ma20: 'var(--c-ma20)' } as const;

export interface Colours {
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
export function readColours(el: Element): Colours {
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
export interface DrawState {
  frame: ChartFrame;
  mode: Mode;
  colours: Colours;
  /** The crosshair's candle (null: none), shared with the pointer and key handlers. */
  cross: { index: number | null };
  /** When candle i was, for the crosshair's label on the time axis. */
  when: (i: number) => string;
}
export const drawState = new WeakMap<ChartInstance, DrawState>();

/**
 * Candles (wick and body) and volume bars for the candles in view, straight from the worker's
 * typed arrays: one path per colour, nothing parsed or allocated per candle. Candle i spans
 * [i, i + 1] on the x axis.
 */
export const candlesPlugin: Plugin<'line'> = {
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

/** The lines a mode draws, in dataset order. */
export function series(frame: ChartFrame, mode: Mode): Float64Array[] {
  return mode === 'timeline' ? [frame.c, frame.avg] : [frame.ma5, frame.ma10, frame.ma20];
}

/** The line datasets of a frame (candles and volume are the plugin's). */
export function datasets(frame: ChartFrame, mode: Mode, colours: Colours) {
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

/** How few and how many candles the window may show. */
export const limitsFor = (mode: Mode, n: number) =>
  mode === 'timeline'
    ? { min: Math.min(30, n), max: Math.max(n, 1) }
    : { min: MIN_VISIBLE, max: MAX_VISIBLE };
