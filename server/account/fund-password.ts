import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { checkRequired, checkTradePassword } from '#shared/rules';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, conflict, refuseFirst } from '../lib/errors';
import { hashQueue } from '../lib/hash-queue';
import { hashSecret, verifySecret } from '../lib/passwords';

/**
 * The 6-digit transaction password (SPEC "stock_password"/"fund_code"): hashed like a login
 * password; after `config.fundPasswordLimit` (default MAX_FAILURES) wrong codes in a row it is
 * locked for LOCK_MS. While the count is at the limit with guesses still being checked, further
 * guesses are refused as locked.
 */
export const MAX_FAILURES = 5;
const LOCK_MS = 15 * 60 * 1000;

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
  const hash = await hashQueue(deps.config).run(() => hashSecret(code, deps.config.scrypt));
  const result = await db
    .updateTable('users')
    .set({ fund_password_hash: hash, fund_password_fails: 0, fund_password_locked_until: null })
    .where('id', '=', userId)
    .$if(options.onlyIfUnset === true, (q) => q.where('fund_password_hash', 'is', null))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The settings' transaction-password change (`passwordUp`, type transaction): the first one
 * (`is_first`) only while none is set; later ones after the current code is verified — the new
 * code checked first, so a malformed one never costs an attempt.
 */
export async function changeFundPassword(
  deps: Deps,
  userId: number,
  input: { is_first?: boolean; fund_code?: string; fund_code_new: string },
): Promise<void> {
  if (input.is_first) {
    const set = await setFundPassword(deps, deps.database.db, userId, input.fund_code_new, {
      onlyIfUnset: true,
    });
    if (!set) throw conflict('errors.fundPasswordAlreadySet');
    return;
  }
  refuseFirst(checkRequired(input.fund_code ?? ''), checkTradePassword(input.fund_code_new));
  await verifyFundPassword(deps, userId, input.fund_code);
  await setFundPassword(deps, deps.database.db, userId, input.fund_code_new);
}

/**
 * Throws unless `code` is the user's transaction password: `errors.fundPasswordNotSet`,
 * `errors.fundPasswordLocked` (429) or `errors.fundPasswordWrong`. Each guess first reserves its
 * attempt with one guarded update (counted only while under the limit), so simultaneous guesses
 * can never evaluate more than the limit's codes; a right code clears the count. Counted outside
 * any business transaction the caller may roll back, so a wrong code always counts.
 */
export async function verifyFundPassword(
  deps: Deps,
  userId: number,
  code: string | undefined,
): Promise<void> {
  const { db } = deps.database;
  const now = deps.clock.now();
  const limit = deps.config.fundPasswordLimit;
  // A lock whose time is over starts a new count.
  const expired = (eb: ExpressionBuilder<DB, 'users'>) =>
    eb.and([eb('fund_password_locked_until', 'is not', null), eb('fund_password_locked_until', '<=', now)]);
  const reserved = await db
    .updateTable('users')
    .set((eb) => ({
      fund_password_fails: eb
        .case()
        .when(expired(eb))
        .then(1)
        .else(eb('fund_password_fails', '+', 1))
        .end(),
      fund_password_locked_until: eb
        .case()
        .when(expired(eb))
        .then(sql<number | null>`null`)
        .else(eb.ref('fund_password_locked_until'))
        .end(),
    }))
    .where('id', '=', userId)
    .where('fund_password_hash', 'is not', null)
    .where((eb) => eb.or([eb('fund_password_fails', '<', limit), expired(eb)]))
    .returning(['fund_password_hash', 'fund_password_fails'])
    .executeTakeFirst();
  if (!reserved) {
    const user = await db
      .selectFrom('users')
      .select('fund_password_hash')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    if (!user.fund_password_hash) throw new ApiError('errors.fundPasswordNotSet', 400);
    throw new ApiError('errors.fundPasswordLocked', 429);
  }
  let ok: boolean;
  try {
    ok =
      code !== undefined &&
      checkTradePassword(code) === null &&
      (await hashQueue(deps.config).run(() => verifySecret(code, reserved.fund_password_hash!)));
  } catch (err) {
    // Not evaluated (the hash queue was full): the attempt is given back.
    await db
      .updateTable('users')
      .set((eb) => ({ fund_password_fails: eb('fund_password_fails', '-', 1) }))
      .where('id', '=', userId)
      .where('fund_password_fails', '>', 0)
      .execute();
    throw err;
  }
  if (ok) {
    await db
      .updateTable('users')
      .set({ fund_password_fails: 0, fund_password_locked_until: null })
      .where('id', '=', userId)
      .execute();
    return;
  }
  const locked = reserved.fund_password_fails >= limit;
  if (locked) {
    await db
      .updateTable('users')
      .set({ fund_password_locked_until: now + LOCK_MS })
      .where('id', '=', userId)
      .where('fund_password_fails', '>=', limit)
      .execute();
  }
  throw new ApiError(locked ? 'errors.fundPasswordLocked' : 'errors.fundPasswordWrong', locked ? 429 : 400);
}

/**
 * The transaction password a request carries in `stock_password` (block/QIP buys, withdrawals,
 * adding or editing a bank card), checked before the caller opens its transaction so a wrong code
 * counts even though the request is refused. Missing or not 6 digits: `fundPasswordNotSet` for a
 * user who has none yet (the app leads them to set one), else `hint.tradePasswordInvalid` — no
 * attempt is spent on a code that cannot be right.
 */
export async function requireTradePassword(deps: Deps, userId: number, code: unknown): Promise<void> {
  if (typeof code !== 'string' || checkTradePassword(code) !== null) {
    const user = await deps.database.db
      .selectFrom('users')
      .select('fund_password_hash')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    throw new ApiError(
      user.fund_password_hash ? 'hint.tradePasswordInvalid' : 'errors.fundPasswordNotSet',
      400,
    );
  }
  await verifyFundPassword(deps, userId, code);
}
