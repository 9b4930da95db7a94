import type { Kysely } from 'kysely';

/**
 * Indexes for the polled per-user reads of db/hot.ts. User info sums a user's open loans
 * (state 4): without (user_id, state) SQLite picks loans_state and walks every open loan of every
 * user on each poll.
 */
export function migration035() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.createIndex('loans_user_state').on('loans').columns(['user_id', 'state']).execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('loans_user_state').execute();
    },
  };
}
