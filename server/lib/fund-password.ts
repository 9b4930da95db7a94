import type { Kysely } from 'kysely';
import { checkTradePassword } from '../../src/shared/rules';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError } from './errors';
import { hashSecret, verifySecret } from './passwords';

/**
 * The 6-digit transaction password (SPEC "stock_password"/"fund_code"): hashed like a login
 * password; after MAX_FAILURES wrong codes in a row it is locked for LOCK_MS.
 */
export const MAX_FAILURES = 5;
export const LOCK_MS = 15 * 60 * 1000;

/**
 * Sets the transaction password. With `onlyIfUnset` it changes nothing when one is already set
 * (two racing first-time requests cannot overwrite each other); answers whether it was set.
 */
export async function setFundPassword(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  code: string,
  options: { onlyIfUnset?: boolean } = {},
): Promise<boolean> {
  const problem = checkTradePassword(code);
  if (problem) throw new ApiError(problem, 400);
  const hash = await hashSecret(code, deps.config.scrypt);
  const result = await db
    .updateTable('users')
    .set({ fund_password_hash: hash, fund_password_fails: 0, fund_password_locked_until: null })
    .where('id', '=', userId)
    .$if(options.onlyIfUnset === true, (q) => q.where('fund_password_hash', 'is', null))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Throws unless `code` is the user's transaction password: `errors.fundPasswordNotSet`,
 * `errors.fundPasswordLocked` (429) or `errors.fundPasswordWrong`. Failures are counted outside
 * any business transaction the caller may roll back, so a wrong code always counts.
 */
export async function verifyFundPassword(
  deps: Deps,
  userId: number,
  code: string | undefined,
): Promise<void> {
  const { db } = deps.database;
  const user = await db
    .selectFrom('users')
    .select(['fund_password_hash', 'fund_password_fails', 'fund_password_locked_until'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  if (!user.fund_password_hash) throw new ApiError('errors.fundPasswordNotSet', 400);
  const now = deps.clock.now();
  if (user.fund_password_locked_until !== null && user.fund_password_locked_until > now) {
    throw new ApiError('errors.fundPasswordLocked', 429);
  }
  const ok =
    code !== undefined &&
    checkTradePassword(code) === null &&
    (await verifySecret(code, user.fund_password_hash));
  if (ok) {
    if (user.fund_password_fails > 0) {
      await db
        .updateTable('users')
        .set({ fund_password_fails: 0, fund_password_locked_until: null })
        .where('id', '=', userId)
        .execute();
    }
    return;
  }
  const fails = (user.fund_password_locked_until !== null ? 0 : user.fund_password_fails) + 1;
  const locked = fails >= MAX_FAILURES;
  await db
    .updateTable('users')
    .set({
      fund_password_fails: locked ? 0 : fails,
      fund_password_locked_until: locked ? now + LOCK_MS : null,
    })
    .where('id', '=', userId)
    .execute();
  throw new ApiError(locked ? 'errors.fundPasswordLocked' : 'errors.fundPasswordWrong', locked ? 429 : 400);
}
