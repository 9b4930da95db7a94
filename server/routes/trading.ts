import type { FastifyInstance } from 'fastify';
import { contract } from '#shared/contract/index';
import { fromMinor, PRICE_SCALE, priceToTicks, tradeValueMinor } from '#shared/money';
import { displayCode, QUANTITY_MAX } from '#shared/rules';
import { requireTradePassword } from '../account/fund-password';
import { authenticate } from '../lib/auth';
import { invalid, notFound } from '../lib/errors';
import { route } from '../lib/route';
import type { Instrument } from '../market/provider';
import { toHoldingRow, valuePositions } from '../portfolio/valuation';
import { affordableQuantity, chargesFor, chargesOfRow, toBreakdown } from '../trading/charges';
import { closePending, modifyPending, placeBuy, placeOco, placeSell, placeStop } from '../trading/engine';
import { rateTicks } from '../trading/fx';
import { buyBlock, sellLot } from '../trading/holdings';
import { BLOCK, STOCK, toOrderRow, tradable } from '../trading/orders';
import { addItem, defaultListId, hasItem, items, removeItem } from '../watchlists/lists';

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
    await requireTradePassword(deps, user.id, body.stock_password);
  });

  function knownSymbol(symbol: string): Instrument {
    const instrument = deps.market.instrument(symbol);
    if (!instrument) throw notFound();
    return instrument;
  }
  /** The market's spelling of a symbol (lookups may ignore case); unknown ones are kept as sent. */
  const canonical = (symbol: string) => deps.market.instrument(symbol)?.symbol ?? symbol;

  // SPEC's favourites are the default watchlist (server/watchlists/lists.ts).
  route(app, contract.favouriteAdd, async ({ input, user }) => {
    const instrument = knownSymbol(input.symbol);
    await addItem(deps, user.id, await defaultListId(deps, user.id), instrument.symbol);
    return null;
  });

  // Removing what is not there is not an error: toggles queued offline may arrive twice.
  route(app, contract.favouriteRemove, async ({ input, user }) => {
    const list = await defaultListId(deps, user.id);
    await removeItem(deps, user.id, list, [input.symbol, canonical(input.symbol)]);
    return null;
  });

  route(app, contract.favouriteDelete, async ({ input, user }) => {
    const code = displayCode(input.code);
    const list = await defaultListId(deps, user.id);
    await removeItem(deps, user.id, list, [input.code, code, `${code}.NS`, `${code}.BO`]);
    return null;
  });

  route(app, contract.favouriteCheck, async ({ input, user }) => {
    const list = await defaultListId(deps, user.id);
    return { collected: await hasItem(deps, list, canonical(input.symbol)) };
  });

  route(app, contract.favouriteList, async ({ input, user }) =>
    items(deps, await defaultListId(deps, user.id), input.page ?? 1, input.pageSize ?? 10),
  );

  route(app, contract.holdings, async ({ input, user }) => {
    const page = input.page ?? 1;
    const limit = input.limit ?? 10;
    // Kind lives in the market, not the table, so the type filter runs here (a user holds few symbols).
    const ofType = (await valuePositions(deps, db, user.id))
      .filter((p) => p.type === input.type)
      .sort((a, b) => b.updatedAt - a.updatedAt || (a.symbol < b.symbol ? -1 : 1));
    return { rows: ofType.slice((page - 1) * limit, page * limit).map(toHoldingRow), count: ofType.length };
  });

  /** A stock buy/sell that names an order type is a stop or a GTT: it needs its trigger. */
  function stop(
    input: {
      tag: string;
      count: number;
      price: number;
      order_type?: 'sl' | 'slm' | 'gtt' | 'oco';
      trigger?: number;
      valid_days?: number;
      stop_trigger?: number;
      stop_price?: number;
    },
    side: 'buy' | 'sell',
  ) {
    // Only an OCO has a stop leg.
    if (input.order_type !== 'oco' && (input.stop_trigger !== undefined || input.stop_price !== undefined)) {
      throw invalid('errors.ocoOnly');
    }
    if (input.order_type === undefined) {
      // Only a GTT has a validity in days.
      if (input.valid_days !== undefined) throw invalid('errors.gttValidity');
      return null;
    }
    if (input.order_type === 'oco') return null;
    if (input.trigger === undefined) throw invalid('errors.triggerMissing');
    return {
      tag: input.tag,
      count: input.count,
      side,
      order_type: input.order_type,
      trigger: input.trigger,
      price: input.price,
      valid_days: input.valid_days,
    };
  }

  /** An OCO GTT: a sell of a holding with a target and a stop, each with its limit. */
  function oco(
    input: {
      tag: string;
      count: number;
      price: number;
      order_type?: string;
      trigger?: number;
      valid_days?: number;
      stop_trigger?: number;
      stop_price?: number;
    },
    side: 'buy' | 'sell',
  ) {
    if (input.order_type !== 'oco') return null;
    // A buy OCO (a breakout or a dip) is rare and would reserve money for two prices: sells only.
    if (side === 'buy') throw invalid('errors.ocoSellOnly');
    if (input.trigger === undefined || input.stop_trigger === undefined || input.stop_price === undefined) {
      throw invalid('errors.ocoBothTriggers');
    }
    return {
      tag: input.tag,
      count: input.count,
      target: input.trigger,
      target_price: input.price,
      stop: input.stop_trigger,
      stop_price: input.stop_price,
      valid_days: input.valid_days,
    };
  }

  route(app, contract.dealBuy, async ({ input, user, db: trx }) => {
    if (input.mold === 'stock') oco(input, 'buy');
    const stopInput = input.mold === 'stock' ? stop(input, 'buy') : null;
    if (stopInput) return toOrderRow(await placeStop(deps, trx, user.id, stopInput), deps.clock.now());
    if (input.mold === 'stock')
      return toOrderRow(await placeBuy(deps, trx, user.id, input), deps.clock.now());
    return toOrderRow(await buyBlock(deps, trx, user.id, { ...input, mold: input.mold }), deps.clock.now());
  });

  route(app, contract.dealSell, async ({ input, user, db: trx }) => {
    if ('no' in input) return toOrderRow(await sellLot(deps, trx, user.id, input), deps.clock.now());
    const ocoInput = oco(input, 'sell');
    if (ocoInput) return toOrderRow(await placeOco(deps, trx, user.id, ocoInput), deps.clock.now());
    const stopInput = stop(input, 'sell');
    if (stopInput) return toOrderRow(await placeStop(deps, trx, user.id, stopInput), deps.clock.now());
    return toOrderRow(await placeSell(deps, trx, user.id, input), deps.clock.now());
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
    return { rows: rows.map((r) => toOrderRow(r, deps.clock.now())) };
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
    return { rows: rows.map((r) => toOrderRow(r, deps.clock.now())), count: Number(count.n) };
  });

  // The review sheet's figures, from the same functions the fill uses (never computed in the app).
  route(app, contract.orderQuote, async ({ input, user }) => {
    const { instrument, quote } = tradable(deps, input.tag);
    const rate = await rateTicks(deps, db, instrument.currency);
    const price = input.price ?? quote.price;
    const ticks = priceToTicks(price);
    const cost = (qty: number) => {
      const value = tradeValueMinor(ticks, qty, rate);
      return value + chargesFor(deps.config.charges, instrument, 'buy', value).total;
    };
    const value = tradeValueMinor(ticks, input.count, rate);
    const charges = chargesFor(deps.config.charges, instrument, input.side, value);
    const [account, position] = await Promise.all([
      db.selectFrom('users').select('balance').where('id', '=', user.id).executeTakeFirstOrThrow(),
      db
        .selectFrom('positions')
        .select(['qty', 'reserved_qty'])
        .where('user_id', '=', user.id)
        .where('symbol', '=', instrument.symbol)
        .executeTakeFirst(),
    ]);
    const balance = Number(account.balance);
    return {
      tag: instrument.symbol,
      side: input.side,
      count: input.count,
      price,
      value: fromMinor(value),
      charges: toBreakdown(charges),
      net: fromMinor(input.side === 'buy' ? value + charges.total : value - charges.total),
      available: fromMinor(balance),
      held: position ? Number(position.qty) - Number(position.reserved_qty) : 0,
      affordable: affordableQuantity(balance, QUANTITY_MAX, cost),
      as_of: quote.asOf,
    };
  });

  route(app, contract.orderContract, async ({ input, user }) => {
    const order = await db
      .selectFrom('orders')
      .selectAll()
      .where('no', '=', input.no)
      .where('user_id', '=', user.id)
      .where('mold', '=', 'stock')
      .executeTakeFirst();
    if (!order) throw notFound();
    if (order.status !== STOCK.success) throw invalid('errors.notExecuted');
    const fill = order.state === 'sell' ? (order.sell_price ?? order.price) : order.price;
    const charges = chargesOfRow(order);
    const instrument = deps.market.instrument(order.symbol);
    return {
      order: toOrderRow(order, deps.clock.now()),
      price: fill / PRICE_SCALE,
      value: fromMinor(order.price_all),
      charges: toBreakdown(charges),
      net: fromMinor(
        order.state === 'sell' ? order.price_all - charges.total : order.price_all + charges.total,
      ),
      exchange: instrument?.exchange ?? order.market,
      currency: instrument?.currency ?? 'INR',
      rate: order.rate,
      executed_at: order.updated_at,
    };
  });

  route(app, contract.orderModify, async ({ input, user, db: trx }) => {
    const { no, ...changes } = input;
    return toOrderRow(await modifyPending(deps, trx, user.id, no, changes), deps.clock.now());
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
    return toOrderRow(cancelled, deps.clock.now());
  });
}
