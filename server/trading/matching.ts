import { type Kysely, sql } from 'kysely';
import { priceToTicks, tradeValueMinor } from '#shared/money';
import { STOCK_STATUS } from '#shared/status';
import { withTx } from '../db/index';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import type { Instrument, Quote } from '../market/provider';
import { chargeColumns, chargesFor } from './charges';
import { inSession, sessionEnd } from './hours';
import { orderNotice } from './notices';
import { lockOrder, type OrderRecord, productOf } from './order-rows';
import { addToPosition, avgTicks, takeFromPosition } from './positions';
import { creditSale, releaseBuy, reservedBy, settleReservedBuy } from './postings';

/**
 * Resting orders after placement: the match job (`matchPendingOrders`, run by jobs.ts) expires
 * those whose session closed, fires stops, GTTs and OCO legs whose trigger the quote reached and
 * fills those whose limit it reached (`fillPending`); `closePending` ends one as cancelled,
 * expired or failed and releases exactly what it reserved. A fill, an expiry and a failure are told
 * to the order's owner in their transaction (notices.ts).
 */

/** Whether a quote reaches a stop's trigger: a buy stop on a rise to it, a sell stop on a fall. */
function triggerReached(side: 'buy' | 'sell', quoteTicks: number, trigger: number): boolean {
  return side === 'buy' ? quoteTicks >= trigger : quoteTicks <= trigger;
}

/** Whether a quote fires an armed order: a GTT on the side it was placed to wait on, a stop by its side. */
function fires(order: OrderRecord, quoteTicks: number, trigger: number): boolean {
  if (order.trigger_rises !== null)
    return order.trigger_rises === 1 ? quoteTicks >= trigger : quoteTicks <= trigger;
  return triggerReached(order.side, quoteTicks, trigger);
}

/** The leg of an armed OCO a quote fires: its target on a rise to it, its stop on a fall to it. */
function ocoLeg(order: OrderRecord, quoteTicks: number): { name: 'target' | 'stop'; limit: number } | null {
  if (order.trigger_price !== null && order.target_limit !== null && quoteTicks >= order.trigger_price)
    return { name: 'target', limit: order.target_limit };
  if (order.stop_trigger !== null && order.stop_limit !== null && quoteTicks <= order.stop_trigger)
    return { name: 'stop', limit: order.stop_limit };
  return null;
}

/**
 * Ends a pending order as cancelled or expired and releases what it reserved; `reason` (an i18n
 * key) says why when the user did not ask for it (an IOC that could not fill). Answers null when
 * the order was no longer pending (filled, cancelled or expired by someone else first).
 */
export async function closePending(
  deps: Deps,
  db: Kysely<DB>,
  order: OrderRecord,
  status: typeof STOCK_STATUS.cancelled | typeof STOCK_STATUS.expired | typeof STOCK_STATUS.failed,
  reason: string | null = null,
): Promise<OrderRecord | null> {
  const now = deps.clock.now();
  const closed = await db
    .updateTable('orders')
    .set({ status, updated_at: now, ...(reason ? { reason } : {}) })
    .where('id', '=', order.id)
    .where('status', '=', STOCK_STATUS.pending)
    .returningAll()
    .executeTakeFirst();
  if (!closed) return null;
  if (closed.side === 'buy') {
    await releaseBuy(db, { userId: closed.user_id, orderId: closed.id, at: now }, reservedBy(closed));
  } else {
    const released = await db
      .updateTable('positions')
      .set({ reserved_qty: sql<number>`reserved_qty - ${closed.qty}`, updated_at: now })
      .where('user_id', '=', closed.user_id)
      .where('symbol', '=', closed.symbol)
      .where('reserved_qty', '>=', closed.qty)
      .executeTakeFirst();
    if (Number(released.numUpdatedRows) !== 1) throw new Error(`order ${closed.no}: reserved shares missing`);
  }
  // The market or the server ended it, not its owner: they hear of it.
  if (status !== STOCK_STATUS.cancelled)
    await orderNotice(deps, db, closed, status === STOCK_STATUS.expired ? 'expired' : 'rejected', now);
  return closed;
}

/**
 * Fills a pending order at `quoteTicks` if it is still pending, armed (a stop: triggered) and its
 * limit reached. The row is read again, locked, in this transaction: the match job's page was read
 * before it, and a modify may have changed the quantity, the limit or the reservation since.
 */
export async function fillPending(
  deps: Deps,
  db: Kysely<DB>,
  orderId: number,
  quoteTicks: number,
): Promise<OrderRecord | null> {
  const order = await lockOrder(db, deps.database.dialect, orderId);
  if (!order || order.status !== STOCK_STATUS.pending || order.limit_price === null) return null;
  if (order.trigger_price !== null && order.triggered_at === null) return null;
  if (order.side === 'buy' ? quoteTicks > order.limit_price : quoteTicks < order.limit_price) return null;
  const now = deps.clock.now();
  const instrument = deps.market.instrument(order.symbol);
  // An intraday fill is squared off at its session's close (squareoff.ts).
  const square_at = order.product === 'intraday' && instrument ? sessionEnd(instrument, now) : null;
  const ref = { userId: order.user_id, orderId: order.id, at: now, kind: instrument?.kind };
  if (order.side === 'buy') {
    const value = tradeValueMinor(quoteTicks, order.qty, order.rate);
    const charges = chargesFor(deps.config.charges, instrument, 'buy', value, productOf(order));
    const filled = await db
      .updateTable('orders')
      .set({
        status: STOCK_STATUS.success,
        price: quoteTicks,
        price_all: value,
        ...chargeColumns(charges),
        updated_at: now,
        square_at,
      })
      .where('id', '=', order.id)
      .where('status', '=', STOCK_STATUS.pending)
      .returningAll()
      .executeTakeFirst();
    if (!filled) return null;
    // The reservation (value and charges at the limit) is released down to the value; the charges
    // are then posted as what they are. The quote is at or below the limit: value ≤ reserved.
    await addToPosition(db, order.user_id, order.symbol, order.qty, value, quoteTicks * order.qty, now);
    await settleReservedBuy(db, ref, reservedBy(order), value, charges.total);
    await orderNotice(deps, db, filled, 'filled', now);
    return filled;
  }
  const claimed = await db
    .updateTable('orders')
    .set({ status: STOCK_STATUS.success, updated_at: now })
    .where('id', '=', order.id)
    .where('status', '=', STOCK_STATUS.pending)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return null;
  const taken = await takeFromPosition(
    db,
    deps.database.dialect,
    order.user_id,
    order.symbol,
    order.qty,
    true,
    now,
  );
  const proceeds = tradeValueMinor(quoteTicks, order.qty, order.rate);
  const charges = chargesFor(deps.config.charges, instrument, 'sell', proceeds, productOf(order));
  const filled = await db
    .updateTable('orders')
    .set({
      price: avgTicks(taken.native, order.qty),
      sell_price: quoteTicks,
      price_all: proceeds,
      ...chargeColumns(charges),
      profit: proceeds - taken.cost,
      square_at,
    })
    .where('id', '=', order.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await creditSale(db, ref, proceeds, charges.total);
  await orderNotice(deps, db, filled, 'filled', now);
  return filled;
}

/**
 * One pass of the match job: expires pending orders whose session has closed, triggers stops whose
 * trigger the current quote has reached, and fills those whose limit it has reached. Each order is its own transaction; one failure does not
 * stop the others (they are reported together at the end).
 */
export async function matchPendingOrders(
  deps: Deps,
): Promise<{ filled: number; expired: number; triggered: number }> {
  let filled = 0;
  let triggered = 0;
  let expired = 0;
  const failures: unknown[] = [];
  // Pages of ORDER_JOB_BATCH by id, so one pass never holds every pending order in memory.
  for await (const order of pendingInBatches(deps)) {
    try {
      if (order.expires_at !== null && order.expires_at <= deps.clock.now()) {
        if (await withTx(deps.database, (trx) => closePending(deps, trx, order, STOCK_STATUS.expired)))
          expired++;
        continue;
      }
      const instrument = deps.market.instrument(order.symbol);
      const quote = deps.market.quote(order.symbol);
      if (!instrument || !quote || order.limit_price === null) continue;
      if (order.send_at !== null) {
        if (await sendAmo(deps, order, instrument, quote)) filled++;
        continue;
      }
      // A closed market fills nothing, whatever ENFORCE_TRADING_HOURS says (a stop rests untriggered).
      if (!inSession(instrument, deps.clock.now())) continue;
      const q = priceToTicks(quote.price);
      let limit = order.limit_price;
      if (order.trigger_price !== null && order.triggered_at === null) {
        // An untriggered stop: it becomes a resting limit once the quote reaches its trigger (and
        // may fill in the same pass if the quote is inside its limit too). An OCO: the leg the
        // quote reached, its target on a rise or its stop on a fall, rests at that leg's limit.
        const leg = order.order_type === 'oco' ? ocoLeg(order, q) : null;
        if (order.order_type === 'oco' ? leg === null : !fires(order, q, order.trigger_price)) continue;
        if (leg) limit = leg.limit;
        const now = deps.clock.now();
        // A triggered GTT's order lives for the session it triggered in (within its validity).
        const end =
          order.expires_at === null ? null : Math.min(order.expires_at, sessionEnd(instrument, now));
        const marked = await deps.database.db
          .updateTable('orders')
          .set({
            triggered_at: now,
            updated_at: now,
            ...(order.order_type === 'gtt' || leg ? { expires_at: end } : {}),
            ...(leg
              ? {
                  fired_leg: leg.name,
                  limit_price: leg.limit,
                  price_all: tradeValueMinor(leg.limit, order.qty, order.rate),
                }
              : {}),
          })
          .where('id', '=', order.id)
          .where('status', '=', STOCK_STATUS.pending)
          // One mark only: of two match runs (or two legs) the first wins, the other changes nothing.
          .where('triggered_at', 'is', null)
          // Unless a modify moved the trigger or the quantity since this page was read.
          .where('trigger_price', '=', order.trigger_price)
          .where('qty', '=', order.qty)
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) !== 1) continue;
        triggered++;
      }
      const reached = order.side === 'buy' ? q <= limit : q >= limit;
      if (reached && (await withTx(deps.database, (trx) => fillPending(deps, trx, order.id, q)))) filled++;
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, `${failures.length} pending orders failed`);
  return { filled, expired, triggered };
}

/**
 * An after-market order (engine.ts `placeAmo`): nothing before its send time, and nothing while its
 * market is shut — whatever ENFORCE_TRADING_HOURS says, it never fills at a closed market's price.
 * From the open it is sent at the open's price (the session's first, `quote.open`) when that is
 * within its protection, else it rests at its protected limit for the session like any limit.
 */
async function sendAmo(
  deps: Deps,
  order: OrderRecord,
  instrument: Instrument,
  quote: Quote,
): Promise<boolean> {
  const now = deps.clock.now();
  if (order.send_at === null || order.limit_price === null) return false;
  if (now < order.send_at || !inSession(instrument, now)) return false;
  const reached = (q: number) => (order.side === 'buy' ? q <= order.limit_price! : q >= order.limit_price!);
  const open = priceToTicks(quote.open);
  const q = reached(open) ? open : priceToTicks(quote.price);
  if (!reached(q)) return false;
  return (await withTx(deps.database, (trx) => fillPending(deps, trx, order.id, q))) !== null;
}

/** Every pending stock order, read in keyset pages of `config.orders.jobBatch`. */
async function* pendingInBatches(deps: Deps): AsyncGenerator<OrderRecord> {
  const size = deps.config.orders.jobBatch;
  let after = 0;
  for (;;) {
    const page = await deps.database.db
      .selectFrom('orders')
      .selectAll()
      .where('status', '=', STOCK_STATUS.pending)
      .where('kind', '=', 'stock')
      .where('id', '>', after)
      .orderBy('id')
      .limit(size)
      .execute();
    yield* page;
    if (page.length < size) return;
    after = page[page.length - 1]!.id;
  }
}
