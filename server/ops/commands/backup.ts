import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../../config';
import { backupDatabase, backupFormatOf, isPostgresUrl, restoreDatabase } from '../../db/backup';
import { createDatabase } from '../../db/index';
import { migrations } from '../../db/migrations/index';
import { auditLedger, formatAudit } from '../../wallet/audit';
import { options } from './args';

/**
 * The operator's backups: `backup <file>` (online, while the server serves), `restore
 * <file>` (into the configured, empty DATABASE_URL) and `backup:verify <file>` (opens a copy of
 * the backup — never the backup itself — checks it, and runs the ledger audit on it). They work on
 * the database as a whole, so the CLI hands them the configuration instead of an opened, migrated
 * database: a restore must find its target exactly as it is.
 */
export interface OpsStoreCommand {
  name: string;
  usage: string;
  summary: string;
  run(config: Config, args: string[]): Promise<string>;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function fileArg(file: string | undefined, what: string): string {
  if (!file)
    throw new Error(
      `Give the ${what} file: npm run ops -- ${what === 'backup' ? 'backup' : 'restore'} <file>`,
    );
  return path.resolve(file);
}

/** What a restored copy says about itself: its migrations against this version's, and the audit. */
async function checkCopy(url: string): Promise<{ text: string; ok: boolean }> {
  const database = createDatabase(url);
  try {
    const lines: string[] = [];
    let ok = true;
    if (database.sqlite) {
      const integrity = database.sqlite.pragma('integrity_check', { simple: true });
      lines.push(`integrity: ${String(integrity)}`);
      if (integrity !== 'ok') ok = false;
    }
    const known = Object.keys(migrations(database.dialect));
    const applied = (
      await sql<{ name: string }>`select name from kysely_migration`.execute(database.db)
    ).rows.map((r) => r.name);
    const newer = applied.filter((name) => !known.includes(name));
    const missing = known.filter((name) => !applied.includes(name));
    lines.push(
      `schema: ${applied.length} migrations` +
        (missing.length ? `, ${missing.length} to apply when a server of this version starts on it` : '') +
        (newer.length ? `, ${newer.length} unknown to this version (${newer.join(', ')})` : ''),
    );
    const report = await auditLedger(database.db);
    lines.push(formatAudit(report));
    if (report.problems.length > 0) ok = false;
    return { text: lines.join('\n'), ok };
  } finally {
    await database.close();
  }
}

/** A scratch PostgreSQL database on the server of `url`, dropped by the returned function. */
async function scratchDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bourse_verify_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return {
    url: scratch.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export const BACKUP_COMMANDS: OpsStoreCommand[] = [
  {
    name: 'backup',
    usage: 'backup <file>',
    summary: 'an online, consistent copy of the database (SQLite backup API, or pg_dump custom format)',
    async run(config, args) {
      const file = fileArg(options(args).positional[0], 'backup');
      const r = await backupDatabase(config.databaseUrl, file, config.pgTools);
      return `backup written: ${r.file} (${r.format}, ${mb(r.bytes)}) in ${seconds(r.ms)}`;
    },
  },
  {
    name: 'restore',
    usage: 'restore <file>',
    summary: 'restore a backup into the configured DATABASE_URL, which must be empty',
    async run(config, args) {
      const file = fileArg(options(args).positional[0], 'restore');
      const r = await restoreDatabase(config.databaseUrl, file, config.pgTools);
      return `restored ${file} (${r.format}) in ${seconds(r.ms)}; a server started on it migrates it to this version`;
    },
  },
  {
    name: 'backup:verify',
    usage: 'backup:verify <file> [--scratch postgres://…]',
    summary: 'restore a copy of a backup aside and run the integrity check and the ledger audit on it',
    async run(config, args) {
      const { positional, named } = options(args);
      const file = fileArg(positional[0], 'backup');
      if (!fs.existsSync(file)) throw new Error(`No backup at ${file}`);
      const format = backupFormatOf(file);
      if (format === null)
        throw new Error(`${file} is neither an SQLite database nor a pg_dump custom-format file`);
      const started = performance.now();
      let checked: { text: string; ok: boolean };
      if (format === 'sqlite') {
        // A copy: opening the backup itself would write beside it (its WAL) and could change it.
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-verify-'));
        try {
          const url = `sqlite:${path.join(dir, 'copy.db')}`;
          await restoreDatabase(url, file, config.pgTools);
          checked = await checkCopy(url);
        } finally {
          fs.rmSync(dir, { recursive: true, force: true });
        }
      } else {
        const server = named.scratch ?? (isPostgresUrl(config.databaseUrl) ? config.databaseUrl : '');
        if (!server)
          throw new Error(
            'A PostgreSQL backup is verified by restoring it into a scratch database: give --scratch postgres://… (a server where this user may create databases)',
          );
        const scratch = await scratchDatabase(server);
        try {
          await restoreDatabase(scratch.url, file, config.pgTools);
          checked = await checkCopy(scratch.url);
        } finally {
          await scratch.drop();
        }
      }
      const text = `${file} (${format}, ${mb(fs.statSync(file).size)}), verified in ${seconds(performance.now() - started)}\n${checked.text}`;
      if (!checked.ok) throw new Error(`${text}\nbackup:verify: FAILED`);
      return `${text}\nbackup:verify: OK`;
    },
  },
];
