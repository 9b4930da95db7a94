import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { ERR } from '#shared/contract/define';
import { checkPassword, checkPhone, checkRequired } from '#shared/rules';
import { withTx } from '../db/index';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { addressKey, reserveAttempt } from '../lib/attempts';
import { ApiError, invalid, refuseFirst } from '../lib/errors';
import { hashQueue } from '../lib/hash-queue';
import { hashSecret } from '../lib/passwords';
import { createUser } from './users';

/** An invitation code that exists and has a use left (`max_uses` null: unlimited). */
const usableCode = (code: string) => (eb: ExpressionBuilder<DB, 'invitation_codes'>) =>
  eb.and([eb('code', '=', code), eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))])]);

async function refuseTakenPhone(db: Kysely<DB>, phone: string): Promise<void> {
  const taken = await db.selectFrom('users').select('id').where('phone', '=', phone).executeTakeFirst();
  if (taken) throw invalid('errors.phoneTaken');
}

/**
 * Registration (SPEC §5): a phone and password the shared rules accept, an invitation code with a
 * use left, a phone not yet registered; sign-ups are limited per client address. The code and
 * phone are checked once before the (expensive) password hash, so a refused request costs little,
 * and again inside the transaction that claims one use of the code and inserts the user, so two
 * simultaneous sign-ups cannot both take a code's last use or one phone.
 */
export async function register(
  deps: Deps,
  input: { user: string; password: string; code: string },
  ip: string,
): Promise<{ id: number }> {
  const { db } = deps.database;
  refuseFirst(
    checkRequired(input.user, input.password, input.code),
    checkPhone(input.user),
    checkPassword(input.password),
  );
  const now = deps.clock.now();
  const { perAddress, windowMs } = deps.config.signupLimit;
  if (!(await reserveAttempt(db, `reg:${addressKey(ip)}`, perAddress, windowMs, now))) {
    throw new ApiError(ERR.tooManyAttempts, 429);
  }
  const code = input.code.trim();
  const usable = await db
    .selectFrom('invitation_codes')
    .select('code')
    .where(usableCode(code))
    .executeTakeFirst();
  if (!usable) throw invalid('errors.invalidInvitationCode');
  await refuseTakenPhone(db, input.user);
  const passwordHash = await hashQueue(deps.config).run(() => hashSecret(input.password, deps.config.scrypt));
  return withTx(deps.database, async (trx) => {
    const claimed = await trx
      .updateTable('invitation_codes')
      .set({ uses: sql<number>`uses + 1` })
      .where(usableCode(code))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) throw invalid('errors.invalidInvitationCode');
    await refuseTakenPhone(trx, input.user);
    return { id: await createUser(trx, { phone: input.user, passwordHash, at: now }) };
  });
}
