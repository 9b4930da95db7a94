import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * A second factor a stolen session cannot turn.
 * - sessions.step_up_at: when this session last gave a fresh proof of an existing factor
 *   (account/step-up.ts); one change that needs it (a factor added, a card, a withdrawal, a new
 *   password) uses it up.
 * - factor_challenges.session / factor_totp.session: the session (sha256 of its token) a passkey's
 *   registration challenge or a pending authenticator-app secret was made for — only that session
 *   may finish the enrolment; `gated` = 1 when it was made after a fresh proof of an existing
 *   factor, so one begun while the account had none dies when the account gets one.
 * - security_changes: factor changes and password resets, with where they came from, shown on the
 *   next sign-in of every other device until that device acknowledges them
 *   (known_devices.changes_seen_at), and holding withdrawals for a day.
 */
export function migration049StepUp(dialect: Dialect) {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema.alterTable('sessions').addColumn('step_up_at', 'bigint').execute();
      await db.schema.alterTable('factor_challenges').addColumn('session', 'text').execute();
      await db.schema
        .alterTable('factor_challenges')
        .addColumn('gated', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('factor_totp').addColumn('session', 'text').execute();
      await db.schema
        .alterTable('factor_totp')
        .addColumn('gated', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('known_devices').addColumn('changes_seen_at', 'bigint').execute();
      await db.schema
        .createTable('security_changes')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addColumn('device', 'text', (c) => c.notNull())
        .addColumn('device_name', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('security_changes_user_at')
        .on('security_changes')
        .columns(['user_id', 'at'])
        .execute();
    },
  };
}
