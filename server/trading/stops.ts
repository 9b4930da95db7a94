import type { Kysely } from 'kysely';
import { priceToTicks, tradeValueMinor } from '#shared/money';
import { protectedLimit } from '#shared/rules';
import { STOCK_STATUS } from '#shared/status';
import { checkOco, firstOcoError, GTT_MAX_DAYS, stopPriceError } from '#shared/ticket';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { invalid } from '../lib/errors';
import { chargeColumns, chargesFor } from './charges';
import { DELIVERY_DAY, placing, stockOrder, type Ticket } from './engine';
import { rateTicks } from './fx';
import { assertMarketOpen, sessionEnd } from './hours';
import { insertOrder } from './order-rows';
import { assertMayRest, checkStockQuantity, tradable } from './placement';
import { assertIntradaySell, avgTicks, reserveShares } from './positions';
import { reserveBuy } from './postings';

/**
 * Orders that wait for a price: stop-loss, stop-loss-market and good-till-triggered
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

const DAY_MS = 24 * 3600 * 1000;

/**
 * A stop order: it waits, untriggered, until the server's quote reaches its trigger —
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
  // The ticket's rules (#shared/ticket): a stop triggers on a move to come, a GTT on either side of
  // the quote but never at it; a limit at or beyond its trigger.
  const own = input.order_type === 'slm' || input.price === undefined ? null : priceToTicks(input.price);
  const refused = stopPriceError(input.side, input.order_type, trigger, own, quoteTicks);
  if (refused) throw invalid(refused);
  const limit = own ?? protectedLimit(input.side, trigger);
  await assertMayRest(deps, db, userId, trigger, quoteTicks);
  const value = tradeValueMinor(limit, input.count, rate);
  if (value <= 0) throw invalid();
  const reservedUnits = buying ? null : await reserveShares(db, userId, instrument.symbol, input.count, now);
  if (reservedUnits && ticket.product === 'intraday')
    await assertIntradaySell(db, userId, instrument.symbol, input.count);
  const charges = buying ? chargesFor(deps.config.charges, instrument, 'buy', value, ticket.product) : null;
  const order = await insertOrder(db, {
    ...stockOrder(userId, instrument, input.side, input.count, now, rate, ticket),
    status: STOCK_STATUS.pending,
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
    await reserveBuy(
      db,
      { userId, orderId: order.id, at: now, kind: instrument.kind },
      value + charges.total,
    );
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
 * A one-cancels-the-other GTT sell: a holding sold at a target (the quote rising to it)
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
  const now = deps.clock.now();
  const rate = await rateTicks(deps, db, instrument.currency);
  const quoteTicks = priceToTicks(quote.price);
  const target = priceToTicks(input.target);
  const stop = priceToTicks(input.stop);
  const targetLimit = priceToTicks(input.target_price);
  const stopLimit = priceToTicks(input.stop_price);
  // The ticket's rules (#shared/ticket): the target above the quote, the stop below, each limit at
  // or below its trigger.
  const refused = firstOcoError(checkOco({ target, targetLimit, stop, stopLimit }, quoteTicks));
  if (refused) throw invalid(refused);
  // Both triggers within the band of the quote, like every resting order's.
  await assertMayRest(deps, db, userId, stop, quoteTicks);
  await assertMayRest(deps, db, userId, target, quoteTicks);
  const value = tradeValueMinor(targetLimit, input.count, rate);
  if (value <= 0 || tradeValueMinor(stopLimit, input.count, rate) <= 0) throw invalid();
  const reserved = await reserveShares(db, userId, instrument.symbol, input.count, now);
  return insertOrder(db, {
    ...stockOrder(userId, instrument, 'sell', input.count, now, rate),
    status: STOCK_STATUS.pending,
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
