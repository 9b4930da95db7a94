import type { Kysely } from 'kysely';
import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import type { LoanRecord } from '#shared/contract/wallet';
import { fromMinor, unitsToMinor } from '#shared/money';
import { checkLoanAmount } from '#shared/rules';
import { LOAN_STATE } from '#shared/status';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, conflict, invalid, notFound } from '../lib/errors';
import { post } from '../lib/ledger';
import { creditLimitMinor, creditOf, LOAN_TERMS } from './credit';
import { loanRecord } from './records';

/**
 * Loans (DESIGN "Loans"): apply (≥ 500, ≤ remaining credit) → the operator approves and disburses
 * (wallet/settlement.ts) → unpaid → repaid here with a `repay` posting → paid.
 */

/**
 * Makes the caller's money-moving transaction the only one deciding for this user (PostgreSQL
 * row lock; SQLite transactions already run one at a time), for checks a guarded update cannot
 * express, such as the credit remaining.
 */
async function lockUser(deps: Deps, trx: Kysely<DB>, userId: number): Promise<void> {
  if (deps.database.dialect === 'postgres')
    await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

export async function loanData(db: Kysely<DB>, userId: number) {
  const credit = await creditOf(db, userId);
  return {
    amountDue: fromMinor(credit.dueMinor),
    creditScore: credit.creditScore,
    remainingAmount: fromMinor(credit.remainingMinor),
    creditLimit: fromMinor(creditLimitMinor(credit.creditScore)),
    creditPerPoint: fromMinor(creditLimitMinor(1)),
    terms: { ...LOAN_TERMS },
  };
}

export async function applyLoan(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.loanApply>,
): Promise<LoanRecord> {
  const problem = checkLoanAmount(input.count);
  if (problem) throw invalid(problem);
  await lockUser(deps, db, userId);
  const amount = unitsToMinor(input.count);
  const credit = await creditOf(db, userId);
  if (amount > credit.remainingMinor) {
    throw new ApiError('errors.loanOverLimit', 400, { max: fromMinor(credit.remainingMinor) });
  }
  const now = deps.clock.now();
  const row = await db
    .insertInto('loans')
    .values({ user_id: userId, count: amount, state: LOAN_STATE.applying, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return loanRecord(row);
}

/** Unpaid (4) → paid (5), taking the principal back from the balance. */
export async function repayLoan(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.loanRepay>,
): Promise<LoanRecord> {
  const now = deps.clock.now();
  const repaid = await db
    .updateTable('loans')
    .set({ state: LOAN_STATE.paid, updated_at: now })
    .where('id', '=', input.id)
    .where('user_id', '=', userId)
    .where('state', '=', LOAN_STATE.unpaid)
    .returningAll()
    .executeTakeFirst();
  if (!repaid) {
    const exists = await db
      .selectFrom('loans')
      .select('id')
      .where('id', '=', input.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    throw exists ? conflict('errors.loanNotUnpaid') : notFound();
  }
  // Insufficient funds throws here and the whole transaction, state change included, rolls back.
  await post(db, {
    userId,
    amount: -repaid.count,
    reason: 'repay',
    refType: 'loan',
    refId: repaid.id,
    at: now,
  });
  return loanRecord(repaid);
}
