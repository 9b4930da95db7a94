import { type Insertable, type Kysely, sql } from 'kysely';
import { divRoundHalfUp, priceToTicks, tradeValueMinor } from '#shared/money';
import { protectedLimit } from '#shared/rules';
import { type Dialect, withTx } from '../db/index';
import type { DB, OrdersTable } from '../db/schema';
import { insertReturningAll, statement } from '../db/statement';
import type { Deps } from '../deps';
import { ApiError, invalid, notFound } from '../lib/errors';
import { post } from '../lib/ledger';
import type { Instrument } from '../market/provider';
import { chargeColumns, chargesFor } from './charges';
import { rateTicks } from './fx';
import { assertMarketOpen, isMarketOpen, sessionEnd } from './hours';
import {
  assertMayRest,
  checkStockQuantity,
  lockPosition,
  type OrderRecord,
  orderNo,
  STOCK,
  tradable,
  tradeReason,
  withinTolerance,
} from './orders';

/**
 * The stock order engine (mold `stock`: stocks, forex, futures, treasury).
 *
 * A buy or sell fills at the server's quote. The price the client sends is only what the user saw:
 * - quote within PRICE_TOLERANCE_BPS of it (or better for the user) → filled at once at the quote;
 * - quote moved further against the user → the order rests as a pending limit order at the user's
 *   price. A buy reserves its money at that limit (ledger `buy…`); a sell reserves the shares
 *   (positions.reserved_qty). The match job fills it at the quote of a later tick once the quote
 *   reaches the limit (a buy refunds the difference, `orderRefund`), the user may cancel it, and it
 *   expires at the close of the session it was placed in; cancel and expiry release exactly what
 *   was reserved. So Pending, Success, Cancelled and Expired are all real states.
 *
 * Every fill pays its charges (charges.ts) as one `transactionExpenses` posting beside the trade's
 * own. `price_all` stays the trade's value (quantity × price) and `fee` its charges, kept per
 * component for the contract note: a buy pays price_all + fee, a sell receives price_all − fee. A
 * resting buy reserves both at its limit (price_all and fee at the limit until it fills). Position
 * cost and `profit` are gross of charges (SPEC's (sell − cost) × count).
 *
 * Lock order, to keep PostgreSQL free of deadlocks: an existing order row, then the position,
 * then the user's balance (the ledger).
 */

export interface TradeInput {
  tag: string;
  count: number;
  price: number;
}

/** Every order row goes in here (fixed SQL per shape of `values`: db/statement.ts). */
export function insertOrder(db: Kysely<DB>, values: Insertable<OrdersTable>): Promise<OrderRecord> {
  return insertReturningAll<OrderRecord>(db, 'orders', values);
}

const ADD_TO_POSITION = statement(
  `insert into positions (user_id, symbol, qty, reserved_qty, cost, cost_native, updated_at)
   values (?, ?, ?, 0, ?, ?, ?)
   on conflict (user_id, symbol) do update set qty = positions.qty + excluded.qty,
     cost = positions.cost + excluded.cost, cost_native = positions.cost_native + excluded.cost_native,
     updated_at = excluded.updated_at`,
);

async function addToPosition(
  db: Kysely<DB>,
  userId: number,
  symbol: string,
  qty: number,
  cost: number,
  costNative: number,
  at: number,
): Promise<void> {
  await ADD_TO_POSITION(db, [userId, symbol, qty, cost, costNative, at]);
}

/**
 * Takes `count` units out of a position (free units, or units a pending sell reserved) and
 * returns the cost basis they carry: a proportional share, HALF_UP, or all of it for the last unit.
 */
async function takeFromPosition(
  db: Kysely<DB>,
  dialect: Dialect,
  userId: number,
  symbol: string,
  count: number,
  fromReserved: boolean,
  at: number,
): Promise<{ cost: number; native: number }> {
  const pos = await lockPosition(db, dialect, userId, symbol);
  const enough = pos && (fromReserved ? pos.reserved_qty >= count : pos.qty - pos.reserved_qty >= count);
  if (!pos || !enough) throw invalid('errors.insufficientShares');
  const share = (total: number) =>
    count === pos.qty ? total : Number(divRoundHalfUp(BigInt(total) * BigInt(count), BigInt(pos.qty)));
  const cost = share(pos.cost);
  const native = share(pos.cost_native);
  const where = db.updateTable('positions').where('user_id', '=', userId).where('symbol', '=', symbol);
  if (count === pos.qty) {
    await db.deleteFrom('positions').where('user_id', '=', userId).where('symbol', '=', symbol).execute();
  } else {
    await where
      .set({
        qty: sql<number>`qty - ${count}`,
        reserved_qty: sql<number>`reserved_qty - ${fromReserved ? count : 0}`,
        cost: sql<number>`cost - ${cost}`,
        cost_native: sql<number>`cost_native - ${native}`,
        updated_at: at,
      })
      .execute();
  }
  return { cost, native };
}

/** Average price (ticks) of units whose native cost is `native`. */
const avgTicks = (native: number, count: number) => Number(divRoundHalfUp(BigInt(native), BigInt(count)));

/** What every stock order placed now starts from: a valid count of a tradable instrument whose market is open, the time, its rate and quote. */
async function placing(deps: Deps, db: Kysely<DB>, input: { tag: string; count: number }) {
  checkStockQuantity(input.count);
  const { instrument, quote } = tradable(deps, input.tag);
  assertMarketOpen(deps, instrument);
  const now = deps.clock.now();
  const rate = await rateTicks(deps, db, instrument.currency);
  return { instrument, now, rate, quoteTicks: priceToTicks(quote.price) };
}

/** The columns every stock order row placed by `userId` at `now` shares. */
function stockOrder(
  userId: number,
  instrument: Instrument,
  side: 'buy' | 'sell',
  count: number,
  now: number,
  rate: number,
) {
  return {
    no: orderNo('stock', now),
    user_id: userId,
    mold: 'stock' as const,
    symbol: instrument.symbol,
    market: instrument.market,
    name: instrument.name,
    state: side,
    count,
    ref_id: null,
    created_at: now,
    updated_at: now,
    rate,
    region: instrument.region,
  };
}

export async function placeBuy(deps: Deps, db: Kysely<DB>, userId: number, input: TradeInput) {
  const { instrument, now, rate, quoteTicks } = await placing(deps, db, input);
  const seen = priceToTicks(input.price);
  const fills = withinTolerance('buy', quoteTicks, seen);
  const exec = fills ? quoteTicks : seen;
  const value = tradeValueMinor(exec, input.count, rate);
  if (value <= 0) throw invalid();
  if (!fills) await assertMayRest(deps, db, userId, seen, quoteTicks);
  // A fill pays value and charges; a resting buy reserves both at its limit (the most they can be).
  const charges = chargesFor(deps.config.charges, instrument, 'buy', value);
  const order = await insertOrder(db, {
    ...stockOrder(userId, instrument, 'buy', input.count, now, rate),
    status: fills ? STOCK.success : STOCK.pending,
    limit_price: seen,
    price: exec,
    sell_price: null,
    ...chargeColumns(charges),
    price_all: value,
    profit: null,
    expires_at: fills ? null : sessionEnd(instrument, now),
  });
  if (fills) await addToPosition(db, userId, instrument.symbol, input.count, value, exec * input.count, now);
  await post(db, {
    userId,
    amount: fills ? -value : -(value + charges.total),
    reason: tradeReason(instrument.kind, 'buy'),
    refType: 'order',
    refId: order.id,
    at: now,
  });
  if (fills) await postCharges(db, userId, order.id, charges.total, now);
  return order;
}

/** The charges of a fill: one `transactionExpenses` posting naming the order (none when zero). */
async function postCharges(db: Kysely<DB>, userId: number, orderId: number, total: number, at: number) {
  if (total <= 0) return;
  await post(db, {
    userId,
    amount: -total,
    reason: 'transactionExpenses',
    refType: 'order',
    refId: orderId,
    at,
  });
}

export async function placeSell(deps: Deps, db: Kysely<DB>, userId: number, input: TradeInput) {
  const { instrument, now, rate, quoteTicks } = await placing(deps, db, input);
  const seen = priceToTicks(input.price);
  const base = {
    ...stockOrder(userId, instrument, 'sell', input.count, now, rate),
    limit_price: seen,
    fee: 0,
  };
  if (withinTolerance('sell', quoteTicks, seen)) {
    const taken = await takeFromPosition(
      db,
      deps.database.dialect,
      userId,
      instrument.symbol,
      input.count,
      false,
      now,
    );
    const proceeds = tradeValueMinor(quoteTicks, input.count, rate);
    const charges = chargesFor(deps.config.charges, instrument, 'sell', proceeds);
    const order = await insertOrder(db, {
      ...base,
      ...chargeColumns(charges),
      status: STOCK.success,
      price: avgTicks(taken.native, input.count),
      sell_price: quoteTicks,
      price_all: proceeds,
      profit: proceeds - taken.cost,
      expires_at: null,
    });
    if (proceeds > 0) {
      await post(db, {
        userId,
        amount: proceeds,
        reason: tradeReason(instrument.kind, 'sell'),
        refType: 'order',
        refId: order.id,
        at: now,
      });
    }
    await postCharges(db, userId, order.id, charges.total, now);
    return order;
  }
  const reserved = await reserveShares(db, userId, instrument.symbol, input.count, now);
  // After the reservation, so a seller without the shares hears that; a refusal rolls it back.
  await assertMayRest(deps, db, userId, seen, quoteTicks);
  return insertOrder(db, {
    ...base,
    status: STOCK.pending,
    price: avgTicks(reserved.cost_native, reserved.qty),
    sell_price: null,
    price_all: tradeValueMinor(seen, input.count, rate),
    profit: null,
    expires_at: sessionEnd(instrument, now),
  });
}

/** Holds back `count` free units of a position for a resting sell (refused when not held). */
async function reserveShares(db: Kysely<DB>, userId: number, symbol: string, count: number, at: number) {
  const reserved = await db
    .updateTable('positions')
    .set({ reserved_qty: sql<number>`reserved_qty + ${count}`, updated_at: at })
    .where('user_id', '=', userId)
    .where('symbol', '=', symbol)
    .where(sql<boolean>`qty - reserved_qty >= ${count}`)
    .returning(['qty', 'cost_native'])
    .executeTakeFirst();
  if (!reserved) throw invalid('errors.insufficientShares');
  return reserved;
}

export interface StopInput {
  tag: string;
  count: number;
  side: 'buy' | 'sell';
  order_type: 'sl' | 'slm' | 'gtt';
  /** A GTT's validity in days (1 to GTT_MAX_DAYS; default GTT_MAX_DAYS). */
  valid_days?: number;
  /** The trigger (instrument currency). */
  trigger: number;
  /** sl, gtt: the limit once triggered; slm: ignored (the market, within PRICE_TOLERANCE_BPS of the trigger). */
  price?: number;
}

/** A GTT is valid for at most a year. */
const GTT_MAX_DAYS = 365;
const DAY_MS = 24 * 3600 * 1000;

/**
 * A stop order (issue 13): it waits, untriggered, until the server's quote reaches its trigger —
 * rising to it for a buy, falling to it for a sell — then rests as a limit at its limit price
 * (stop-loss) or at the trigger moved PRICE_TOLERANCE_BPS against the user (stop-loss-market: the
 * market, with the same protection a market order has). What it needs is reserved at placement at
 * that limit — a buy's value and charges, a sell's units — and released exactly by cancel or expiry.
 */
export async function placeStop(deps: Deps, db: Kysely<DB>, userId: number, input: StopInput) {
  const { instrument, now, rate, quoteTicks } = await placing(deps, db, input);
  const trigger = priceToTicks(input.trigger);
  const buying = input.side === 'buy';
  const gtt = input.order_type === 'gtt';
  if (input.valid_days !== undefined && (!gtt || input.valid_days > GTT_MAX_DAYS)) {
    throw invalid('errors.gttValidity');
  }
  // A stop triggers on a move to come: a trigger the quote is already past would fire at once. A
  // GTT's trigger may be on either side of the quote (a target or a stop), never at it.
  if (gtt ? trigger === quoteTicks : buying ? trigger <= quoteTicks : trigger >= quoteTicks) {
    throw invalid(gtt ? 'errors.gttTrigger' : 'errors.triggerSide');
  }
  let limit: number;
  if (input.order_type === 'sl' || gtt) {
    if (input.price === undefined) throw invalid('trade.limit.invalid');
    limit = priceToTicks(input.price);
    if (buying ? limit < trigger : limit > trigger) throw invalid('errors.triggerLimit');
  } else {
    limit = protectedLimit(input.side, trigger);
  }
  await assertMayRest(deps, db, userId, trigger, quoteTicks);
  const value = tradeValueMinor(limit, input.count, rate);
  if (value <= 0) throw invalid();
  const reservedUnits = buying ? null : await reserveShares(db, userId, instrument.symbol, input.count, now);
  const charges = buying ? chargesFor(deps.config.charges, instrument, 'buy', value) : null;
  const order = await insertOrder(db, {
    ...stockOrder(userId, instrument, input.side, input.count, now, rate),
    status: STOCK.pending,
    limit_price: limit,
    price: reservedUnits ? avgTicks(reservedUnits.cost_native, reservedUnits.qty) : limit,
    sell_price: null,
    ...(charges ? chargeColumns(charges) : { fee: 0 }),
    price_all: value,
    profit: null,
    // A stop lives for its session; a GTT for its validity (its triggered order, for that session).
    expires_at: gtt ? now + (input.valid_days ?? GTT_MAX_DAYS) * DAY_MS : sessionEnd(instrument, now),
    order_type: input.order_type,
    trigger_price: trigger,
    triggered_at: null,
    trigger_rises: gtt ? (trigger > quoteTicks ? 1 : 0) : null,
  });
  if (charges) {
    await post(db, {
      userId,
      amount: -(value + charges.total),
      reason: tradeReason(instrument.kind, 'buy'),
      refType: 'order',
      refId: order.id,
      at: now,
    });
  }
  return order;
}

export interface OcoInput {
  tag: string;
  count: number;
  /** The target: fires on a rise to it (above the quote). */
  target: number;
  /** The target's limit once fired (at or below the target). */
  target_price: number;
  /** The stop: fires on a fall to it (below the quote). */
  stop: number;
  /** The stop's limit once fired (at or below the stop). */
  stop_price: number;
  /** Validity in days (1 to GTT_MAX_DAYS; default GTT_MAX_DAYS). */
  valid_days?: number;
}

/**
 * A one-cancels-the-other GTT sell (issue 13): a holding sold at a target (the quote rising to it)
 * or at a stop (the quote falling to it), whichever comes first. ONE order row with both triggers
 * and ONE reservation of the units (`positions.reserved_qty`): both legs sell the same units. The
 * match job fires at most one leg — the mark of a fired leg is conditional on no leg having fired —
 * and the order then rests at that leg's limit for the session, like a fired GTT; the other leg is
 * gone with it (there is no second row to cancel). Cancel and expiry release the units once.
 * Only sells: a buy OCO (a breakout or a dip) is rare and would reserve money for two prices.
 */
export async function placeOco(deps: Deps, db: Kysely<DB>, userId: number, input: OcoInput) {
  checkStockQuantity(input.count);
  const { instrument, quote } = tradable(deps, input.tag);
  assertMarketOpen(deps, instrument);
  if (input.valid_days !== undefined && input.valid_days > GTT_MAX_DAYS) throw invalid('errors.gttValidity');
  const now = deps.clock.now();
  const rate = await rateTicks(deps, db, instrument.currency);
  const quoteTicks = priceToTicks(quote.price);
  const target = priceToTicks(input.target);
  const stop = priceToTicks(input.stop);
  const targetLimit = priceToTicks(input.target_price);
  const stopLimit = priceToTicks(input.stop_price);
  if (target <= quoteTicks) throw invalid('errors.ocoTarget');
  if (stop >= quoteTicks) throw invalid('errors.ocoStop');
  // A sell's limit is at or below its trigger.
  if (targetLimit > target || stopLimit > stop) throw invalid('errors.triggerLimit');
  // Both triggers within the band of the quote, like every resting order's.
  await assertMayRest(deps, db, userId, stop, quoteTicks);
  await assertMayRest(deps, db, userId, target, quoteTicks);
  const value = tradeValueMinor(targetLimit, input.count, rate);
  if (value <= 0 || tradeValueMinor(stopLimit, input.count, rate) <= 0) throw invalid();
  const reserved = await reserveShares(db, userId, instrument.symbol, input.count, now);
  return insertOrder(db, {
    ...stockOrder(userId, instrument, 'sell', input.count, now, rate),
    status: STOCK.pending,
    limit_price: targetLimit,
    price: avgTicks(reserved.cost_native, reserved.qty),
    sell_price: null,
    fee: 0,
    price_all: value,
    profit: null,
    expires_at: now + (input.valid_days ?? GTT_MAX_DAYS) * DAY_MS,
    order_type: 'oco',
    trigger_price: target,
    triggered_at: null,
    trigger_rises: 1,
    target_limit: targetLimit,
    stop_trigger: stop,
    stop_limit: stopLimit,
    fired_leg: null,
  });
}

export interface ModifyInput {
  count?: number;
  /** The new limit (limit and stop-loss orders). */
  price?: number;
  /** The new trigger (stops not yet triggered). */
  trigger?: number;
}

/** Locks an order row for the rest of the transaction (PostgreSQL; SQLite has one writer). */
async function lockOrder(db: Kysely<DB>, dialect: Dialect, id: number) {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', id)
    .$if(dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst();
}

/**
 * Modifies a pending stock order (issue 13): quantity, limit (limit, stop-loss) and trigger (an
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
  if (order?.mold !== 'stock' || order.status !== STOCK.pending) throw invalid('errors.notPending');
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
  const count = input.count ?? order.count;
  checkStockQuantity(count);
  const { instrument, quote } = tradable(deps, order.symbol);
  const quoteTicks = priceToTicks(quote.price);
  const side = order.state;
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
    const charges = chargesFor(deps.config.charges, instrument, 'buy', value);
    const diff = value + charges.total - (order.price_all + order.fee);
    const updated = await db
      .updateTable('orders')
      .set({
        count,
        limit_price: limit,
        price: limit,
        price_all: value,
        ...chargeColumns(charges),
        trigger_price: trigger,
        updated_at: now,
      })
      .where('id', '=', order.id)
      .where('status', '=', STOCK.pending)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (diff !== 0) {
      await post(db, {
        userId,
        amount: -diff,
        reason: diff > 0 ? tradeReason(instrument.kind, 'buy') : 'orderRefund',
        refType: 'order',
        refId: order.id,
        at: now,
      });
    }
    return updated;
  }
  const delta = count - order.count;
  if (delta > 0) await reserveShares(db, userId, order.symbol, delta, now);
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
      count,
      limit_price: limit,
      price_all: value,
      trigger_price: trigger,
      ...legLimit,
      updated_at: now,
    })
    .where('id', '=', order.id)
    .where('status', '=', STOCK.pending)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Whether a quote reaches a stop's trigger: a buy stop on a rise to it, a sell stop on a fall. */
function triggerReached(side: 'buy' | 'sell', quoteTicks: number, trigger: number): boolean {
  return side === 'buy' ? quoteTicks >= trigger : quoteTicks <= trigger;
}

/** Whether a quote fires an armed order: a GTT on the side it was placed to wait on, a stop by its side. */
function fires(order: OrderRecord, quoteTicks: number, trigger: number): boolean {
  if (order.trigger_rises !== null)
    return order.trigger_rises === 1 ? quoteTicks >= trigger : quoteTicks <= trigger;
  return triggerReached(order.state, quoteTicks, trigger);
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
 * Ends a pending order as cancelled or expired and releases what it reserved. Answers null when the
 * order was no longer pending (filled, cancelled or expired by someone else first).
 */
export async function closePending(
  deps: Deps,
  db: Kysely<DB>,
  order: OrderRecord,
  status: typeof STOCK.cancelled | typeof STOCK.expired | typeof STOCK.failed,
): Promise<OrderRecord | null> {
  const now = deps.clock.now();
  const closed = await db
    .updateTable('orders')
    .set({ status, updated_at: now })
    .where('id', '=', order.id)
    .where('status', '=', STOCK.pending)
    .returningAll()
    .executeTakeFirst();
  if (!closed) return null;
  if (closed.state === 'buy') {
    // What it reserved: value and charges at its limit.
    await post(db, {
      userId: closed.user_id,
      amount: closed.price_all + closed.fee,
      reason: 'orderRefund',
      refType: 'order',
      refId: closed.id,
      at: now,
    });
  } else {
    const released = await db
      .updateTable('positions')
      .set({ reserved_qty: sql<number>`reserved_qty - ${closed.count}`, updated_at: now })
      .where('user_id', '=', closed.user_id)
      .where('symbol', '=', closed.symbol)
      .where('reserved_qty', '>=', closed.count)
      .executeTakeFirst();
    if (Number(released.numUpdatedRows) !== 1) throw new Error(`order ${closed.no}: reserved shares missing`);
  }
  return closed;
}

/**
 * Fills a pending order at `quoteTicks` if it is still pending, armed (a stop: triggered) and its
 * limit reached. The row is read again, locked, in this transaction: the match job's page was read
 * before it, and a modify may have changed the quantity, the limit or the reservation since.
 */
async function fillPending(
  deps: Deps,
  db: Kysely<DB>,
  orderId: number,
  quoteTicks: number,
): Promise<OrderRecord | null> {
  const order = await lockOrder(db, deps.database.dialect, orderId);
  if (!order || order.status !== STOCK.pending || order.limit_price === null) return null;
  if (order.trigger_price !== null && order.triggered_at === null) return null;
  if (order.state === 'buy' ? quoteTicks > order.limit_price : quoteTicks < order.limit_price) return null;
  const now = deps.clock.now();
  const instrument = deps.market.instrument(order.symbol);
  if (order.state === 'buy') {
    const value = tradeValueMinor(quoteTicks, order.count, order.rate);
    const charges = chargesFor(deps.config.charges, instrument, 'buy', value);
    const filled = await db
      .updateTable('orders')
      .set({
        status: STOCK.success,
        price: quoteTicks,
        price_all: value,
        ...chargeColumns(charges),
        updated_at: now,
      })
      .where('id', '=', order.id)
      .where('status', '=', STOCK.pending)
      .returningAll()
      .executeTakeFirst();
    if (!filled) return null;
    // The reservation (value and charges at the limit) is released down to the value; the charges
    // are then posted as what they are. The quote is at or below the limit: value ≤ reserved.
    await addToPosition(db, order.user_id, order.symbol, order.count, value, quoteTicks * order.count, now);
    const refund = order.price_all + order.fee - value;
    if (refund > 0) {
      await post(db, {
        userId: order.user_id,
        amount: refund,
        reason: 'orderRefund',
        refType: 'order',
        refId: order.id,
        at: now,
      });
    }
    await postCharges(db, order.user_id, order.id, charges.total, now);
    return filled;
  }
  const claimed = await db
    .updateTable('orders')
    .set({ status: STOCK.success, updated_at: now })
    .where('id', '=', order.id)
    .where('status', '=', STOCK.pending)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) return null;
  const taken = await takeFromPosition(
    db,
    deps.database.dialect,
    order.user_id,
    order.symbol,
    order.count,
    true,
    now,
  );
  const proceeds = tradeValueMinor(quoteTicks, order.count, order.rate);
  const charges = chargesFor(deps.config.charges, instrument, 'sell', proceeds);
  const filled = await db
    .updateTable('orders')
    .set({
      price: avgTicks(taken.native, order.count),
      sell_price: quoteTicks,
      price_all: proceeds,
      ...chargeColumns(charges),
      profit: proceeds - taken.cost,
    })
    .where('id', '=', order.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (proceeds > 0) {
    await post(db, {
      userId: order.user_id,
      amount: proceeds,
      reason: tradeReason(instrument?.kind, 'sell'),
      refType: 'order',
      refId: order.id,
      at: now,
    });
  }
  await postCharges(db, order.user_id, order.id, charges.total, now);
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
        if (await withTx(deps.database, (trx) => closePending(deps, trx, order, STOCK.expired))) expired++;
        continue;
      }
      const instrument = deps.market.instrument(order.symbol);
      const quote = deps.market.quote(order.symbol);
      if (!instrument || !quote || order.limit_price === null || !isMarketOpen(deps, instrument)) continue;
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
                  price_all: tradeValueMinor(leg.limit, order.count, order.rate),
                }
              : {}),
          })
          .where('id', '=', order.id)
          .where('status', '=', STOCK.pending)
          // One mark only: of two match runs (or two legs) the first wins, the other changes nothing.
          .where('triggered_at', 'is', null)
          // Unless a modify moved the trigger or the quantity since this page was read.
          .where('trigger_price', '=', order.trigger_price)
          .where('count', '=', order.count)
          .executeTakeFirst();
        if (Number(marked.numUpdatedRows) !== 1) continue;
        triggered++;
      }
      const reached = order.state === 'buy' ? q <= limit : q >= limit;
      if (reached && (await withTx(deps.database, (trx) => fillPending(deps, trx, order.id, q)))) filled++;
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, `${failures.length} pending orders failed`);
  return { filled, expired, triggered };
}

/** Every pending stock order, read in keyset pages of `config.orders.jobBatch`. */
async function* pendingInBatches(deps: Deps): AsyncGenerator<OrderRecord> {
  const size = deps.config.orders.jobBatch;
  let after = 0;
  for (;;) {
    const page = await deps.database.db
      .selectFrom('orders')
      .selectAll()
      .where('status', '=', STOCK.pending)
      .where('mold', '=', 'stock')
      .where('id', '>', after)
      .orderBy('id')
      .limit(size)
      .execute();
    yield* page;
    if (page.length < size) return;
    after = page[page.length - 1]!.id;
  }
}
