import { type Kysely, sql } from 'kysely';
import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import type { OrderQuote, OrderRow } from '#shared/contract/trading';
import { fromMinor, priceToTicks, ticksToPrice, tradeValueMinor } from '#shared/money';
import { protectedLimit, QUANTITY_MAX } from '#shared/rules';
import { STOCK_STATUS } from '#shared/status';
import { type OrderFields, orderShapeError } from '#shared/ticket';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { invalid, notFound } from '../lib/errors';
import { affordableQuantity, chargesFor, toBreakdown } from './charges';
import { placeBuy, placeSell, type Ticket } from './engine';
import { rateTicks } from './fx';
import { buyBlock, sellLot } from './holdings';
import { inSession, sessionAt } from './hours';
import { closePending } from './matching';
import { type OrderRecord, toOrderRow } from './order-rows';
import { tradable } from './placement';
import { type OcoInput, placeOco, placeStop, type StopInput } from './stops';

/**
 * A buy, sell or cancel as the app sends it, handed to the engine entry it names (engine.ts:
 * market/limit; stops.ts: stop or GTT, OCO; holdings.ts: block/QIP buys and lot sales), and the review
 * sheet's figures of an order before it is sent. Each answers the order row as it now stands.
 */

/** The stock fields of a buy or sell (contract dealBuy/dealSell). */
type StockFields = OrderFields & { tag: string; count: number };

/**
 * A stock buy or sell as the app sends it, checked by the ticket's rules (#shared/ticket: which
 * fields go together) and split into what the engine takes: the ticket (market or limit, product,
 * validity; delivery/day when absent, as SPEC's calls send it), and a stop's or an OCO's prices.
 */
export function ticketOf(side: 'buy' | 'sell', input: StockFields): Ticket {
  const refused = orderShapeError(side, input);
  if (refused) throw invalid(refused);
  return {
    kind: input.order_type === 'market' || input.order_type === 'limit' ? input.order_type : null,
    product: input.product ?? 'delivery',
    validity: input.validity ?? 'day',
  };
}

/** A stop or GTT order: its trigger and limit (the shape was checked by `ticketOf`). */
function stop(input: StockFields, side: 'buy' | 'sell'): StopInput | null {
  const type = input.order_type;
  if (type !== 'sl' && type !== 'slm' && type !== 'gtt') return null;
  return {
    tag: input.tag,
    count: input.count,
    side,
    order_type: type,
    trigger: input.trigger as number,
    price: input.price,
    valid_days: input.valid_days,
  };
}

/** An OCO GTT sell: a target and a stop, each with its limit (the shape was checked by `ticketOf`). */
function oco(input: StockFields): OcoInput | null {
  if (input.order_type !== 'oco') return null;
  return {
    tag: input.tag,
    count: input.count,
    target: input.trigger as number,
    target_price: input.price,
    stop: input.stop_trigger as number,
    stop_price: input.stop_price as number,
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
  const ticket = ticketOf('buy', input);
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
  const ticket = ticketOf('sell', input);
  const ocoInput = oco(input);
  if (ocoInput) return toOrderRow(await placeOco(deps, db, userId, ocoInput), deps.clock.now());
  const stopInput = stop(input, 'sell');
  if (stopInput) return toOrderRow(await placeStop(deps, db, userId, stopInput, ticket), deps.clock.now());
  return toOrderRow(
    await immediateOrCancel(deps, db, ticket, await placeSell(deps, db, userId, { ...input, ticket })),
    deps.clock.now(),
  );
}

/**
 * IOC: an order that did not fill at once — a limit the quote has not reached, a market
 * order whose quote moved beyond the tolerance, any order on a closed market (it cannot wait for
 * the open) — is cancelled in the same transaction, releasing exactly what it reserved, with the
 * reason on the row; it is never left pending. The answer is that cancelled row: the app shows it
 * as cancelled, never as filled.
 */
async function immediateOrCancel(deps: Deps, db: Kysely<DB>, ticket: Ticket, order: OrderRecord) {
  if (ticket.validity !== 'ioc' || order.status !== STOCK_STATUS.pending) return order;
  const reason = order.send_at !== null ? 'errors.iocMarketClosed' : 'errors.iocUnfilled';
  const cancelled = await closePending(deps, db, order, STOCK_STATUS.cancelled, reason);
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
  if (order.kind !== 'stock' || order.status !== STOCK_STATUS.pending) throw invalid('errors.notPending');
  const cancelled = await closePending(deps, db, order, STOCK_STATUS.cancelled);
  if (!cancelled) throw invalid('errors.notPending');
  return toOrderRow(cancelled, deps.clock.now());
}

/**
 * The review sheet's figures (orderQuote), from the same functions the fill uses (never computed in
 * the app): value and charges at `price` or the server's quote, the balance and what pending buys
 * already hold, the units free to sell and the largest quantity the balance affords. A market buy
 * on a closed market (an AMO) holds more: value and charges at its protected limit, as `placeAmo`
 * reserves; the difference is its `protection`, named on the ticket. Moves nothing.
 */
export async function quoteOrder(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.orderQuote>,
): Promise<OrderQuote> {
  const { instrument, quote } = tradable(deps, input.tag);
  const rate = await rateTicks(deps, db, instrument.currency);
  const now = deps.clock.now();
  const price = input.price ?? quote.price;
  const ticks = priceToTicks(price);
  const product = input.product ?? 'delivery';
  const buying = input.side === 'buy';
  const amo = input.order_type === 'market' && !inSession(instrument, now);
  // What a buy holds: at the protected limit for an AMO market buy, else at the price.
  const limit = amo ? protectedLimit(input.side, ticks) : null;
  const costAt = (at: number, qty: number) => {
    const value = tradeValueMinor(at, qty, rate);
    return value + chargesFor(deps.config.charges, instrument, 'buy', value, product).total;
  };
  const value = tradeValueMinor(ticks, input.count, rate);
  const charges = chargesFor(deps.config.charges, instrument, input.side, value, product);
  const net = buying ? value + charges.total : value - charges.total;
  const protection = buying && limit !== null ? costAt(limit, input.count) - net : 0;
  const [account, position, held] = await Promise.all([
    db.selectFrom('users').select('balance').where('id', '=', userId).executeTakeFirstOrThrow(),
    db
      .selectFrom('positions')
      .select(['qty', 'reserved_qty'])
      .where('user_id', '=', userId)
      .where('symbol', '=', instrument.symbol)
      .executeTakeFirst(),
    db
      .selectFrom('orders')
      .select(({ fn }) => [fn.sum<number>(sql`price_all + fee`).as('held')])
      .where('user_id', '=', userId)
      .where('kind', '=', 'stock')
      .where('side', '=', 'buy')
      .where('status', '=', STOCK_STATUS.pending)
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
    net: fromMinor(net),
    protection: fromMinor(protection),
    limit: limit === null ? null : ticksToPrice(limit),
    required: fromMinor(buying ? net + protection : 0),
    available: fromMinor(balance),
    blocked: fromMinor(Number(held?.held ?? 0)),
    held: position ? Number(position.qty) - Number(position.reserved_qty) : 0,
    affordable: affordableQuantity(balance, QUANTITY_MAX, (qty) => costAt(limit ?? ticks, qty)),
    as_of: quote.asOf,
    session: sessionAt(instrument, now),
  };
}
