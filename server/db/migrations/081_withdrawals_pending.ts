import { type Kysely, sql } from 'kysely';

/**
 * The withdrawals still holding a user's money (in progress, `n`), indexed by user: the account's
 * hero counts them as reserved on every user-info poll (db/hot.ts `PENDING_WITHDRAWALS`, the same
 * predicate to the letter), and a settled withdrawal — most of them — never enters it.
 */
export function migration081WithdrawalsPending() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await sql`create index withdrawals_pending on withdrawals (user_id) where status = 'n'`.execute(db);
    },
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('withdrawals_pending').execute();
    },
  };
}
