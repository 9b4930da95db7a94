import type { CandleRow, Period } from '#shared/contract/market';
import { SPARK_HEIGHT, SPARK_WIDTH } from '#shared/format';

/**
 * Chart math, run in the sync worker: candles as columns (typed arrays), moving averages, volume,
 * the 1m timeline's average price, extents for the axes, and sparkline paths. The UI gets
 * everything chart-ready and only draws.
 */

/** The candle columns of one symbol and period (also the shape of a stored chunk). */
export interface Columns {
  t: Float64Array;
  o: Float64Array;
  h: Float64Array;
  l: Float64Array;
  c: Float64Array;
  v: Float64Array;
}

/** `n` candles of zeros, to be filled in and then cut to the length used. */
function zeroColumns(n: number): Columns {
  const col = () => new Float64Array(n);
  return { t: col(), o: col(), h: col(), l: col(), c: col(), v: col() };
}

export interface SparkPaths {
  line: string;
  area: string;
}

/** Everything a chart draws, as views over one ArrayBuffer (transferred to the UI, not copied). */
export interface ChartMath extends Columns {
  n: number;
  ma5: Float64Array;
  ma10: Float64Array;
  ma20: Float64Array;
  /** Average price so far (volume-weighted; the 1m timeline's second line). */
  avg: Float64Array;
  /** 1 when the candle closed at or above its open (drawn in the "up" colour). */
  up: Uint8Array;
  /** Price axis: lowest low and highest high. */
  priceMin: number;
  priceMax: number;
  volumeMax: number;
  /** The closes as a sparkline (for cards and the timeline's area). */
  spark: SparkPaths;
  buffer: ArrayBuffer;
}

const F64_FIELDS = ['t', 'o', 'h', 'l', 'c', 'v', 'ma5', 'ma10', 'ma20', 'avg'] as const;

/** Candle rows of an answer to columns, sorted by time, one candle per timestamp. */
export function toColumns(rows: readonly CandleRow[]): Columns {
  const sorted = isSorted(rows) ? rows : [...rows].sort((a, b) => a.timestamp - b.timestamp);
  const n = sorted.length;
  const cols = zeroColumns(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const r = sorted[i]!;
    // A repeated timestamp is the same candle updated: keep the later one.
    if (k > 0 && cols.t[k - 1] === r.timestamp) k--;
    cols.t[k] = r.timestamp;
    cols.o[k] = r.open;
    cols.h[k] = r.high;
    cols.l[k] = r.low;
    cols.c[k] = r.close;
    cols.v[k] = r.volume;
    k++;
  }
  return k === n ? cols : sliceColumns(cols, 0, k);
}

function isSorted(rows: readonly CandleRow[]): boolean {
  for (let i = 1; i < rows.length; i++) if (rows[i]!.timestamp < rows[i - 1]!.timestamp) return false;
  return true;
}

function sliceColumns(cols: Columns, from: number, to: number): Columns {
  return {
    t: cols.t.slice(from, to),
    o: cols.o.slice(from, to),
    h: cols.h.slice(from, to),
    l: cols.l.slice(from, to),
    c: cols.c.slice(from, to),
    v: cols.v.slice(from, to),
  };
}

/** Simple moving average over `window` values; NaN until the window is full. */
export function movingAverage(
  src: Float64Array,
  window: number,
  out: Float64Array = new Float64Array(src.length),
): Float64Array {
  let sum = 0;
  for (let i = 0; i < src.length; i++) {
    sum += src[i]!;
    if (i >= window) sum -= src[i - window]!;
    out[i] = i >= window - 1 ? sum / window : Number.NaN;
  }
  return out;
}

/** Volume-weighted average price so far; the plain average of closes while no volume traded. */
function averagePrice(
  c: Float64Array,
  v: Float64Array,
  out: Float64Array = new Float64Array(c.length),
): Float64Array {
  let pv = 0;
  let vol = 0;
  let sum = 0;
  for (let i = 0; i < c.length; i++) {
    pv += c[i]! * v[i]!;
    vol += v[i]!;
    sum += c[i]!;
    out[i] = vol > 0 ? pv / vol : sum / (i + 1);
  }
  return out;
}

/** All chart arrays for the candles, in one buffer. */
export function computeChart(cols: Columns): ChartMath {
  const n = cols.t.length;
  const buffer = new ArrayBuffer(n * 8 * F64_FIELDS.length + n);
  const views = {} as Record<(typeof F64_FIELDS)[number], Float64Array>;
  F64_FIELDS.forEach((field, i) => {
    views[field] = new Float64Array(buffer, i * n * 8, n);
  });
  const up = new Uint8Array(buffer, n * 8 * F64_FIELDS.length, n);
  views.t.set(cols.t);
  views.o.set(cols.o);
  views.h.set(cols.h);
  views.l.set(cols.l);
  views.c.set(cols.c);
  views.v.set(cols.v);
  movingAverage(cols.c, 5, views.ma5);
  movingAverage(cols.c, 10, views.ma10);
  movingAverage(cols.c, 20, views.ma20);
  averagePrice(cols.c, cols.v, views.avg);

  let priceMin = Number.POSITIVE_INFINITY;
  let priceMax = Number.NEGATIVE_INFINITY;
  let volumeMax = 0;
  // Averages of closes stay within the range of the closes, so lows and highs bound the axis.
  for (let i = 0; i < n; i++) {
    up[i] = cols.c[i]! >= cols.o[i]! ? 1 : 0;
    if (cols.l[i]! < priceMin) priceMin = cols.l[i]!;
    if (cols.h[i]! > priceMax) priceMax = cols.h[i]!;
    if (cols.v[i]! > volumeMax) volumeMax = cols.v[i]!;
  }
  if (n === 0) {
    priceMin = 0;
    priceMax = 0;
  }
  return {
    n,
    ...views,
    up,
    priceMin,
    priceMax,
    volumeMax,
    spark: sparkPaths(cols.c),
    buffer,
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * The indices a sparkline draws: all of them when few, else the lowest and highest value of each
 * of `maxPoints / 2` equal buckets, in time order, so peaks and troughs survive.
 */
export function sparkIndices(n: number, values: ArrayLike<number>, maxPoints: number): number[] {
  if (n <= maxPoints) return Array.from({ length: n }, (_, i) => i);
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const out: number[] = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * n) / buckets);
    const to = Math.floor(((b + 1) * n) / buckets);
    let lo = from;
    let hi = from;
    for (let i = from + 1; i < to; i++) {
      if (values[i]! < values[lo]!) lo = i;
      if (values[i]! > values[hi]!) hi = i;
    }
    if (lo === hi) out.push(lo);
    else out.push(Math.min(lo, hi), Math.max(lo, hi));
  }
  return out;
}

/** A line and a closed area under it, in the SPARK_WIDTH × SPARK_HEIGHT box. */
export function sparkPaths(
  values: ArrayLike<number>,
  width = SPARK_WIDTH,
  height = SPARK_HEIGHT,
  maxPoints = width * 2,
): SparkPaths {
  const n = values.length;
  if (n === 0) return { line: '', area: '' };
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const pad = 1;
  const span = max - min;
  const y = (v: number) => round2(span > 0 ? pad + (1 - (v - min) / span) * (height - 2 * pad) : height / 2);
  const x = (i: number) => round2(n === 1 ? 0 : (i / (n - 1)) * width);
  const idx = sparkIndices(n, values, maxPoints);
  let line = '';
  for (let k = 0; k < idx.length; k++) {
    const i = idx[k]!;
    line += `${k === 0 ? 'M' : 'L'}${x(i)},${y(values[i]!)}`;
  }
  const lastX = n === 1 ? width : x(idx[idx.length - 1]!);
  if (n === 1) line += `L${width},${y(values[0]!)}`;
  const area = `${line}L${lastX},${height}L${x(idx[0]!)},${height}Z`;
  return { line, area };
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** Start of the bar a time falls in (UTC, shifted by the exchange's offset). */
export function bucketStart(ts: number, period: Period, offsetMs = 0): number {
  const local = ts + offsetMs;
  switch (period) {
    case '1m':
      return Math.floor(local / MINUTE) * MINUTE - offsetMs;
    case '1d':
      return Math.floor(local / DAY) * DAY - offsetMs;
    case '1wk': {
      const day = Math.floor(local / DAY);
      // 1970-01-01 was a Thursday; weeks start on Monday.
      const weekday = (((day + 3) % 7) + 7) % 7;
      return (day - weekday) * DAY - offsetMs;
    }
    case '1mo': {
      const d = new Date(local);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - offsetMs;
    }
  }
}

/** Finer candles (e.g. days) rolled up into `period` bars: first open, highest high, lowest low, last close, summed volume. */
export function aggregate(cols: Columns, period: Period, offsetMs = 0): Columns {
  const n = cols.t.length;
  const out = zeroColumns(n);
  let k = -1;
  let current = Number.NaN;
  for (let i = 0; i < n; i++) {
    const b = bucketStart(cols.t[i]!, period, offsetMs);
    if (b !== current) {
      k++;
      current = b;
      out.t[k] = b;
      out.o[k] = cols.o[i]!;
      out.h[k] = cols.h[i]!;
      out.l[k] = cols.l[i]!;
      out.v[k] = 0;
    }
    if (cols.h[i]! > out.h[k]!) out.h[k] = cols.h[i]!;
    if (cols.l[i]! < out.l[k]!) out.l[k] = cols.l[i]!;
    out.c[k] = cols.c[i]!;
    out.v[k] = out.v[k]! + cols.v[i]!;
  }
  return sliceColumns(out, 0, k + 1);
}

/**
 * A live price between polls: it moves the last bar's close (and high/low), or opens a new bar when
 * the price belongs to a later one. Older prices change nothing. Returns the same object when
 * nothing changed.
 */
export function applyTick(
  cols: Columns,
  tick: { price: number; asOf: number },
  period: Period,
  offsetMs = 0,
): Columns {
  const n = cols.t.length;
  if (n === 0 || !Number.isFinite(tick.price)) return cols;
  const lastBucket = bucketStart(cols.t[n - 1]!, period, offsetMs);
  const bucket = bucketStart(tick.asOf, period, offsetMs);
  if (bucket < lastBucket) return cols;
  if (bucket === lastBucket) {
    if (tick.price === cols.c[n - 1]) return cols;
    const next = sliceColumns(cols, 0, n);
    next.c[n - 1] = tick.price;
    if (tick.price > next.h[n - 1]!) next.h[n - 1] = tick.price;
    if (tick.price < next.l[n - 1]!) next.l[n - 1] = tick.price;
    return next;
  }
  const grow = (a: Float64Array, value: number) => {
    const b = new Float64Array(n + 1);
    b.set(a);
    b[n] = value;
    return b;
  };
  const open = cols.c[n - 1]!;
  return {
    t: grow(cols.t, bucket),
    o: grow(cols.o, open),
    h: grow(cols.h, Math.max(open, tick.price)),
    l: grow(cols.l, Math.min(open, tick.price)),
    c: grow(cols.c, tick.price),
    v: grow(cols.v, 0),
  };
}
