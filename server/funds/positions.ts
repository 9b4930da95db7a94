import type { Kysely } from 'kysely';
import type { FundPosition, FundPositions } from '#shared/contract/funds';
import { navText, unitsText, unitsValue } from '#shared/funds';
import { fromMinor } from '#shared/money';
import type { DB } from '../db/schema';
import { isoDay } from './calendar';

/**
 * A user's funds at the latest published NAVs (the NAV job writes them to `funds`): units held,
 * their value (units × NAV, HALF_UP, exactly as the user-info total counts it, server/db/hot.ts),
 * their cost, and the purchases paid and still waiting for their NAV. The hero's Funds line is
 * `totalMinor` = value + pending: money in a fund, whether its units are allotted yet or not.
 */
export interface FundHoldings {
  rows: Array<{
    fundId: number;
    name: string;
    category: FundPosition['category'];
    units: number;
    reservedUnits: number;
    navTicks: number;
    navDay: number;
    valueMinor: number;
    investedMinor: number;
    pendingMinor: number;
  }>;
  valueMinor: number;
  investedMinor: number;
  pendingMinor: number;
  totalMinor: number;
}

/** The figures in minor units: what a server module adds up (the portfolio's hero). */
export async function fundHoldings(db: Kysely<DB>, userId: number): Promise<FundHoldings> {
  // One statement, so one snapshot: a purchase struck meanwhile is counted once, as units or as pending.
  const found = await db
    .selectFrom('funds as f')
    .leftJoin('fund_positions as p', (join) =>
      join.onRef('p.fund_id', '=', 'f.id').on('p.user_id', '=', userId),
    )
    .select((eb) => [
      'f.id',
      'f.name',
      'f.category',
      'f.nav',
      'f.nav_day',
      'p.units',
      'p.reserved_units',
      'p.invested',
      eb
        .selectFrom('fund_orders as o')
        .select((inner) => inner.fn.coalesce(inner.fn.sum<number | string>('o.amount'), inner.lit(0)).as('n'))
        .whereRef('o.fund_id', '=', 'f.id')
        .where('o.user_id', '=', userId)
        .where('o.side', '=', 'buy')
        .where('o.status', '=', 'active')
        .as('pending'),
    ])
    .orderBy('f.id')
    .execute();
  const list: FundHoldings['rows'] = [];
  for (const r of found) {
    const units = Number(r.units ?? 0);
    const pendingMinor = Number(r.pending ?? 0);
    if (units === 0 && pendingMinor === 0) continue;
    const navTicks = Number(r.nav ?? 0);
    list.push({
      fundId: r.id,
      name: r.name,
      category: r.category,
      units,
      reservedUnits: Number(r.reserved_units ?? 0),
      navTicks,
      navDay: Number(r.nav_day ?? 0),
      valueMinor: unitsValue(units, navTicks),
      investedMinor: Number(r.invested ?? 0),
      pendingMinor,
    });
  }
  const sum = (pick: (r: FundHoldings['rows'][number]) => number) => list.reduce((s, r) => s + pick(r), 0);
  const valueMinor = sum((r) => r.valueMinor);
  const pendingMinor = sum((r) => r.pendingMinor);
  return {
    rows: list,
    valueMinor,
    investedMinor: sum((r) => r.investedMinor),
    pendingMinor,
    totalMinor: valueMinor + pendingMinor,
  };
}

/** The same as the contract answers it (`fundPositions`). */
export async function fundPositions(db: Kysely<DB>, userId: number): Promise<FundPositions> {
  const h = await fundHoldings(db, userId);
  return {
    rows: h.rows.map((r) => ({
      fund_id: r.fundId,
      name: r.name,
      category: r.category,
      units: unitsText(r.units),
      free_units: unitsText(r.units - r.reservedUnits),
      nav: navText(r.navTicks),
      nav_date: isoDay(r.navDay),
      value: fromMinor(r.valueMinor),
      invested: fromMinor(r.investedMinor),
      gain: fromMinor(r.valueMinor - r.investedMinor),
      pending: fromMinor(r.pendingMinor),
    })),
    value: fromMinor(h.valueMinor),
    invested: fromMinor(h.investedMinor),
    gain: fromMinor(h.valueMinor - h.investedMinor),
    pending: fromMinor(h.pendingMinor),
    total: fromMinor(h.totalMinor),
  };
}
