import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { PgTools } from '../config-values';
import { PRIVATE_FILE, privateDir, privateTemp } from '../lib/private-files';

/**
 * Backups of the whole database, taken online while the server serves:
 * - SQLite: SQLite's online backup API (better-sqlite3 `backup`) from a read-only connection of
 *   its own, every page in one step: one read transaction, so the copy is one consistent instant,
 *   and in WAL mode the server's writers are never blocked by it. (Copied a hundred pages at a
 *   time, as by default, a write by the server in between restarts the copy from the first page.)
 * - PostgreSQL: `pg_dump --format=custom` (one snapshot; restored with `pg_restore`), when the
 *   client tools are installed.
 * A backup is written beside its destination and renamed into place once complete and on disk,
 * so a crash never leaves a half file under the name. Backups and their temporaries are 0600 under
 * random names whatever the umask (lib/private-files.ts): they hold everything the database does.
 * Restores go only into an empty database.
 */

export type BackupFormat = 'sqlite' | 'pg_dump';

export interface BackupResult {
  format: BackupFormat;
  file: string;
  bytes: number;
  ms: number;
}

const SQLITE_MAGIC = 'SQLite format 3\0';
const PGDMP_MAGIC = 'PGDMP';

export const isPostgresUrl = (url: string) =>
  url.startsWith('postgres://') || url.startsWith('postgresql://');
const sqliteFile = (url: string) => path.resolve(url.replace(/^sqlite:/, ''));

/** What a backup file holds, read from its first bytes; null for anything else. */
export function backupFormatOf(file: string): BackupFormat | null {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(16);
    const n = fs.readSync(fd, head, 0, 16, 0);
    const text = head.subarray(0, n).toString('latin1');
    if (text === SQLITE_MAGIC) return 'sqlite';
    if (text.startsWith(PGDMP_MAGIC)) return 'pg_dump';
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `file` through a 0600 temporary of a random name beside it, fsynced and renamed into
 * place (a tool that copies a mode over it, as a file copy does, is narrowed again before the rename).
 */
async function writeAtomically(file: string, write: (tmp: string) => Promise<void>): Promise<number> {
  const target = path.resolve(file);
  // A backup folder that does not exist yet is made 0700 (one that does keeps its mode).
  privateDir(path.dirname(target));
  const tmp = privateTemp(target);
  try {
    await write(tmp);
    const fd = fs.openSync(tmp, 'r');
    fs.fchmodSync(fd, PRIVATE_FILE);
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(tmp, target);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  return fs.statSync(target).size;
}

/** Copies the database at `url` to `file` while it is in use. */
export async function backupDatabase(url: string, file: string, tools: PgTools): Promise<BackupResult> {
  const started = performance.now();
  if (isPostgresUrl(url)) {
    const bytes = await writeAtomically(file, (tmp) =>
      runPgTool(tools, 'pg_dump', ['--format=custom', '--compress=6', `--file=${tmp}`], url),
    );
    return { format: 'pg_dump', file, bytes, ms: performance.now() - started };
  }
  const source = sqliteFile(url);
  if (!fs.existsSync(source)) throw new Error(`No database at ${source}`);
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const bytes = await writeAtomically(file, async (tmp) => {
      // The first step only measures; every page then goes in the second, one read transaction.
      await db.backup(tmp, { progress: () => 0x7fffffff });
    });
    return { format: 'sqlite', file, bytes, ms: performance.now() - started };
  } finally {
    db.close();
  }
}

/** The user tables of the database at `url` (none: it is empty and may be restored into). */
export async function tablesOf(url: string): Promise<string[]> {
  if (isPostgresUrl(url)) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        `select table_schema || '.' || table_name as name from information_schema.tables
          where table_schema not in ('pg_catalog', 'information_schema') order by 1`,
      );
      return rows.map((r) => r.name);
    } finally {
      await client.end();
    }
  }
  const file = sqliteFile(url);
  if (!fs.existsSync(file) || fs.statSync(file).size === 0) return [];
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    return (
      db.prepare("select name from sqlite_master where type = 'table' order by name").all() as Array<{
        name: string;
      }>
    ).map((r) => r.name);
  } finally {
    db.close();
  }
}

/**
 * Restores `file` into the database at `url`, which must be empty (a restore never overwrites
 * anything); the backup's kind must match the database's. Answers how long it took.
 */
export async function restoreDatabase(
  url: string,
  file: string,
  tools: PgTools,
): Promise<{ ms: number; format: BackupFormat }> {
  const started = performance.now();
  if (!fs.existsSync(file)) throw new Error(`No backup at ${file}`);
  const format = backupFormatOf(file);
  if (format === null)
    throw new Error(`${file} is neither an SQLite database nor a pg_dump custom-format file`);
  const wanted: BackupFormat = isPostgresUrl(url) ? 'pg_dump' : 'sqlite';
  if (format !== wanted) {
    throw new Error(
      format === 'sqlite'
        ? `${file} is an SQLite backup: restore it into a DATABASE_URL=sqlite:<file>`
        : `${file} is a PostgreSQL backup (pg_dump): restore it into a DATABASE_URL=postgres://…`,
    );
  }
  const tables = await tablesOf(url);
  if (tables.length > 0) {
    throw new Error(
      `Refusing to restore: the database at DATABASE_URL is not empty (${tables.length} tables, e.g. ${tables
        .slice(0, 3)
        .join(', ')}). Restore into a new, empty database.`,
    );
  }
  if (format === 'pg_dump') {
    // One transaction: a restore that fails leaves the database as empty as it found it.
    await runPgTool(
      tools,
      'pg_restore',
      ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', file],
      url,
    );
  } else {
    const target = sqliteFile(url);
    privateDir(path.dirname(target));
    // An empty file (or one without tables) and any journal beside it go: the copy replaces them.
    for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${target}${suffix}`, { force: true });
    await writeAtomically(target, async (tmp) => {
      fs.copyFileSync(file, tmp);
      // Checks the copy opens as a database before it takes the name.
      const db = new SQLite(tmp, { fileMustExist: true });
      try {
        const ok = db.pragma('quick_check', { simple: true });
        if (ok !== 'ok') throw new Error(`the backup is damaged: ${String(ok)}`);
      } finally {
        db.close();
      }
    });
  }
  return { ms: performance.now() - started, format };
}

/** Where PostgreSQL's client tools are: on PATH, else Debian's versioned folders (newest first). */
export function pgToolPath(tools: PgTools, name: 'pg_dump' | 'pg_restore'): string | null {
  const dirs = [
    ...(tools.binDir ? [tools.binDir] : []),
    ...tools.searchPath.split(path.delimiter).filter(Boolean),
  ];
  const versioned = fs.existsSync('/usr/lib/postgresql')
    ? fs
        .readdirSync('/usr/lib/postgresql')
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
    : [];
  for (const dir of [...dirs, ...versioned]) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * Runs pg_dump or pg_restore on the database at `url`. The password travels in the environment
 * (PGPASSWORD), not on the command line where any user's `ps` shows it.
 */
function runPgTool(
  tools: PgTools,
  name: 'pg_dump' | 'pg_restore',
  args: string[],
  url: string,
): Promise<void> {
  const bin = pgToolPath(tools, name);
  if (!bin) {
    return Promise.reject(
      new Error(
        `${name} was not found: PostgreSQL backups need its client tools (Debian: apt-get install postgresql-client; or set PG_BIN_DIR)`,
      ),
    );
  }
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [...args, `--dbname=${parsed.toString()}`], {
      env: { ...tools.env, ...(password ? { PGPASSWORD: password } : {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${name} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}
