import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Watchlists, price alerts and the inbox.
 * - watchlists: a user's named lists; `default_of` is the owner's id on the one default list
 *   (SPEC's favourites) and null on the others, so a unique index allows one default per user.
 * - watchlist_items: the instruments of a list. The favourites of 001 move into each user's
 *   default list and their table goes: one table holds every list's items.
 * - alerts: `value` is price ticks (above/below) or basis points (move); status 0 active, 1 fired.
 *   The index on status serves the tick job's scan of active alerts.
 * - notifications: the inbox; `params` is JSON of the text's values.
 */
export function migration046(dialect: Dialect) {
  // biome-ignore lint/suspicious/noExplicitAny: the builder's table type is irrelevant here
  const withId = <T extends CreateTableBuilder<any, any>>(t: T): T =>
    (dialect === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())) as T;
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('watchlists'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text')
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('default_of', 'integer', (c) => c.unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('watchlists_user')
        .on('watchlists')
        .columns(['user_id', 'position'])
        .execute();
      await db.schema
        .createTable('watchlist_items')
        .addColumn('list_id', 'integer', (c) => c.notNull().references('watchlists.id').onDelete('cascade'))
        .addColumn('symbol', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('watchlist_items_pk', ['list_id', 'symbol'])
        .execute();

      const owners = await db.selectFrom('favourites').select('user_id').distinct().execute();
      for (const { user_id } of owners) {
        await db
          .insertInto('watchlists')
          .values({ user_id, name: null, position: 0, default_of: user_id, created_at: Date.now() })
          .execute();
      }
      await sql`insert into watchlist_items (list_id, symbol, created_at)
        select w.id, f.symbol, f.created_at from favourites f join watchlists w on w.default_of = f.user_id`.execute(
        db,
      );
      await db.schema.dropTable('favourites').execute();

      await withId(db.schema.createTable('alerts'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('symbol', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('value', 'bigint', (c) => c.notNull())
        .addColumn('ref_price', 'bigint', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('fired_at', 'bigint')
        .addColumn('fired_price', 'bigint')
        .execute();
      await db.schema.createIndex('alerts_user').on('alerts').columns(['user_id', 'status']).execute();
      await db.schema.createIndex('alerts_status').on('alerts').columns(['status', 'symbol']).execute();

      await withId(db.schema.createTable('notifications'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('ref_id', 'integer')
        .addColumn('symbol', 'text', (c) => c.notNull())
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('read_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('notifications_user')
        .on('notifications')
        .columns(['user_id', 'read_at', 'id'])
        .execute();
      // One inbox item per firing: a fired alert is written once even if two jobs raced.
      await db.schema
        .createIndex('notifications_ref')
        .on('notifications')
        .columns(['kind', 'ref_id', 'created_at'])
        .unique()
        .execute();
    },
  };
}
