import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect';

/**
 * The ledger audit's runs: each run of the server's `ledger:audit` job or of
 * `npm run ops -- ledger:audit` records when it ran, how long it took, what it covered and how many
 * problems it found (the first ones in `summary`), so the metrics can report the last result
 * whichever process ran it.
 */
export function migration061LedgerAudits(dialect: Dialect) {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('ledger_audits')
        .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('took_ms', 'integer', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('users', 'integer', (c) => c.notNull())
        .addColumn('postings', 'integer', (c) => c.notNull())
        .addColumn('problems', 'integer', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .execute();
    },
  };
}
