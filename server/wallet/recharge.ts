import type { Kysely } from 'kysely';
import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import type { RechargeRecord } from '#shared/contract/wallet';
import { unitsToMinor } from '#shared/money';
import { checkRechargeAmount } from '#shared/rules';
import { RECHARGE_STATUS } from '#shared/status';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { invalid } from '../lib/errors';
import { assertRechargeFits } from '../lib/ledger';
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
      count: unitsToMinor(input.count),
      method: input.method ?? 'bank',
      status: RECHARGE_STATUS.inProgress,
      settle_at: now + Math.max(0, deps.config.sandboxSettleMs),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return rechargeRecord(row);
}
