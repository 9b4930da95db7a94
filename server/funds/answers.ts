import type { Kysely, Selectable } from 'kysely';
import type { ReqOf } from '#shared/contract/define';
import type { Fund, FundNav, FundOrder } from '#shared/contract/funds';
import type { contract } from '#shared/contract/index';
import { type NavRange, navText, ppmPercentText, unitsText, unitsValue } from '#shared/funds';
import { fromMinor } from '#shared/money';
import type { DB, FundOrdersTable, FundsTable } from '../db/schema';
import type { Deps } from '../deps';
import { notFound } from '../lib/errors';
import {
  cutoffOf,
  isBusinessDay,
  isoDay,
  latestNavDay,
  navDayFor,
  previousBusinessDay,
  publishedAt,
} from './calendar';
import { cagr, cagrSinceLaunch, type NavHistory, navHistory, rollingYear } from './nav';

/** The answers of src/shared/contract/funds.ts, from the funds' rows and their NAV histories. */

/** SPEC's window of the return range (`min_return`/`max_return`): a year. */
const RANGE_DAYS = 365;

type FundRow = Selectable<FundsTable>;

export function historyOf(deps: Deps, fund: FundRow): NavHistory {
  return navHistory(deps.config.market.seed, fund);
}

/**
 * The fund's latest published NAV: the row's (the NAV job writes it when a day's NAV is
 * published), or, before the job has run once for a new row, the history's at the same instant.
 */
function publishedNav(deps: Deps, fund: FundRow): { day: number; ticks: number } {
  if (fund.nav !== null && fund.nav_day !== null) return { day: fund.nav_day, ticks: Number(fund.nav) };
  const h = historyOf(deps, fund);
  return h.onOrBefore(latestNavDay(deps.clock.now())) ?? { day: h.firstDay, ticks: h.on(h.firstDay) };
}

/** The NAV day an order placed at `at` gets: the next NAV, never one before the fund's launch. */
export function orderNavDay(h: NavHistory, at: number): number {
  return Math.max(navDayFor(at), h.firstDay);
}

interface Stats {
  change: string | null;
  y1: string | null;
  y3: string | null;
  since: string | null;
  rolling: { min: number; max: number } | null;
}
/** Figures of a history at its latest day, computed once per day (the rolling range reads it all). */
const statsMemo = new WeakMap<NavHistory, { day: number; stats: Stats }>();

function statsOf(h: NavHistory, day: number, ticks: number): Stats {
  const memo = statsMemo.get(h);
  if (memo?.day === day) return memo.stats;
  const prev = day > h.firstDay ? h.onOrBefore(previousBusinessDay(day)) : null;
  const stats: Stats = {
    change: prev ? percentChange(prev.ticks, ticks) : null,
    y1: cagr(h, day, 1),
    y3: cagr(h, day, 3),
    since: cagrSinceLaunch(h, day),
    rolling: rollingYear(h, day),
  };
  statsMemo.set(h, { day, stats });
  return stats;
}

const percentChange = (from: number, to: number): string =>
  (Math.round((to / from - 1) * 10_000) / 100).toFixed(2);

export function toFund(deps: Deps, f: FundRow): Fund {
  const h = historyOf(deps, f);
  const nav = publishedNav(deps, f);
  const stats = statsOf(h, nav.day, nav.ticks);
  const next = orderNavDay(h, deps.clock.now());
  return {
    id: f.id,
    name: f.name,
    min_return: stats.rolling?.min ?? null,
    max_return: stats.rolling?.max ?? null,
    investment_period: RANGE_DAYS,
    amount: fromMinor(Number(f.amount)),
    issue_amount: fromMinor(0),
    sold_amount: fromMinor(0),
    status: f.status,
    manager: f.manager,
    risk: f.risk === null ? null : Number(f.risk),
    category: f.category,
    nav: navText(nav.ticks),
    nav_date: isoDay(nav.day),
    nav_change: stats.change,
    returns: { y1: stats.y1, y3: stats.y3, since_launch: stats.since },
    expense_ratio: fromMinor(f.expense_ratio_bps),
    exit_load:
      f.exit_load_ppm > 0 && f.exit_load_days > 0
        ? { percent: ppmPercentText(f.exit_load_ppm), days: f.exit_load_days }
        : null,
    launched_on: isoDay(h.firstDay),
    next_nav: { date: isoDay(next), cutoff_at: cutoffOf(next), published_by: publishedAt(next) },
  };
}

/** The funds on the list (`fundList`), in catalogue order. */
export async function fundList(deps: Deps, db: Kysely<DB>): Promise<{ rows: Fund[]; count: number }> {
  const rows = await db.selectFrom('funds').selectAll().orderBy('id').execute();
  return { rows: rows.map((f) => toFund(deps, f)), count: rows.length };
}

const RANGE_START: Record<NavRange, number | null> = {
  '1m': 30,
  '6m': 182,
  '1y': 365,
  '3y': 1096,
  all: null,
};
/** At most about this many points a chart (a weekly NAV beyond a year). */
const MAX_POINTS = 300;

/** A fund's NAV history over a range (`fundNav`). */
export async function fundNav(
  deps: Deps,
  db: Kysely<DB>,
  input: ReqOf<typeof contract.fundNav>,
): Promise<FundNav> {
  const fund = await db.selectFrom('funds').selectAll().where('id', '=', input.id).executeTakeFirst();
  if (!fund) throw notFound();
  const range = input.range ?? '1y';
  const h = historyOf(deps, fund);
  const last = publishedNav(deps, fund).day;
  const back = RANGE_START[range];
  const first = back === null ? h.firstDay : Math.max(h.firstDay, last - back);
  const days: number[] = [];
  for (let d = first; d <= last; d++) if (isBusinessDay(d)) days.push(d);
  const step = Math.max(1, Math.ceil(days.length / MAX_POINTS));
  const picked = days.filter((_, i) => (days.length - 1 - i) % step === 0);
  const points = picked.map((d) => ({ date: isoDay(d), nav: h.on(d) / 10_000 }));
  const from = picked[0];
  const to = picked.at(-1);
  return {
    id: fund.id,
    range,
    points,
    change:
      from !== undefined && to !== undefined && from !== to ? percentChange(h.on(from), h.on(to)) : null,
  };
}

type FundOf = Pick<FundRow, 'name'> & { min_return: number | null; max_return: number | null };

export function toFundOrder(o: Selectable<FundOrdersTable>, fund: FundOf, now: number): FundOrder {
  const units = o.units === null ? null : Number(o.units);
  const nav = o.nav === null ? null : Number(o.nav);
  const term = o.side === 'term';
  return {
    id: o.id,
    fund_id: o.fund_id,
    side: o.side,
    amount: fromMinor(Number(o.amount)),
    expected_return: term ? o.expected_return / 100 : null,
    status: o.status,
    end_time: Number(o.end_time),
    created_at: Number(o.created_at),
    profit: o.profit === null ? null : fromMinor(Number(o.profit)),
    units: units === null ? null : unitsText(units),
    nav: nav === null ? null : navText(nav),
    nav_date: isoDay(o.nav_day),
    value: units !== null && nav !== null ? fromMinor(unitsValue(units, nav)) : null,
    stamp_duty: fromMinor(Number(o.stamp_duty)),
    exit_load: fromMinor(Number(o.exit_load)),
    stt: fromMinor(Number(o.stt)),
    cancel_until: !term && o.status === 'active' && now < cutoffOf(o.nav_day) ? cutoffOf(o.nav_day) : null,
    project: {
      name: fund.name,
      investment_period: RANGE_DAYS,
      min_return: fund.min_return,
      max_return: fund.max_return,
    },
  };
}

/** The caller's fund orders (`fundOrders`), of one status if asked, newest first. */
export async function fundOrders(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.fundOrders>,
): Promise<{ rows: FundOrder[] }> {
  const rows = await db
    .selectFrom('fund_orders')
    .selectAll()
    .where('user_id', '=', userId)
    .$if(input.status !== undefined, (q) => q.where('status', '=', input.status!))
    .orderBy('id', 'desc')
    .limit(500)
    .execute();
  const funds = new Map<number, FundOf>();
  const ids = [...new Set(rows.map((r) => r.fund_id))];
  if (ids.length) {
    for (const f of await db.selectFrom('funds').selectAll().where('id', 'in', ids).execute()) {
      const fund = toFund(deps, f);
      funds.set(f.id, { name: f.name, min_return: fund.min_return, max_return: fund.max_return });
    }
  }
  const now = deps.clock.now();
  return { rows: rows.map((r) => toFundOrder(r, funds.get(r.fund_id)!, now)) };
}
