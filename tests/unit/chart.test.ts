import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CandleRow, Period } from '#shared/contract/market';
import { SPARK_HEIGHT, SPARK_WIDTH } from '#shared/format';
import {
  aggregate,
  applyTick,
  bucketStart,
  type Columns,
  computeChart,
  movingAverage,
  sparkIndices,
  sparkPaths,
  toColumns,
} from '../../workers/chart';
import { chartQuery } from '../../workers/charts';

/*
 * The worker's chart math against plain, obviously-correct reference implementations on random
 * candles: arrays of objects, Date arithmetic, sums recomputed from scratch for every point.
 */

const candle = fc
  .record({
    open: fc.double({ min: 1, max: 5000, noNaN: true }),
    close: fc.double({ min: 1, max: 5000, noNaN: true }),
    wick: fc.double({ min: 0, max: 50, noNaN: true }),
    volume: fc.integer({ min: 0, max: 1_000_000 }),
  })
  .map(({ open, close, wick, volume }) => ({
    open,
    close,
    high: Math.max(open, close) + wick,
    low: Math.max(0.01, Math.min(open, close) - wick),
    volume,
  }));

/** Candles at strictly increasing times, `step` apart with gaps. */
const series = (step: number, maxLength = 300) =>
  fc
    .tuple(
      fc.integer({ min: 1_500_000_000_000, max: 1_800_000_000_000 }),
      fc.array(fc.tuple(candle, fc.integer({ min: 1, max: 3 })), { maxLength }),
    )
    .map(([start, items]) => {
      let t = start;
      return items.map(([c, gap]) => {
        t += gap * step;
        return { timestamp: t, change: 0, ...c } satisfies CandleRow;
      });
    });

const close = (a: number, b: number) =>
  (Number.isNaN(a) && Number.isNaN(b)) || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

function refMa(closes: number[], w: number): number[] {
  return closes.map((_, i) => {
    if (i < w - 1) return Number.NaN;
    let sum = 0;
    for (let k = i - w + 1; k <= i; k++) sum += closes[k]!;
    return sum / w;
  });
}

function refAvg(rows: CandleRow[]): number[] {
  return rows.map((_, i) => {
    const upto = rows.slice(0, i + 1);
    const vol = upto.reduce((s, r) => s + r.volume, 0);
    if (vol > 0) return upto.reduce((s, r) => s + r.close * r.volume, 0) / vol;
    return upto.reduce((s, r) => s + r.close, 0) / upto.length;
  });
}

/** Bar start with Date methods only (no day arithmetic), offset 0. */
function refBucket(ts: number, period: Period): number {
  const d = new Date(ts);
  if (period === '1m')
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes());
  if (period === '1d') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (period === '1mo') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const back = (d.getUTCDay() + 6) % 7; // Monday → 0
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - back);
}

function refAggregate(rows: CandleRow[], period: Period) {
  const groups = new Map<number, CandleRow[]>();
  for (const r of rows) {
    const b = refBucket(r.timestamp, period);
    groups.set(b, [...(groups.get(b) ?? []), r]);
  }
  return [...groups.entries()].map(([t, g]) => ({
    t,
    o: g[0]!.open,
    h: Math.max(...g.map((r) => r.high)),
    l: Math.min(...g.map((r) => r.low)),
    c: g[g.length - 1]!.close,
    v: g.reduce((s, r) => s + r.volume, 0),
  }));
}

const rowsOf = (cols: Columns) =>
  Array.from(cols.t, (t, i) => ({
    t,
    o: cols.o[i]!,
    h: cols.h[i]!,
    l: cols.l[i]!,
    c: cols.c[i]!,
    v: cols.v[i]!,
  }));

describe('chart math', () => {
  it('moving averages 5/10/20, average price, up flags and extents match the reference', () => {
    fc.assert(
      fc.property(series(60_000), (rows) => {
        const chart = computeChart(toColumns(rows));
        const closes = rows.map((r) => r.close);
        expect(chart.n).toBe(rows.length);
        for (const [w, arr] of [
          [5, chart.ma5],
          [10, chart.ma10],
          [20, chart.ma20],
        ] as const) {
          const ref = refMa(closes, w);
          for (const [i, x] of ref.entries()) expect(close(arr[i]!, x), `ma${w}[${i}]`).toBe(true);
        }
        for (const [i, x] of refAvg(rows).entries()) expect(close(chart.avg[i]!, x), `avg[${i}]`).toBe(true);
        rows.forEach((r, i) => {
          expect(chart.up[i]).toBe(r.close >= r.open ? 1 : 0);
          expect(chart.v[i]).toBe(r.volume);
          expect(chart.t[i]).toBe(r.timestamp);
        });
        if (rows.length > 0) {
          expect(chart.priceMin).toBe(Math.min(...rows.map((r) => r.low)));
          expect(chart.priceMax).toBe(Math.max(...rows.map((r) => r.high)));
          expect(chart.volumeMax).toBe(Math.max(...rows.map((r) => r.volume)));
        }
      }),
      { numRuns: 150 },
    );
  });

  it('keeps a long running sum exact enough over 10,000 candles', () => {
    const closes = Float64Array.from(
      { length: 10_000 },
      (_, i) => 1000 + Math.sin(i / 7) * 300 + (i % 13) / 3,
    );
    const fast = movingAverage(closes, 20);
    const ref = refMa([...closes], 20);
    for (let i = 0; i < closes.length; i++) expect(close(fast[i]!, ref[i]!)).toBe(true);
  });

  it('orders unsorted rows and keeps the later of two rows with one timestamp', () => {
    const rows = [
      { timestamp: 3, open: 1, high: 1, low: 1, close: 3, volume: 1, change: 0 },
      { timestamp: 1, open: 1, high: 1, low: 1, close: 1, volume: 1, change: 0 },
      { timestamp: 3, open: 1, high: 1, low: 1, close: 4, volume: 1, change: 0 },
    ];
    const cols = toColumns(rows);
    expect([...cols.t]).toEqual([1, 3]);
    expect([...cols.c]).toEqual([1, 4]);
  });

  it('rolls days into weeks and months like the Date-based reference', () => {
    fc.assert(
      fc.property(series(86_400_000, 400), fc.constantFrom<Period>('1d', '1wk', '1mo'), (rows, period) => {
        const got = rowsOf(aggregate(toColumns(rows), period));
        expect(got).toEqual(refAggregate(rows, period));
      }),
      { numRuns: 120 },
    );
  });

  it('finds bar starts like the Date-based reference for every period', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.constantFrom<Period>('1m', '1d', '1wk', '1mo'),
        (ts, period) => {
          expect(bucketStart(ts, period)).toBe(refBucket(ts, period));
        },
      ),
    );
  });

  it('moves the last bar with a live price, opens a new bar later, ignores older prices', () => {
    fc.assert(
      fc.property(
        series(60_000, 50).filter((r) => r.length > 0),
        fc.double({ min: 1, max: 5000, noNaN: true }),
        fc.integer({ min: -180_000, max: 180_000 }),
        (rows, price, delta) => {
          const cols = toColumns(rows);
          const last = rows[rows.length - 1]!;
          const asOf = last.timestamp + delta;
          const next = rowsOf(applyTick(cols, { price, asOf }, '1m'));
          const before = rowsOf(cols);
          const lastBar = refBucket(last.timestamp, '1m');
          const bar = refBucket(asOf, '1m');
          if (bar < lastBar) expect(next).toEqual(before);
          else if (bar === lastBar) {
            expect(next.slice(0, -1)).toEqual(before.slice(0, -1));
            const b = before[before.length - 1]!;
            expect(next[next.length - 1]).toEqual({
              ...b,
              c: price,
              h: Math.max(b.h, price),
              l: Math.min(b.l, price),
            });
          } else {
            expect(next.slice(0, -1)).toEqual(before);
            expect(next[next.length - 1]).toEqual({
              t: bar,
              o: last.close,
              h: Math.max(last.close, price),
              l: Math.min(last.close, price),
              c: price,
              v: 0,
            });
          }
        },
      ),
    );
  });
});

describe('sparklines', () => {
  const points = (path: string) =>
    [...path.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])] as const);

  function refIndices(values: number[], maxPoints: number): number[] {
    if (values.length <= maxPoints) return values.map((_, i) => i);
    const buckets = Math.floor(maxPoints / 2);
    const out: number[] = [];
    for (let b = 0; b < buckets; b++) {
      const idx: number[] = [];
      for (
        let i = Math.floor((b * values.length) / buckets);
        i < Math.floor(((b + 1) * values.length) / buckets);
        i++
      )
        idx.push(i);
      // First lowest and first highest of the bucket.
      const lo = idx.reduce((a, i) => (values[i]! < values[a]! ? i : a), idx[0]!);
      const hi = idx.reduce((a, i) => (values[i]! > values[a]! ? i : a), idx[0]!);
      out.push(...[...new Set([lo, hi])].sort((a, b) => a - b));
    }
    return out;
  }

  it('decimates to the lowest and highest point of each bucket, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { maxLength: 2000 }),
        fc.integer({ min: 2, max: 400 }),
        (values, maxPoints) => {
          expect(sparkIndices(values.length, values, maxPoints)).toEqual(refIndices(values, maxPoints));
        },
      ),
    );
  });

  it('draws inside the box, from left to right, the highest value on top', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.01, max: 1e5, noNaN: true }), { minLength: 2, maxLength: 800 }),
        (values) => {
          const { line, area } = sparkPaths(values);
          const pts = points(line);
          expect(pts.length).toBe(refIndices(values, SPARK_WIDTH * 2).length);
          expect(pts[0]![0]).toBe(0);
          expect(pts[pts.length - 1]![0]).toBe(SPARK_WIDTH);
          for (let i = 1; i < pts.length; i++) expect(pts[i]![0]).toBeGreaterThanOrEqual(pts[i - 1]![0]);
          for (const [, y] of pts) {
            expect(y).toBeGreaterThanOrEqual(0);
            expect(y).toBeLessThanOrEqual(SPARK_HEIGHT);
          }
          const max = Math.max(...values);
          const min = Math.min(...values);
          if (max > min) {
            const ys = pts.map(([, y]) => y);
            expect(Math.min(...ys)).toBe(1);
            expect(Math.max(...ys)).toBe(SPARK_HEIGHT - 1);
          }
          expect(area.startsWith(line)).toBe(true);
          expect(area.endsWith(`L${SPARK_WIDTH},${SPARK_HEIGHT}L0,${SPARK_HEIGHT}Z`)).toBe(true);
        },
      ),
    );
  });

  it('draws a single value as a flat line and nothing for no values', () => {
    expect(sparkPaths([])).toEqual({ line: '', area: '' });
    expect(points(sparkPaths([5]).line)).toEqual([
      [0, SPARK_HEIGHT / 2],
      [SPARK_WIDTH, SPARK_HEIGHT / 2],
    ]);
  });
});

describe('chart history in low-data mode', () => {
  it('asks for a shorter history of each period but the minute one, and the full one otherwise', () => {
    expect(chartQuery('AAPL', '1d', 'US', true)).toEqual({
      symbol: 'AAPL',
      mold: '1d',
      market: 'US',
      range: '6mo',
    });
    expect(chartQuery('AAPL', '1wk', undefined, true)).toEqual({ symbol: 'AAPL', mold: '1wk', range: '2y' });
    expect(chartQuery('AAPL', '1mo', undefined, true)).toEqual({ symbol: 'AAPL', mold: '1mo', range: '5y' });
    expect(chartQuery('AAPL', '1m', undefined, true)).toEqual({ symbol: 'AAPL', mold: '1m' });
    for (const period of ['1m', '1d', '1wk', '1mo'] as const)
      expect(chartQuery('AAPL', period, undefined, false)).toEqual({ symbol: 'AAPL', mold: period });
  });
});
