import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../server/config';
import { backupDatabase, isPostgresUrl, restoreDatabase } from '../../server/db/backup';
import { createDatabase } from '../../server/db/index';
import { BACKUP_COMMANDS } from '../../server/ops/commands/backup';
import { prepareDatabase } from './api-kit';

/**
 * `npm run bench:backup [postings]`: how long a backup, its verification and a restore take, and
 * how big the copy is, for the demo database (`npm start`'s: seeded, the demo account) and for one
 * with `postings` ledger postings (default 10^6: 1,000 users, each with a chain of grants), on
 * SQLite and — with TEST_PG_URL — PostgreSQL. Prints figures; asserts nothing (README "Backups"
 * quotes them).
 */

const POSTINGS = Number(process.argv[2] ?? 1_000_000);
const USERS = 1000;
const PG_URL = process.env.TEST_PG_URL ?? '';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** A new empty database: a file in `dir`, or a PostgreSQL database dropped by `drops`. */
async function empty(
  dialect: 'sqlite' | 'postgres',
  dir: string,
  name: string,
  drops: string[],
): Promise<string> {
  if (dialect === 'sqlite') return `sqlite:${path.join(dir, `${name}.db`)}`;
  const db = `bourse_bench_${name}_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${db} with (force)`);
  await admin.query(`create database ${db}`);
  await admin.end();
  drops.push(db);
  const url = new URL(PG_URL);
  url.pathname = `/${db}`;
  return url.toString();
}

/** Adds grants to every user until the ledger holds `total` postings, each chain continued exactly. */
async function grow(url: string, total: number): Promise<number> {
  const database = createDatabase(url);
  try {
    const { db } = database;
    const count = async () =>
      Number(
        (
          await db
            .selectFrom('ledger')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const users = Number(
      (
        await db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const per = Math.max(0, Math.ceil((total - (await count())) / users));
    const now = Date.now();
    if (isPostgresUrl(url)) {
      await sql`insert into ledger (user_id, amount, balance_after, reason, ref_type, ref_id, created_at)
        select u.id, 100, u.balance + 100 * k, 'recharge', 'seed', null, ${now}
          from users u cross join generate_series(1, ${per}) k order by u.id, k`.execute(db);
    } else {
      await sql`with recursive k(n) as (select 1 union all select n + 1 from k where n < ${per})
        insert into ledger (user_id, amount, balance_after, reason, ref_type, ref_id, created_at)
        select u.id, 100, u.balance + 100 * k.n, 'recharge', 'seed', null, ${now}
          from users u, k order by u.id, k.n`.execute(db);
    }
    await sql`update users set balance = balance + ${100 * per}`.execute(db);
    return await count();
  } finally {
    await database.close();
  }
}

async function measure(
  dialect: 'sqlite' | 'postgres',
  label: string,
  postings: number | null,
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-bench-backup-'));
  const drops: string[] = [];
  try {
    const url = await empty(dialect, dir, 'live', drops);
    await prepareDatabase(url, postings === null ? 0 : USERS);
    const rows = postings === null ? null : await grow(url, postings);
    const file = path.join(dir, dialect === 'sqlite' ? 'copy.db' : 'copy.dump');
    const config = loadConfig({ ...process.env, DATABASE_URL: url });
    const backup = await backupDatabase(url, file, config.pgTools);
    const verify = BACKUP_COMMANDS.find((c) => c.name === 'backup:verify')!;
    const v0 = performance.now();
    const report = await verify.run(config, [file]);
    const verifyMs = performance.now() - v0;
    const target = await empty(dialect, dir, 'restored', drops);
    const restore = await restoreDatabase(target, file, config.pgTools);
    const size = dialect === 'sqlite' ? fs.statSync(url.replace(/^sqlite:/, '')).size : null;
    const perMillion = rows ? ` (${s((restore.ms / rows) * 1e6)} per 10^6 postings)` : '';
    console.log(
      `${dialect.padEnd(8)} ${label.padEnd(22)} ${rows === null ? '' : `${rows} postings, `}` +
        `${size === null ? '' : `database ${mb(size)}, `}backup ${s(backup.ms)} → ${mb(backup.bytes)}, ` +
        `verify ${s(verifyMs)}, restore ${s(restore.ms)}${perMillion}`,
    );
    if (!report.includes('ledger audit: OK')) console.log(report);
  } finally {
    for (const db of drops) {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${db} with (force)`);
      await admin.end();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`bench:backup — ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`);
for (const dialect of ['sqlite', 'postgres'] as const) {
  if (dialect === 'postgres' && !PG_URL) {
    console.log('postgres: skipped (set TEST_PG_URL)');
    continue;
  }
  await measure(dialect, 'demo database', null);
  await measure(dialect, `${POSTINGS} postings`, POSTINGS);
}
console.log(`load afterwards ${os.loadavg()[0]!.toFixed(1)}`);
