/**
 * The visible window of a candle chart, in candle indices: [start, end), fractional while the user
 * drags so panning is smooth. chart.js draws ~200 candles at 60 fps on a phone and ~12 fps at
 * 2,000, so the window stays near 200 whatever the history holds; pan and pinch move it.
 */
export interface ChartWindow {
  start: number;
  end: number;
}

export const VISIBLE_CANDLES = 200;
export const MIN_VISIBLE = 20;
export const MAX_VISIBLE = 300;

const size = (w: ChartWindow) => w.end - w.start;

/** The newest `visible` candles (all of them when fewer). */
export function initialWindow(n: number, visible = VISIBLE_CANDLES): ChartWindow {
  return { start: Math.max(0, n - visible), end: n };
}

/** Keeps the window's size where possible and puts it inside [0, n]. */
export function clampWindow(w: ChartWindow, n: number, min = MIN_VISIBLE, max = MAX_VISIBLE): ChartWindow {
  if (n <= 0) return { start: 0, end: 0 };
  const span = Math.min(n, Math.max(Math.min(min, n), Math.min(size(w), max)));
  let start = Math.max(0, Math.min(w.start, n - span));
  if (!Number.isFinite(start)) start = Math.max(0, n - span);
  return { start, end: start + span };
}

/** Moves the window by `delta` candles (positive = later), never past either end. */
export function panWindow(w: ChartWindow, delta: number, n: number): ChartWindow {
  return clampWindow({ start: w.start + delta, end: w.end + delta }, n, 0, Number.POSITIVE_INFINITY);
}

/**
 * Scales the window by `factor` (> 1 shows more candles) around `anchor`, the fraction of the
 * width (0 left, 1 right) that stays under the finger, within [min, max] candles.
 */
export function zoomWindow(
  w: ChartWindow,
  factor: number,
  anchor: number,
  n: number,
  min = MIN_VISIBLE,
  max = MAX_VISIBLE,
): ChartWindow {
  const a = Math.min(1, Math.max(0, anchor));
  const old = size(w);
  const next = Math.min(Math.min(max, n), Math.max(Math.min(min, n), old * factor));
  const pivot = w.start + old * a;
  return clampWindow({ start: pivot - next * a, end: pivot - next * a + next }, n, min, max);
}

/**
 * After new data: a window that showed the newest candle follows the new ones (live), one the
 * user moved into the past stays where it was.
 */
export function followData(w: ChartWindow, previousN: number, n: number): ChartWindow {
  if (previousN <= 0) return initialWindow(n);
  const atEdge = w.end >= previousN - 0.5;
  const moved = atEdge ? { start: w.start + (n - previousN), end: w.end + (n - previousN) } : w;
  return clampWindow(moved, n, Math.min(MIN_VISIBLE, size(w)), Math.max(MAX_VISIBLE, size(w)));
}

/** Candles at least partly inside the window. */
export function visibleRange(w: ChartWindow, n: number): { from: number; to: number } {
  const from = Math.max(0, Math.floor(w.start));
  const to = Math.min(n, Math.ceil(w.end));
  return { from, to: Math.max(from, to) };
}

export interface Extent {
  min: number;
  max: number;
  volumeMax: number;
}

/**
 * The price axis for the candles in view (lows, highs, and the given lines such as the MAs),
 * padded so nothing touches the edges; and the tallest volume bar in view.
 */
export function windowExtent(
  cols: { l: ArrayLike<number>; h: ArrayLike<number>; v: ArrayLike<number> },
  w: ChartWindow,
  n: number,
  lines: ArrayLike<number>[] = [],
  pad = 0.06,
): Extent {
  const { from, to } = visibleRange(w, n);
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  let volumeMax = 0;
  for (let i = from; i < to; i++) {
    const lo = cols.l[i]!;
    const hi = cols.h[i]!;
    if (lo < min) min = lo;
    if (hi > max) max = hi;
    const v = cols.v[i]!;
    if (v > volumeMax) volumeMax = v;
    for (const line of lines) {
      const y = line[i]!;
      if (Number.isFinite(y)) {
        if (y < min) min = y;
        if (y > max) max = y;
      }
    }
  }
  if (!Number.isFinite(min)) return { min: 0, max: 1, volumeMax: 1 };
  if (max === min) {
    // A flat window (one candle, no trades) still needs a range to draw in.
    const half = Math.abs(max) * 0.005 || 0.5;
    min -= half;
    max += half;
  }
  const span = max - min;
  return { min: min - span * pad, max: max + span * pad, volumeMax: volumeMax || 1 };
}

/**
 * The crosshair. A finger that comes down on the chart inspects the candle under it at
 * once; what its first real movement is decides the rest, with no timer: sideways past the slop
 * pans the chart (the crosshair goes), up or down past it first scrubs (the crosshair then follows
 * the finger across the candles). Lifting the finger ends either.
 */
export type Gesture = 'pending' | 'pan' | 'scrub';

/** Pixels a finger may wander before its movement counts. */
export const GESTURE_SLOP = 8;

export function gestureOf(dx: number, dy: number, slop = GESTURE_SLOP): Gesture {
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  if (ax <= slop && ay <= slop) return 'pending';
  return ax >= ay ? 'pan' : 'scrub';
}

/**
 * The candle under `fraction` of the plot's width (0 left edge, 1 right edge), limited to the
 * candles in view; null when there are none.
 */
export function candleAt(w: ChartWindow, n: number, fraction: number): number | null {
  const { from, to } = visibleRange(w, n);
  if (to <= from) return null;
  const at = Math.floor(w.start + Math.min(1, Math.max(0, fraction)) * size(w));
  return Math.min(to - 1, Math.max(from, at));
}

/**
 * The keyboard's crosshair: the first press starts on the newest candle in view, each press moves
 * it by `delta` candles (never past either end), and the window pans just enough to keep it in view.
 */
export function stepCrosshair(
  w: ChartWindow,
  n: number,
  index: number | null,
  delta: number,
): { index: number | null; window: ChartWindow } {
  if (n <= 0) return { index: null, window: w };
  const { to } = visibleRange(w, n);
  const next =
    index === null ? Math.max(0, Math.min(n - 1, to - 1)) : Math.max(0, Math.min(n - 1, index + delta));
  let window = w;
  if (next < w.start) window = panWindow(w, next - w.start, n);
  else if (next + 1 > w.end) window = panWindow(w, next + 1 - w.end, n);
  return { index: next, window };
}

/** What the header shows for a scrubbed candle: its close, and the change from the close before. */
export function candleScrub(
  frame: { n: number; o: ArrayLike<number>; c: ArrayLike<number> },
  index: number,
  /** The session's reference (previous close) for minute bars; candles compare with the one before. */
  reference?: number,
): { price: number; change: number; percent: number } | null {
  if (index < 0 || index >= frame.n) return null;
  const price = frame.c[index]!;
  const base = reference ?? (index > 0 ? frame.c[index - 1]! : frame.o[index]!);
  const change = price - base;
  return { price, change, percent: base > 0 ? (change / base) * 100 : 0 };
}
