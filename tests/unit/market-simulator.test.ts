import { describe, expect, it } from 'vitest';
import { PRICE_SCALE, priceToTicks } from '#shared/money';
import { DAY_MS } from '../../server/market/hours';
import type { Candle, MarketProvider } from '../../server/market/provider';
import { createSimulator } from '../../server/market/simulator/index';
import { UNIVERSE } from '../../server/market/universe';

/** A simulator on a hand-driven clock. */
function sim(seed: number, at: number): { m: MarketProvider; set(t: number): void } {
  let now = at;
  return {
    m: createSimulator({ seed, tickMs: 1000, now: () => now }),
    set(t) {
      now = t;
    },
  };
}

const SEED = 20260101;
const utc = (iso: string) => Date.parse(iso);
/** Wednesday 2026-11-18, 11:00:30 IST: NSE open, US closed, forex open. */
const NSE_LIVE = utc('2026-11-18T05:30:30Z');
/** Saturday 00:30 UTC: Friday's sessions have all closed (NSE, US, FX, CME) and none has opened. */
const ALL_DONE = utc('2026-11-21T00:30:00Z');

/** Groups daily candles by a key, independently of the code under test. */
function groupBy(daily: readonly Candle[], key: (t: number) => string): Candle[] {
  const out: Candle[] = [];
  let last = '';
  for (const d of daily) {
    const k = key(d.t);
    const cur = out.at(-1);
    if (cur && k === last) {
      cur.h = Math.max(cur.h, d.h);
      cur.l = Math.min(cur.l, d.l);
      cur.c = d.c;
      cur.v += d.v;
    } else out.push({ ...d });
    last = k;
  }
  return out;
}

function aggregateOf(bars: readonly Candle[]): Omit<Candle, 't'> {
  return {
    o: bars[0]!.o,
    h: Math.max(...bars.map((b) => b.h)),
    l: Math.min(...bars.map((b) => b.l)),
    c: bars.at(-1)!.c,
    v: bars.reduce((s, b) => s + b.v, 0),
  };
}

describe('simulator determinism', () => {
  it('the same seed gives the same quotes and the same history for every instrument', () => {
    const a = sim(SEED, NSE_LIVE).m;
    const b = sim(SEED, NSE_LIVE).m;
    expect(a.instruments().length).toBeGreaterThan(100);
    for (const ins of a.instruments()) {
      expect(b.quote(ins.symbol), ins.symbol).toEqual(a.quote(ins.symbol));
    }
    for (const symbol of ['RELIANCE.NS', 'AAPL', '^NSEI', 'EURUSD=X', 'GC=F', 'ZN=F']) {
      expect(b.candles(symbol, '1d')).toEqual(a.candles(symbol, '1d'));
      expect(b.candles(symbol, '1m')).toEqual(a.candles(symbol, '1m'));
    }
  });

  it('history does not depend on when the server started or how often it ticked', () => {
    // One server started three days earlier and ticked through a minute second by second,
    // the other starts at the end: they agree on everything.
    const early = sim(SEED, NSE_LIVE - 3 * DAY_MS);
    early.m.quote('RELIANCE.NS');
    for (let t = NSE_LIVE - 60_000; t <= NSE_LIVE; t += 1000) {
      early.set(t);
      early.m.sync();
    }
    const late = sim(SEED, NSE_LIVE).m;
    for (const symbol of ['RELIANCE.NS', 'TCS.NS', '^NSEI', 'USDINR=X']) {
      expect(early.m.quote(symbol)).toEqual(late.quote(symbol));
      expect(early.m.candles(symbol, '1m')).toEqual(late.candles(symbol, '1m'));
      expect(early.m.candles(symbol, '1d')).toEqual(late.candles(symbol, '1d'));
    }
  });

  it('paths built on the ticks before an open are the ones a jump to the open builds', () => {
    const open = utc('2026-11-18T03:45:00Z');
    const ticking = sim(SEED, open - 60_000);
    for (let t = open - 60_000; t <= open + 90_000; t += 1000) {
      ticking.set(t);
      ticking.m.sync();
    }
    const jumping = sim(SEED, open + 90_000).m;
    for (const ins of jumping.instruments().filter((i) => i.schedule === 'NSE')) {
      expect(ticking.m.quote(ins.symbol), ins.symbol).toEqual(jumping.quote(ins.symbol));
      expect(ticking.m.candles(ins.symbol, '1m'), ins.symbol).toEqual(jumping.candles(ins.symbol, '1m'));
    }
  });

  it('another seed gives another market', () => {
    const a = sim(SEED, NSE_LIVE).m;
    const b = sim(SEED + 1, NSE_LIVE).m;
    expect(b.quote('RELIANCE.NS')!.price).not.toBe(a.quote('RELIANCE.NS')!.price);
    expect(b.candles('AAPL', '1d').map((c) => c.c)).not.toEqual(a.candles('AAPL', '1d').map((c) => c.c));
  });
});

describe('simulator history and consistency', () => {
  const { m } = sim(SEED, NSE_LIVE);

  it('has at least five years of weekday daily bars with volume, oldest first', () => {
    for (const ins of m.instruments()) {
      const daily = m.candles(ins.symbol, '1d');
      expect(daily.length, ins.symbol).toBeGreaterThanOrEqual(5 * 252);
      expect(daily[0]!.t).toBeLessThan(NSE_LIVE - 5 * 365 * DAY_MS);
      const bad = daily.filter(
        (d, i) =>
          (i > 0 && d.t <= daily[i - 1]!.t) ||
          d.l > Math.min(d.o, d.c) ||
          d.h < Math.max(d.o, d.c) ||
          d.l <= 0 ||
          d.v < 0 ||
          [0, 6].includes(new Date(d.t + 6 * 3600_000).getUTCDay()),
      );
      expect(bad, ins.symbol).toEqual([]);
      expect(
        daily.reduce((s, d) => s + d.v, 0),
        ins.symbol,
      ).toBeGreaterThan(0);
    }
  });

  it('one decimals rule per instrument kind (and market): a list’s price column reads at one precision', () => {
    const byKind = new Map<string, Set<number>>();
    for (const ins of UNIVERSE) {
      const key = `${ins.kind} ${ins.market}`;
      byKind.set(key, (byKind.get(key) ?? new Set()).add(ins.decimals));
    }
    expect(byKind.size).toBeGreaterThanOrEqual(5);
    expect([...byKind].filter(([, d]) => d.size > 1).map(([k, d]) => `${k}: ${[...d]}`)).toEqual([]);
  });

  it('every price has at most 4 decimals, so the money code sees exactly the quoted price', () => {
    for (const ins of m.instruments()) {
      const q = m.quote(ins.symbol)!;
      expect(ins.decimals).toBeLessThanOrEqual(4);
      for (const p of [q.price, q.open, q.high, q.low, q.prevClose]) {
        expect(priceToTicks(p) / PRICE_SCALE, ins.symbol).toBe(p);
      }
    }
  });

  it('quote = last 1-minute close = today’s daily close, and today’s daily bar aggregates the minutes', () => {
    for (const ins of m.instruments()) {
      const q = m.quote(ins.symbol)!;
      const minutes = m.candles(ins.symbol, '1m');
      const daily = m.candles(ins.symbol, '1d');
      const today = daily.at(-1)!;
      expect(minutes.at(-1)!.c, ins.symbol).toBe(q.price);
      expect(today.c, ins.symbol).toBe(q.price);
      expect({ o: today.o, h: today.h, l: today.l, c: today.c, v: today.v }, ins.symbol).toEqual(
        aggregateOf(minutes),
      );
      expect([q.open, q.high, q.low, q.volume]).toEqual([today.o, today.h, today.l, today.v]);
      expect(q.prevClose).toBe(daily.at(-2)!.c);
      expect(q.change).toBeCloseTo(q.price - q.prevClose, 8);
    }
  });

  it('the NSE session is live mid-morning: minute bars up to now, ending in a partial bar', () => {
    const minutes = m.candles('RELIANCE.NS', '1m');
    // 09:15 → 11:00:30 IST is 105 whole minutes and the running one.
    expect(minutes).toHaveLength(106);
    expect(minutes[0]!.t).toBe(utc('2026-11-18T03:45:00Z'));
    expect(minutes.at(-1)!.t).toBe(utc('2026-11-18T05:30:00Z'));
    expect(m.quote('RELIANCE.NS')!.asOf).toBe(NSE_LIVE);
  });

  it('weekly and monthly bars aggregate the daily bars by calendar week and month', () => {
    for (const symbol of ['RELIANCE.NS', 'AAPL', 'EURUSD=X', 'GC=F']) {
      const daily = m.candles(symbol, '1d');
      const tz =
        symbol === 'GC=F' || symbol === 'AAPL' ? -5 * 3600_000 : symbol.endsWith('.NS') ? 5.5 * 3600_000 : 0;
      const local = (t: number) => new Date(t + tz + 6 * 3600_000);
      const weekOf = (t: number) => {
        const d = local(t);
        const monday =
          Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * DAY_MS;
        return String(monday);
      };
      const monthOf = (t: number) => `${local(t).getUTCFullYear()}-${local(t).getUTCMonth()}`;
      expect(m.candles(symbol, '1wk'), symbol).toEqual(groupBy(daily, weekOf));
      expect(m.candles(symbol, '1mo'), symbol).toEqual(groupBy(daily, monthOf));
      const monthly = m.candles(symbol, '1mo');
      expect(monthly.reduce((s, c) => s + c.v, 0)).toBe(daily.reduce((s, c) => s + c.v, 0));
      expect(monthly.at(-1)!.c).toBe(m.quote(symbol)!.price);
    }
  });
});

describe('simulator sessions', () => {
  it('a finished session’s minutes aggregate exactly to the daily bar it keeps the next day', () => {
    const s = sim(SEED, ALL_DONE);
    const seen = new Map<string, Candle>();
    for (const ins of s.m.instruments()) {
      const minutes = s.m.candles(ins.symbol, '1m');
      const agg = aggregateOf(minutes);
      const today = s.m.candles(ins.symbol, '1d').at(-1)!;
      expect({ o: today.o, h: today.h, l: today.l, c: today.c, v: today.v }, ins.symbol).toEqual(agg);
      seen.set(ins.symbol, today);
    }
    // Days later that day is history, served from the daily model: the same bar.
    s.set(ALL_DONE + 3 * DAY_MS);
    for (const ins of s.m.instruments()) {
      const daily = s.m.candles(ins.symbol, '1d');
      const friday = seen.get(ins.symbol)!;
      expect(
        daily.find((d) => d.t === friday.t),
        ins.symbol,
      ).toEqual(friday);
      expect(daily.at(-1)!.t).toBeGreaterThan(friday.t);
    }
  });

  it('second by second, the price stays inside its minute bar and the minute closes as it ends', () => {
    const start = utc('2026-11-18T05:30:00Z');
    const s = sim(SEED, start);
    const prices: number[] = [];
    let dayHigh = 0;
    for (let t = start; t < start + 60_000; t += 1000) {
      s.set(t);
      const q = s.m.quote('INFY.NS')!;
      const bar = s.m.candles('INFY.NS', '1m').at(-1)!;
      expect(bar.t).toBe(start);
      expect(q.price).toBeGreaterThanOrEqual(bar.l);
      expect(q.price).toBeLessThanOrEqual(bar.h);
      expect(q.high).toBeGreaterThanOrEqual(dayHigh);
      dayHigh = q.high;
      prices.push(q.price);
    }
    const atEnd = s.m.candles('INFY.NS', '1m').at(-1)!;
    expect(atEnd.h).toBe(Math.max(...prices, atEnd.o));
    expect(atEnd.l).toBe(Math.min(...prices, atEnd.o));
    expect(new Set(prices).size).toBeGreaterThan(5);
    s.set(start + 61_000);
    const after = s.m.candles('INFY.NS', '1m');
    expect(after.at(-2)).toEqual(atEnd);
    expect(after.at(-1)!.o).toBe(atEnd.c);
  });

  it('a closed market keeps its last price, and prices move on the next session', () => {
    const saturday = utc('2026-11-21T12:00:00Z');
    const s = sim(SEED, saturday);
    const friday = s.m.quote('AAPL')!;
    expect(friday.asOf).toBe(utc('2026-11-20T20:59:59Z'));
    s.set(saturday + 3600_000);
    expect(s.m.quote('AAPL')).toEqual(friday);
    expect(s.m.candles('AAPL', '1m').at(-1)!.t).toBe(utc('2026-11-20T20:59:00Z'));
    s.set(utc('2026-11-23T15:00:00Z'));
    const monday = s.m.quote('AAPL')!;
    expect(monday.prevClose).toBe(friday.price);
    expect(s.m.candles('AAPL', '1m')).toHaveLength(31);
  });

  it('an IPO is not listed until its listing date, and its history starts there', () => {
    const s = sim(SEED, NSE_LIVE);
    const ipo = UNIVERSE.find((u) => u.ipo && u.symbol.endsWith('.NS'))!;
    expect(s.m.instrument(ipo.symbol)).toBeUndefined();
    expect(s.m.quote(ipo.symbol)).toBeUndefined();
    s.m.setListing(ipo.symbol, NSE_LIVE + 2 * DAY_MS);
    expect(s.m.quote(ipo.symbol)).toBeUndefined();
    expect(s.m.instruments().some((i) => i.symbol === ipo.symbol)).toBe(false);
    s.set(NSE_LIVE + 2 * DAY_MS + 1000);
    expect(s.m.quote(ipo.symbol)).toBeDefined();
    expect(s.m.instruments().some((i) => i.symbol === ipo.symbol)).toBe(true);
    expect(s.m.candles(ipo.symbol, '1d')).toHaveLength(1);
    s.set(NSE_LIVE + 9 * DAY_MS);
    const daily = s.m.candles(ipo.symbol, '1d');
    expect(daily).toHaveLength(6);
    expect(daily.at(-1)!.c).toBe(s.m.quote(ipo.symbol)!.price);
  });
});
