import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { type FactorOwner, ownerKey } from './context';

/** Has the owner set up a second factor (as `hasFactor`), in two indexed reads. */
export async function ownerHasFactor(db: Kysely<DB>, owner: FactorOwner): Promise<boolean> {
  const key = ownerKey(owner);
  const [passkey, app] = await Promise.all([
    db.selectFrom('factor_passkeys').select('id').where('owner', '=', key).limit(1).executeTakeFirst(),
    db
      .selectFrom('factor_totp')
      .select('owner')
      .where('owner', '=', key)
      .where('confirmed_at', 'is not', null)
      .executeTakeFirst(),
  ]);
  return passkey !== undefined || app !== undefined;
}
