import type { Kysely } from 'kysely';
import type { LoanRow } from '#shared/backoffice';
import { fromMinor } from '#shared/money';
import { LOAN_STATE } from '#shared/status';
import { plainText } from '../content/sanitize';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { type Actor, audited } from '../lib/audit-log';
import { conflict, invalid, notFound } from '../lib/errors';
import { creditOf } from '../wallet/credit';
import { disburseLoan, rejectLoan } from '../wallet/settlement';

/**
 * Loan applications decided in the back office (issue 33 §7), each audited: approved (disbursed) or
 * rejected with a reason the customer reads. The console's commands run these functions.
 */

/** Loan applications waiting for a decision, oldest first, with the applicant's phone and score. */
export function applyingLoans(db: Kysely<DB>) {
  return db
    .selectFrom('loans')
    .innerJoin('users', 'users.id', 'loans.user_id')
    .select([
      'loans.id',
      'loans.user_id',
      'users.phone',
      'users.credit_score',
      'loans.count',
      'loans.created_at',
    ])
    .where('loans.state', '=', LOAN_STATE.applying)
    .orderBy('loans.id');
}

export async function loanRows(deps: Deps): Promise<LoanRow[]> {
  const { db } = deps.database;
  const rows = await applyingLoans(db).limit(200).execute();
  return Promise.all(
    rows.map(async (l) => ({
      id: l.id,
      userId: l.user_id,
      phone: l.phone,
      amount: fromMinor(l.count),
      creditScore: l.credit_score,
      openLoans: fromMinor((await creditOf(db, l.user_id)).dueMinor),
      askedAt: l.created_at,
    })),
  );
}

async function loanOf(trx: Kysely<DB>, id: number) {
  const loan = await trx.selectFrom('loans').selectAll().where('id', '=', id).executeTakeFirst();
  if (!loan) throw notFound();
  return loan;
}

export async function approveLoan(deps: Deps, actor: Actor, id: number): Promise<void> {
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const loan = await loanOf(trx, id);
    if (!(await disburseLoan(trx, id, deps.clock.now()))) throw conflict('ops.errors.notWaiting');
    return {
      result: undefined,
      entry: {
        action: 'loan:approve',
        targetType: 'loan',
        targetId: id,
        customerId: loan.user_id,
        before: { state: loan.state, amount: fromMinor(loan.count) },
        after: { state: LOAN_STATE.unpaid },
      },
    };
  });
}

export async function declineLoan(deps: Deps, actor: Actor, id: number, text: string): Promise<void> {
  const reason = plainText(text).slice(0, 500);
  if (!reason) throw invalid('ops.errors.reasonText');
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const loan = await loanOf(trx, id);
    if (!(await rejectLoan(trx, id, deps.clock.now()))) throw conflict('ops.errors.notWaiting');
    return {
      result: undefined,
      entry: {
        action: 'loan:reject',
        targetType: 'loan',
        targetId: id,
        customerId: loan.user_id,
        before: { state: loan.state, amount: fromMinor(loan.count) },
        after: { state: LOAN_STATE.rejected },
        reason,
      },
    };
  });
}
