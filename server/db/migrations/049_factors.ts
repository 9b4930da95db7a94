import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * Second factors. The factor tables belong to server/factors and name their owner by a
 * text key (`user:12`, later `staff:3`), not by a foreign key to `users`, so staff accounts use
 * the same tables.
 * - factor_passkeys: WebAuthn credentials (public key as COSE, base64url; the signature counter;
 *   `flagged_at` once a counter went backwards: a cloned authenticator).
 * - factor_totp: one authenticator-app secret per owner, sealed with FACTOR_KEY (AES-256-GCM);
 *   `confirmed_at` null until a first code proved the app has it; `last_step` the newest
 *   30-second step a code was accepted for (a code is good once).
 * - factor_recovery: single-use recovery codes, HMAC-SHA-256 under FACTOR_KEY (never the code).
 * - factor_challenges: WebAuthn challenges, single use, short-lived, bound to their owner.
 * And for customers:
 * - sessions.stage: `full`, or a password-only step (`verify`: a factor to give; `enrol`: a factor
 *   to set up first), which opens nothing else; sessions.device: the device a step came from
 *   (known_devices' key), so the full session it leads to is counted for that device.
 * - known_devices: devices a user has signed in from (a hash of the app's device id), so a sign-in
 *   from a new one can be told to the user.
 */
export function migration049Factors(dialect: Dialect) {
  // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
  const withId = <T extends CreateTableBuilder<any, any>>(t: T): T =>
    (dialect === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())) as T;
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await withId(db.schema.createTable('factor_passkeys'))
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('credential_id', 'text', (c) => c.notNull().unique())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('transports', 'text', (c) => c.notNull())
        .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint')
        .addColumn('flagged_at', 'bigint')
        .execute();
      await db.schema.createIndex('factor_passkeys_owner').on('factor_passkeys').column('owner').execute();

      await db.schema
        .createTable('factor_totp')
        .addColumn('owner', 'text', (c) => c.primaryKey())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('confirmed_at', 'bigint')
        .addColumn('last_step', 'bigint')
        .execute();

      await db.schema
        .createTable('factor_recovery')
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .addPrimaryKeyConstraint('factor_recovery_pk', ['owner', 'code_hash'])
        .execute();

      await db.schema
        .createTable('factor_challenges')
        .addColumn('challenge', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('factor_challenges_expiry')
        .on('factor_challenges')
        .column('expires_at')
        .execute();

      await db.schema
        .alterTable('sessions')
        .addColumn('stage', 'text', (c) => c.notNull().defaultTo('full'))
        .execute();
      await db.schema.alterTable('sessions').addColumn('device', 'text').execute();

      await db.schema
        .createTable('known_devices')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('device', 'text', (c) => c.notNull())
        .addColumn('first_at', 'bigint', (c) => c.notNull())
        .addColumn('last_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('known_devices_pk', ['user_id', 'device'])
        .execute();
    },
  };
}
