import type { Kysely } from 'kysely';

/**
 * The audit log proves itself: `audit_log.mac`, HMAC-SHA256 of the entry's hash under a
 * key the database never holds (AUDIT_KEY; lib/audit-seal.ts). Entries written before this have
 * none: verification accepts unsealed entries only before the first sealed one.
 */
export function migration071AuditSeal() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.alterTable('audit_log').addColumn('mac', 'text').execute();
    },
  };
}
