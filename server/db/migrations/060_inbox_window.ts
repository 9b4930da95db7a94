import type { Kysely } from 'kysely';

/**
 * The inbox is kept for a window: the `inbox:purge` job deletes items older than
 * NOTIFICATIONS_KEEP_MS (server/watchlists/alerts.ts) by their time, through this index.
 */
export function migration060InboxWindow() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.createIndex('notifications_created').on('notifications').column('created_at').execute();
    },
  };
}
