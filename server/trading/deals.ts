import type { Kysely } from 'kysely';
import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import type { OrderProduct, OrderQuote, OrderRow, OrderValidity } from '#shared/contract/trading';
import { fromMinor, priceToTicks, tradeValueMinor } from '#shared/money';
import { QUANTITY_MAX } from '#shared/rules';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { invalid, notFound } from '../lib/errors';
import { affordableQuantity, chargesFor, toBreakdown } from './charges';
import { placeBuy, placeSell, type Ticket } from './engine';
import { rateTicks } from './fx';
import { buyBlock, sellLot } from './holdings';
import { sessionAt } from './hours';
import { closePending } from './matching';
import { type OrderRecord, STOCK, toOrderRow, tradable } from './orders';
import { type OcoInput, placeOco, placeStop, type StopInput } from './stops';

/**
 * A buy, sell or cancel as the app sends it, handed to the engine entry it names (engine.ts:
 * market/limit; stops.ts: stop or GTT, OCO; holdings.ts: block/QIP buys and lot sales), and the review
 * sheet's figures of an order before it is sent. Each answers the order row as it now stands.
 */

/** The stop fields a stock buy or sell may carry. */
interface StopFields {
  tag: string;
  count: number;
  price: number;
  order_type?: 'market' | 'limit' | 'sl' | 'slm' | 'gtt' | 'oco';
  trigger?: number;
  valid_days?: number;
  stop_trigger?: number;
  stop_price?: number;
  product?: OrderProduct;
  validity?: OrderValidity;
}

/**
 * The ticket's product and validity (issue 30), delivery/day when absent. IOC is for market and
 * limit orders; a GTT or OCO lives for days, so it cannot be intraday.
 */
export function ticketOf(input: StopFields): Ticket {
  const ticket: Ticket = {
    kind: input.order_type === 'market' || input.order_type === 'limit' ? input.order_type : null,
    product: input.product ?? 'delivery',
    validity: input.validity ?? 'day',
  };
  if (ticket.product === 'intraday' && (input.order_type === 'gtt' || input.order_type === 'oco')) {
    throw invalid();
  }
  return ticket;
}

/** A stock buy/sell that names an order type is a stop or a GTT: it needs its trigger. */
function stop(input: StopFields, side: 'buy' | 'sell'): StopInput | null {
  // Only an OCO has a stop leg.
  if (input.order_type !== 'oco' && (input.stop_trigger !== undefined || input.stop_price !== undefined)) {
    throw invalid('errors.ocoOnly');
  }
  if (input.order_type === undefined || input.order_type === 'market' || input.order_type === 'limit') {
    // Only a GTT has a validity in days.
    if (input.valid_days !== undefined) throw invalid('errors.gttValidity');
    return null;
  }
  if (input.order_type === 'oco') return null;
  if (input.trigger === undefined) throw invalid('errors.triggerMissing');
  // A stop or GTT waits for its trigger: it cannot be immediate-or-cancel.
  if (input.validity === 'ioc') throw invalid();
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
function oco(input: StopFields, side: 'buy' | 'sell'): OcoInput | null {
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

/** Buy: a stock order (market/limit, or a stop or GTT) or a block/QIP lot (the route checked the transaction password). */
export async function dealBuy(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.dealBuy>,
): Promise<OrderRow> {
  if (input.mold !== 'stock') {
    // A block/QIP lot is bought whole, at once, to keep: the ticket's fields are a stock order's.
    if (input.product !== undefined || input.validity !== undefined || input.order_type !== undefined) {
      throw invalid();
    }
    return toOrderRow(await buyBlock(deps, db, userId, { ...input, mold: input.mold }), deps.clock.now());
  }
  oco(input, 'buy');
  const ticket = ticketOf(input);
  const stopInput = stop(input, 'buy');
  if (stopInput) return toOrderRow(await placeStop(deps, db, userId, stopInput, ticket), deps.clock.now());
  return toOrderRow(
    await immediateOrCancel(deps, db, ticket, await placeBuy(deps, db, userId, { ...input, ticket })),
    deps.clock.now(),
  );
}

/** Sell: a whole lot by order number, or units of a position (an OCO, a stop or GTT, or market/limit). */
export async function dealSell(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.dealSell>,
): Promise<OrderRow> {
  if ('no' in input) return toOrderRow(await sellLot(deps, db, userId, input), deps.clock.now());
  const ticket = ticketOf(input);
  const ocoInput = oco(input, 'sell');
  if (ocoInput) {
    if (ticket.validity === 'ioc') throw invalid();
    return toOrderRow(await placeOco(deps, db, userId, ocoInput), deps.clock.now());
  }
  const stopInput = stop(input, 'sell');
  if (stopInput) return toOrderRow(await placeStop(deps, db, userId, stopInput, ticket), deps.clock.now());
  return toOrderRow(
    await immediateOrCancel(deps, db, ticket, await placeSell(deps, db, userId, { ...input, ticket })),
    deps.clock.now(),
  );
}

/**
 * IOC (issue 30): an order that did not fill at once — a limit the quote has not reached, a market
 * order whose quote moved beyond the tolerance, a market order on a closed market — is cancelled in
 * the same transaction, releasing exactly what it reserved; it is never left pending.
 */
async function immediateOrCancel(deps: Deps, db: Kysely<DB>, ticket: Ticket, order: OrderRecord) {
  if (ticket.validity !== 'ioc' || order.status !== STOCK.pending) return order;
  const cancelled = await closePending(deps, db, order, STOCK.cancelled);
  if (!cancelled) throw new Error(`order ${order.no}: an IOC left pending`);
  return cancelled;
}

/** Cancels the caller's pending stock order `no`, releasing exactly what it reserved (matching.ts `closePending`). */
export async function cancelOrder(deps: Deps, db: Kysely<DB>, userId: number, no: string): Promise<OrderRow> {
  const order = await db
    .selectFrom('orders')
    .selectAll()
    .where('no', '=', no)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!order) throw notFound();
  if (order.mold !== 'stock' || order.status !== STOCK.pending) throw invalid('errors.notPending');
  const cancelled = await closePending(deps, db, order, STOCK.cancelled);
  if (!cancelled) throw invalid('errors.notPending');
  return toOrderRow(cancelled, deps.clock.now());
}

/**
 * The review sheet's figures (orderQuote), from the same functions the fill uses (never computed in
 * the app): value and charges at `price` or the server's quote, the balance, the units free to sell
 * and the largest quantity the balance affords. Moves nothing.
 */
export async function quoteOrder(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.orderQuote>,
): Promise<OrderQuote> {
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
    db.selectFrom('users').select('balance').where('id', '=', userId).executeTakeFirstOrThrow(),
    db
      .selectFrom('positions')
      .select(['qty', 'reserved_qty'])
      .where('user_id', '=', userId)
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
    session: sessionAt(instrument, deps.clock.now()),
  };
}
