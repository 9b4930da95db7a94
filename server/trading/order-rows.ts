import { randomBytes } from 'node:crypto';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { OrderProduct, OrderRow } from '#shared/contract/trading';
import { fromMinor, ticksToPrice } from '#shared/money';
import { BLOCK_STATUS, IPO_STATUS } from '#shared/status';
import type { Dialect } from '../db/index';
import type { DB, OrdersTable } from '../db/schema';
import { insertReturningAll } from '../db/statement';

/**
 * An order row: its number, its insert and lock, and what the app sees of it (`toOrderRow`). Every
 * order of every kind (stock, ipo, bulk, finalize) is a row of `orders`. The row is in our words
 * (kind, side, qty); `toOrderRow` gives SPEC's (mold, state, count).
 */

export type OrderRecord = Selectable<OrdersTable>;
/** An order's kind: SPEC's `mold`. */
export type OrderKind = OrderRow['mold'];

/** An order row's product as the contract names it (the column is text; only `intraday` is not delivery). */
export const productOf = (r: Pick<OrderRecord, 'product'>): OrderProduct =>
  r.product === 'intraday' ? 'intraday' : 'delivery';

const ORDER_TYPES: ReadonlySet<string> = new Set(['market', 'limit', 'sl', 'slm', 'gtt', 'oco']);

const PREFIX: Record<OrderKind, string> = { stock: 'S', ipo: 'I', bulk: 'B', finalize: 'Q' };

/** An order number users can read out: kind letter, time, random part (unique column backs it). */
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

export function orderNo(kind: OrderKind, at: number): string {
  return `${PREFIX[kind]}${at.toString(36).toUpperCase()}${randomHex4()}`;
}

/** An order row as the app sees it at `now` (the server's clock): a lot in its lock-in is not sellable yet. */
export function toOrderRow(r: OrderRecord, now: number): OrderRow {
  const held =
    r.side === 'buy' &&
    r.closed_at === null &&
    ((r.kind === 'ipo' && r.status === IPO_STATUS.allotted) ||
      ((r.kind === 'bulk' || r.kind === 'finalize') && r.status === BLOCK_STATUS.success));
  return {
    id: r.id,
    no: r.no,
    tag: r.symbol,
    name: r.name,
    market: r.market,
    type: r.region,
    mold: r.kind as OrderKind,
    state: r.side,
    status: r.status,
    count: r.qty,
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
    order_type: ORDER_TYPES.has(r.order_type ?? '') ? (r.order_type as OrderRow['order_type']) : null,
    trigger_price: r.trigger_price === null ? null : ticksToPrice(r.trigger_price),
    triggered_at: r.triggered_at,
    trigger_rises: r.trigger_rises === null ? null : r.trigger_rises === 1,
    target_limit: r.target_limit === null ? null : ticksToPrice(r.target_limit),
    stop_trigger: r.stop_trigger === null ? null : ticksToPrice(r.stop_trigger),
    stop_limit: r.stop_limit === null ? null : ticksToPrice(r.stop_limit),
    fired_leg: r.fired_leg === 'target' || r.fired_leg === 'stop' ? r.fired_leg : null,
    product: productOf(r),
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
  const sign = r.side === 'buy' ? 1 : -1;
  if (r.kind === 'stock' || r.side === 'sell')
    return { price_all: fromMinor(r.price_all + sign * r.fee), value: fromMinor(r.price_all) };
  return { price_all: fromMinor(r.price_all), value: fromMinor(r.price_all - sign * r.fee) };
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
