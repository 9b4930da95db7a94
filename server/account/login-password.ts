import { checkPassword, checkRequired } from '#shared/rules';
import { withTx } from '../db/index';
import type { Deps } from '../deps';
import { sessionCache, sha256 } from '../lib/auth';
import { invalid, refuseFirst } from '../lib/errors';
import { hashQueue } from '../lib/hash-queue';
import { hashSecret, verifySecret } from '../lib/passwords';
import { verifyUnderLoginLimit } from './login-limit';

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
  const keep = sha256(keepToken);
  await withTx(deps.database, async (trx) => {
    await trx.updateTable('users').set({ password_hash: hash }).where('id', '=', user.id).execute();
    await trx
      .updateTable('sessions')
      .set({ revoked_at: deps.clock.now() })
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .where('token_hash', '!=', keep)
      .execute();
  });
  // After the commit: the ended sessions are refused from the next call on (the kept one is read
  // again once, harmlessly).
  sessionCache(deps).forgetUser(user.id);
}
