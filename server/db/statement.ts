import { CompiledQuery, type Kysely, PostgresAdapter } from 'kysely';
import type { DB } from './schema';

/**
 * Fixed SQL for the writes every order makes (the ledger's two statements, the order row, the
 * position, the Idempotency-Key): run on the transaction as written, skipping Kysely's builder and
 * compiler, which cost more per order than SQLite spends executing them (a profile of
 * dealBuy showed ~100 µs of query building and the garbage it leaves, per order). Everything else
 * stays on the builder, where the schema types check it.
 *
 * A text is written once with `?` placeholders; PostgreSQL gets the same text numbered ($1, $2 …).
 * On SQLite the text is the statement cache's key (db/index.ts), so it is compiled once.
 */

/** `?` placeholders numbered for PostgreSQL. The texts here hold no `?` inside string literals. */
export function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/*
 * Kysely marks getExecutor() internal, but it is typed, and the adapter is the one thing that
 * tells a transaction's dialect; a Kysely upgrade that moves it fails the typecheck, not a user.
 */
const onPostgres = (db: Kysely<DB>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** Runs on `db` (a transaction or the database) and returns the rows (RETURNING, or none). */
export type Statement<Row> = (db: Kysely<DB>, params: readonly unknown[]) => Promise<Row[]>;

export function statement<Row = Record<string, unknown>>(text: string): Statement<Row> {
  const pg = numbered(text);
  return async (db, params) =>
    (await db.executeQuery<Row>(CompiledQuery.raw(onPostgres(db) ? pg : text, params as unknown[]))).rows;
}

const inserts = new Map<string, Statement<Record<string, unknown>>>();

/**
 * `insert into <table> (<the keys of values>) values (…) returning *`, its text made once per
 * table and set of keys (callers pass literal objects of a few fixed shapes). Column names come
 * from our own code, never from a request.
 */
export async function insertReturningAll<Row>(
  db: Kysely<DB>,
  table: keyof DB,
  values: Record<string, unknown>,
): Promise<Row> {
  // As the builder does, a key whose value is undefined is left out (the column's default).
  const columns = Object.keys(values).filter((c) => values[c] !== undefined);
  const key = `${table}\u0000${columns.join('\u0000')}`;
  let insert = inserts.get(key);
  if (insert === undefined) {
    const names = columns.map((c) => `"${c}"`).join(', ');
    insert = statement(
      `insert into "${table}" (${names}) values (${columns.map(() => '?').join(', ')}) returning *`,
    );
    inserts.set(key, insert);
  }
  const params = columns.map((c) => values[c]);
  const [row] = await insert(db, params);
  if (row === undefined) throw new Error(`insert into ${table} returned no row`);
  return row as Row;
}
