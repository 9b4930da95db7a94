import type { Kysely } from 'kysely';
import { withTx } from '../db/index';
import type { DB } from '../db/schema';
import { idArg } from '../ops/commands/args';
import type { OpsCommand } from '../ops/commands/command';
import {
  completeRecharge,
  disburseLoan,
  failRecharge,
  payWithdrawal,
  refundWithdrawal,
  rejectLoan,
  releaseWithdrawal,
} from './settlement';

/**
 * The operator's side of the wallet (DESIGN rule 4): loan approval, withdrawal payout, recharge
 * confirmation. Each is a guarded transition of wallet/settlement.ts, so a command repeated or
 * racing the sandbox jobs changes nothing twice; the CLI writes each to ops_log.
 */

/** One guarded money transition in its own transaction; explains itself when nothing changed. */
function transition(
  name: string,
  usage: string,
  summary: string,
  what: string,
  apply: (trx: Kysely<DB>, id: number, now: number) => Promise<boolean>,
  done: string,
): OpsCommand {
  return {
    name,
    usage,
    summary,
    mutates: true,
    async run(deps, [arg]) {
      const rowId = idArg(arg, what);
      const changed = await withTx(deps.database, (trx) => apply(trx, rowId, deps.clock.now()));
      if (!changed) throw new Error(`${what} ${rowId} does not exist or is not waiting for this decision`);
      return `${what} ${rowId} ${done}`;
    },
  };
}

export const WALLET_COMMANDS: OpsCommand[] = [
  transition(
    'loan:approve',
    'loan:approve <loanId>',
    'approve a loan and disburse it (borrow)',
    'loan',
    disburseLoan,
    'approved and disbursed',
  ),
  transition(
    'loan:reject',
    'loan:reject <loanId>',
    'reject a loan application',
    'loan',
    rejectLoan,
    'rejected',
  ),
  transition(
    'withdraw:pay',
    'withdraw:pay <id>',
    'mark a withdrawal paid out',
    'withdrawal',
    payWithdrawal,
    'paid',
  ),
  transition(
    'withdraw:release',
    'withdraw:release <id>',
    'hand a held withdrawal (e.g. to a card changed in the last 24 h) to the payment rail',
    'withdrawal',
    releaseWithdrawal,
    'released to the payment rail',
  ),
  transition(
    'withdraw:reject',
    'withdraw:reject <id>',
    'fail a withdrawal and refund it (withdrawRefund)',
    'withdrawal',
    refundWithdrawal,
    'rejected and refunded',
  ),
  transition(
    'recharge:confirm',
    'recharge:confirm <id>',
    'confirm a recharge was received and credit it',
    'recharge',
    completeRecharge,
    'confirmed and credited',
  ),
  transition(
    'recharge:fail',
    'recharge:fail <id>',
    'mark a recharge failed (nothing is credited)',
    'recharge',
    failRecharge,
    'failed',
  ),
];
