import type { Kysely } from 'kysely';

/**
 * Product facts the pages show before a user commits: an IPO's price band (its low
 * end; the issue price is the top, where retail applications are filled) and allotment date; a
 * fund's manager and risk level (1 low … 5 high). Null where the operator has not set them: the
 * app then shows nothing rather than a guess. The seed fills them for its own rows.
 */
export function migration047() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.alterTable('ipos').addColumn('band_low', 'bigint').execute();
      await db.schema.alterTable('ipos').addColumn('allotment_date', 'bigint').execute();
      await db.schema.alterTable('funds').addColumn('manager', 'text').execute();
      await db.schema.alterTable('funds').addColumn('risk', 'integer').execute();
    },
  };
}
