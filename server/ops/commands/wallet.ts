import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { Deps } from '../../deps';
import { type Actor, audited } from '../../lib/audit-log';
import { approveLoan, declineLoan } from '../../wallet/loan-decisions';
import { payPayout, rejectPayout, releasePayout } from '../../wallet/payouts';
import { completeRecharge, failRecharge } from '../../wallet/settlement';
import { idArg, options } from './args';
import type { OpsCommand } from './command';
import { consoleError, operatorActor } from './operator';

/**
 * The operator's side of the wallet (DESIGN rule 4): loan decisions, payouts, recharge
 * confirmation. Loans and payouts run the same decisions as the back office (wallet/loan-decisions.ts,
 * wallet/payouts.ts: audited, maker-checker above LOAN_APPROVAL_ABOVE and PAYOUT_APPROVAL_ABOVE).
 * The console makes, never checks: a second approval is a member of staff's, in the back office
 * (whoever runs the console holds the database and names any operator). Recharges are
 * guarded transitions of wallet/settlement.ts in an audited transaction. A command repeated or
 * racing the sandbox jobs changes nothing twice; the CLI also writes each to ops_log.
 */

/** One decision on a row by id, said as the console always said it. */
function decision(
  name: string,
  usage: string,
  summary: string,
  what: string,
  act: (deps: Deps, actor: Actor, id: number, rest: string[]) => Promise<unknown>,
  done: string | ((result: unknown, id: number) => string),
): OpsCommand {
  return {
    name,
    usage,
    summary,
    mutates: true,
    async run(deps, [arg, ...rest], actor) {
      const rowId = idArg(arg, what);
      const result = await act(deps, operatorActor(deps, actor), rowId, rest).catch((err: unknown) => {
        throw consoleError(err, `${what} ${rowId} does not exist or is not waiting for this decision`);
      });
      return typeof done === 'string' ? `${what} ${rowId} ${done}` : done(result, rowId);
    },
  };
}

/** A recharge's guarded transition, audited under the operator. */
function rechargeMove(
  move: (trx: Kysely<DB>, id: number, now: number) => Promise<boolean>,
  action: string,
): (deps: Deps, actor: Actor, id: number) => Promise<void> {
  return async (deps, actor, id) => {
    await audited(deps.database, actor, deps.clock.now, async (trx) => {
      const before = await trx
        .selectFrom('recharges')
        .select(['user_id', 'status'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!before || !(await move(trx, id, deps.clock.now())))
        throw new Error(`recharge ${id} does not exist or is not waiting for this decision`);
      return {
        result: undefined,
        entry: {
          action,
          targetType: 'recharge',
          targetId: id,
          customerId: before.user_id,
          before: { status: before.status },
        },
      };
    });
  };
}

export const WALLET_COMMANDS: OpsCommand[] = [
  decision(
    'loan:approve',
    'loan:approve <loanId>',
    'approve a loan and disburse it (borrow); above LOAN_APPROVAL_ABOVE: asks for a second approval',
    'loan',
    (deps, actor, id) => approveLoan(deps, actor, id),
    (result, id) =>
      (result as { disbursed: boolean }).disbursed
        ? `loan ${id} approved and disbursed`
        : `loan ${id} waits for a second approval by a member of staff in the back office`,
  ),
  decision(
    'loan:reject',
    'loan:reject <loanId> [reason]',
    'reject a loan application',
    'loan',
    (deps, actor, id, reason) => declineLoan(deps, actor, id, reason.join(' ') || 'Rejected by the operator'),
    'rejected',
  ),
  decision(
    'withdraw:pay',
    'withdraw:pay <id>',
    "mark a withdrawal paid out (the customer's day above PAYOUT_APPROVAL_ABOVE: asks for a second approval)",
    'withdrawal',
    (deps, actor, id) => payPayout(deps, actor, id),
    (result, id) =>
      (result as { paid: boolean }).paid
        ? `withdrawal ${id} paid`
        : `withdrawal ${id} waits for a second approval by a member of staff in the back office`,
  ),
  decision(
    'withdraw:release',
    'withdraw:release <id>',
    'hand a held withdrawal (e.g. to a card changed in the last 24 h) to the payment rail',
    'withdrawal',
    (deps, actor, id) => releasePayout(deps, actor, id),
    'released to the payment rail',
  ),
  decision(
    'withdraw:reject',
    'withdraw:reject <id> [note] [--reason cardMismatch|suspectedFraud|customerRequest|other]',
    'fail a withdrawal and refund it (withdrawRefund)',
    'withdrawal',
    (deps, actor, id, rest) => {
      const { positional, named } = options(rest);
      const note = positional.join(' ');
      return rejectPayout(deps, actor, id, named.reason ?? (note ? 'other' : 'customerRequest'), note);
    },
    'rejected and refunded',
  ),
  decision(
    'recharge:confirm',
    'recharge:confirm <id>',
    'confirm a recharge was received and credit it',
    'recharge',
    rechargeMove(completeRecharge, 'recharge:confirm'),
    'confirmed and credited',
  ),
  decision(
    'recharge:fail',
    'recharge:fail <id>',
    'mark a recharge failed (nothing is credited)',
    'recharge',
    rechargeMove(failRecharge, 'recharge:fail'),
    'failed',
  ),
];
