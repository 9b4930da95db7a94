import { type Kysely, sql } from 'kysely';
import { priceToTicks, tradeValueMinor } from '#shared/money';
import { protectedLimit } from '#shared/rules';
import { STOCK_STATUS } from '#shared/status';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, invalid, notFound } from '../lib/errors';
import { chargeColumns, chargesFor } from './charges';
import { lockOrder, type OrderRecord, productOf } from './order-rows';
import { checkStockQuantity, tradable } from './placement';
import { assertIntradaySell, reserveShares } from './positions';
import { moveReservation, reservedBy } from './postings';

export interface ModifyInput {
  count?: number;
  /** The new limit (limit and stop-loss orders). */
  price?: number;
  /** The new trigger (stops not yet triggered). */
  trigger?: number;
}

/**
 * Modifies a pending stock order: quantity, limit (limit, stop-loss) and trigger (an
 * untriggered stop), under the rules its placement had — the quantity range, the limit within the
 * band of the quote, a trigger on the side of the quote it waits for, a stop-loss limit at or
 * beyond its trigger, a stop-loss-market's limit the trigger moved by the tolerance. What it holds
 * is then re-reserved to exactly what the new order needs, in this transaction: a buy posts the
 * difference of value and charges at its limit (more: a `buy…` posting, refused if the balance
 * cannot cover it; less: `orderRefund`), a sell reserves or releases the difference of units
 * (refused if the free units cannot cover it). The order row is locked first (then the position,
 * then the balance), so a modify and a fill or a cancel of the same order run one after the other.
 */
export async function modifyPending(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  no: string,
  input: ModifyInput,
): Promise<OrderRecord> {
  const { dialect } = deps.database;
  const found = await db
    .selectFrom('orders')
    .select(['id', 'user_id'])
    .where('no', '=', no)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!found) throw notFound();
  const order = await lockOrder(db, dialect, found.id);
  if (order?.kind !== 'stock' || order.status !== STOCK_STATUS.pending) throw invalid('errors.notPending');
  if (input.count === undefined && input.price === undefined && input.trigger === undefined) throw invalid();
  const stopType =
    order.order_type === 'sl' ||
    order.order_type === 'slm' ||
    order.order_type === 'gtt' ||
    order.order_type === 'oco'
      ? order.order_type
      : null;
  const armed = stopType !== null && order.trigger_price !== null && order.triggered_at === null;
  // An armed OCO changes its quantity only: its two legs' prices are placed again (cancel, place).
  if (stopType === 'oco' && armed && (input.trigger !== undefined || input.price !== undefined)) {
    throw invalid('errors.ocoModify');
  }
  if (input.trigger !== undefined && !stopType) throw invalid('errors.notStop');
  if (input.trigger !== undefined && !armed) throw invalid('errors.alreadyTriggered');
  if (input.price !== undefined && stopType === 'slm') throw invalid('errors.slmNoLimit');
  const count = input.count ?? order.qty;
  checkStockQuantity(count);
  const { instrument, quote } = tradable(deps, order.symbol);
  const quoteTicks = priceToTicks(quote.price);
  const side = order.side;
  const buying = side === 'buy';
  const trigger = input.trigger !== undefined ? priceToTicks(input.trigger) : order.trigger_price;
  let limit = input.price !== undefined ? priceToTicks(input.price) : (order.limit_price ?? order.price);
  if (armed && trigger !== null) {
    // A trigger stays on the side of the quote it waits on (a GTT: the side it was placed on).
    const rises = order.trigger_rises === null ? buying : order.trigger_rises === 1;
    if (rises ? trigger <= quoteTicks : trigger >= quoteTicks) throw invalid('errors.triggerSide');
    if (stopType === 'slm') limit = protectedLimit(side, trigger);
    else if (buying ? limit < trigger : limit > trigger) throw invalid('errors.triggerLimit');
    // An armed OCO's stop, too, still waits below the quote.
    if (order.stop_trigger !== null && order.stop_trigger >= quoteTicks) throw invalid('errors.triggerSide');
  }
  // The band of placement: a limit (or an armed stop's triggers) within it of the quote.
  const anchors = armed && trigger !== null ? [trigger] : [limit];
  if (armed && order.stop_trigger !== null) anchors.push(order.stop_trigger);
  const { limitBandBps } = deps.config.orders;
  for (const anchor of anchors) {
    if (BigInt(Math.abs(anchor - quoteTicks)) * 10_000n > BigInt(quoteTicks) * BigInt(limitBandBps)) {
      throw new ApiError('errors.limitOutsideBand', 400, { pct: limitBandBps / 100 });
    }
  }
  // A fired OCO rests at its leg's limit: the leg keeps it too (the orders screen shows both legs).
  const legLimit =
    stopType === 'oco' && !armed
      ? order.fired_leg === 'stop'
        ? { stop_limit: limit }
        : { target_limit: limit }
      : {};
  const value = tradeValueMinor(limit, count, order.rate);
  if (value <= 0) throw invalid();
  const now = deps.clock.now();
  if (buying) {
    const charges = chargesFor(deps.config.charges, instrument, 'buy', value, productOf(order));
    const diff = value + charges.total - reservedBy(order);
    const updated = await db
      .updateTable('orders')
      .set({
        qty: count,
        limit_price: limit,
        price: limit,
        price_all: value,
        ...chargeColumns(charges),
        trigger_price: trigger,
        updated_at: now,
      })
      .where('id', '=', order.id)
      .where('status', '=', STOCK_STATUS.pending)
      .returningAll()
      .executeTakeFirstOrThrow();
    await moveReservation(db, { userId, orderId: order.id, at: now, kind: instrument.kind }, diff);
    return updated;
  }
  const delta = count - order.qty;
  if (delta > 0) {
    await reserveShares(db, userId, order.symbol, delta, now);
    if (productOf(order) === 'intraday') await assertIntradaySell(db, userId, order.symbol, count, order.qty);
  }
  if (delta < 0) {
    const released = await db
      .updateTable('positions')
      .set({ reserved_qty: sql<number>`reserved_qty - ${-delta}`, updated_at: now })
      .where('user_id', '=', userId)
      .where('symbol', '=', order.symbol)
      .where('reserved_qty', '>=', -delta)
      .executeTakeFirst();
    if (Number(released.numUpdatedRows) !== 1) throw new Error(`order ${order.no}: reserved shares missing`);
  }
  return db
    .updateTable('orders')
    .set({
      qty: count,
      limit_price: limit,
      price_all: value,
      trigger_price: trigger,
      ...legLimit,
      updated_at: now,
    })
    .where('id', '=', order.id)
    .where('status', '=', STOCK_STATUS.pending)
    .returningAll()
    .executeTakeFirstOrThrow();
}
