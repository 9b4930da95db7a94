import { type Kysely, sql } from 'kysely';
import { priceToTicks, unitsToMinor } from '#shared/money';
import { dayOfIso, navDayFor, publishedAt } from '../../funds/calendar';
import { FUND_CATALOGUE } from '../../funds/catalogue';

/**
 * Funds become mutual funds: a NAV that moves, units, charges and redemption.
 * - `funds` gains the scheme's facts (SEBI category, expense ratio, exit load and its period, launch
 *   date and NAV at launch) and its latest published NAV (`nav`, ticks, and `nav_day`; null until
 *   the first is published). The catalogue's rows of before are renamed and described
 *   (server/funds/catalogue.ts, `formerly`); a fund it does not know gets the category its risk
 *   level suggests (1 liquid, 2 debt, 3 hybrid, 4–5 equity, none: debt).
 * - `fund_orders` gains the side (`buy`, `redeem`; `term` for the fixed-term orders of before that
 *   matured and paid back), the units and the NAV they were struck at, the NAV's day, and the
 *   charges (stamp duty on a buy; exit load and STT on a redemption).
 * - `fund_positions`: units held per user and fund, the units pending redemptions hold, and the
 *   money the units held cost.
 * An order of before that had not matured becomes a purchase awaiting the NAV of the business day
 * it was made on (before 15:00 IST; else the next): the NAV job allots its units at that NAV, as
 * for any purchase, so the money it paid buys what it would have bought that day. Nothing is paid
 * out for it: its principal is now its units.
 */
export function migration082FundNav() {
  return {
    // biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
    async up(db: Kysely<any>) {
      const add = (
        table: string,
        column: string,
        type: 'text' | 'integer' | 'bigint',
        fallback?: string | number,
      ) =>
        db.schema
          .alterTable(table)
          .addColumn(column, type, (c) => (fallback === undefined ? c : c.notNull().defaultTo(fallback)))
          .execute();
      await add('funds', 'category', 'text', 'debt');
      await add('funds', 'expense_ratio_bps', 'integer', 0);
      await add('funds', 'exit_load_ppm', 'integer', 0);
      await add('funds', 'exit_load_days', 'integer', 0);
      await add('funds', 'launched_on', 'integer', dayOfIso('2018-01-01'));
      await add('funds', 'nav_base', 'bigint', 100_000);
      await add('funds', 'nav', 'bigint');
      await add('funds', 'nav_day', 'integer');

      await add('fund_orders', 'side', 'text', 'buy');
      await add('fund_orders', 'units', 'bigint');
      await add('fund_orders', 'nav', 'bigint');
      await add('fund_orders', 'nav_day', 'integer', 0);
      for (const column of ['stamp_duty', 'exit_load', 'stt']) await add('fund_orders', column, 'bigint', 0);

      await db.schema
        .createTable('fund_positions')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('fund_id', 'integer', (c) => c.notNull().references('funds.id'))
        .addColumn('units', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('reserved_units', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('invested', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('fund_positions_pk', ['user_id', 'fund_id'])
        .addCheckConstraint(
          'fund_positions_units',
          sql`units >= 0 and reserved_units >= 0 and reserved_units <= units and invested >= 0`,
        )
        .execute();

      for (const f of FUND_CATALOGUE) {
        await db
          .updateTable('funds')
          .set({
            name: f.name,
            manager: f.manager,
            risk: f.risk,
            category: f.category,
            expense_ratio_bps: f.expenseBps,
            exit_load_ppm: f.exitLoadPpm,
            exit_load_days: f.exitLoadDays,
            launched_on: dayOfIso(f.launched),
            nav_base: priceToTicks(f.navBase),
            amount: unitsToMinor(f.minimum),
          })
          .where('name', '=', f.formerly)
          .execute();
      }
      const known = FUND_CATALOGUE.map((f) => f.name);
      const byRisk: Array<[string, number[]]> = [
        ['liquid', [1]],
        ['hybrid', [3]],
        ['equity', [4, 5]],
      ];
      for (const [category, levels] of byRisk)
        await db
          .updateTable('funds')
          .set({ category })
          .where('name', 'not in', known)
          .where('risk', 'in', levels)
          .execute();
      // A liquid fund's NAV starts at 1,000 (10,000,000 ticks), others at 10 (the column's default).
      await db
        .updateTable('funds')
        .set({ nav_base: 10_000_000 })
        .where('name', 'not in', known)
        .where('category', '=', 'liquid')
        .execute();

      await db.updateTable('fund_orders').set({ side: 'term' }).where('status', '=', 'completed').execute();
      const open = await db
        .selectFrom('fund_orders')
        .select(['id', 'created_at'])
        .where('status', '=', 'active')
        .execute();
      for (const o of open) {
        const day = navDayFor(Number(o.created_at));
        await db
          .updateTable('fund_orders')
          .set({ nav_day: day, end_time: publishedAt(day) })
          .where('id', '=', o.id)
          .execute();
      }
    },
  };
}
