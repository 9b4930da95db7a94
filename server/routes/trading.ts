import type { FastifyInstance } from 'fastify';
import { contract } from '../../src/shared/contract/index';
import type { HoldingRow, WatchlistItem } from '../../src/shared/contract/trading';
import { fromMinor, PRICE_SCALE, priceToTicks, tradeValueMinor } from '../../src/shared/money';
import { checkTradePassword, displayCode } from '../../src/shared/rules';
import { rateTicks } from '../lib/assets';
import { authenticate } from '../lib/auth';
import { invalid, notFound } from '../lib/errors';
import { verifyFundPassword } from '../lib/fund-password';
import { route } from '../lib/route';
import type { Instrument } from '../market/provider';
import { closePending, placeBuy, placeSell } from '../trading/engine';
import { buyBlock, sellLot } from '../trading/holdings';
import { BLOCK, STOCK, toOrderRow } from '../trading/orders';

/** Favourites, holdings and orders (src/shared/contract/trading.ts). */
export async function tradingRoutes(app: FastifyInstance): Promise<void> {
  const { deps } = app;
  const { db } = deps.database;

  /**
   * Block/QIP buys need the transaction password. It is checked here, before the route opens its
   * transaction, so a wrong code is counted towards the lockout even though the buy is refused.
   */
  const dealBuyUrl = deps.config.apiBase + contract.dealBuy.path;
  app.addHook('preHandler', async (req) => {
    if (req.routeOptions.url !== dealBuyUrl) return;
    const body = req.body as { mold: string; stock_password?: string };
    if (body.mold === 'stock') return;
    const user = await authenticate(deps, req);
    if (body.stock_password === undefined || checkTradePassword(body.stock_password) !== null) {
      throw invalid('hint.tradePasswordInvalid');
    }
    await verifyFundPassword(deps, user.id, body.stock_password);
  });

  function knownSymbol(symbol: string): Instrument {
    const instrument = deps.market.instrument(symbol);
    if (!instrument) throw notFound();
    return instrument;
  }
  /** The market's spelling of a symbol (lookups may ignore case); unknown ones are kept as sent. */
  const canonical = (symbol: string) => deps.market.instrument(symbol)?.symbol ?? symbol;

  route(app, contract.favouriteAdd, async ({ input, user }) => {
    const instrument = knownSymbol(input.symbol);
    await db
      .insertInto('favourites')
      .values({ user_id: user.id, symbol: instrument.symbol, created_at: deps.clock.now() })
      .onConflict((oc) => oc.columns(['user_id', 'symbol']).doNothing())
      .execute();
    return null;
  });

  // Removing what is not there is not an error: toggles queued offline may arrive twice.
  route(app, contract.favouriteRemove, async ({ input, user }) => {
    await db
      .deleteFrom('favourites')
      .where('user_id', '=', user.id)
      .where('symbol', 'in', [input.symbol, canonical(input.symbol)])
      .execute();
    return null;
  });

  route(app, contract.favouriteDelete, async ({ input, user }) => {
    const code = displayCode(input.code);
    await db
      .deleteFrom('favourites')
      .where('user_id', '=', user.id)
      .where('symbol', 'in', [input.code, code, `${code}.NS`, `${code}.BO`])
      .execute();
    return null;
  });

  route(app, contract.favouriteCheck, async ({ input, user }) => {
    const row = await db
      .selectFrom('favourites')
      .select('symbol')
      .where('user_id', '=', user.id)
      .where('symbol', '=', canonical(input.symbol))
      .executeTakeFirst();
    return { collected: row !== undefined };
  });

  route(app, contract.favouriteList, async ({ input, user }) => {
    const page = input.page ?? 1;
    const size = input.pageSize ?? 10;
    const [rows, total] = await Promise.all([
      db
        .selectFrom('favourites')
        .select('symbol')
        .where('user_id', '=', user.id)
        .orderBy('created_at', 'desc')
        .orderBy('symbol')
        .limit(size)
        .offset((page - 1) * size)
        .execute(),
      db
        .selectFrom('favourites')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', user.id)
        .executeTakeFirstOrThrow(),
    ]);
    const list = rows.map(({ symbol }): WatchlistItem => {
      const ins = deps.market.instrument(symbol);
      const q = deps.market.quote(symbol);
      return {
        stock_name: ins?.name ?? symbol,
        stock_code: symbol,
        // A symbol the market no longer quotes keeps its place with as_of 0: "no price", not a fake one.
        stock_detail: {
          market: ins?.market ?? '',
          prasent: q?.price ?? 0,
          close_prices: q?.prevClose ?? 0,
          percent_change: q?.changePercent ?? 0,
          change: q?.change ?? 0,
          market_name: ins?.market ?? '',
          exchange_name: ins?.exchange ?? '',
          decimals: ins?.decimals ?? 2,
          as_of: q?.asOf ?? 0,
        },
      };
    });
    return { list, total: Number(total.n) };
  });

  route(app, contract.holdings, async ({ input, user }) => {
    const page = input.page ?? 1;
    const limit = input.limit ?? 10;
    const positions = await db
      .selectFrom('positions')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('qty', '>', 0)
      .orderBy('updated_at', 'desc')
      .orderBy('symbol')
      .execute();
    // Kind lives in the market, not the table, so the type filter runs here (a user holds few symbols).
    const ofType = positions.filter(
      (p) => (deps.market.instrument(p.symbol)?.kind ?? 'stock') === input.type,
    );
    const rows: HoldingRow[] = [];
    for (const p of ofType.slice((page - 1) * limit, page * limit)) {
      const ins = deps.market.instrument(p.symbol);
      const q = deps.market.quote(p.symbol);
      const rate = await rateTicks(db, ins?.currency ?? 'INR');
      // Without a quote the position is shown at cost with as_of 0 rather than at an invented price.
      const value = q ? tradeValueMinor(priceToTicks(q.price), p.qty, rate) : p.cost;
      const profit = value - p.cost;
      rows.push({
        stock: p.symbol,
        name: ins?.name ?? p.symbol,
        market: ins?.market ?? '',
        region: ins?.region ?? 'IN',
        decimals: ins?.decimals ?? 2,
        count: p.qty,
        available: p.qty - p.reserved_qty,
        avg_price: p.cost_native / p.qty / PRICE_SCALE,
        cost: fromMinor(p.cost),
        prasent: q?.price ?? 0,
        value: fromMinor(value),
        profit: fromMinor(profit),
        profit_percent: p.cost > 0 ? (profit / p.cost) * 100 : 0,
        as_of: q?.asOf ?? 0,
      });
    }
    return { rows, count: ofType.length };
  });

  route(app, contract.dealBuy, async ({ input, user, db: trx }) => {
    if (input.mold === 'stock') return toOrderRow(await placeBuy(deps, trx, user.id, input));
    return toOrderRow(await buyBlock(deps, trx, user.id, { ...input, mold: input.mold }));
  });

  route(app, contract.dealSell, async ({ input, user, db: trx }) => {
    if ('no' in input) return toOrderRow(await sellLot(deps, trx, user.id, input));
    return toOrderRow(await placeSell(deps, trx, user.id, input));
  });

  route(app, contract.dealList, async ({ input, user }) => {
    const status = input.status ?? 0;
    const rows = await db
      .selectFrom('orders')
      .selectAll()
      .where('user_id', '=', user.id)
      .where('mold', '=', input.mold)
      // SPEC §4: 1 success, anything else failed.
      .$if(status === BLOCK.success, (q) => q.where('status', '=', BLOCK.success))
      .$if(status !== 0 && status !== BLOCK.success, (q) => q.where('status', '<>', BLOCK.success))
      .orderBy('id', 'desc')
      .limit(500)
      .execute();
    return { rows: rows.map(toOrderRow) };
  });

  route(app, contract.orderList, async ({ input, user }) => {
    const page = input.page ?? 1;
    const limit = input.limit ?? 10;
    const base = db
      .selectFrom('orders')
      .where('user_id', '=', user.id)
      .where('mold', '=', input.mold ?? 'stock')
      .$if(input.status !== undefined, (q) => q.where('status', '=', input.status!))
      .$if(input.tag !== undefined, (q) => q.where('symbol', '=', input.tag!));
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map(toOrderRow), count: Number(count.n) };
  });

  route(app, contract.orderCancel, async ({ input, user, db: trx }) => {
    const order = await trx
      .selectFrom('orders')
      .selectAll()
      .where('no', '=', input.no)
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!order) throw notFound();
    if (order.mold !== 'stock' || order.status !== STOCK.pending) throw invalid('errors.notPending');
    const cancelled = await closePending(deps, trx, order, STOCK.cancelled);
    if (!cancelled) throw invalid('errors.notPending');
    return toOrderRow(cancelled);
  });
}
