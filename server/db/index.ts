import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  PostgresDialect,
  SqliteDialect,
} from 'kysely';
import pg from 'pg';
import { migrations } from './migrations/index';
import type { DB } from './schema';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The raw SQLite handle, for prepared statements on hot paths (null on PostgreSQL). */
  sqlite: SQLite.Database | null;
  close(): Promise<void>;
}

// int8 (bigint) columns hold minor units and epoch ms: all far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export function createDatabase(url: string): Database {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle client the server drops (restart, failover, DROP DATABASE … FORCE) is already removed
    // from the pool; without a listener its 'error' event would crash the process.
    pool.on('error', () => {});
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', sqlite: null, close: () => db.destroy() };
  }
  const file = url.replace(/^sqlite:/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // The ledger must survive power loss, not only a killed process.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', sqlite, close: () => db.destroy() };
}

export async function migrate(database: Database): Promise<void> {
  const all = migrations(database.dialect);
  const provider: MigrationProvider = { getMigrations: async (): Promise<Record<string, Migration>> => all };
  // Branches land migrations out of number order (ranges per area); each still runs once.
  const migrator = new Migrator({ db: database.db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}

const RETRYABLE_PG = new Set(['40001', '40P01']);

function isRetryable(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return (
    code !== undefined &&
    (RETRYABLE_PG.has(code) || code === 'SQLITE_BUSY' || code === 'SQLITE_BUSY_SNAPSHOT')
  );
}

/**
 * Runs `fn` in one transaction. Serialization failures and deadlocks (PostgreSQL) and a busy
 * database (SQLite shared by two processes) are retried a bounded number of times.
 */
export async function withTx<T>(
  database: Database,
  fn: (trx: Kysely<DB>) => Promise<T>,
  attempts = 5,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await database.db.transaction().execute(fn);
    } catch (err) {
      if (attempt >= attempts || !isRetryable(err)) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 10 * 2 ** attempt));
    }
  }
}
