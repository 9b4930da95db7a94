import { describe, expect, it } from 'vitest';
import {
  FUND_STAMP_PPM,
  parseUnits,
  ppmOf,
  ppmPercentText,
  unitsFor,
  unitsText,
  unitsValue,
} from '#shared/funds';
import { dayOfIso, isoDay, latestNavDay, navDayFor, publishedAt } from '../../server/funds/calendar';
import { cagr, NavHistory, type NavSpec, rollingYear } from '../../server/funds/nav';
import { MarketContext } from '../../server/market/simulator/context';

/** An instant in India: "2026-11-25 14:59" IST. */
const ist = (text: string) => Date.parse(`${text.replace(' ', 'T')}:00+05:30`);

describe('units and NAVs, exactly', () => {
  it('allots units rounded down to the thousandth, and values them HALF_UP', () => {
    // ₹10,000 less 0.005 % stamp duty (₹0.50) at NAV 1,734.0521: 5.766 units (5.76677… down).
    const stamp = ppmOf(1_000_000, FUND_STAMP_PPM);
    expect(stamp).toBe(50);
    const units = unitsFor(1_000_000 - stamp, 17_340_521);
    expect(units).toBe(5766);
    // 5.766 × 1,734.0521 = 9,998.544… → 9,998.54
    expect(unitsValue(units, 17_340_521)).toBe(999_854);
    expect(unitsValue(1, 50_000)).toBe(1); // 0.001 × 5.0000 = 0.005 → 0.01 (HALF_UP)
    expect(unitsValue(1, 49_999)).toBe(0);
  });

  it('writes and reads units and percents without floats', () => {
    expect(unitsText(5766)).toBe('5.766');
    expect(unitsText(5)).toBe('0.005');
    expect(parseUnits('12.5')).toBe(12_500);
    expect(parseUnits('0.125')).toBe(125);
    for (const bad of ['1.2345', '-1', '1e3', '', '.5', '1,5']) expect(parseUnits(bad), bad).toBeNull();
    expect(ppmPercentText(10_000)).toBe('1');
    expect(ppmPercentText(70)).toBe('0.007');
    expect(ppmPercentText(2500)).toBe('0.25');
  });
});

describe('the fund calendar (IST, cut-off 15:00, NAV published 21:00)', () => {
  it('gives an order the NAV of its business day before the cut-off, else the next business day’s', () => {
    expect(isoDay(navDayFor(ist('2026-11-25 14:59')))).toBe('2026-11-25');
    expect(isoDay(navDayFor(ist('2026-11-25 15:00')))).toBe('2026-11-26');
    expect(isoDay(navDayFor(ist('2026-11-27 16:00')))).toBe('2026-11-30'); // Friday → Monday
    expect(isoDay(navDayFor(ist('2026-11-28 10:00')))).toBe('2026-11-30'); // Saturday → Monday
  });

  it('publishes a business day’s NAV at 21:00 IST', () => {
    expect(isoDay(latestNavDay(ist('2026-11-25 20:59')))).toBe('2026-11-24');
    expect(isoDay(latestNavDay(ist('2026-11-25 21:00')))).toBe('2026-11-25');
    expect(isoDay(latestNavDay(ist('2026-11-30 10:00')))).toBe('2026-11-27'); // Monday morning: Friday's
    expect(publishedAt(dayOfIso('2026-11-25'))).toBe(ist('2026-11-25 21:00'));
  });
});

describe('NAV history', () => {
  const spec: NavSpec = {
    id: 7,
    category: 'liquid',
    expense_ratio_bps: 20,
    nav_base: 10_000_000,
    launched_on: dayOfIso('2018-01-02'),
  };
  const day = dayOfIso('2026-11-25');

  it('is a function of the seed: the same in any order of asking, another for another seed or fund', () => {
    const a = new NavHistory(spec, new MarketContext(20260101));
    const b = new NavHistory(spec, new MarketContext(20260101));
    // b is asked from the end first; every NAV comes out the same.
    expect(b.on(day)).toBe(a.on(day));
    for (let d = a.firstDay; d <= day; d += 37) {
      const nav = a.onOrBefore(d)!;
      expect(b.onOrBefore(d)).toEqual(nav);
    }
    expect(a.on(a.firstDay)).toBe(10_000_000);
    expect(new NavHistory(spec, new MarketContext(7)).on(day)).not.toBe(a.on(day));
    expect(new NavHistory({ ...spec, id: 8 }, new MarketContext(20260101)).on(day)).not.toBe(a.on(day));
  });

  it('a liquid fund grows about 6.5–7 % a year, almost never down a day; an equity fund moves like equity', () => {
    const liquid = new NavHistory(spec, new MarketContext(20260101));
    expect(Number(cagr(liquid, day, 1))).toBeGreaterThan(6.4);
    expect(Number(cagr(liquid, day, 1))).toBeLessThan(7.1);
    const range = rollingYear(liquid, day)!;
    expect(range.min).toBeGreaterThan(6.3);
    expect(range.max).toBeLessThan(7.3);
    const equity = new NavHistory(
      { ...spec, category: 'equity', nav_base: 100_000 },
      new MarketContext(20260101),
    );
    let downs = 0;
    let days = 0;
    let biggest = 0;
    for (let d = equity.firstDay + 1; d <= day; d++) {
      const today = equity.onOrBefore(d)!;
      if (today.day !== d) continue;
      const before = equity.onOrBefore(d - 1)!;
      const move = today.ticks / before.ticks - 1;
      days++;
      if (move < 0) downs++;
      biggest = Math.max(biggest, Math.abs(move));
    }
    // Roughly half the days down, and days of several percent.
    expect(downs / days).toBeGreaterThan(0.4);
    expect(biggest).toBeGreaterThan(0.03);
    expect(cagr(equity, dayOfIso('2019-06-01'), 3)).toBeNull(); // not three years old then
  });
});
