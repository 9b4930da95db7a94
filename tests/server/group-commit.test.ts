import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUser } from '../../server/account/users';
import { createDatabase, type Database, GroupCommit, migrate, withTx } from '../../server/db/index';
import type { DB } from '../../server/db/schema';
import { post } from '../../server/lib/ledger';

/**
 * SQLite group commit (SQLITE_GROUP_COMMIT=1): transactions that arrive together share one
 * commit, yet each still commits or rolls back on its own terms.
 */
describe('SQLite group commit', () => {
  let dir: string;
  let database: Database;
  let commits: number;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-group-'));
    database = createDatabase(`sqlite:${path.join(dir, 'g.db')}`);
    await migrate(database);
    database.group = new GroupCommit(database.db);
    commits = 0;
    // Counts the COMMITs SQLite runs (the compiled statement is kept and run again each time).
    const handle = database.sqlite!;
    const prepare = handle.prepare.bind(handle);
    handle.prepare = ((source: string) => {
      const statement = prepare(source);
      if (!/^\s*commit\b/i.test(source)) return statement;
      const run = statement.run.bind(statement);
      statement.run = ((...params: unknown[]) => {
        commits++;
        return run(...params);
      }) as typeof statement.run;
      return statement;
    }) as typeof handle.prepare;
  });
  afterEach(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function user(db: Kysely<DB>, phone: string): Promise<number> {
    return createUser(db, { phone, passwordHash: 'x', at: 0, no: `N${phone}` });
  }
  const balance = async (id: number) =>
    Number(
      (await database.db.selectFrom('users').select('balance').where('id', '=', id).executeTakeFirstOrThrow())
        .balance,
    );

  it('commits many transactions with few commits, and a failing one alone is undone', async () => {
    const id = await withTx(database, (trx) => user(trx, '9000000001'));
    await withTx(database, (trx) => post(trx, { userId: id, amount: 1000, reason: 'recharge', at: 1 }));
    commits = 0;
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        withTx(database, async (trx) => {
          // Every 4th one writes, then fails: its write must vanish with it.
          await post(trx, { userId: id, amount: -10, reason: 'withdraw', at: 2 });
          if (i % 4 === 0) throw new Error(`boom ${i}`);
          return i;
        }),
      ),
    );
    const failed = results.filter((r) => r.status === 'rejected');
    expect(failed).toHaveLength(10);
    expect(await balance(id)).toBe(1000 - 30 * 10);
    const postings = await database.db
      .selectFrom('ledger')
      .select('amount')
      .where('user_id', '=', id)
      .execute();
    expect(postings).toHaveLength(31);
    expect(commits).toBeGreaterThan(0);
    expect(commits).toBeLessThan(40);
  });

  it('refuses an overdraft inside a batch without touching the others', async () => {
    const id = await withTx(database, (trx) => user(trx, '9000000002'));
    await withTx(database, (trx) => post(trx, { userId: id, amount: 55, reason: 'recharge', at: 1 }));
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        withTx(database, (trx) => post(trx, { userId: id, amount: -10, reason: 'withdraw', at: 2 })),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect(await balance(id)).toBe(5);
  });

  it('when the shared commit fails, every caller in the batch gets the error and nothing is kept', async () => {
    const id = await withTx(database, (trx) => user(trx, '9000000003'));
    // A deferred foreign key fails only at COMMIT: the whole batch must go.
    await sql`pragma defer_foreign_keys = on`.execute(database.db);
    const results = await Promise.allSettled([
      withTx(database, (trx) => post(trx, { userId: id, amount: 7, reason: 'recharge', at: 1 })),
      withTx(database, async (trx) => {
        await sql`pragma defer_foreign_keys = on`.execute(trx);
        await trx
          .insertInto('sessions')
          .values({ token_hash: 'h', user_id: 999_999, created_at: 0, expires_at: 1, revoked_at: null })
          .execute();
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await balance(id)).toBe(0);
    // And the next batch works.
    await withTx(database, (trx) => post(trx, { userId: id, amount: 7, reason: 'recharge', at: 1 }));
    expect(await balance(id)).toBe(7);
  });
});
