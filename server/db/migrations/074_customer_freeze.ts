import type { Kysely } from 'kysely';

/**
 * A customer frozen by two members of staff (server/account/freeze.ts): since when, or null.
 * While set, the customer's money calls are refused and their payouts wait; reading stays open.
 */
export function migration074CustomerFreeze() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.alterTable('users').addColumn('frozen_at', 'bigint').execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async down(db: Kysely<any>) {
      await db.schema.alterTable('users').dropColumn('frozen_at').execute();
    },
  };
}
