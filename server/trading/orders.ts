import { randomBytes } from 'node:crypto';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { OrderRow } from '#shared/contract/trading';
import { fromMinor, ticksToPrice } from '#shared/money';
import { PRICE_TOLERANCE_BPS, STOCK_QTY_MAX, STOCK_QTY_MIN } from '#shared/rules';
import type { LedgerReason } from '#shared/status';
import { BLOCK_STATUS, IPO_STATUS, STOCK_STATUS } from '#shared/status';
import type { Dialect } from '../db/index';
import type { DB, OrdersTable } from '../db/schema';
import { insertReturningAll } from '../db/statement';
import type { Deps } from '../deps';
import { ApiError, invalid, notFound } from '../lib/errors';
import { lockUser } from '../lib/ledger';
import type { Instrument, Quote } from '../market/provider';

/** Shared pieces of the order engine: statuses, numbers, row mapping, instrument checks. */

export type OrderRecord = Selectable<OrdersTable>;
export type Mold = OrderRow['mold'];

/** Stock orders (DESIGN.md): pending rests as a limit; cancelled by the user; expired at the close. */
export const STOCK = STOCK_STATUS;
/** IPO applications (SPEC §4): pending until the operator allots or refunds. Sales rows are 1. */
export const IPO = IPO_STATUS;
/** Block/QIP orders: filled at once, so every recorded order is a success (1); 2 is failed. */
export const BLOCK = BLOCK_STATUS;

const PREFIX: Record<Mold, string> = { stock: 'S', ipo: 'I', bulk: 'B', finalize: 'Q' };

/** An order number users can read out: mold letter, time, random part (unique column backs it). */
/**
 * Random bytes for order numbers, drawn 4 KiB at a time: one `randomBytes` call per order was a
 * system call each, about 3 % of a buy's CPU in bench:profile. Same CSPRNG, same bytes per order.
 */
let pool = Buffer.alloc(0);
let offset = 0;
function randomHex4(): string {
  if (offset + 4 > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  offset += 4;
  return pool.toString('hex', offset - 4, offset).toUpperCase();
}

export function orderNo(mold: Mold, at: number): string {
  return `${PREFIX[mold]}${at.toString(36).toUpperCase()}${randomHex4()}`;
}

/** An order row as the app sees it at `now` (the server's clock): a lot in its lock-in is not sellable yet. */
export function toOrderRow(r: OrderRecord, now: number): OrderRow {
  const held =
    r.state === 'buy' &&
    r.closed_at === null &&
    ((r.mold === 'ipo' && r.status === IPO.allotted) ||
      ((r.mold === 'bulk' || r.mold === 'finalize') && r.status === BLOCK.success));
  return {
    id: r.id,
    no: r.no,
    tag: r.symbol,
    name: r.name,
    market: r.market,
    type: r.region,
    mold: r.mold as Mold,
    state: r.state,
    status: r.status,
    count: r.count,
    price: ticksToPrice(r.price),
    sell_price: r.sell_price === null ? null : ticksToPrice(r.sell_price),
    fee: fromMinor(r.fee),
    ...amounts(r),
    profit: r.profit === null ? null : fromMinor(r.profit),
    created_at: r.created_at,
    updated_at: r.updated_at,
    expires_at: r.expires_at,
    limit_price: r.limit_price === null ? null : ticksToPrice(r.limit_price),
    sellable: held && !(r.unlock_at !== null && r.unlock_at > now),
    unlock_at: held && r.unlock_at !== null && r.unlock_at > now ? r.unlock_at : null,
    reason: r.reason,
    order_type:
      r.order_type === 'sl' || r.order_type === 'slm' || r.order_type === 'gtt' || r.order_type === 'oco'
        ? r.order_type
        : null,
    trigger_price: r.trigger_price === null ? null : ticksToPrice(r.trigger_price),
    triggered_at: r.triggered_at,
    trigger_rises: r.trigger_rises === null ? null : r.trigger_rises === 1,
    target_limit: r.target_limit === null ? null : ticksToPrice(r.target_limit),
    stop_trigger: r.stop_trigger === null ? null : ticksToPrice(r.stop_trigger),
    stop_limit: r.stop_limit === null ? null : ticksToPrice(r.stop_limit),
    fired_leg: r.fired_leg === 'target' || r.fired_leg === 'stop' ? r.fired_leg : null,
    product: r.product === 'intraday' ? 'intraday' : 'delivery',
    validity: r.validity === 'ioc' ? 'ioc' : 'day',
    amo: r.send_at !== null,
    send_at: r.send_at,
  };
}

/**
 * An order's `price_all` (SPEC's total amount: what moves, charges included) and `value` (quantity ×
 * price). A stock order's row and a lot sale's keep the value in `price_all` and the charges in `fee`
 * (the engine, the audit and the reservations read them so); block/QIP and IPO buys keep value + fee.
 */
function amounts(r: OrderRecord): { price_all: string; value: string } {
  const sign = r.state === 'buy' ? 1 : -1;
  if (r.mold === 'stock' || r.state === 'sell')
    return { price_all: fromMinor(r.price_all + sign * r.fee), value: fromMinor(r.price_all) };
  return { price_all: fromMinor(r.price_all), value: fromMinor(r.price_all - sign * r.fee) };
}

/** The ledger reason of a trade in an instrument of this kind (SPEC §3 Bill row reasons). */
export function tradeReason(kind: Instrument['kind'] | undefined, side: 'buy' | 'sell'): LedgerReason {
  switch (kind) {
    case 'forex':
      return side === 'buy' ? 'buyForex' : 'sellForex';
    case 'futures':
      return side === 'buy' ? 'buyFutures' : 'sellFutures';
    case 'treasury':
      return side === 'buy' ? 'buyTreasury' : 'sellTreasury';
    default:
      return side === 'buy' ? 'buyStock' : 'sellStock';
  }
}

/**
 * Whether `quoteTicks` is within tolerance of what the user saw: for a buy, at most
 * PRICE_TOLERANCE_BPS above it; for a sell, at most that far below. Integer maths only.
 */
export function withinTolerance(side: 'buy' | 'sell', quoteTicks: number, seenTicks: number): boolean {
  const q = BigInt(quoteTicks) * 10_000n;
  if (side === 'buy') return q <= BigInt(seenTicks) * BigInt(10_000 + PRICE_TOLERANCE_BPS);
  return q >= BigInt(seenTicks) * BigInt(10_000 - PRICE_TOLERANCE_BPS);
}

/** SPEC §5: a stock order is 1..100 units (the half/full position limits are the app's stepper). */
export function checkStockQuantity(count: number): void {
  if (count < STOCK_QTY_MIN || count > STOCK_QTY_MAX.full) throw invalid('errors.quantityRange');
}

/** An instrument the server can trade now, with its quote: unknown → notFound, an index → not tradable. */
export function tradable(deps: Deps, symbol: string): { instrument: Instrument; quote: Quote } {
  const instrument = deps.market.instrument(symbol);
  if (!instrument) throw notFound();
  if (instrument.kind === 'index') throw invalid('errors.notTradable');
  const quote = deps.market.quote(symbol);
  if (!quote || !(quote.price > 0)) throw new ApiError('errors.noQuote', 409);
  return { instrument, quote };
}

/** The currency of a catalogue row whose symbol may not be in the market yet (IPOs, block items). */
export function currencyOf(deps: Deps, symbol: string, region: string): 'INR' | 'USD' {
  return deps.market.instrument(symbol)?.currency ?? (regionOf(region) === 'US' ? 'USD' : 'INR');
}

/** A market/series code to the currency-symbol region (IN → ₹, US → $). */
export function regionOf(market: string): 'IN' | 'US' {
  return ['US', 'NASDAQ', 'NYSE', 'AMEX'].includes(market.toUpperCase()) ? 'US' : 'IN';
}

/** Locks a position row for the rest of the transaction (PostgreSQL; SQLite has one writer). */
export async function lockPosition(db: Kysely<DB>, dialect: Dialect, userId: number, symbol: string) {
  return db
    .selectFrom('positions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('symbol', '=', symbol)
    .$if(dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst();
}

/**
 * An order about to rest as a pending limit: its limit within `limitBandBps` of the quote (a limit
 * far from the market reserves almost nothing and never fills), and fewer than `maxOpen` open.
 */
export async function assertMayRest(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  limitTicks: number,
  quoteTicks: number,
): Promise<void> {
  const { maxOpen, limitBandBps } = deps.config.orders;
  const off = BigInt(Math.abs(limitTicks - quoteTicks)) * 10_000n;
  if (off > BigInt(quoteTicks) * BigInt(limitBandBps)) {
    throw new ApiError('errors.limitOutsideBand', 400, { pct: limitBandBps / 100 });
  }
  await lockUser(db, deps.database.dialect, userId);
  const open = await db
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId)
    .where('mold', '=', 'stock')
    .where('status', '=', STOCK.pending)
    .executeTakeFirstOrThrow();
  if (Number(open.n) >= maxOpen) throw new ApiError('errors.tooManyOpenOrders', 409, { max: maxOpen });
}

/** Every order row goes in here (fixed SQL per shape of `values`: db/statement.ts). */
export function insertOrder(db: Kysely<DB>, values: Insertable<OrdersTable>): Promise<OrderRecord> {
  return insertReturningAll<OrderRecord>(db, 'orders', values);
}

/** Locks an order row for the rest of the transaction (PostgreSQL; SQLite has one writer). */
export async function lockOrder(db: Kysely<DB>, dialect: Dialect, id: number) {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', id)
    .$if(dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst();
}
