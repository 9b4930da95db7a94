import type { Kysely } from 'kysely';
import { withTx } from '../db/index';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { sha256 } from '../lib/auth';
import { forgetEnded, noticeEnded } from '../lib/session-notices';

/**
 * Ends a user's sessions — all of them, or all but `keepToken`'s — after `change` ran in the same
 * transaction (a new password, a removed factor): whatever opened them no longer holds. Refused
 * from the next call on, here and on the other instances once the notice arrives.
 */
export async function endSessionsWith(
  deps: Deps,
  userId: number,
  keepToken: string | undefined,
  change: (trx: Kysely<DB>) => Promise<void>,
): Promise<void> {
  await withTx(deps.database, async (trx) => {
    await change(trx);
    await endSessionsIn(trx, deps, userId, keepToken);
  });
  // After the commit (a kept session is read again once, harmlessly).
  forgetEnded(deps, { userId });
}

/**
 * The same inside a caller's transaction (a staff decision's audited one): answers how many
 * sessions ended. The caller calls `forgetEnded(deps, { userId })` once it has committed.
 */
export async function endSessionsIn(
  trx: Kysely<DB>,
  deps: Deps,
  userId: number,
  keepToken?: string,
): Promise<number> {
  let end = trx
    .updateTable('sessions')
    .set({ revoked_at: deps.clock.now() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keepToken !== undefined) end = end.where('token_hash', '!=', sha256(keepToken));
  const ended = await end.executeTakeFirst();
  await noticeEnded(trx, deps, { userId });
  return Number(ended.numUpdatedRows);
}

/**
 * The account got a factor: its other password-only enrolment steps end — a step opened
 * with a stolen password must not go on to add a factor of its own.
 */
export async function endEnrolSteps(deps: Deps, userId: number, keepToken: string): Promise<void> {
  await withTx(deps.database, async (trx) => {
    await trx
      .updateTable('sessions')
      .set({ revoked_at: deps.clock.now() })
      .where('user_id', '=', userId)
      .where('stage', '=', 'enrol')
      .where('revoked_at', 'is', null)
      .where('token_hash', '!=', sha256(keepToken))
      .execute();
    await noticeEnded(trx, deps, { userId });
  });
  forgetEnded(deps, { userId });
}
