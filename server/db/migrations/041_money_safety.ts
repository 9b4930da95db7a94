import type { Kysely } from 'kysely';

/**
 * Money safety.
 * - block_items.supply / sold: each block/QIP item offers a finite quantity; purchases use it up
 *   with a guarded update (`sold + count <= supply`). Items made before this migration get 20
 *   times their minimum.
 * - orders.unlock_at: when a block/QIP lot may be sold (the lock-in); null for other rows.
 * - sessions.last_seen_at: the idle timeout of production sessions (refreshed at most once a
 *   minute, so a polling app does not write on every call).
 */
export function migration041() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('block_items')
        .addColumn('supply', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('block_items')
        .addColumn('sold', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db
        .updateTable('block_items')
        .set((eb) => ({ supply: eb('count', '*', 20) }))
        .execute();
      await db.schema.alterTable('orders').addColumn('unlock_at', 'bigint').execute();
      await db.schema.alterTable('sessions').addColumn('last_seen_at', 'bigint').execute();
    },
  };
}
