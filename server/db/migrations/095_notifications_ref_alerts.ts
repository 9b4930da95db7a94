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
    up: (db: Kysely<any>) => recreateRefIndex(db, true),
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    down: (db: Kysely<any>) => recreateRefIndex(db, false),
  };
}

/** notifications_ref again, over fired alerts only or (as 046 made it) over every kind. */
// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
async function recreateRefIndex(db: Kysely<any>, alertsOnly: boolean): Promise<void> {
  await db.schema.dropIndex('notifications_ref').execute();
  const index = db.schema
    .createIndex('notifications_ref')
    .on('notifications')
    .columns(['kind', 'ref_id', 'created_at'])
    .unique();
  await (alertsOnly ? index.where(sql.ref('kind'), '=', 'alert') : index).execute();
}
