import type { Kysely } from 'kysely';

/**
 * Daily valuation snapshots: one row per user and India calendar day, rewritten by the
 * `portfolio:snapshot` job through the day, so a past day keeps its last valuation. Not money: the
 * ledger stays the only record of balances; this is what the value chart draws.
 */
export function migration049() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('portfolio_snapshots')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('total', 'bigint', (c) => c.notNull())
        .addColumn('cash', 'bigint', (c) => c.notNull())
        .addColumn('holdings', 'bigint', (c) => c.notNull())
        .addColumn('invested', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('portfolio_snapshots_pk', ['user_id', 'day'])
        .execute();
    },
  };
}
