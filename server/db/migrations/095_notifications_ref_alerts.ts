import { type Kysely, sql } from 'kysely';

/**
 * The inbox's one-item-per-firing guard (046's notifications_ref) only where it means something: a
 * fired alert, which two racing jobs could write twice. Over every kind it also refused a second
 * notice about the same row in the same millisecond — a withdrawal held at its request and refunded
 * by the operator, both 'payout' on one withdrawal — and with it the operator's refusal itself.
 */
export function migration095NotificationsRefAlerts() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.dropIndex('notifications_ref').execute();
      await db.schema
        .createIndex('notifications_ref')
        .on('notifications')
        .columns(['kind', 'ref_id', 'created_at'])
        .unique()
        .where(sql.ref('kind'), '=', 'alert')
        .execute();
    },
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('notifications_ref').execute();
      await db.schema
        .createIndex('notifications_ref')
        .on('notifications')
        .columns(['kind', 'ref_id', 'created_at'])
        .unique()
        .execute();
    },
  };
}
