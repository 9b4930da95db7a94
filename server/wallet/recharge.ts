import type { Kysely } from 'kysely';
import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import type { RechargeRecord } from '#shared/contract/wallet';
import { fromMinor, unitsToMinor } from '#shared/money';
import { checkRechargeAmount } from '#shared/rules';
import { RECHARGE_STATUS } from '#shared/status';
import type { Dialect } from '../db/index';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, invalid } from '../lib/errors';
import { lockUser } from '../lib/ledger';
import { rechargeRecord } from './records';

/**
 * A recharge asked for: recorded in progress (1) with the time the payment rail is asked about it
 * (`settle_at`, wallet/jobs.ts). No money moves until it settles (wallet/settlement.ts).
 */
export async function requestRecharge(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.recharge>,
): Promise<RechargeRecord> {
  const problem = checkRechargeAmount(input.count);
  if (problem) throw invalid(problem);
  await assertRechargeFits(db, deps.database.dialect, deps.config.balance, userId, unitsToMinor(input.count));
  const now = deps.clock.now();
  const row = await db
    .insertInto('recharges')
    .values({
      user_id: userId,
      amount: unitsToMinor(input.count),
      method: input.method ?? 'bank',
      reference: input.reference?.toUpperCase() ?? null,
      status: RECHARGE_STATUS.inProgress,
      settle_at: now + Math.max(0, deps.config.sandboxSettleMs),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return rechargeRecord(row);
}

/**
 * A recharge of `minor` may be asked for: at most MAX_RECHARGE at once, and the balance with every
 * recharge still on its way at most MAX_BALANCE (`errors.rechargeMax` / `errors.balanceMax`, with
 * the limit). Serialised per user, so simultaneous requests cannot each fit alone.
 */
async function assertRechargeFits(
  trx: Kysely<DB>,
  dialect: Dialect,
  limits: { max: number; maxRecharge: number },
  userId: number,
  minor: number,
): Promise<void> {
  if (!(minor <= limits.maxRecharge)) {
    throw new ApiError('errors.rechargeMax', 400, { max: fromMinor(limits.maxRecharge) });
  }
  await lockUser(trx, dialect, userId);
  const user = await trx
    .selectFrom('users')
    .select('balance')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const pending = await trx
    .selectFrom('recharges')
    .select((eb) => eb.fn.sum<number | string>('amount').as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', RECHARGE_STATUS.inProgress)
    .executeTakeFirst();
  if (Number(user.balance) + Number(pending?.n ?? 0) + minor > limits.max) {
    throw new ApiError('errors.balanceMax', 409, { max: fromMinor(limits.max) });
  }
}
