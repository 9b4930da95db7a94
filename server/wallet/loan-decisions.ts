import type { Kysely } from 'kysely';
import type { ApprovalView, LoanRow } from '#shared/backoffice';
import { fromMinor } from '#shared/money';
import { LOAN_STATE } from '#shared/status';
import { namesOf } from '../account/customer-names';
import { assertClaim, type DecisionOptions, overrideOf } from '../approvals/people';
import {
  approvalView,
  awaiting,
  bindingOf,
  checkApproval,
  closeApproval,
  latestApprovals,
  requestApproval,
} from '../approvals/requests';
import { plainText } from '../content/sanitize';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { type Actor, audited } from '../lib/audit-log';
import { conflict, invalid, notFound } from '../lib/errors';
import { creditOf } from './credit';
import { disburseLoan, rejectLoan } from './settlement';

/**
 * Loan applications decided in the back office, each audited: approved (disbursed) or
 * rejected with a reason the customer reads. Above LOAN_APPROVAL_ABOVE a loan is two people's: the
 * first approval records a request bound to the application (approvals/requests.ts), a second member — in
 * the sense of approvals/people.ts, never the console — approves it and it is disbursed. A claimed
 * application is decided by its claimant or by an admin who says why. The console's commands run
 * these functions.
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
      'loans.amount',
      'loans.created_at',
      'loans.rate_bps',
      'loans.tenure_days',
      'loans.late_bps',
    ])
    .where('loans.status', '=', LOAN_STATE.applying)
    .orderBy('loans.id');
}

export async function loanRows(deps: Deps): Promise<LoanRow[]> {
  const { db } = deps.database;
  const rows = await applyingLoans(db).limit(200).execute();
  const names = await namesOf(
    db,
    rows.map((l) => l.user_id),
  );
  const approvals = await latestApprovals(
    db,
    'loan',
    rows.map((l) => String(l.id)),
  );
  return Promise.all(
    rows.map(async (l) => {
      const a = approvals.get(String(l.id));
      return {
        id: l.id,
        userId: l.user_id,
        phone: l.phone,
        customer: names.get(l.user_id)!,
        amount: fromMinor(l.amount),
        creditScore: l.credit_score,
        openLoans: fromMinor((await creditOf(db, l.user_id)).dueMinor),
        askedAt: l.created_at,
        needsApproval: l.amount > deps.config.ops.loanApprovalAbove,
        approval: a && a.status === 'awaiting' ? approvalView(a, a.binding === loanBinding(l)) : null,
      };
    }),
  );
}

async function loanOf(trx: Kysely<DB>, id: number) {
  const loan = await trx.selectFrom('loans').selectAll().where('id', '=', id).executeTakeFirst();
  if (!loan) throw notFound();
  return loan;
}

/** What a request is bound to: the application and its terms as the maker saw them. */
function loanBinding(l: {
  id: number;
  user_id: number;
  amount: number;
  rate_bps: number | null;
  tenure_days: number | null;
  late_bps: number | null;
}): string {
  return bindingOf([l.id, l.user_id, l.amount, l.rate_bps, l.tenure_days, l.late_bps]);
}

/**
 * Approves a loan application: at or below LOAN_APPROVAL_ABOVE it is disbursed now; above it the
 * first approval asks for a second (`disbursed: false`), and another member's approval disburses it.
 */
export async function approveLoan(
  deps: Deps,
  actor: Actor,
  id: number,
  options: DecisionOptions = {},
): Promise<{ disbursed: boolean; approval: ApprovalView | null }> {
  type Decided = { disbursed: boolean; approval: ApprovalView | null; void: boolean };
  const { result } = await audited<Decided>(deps.database, actor, deps.clock.now, async (trx) => {
    const loan = await loanOf(trx, id);
    if (loan.status !== LOAN_STATE.applying) throw conflict('ops.errors.notWaiting');
    const override = overrideOf(await assertClaim(trx, ['loan'], String(id), actor, options.override));
    const before = { state: loan.status, amount: fromMinor(loan.amount) };
    const disburse = async () => {
      if (!(await disburseLoan(trx, id, deps.clock.now()))) throw conflict('ops.errors.notWaiting');
    };
    const entry = { targetType: 'loan', targetId: id, customerId: loan.user_id, before };
    if (loan.amount <= deps.config.ops.loanApprovalAbove) {
      await disburse();
      return {
        result: { disbursed: true, approval: null, void: false },
        entry: { ...entry, action: 'loan:approve', after: { state: LOAN_STATE.unpaid, ...override } },
      };
    }
    const waiting = await awaiting(trx, deps, 'loan', String(id));
    if (!waiting) {
      const request = await requestApproval(trx, deps, actor, {
        kind: 'loan',
        targetId: String(id),
        userId: loan.user_id,
        amount: loan.amount,
        binding: loanBinding(loan),
      });
      return {
        result: { disbursed: false, approval: approvalView(request, true), void: false },
        entry: {
          ...entry,
          action: 'loan:request',
          after: { approval: request.id, awaiting: true, ...override },
        },
      };
    }
    const outcome = await checkApproval(trx, deps, actor, waiting, loanBinding(loan));
    if (outcome === 'approved') await disburse();
    return {
      result: { disbursed: outcome === 'approved', approval: null, void: outcome === 'void' },
      entry: {
        ...entry,
        action: outcome === 'approved' ? 'loan:approve' : 'loan:void',
        before: { ...before, approval: waiting.id, maker: waiting.maker },
        after:
          outcome === 'approved'
            ? { state: LOAN_STATE.unpaid, approval: waiting.id, ...override }
            : { approval: waiting.id, void: 'changed since it was asked' },
      },
    };
  });
  // The void is kept (and audited); the checker hears that nothing was disbursed.
  if (result.void) throw conflict('ops.errors.approvalVoid');
  return { disbursed: result.disbursed, approval: result.approval };
}

export async function declineLoan(
  deps: Deps,
  actor: Actor,
  id: number,
  text: string,
  options: DecisionOptions = {},
): Promise<void> {
  const reason = plainText(text).slice(0, 500);
  if (!reason) throw invalid('ops.errors.reasonText');
  await audited(deps.database, actor, deps.clock.now, async (trx) => {
    const loan = await loanOf(trx, id);
    const override = overrideOf(await assertClaim(trx, ['loan'], String(id), actor, options.override));
    if (!(await rejectLoan(trx, id, deps.clock.now()))) throw conflict('ops.errors.notWaiting');
    await closeApproval(trx, deps, actor, 'loan', String(id), reason);
    return {
      result: undefined,
      entry: {
        action: 'loan:reject',
        targetType: 'loan',
        targetId: id,
        customerId: loan.user_id,
        before: { state: loan.status, amount: fromMinor(loan.amount) },
        after: { state: LOAN_STATE.rejected, ...override },
        reason,
      },
    };
  });
}
