import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  type LogEvent,
  type Migration,
  type MigrationProvider,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
} from 'kysely';
import pg from 'pg';
import { narrowExisting, privateDir, privateFile } from '../lib/private-files';
import type { Dialect } from './dialect';
import { migrations } from './migrations/index';
import type { DB } from './schema';

export type { Dialect } from './dialect';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** The raw SQLite handle, for prepared statements on hot paths (null on PostgreSQL). */
  sqlite: SQLite.Database | null;
  /**
   * SQLite file databases: a second, read-only connection for the hot reads of `db/hot.ts` (WAL
   * lets it read committed data while the writer works); null on PostgreSQL and in memory.
   */
  reader: SQLite.Database | null;
  /** SQLite: transactions that arrive together share one commit (GroupCommit); null when off. */
  group: GroupCommit | null;
  /**
   * PostgreSQL: the pool under `db`, for the hot reads of `db/hot.ts` as named prepared statements
   * (parsed and planned once per connection); null on SQLite.
   */
  pool: pg.Pool | null;
  /**
   * Told of every query's time (metrics, when they are on: lib/metrics.ts sets it): Kysely's
   * queries and PostgreSQL's hot reads. `kind` is the statement's first word (select, insert…).
   */
  timing: QueryTiming;
  close(): Promise<void>;
}

export interface QueryTiming {
  onQuery: ((kind: string, ms: number, failed: boolean) => void) | null;
}

/** Kysely's log hook, forwarding each query's time to `timing` while someone listens. */
function timed(timing: QueryTiming) {
  return (event: LogEvent) => {
    const listen = timing.onQuery;
    if (listen === null) return;
    const text = event.query.sql;
    const space = text.search(/\s/);
    listen(
      (space > 0 ? text.slice(0, space) : text).toLowerCase(),
      event.queryDurationMillis,
      event.level === 'error',
    );
  };
}

// int8 (bigint) columns hold minor units and epoch ms: all far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * `groupCommit` (config `SQLITE_GROUP_COMMIT`): SQLite only, see GroupCommit. `connectTimeoutMs`
 * (config `PG_CONNECT_TIMEOUT_MS`): PostgreSQL only, the wait for a pool connection.
 */
export function createDatabase(
  url: string,
  options: { groupCommit?: boolean; connectTimeoutMs?: number } = {},
): Database {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    // A database that does not answer fails a request in 5 s (a 503 the app shows as unreachable),
    // well inside the app's 10 s timeout, instead of leaving it waiting for a connection.
    const pool = new pg.Pool({
      connectionString: url,
      max: 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      keepAlive: true,
    });
    // An idle client the server drops (restart, failover, DROP DATABASE … FORCE) is already removed
    // from the pool; without a listener its 'error' event would crash the process.
    pool.on('error', () => {});
    // A client in use (checked out by a transaction, between two of its statements) whose server
    // goes away emits 'error' too, which pg-pool only listens for while the client is idle: without
    // this the process died with PostgreSQL (the kill -9 drill, tests/server/drill-postgres). The
    // failure reaches the caller through its next statement, and pg-pool drops the broken client
    // when it is released.
    pool.on('connect', (client) => client.on('error', () => {}));
    const timing: QueryTiming = { onQuery: null };
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: timed(timing) });
    return {
      db,
      dialect: 'postgres',
      sqlite: null,
      reader: null,
      group: null,
      pool,
      timing,
      close: () => db.destroy(),
    };
  }
  const file = url.replace(/^sqlite:/, '');
  const inMemory = file === ':memory:' || file.startsWith('file::memory:');
  if (!inMemory) {
    // Only the service reads it (lib/private-files.ts): SQLite gives the WAL and shared-memory
    // files it creates the database file's mode, so a 0600 database keeps its companions 0600.
    privateDir(path.dirname(path.resolve(file)));
    privateFile(file);
    narrowExisting(['-wal', '-shm', '-journal'].map((suffix) => `${file}${suffix}`));
  }
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  // The ledger must survive power loss, not only a killed process.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const timing: QueryTiming = { onQuery: null };
  const db = new Kysely<DB>({
    dialect: new SqliteDialect({ database: statementCache(sqlite) }),
    log: timed(timing),
  });
  const group = options.groupCommit ? new GroupCommit(db) : null;
  let reader: SQLite.Database | null = null;
  if (!inMemory) {
    // Opened after the writer switched the file to WAL, so it never reads in rollback-journal mode.
    reader = new SQLite(file, { readonly: true, fileMustExist: true });
    reader.pragma('busy_timeout = 5000');
  }
  return {
    db,
    dialect: 'sqlite',
    sqlite,
    reader,
    group,
    pool: null,
    timing,
    close: async () => {
      reader?.close();
      await db.destroy();
    },
  };
}

/** Statements kept compiled; past this the oldest is dropped (texts vary with IN-list lengths). */
const STATEMENT_CACHE = 1000;

/**
 * Kysely's SQLite driver asks better-sqlite3 to compile every query anew (`prepare`), which costs
 * more than running it for the small indexed statements of a request. The same text gets the same
 * compiled statement back here; Kysely runs statements one at a time on the one connection
 * (`all`/`run`, never left iterating), so sharing one is safe.
 */
function statementCache(sqlite: SQLite.Database): { prepare: SQLite.Database['prepare']; close(): void } {
  const cache = new Map<string, SQLite.Statement>();
  return {
    prepare(source: string) {
      let stmt = cache.get(source);
      if (stmt === undefined) {
        stmt = sqlite.prepare(source);
        if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value as string);
        cache.set(source, stmt);
      }
      return stmt;
    },
    close: () => sqlite.close(),
  } as { prepare: SQLite.Database['prepare']; close(): void };
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
  if (database.group) return database.group.run(fn);
  for (let attempt = 1; ; attempt++) {
    try {
      return await database.db.transaction().execute(fn);
    } catch (err) {
      if (attempt >= attempts || !isRetryable(err)) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 10 * 2 ** attempt));
    }
  }
}

/** Most transactions one commit may carry: bounds how long one batch holds the database. */
const MAX_BATCH = 64;

interface Queued {
  fn: (trx: Kysely<DB>) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

/**
 * Group commit for SQLite (on unless SQLITE_GROUP_COMMIT=0). At synchronous=FULL every commit waits for an
 * fsync that also blocks Node's only thread, so one transaction per request caps money calls at
 * the disk's fsync rate. Here the transactions waiting when a batch starts (and those arriving
 * while it runs, up to MAX_BATCH) run one after another inside one database transaction, each in
 * its own SAVEPOINT, and are committed together with one fsync:
 * - a transaction that throws is rolled back to its savepoint alone and its caller gets the error;
 * - no caller hears success before the shared COMMIT is durable; if BEGIN or COMMIT fails, the
 *   whole batch is rolled back and every caller in it gets the error — none is half-applied;
 * - they run strictly one at a time on the one connection, in arrival order, each seeing the
 *   effects of those before it: the serial order SQLite's single writer gives anyway.
 */
export class GroupCommit {
  private readonly queue: Queued[] = [];
  private draining = false;

  constructor(private readonly db: Kysely<DB>) {}

  /** Transactions waiting for the next batch (metrics: SQLite's answer to a pool's waiting count). */
  get waiting(): number {
    return this.queue.length;
  }

  run<T>(fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        // Let requests already under way (reading their session) reach the queue first.
        await new Promise((r) => setImmediate(r));
        await this.batch();
      }
    } finally {
      this.draining = false;
    }
  }

  private async batch(): Promise<void> {
    const done: { job: Queued; ok: boolean; value: unknown }[] = [];
    let current: Queued | null = null;
    try {
      await this.db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          while (this.queue.length > 0 && done.length < MAX_BATCH) {
            const job = this.queue.shift()!;
            current = job;
            await sql`savepoint group_tx`.execute(conn);
            try {
              const value = await job.fn(conn);
              await sql`release group_tx`.execute(conn);
              done.push({ job, ok: true, value });
            } catch (err) {
              await sql`rollback to group_tx`.execute(conn);
              await sql`release group_tx`.execute(conn);
              done.push({ job, ok: false, value: err });
            }
            current = null;
          }
          await sql`commit`.execute(conn);
        } catch (err) {
          await sql`rollback`.execute(conn).catch(() => {});
          throw err;
        }
      });
    } catch (err) {
      // Nothing of this batch was kept. If the database refused even to begin, the waiting
      // callers get the error too rather than a retry loop.
      const failed = [...done.map((d) => d.job), ...(current ? [current] : [])];
      if (failed.length === 0) failed.push(...this.queue.splice(0));
      for (const job of failed) job.reject(err);
      return;
    }
    for (const { job, ok, value } of done) (ok ? job.resolve : job.reject)(value);
  }
}
