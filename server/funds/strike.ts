import { type Kysely, type Selectable, sql } from 'kysely';
import { FUND_STAMP_PPM, FUND_STT_PPM, isEquityOriented, ppmOf, unitsFor, unitsValue } from '#shared/funds';
import { divRoundHalfUp } from '#shared/money';
import { withTx } from '../db/index';
import type { DB, FundOrdersTable, FundsTable } from '../db/schema';
import type { Deps } from '../deps';
import { post } from '../lib/ledger';
import { historyOf } from './answers';
import { latestNavDay } from './calendar';

/**
 * The NAV job's two steps, every second: publish each fund's NAV once its day's NAV is out
 * (21:00 IST), then strike the orders waiting for a published NAV, each in its own transaction:
 * - a purchase: stamp duty (0.005 %) off its amount, the rest buys units at the NAV, rounded
 *   down to the thousandth; the units and their cost go to the position (no posting: the money
 *   left the balance when the order was placed);
 * - a redemption: its units' value at the NAV (HALF_UP) is credited (`fundRedemption`), less the
 *   exit load on the units held fewer than the fund's exit-load days (`exitLoad`; units leave
 *   first in, first out, SEBI's rule) and, for an equity-oriented fund, STT 0.001 %
 *   (`transactionExpenses`); the position gives up the units and their share of the cost.
 * A run strikes at most BATCH orders; the next second takes the rest.
 */

const BATCH = 500;
type FundRow = Selectable<FundsTable>;
type OrderRow = Selectable<FundOrdersTable>;

/** Writes each fund's latest published NAV to its row; answers how many changed. */
export async function publishNavs(deps: Deps): Promise<number> {
  const { db } = deps.database;
  const day = latestNavDay(deps.clock.now());
  let changed = 0;
  for (const fund of await db.selectFrom('funds').selectAll().execute()) {
    const nav = historyOf(deps, fund).onOrBefore(day);
    if (!nav || (fund.nav_day === nav.day && Number(fund.nav) === nav.ticks)) continue;
    await db
      .updateTable('funds')
      .set({ nav: nav.ticks, nav_day: nav.day })
      .where('id', '=', fund.id)
      .execute();
    changed++;
  }
  return changed;
}

/** Strikes every pending order whose NAV is published; answers how many were struck. */
export async function strikeDue(deps: Deps): Promise<number> {
  const due = await deps.database.db
    .selectFrom('fund_orders')
    .select('id')
    .where('status', '=', 'active')
    .where('end_time', '<=', deps.clock.now())
    .orderBy('id')
    .limit(BATCH)
    .execute();
  let struck = 0;
  for (const { id } of due) {
    if (await withTx(deps.database, (trx) => strikeOne(deps, trx, id))) struck++;
  }
  return struck;
}

async function strikeOne(deps: Deps, trx: Kysely<DB>, id: number): Promise<boolean> {
  const order = await trx
    .selectFrom('fund_orders')
    .selectAll()
    .where('id', '=', id)
    .where('status', '=', 'active')
    .$if(deps.database.dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst();
  if (!order || order.side === 'term') return false;
  const fund = await trx
    .selectFrom('funds')
    .selectAll()
    .where('id', '=', order.fund_id)
    .executeTakeFirstOrThrow();
  // An order is never struck at a NAV from before the fund's launch (an order of before migration 082).
  const h = historyOf(deps, fund);
  const struck = { ...order, nav_day: Math.max(order.nav_day, h.firstDay) };
  const nav = h.on(struck.nav_day);
  const now = deps.clock.now();
  return order.side === 'buy'
    ? strikeBuy(trx, struck, nav, now)
    : strikeRedemption(deps, trx, fund, struck, nav, now);
}

async function strikeBuy(trx: Kysely<DB>, order: OrderRow, nav: number, now: number): Promise<boolean> {
  const amount = Number(order.amount);
  const stamp = ppmOf(amount, FUND_STAMP_PPM);
  const units = unitsFor(amount - stamp, nav);
  const done = await trx
    .updateTable('fund_orders')
    .set({ status: 'completed', units, nav, nav_day: order.nav_day, stamp_duty: stamp, settled_at: now })
    .where('id', '=', order.id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) return false;
  await trx
    .insertInto('fund_positions')
    .values({
      user_id: order.user_id,
      fund_id: order.fund_id,
      units,
      reserved_units: 0,
      invested: amount,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.columns(['user_id', 'fund_id']).doUpdateSet({
        units: sql<number>`fund_positions.units + ${units}`,
        invested: sql<number>`fund_positions.invested + ${amount}`,
        updated_at: now,
      }),
    )
    .execute();
  return true;
}

/** Units of a redemption that leave lots held fewer than `days` days (first in, first out). */
async function unitsUnderLoad(trx: Kysely<DB>, order: OrderRow, days: number): Promise<number> {
  if (days <= 0) return 0;
  const mine = (side: 'buy' | 'redeem') =>
    trx
      .selectFrom('fund_orders')
      .select(['units', 'nav_day'])
      .where('user_id', '=', order.user_id)
      .where('fund_id', '=', order.fund_id)
      .where('side', '=', side)
      .where('status', '=', 'completed');
  const lots = await mine('buy').orderBy('nav_day').orderBy('id').execute();
  const earlier = await mine('redeem').execute();
  let skip = earlier.reduce((sum, r) => sum + Number(r.units), 0);
  let left = Number(order.units);
  let loaded = 0;
  for (const lot of lots) {
    if (left === 0) break;
    let held = Number(lot.units);
    const gone = Math.min(skip, held);
    skip -= gone;
    held -= gone;
    const take = Math.min(held, left);
    if (order.nav_day - lot.nav_day < days) loaded += take;
    left -= take;
  }
  return loaded;
}

async function strikeRedemption(
  deps: Deps,
  trx: Kysely<DB>,
  fund: FundRow,
  order: OrderRow,
  nav: number,
  now: number,
): Promise<boolean> {
  const units = Number(order.units);
  const position = await trx
    .selectFrom('fund_positions')
    .select(['units', 'invested'])
    .where('user_id', '=', order.user_id)
    .where('fund_id', '=', order.fund_id)
    .$if(deps.database.dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirstOrThrow();
  const held = Number(position.units);
  const invested = Number(position.invested);
  const cost =
    held === units ? invested : Number(divRoundHalfUp(BigInt(invested) * BigInt(units), BigInt(held)));
  const value = unitsValue(units, nav);
  const load = ppmOf(
    unitsValue(await unitsUnderLoad(trx, order, fund.exit_load_days), nav),
    fund.exit_load_ppm,
  );
  const stt = isEquityOriented(fund.category) ? ppmOf(value, FUND_STT_PPM) : 0;
  const done = await trx
    .updateTable('fund_orders')
    .set({
      status: 'completed',
      nav,
      nav_day: order.nav_day,
      amount: value - load - stt,
      exit_load: load,
      stt,
      settled_at: now,
    })
    .where('id', '=', order.id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) return false;
  await trx
    .updateTable('fund_positions')
    .set({
      units: sql<number>`units - ${units}`,
      reserved_units: sql<number>`reserved_units - ${units}`,
      invested: sql<number>`invested - ${cost}`,
      updated_at: now,
    })
    .where('user_id', '=', order.user_id)
    .where('fund_id', '=', order.fund_id)
    .execute();
  const ref = { userId: order.user_id, refType: 'fund_order', refId: order.id, at: now };
  if (value > 0) await post(trx, { ...ref, amount: value, reason: 'fundRedemption' });
  if (load > 0) await post(trx, { ...ref, amount: -load, reason: 'exitLoad' });
  if (stt > 0) await post(trx, { ...ref, amount: -stt, reason: 'transactionExpenses' });
  return true;
}
