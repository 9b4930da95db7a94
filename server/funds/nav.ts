import type { FundCategory } from '#shared/funds';
import { PRICE_SCALE } from '#shared/money';
import { dayOfOrdinal, EPOCH_DAY, ordinalOfDay } from '../market/simulator/calendar';
import { MarketContext, S } from '../market/simulator/context';
import { hash, normal, unit } from '../market/simulator/random';
import { isBusinessDay, previousBusinessDay } from './calendar';

/**
 * A fund's NAV history: a function of MARKET_SEED and the fund's facts, the same on every instance
 * and whatever the start time, like the simulator's prices (its counter-based randomness, and its
 * regional daily factor for funds that hold stocks). One NAV per business day from the launch:
 *   log NAV ← log NAV + (μ − σ²/2)·g/365 + σ·√(g/365)·(β·factor + √(1−β²)·own shock)
 * where g is the calendar days since the last NAV (a Monday's NAV carries the weekend's accrual, as
 * a liquid fund's does), μ = log(1 + the category's gross return + the fund's own edge − its
 * expense ratio), σ the category's yearly volatility and β its share of the market's daily move
 * (the region's factor of server/market/simulator/context.ts). NAVs are rounded to 4 decimals
 * (ticks) as AMFI publishes them; the walk itself continues unrounded.
 */

interface CategoryModel {
  /** Yearly return of the portfolio before expenses. */
  gross: number;
  /** Yearly volatility of the NAV. */
  vol: number;
  /** Share of the daily shock that is the market's. */
  beta: number;
  region: 'IN' | 'US';
  /** A fund's own edge over its category: its gross return moved by up to this either way. */
  edge: number;
}

/**
 * Liquid funds: call money and T-bills, about 7 % gross with almost no day-to-day noise; debt and
 * gilt: accrual with duration risk; hybrid and equity: the Indian market's moves; international:
 * the US market's.
 */
const CATEGORY_MODELS: Record<FundCategory, CategoryModel> = {
  liquid: { gross: 0.0695, vol: 0.001, beta: 0, region: 'IN', edge: 0.001 },
  debt: { gross: 0.079, vol: 0.006, beta: 0, region: 'IN', edge: 0.002 },
  gilt: { gross: 0.08, vol: 0.02, beta: 0, region: 'IN', edge: 0.003 },
  hybrid: { gross: 0.11, vol: 0.09, beta: 0.75, region: 'IN', edge: 0.006 },
  equity: { gross: 0.135, vol: 0.18, beta: 0.85, region: 'IN', edge: 0.01 },
  international: { gross: 0.14, vol: 0.22, beta: 0.8, region: 'US', edge: 0.01 },
};

/** What the NAV history depends on: the fund's row. */
export interface NavSpec {
  id: number;
  category: FundCategory;
  expense_ratio_bps: number;
  /** NAV at launch, ticks. */
  nav_base: number;
  /** Days since 1970-01-01; the history starts on this business day or the next (never before 2018-01-01). */
  launched_on: number;
}

export class NavHistory {
  /** The first business day with a NAV (the launch). */
  readonly firstDay: number;
  private readonly k0: number;
  private readonly key: number;
  private readonly drift: number;
  private readonly model: CategoryModel;
  private ticks = new Float64Array(0);
  private n = 0;
  private x = 0;

  constructor(
    spec: NavSpec,
    private readonly ctx: MarketContext,
  ) {
    this.model = CATEGORY_MODELS[spec.category] ?? CATEGORY_MODELS.debt;
    this.k0 = ordinalOfDay(Math.max(EPOCH_DAY, spec.launched_on));
    this.firstDay = dayOfOrdinal(this.k0);
    this.key = hash(ctx.seed, 0x46554e44, spec.id);
    const edge = (2 * unit(hash(this.key, S.Drift)) - 1) * this.model.edge;
    this.drift = Math.log(1 + this.model.gross + edge - spec.expense_ratio_bps / 10_000);
    this.x = Math.log(spec.nav_base / PRICE_SCALE);
  }

  /** NAV of business day `day` (at or after the launch), ticks. */
  on(day: number): number {
    if (!isBusinessDay(day) || day < this.firstDay) throw new RangeError(`no NAV on day ${day}`);
    const idx = ordinalOfDay(day) - this.k0;
    if (idx >= this.n) this.extend(idx + 1);
    return this.ticks[idx]!;
  }

  /** The NAV of the last business day up to `day`, or null before the launch. */
  onOrBefore(day: number): { day: number; ticks: number } | null {
    const d = isBusinessDay(day) ? day : previousBusinessDay(day);
    return d < this.firstDay ? null : { day: d, ticks: this.on(d) };
  }

  private extend(n: number): void {
    if (n > this.ticks.length) {
      const next = new Float64Array(Math.max(n + 64, this.ticks.length * 2));
      next.set(this.ticks.subarray(0, this.n));
      this.ticks = next;
    }
    const { vol, beta, region } = this.model;
    const idio = Math.sqrt(1 - beta * beta);
    let x = this.x;
    for (let idx = this.n; idx < n; idx++) {
      const k = this.k0 + idx;
      if (idx > 0) {
        const years = (dayOfOrdinal(k) - dayOfOrdinal(k - 1)) / 365;
        const shock = beta * this.ctx.factor(region, k) + idio * normal(this.key, S.Nav, k, 0);
        x += (this.drift - (vol * vol) / 2) * years + vol * Math.sqrt(years) * shock;
      }
      this.ticks[idx] = Math.max(1, Math.round(Math.exp(x) * PRICE_SCALE));
    }
    this.x = x;
    this.n = n;
  }
}

const contexts = new Map<number, MarketContext>();
const histories = new Map<string, NavHistory>();
/** Histories kept (a catalogue has a handful; test suites make many funds). */
const MAX_HISTORIES = 256;

/** The NAV history of a fund under a seed (computed once, as far as asked). */
export function navHistory(seed: number, spec: NavSpec): NavHistory {
  const id = `${seed}:${spec.id}:${spec.category}:${spec.expense_ratio_bps}:${spec.nav_base}:${spec.launched_on}`;
  let h = histories.get(id);
  if (!h) {
    let ctx = contexts.get(seed);
    if (!ctx) {
      ctx = new MarketContext(seed);
      contexts.set(seed, ctx);
    }
    h = new NavHistory(spec, ctx);
    if (histories.size >= MAX_HISTORIES) histories.delete(histories.keys().next().value!);
    histories.set(id, h);
  }
  return h;
}

/** A return as a percent with two decimals ("6.81", "-2.40"). */
const percent = (ratio: number): string => (Math.round(ratio * 10_000) / 100).toFixed(2);

/**
 * The compound yearly growth of the NAV over the `years` before `day` (the NAV of the last
 * business day on or before the start), as a percent; null when the fund is younger than that.
 */
export function cagr(h: NavHistory, day: number, years: number): string | null {
  const end = h.onOrBefore(day);
  const start = h.onOrBefore(day - Math.round(365.25 * years));
  if (!end || !start || start.day >= end.day) return null;
  const span = (end.day - start.day) / 365.25;
  if (span < years - 0.02) return null;
  return percent((end.ticks / start.ticks) ** (1 / span) - 1);
}

/** Since launch, yearly, once the fund is a year old; null before. */
export function cagrSinceLaunch(h: NavHistory, day: number): string | null {
  const end = h.onOrBefore(day);
  if (!end || end.day - h.firstDay < 365) return null;
  return percent((end.ticks / h.on(h.firstDay)) ** (365.25 / (end.day - h.firstDay)) - 1);
}

/**
 * The worst and best return over any 365 days of the history up to `day` (rolling one-year
 * returns, a disclosure of how the fund's year can go), percents; null for a fund younger than a year.
 */
export function rollingYear(h: NavHistory, day: number): { min: number; max: number } | null {
  const last = h.onOrBefore(day);
  if (!last) return null;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let d = h.firstDay + 365; d <= last.day; d++) {
    if (!isBusinessDay(d)) continue;
    const start = h.onOrBefore(d - 365)!;
    const r = h.on(d) / start.ticks - 1;
    if (r < min) min = r;
    if (r > max) max = r;
  }
  if (min === Number.POSITIVE_INFINITY) return null;
  return { min: Number(percent(min)), max: Number(percent(max)) };
}
