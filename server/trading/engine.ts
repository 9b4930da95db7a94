import type { Kysely } from 'kysely';
import type { OrderProduct, OrderValidity } from '#shared/contract/trading';
import { priceToTicks, tradeValueMinor } from '#shared/money';
import { protectedLimit } from '#shared/rules';
import { STOCK_STATUS } from '#shared/status';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { invalid } from '../lib/errors';
import type { Instrument } from '../market/provider';
import { chargeColumns, chargesFor } from './charges';
import { rateTicks } from './fx';
import { assertMarketOpen, inSession, nextSession, sessionEnd } from './hours';
import { insertOrder, orderNo } from './order-rows';
import { assertMayRest, checkStockQuantity, tradable, withinTolerance } from './placement';
import { addToPosition, assertIntradaySell, avgTicks, reserveShares, takeFromPosition } from './positions';
import { creditSale, payBuy, reserveBuy } from './postings';

/**
 * The stock order engine (kind `stock`: stocks, forex, futures, treasury).
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
 * own; every posting goes through postings.ts. `price_all` stays the trade's value (quantity × price) and `fee` its charges, kept per
 * component for the contract note: a buy pays price_all + fee, a sell receives price_all − fee. A
 * resting buy reserves both at its limit (price_all and fee at the limit until it fills). Position
 * cost and `profit` are gross of charges (SPEC's (sell − cost) × count).
 *
 * Lock order, to keep PostgreSQL free of deadlocks: an existing order row, then the position,
 * then the user's balance (the ledger).
 */

/**
 * What the ticket says beside the price: a market or limit order (null: inferred — a
 * price within PRICE_TOLERANCE_BPS of the quote is a market order), its product and its validity.
 */
export interface Ticket {
  kind: 'market' | 'limit' | null;
  product: OrderProduct;
  validity: OrderValidity;
}

/** SPEC's calls name no product or validity: delivery, day. */
export const DELIVERY_DAY: Ticket = { kind: null, product: 'delivery', validity: 'day' };

export interface TradeInput {
  tag: string;
  count: number;
  price: number;
  ticket?: Ticket;
}

/** What every stock order placed now starts from: a valid count of a tradable instrument whose market is open, the time, its rate and quote. */
export async function placing(deps: Deps, db: Kysely<DB>, input: { tag: string; count: number }) {
  checkStockQuantity(input.count);
  const { instrument, quote } = tradable(deps, input.tag);
  assertMarketOpen(deps, instrument);
  const now = deps.clock.now();
  const rate = await rateTicks(deps, db, instrument.currency);
  return { instrument, now, rate, quoteTicks: priceToTicks(quote.price) };
}

/** The columns every stock order row placed by `userId` at `now` shares. */
export function stockOrder(
  userId: number,
  instrument: Instrument,
  side: 'buy' | 'sell',
  count: number,
  now: number,
  rate: number,
  ticket: Ticket = DELIVERY_DAY,
) {
  return {
    // What the ticket placed (a stop or OCO names its own type over this).
    order_type: ticket.kind,
    product: ticket.product,
    validity: ticket.validity,
    no: orderNo('stock', now),
    user_id: userId,
    kind: 'stock' as const,
    symbol: instrument.symbol,
    market: instrument.market,
    name: instrument.name,
    side,
    qty: count,
    ref_id: null,
    created_at: now,
    updated_at: now,
    rate,
    region: instrument.region,
  };
}

/**
 * Whether an order is a market order: the ticket says so, or — SPEC's calls name no type —
 * the price the user saw is within PRICE_TOLERANCE_BPS of the quote (what would fill at once).
 */
function isMarketOrder(side: 'buy' | 'sell', ticket: Ticket, quoteTicks: number, seen: number): boolean {
  return ticket.kind === null ? withinTolerance(side, quoteTicks, seen) : ticket.kind === 'market';
}

/**
 * Whether an order fills at once at the quote: a limit at its limit or better, a market order (or
 * one SPEC's calls sent) within PRICE_TOLERANCE_BPS of what the user saw.
 */
function fillsNow(side: 'buy' | 'sell', ticket: Ticket, quoteTicks: number, seen: number): boolean {
  if (ticket.kind === 'limit') return side === 'buy' ? quoteTicks <= seen : quoteTicks >= seen;
  return withinTolerance(side, quoteTicks, seen);
}

/** An executed intraday order is squared off at its session's close (squareoff.ts); a delivery one never. */
export function squareAt(instrument: Instrument, ticket: Ticket, at: number): number | null {
  return ticket.product === 'intraday' ? sessionEnd(instrument, at) : null;
}

/** The ticket with its kind decided: a market or limit order, inferred from the price when not named. */
function decided(side: 'buy' | 'sell', ticket: Ticket, quoteTicks: number, seen: number): Ticket {
  return { ...ticket, kind: isMarketOrder(side, ticket, quoteTicks, seen) ? 'market' : 'limit' };
}

export async function placeBuy(deps: Deps, db: Kysely<DB>, userId: number, input: TradeInput) {
  const { instrument, now, rate, quoteTicks } = await placing(deps, db, input);
  const seen = priceToTicks(input.price);
  const ticket = decided('buy', input.ticket ?? DELIVERY_DAY, quoteTicks, seen);
  if (!inSession(instrument, now)) {
    const at = { instrument, now, rate, quoteTicks, limit: amoLimit('buy', ticket, quoteTicks, seen) };
    return placeAmo(deps, db, userId, 'buy', { ...input, ticket }, at);
  }
  const fills = fillsNow('buy', ticket, quoteTicks, seen);
  const exec = fills ? quoteTicks : seen;
  const value = tradeValueMinor(exec, input.count, rate);
  if (value <= 0) throw invalid();
  // An IOC that cannot fill is cancelled at once (deals.ts): it never rests, so no band or cap applies.
  if (!fills && ticket.validity !== 'ioc') await assertMayRest(deps, db, userId, seen, quoteTicks);
  // A fill pays value and charges; a resting buy reserves both at its limit (the most they can be).
  const charges = chargesFor(deps.config.charges, instrument, 'buy', value, ticket.product);
  const order = await insertOrder(db, {
    ...stockOrder(userId, instrument, 'buy', input.count, now, rate, ticket),
    status: fills ? STOCK_STATUS.success : STOCK_STATUS.pending,
    limit_price: seen,
    price: exec,
    sell_price: null,
    ...chargeColumns(charges),
    price_all: value,
    profit: null,
    expires_at: fills ? null : sessionEnd(instrument, now),
    square_at: fills ? squareAt(instrument, ticket, now) : null,
  });
  const ref = { userId, orderId: order.id, at: now, kind: instrument.kind };
  if (fills) {
    await addToPosition(db, userId, instrument.symbol, input.count, value, exec * input.count, now);
    await payBuy(db, ref, value, charges.total);
  } else await reserveBuy(db, ref, value + charges.total);
  return order;
}

/**
 * An after-market order's limit: a market order's is the price the user saw moved
 * PRICE_TOLERANCE_BPS against them (`protectedLimit`, the protection every market order has); a
 * limit order's is its own — even one the closed market's last price would fill.
 */
function amoLimit(side: 'buy' | 'sell', ticket: Ticket, quoteTicks: number, seen: number): number {
  return isMarketOrder(side, ticket, quoteTicks, seen) ? protectedLimit(side, seen) : seen;
}

/**
 * An after-market order (DESIGN "Closed markets"): any market or limit order placed
 * while its market is closed. It never fills at the closed market's last price: it rests pending
 * until `send_at`, the next session's open, reserving what a pending order reserves — a buy its
 * value and charges, a sell its units — at its limit (`amoLimit`). The match job sends it at the
 * open and fills it at the open's price when that is within the limit (matching.ts); else it rests
 * there for the session like any limit. It expires at that session's close.
 */
async function placeAmo(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  side: 'buy' | 'sell',
  input: TradeInput & { ticket: Ticket },
  at: { instrument: Instrument; now: number; rate: number; quoteTicks: number; limit: number },
) {
  const { instrument, now, rate, quoteTicks, limit } = at;
  const value = tradeValueMinor(limit, input.count, rate);
  if (value <= 0) throw invalid();
  const reserved =
    side === 'sell' ? await reserveShares(db, userId, instrument.symbol, input.count, now) : null;
  if (reserved && input.ticket.product === 'intraday')
    await assertIntradaySell(db, userId, instrument.symbol, input.count);
  if (input.ticket.validity !== 'ioc') await assertMayRest(deps, db, userId, limit, quoteTicks);
  const charges =
    side === 'buy' ? chargesFor(deps.config.charges, instrument, 'buy', value, input.ticket.product) : null;
  const order = await insertOrder(db, {
    ...stockOrder(userId, instrument, side, input.count, now, rate, input.ticket),
    status: STOCK_STATUS.pending,
    limit_price: limit,
    price: reserved ? avgTicks(reserved.cost_native, reserved.qty) : limit,
    sell_price: null,
    ...(charges ? chargeColumns(charges) : { fee: 0 }),
    price_all: value,
    profit: null,
    expires_at: sessionEnd(instrument, now),
    send_at: nextSession(instrument.schedule, now).open,
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

export async function placeSell(deps: Deps, db: Kysely<DB>, userId: number, input: TradeInput) {
  const { instrument, now, rate, quoteTicks } = await placing(deps, db, input);
  const seen = priceToTicks(input.price);
  const ticket = decided('sell', input.ticket ?? DELIVERY_DAY, quoteTicks, seen);
  if (!inSession(instrument, now)) {
    const at = { instrument, now, rate, quoteTicks, limit: amoLimit('sell', ticket, quoteTicks, seen) };
    return placeAmo(deps, db, userId, 'sell', { ...input, ticket }, at);
  }
  const base = {
    ...stockOrder(userId, instrument, 'sell', input.count, now, rate, ticket),
    limit_price: seen,
    fee: 0,
  };
  if (fillsNow('sell', ticket, quoteTicks, seen)) {
    const taken = await takeFromPosition(
      db,
      deps.database.dialect,
      userId,
      instrument.symbol,
      input.count,
      false,
      now,
    );
    if (ticket.product === 'intraday') await assertIntradaySell(db, userId, instrument.symbol, input.count);
    const proceeds = tradeValueMinor(quoteTicks, input.count, rate);
    const charges = chargesFor(deps.config.charges, instrument, 'sell', proceeds, ticket.product);
    const order = await insertOrder(db, {
      ...base,
      ...chargeColumns(charges),
      status: STOCK_STATUS.success,
      price: avgTicks(taken.native, input.count),
      sell_price: quoteTicks,
      price_all: proceeds,
      profit: proceeds - taken.cost,
      expires_at: null,
      square_at: squareAt(instrument, ticket, now),
    });
    await creditSale(
      db,
      { userId, orderId: order.id, at: now, kind: instrument.kind },
      proceeds,
      charges.total,
    );
    return order;
  }
  const reserved = await reserveShares(db, userId, instrument.symbol, input.count, now);
  if (ticket.product === 'intraday') await assertIntradaySell(db, userId, instrument.symbol, input.count);
  // After the reservation, so a seller without the shares hears that; a refusal rolls it back. An
  // IOC does not rest (deals.ts cancels it at once).
  if (ticket.validity !== 'ioc') await assertMayRest(deps, db, userId, seen, quoteTicks);
  return insertOrder(db, {
    ...base,
    status: STOCK_STATUS.pending,
    price: avgTicks(reserved.cost_native, reserved.qty),
    sell_price: null,
    price_all: tradeValueMinor(seen, input.count, rate),
    profit: null,
    expires_at: sessionEnd(instrument, now),
  });
}
