import type { Kysely } from 'kysely';
import { priceToTicks, tradeValueMinor } from '#shared/money';
import { protectedLimit } from '#shared/rules';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { invalid } from '../lib/errors';
import { post } from '../lib/ledger';
import { chargeColumns, chargesFor } from './charges';
import { DELIVERY_DAY, placing, stockOrder, type Ticket } from './engine';
import { rateTicks } from './fx';
import { assertMarketOpen, sessionEnd } from './hours';
import { assertMayRest, checkStockQuantity, insertOrder, STOCK, tradable, tradeReason } from './orders';
import { avgTicks, reserveShares } from './positions';

/**
 * Orders that wait for a price (issue 13): stop-loss, stop-loss-market and good-till-triggered
 * (`placeStop`), and the one-cancels-the-other GTT sell (`placeOco`). The match job (matching.ts)
 * fires and fills them; cancel and expiry release what they reserved (`closePending`).
 */

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
export async function placeStop(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: StopInput,
  ticket: Ticket = DELIVERY_DAY,
) {
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
    ...stockOrder(userId, instrument, input.side, input.count, now, rate, ticket),
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
