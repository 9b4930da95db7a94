import type { Kysely } from 'kysely';

/**
 * A login password reset by two members of staff (server/account/controls.ts): since when, or
 * null. While set, the password signs nobody in; only forgot-password (which clears it) opens the
 * account again.
 */
export function migration094PasswordResetDue() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.alterTable('users').addColumn('password_reset_at', 'bigint').execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async down(db: Kysely<any>) {
      await db.schema.alterTable('users').dropColumn('password_reset_at').execute();
    },
  };
}
