import type { Kysely } from 'kysely';
import { priceToTicks, tradeValueMinor } from '#shared/money';
import { STOCK_STATUS } from '#shared/status';
import { withTx } from '../db/index';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import type { Instrument } from '../market/provider';
import { chargeColumns, chargesFor } from './charges';
import { stockOrder } from './engine';
import { rateTicks } from './fx';
import { inSession, lastSession } from './hours';
import { closePending } from './matching';
import { orderNotice } from './notices';
import { insertOrder, type OrderRecord } from './order-rows';
import { avgTicks, lockPosition, takeFromPosition } from './positions';
import { creditSale } from './postings';

/**
 * Intraday square-off: an executed intraday order carries `square_at`, its session's
 * close. Once that has passed, the `orders:squareoff` job takes the user's intraday orders of that
 * symbol that are due, expires their pending intraday orders of that session (releasing what they
 * reserved), releases units a longer-lived sell holds as far as it needs them (cancelled, with the
 * reason), and sells the units the intraday buys added net of the intraday sells at the session's
 * close price, as a market sell with intraday charges and its postings. The orders are marked done (`square_at` null) in the same transaction, so a second run
 * finds nothing: each intraday position is squared off once.
 */
export async function squareOffIntraday(deps: Deps): Promise<{ squared: number }> {
  const now = deps.clock.now();
  const due = await deps.database.db
    .selectFrom('orders')
    .select(['user_id', 'symbol'])
    .where('square_at', 'is not', null)
    .where('square_at', '<=', now)
    .groupBy(['user_id', 'symbol'])
    .limit(deps.config.orders.jobBatch)
    .execute();
  let squared = 0;
  const failures: unknown[] = [];
  for (const { user_id, symbol } of due) {
    try {
      const sold = await withTx(deps.database, (trx) => squareOff(deps, trx, user_id, symbol, now));
      if (sold) squared++;
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, `${failures.length} square-offs failed`);
  return { squared };
}

/** One user's intraday position in one symbol, squared off at the close of the session it was opened in. */
async function squareOff(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  symbol: string,
  now: number,
): Promise<OrderRecord | null> {
  const instrument = deps.market.instrument(symbol);
  // The position first (lock order: order rows, then the position, then the balance).
  await lockPosition(db, deps.database.dialect, userId, symbol);
  const orders = await db
    .selectFrom('orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('symbol', '=', symbol)
    .where('square_at', 'is not', null)
    .where('square_at', '<=', now)
    .execute();
  if (orders.length === 0) return null;
  const close = Math.max(...orders.map((o) => o.square_at!));
  const done = await db
    .updateTable('orders')
    .set({ square_at: null })
    .where(
      'id',
      'in',
      orders.map((o) => o.id),
    )
    .where('square_at', 'is not', null)
    .executeTakeFirst();
  // Another run marked them first: it squares them off.
  if (Number(done.numUpdatedRows) !== orders.length) throw new Error(`square-off of ${symbol}: raced`);
  // Pending intraday orders of the session end with it, before the units are counted.
  const pending = await db
    .selectFrom('orders')
    .selectAll()
    .where('user_id', '=', userId)
    .where('symbol', '=', symbol)
    .where('kind', '=', 'stock')
    .where('product', '=', 'intraday')
    .where('status', '=', STOCK_STATUS.pending)
    .where('expires_at', '<=', now)
    .execute();
  for (const order of pending) await closePending(deps, db, order, STOCK_STATUS.expired);
  const net = orders.reduce((n, o) => n + (o.side === 'buy' ? o.qty : -o.qty), 0);
  // Units an open sell still holds (a day limit, a GTT, an OCO, an after-market sell) are released,
  // newest first, as far as the square-off needs them: else the intraday units would be carried
  // overnight at intraday charges.
  let free = await freeUnits(db, userId, symbol);
  if (free < net) {
    const holding = await db
      .selectFrom('orders')
      .selectAll()
      .where('user_id', '=', userId)
      .where('symbol', '=', symbol)
      .where('kind', '=', 'stock')
      .where('side', '=', 'sell')
      .where('status', '=', STOCK_STATUS.pending)
      .orderBy('id', 'desc')
      .execute();
    for (const order of holding) {
      if (free >= net) break;
      if (await closePending(deps, db, order, STOCK_STATUS.cancelled, 'errors.squareOffCancelled'))
        free += order.qty;
    }
  }
  const count = Math.min(net, free);
  if (!instrument || count <= 0) return null;
  const closeTicks = closePrice(deps, instrument, close);
  // No price for its close: nothing is marked (the transaction rolls back) and the next run retries.
  if (closeTicks === null) throw new Error(`square-off of ${symbol}: no close price`);
  const rate = await rateTicks(deps, db, instrument.currency);
  const taken = await takeFromPosition(db, deps.database.dialect, userId, symbol, count, false, now);
  const proceeds = tradeValueMinor(closeTicks, count, rate);
  const charges = chargesFor(deps.config.charges, instrument, 'sell', proceeds, 'intraday');
  const order = await insertOrder(db, {
    ...stockOrder(userId, instrument, 'sell', count, now, rate, {
      kind: 'market',
      product: 'intraday',
      validity: 'day',
    }),
    status: STOCK_STATUS.success,
    limit_price: null,
    price: avgTicks(taken.native, count),
    sell_price: closeTicks,
    ...chargeColumns(charges),
    price_all: proceeds,
    profit: proceeds - taken.cost,
    expires_at: null,
  });
  await creditSale(
    db,
    { userId, orderId: order.id, at: now, kind: instrument.kind },
    proceeds,
    charges.total,
  );
  await orderNotice(deps, db, order, 'squaredOff', now);
  return order;
}

/** Units of a position not held by a pending sell. */
async function freeUnits(db: Kysely<DB>, userId: number, symbol: string): Promise<number> {
  const position = await db
    .selectFrom('positions')
    .select(['qty', 'reserved_qty'])
    .where('user_id', '=', userId)
    .where('symbol', '=', symbol)
    .executeTakeFirst();
  return position ? Number(position.qty) - Number(position.reserved_qty) : 0;
}

/**
 * The price at the close of the session that ended at `close`: the quote while the market has not
 * opened again since (the closed market quotes its close), else that session's daily bar's close.
 */
function closePrice(deps: Deps, instrument: Instrument, close: number): number | null {
  const now = deps.clock.now();
  if (!inSession(instrument, now) && lastSession(instrument.schedule, now).close === close) {
    const quote = deps.market.quote(instrument.symbol);
    return quote && quote.price > 0 ? priceToTicks(quote.price) : null;
  }
  // The daily bar of that session: the last one that began before its close.
  const bar = deps.market.candles(instrument.symbol, '1d').findLast((b) => b.t < close);
  return bar ? priceToTicks(bar.c) : null;
}
