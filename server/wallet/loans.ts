import type { Kysely, Selectable } from 'kysely';
import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import type { LoanData, LoanRecord } from '#shared/contract/wallet';
import { bpsToPercent, DAY_MS, lateChargeMinor, loanInterestMinor, wholeDays } from '#shared/loans';
import { fromMinor, unitsToMinor } from '#shared/money';
import { checkLoanAmount } from '#shared/rules';
import { LOAN_STATE } from '#shared/status';
import { withTx } from '../db/index';
import type { DB, LoanPostingsTable, LoansTable } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, conflict, invalid, notFound } from '../lib/errors';
import { post } from '../lib/ledger';
import { creditLimitMinor, creditOf } from './credit';
import { loanRecord } from './records';

/**
 * Loans (DESIGN "Loans"): apply (≥ 500, ≤ remaining credit) under the configured
 * terms, which the loan keeps → the operator approves and disburses (wallet/settlement.ts: `borrow`,
 * due date set) → unpaid, interest (and after the due date late charges) accruing into the amount
 * due day by day (`accrueLoan`, the `loans:accrue` job; src/shared/loans.ts has the rule) → repaid
 * here: the principal (`repay`) and everything accrued (`interest`), so nothing stays owed → paid.
 * Each change of the amount due is also a posting on the loan's own ledger (`loan_postings`).
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

/** The terms new loans get now (config), as the contract shows them before applying. */
export function loanTerms(deps: Deps): LoanData['terms'] {
  const { rateBps, tenureDays, lateBpsPerDay } = deps.config.loans;
  return {
    interestRate: bpsToPercent(rateBps),
    tenureDays,
    lateChargeRate: bpsToPercent(lateBpsPerDay),
  };
}

export async function loanData(deps: Deps, db: Kysely<DB>, userId: number): Promise<LoanData> {
  const credit = await creditOf(db, userId);
  return {
    amountDue: fromMinor(credit.dueMinor),
    accrued: fromMinor(credit.accruedMinor),
    creditScore: credit.creditScore,
    remainingAmount: fromMinor(credit.remainingMinor),
    creditLimit: fromMinor(creditLimitMinor(credit.creditScore)),
    creditPerPoint: fromMinor(creditLimitMinor(1)),
    terms: loanTerms(deps),
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
  const { rateBps, tenureDays, lateBpsPerDay } = deps.config.loans;
  const row = await db
    .insertInto('loans')
    .values({
      user_id: userId,
      amount,
      status: LOAN_STATE.applying,
      created_at: now,
      updated_at: now,
      rate_bps: rateBps,
      tenure_days: tenureDays,
      late_bps: lateBpsPerDay,
      disbursed_at: null,
      due_at: null,
      next_accrual_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return loanRecord(row);
}

/** One posting on a loan's own ledger; `due` is the amount due after it. */
async function loanPost(
  trx: Kysely<DB>,
  loan: { id: number; user_id: number },
  reason: LoanPostingsTable['reason'],
  amount: number,
  due: number,
  at: number,
): Promise<void> {
  await trx
    .insertInto('loan_postings')
    .values({ loan_id: loan.id, user_id: loan.user_id, amount, due_after: due, reason, created_at: at })
    .execute();
}

/** What an unpaid loan has accrued by `at`: interest since disbursement, late charges since the due date. */
export function accruedBy(
  loan: Pick<Selectable<LoansTable>, 'amount' | 'rate_bps' | 'late_bps' | 'disbursed_at' | 'due_at'>,
  at: number,
): { interest: number; late: number } {
  if (loan.disbursed_at === null) return { interest: 0, late: 0 };
  const principal = Number(loan.amount);
  const interest = loanInterestMinor(principal, loan.rate_bps ?? 0, wholeDays(Number(loan.disbursed_at), at));
  const late =
    loan.due_at === null
      ? 0
      : lateChargeMinor(principal, loan.late_bps ?? 0, wholeDays(Number(loan.due_at), at));
  return { interest, late };
}

/**
 * Brings an unpaid loan's amount due up to `now`: posts the interest and late charges accrued since
 * the last run (the difference between the totals for the whole span and what was posted, so runs
 * missed or repeated change nothing), in the caller's transaction. Answers the loan as it is now,
 * or undefined when it is not unpaid.
 */
export async function accrueLoan(
  trx: Kysely<DB>,
  id: number,
  now: number,
): Promise<Selectable<LoansTable> | undefined> {
  const loan = await trx
    .selectFrom('loans')
    .selectAll()
    .where('id', '=', id)
    .where('status', '=', LOAN_STATE.unpaid)
    .executeTakeFirst();
  if (!loan) return undefined;
  const { interest, late } = accruedBy(loan, now);
  const addInterest = interest - Number(loan.interest);
  const addLate = late - Number(loan.late_charge);
  const due = Number(loan.due) + Math.max(0, addInterest) + Math.max(0, addLate);
  const next =
    loan.disbursed_at === null || (!loan.rate_bps && !loan.late_bps)
      ? null
      : Number(loan.disbursed_at) + (wholeDays(Number(loan.disbursed_at), now) + 1) * DAY_MS;
  const updated = await trx
    .updateTable('loans')
    .set({
      interest: Math.max(interest, Number(loan.interest)),
      late_charge: Math.max(late, Number(loan.late_charge)),
      due,
      next_accrual_at: next,
    })
    .where('id', '=', id)
    .where('status', '=', LOAN_STATE.unpaid)
    .where('due', '=', loan.due)
    .returningAll()
    .executeTakeFirst();
  if (!updated) throw conflict('errors.loanNotUnpaid');
  let running = Number(loan.due);
  if (addInterest > 0) {
    running += addInterest;
    await loanPost(trx, loan, 'interest', addInterest, running, now);
  }
  if (addLate > 0) {
    running += addLate;
    await loanPost(trx, loan, 'lateCharge', addLate, running, now);
  }
  return updated;
}

/** The accrual job's run: every unpaid loan whose next day has begun, each in its own transaction. */
export async function accrueLoans(deps: Deps, batch = 500): Promise<number> {
  const due = await deps.database.db
    .selectFrom('loans')
    .select('id')
    .where('status', '=', LOAN_STATE.unpaid)
    .where('next_accrual_at', '<=', deps.clock.now())
    .orderBy('next_accrual_at')
    .limit(batch)
    .execute();
  for (const { id } of due) await withTx(deps.database, (trx) => accrueLoan(trx, id, deps.clock.now()));
  return due.length;
}

/**
 * Unpaid (4) → paid (5): accrues up to now, then takes the principal (`repay`) and everything
 * accrued on it (`interest`) from the balance, leaving nothing due.
 */
export async function repayLoan(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.loanRepay>,
): Promise<LoanRecord> {
  const now = deps.clock.now();
  const owned = await db
    .selectFrom('loans')
    .select(['id', 'status'])
    .where('id', '=', input.id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!owned) throw notFound();
  const loan = await accrueLoan(db, input.id, now);
  if (!loan) throw conflict('errors.loanNotUnpaid');
  const repaid = await db
    .updateTable('loans')
    .set({ status: LOAN_STATE.paid, due: 0, next_accrual_at: null, updated_at: now })
    .where('id', '=', loan.id)
    .where('status', '=', LOAN_STATE.unpaid)
    .where('due', '=', loan.due)
    .returningAll()
    .executeTakeFirst();
  if (!repaid) throw conflict('errors.loanNotUnpaid');
  const due = Number(loan.due);
  const principal = Number(loan.amount);
  const charges = due - principal;
  await loanPost(db, loan, 'repay', -due, 0, now);
  // Insufficient funds throws here and the whole transaction, state change included, rolls back.
  const ref = { userId, refType: 'loan', refId: loan.id, at: now } as const;
  await post(db, { ...ref, amount: -principal, reason: 'repay' });
  if (charges > 0) await post(db, { ...ref, amount: -charges, reason: 'interest' });
  return loanRecord(repaid);
}
