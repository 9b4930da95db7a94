import { priceToTicks, unitsToMinor } from '#shared/money';
import { OFFER_STATUS } from '#shared/status';
import type { Deps } from '../deps';
import { dayOfIso } from './calendar';
import { FUND_CATALOGUE } from './catalogue';
import { publishNavs } from './strike';

/**
 * The catalogue's funds, inserted when the table is empty (an operator's changes survive
 * restarts), then every fund's latest NAV published, so the first answers carry it.
 */
export async function seedFunds(deps: Deps): Promise<void> {
  const { db } = deps.database;
  const any = await db.selectFrom('funds').select('id').limit(1).executeTakeFirst();
  if (!any) {
    await db
      .insertInto('funds')
      .values(
        FUND_CATALOGUE.map((f) => ({
          name: f.name,
          // The fixed-term returns of before (SPEC's columns): none is promised.
          min_return: 0,
          max_return: 0,
          investment_period: 0,
          amount: unitsToMinor(f.minimum),
          issue_amount: 0,
          sold_amount: 0,
          status: OFFER_STATUS.open,
          manager: f.manager,
          risk: f.risk,
          category: f.category,
          expense_ratio_bps: f.expenseBps,
          exit_load_ppm: f.exitLoadPpm,
          exit_load_days: f.exitLoadDays,
          launched_on: dayOfIso(f.launched),
          nav_base: priceToTicks(f.navBase),
          nav: null,
          nav_day: null,
        })),
      )
      .execute();
  }
  await publishNavs(deps);
}
