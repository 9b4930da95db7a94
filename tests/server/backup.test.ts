import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { pgToolPath } from '../../server/db/backup';
import { createDatabase, migrate } from '../../server/db/index';
import { createDeps } from '../../server/deps';
import { BACKUP_COMMANDS } from '../../server/ops/commands/backup';
import { COMMANDS } from '../../server/ops/commands/index';
import { prepareDatabase } from '../bench/api-kit';
import {
  buyStream,
  call,
  freePort,
  type Instance,
  program,
  startInstance,
  stopAll,
} from '../support/process';
import { freshPgDatabase, PG_URL } from '../support/server';

/**
 * Backups, through the operator's commands as an operator runs them: `backup` while the
 * real server serves a stream of buys, `backup:verify` (integrity and the ledger audit on a copy),
 * `restore` into an empty database — and a refusal to restore over one that is not. The copy is
 * one instant: every buy acknowledged before the backup began is in it, and its audit is clean
 * although buys were in flight. SQLite through the online backup API, PostgreSQL through pg_dump.
 */

const root = path.resolve(import.meta.dirname, '../..');
const SYMBOL = 'RELIANCE.NS';

/** `npm run ops -- <args>` on `url` as its own process: exit code and everything it printed. */
function opsProcess(url: string, ...args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...program('ops'), ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code: code ?? 1, out }));
  });
}

/**
 * The same command run in this process (each process of the CLI costs seconds of start-up here; the
 * backup under load runs as its own process, `opsProcess`):
 * what the CLI would print, and its exit code.
 */
async function ops(url: string, name: string, ...args: string[]): Promise<{ code: number; out: string }> {
  const config = loadConfig({ ...process.env, DATABASE_URL: url });
  const command = BACKUP_COMMANDS.find((c) => c.name === name);
  if (command) {
    try {
      return { code: 0, out: await command.run(config, args) };
    } catch (err) {
      return { code: 1, out: (err as Error).message };
    }
  }
  const database = createDatabase(url);
  try {
    await migrate(database);
    const deps = createDeps(config, database);
    deps.market.stop();
    return { code: 0, out: String(await COMMANDS.find((c) => c.name === name)!.run(deps, args)) };
  } catch (err) {
    return { code: 1, out: (err as Error).message };
  } finally {
    await database.close();
  }
}

const { pgTools: tools } = loadConfig();
const pgTools = pgToolPath(tools, 'pg_dump') !== null && pgToolPath(tools, 'pg_restore') !== null;
if (PG_URL !== '' && !pgTools)
  console.warn(
    '\n!! pg_dump/pg_restore not found: the PostgreSQL backup test is SKIPPED (apt-get install postgresql-client)\n',
  );

describe.each([
  { dialect: 'sqlite' as const, enabled: true },
  { dialect: 'postgres' as const, enabled: PG_URL !== '' && pgTools },
])('backup and restore on $dialect', ({ dialect, enabled }) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    await stopAll();
    for (const c of cleanups.reverse()) await c();
  }, 60_000);

  /** An empty database of the dialect, or (`migrated`) a copy of the run's migrated schema. */
  const emptyDatabase = async (dir: string, name: string, migrated = false): Promise<string> => {
    const template = migrated ? inject('schemaTemplates') : undefined;
    if (dialect === 'sqlite') {
      const file = path.join(dir, `${name}.db`);
      if (template) fs.copyFileSync(template.sqlite, file);
      return `sqlite:${file}`;
    }
    const created = await freshPgDatabase(template?.postgres ?? undefined);
    cleanups.push(created.drop);
    return created.url;
  };

  it.runIf(enabled)(
    'copies the database while it serves buys; the copy verifies and restores, and a full database is never overwritten',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-backup-'));
      cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
      const url = await emptyDatabase(dir, 'live', true);
      const tokens = await prepareDatabase(url, 8);
      const server: Instance = await startInstance('server', await freePort(), {
        DATABASE_URL: url,
        DIST_DIR: path.join(dir, 'no-dist'),
        UPLOADS_DIR: path.join(dir, 'uploads'),
        LOG_LEVEL: 'warn',
        DEMO_USER: '0',
        // Whatever the hour: a buy that rests instead of filling is acknowledged all the same.
        MAX_OPEN_ORDERS: '100000',
      });
      const price = (await call(server, 'quote', { query: { symbol: SYMBOL } })).body.data.price as number;
      const stream = buyStream({ instances: () => [server], tokens, symbol: SYMBOL, price, connections: 8 });
      // Load first, then the backup in the middle of it.
      while (stream.acked.length < 50) await new Promise((r) => setTimeout(r, 20));
      const before = stream.acked.length;
      const beforeIds = stream.acked.slice(0, before).map((a) => a.id);
      const file = path.join(dir, dialect === 'sqlite' ? 'copy.db' : 'copy.dump');
      // The operator's command as its own process: this one's event loop (which counts the acks)
      // stays free while the copy is taken (in-process, a quick copy could finish in one turn of
      // it and count no ack at all, whatever the server did).
      const backup = await opsProcess(url, 'backup', file);
      const during = stream.acked.length - before;
      await stream.stop();
      expect(backup.code, backup.out).toBe(0);
      expect(backup.out).toMatch(/backup written: .* \((sqlite|pg_dump), [\d.]+ MB\) in [\d.]+ s/);
      // The server kept serving while the copy was taken.
      expect(during).toBeGreaterThan(0);
      expect(fs.readdirSync(dir).filter((f) => f.includes('.partial-'))).toEqual([]);

      const verified = await ops(url, 'backup:verify', file);
      expect(verified.code, verified.out).toBe(0);
      expect(verified.out).toContain('ledger audit: OK');
      expect(verified.out).toContain('backup:verify: OK');

      // Never over a database that has anything in it: the live one, here.
      // The CLI itself, as the operator types it (once: its start-up costs seconds): a refusal
      // is exit 1 and says why.
      const refused = await (dialect === 'sqlite' ? opsProcess : ops)(url, 'restore', file);
      expect(refused.code).toBe(1);
      expect(refused.out).toContain('Refusing to restore: the database at DATABASE_URL is not empty');

      const target = await emptyDatabase(dir, 'restored');
      const restored = await ops(target, 'restore', file);
      expect(restored.code, restored.out).toBe(0);
      const copy = createDatabase(target);
      try {
        const ids = new Set(
          (await copy.db.selectFrom('orders').select('id').execute()).map((r) => Number(r.id)),
        );
        expect(beforeIds.filter((id) => !ids.has(id))).toEqual([]);
      } finally {
        await copy.close();
      }
      // The restored database is the server's as it was: migrated, audited clean.
      const audited = await ops(target, 'ledger:audit');
      expect(audited.code, audited.out).toBe(0);
      expect(audited.out).toContain('ledger audit: OK');
    },
    120_000,
  );

  it.runIf(enabled)('refuses a file that is no backup, and a backup of the other database kind', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-backup-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const junk = path.join(dir, 'junk');
    fs.writeFileSync(junk, 'not a backup');
    const target = await emptyDatabase(dir, 'target');
    for (const command of ['restore', 'backup:verify']) {
      const res = await ops(target, command, junk);
      expect(res.code).toBe(1);
      expect(res.out).toContain('is neither an SQLite database nor a pg_dump custom-format file');
    }
    const other = path.join(dir, 'other');
    fs.writeFileSync(other, dialect === 'sqlite' ? 'PGDMP\u0001\u000e\u0000' : 'SQLite format 3\u0000');
    const res = await ops(target, 'restore', other);
    expect(res.code).toBe(1);
    expect(res.out).toContain(dialect === 'sqlite' ? 'is a PostgreSQL backup' : 'is an SQLite backup');
  });
});
