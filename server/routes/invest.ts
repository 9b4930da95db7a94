import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { contract } from '#shared/contract/index';
import type { BlockItem, FxRate, Ipo } from '#shared/contract/invest';
import { ticksToPrice } from '#shared/money';
import { IPO_QTY_STEP } from '#shared/rules';
import { OFFER_STATUS } from '#shared/status';
import { route } from '../lib/route';
import { purchaseFund, toFund, toFundOrder } from '../trading/funds';
import { usdRate } from '../trading/fx';
import { applyIpo, ipoStatus, ipoWindow } from '../trading/ipo';
import { regionOf, toOrderRow } from '../trading/orders';

/** IPOs, block trading / QIP items and funds (src/shared/contract/invest.ts). */
export async function investRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;
  const { db } = deps.database;

  route(app, contract.fxRate, async (): Promise<FxRate> => {
    const r = await usdRate(deps, db);
    return {
      unit: r.unit,
      rate: r.ticks === null ? null : ticksToPrice(r.ticks),
      source: r.source,
      as_of: r.asOf,
      fresh: r.fresh,
      symbol: r.symbol,
    };
  });

  route(app, contract.ipoList, async () => {
    const rows = await db
      .selectFrom('ipos')
      .selectAll()
      .orderBy('issue_start_date', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return {
      rows: rows.map(
        (r): Ipo => ({
          id: r.id,
          series: r.series,
          symbol: r.symbol,
          company_name: r.company_name,
          status: ipoStatus(deps, r) as Ipo['status'],
          issue_price: ticksToPrice(r.issue_price),
          min: r.min,
          max: r.max,
          issue_start_date: r.issue_start_date,
          issue_end_date: r.issue_end_date,
          listing_date: r.listing_date,
          region: deps.market.instrument(r.symbol)?.region ?? regionOf(r.series),
          window: ipoWindow(r, deps.clock.now()),
          band_low: r.band_low === null ? null : ticksToPrice(Number(r.band_low)),
          lot: IPO_QTY_STEP,
          allotment_date: r.allotment_date === null ? null : Number(r.allotment_date),
        }),
      ),
    };
  });

  route(app, contract.ipoBuy, async ({ input, user, db: trx }) =>
    toOrderRow(await applyIpo(deps, trx, user.id, input), deps.clock.now()),
  );

  route(app, contract.ipoOrders, async ({ input, user }) => {
    const sales = input.type === 1;
    const rows = await db
      .selectFrom('orders')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('mold', '=', 'ipo')
      .where('state', '=', sales ? 'sell' : 'buy')
      .orderBy('id', 'desc')
      .limit(500)
      .execute();
    return { rows: rows.map((r) => toOrderRow(r, deps.clock.now())) };
  });

  // Status 1 items are on offer; the search matches the code, with or without its .NS/.BO suffix.
  route(app, contract.blockList, async ({ input }) => {
    const code = input.code?.trim().toUpperCase() ?? '';
    const rows = await db
      .selectFrom('block_items')
      .selectAll()
      .where('mold', '=', input.mold)
      .where('status', '=', OFFER_STATUS.open)
      .$if(code !== '', (q) => q.where(sql<string>`upper(tag)`, 'like', `%${code.replace(/[%_\\]/g, '')}%`))
      .orderBy('id')
      .execute();
    return {
      rows: rows.map((r): BlockItem => {
        const ins = deps.market.instrument(r.tag);
        const q = deps.market.quote(r.tag);
        return {
          id: r.id,
          tag: r.tag,
          name: ins?.name ?? r.tag,
          price: ticksToPrice(r.price),
          market_price: q?.price ?? 0,
          count: r.count,
          status: r.status,
          type: r.type,
          mold: r.mold as BlockItem['mold'],
          decimals: ins?.decimals ?? 2,
          remaining: Math.max(0, Number(r.supply) - Number(r.sold)),
        };
      }),
    };
  });

  route(app, contract.fundList, async () => {
    const rows = await db.selectFrom('funds').selectAll().orderBy('id').execute();
    return { rows: rows.map(toFund), count: rows.length };
  });

  route(app, contract.fundPurchase, async ({ input, user, db: trx }) =>
    purchaseFund(deps, trx, user.id, input.project_id),
  );

  route(app, contract.fundOrders, async ({ input, user }) => {
    const rows = await db
      .selectFrom('fund_orders')
      .innerJoin('funds', 'funds.id', 'fund_orders.fund_id')
      .selectAll('fund_orders')
      .select([
        'funds.name',
        'funds.investment_period',
        'funds.min_return as fund_min_return',
        'funds.max_return as fund_max_return',
      ])
      .where('fund_orders.user_id', '=', user.id)
      .$if(input.status !== undefined, (q) => q.where('fund_orders.status', '=', input.status!))
      .orderBy('fund_orders.id', 'desc')
      .limit(500)
      .execute();
    return {
      rows: rows.map((r) =>
        toFundOrder(r, {
          name: r.name,
          investment_period: r.investment_period,
          min_return: r.fund_min_return,
          max_return: r.fund_max_return,
        }),
      ),
    };
  });
}
