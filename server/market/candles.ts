import { DAY_MS } from './hours';
import type { Candle } from './provider';

/**
 * Daily bars → weekly (Monday-based) or monthly bars of the trading calendar: open of the first
 * day, highest high, lowest low, close of the last day, summed volume, stamped with the first day.
 * `dayOf` gives a bar's local trading date (days since 1970-01-01).
 */
export function aggregate(
  daily: readonly Candle[],
  period: '1wk' | '1mo',
  dayOf: (t: number) => number,
): Candle[] {
  const out: Candle[] = [];
  let key = Number.NaN;
  let bar: Candle | null = null;
  for (const d of daily) {
    const day = dayOf(d.t);
    // 1970-01-05 (day 4) was a Monday.
    const k = period === '1wk' ? Math.floor((day - 4) / 7) : monthKey(day);
    if (bar && k === key) {
      if (d.h > bar.h) bar.h = d.h;
      if (d.l < bar.l) bar.l = d.l;
      bar.c = d.c;
      bar.v += d.v;
    } else {
      bar = { t: d.t, o: d.o, h: d.h, l: d.l, c: d.c, v: d.v };
      out.push(bar);
      key = k;
    }
  }
  return out;
}

function monthKey(day: number): number {
  const date = new Date(day * DAY_MS);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}
