import { RECHARGE_STATUS } from '#shared/status';
import { withTx } from '../db/index';
import type { Deps } from '../deps';
import type { Job } from '../jobs/job';
import type { Outcome } from '../payments/provider';
import { accrueLoans } from './loans';
import { completeRecharge, failRecharge, payWithdrawal, refundWithdrawal } from './settlement';
import { withdrawalsInProgress } from './withdraw';

/** Rows settled per run: a backlog drains over a few seconds instead of one long transaction. */
const BATCH = 100;

/** A negative SANDBOX_SETTLE_MS leaves every recharge and withdrawal to the operator. */
function automatic(deps: Deps): boolean {
  return deps.config.sandboxSettleMs >= 0;
}

async function apply(
  deps: Deps,
  outcome: Outcome,
  settle: typeof completeRecharge,
  fail: typeof failRecharge,
  id: number,
): Promise<void> {
  if (outcome === 'pending') return;
  await withTx(deps.database, (trx) => (outcome === 'settled' ? settle : fail)(trx, id, deps.clock.now()));
}

export const settleRecharges: Job = {
  name: 'settleRecharges',
  everyMs: 1000,
  async run(deps) {
    if (!automatic(deps)) return;
    const due = await deps.database.db
      .selectFrom('recharges')
      .select(['id', 'user_id', 'amount'])
      .where('status', '=', RECHARGE_STATUS.inProgress)
      .where('settle_at', '<=', deps.clock.now())
      .orderBy('settle_at')
      .limit(BATCH)
      .execute();
    for (const r of due) {
      const outcome = await deps.payments.recharge({ id: r.id, userId: r.user_id, amount: r.amount });
      await apply(deps, outcome, completeRecharge, failRecharge, r.id);
    }
  },
};

export const settleWithdrawals: Job = {
  name: 'settleWithdrawals',
  everyMs: 1000,
  async run(deps) {
    if (!automatic(deps)) return;
    const due = await withdrawalsInProgress(deps.database.db)
      // Held ones wait for the operator's decision (ops/commands/wallet.ts); a frozen customer's wait for
      // the unfreeze (account/freeze.ts).
      .where('withdrawals.hold', 'is', null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('users')
              .select('users.id')
              .whereRef('users.id', '=', 'withdrawals.user_id')
              .where('users.frozen_at', 'is not', null),
          ),
        ),
      )
      .where('withdrawals.settle_at', '<=', deps.clock.now())
      .orderBy('withdrawals.settle_at')
      .limit(BATCH)
      .execute();
    for (const w of due) {
      const outcome = await deps.payments.withdrawal({
        id: w.id,
        userId: w.user_id,
        amount: w.amount,
        card: { bankCard: w.bank_card, ifsc: w.ifsc, status: w.card_status },
      });
      await apply(deps, outcome, payWithdrawal, refundWithdrawal, w.id);
    }
  },
};

/**
 * Loan interest and late charges (wallet/loans.ts): every unpaid loan whose next day has begun by
 * the server's clock gets what accrued since, as postings on its own ledger.
 */
export const accrueLoanInterest: Job = {
  name: 'loans:accrue',
  everyMs: 60_000,
  async run(deps) {
    await accrueLoans(deps);
  },
};

export const PAYMENT_JOBS: Job[] = [settleRecharges, settleWithdrawals, accrueLoanInterest];
