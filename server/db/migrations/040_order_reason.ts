import type { Kysely } from 'kysely';

/**
 * A refused block/QIP buy is kept as a failed order (SPEC §4 status 2) with the i18n key of why it
 * was refused, so the Failed tab can show it.
 */
export function migration040() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.alterTable('orders').addColumn('reason', 'text').execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async down(db: Kysely<any>) {
      await db.schema.alterTable('orders').dropColumn('reason').execute();
    },
  };
}
