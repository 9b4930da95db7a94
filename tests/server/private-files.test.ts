import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { pgToolPath } from '../../server/db/backup';
import { createDatabase, migrate } from '../../server/db/index';
import { BACKUP_COMMANDS } from '../../server/ops/commands/backup';
import { DIALECTS, freshPgDatabase } from '../support/server';

/**
 * Files only the service reads: under a umask of 022 the live database, its
 * WAL and shared-memory files and every backup were created 0644 — readable by every account on
 * the machine, with card numbers, ID numbers, password hashes and sealed secrets inside — and a
 * backup's temporary had a predictable name (`<file>.partial-<pid>`), so a link planted there was
 * written through. Now files are 0600 in 0700 folders whatever the umask, temporaries random.
 */

const mode = (file: string) => fs.statSync(file).mode & 0o777;
const backup = BACKUP_COMMANDS.find((c) => c.name === 'backup')!;

let oldUmask = 0;
let scratch = '';
beforeAll(() => {
  // The umask of a typical shell; the process's own is restored after (suites share the process).
  oldUmask = process.umask(0o022);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-modes-'));
});
afterAll(() => {
  process.umask(oldUmask);
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('the live SQLite database', () => {
  it('finding 8: the database, its WAL and shared memory are 0600 in 0700 folders under umask 022', async () => {
    const file = path.join(scratch, 'fresh', 'data', 'bourse.db');
    const database = createDatabase(`sqlite:${file}`);
    try {
      await migrate(database);
      await database.db.insertInto('config').values({ tag: 'mode-test', value: '1' }).execute();
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect(mode(f), f).toBe(0o600);
      expect(mode(path.dirname(file))).toBe(0o700);
      expect(mode(path.join(scratch, 'fresh'))).toBe(0o700);
    } finally {
      await database.close();
    }
  });

  it('finding 8: a database left world-readable by an earlier version is narrowed to 0600 at start', async () => {
    const dir = path.join(scratch, 'old');
    fs.mkdirSync(dir);
    const file = path.join(dir, 'bourse.db');
    const first = createDatabase(`sqlite:${file}`);
    await migrate(first);
    await first.close();
    fs.chmodSync(file, 0o644);
    const again = createDatabase(`sqlite:${file}`);
    try {
      expect(mode(file)).toBe(0o600);
    } finally {
      await again.close();
    }
  });

  it('finding 8: a symbolic link at the database’s name is refused, not followed', () => {
    const victim = path.join(scratch, 'victim.txt');
    fs.writeFileSync(victim, 'not a database');
    const link = path.join(scratch, 'linked.db');
    fs.symlinkSync(victim, link);
    expect(() => createDatabase(`sqlite:${link}`)).toThrow(/symbolic link/);
    expect(fs.readFileSync(victim, 'utf8')).toBe('not a database');
  });
});

const { pgTools } = loadConfig();
const hasPgDump = pgToolPath(pgTools, 'pg_dump') !== null;

describe.each(DIALECTS)('backups on $name', ({ name, enabled }) => {
  const runs = enabled && (name === 'sqlite' || hasPgDump);
  let url = '';
  let drop: (() => Promise<void>) | null = null;
  beforeAll(async () => {
    if (!runs) return;
    if (name === 'postgres') {
      const created = await freshPgDatabase();
      url = created.url;
      drop = created.drop;
    } else url = `sqlite:${path.join(scratch, `live-${name}.db`)}`;
    const database = createDatabase(url);
    await migrate(database);
    await database.close();
  });
  afterAll(async () => {
    await drop?.();
  });

  it.runIf(runs)(
    'finding 8: a backup is 0600 in a 0700 folder it makes, and a link planted at the old temporary name is not written through',
    async () => {
      const folder = path.join(scratch, `backups-${name}`, 'nightly');
      const file = path.join(folder, 'bourse.backup');
      fs.mkdirSync(path.dirname(folder), { mode: 0o755 });
      fs.chmodSync(path.dirname(folder), 0o755);
      // An attacker who can write the parent folder plants the name the old code would have used.
      const victim = path.join(scratch, `victim-${name}`);
      fs.writeFileSync(victim, 'precious');
      const config = loadConfig({ ...process.env, DATABASE_URL: url });
      fs.mkdirSync(folder, { mode: 0o755 });
      fs.chmodSync(folder, 0o755);
      fs.symlinkSync(victim, `${file}.partial-${process.pid}`);
      await backup.run(config, [file]);
      expect(mode(file)).toBe(0o600);
      expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
      // No temporary is left behind, and the planted link is untouched.
      expect(fs.readdirSync(folder).sort()).toEqual([
        'bourse.backup',
        `bourse.backup.partial-${process.pid}`,
      ]);
      // A folder the backup makes itself is 0700.
      const made = path.join(scratch, `made-${name}`, 'deep');
      await backup.run(config, [path.join(made, 'b.backup')]);
      expect(mode(made)).toBe(0o700);
      expect(mode(path.dirname(made))).toBe(0o700);
      expect(mode(path.join(made, 'b.backup'))).toBe(0o600);
    },
  );
});
