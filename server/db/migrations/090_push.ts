import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Web Push.
 * - push_keys: the demo's VAPID key pair, made at first start (one row, id 1); production takes
 *   VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY from its environment and never writes here.
 * - push_subscriptions: a device's subscription (endpoint, its keys, the device's name and
 *   language); an endpoint is one browser's, so it is unique across users.
 * - push_prefs: a user's groups turned off, lock-screen amounts and quiet hours (absent: defaults).
 * - push_outbox: one row per notice, written in the transaction of the event that caused it
 *   (server/notify/notify.ts); state 0 waits for the sender, 1 handed to the user's devices,
 *   2 not sent (group off, quiet hours, no device).
 * - push_deliveries: one row per notice and device, made by the sender; state 0 due at `next_at`,
 *   1 being sent since `claimed_at`, 2 sent, 3 failed for good, 4 in doubt (its sender died during
 *   the request: never sent again, so a device is never notified twice). Unique per notice and
 *   device, so a notice is handed to a device once.
 */
export function migration090Push(dialect: Dialect) {
  // biome-ignore lint/suspicious/noExplicitAny: the builder's table type is irrelevant here
  const withId = <T extends CreateTableBuilder<any, any>>(t: T): T =>
    (dialect === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())) as T;
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('push_keys')
        .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('private_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await withId(db.schema.createTable('push_subscriptions'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('endpoint', 'text', (c) => c.notNull().unique())
        .addColumn('p256dh', 'text', (c) => c.notNull())
        .addColumn('auth', 'text', (c) => c.notNull())
        .addColumn('device', 'text', (c) => c.notNull())
        .addColumn('lang', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_success_at', 'bigint')
        .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('push_subscriptions_user')
        .on('push_subscriptions')
        .column('user_id')
        .execute();
      await db.schema
        .createTable('push_prefs')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('muted', 'text', (c) => c.notNull())
        .addColumn('amounts', 'integer', (c) => c.notNull())
        .addColumn('quiet_start', 'integer')
        .addColumn('quiet_end', 'integer')
        .addColumn('quiet_tz', 'text')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await withId(db.schema.createTable('push_outbox'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('symbol', 'text', (c) => c.notNull())
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('notification_id', 'integer')
        .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('push_outbox_state').on('push_outbox').columns(['state', 'id']).execute();
      await db.schema.createIndex('push_outbox_created').on('push_outbox').column('created_at').execute();
      await withId(db.schema.createTable('push_deliveries'))
        .addColumn('outbox_id', 'integer', (c) =>
          c.notNull().references('push_outbox.id').onDelete('cascade'),
        )
        .addColumn('subscription_id', 'integer', (c) =>
          c.notNull().references('push_subscriptions.id').onDelete('cascade'),
        )
        .addColumn('state', 'integer', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_at', 'bigint', (c) => c.notNull())
        .addColumn('claimed_at', 'bigint')
        .addColumn('sent_at', 'bigint')
        .addColumn('status', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addUniqueConstraint('push_deliveries_once', ['outbox_id', 'subscription_id'])
        .execute();
      await db.schema
        .createIndex('push_deliveries_due')
        .on('push_deliveries')
        .columns(['state', 'next_at'])
        .execute();
      await db.schema
        .createIndex('push_deliveries_subscription')
        .on('push_deliveries')
        .column('subscription_id')
        .execute();
    },
  };
}
