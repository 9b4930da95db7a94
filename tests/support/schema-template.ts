import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDatabase, migrate } from '../../server/db/index';
import { freshPgDatabase, TEST_TMP } from './server';

/**
 * The server suites' global setup: the migrated schema, made once per run and per dialect, which
 * every test server then copies (a file copy on SQLite, `CREATE DATABASE … TEMPLATE` on
 * PostgreSQL). Each test server had migrated its own: the whole Vitest run went from 311 to 287 s
 * on the 2-core machine with this. A test server still runs `migrate` on its copy,
 * which finds nothing to do (and would catch a stale copy).
 */
export interface SchemaTemplates {
  /** A migrated SQLite file, never opened by a test (copied). */
  sqlite: string;
  /** A migrated PostgreSQL database no one connects to, or null without TEST_PG_URL. */
  postgres: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    schemaTemplates: SchemaTemplates;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(TEST_TMP, 'bourse-schema-'));
  const sqlite = path.join(dir, 'schema.db');
  const lite = createDatabase(`sqlite:${sqlite}`);
  await migrate(lite);
  // Closing the last connection checkpoints the WAL into the file: the copy is the whole database.
  await lite.close();
  if (fs.existsSync(`${sqlite}-wal`)) throw new Error('the SQLite schema template kept its WAL');

  // The same empty database a test server would get (tests/support/server.ts), migrated here once.
  const pg = process.env.TEST_PG_URL ? await freshPgDatabase() : null;
  if (pg) {
    const db = createDatabase(pg.url);
    try {
      await migrate(db);
    } catch (err) {
      await db.close();
      await pg.drop();
      throw err;
    }
    await db.close();
  }
  project.provide('schemaTemplates', { sqlite, postgres: pg?.name ?? null });

  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await pg?.drop();
  };
}
