import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DEFAULT_CREDIT_SCORE } from '#shared/rules';
import { welcome } from '../content/chat';
import type { DB } from '../db/schema';

/** A public user number (SPEC "no") users can read out; the unique column backs it. */
const publicUserNo = (): string => `B${String(randomInt(10_000_000, 99_999_999))}`;

/**
 * The one insert of a user: no money (a balance moves only through the ledger), no transaction
 * password yet, the default credit score, the chat's welcome (once per account). Registration, the demo seed and benchmarks all use it.
 */
export async function createUser(
  db: Kysely<DB>,
  user: { phone: string; passwordHash: string; at: number; no?: string },
): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({
      phone: user.phone,
      password_hash: user.passwordHash,
      no: user.no ?? publicUserNo(),
      img: null,
      balance: 0,
      fund_password_hash: null,
      fund_password_fails: 0,
      fund_password_locked_until: null,
      credit_score: DEFAULT_CREDIT_SCORE,
      created_at: user.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await welcome(db, row.id, user.at);
  return row.id;
}
