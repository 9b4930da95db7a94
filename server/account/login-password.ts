import { checkPassword, checkRequired } from '#shared/rules';
import type { Deps } from '../deps';
import { invalid, refuseFirst } from '../lib/errors';
import { hashQueue } from '../lib/hash-queue';
import { hashSecret, verifySecret } from '../lib/passwords';
import { verifyUnderLoginLimit } from './login-limit';
import { endSessionsWith } from './sessions';

/**
 * Changes the login password (SPEC §5). The current one is guessed against the login limit, so a
 * stolen session cannot brute-force it; every other session of the user ends, the one that
 * asked (`keepToken`) stays.
 */
export async function changeLoginPassword(
  deps: Deps,
  user: { id: number; phone: string },
  ip: string,
  keepToken: string,
  input: { password: string; password_new: string },
): Promise<void> {
  const { db } = deps.database;
  refuseFirst(checkRequired(input.password, input.password_new), checkPassword(input.password_new));
  const hashing = hashQueue(deps.config);
  const right = await verifyUnderLoginLimit(deps, user.phone, ip, async () => {
    const row = await db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    return hashing.run(() => verifySecret(input.password, row.password_hash));
  });
  if (!right) throw invalid('errors.oldPasswordIncorrect');
  const hash = await hashing.run(() => hashSecret(input.password_new, deps.config.scrypt));
  await replaceLoginPassword(deps, user.id, hash, keepToken);
}

/**
 * Sets a user's login password hash and ends their sessions (all of them, or all but `keepToken`'s):
 * a new password ends every session opened with the old one.
 */
export async function replaceLoginPassword(
  deps: Deps,
  userId: number,
  hash: string,
  keepToken?: string,
): Promise<void> {
  await endSessionsWith(deps, userId, keepToken, async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: hash, password_reset_at: null })
      .where('id', '=', userId)
      .execute();
  });
}
