import type { Kysely } from 'kysely';
import { LOAN_STATE, RECHARGE_STATUS, WITHDRAW_STATUS } from '#shared/status';
import type { DB } from '../db/schema';
import { type Posting, post } from '../lib/ledger';

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
    .set({ status: RECHARGE_STATUS.completed, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', RECHARGE_STATUS.inProgress)
    .returning(['user_id', 'count'])
    .executeTakeFirst();
  return creditMoved(trx, row, { reason: 'recharge', refType: 'recharge', refId: id, at: now });
}

/** Recharge 1 → 3 (failed): no money had moved. */
export async function failRecharge(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  const r = await trx
    .updateTable('recharges')
    .set({ status: RECHARGE_STATUS.failed, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', RECHARGE_STATUS.inProgress)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Withdrawal n → y (paid out): the amount was reserved when it was asked for. */
export async function payWithdrawal(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  const r = await trx
    .updateTable('withdrawals')
    .set((eb) => ({ status: WITHDRAW_STATUS.paid, actual: eb.ref('count'), updated_at: now }))
    .where('id', '=', id)
    .where('status', '=', WITHDRAW_STATUS.inProgress)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * A held withdrawal (still n) handed to the payment rail: the hold is cleared, no money moves
 * (it was reserved when asked for). The rail's job pays or declines it from its next run.
 */
export async function releaseWithdrawal(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  const r = await trx
    .updateTable('withdrawals')
    .set({ hold: null, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', WITHDRAW_STATUS.inProgress)
    .where('hold', 'is not', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Withdrawal n → b (failed), giving the reserved amount back with a `withdrawRefund` posting. */
export async function refundWithdrawal(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  const row = await trx
    .updateTable('withdrawals')
    .set({ status: WITHDRAW_STATUS.failed, updated_at: now })
    .where('id', '=', id)
    .where('status', '=', WITHDRAW_STATUS.inProgress)
    .returning(['user_id', 'count'])
    .executeTakeFirst();
  return creditMoved(trx, row, { reason: 'withdrawRefund', refType: 'withdrawal', refId: id, at: now });
}

/** Loan 1 (applying) → 4 (unpaid): approved and disbursed with a `borrow` posting at once. */
export async function disburseLoan(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  const row = await trx
    .updateTable('loans')
    .set({ state: LOAN_STATE.unpaid, updated_at: now })
    .where('id', '=', id)
    .where('state', '=', LOAN_STATE.applying)
    .returning(['user_id', 'count'])
    .executeTakeFirst();
  return creditMoved(trx, row, { reason: 'borrow', refType: 'loan', refId: id, at: now });
}

/** Loan 1 → 3 (rejected). */
export async function rejectLoan(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  const r = await trx
    .updateTable('loans')
    .set({ state: LOAN_STATE.rejected, updated_at: now })
    .where('id', '=', id)
    .where('state', '=', LOAN_STATE.applying)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Credits the owner of a row a guarded update moved (its `count`); answers whether it moved. */
async function creditMoved(
  trx: Kysely<DB>,
  row: { user_id: number; count: number } | undefined,
  posting: Omit<Posting, 'userId' | 'amount'>,
): Promise<boolean> {
  if (!row) return false;
  await post(trx, { ...posting, userId: row.user_id, amount: row.count });
  return true;
}
