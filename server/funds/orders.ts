import { type Kysely, sql } from 'kysely';
import type { ReqOf } from '#shared/contract/define';
import type { FundOrder } from '#shared/contract/funds';
import type { contract } from '#shared/contract/index';
import { parseUnits } from '#shared/funds';
import { fromMinor, unitsToMinor } from '#shared/money';
import { OFFER_STATUS } from '#shared/status';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, conflict, invalid, notFound } from '../lib/errors';
import { post } from '../lib/ledger';
import { historyOf, orderNavDay, toFund, toFundOrder } from './answers';
import { cutoffOf, publishedAt } from './calendar';

/**
 * Orders at the next NAV (server/funds/README.md). A purchase debits its amount at once
 * (`fundPurchase`, with the order in one transaction) and waits for its NAV; a redemption holds
 * its units (`fund_positions.reserved_units`, a guarded update: two redemptions never hold the
 * same unit) and waits for its NAV; strike.ts settles both when that NAV is published. Until the
 * cut-off either can be cancelled: the money comes back (`fundRefund`) or the units are free again.
 */

async function fundOf(db: Kysely<DB>, id: number) {
  const fund = await db.selectFrom('funds').selectAll().where('id', '=', id).executeTakeFirst();
  if (!fund) throw notFound();
  return fund;
}

async function answer(deps: Deps, db: Kysely<DB>, orderId: number): Promise<FundOrder> {
  const order = await db
    .selectFrom('fund_orders')
    .selectAll()
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const fund = toFund(deps, await fundOf(db, order.fund_id));
  return toFundOrder(order, fund, deps.clock.now());
}

/** A purchase (`fundPurchase`): at least the fund's minimum, which SPEC's body (no amount) buys. */
export async function purchaseFund(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.fundPurchase>,
): Promise<FundOrder> {
  const fund = await fundOf(db, input.project_id);
  if (fund.status !== OFFER_STATUS.open) throw invalid('errors.fundClosed');
  const minimum = Number(fund.amount);
  const amount = input.amount === undefined ? minimum : unitsToMinor(input.amount);
  if (amount < minimum) throw new ApiError('errors.fundMinimum', 400, { amount: fromMinor(minimum) });
  const now = deps.clock.now();
  const day = orderNavDay(historyOf(deps, fund), now);
  const order = await db
    .insertInto('fund_orders')
    .values({
      user_id: userId,
      fund_id: fund.id,
      side: 'buy',
      amount,
      expected_return: 0,
      status: 'active',
      end_time: publishedAt(day),
      nav_day: day,
      units: null,
      nav: null,
      profit: null,
      created_at: now,
      settled_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await post(db, {
    userId,
    amount: -amount,
    reason: 'fundPurchase',
    refType: 'fund_order',
    refId: order.id,
    at: now,
  });
  return answer(deps, db, order.id);
}

/** A redemption (`fundRedeem`) of `units`, or of every free unit (`all`). */
export async function redeemFund(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.fundRedeem>,
): Promise<FundOrder> {
  if ((input.units === undefined) === (input.all === undefined)) throw invalid();
  const fund = await fundOf(db, input.project_id);
  const position = await db
    .selectFrom('fund_positions')
    .select(['units', 'reserved_units'])
    .where('user_id', '=', userId)
    .where('fund_id', '=', fund.id)
    .executeTakeFirst();
  const free = position ? Number(position.units) - Number(position.reserved_units) : 0;
  const units = input.all ? free : parseUnits(input.units!);
  if (units === null) throw invalid();
  if (units <= 0 || units > free) throw invalid(free > 0 ? 'errors.fundUnits' : 'errors.fundNoUnits');
  // Guarded: a redemption placed meanwhile (PostgreSQL) may have taken the units.
  const held = await db
    .updateTable('fund_positions')
    .set({
      reserved_units: sql<number>`reserved_units + ${units}`,
      updated_at: deps.clock.now(),
    })
    .where('user_id', '=', userId)
    .where('fund_id', '=', fund.id)
    .where(sql<boolean>`units - reserved_units >= ${units}`)
    .executeTakeFirst();
  if (Number(held.numUpdatedRows) !== 1) throw invalid('errors.fundUnits');
  const now = deps.clock.now();
  const day = orderNavDay(historyOf(deps, fund), now);
  const order = await db
    .insertInto('fund_orders')
    .values({
      user_id: userId,
      fund_id: fund.id,
      side: 'redeem',
      amount: 0,
      expected_return: 0,
      status: 'active',
      end_time: publishedAt(day),
      nav_day: day,
      units,
      nav: null,
      profit: null,
      created_at: now,
      settled_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return answer(deps, db, order.id);
}

/** Cancels a pending order before its cut-off (`fundCancel`). */
export async function cancelFundOrder(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  id: number,
): Promise<FundOrder> {
  const order = await db
    .selectFrom('fund_orders')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .$if(deps.database.dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst();
  if (!order) throw notFound();
  if (order.status !== 'active' || order.side === 'term') throw conflict('errors.fundNotPending');
  const now = deps.clock.now();
  if (now >= cutoffOf(order.nav_day)) throw conflict('errors.fundPastCutoff');
  const done = await db
    .updateTable('fund_orders')
    .set({ status: 'cancelled', settled_at: now })
    .where('id', '=', order.id)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw conflict('errors.fundNotPending');
  if (order.side === 'buy') {
    await post(db, {
      userId,
      amount: Number(order.amount),
      reason: 'fundRefund',
      refType: 'fund_order',
      refId: order.id,
      at: now,
    });
  } else {
    await db
      .updateTable('fund_positions')
      .set({ reserved_units: sql<number>`reserved_units - ${Number(order.units)}`, updated_at: now })
      .where('user_id', '=', userId)
      .where('fund_id', '=', order.fund_id)
      .execute();
  }
  return answer(deps, db, order.id);
}
