import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { post } from './ledger';

/**
 * The status changes of recharges, withdrawals and loans that move money, shared by the sandbox
 * payment provider's jobs and the operator's commands. Each one is a guarded transition (the row
 * changes only from the state it expects, so a job and an operator racing on one row move money
 * once) plus its ledger posting, in the caller's transaction. Each answers whether it happened.
 */

/** Recharge 1 (in progress) → 2 (completed), crediting the amount. */
export async function completeRecharge(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  const row = await trx
    .updateTable('recharges')
    .set({ status: 2, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 1)
    .returning(['user_id', 'count'])
    .executeTakeFirst();
  if (!row) return false;
  await post(trx, {
    userId: row.user_id,
    amount: row.count,
    reason: 'recharge',
    refType: 'recharge',
    refId: id,
    at: now,
  });
  return true;
}

/** Recharge 1 → 3 (failed): no money had moved. */
export async function failRecharge(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  const r = await trx
    .updateTable('recharges')
    .set({ status: 3, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 1)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Withdrawal n → y (paid out): the amount was reserved when it was asked for. */
export async function payWithdrawal(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  const r = await trx
    .updateTable('withdrawals')
    .set((eb) => ({ status: 'y', actual: eb.ref('count'), updated_at: now }))
    .where('id', '=', id)
    .where('status', '=', 'n')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Withdrawal n → b (failed), giving the reserved amount back with a `withdrawRefund` posting. */
export async function refundWithdrawal(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  const row = await trx
    .updateTable('withdrawals')
    .set({ status: 'b', updated_at: now })
    .where('id', '=', id)
    .where('status', '=', 'n')
    .returning(['user_id', 'count'])
    .executeTakeFirst();
  if (!row) return false;
  await post(trx, {
    userId: row.user_id,
    amount: row.count,
    reason: 'withdrawRefund',
    refType: 'withdrawal',
    refId: id,
    at: now,
  });
  return true;
}

/** Loan 1 (applying) → 4 (unpaid): approved and disbursed with a `borrow` posting at once. */
export async function disburseLoan(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  const row = await trx
    .updateTable('loans')
    .set({ state: 4, updated_at: now })
    .where('id', '=', id)
    .where('state', '=', 1)
    .returning(['user_id', 'count'])
    .executeTakeFirst();
  if (!row) return false;
  await post(trx, {
    userId: row.user_id,
    amount: row.count,
    reason: 'borrow',
    refType: 'loan',
    refId: id,
    at: now,
  });
  return true;
}

/** Loan 1 → 3 (rejected). */
export async function rejectLoan(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  const r = await trx
    .updateTable('loans')
    .set({ state: 3, updated_at: now })
    .where('id', '=', id)
    .where('state', '=', 1)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
