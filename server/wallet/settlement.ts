import type { Kysely } from 'kysely';
import { DAY_MS } from '#shared/loans';
import {
  type LedgerReason,
  LOAN_STATE,
  type LoanState,
  RECHARGE_STATUS,
  type RechargeStatus,
  WITHDRAW_STATUS,
  type WithdrawStatus,
} from '#shared/status';
import type { DB } from '../db/schema';
import { post } from '../lib/ledger';
import { payoutNoticeOf } from '../notify/notify';

/**
 * The status changes of recharges, withdrawals and loans that move money, shared by the sandbox
 * payment provider's jobs and the operator's commands. Each one is a guarded transition (the row
 * changes only from the state it expects, so a job and an operator racing on one row move money
 * once) plus its ledger posting, in the caller's transaction. Each answers whether it happened. A
 * withdrawal paid or refunded is told to its owner in the same transaction.
 */

/** A row's state change: its table, the column holding the state, the state it must be in and the next. */
type Move =
  | { table: 'recharges'; column: 'status'; from: RechargeStatus; to: RechargeStatus }
  | {
      table: 'withdrawals';
      column: 'status';
      from: WithdrawStatus;
      to: WithdrawStatus;
      /** Paid out: `actual` becomes the amount. */
      paidOut?: true;
    }
  | { table: 'loans'; column: 'status'; from: LoanState; to: LoanState };

/** The posting that credits the row's owner its `amount` when the row moves. */
interface Credit {
  reason: LedgerReason;
  refType: string;
}

/**
 * Row `id` moves `from` → `to` in one guarded update (zero rows changed: it was not in `from`, and
 * nothing happens); with `credit`, its owner is credited its `amount` in the same transaction.
 */
async function transition(
  trx: Kysely<DB>,
  id: number,
  now: number,
  move: Move,
  credit?: Credit,
): Promise<{ user_id: number; amount: number } | null> {
  const row = await trx
    .updateTable(move.table)
    .set((eb) => ({
      [move.column]: move.to,
      ...(move.table === 'withdrawals' && move.paidOut ? { actual: eb.ref('amount') } : {}),
      updated_at: now,
    }))
    .where('id', '=', id)
    .where(move.column, '=', move.from)
    .returning(['user_id', 'amount'])
    .executeTakeFirst();
  if (!row) return null;
  if (credit) await post(trx, { ...credit, userId: row.user_id, amount: row.amount, refId: id, at: now });
  return row;
}

/** A row's transition happened (recharges and loans: nobody is told from here). */
const moved = (row: Promise<unknown>): Promise<boolean> => row.then((r) => r !== null);

/** A withdrawal's outcome told to its owner in the same transaction (notify/notify.ts). */
async function payoutNotice(
  trx: Kysely<DB>,
  id: number,
  now: number,
  row: { user_id: number; amount: number } | null,
  event: 'paid' | 'refunded',
): Promise<boolean> {
  if (!row) return false;
  await payoutNoticeOf(trx, { userId: row.user_id, id, amount: row.amount, event, at: now });
  return true;
}

/** Where each kind of row's transitions start: in progress (recharges, withdrawals), applying (loans). */
const RECHARGE = { table: 'recharges', column: 'status', from: RECHARGE_STATUS.inProgress } as const;
const WITHDRAWAL = { table: 'withdrawals', column: 'status', from: WITHDRAW_STATUS.inProgress } as const;
const LOAN = { table: 'loans', column: 'status', from: LOAN_STATE.applying } as const;

/** The postings of the transitions that move money: each credits the row's owner its amount. */
const CREDIT = {
  recharge: { reason: 'recharge', refType: 'recharge' },
  withdrawRefund: { reason: 'withdrawRefund', refType: 'withdrawal' },
  borrow: { reason: 'borrow', refType: 'loan' },
} as const satisfies Record<string, Credit>;

/** Recharge 1 (in progress) → 2 (completed), crediting the amount. */
export function completeRecharge(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  return moved(transition(trx, id, now, { ...RECHARGE, to: RECHARGE_STATUS.completed }, CREDIT.recharge));
}

/** Recharge 1 → 3 (failed): no money had moved. */
export function failRecharge(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  return moved(transition(trx, id, now, { ...RECHARGE, to: RECHARGE_STATUS.failed }));
}

/** Withdrawal n → y (paid out): the amount was reserved when it was asked for. */
export async function payWithdrawal(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  const row = await transition(trx, id, now, { ...WITHDRAWAL, to: WITHDRAW_STATUS.paid, paidOut: true });
  return payoutNotice(trx, id, now, row, 'paid');
}

/** Withdrawal n → b (failed), giving the reserved amount back with a `withdrawRefund` posting. */
export async function refundWithdrawal(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  const row = await transition(
    trx,
    id,
    now,
    { ...WITHDRAWAL, to: WITHDRAW_STATUS.failed },
    CREDIT.withdrawRefund,
  );
  return payoutNotice(trx, id, now, row, 'refunded');
}

/**
 * Loan 1 (applying) → 4 (unpaid): approved and disbursed with a `borrow` posting at once; its
 * principal becomes the amount due (the loan's first own posting), its tenure starts now and, when
 * its terms carry interest or late charges, the accrual job looks at it from tomorrow.
 */
export async function disburseLoan(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  if (!(await transition(trx, id, now, { ...LOAN, to: LOAN_STATE.unpaid }, CREDIT.borrow))) return false;
  const loan = await trx
    .selectFrom('loans')
    .select(['id', 'user_id', 'amount', 'tenure_days', 'rate_bps', 'late_bps'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('loans')
    .set({
      due: loan.amount,
      disbursed_at: now,
      due_at: loan.tenure_days === null ? null : now + loan.tenure_days * DAY_MS,
      next_accrual_at: (loan.rate_bps ?? 0) > 0 || (loan.late_bps ?? 0) > 0 ? now + DAY_MS : null,
    })
    .where('id', '=', id)
    .execute();
  await trx
    .insertInto('loan_postings')
    .values({
      loan_id: loan.id,
      user_id: loan.user_id,
      amount: loan.amount,
      due_after: loan.amount,
      reason: 'borrow',
      created_at: now,
    })
    .execute();
  return true;
}

/** Loan 1 → 3 (rejected). */
export function rejectLoan(trx: Kysely<DB>, id: number, now: number): Promise<boolean> {
  return moved(transition(trx, id, now, { ...LOAN, to: LOAN_STATE.rejected }));
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
