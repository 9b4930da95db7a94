import { type Kysely, type Selectable, sql } from 'kysely';
import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import type { Fund, FundOrder } from '#shared/contract/invest';
import { divRoundHalfUp, feeMinor, fromMinor } from '#shared/money';
import { OFFER_STATUS } from '#shared/status';
import { withTx } from '../db/index';
import type { DB, FundOrdersTable, FundsTable } from '../db/schema';
import type { Deps } from '../deps';
import { invalid, notFound } from '../lib/errors';
import { post } from '../lib/ledger';

/**
 * Fund products. A purchase debits the fund's amount (`fundPurchase`) and counts it against the
 * issue without overselling (guarded update, CHECK sold_amount <= issue_amount). The order runs for
 * the fund's period; at maturity the job pays the principal back (`principal_returned`) and the
 * expected return (`fund_project_profit`), basis points of the amount, HALF_UP.
 */

const DAY_MS = 86_400_000;

/** The return promised on an order: the middle of the fund's range, in basis points, HALF_UP. */
function expectedReturnBps(fund: Pick<Selectable<FundsTable>, 'min_return' | 'max_return'>): number {
  return Number(divRoundHalfUp(BigInt(fund.min_return) + BigInt(fund.max_return), 2n));
}

const bpsToPercent = (bps: number) => bps / 100;

/**
 * A period's return as a yearly rate (issue 30 §3): simple, bps × 365 / days, HALF_UP to whole
 * basis points, as an exact two-decimal percent string ("10.43"); basis points are hundredths of a
 * percent as minor units are hundredths of a unit, so `fromMinor` writes it.
 */
export function perYear(bps: number, days: number): string {
  if (days <= 0) return fromMinor(0);
  return fromMinor(Number(divRoundHalfUp(BigInt(bps) * 365n, BigInt(days))));
}

function toFund(f: Selectable<FundsTable>): Fund {
  return {
    id: f.id,
    name: f.name,
    min_return: bpsToPercent(f.min_return),
    max_return: bpsToPercent(f.max_return),
    investment_period: f.investment_period,
    amount: fromMinor(f.amount),
    issue_amount: fromMinor(f.issue_amount),
    sold_amount: fromMinor(f.sold_amount),
    status: f.status,
    manager: f.manager,
    risk: f.risk === null ? null : Number(f.risk),
    return_pa: {
      min: perYear(f.min_return, f.investment_period),
      max: perYear(f.max_return, f.investment_period),
    },
    expected_return: fromMinor(expectedReturnBps(f)),
    expected_return_pa: perYear(expectedReturnBps(f), f.investment_period),
    expected_profit: fromMinor(feeMinor(f.amount, expectedReturnBps(f))),
  };
}

function toFundOrder(
  o: Selectable<FundOrdersTable>,
  f: Pick<Selectable<FundsTable>, 'name' | 'investment_period' | 'min_return' | 'max_return'>,
): FundOrder {
  return {
    id: o.id,
    amount: fromMinor(o.amount),
    expected_return: bpsToPercent(o.expected_return),
    expected_return_pa: perYear(o.expected_return, f.investment_period),
    status: o.status,
    end_time: o.end_time,
    created_at: o.created_at,
    profit: o.profit === null ? null : fromMinor(o.profit),
    project: {
      name: f.name,
      investment_period: f.investment_period,
      min_return: bpsToPercent(f.min_return),
      max_return: bpsToPercent(f.max_return),
    },
  };
}

/** The fund products on the list (`fundList`), in catalogue order. */
export async function fundList(db: Kysely<DB>): Promise<{ rows: Fund[]; count: number }> {
  const rows = await db.selectFrom('funds').selectAll().orderBy('id').execute();
  return { rows: rows.map(toFund), count: rows.length };
}

/** The caller's fund orders (`fundOrders`), of one status if asked, newest first, with their fund. */
export async function fundOrders(
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.fundOrders>,
): Promise<{ rows: FundOrder[] }> {
  const rows = await db
    .selectFrom('fund_orders')
    .innerJoin('funds', 'funds.id', 'fund_orders.fund_id')
    .selectAll('fund_orders')
    .select([
      'funds.name',
      'funds.investment_period',
      'funds.min_return as fund_min_return',
      'funds.max_return as fund_max_return',
    ])
    .where('fund_orders.user_id', '=', userId)
    .$if(input.status !== undefined, (q) => q.where('fund_orders.status', '=', input.status!))
    .orderBy('fund_orders.id', 'desc')
    .limit(500)
    .execute();
  return {
    rows: rows.map((r) =>
      toFundOrder(r, {
        name: r.name,
        investment_period: r.investment_period,
        min_return: r.fund_min_return,
        max_return: r.fund_max_return,
      }),
    ),
  };
}

export async function purchaseFund(deps: Deps, db: Kysely<DB>, userId: number, fundId: number) {
  const fund = await db.selectFrom('funds').selectAll().where('id', '=', fundId).executeTakeFirst();
  if (!fund) throw notFound();
  if (fund.status !== OFFER_STATUS.open) throw invalid('errors.fundClosed');
  const sold = await db
    .updateTable('funds')
    .set({ sold_amount: sql<number>`sold_amount + ${fund.amount}` })
    .where('id', '=', fund.id)
    .where(sql<boolean>`sold_amount + ${fund.amount} <= issue_amount`)
    .executeTakeFirst();
  if (Number(sold.numUpdatedRows) !== 1) throw invalid('errors.fundSoldOut');
  const now = deps.clock.now();
  const order = await db
    .insertInto('fund_orders')
    .values({
      user_id: userId,
      fund_id: fund.id,
      amount: fund.amount,
      expected_return: expectedReturnBps(fund),
      status: 'active',
      end_time: now + fund.investment_period * DAY_MS,
      profit: null,
      created_at: now,
      settled_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await post(db, {
    userId,
    amount: -fund.amount,
    reason: 'fundPurchase',
    refType: 'fund_order',
    refId: order.id,
    at: now,
  });
  return toFundOrder(order, fund);
}

/** Pays out every active order whose end time has passed; each order is its own transaction. */
export async function matureFunds(deps: Deps): Promise<number> {
  const due = await deps.database.db
    .selectFrom('fund_orders')
    .selectAll()
    .where('status', '=', 'active')
    .where('end_time', '<=', deps.clock.now())
    .orderBy('id')
    .limit(1000)
    .execute();
  let paid = 0;
  for (const order of due) {
    const done = await withTx(deps.database, async (trx) => {
      const now = deps.clock.now();
      const profit = feeMinor(order.amount, order.expected_return);
      const settled = await trx
        .updateTable('fund_orders')
        .set({ status: 'completed', profit, settled_at: now })
        .where('id', '=', order.id)
        .where('status', '=', 'active')
        .executeTakeFirst();
      if (Number(settled.numUpdatedRows) !== 1) return false;
      const ref = { userId: order.user_id, refType: 'fund_order', refId: order.id, at: now };
      await post(trx, { ...ref, amount: order.amount, reason: 'principal_returned' });
      if (profit > 0) await post(trx, { ...ref, amount: profit, reason: 'fund_project_profit' });
      return true;
    });
    if (done) paid++;
  }
  return paid;
}
