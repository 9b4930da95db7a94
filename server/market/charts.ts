import type { CandleRow, Period, Range } from '#shared/contract/market';
import { DAY_MS } from './hours';
import type { Candle, Quote } from './provider';

/** Bars as the chart answers carry them: the rows of a range, their changes, and an index card's sparkline. */

/** Calendar days each range covers, counted back from the last bar. */
const RANGE_DAYS: Record<Range, number> = {
  '1d': 1,
  '5d': 5,
  '1mo': 31,
  '3mo': 92,
  '6mo': 183,
  '1y': 366,
  '2y': 731,
  '5y': 1827,
  '10y': 3653,
  max: Number.POSITIVE_INFINITY,
};
/** The range of a chart asked for without one. */
export const DEFAULT_RANGE: Record<Exclude<Period, '1m'>, Range> = { '1d': '5y', '1wk': 'max', '1mo': 'max' };
/** Points of an index card's sparkline. */
const SPARK_POINTS = 48;

function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/** Candles as rows with their change from the close before (the bar before, or `before`). */
export function candleRows(
  candles: readonly Candle[],
  from: number,
  before: number,
  decimals: number,
): CandleRow[] {
  const rows: CandleRow[] = [];
  let prev = from > 0 ? candles[from - 1]!.c : before;
  for (let i = from; i < candles.length; i++) {
    const c = candles[i]!;
    rows.push({
      timestamp: c.t,
      open: c.o,
      high: c.h,
      low: c.l,
      close: c.c,
      volume: c.v,
      change: roundTo(c.c - prev, decimals),
    });
    prev = c.c;
  }
  return rows;
}

/**
 * The serialised rows of a chart but its live last bar, kept between ticks: a simulated history
 * never changes once made, so only the last bar is serialised again each tick (five years of
 * daily rows are ~150 KiB of JSON, which is most of the cost of an answer).
 */
export class RowsText {
  private cache = new Map<string, { check: string; text: string }>();
  constructor(private readonly max: number) {}

  rows(key: string, candles: readonly Candle[], from: number, before: number, decimals: number): string {
    const n = candles.length;
    if (n - from < 2) return JSON.stringify(candleRows(candles, from, before, decimals));
    const done = candles[n - 2]!;
    const check = `${n}:${from}:${before}:${candles[from]!.t}:${done.t}:${done.c}:${done.v}`;
    let hit = this.cache.get(key);
    if (hit?.check === check) {
      // Most recently used last: the first entry is the one to drop.
      this.cache.delete(key);
    } else {
      const text = JSON.stringify(candleRows(candles.slice(0, n - 1), from, before, decimals)).slice(1, -1);
      hit = { check, text };
      if (this.cache.size >= this.max) this.cache.delete(this.cache.keys().next().value!);
    }
    this.cache.set(key, hit);
    const last = candleRows(candles, n - 1, before, decimals)[0];
    return `[${hit.text},${JSON.stringify(last)}]`;
  }
}

/** The index of the first bar within `range` of the last one. */
export function firstInRange(candles: readonly Candle[], range: Range): number {
  const last = candles.at(-1);
  if (!last || range === 'max') return 0;
  const since = last.t - RANGE_DAYS[range] * DAY_MS;
  let i = candles.length - 1;
  while (i > 0 && candles[i - 1]!.t > since) i--;
  return i;
}

/** The 52-week high and low: today's quote and the daily bars of the year before the last one. */
export function yearHighLow(daily: readonly Candle[], q: Quote, at: number): { high: number; low: number } {
  const since = (daily.at(-1)?.t ?? at) - 365 * DAY_MS;
  let high = q.high;
  let low = q.low;
  for (let i = daily.length - 1; i >= 0 && daily[i]!.t > since; i--) {
    high = Math.max(high, daily[i]!.h);
    low = Math.min(low, daily[i]!.l);
  }
  return { high, low };
}

/** At most SPARK_POINTS closes, thinned from the end so the last point is always the quote. */
export function sparkline(closes: readonly number[], price: number): number[] {
  const step = Math.max(1, Math.ceil(closes.length / SPARK_POINTS));
  const spark: number[] = [];
  for (let i = (closes.length - 1) % step; i < closes.length; i += step) spark.push(closes[i]!);
  return spark.length ? spark : [price];
}
