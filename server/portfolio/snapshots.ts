import type { HistoryRange, PortfolioHistory } from '#shared/contract/portfolio';
import { fromMinor } from '#shared/money';
import { hotReads } from '../db/hot';
import type { Deps } from '../deps';
import type { Job } from '../jobs/job';
import { dayStart, localDay } from '../market/hours';
import { bookOf } from './book';
import { heldOf } from './held';
import { percentOf } from './valuation';

/**
 * Daily valuation snapshots: the `portfolio:snapshot` job values every user at the server's
 * quotes and writes today's row (India calendar day, the account's market); through the day the
 * row is rewritten, so once the day is over it keeps that day's last valuation. The value chart
 * draws these days and then the total now.
 */

/** The account's calendar: India time, like its financial year. */
const CALENDAR = 'NSE' as const;
const today = (at: number) => localDay(CALENDAR, at);

/** Users valued per page of the job, by id. */
const PAGE = 200;

/** Values one user now: the hero's total (user info's), its holdings line, cash and cost. */
async function valuation(deps: Deps, userId: number) {
  const rows = await hotReads(deps.database).userInfo(userId);
  if (!rows) return undefined;
  const held = heldOf(deps, rows);
  const book = bookOf(rows.user, rows.orders, held);
  return {
    total: book.total,
    cash: book.available,
    holdings: book.holdings,
    invested: held.reduce((sum, h) => sum + h.invested, 0),
  };
}

/** One pass: today's row of every user who has anything. Idempotent; the clock decides the day. */
async function snapshotAll(deps: Deps): Promise<number> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const day = today(now);
  let written = 0;
  let after = 0;
  for (;;) {
    const users = await db
      .selectFrom('users')
      .select('id')
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    for (const { id } of users) {
      const v = await valuation(deps, id);
      // An account that never held anything has nothing to chart.
      if (!v || (v.total === 0 && v.invested === 0)) continue;
      await db
        .insertInto('portfolio_snapshots')
        .values({ user_id: id, day, ...v, updated_at: now })
        .onConflict((oc) => oc.columns(['user_id', 'day']).doUpdateSet({ ...v, updated_at: now }))
        .execute();
      written++;
    }
    if (users.length < PAGE) return written;
    after = users[users.length - 1]!.id;
  }
}

const RANGE_DAYS: Record<Exclude<HistoryRange, 'ALL'>, number> = { '1W': 7, '1M': 30, '1Y': 365 };

/** The chart's points: each snapshot day of the range before today, then the total now. */
export async function portfolioHistory(
  deps: Deps,
  userId: number,
  range: HistoryRange,
): Promise<PortfolioHistory> {
  const now = deps.clock.now();
  const day = today(now);
  const from = range === 'ALL' ? 0 : day - RANGE_DAYS[range];
  const rows = await deps.database.db
    .selectFrom('portfolio_snapshots')
    .select(['day', 'total'])
    .where('user_id', '=', userId)
    .where('day', '>=', from)
    .where('day', '<', day)
    .orderBy('day')
    .execute();
  const live = (await valuation(deps, userId))?.total ?? 0;
  const points = [
    ...rows.map((r) => ({ t: dayStart(CALENDAR, r.day), total: r.total })),
    { t: now, total: live },
  ];
  const first = points[0]!.total;
  return {
    points: points.map((p) => ({ t: p.t, total: fromMinor(p.total) })),
    change: fromMinor(live - first),
    change_percent: percentOf(live - first, first),
    as_of: now,
  };
}

/** Every 5 minutes: a day's row ends within 5 minutes of its last valuation. */
export const portfolioJobs: Job[] = [
  {
    name: 'portfolio:snapshot',
    everyMs: 5 * 60_000,
    async run(deps) {
      await snapshotAll(deps);
    },
  },
];
