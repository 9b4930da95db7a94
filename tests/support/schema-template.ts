import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDatabase, migrate } from '../../server/db/index';

/**
 * The server suites' global setup: the migrated schema, made once per run and per dialect, which
 * every test server then copies (a file copy on SQLite, `CREATE DATABASE … TEMPLATE` on
 * PostgreSQL). Migrating took about a second per test server, two servers per suite: a third of
 * the server suites' time on the 2-core machine. A test server still runs `migrate` on its copy,
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

async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-schema-'));
  const sqlite = path.join(dir, 'schema.db');
  const lite = createDatabase(`sqlite:${sqlite}`);
  await migrate(lite);
  // Closing the last connection checkpoints the WAL into the file: the copy is the whole database.
  await lite.close();
  if (fs.existsSync(`${sqlite}-wal`)) throw new Error('the SQLite schema template kept its WAL');

  const pgUrl = process.env.TEST_PG_URL ?? '';
  let postgres: string | null = null;
  if (pgUrl !== '') {
    const name = `bourse_schema_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    await admin(pgUrl, (c) => c.query(`create database ${name}`));
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    const db = createDatabase(url.toString());
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    postgres = name;
  }
  project.provide('schemaTemplates', { sqlite, postgres });

  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (postgres) await admin(pgUrl, (c) => c.query(`drop database if exists ${postgres} with (force)`));
  };
}
