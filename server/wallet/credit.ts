import type { Kysely } from 'kysely';
import { MONEY_SCALE } from '#shared/money';
import { LOAN_STATE } from '#shared/status';
import type { DB } from '../db/schema';

/**
 * The credit limit rule: each point of credit score is worth CREDIT_PER_POINT whole units, so the
 * default score of 100 allows 100,000 units. Everything not yet repaid counts against it — loans
 * applying (1), approved (2) and unpaid (4) — so applications cannot be stacked past the limit
 * while they wait for the operator. The limit counts principal; interest and late charges are
 * owed on top (wallet/loans.ts).
 */
const CREDIT_PER_POINT = 1000;

/** Loan states that hold credit. */
const OPEN_LOAN_STATES = [LOAN_STATE.applying, LOAN_STATE.approved, LOAN_STATE.unpaid];

export function creditLimitMinor(creditScore: number): number {
  return Math.max(0, creditScore) * CREDIT_PER_POINT * MONEY_SCALE;
}

export interface Credit {
  creditScore: number;
  /** Disbursed and not repaid (state 4): principal plus what has accrued on it. */
  dueMinor: number;
  /** The interest and late charges in `dueMinor`. */
  accruedMinor: number;
  /** Limit minus every open loan, never below zero. */
  remainingMinor: number;
}

export async function creditOf(db: Kysely<DB>, userId: number): Promise<Credit> {
  const user = await db
    .selectFrom('users')
    .select('credit_score')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const loans = await db
    .selectFrom('loans')
    .select([
      'status',
      (eb) => eb.fn.sum<number | string>('amount').as('total'),
      (eb) => eb.fn.sum<number | string>('due').as('due'),
    ])
    .where('user_id', '=', userId)
    .where('status', 'in', OPEN_LOAN_STATES)
    .groupBy('status')
    .execute();
  let open = 0;
  let due = 0;
  let principal = 0;
  for (const row of loans) {
    const total = Number(row.total);
    open += total;
    if (row.status === LOAN_STATE.unpaid) {
      due += Number(row.due);
      principal += total;
    }
  }
  return {
    creditScore: user.credit_score,
    dueMinor: due,
    accruedMinor: due - principal,
    remainingMinor: Math.max(0, creditLimitMinor(user.credit_score) - open),
  };
}
