import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, type Migration, Migrator } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { FUND_STAMP_PPM, ppmOf, unitsFor } from '#shared/funds';
import { createUser } from '../../server/account/users';
import { loadConfig } from '../../server/config';
import { createDatabase, type Database, migrate, withTx } from '../../server/db/index';
import { migrations } from '../../server/db/migrations/index';
import { createDeps } from '../../server/deps';
import { dayOfIso, publishedAt } from '../../server/funds/calendar';
import { navHistory } from '../../server/funds/nav';
import { fundHoldings } from '../../server/funds/positions';
import { seedFunds } from '../../server/funds/seed';
import { JOBS, runJob } from '../../server/jobs/index';
import { systemClock } from '../../server/lib/clock';
import { post } from '../../server/lib/ledger';
import { auditLedger } from '../../server/wallet/audit';
import { DIALECTS, freshPgDatabase, TEST_EPOCH } from '../support/server';

/**
 * Migration 082 on a database of before it: the fixed-term fund orders of then become what a
 * mutual fund would have made of them, on both dialects.
 */

/** An order of the fixed-term product, placed on Friday 20 Nov 2026 at 11:00 IST (before the cut-off). */
const PLACED = Date.parse('2026-11-20T11:00:00+05:30');

describe.each(DIALECTS)('migration 082 (funds) on $name', ({ name, enabled }) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const c of cleanups) await c();
  });

  async function databaseBefore082(): Promise<{ database: Database; url: string }> {
    let url: string;
    if (name === 'postgres') {
      const created = await freshPgDatabase();
      url = created.url;
      cleanups.push(created.drop);
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-migration-'));
      url = `sqlite:${path.join(dir, 'test.db')}`;
      cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    }
    const database = createDatabase(url);
    cleanups.unshift(() => database.close());
    const before = Object.fromEntries(
      Object.entries(migrations(database.dialect)).filter(([key]) => key < '082_fund_nav'),
    ) as Record<string, Migration>;
    const migrator = new Migrator({
      db: database.db,
      provider: { getMigrations: async () => before },
      allowUnorderedMigrations: true,
    });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error;
    return { database, url };
  }

  it.runIf(enabled)(
    'an unmatured order becomes units at the NAV of its day; a matured one stays as it was paid',
    async () => {
      const { database, url } = await databaseBefore082();
      // biome-ignore lint/suspicious/noExplicitAny: the schema of before 082
      const old = database.db as unknown as Kysely<any>;
      const insertFund = async (row: { name: string; risk: number | null; amount: number }) =>
        (
          await old
            .insertInto('funds')
            .values({
              ...row,
              min_return: 20,
              max_return: 45,
              investment_period: 7,
              issue_amount: 500_000_000,
              sold_amount: 3_000_000,
              status: 1,
              manager: 'Bourse Asset Management',
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id as number;
      const liquid = await insertFund({ name: 'Bourse Liquid Plus', risk: 1, amount: 1_000_000 });
      const unknown = await insertFund({ name: 'Someone Else’s Growth Fund', risk: 4, amount: 500_000 });
      const userId = await withTx(database, async (trx) => {
        const id = await createUser(trx, { phone: '7000000081', passwordHash: 'x', at: PLACED - 86_400_000 });
        await post(trx, { userId: id, amount: 5_000_000, reason: 'recharge', at: PLACED - 86_400_000 });
        return id;
      });
      const order = async (fund: number, row: { status: string; profit: number | null; at: number }) =>
        withTx(database, async (trx) => {
          const created = await (trx as unknown as Kysely<never>)
            .insertInto('fund_orders' as never)
            .values({
              user_id: userId,
              fund_id: fund,
              amount: 1_000_000,
              expected_return: 33,
              status: row.status,
              end_time: row.at + 7 * 86_400_000,
              profit: row.profit,
              created_at: row.at,
              settled_at: row.status === 'completed' ? row.at + 7 * 86_400_000 : null,
            } as never)
            .returning('id' as never)
            .executeTakeFirstOrThrow();
          const id = (created as { id: number }).id;
          const ref = { userId, refType: 'fund_order', refId: id };
          await post(trx, { ...ref, amount: -1_000_000, reason: 'fundPurchase', at: row.at });
          if (row.status === 'completed') {
            await post(trx, { ...ref, amount: 1_000_000, reason: 'principal_returned', at: row.at + 1 });
            await post(trx, { ...ref, amount: row.profit!, reason: 'fund_project_profit', at: row.at + 1 });
          }
          return id;
        });
      const matured = await order(liquid, {
        status: 'completed',
        profit: 3_300,
        at: PLACED - 30 * 86_400_000,
      });
      const running = await order(liquid, { status: 'active', profit: null, at: PLACED });

      await migrate(database);

      const funds = await database.db.selectFrom('funds').selectAll().orderBy('id').execute();
      expect(funds.find((f) => f.id === liquid)).toMatchObject({
        name: 'Bourse Liquid Fund',
        category: 'liquid',
        risk: 2,
        expense_ratio_bps: 20,
        exit_load_ppm: 70,
        exit_load_days: 7,
        amount: 50_000,
        nav_base: 10_000_000,
      });
      expect(funds.find((f) => f.id === unknown)).toMatchObject({ category: 'equity', nav_base: 100_000 });
      const rows = await database.db.selectFrom('fund_orders').selectAll().orderBy('id').execute();
      const day = dayOfIso('2026-11-20');
      expect(rows.find((o) => o.id === matured)).toMatchObject({
        side: 'term',
        status: 'completed',
        profit: 3_300,
      });
      expect(rows.find((o) => o.id === running)).toMatchObject({
        side: 'buy',
        status: 'active',
        nav_day: day,
        end_time: publishedAt(day),
        units: null,
      });
      // The ledger of before is exactly what the new rules expect of these rows.
      expect((await auditLedger(database.db)).problems).toEqual([]);

      // The server starts: NAVs published; the NAV job allots the order at 20 November's NAV.
      const deps = createDeps(
        loadConfig({ DATABASE_URL: url }),
        database,
        systemClock(TEST_EPOCH - Date.now()),
      );
      await seedFunds(deps);
      await runJob(deps, JOBS.find((j) => j.name === 'funds:nav')!);
      const row = funds.find((f) => f.id === liquid)!;
      const nav = navHistory(deps.config.market.seed, row).on(day);
      const units = unitsFor(1_000_000 - ppmOf(1_000_000, FUND_STAMP_PPM), nav);
      const struck = await database.db
        .selectFrom('fund_orders')
        .selectAll()
        .where('id', '=', running)
        .executeTakeFirstOrThrow();
      expect(struck).toMatchObject({ status: 'completed', nav, units, stamp_duty: 50 });
      const held = await fundHoldings(database.db, userId);
      expect(held.rows.map((r) => [r.fundId, r.units, r.investedMinor])).toEqual([
        [liquid, units, 1_000_000],
      ]);
      // Nothing was paid out for it: its principal is its units now.
      const user = await database.db
        .selectFrom('users')
        .select('balance')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      expect(Number(user.balance)).toBe(5_000_000 - 1_000_000 + 3_300);
      expect((await auditLedger(database.db)).problems).toEqual([]);
      deps.market.stop();
    },
    60_000,
  );
});
