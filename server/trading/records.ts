import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import type { ContractNote, OrderRow } from '#shared/contract/trading';
import { fromMinor, ticksToPrice } from '#shared/money';
import { BLOCK_STATUS, IPO_STATUS, STOCK_STATUS } from '#shared/status';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { invalid, notFound } from '../lib/errors';
import { chargesOfRow, toBreakdown } from './charges';
import { type OrderKind, type OrderRecord, toOrderRow } from './order-rows';

/** What the records screens show of the caller's orders: lists by mold and status, newest first, and one contract note. */

/** The block/QIP records' "all" tab (contract dealList: 0 all, 1 success, anything else failed). */
const ALL_DEALS = 0;
/** The longest list the unpaged records (block/QIP deals, IPO orders) answer. */
const RECORDS_MAX = 500;

type OrdersQuery = SelectQueryBuilder<DB, 'orders', OrderRecord>;

/** Block/QIP orders (dealList): every one, the successful ones (1), or the failed ones (any other status). */
export function dealList(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.dealList>,
): Promise<{ rows: OrderRow[] }> {
  const status = input.status ?? ALL_DEALS;
  return newestOrders(deps, db, userId, input.mold, (q) =>
    q
      // SPEC §4: 1 success, anything else failed.
      .$if(status === BLOCK_STATUS.success, (q) => q.where('status', '=', BLOCK_STATUS.success))
      .$if(status !== ALL_DEALS && status !== BLOCK_STATUS.success, (q) =>
        q.where('status', '<>', BLOCK_STATUS.success),
      ),
  );
}

/** Orders of one mold (stock by default), of one status and instrument if asked, a page at a time. */
export async function orderList(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.orderList>,
): Promise<{ rows: OrderRow[]; count: number }> {
  const page = input.page ?? 1;
  const limit = input.limit ?? 10;
  const base = db
    .selectFrom('orders')
    .where('user_id', '=', userId)
    .where('kind', '=', input.mold ?? 'stock')
    .$if(input.status !== undefined, (q) => q.where('status', '=', input.status!))
    .$if(input.tag !== undefined, (q) => q.where('symbol', '=', input.tag!));
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map((r) => toOrderRow(r, deps.clock.now())), count: Number(count.n) };
}

/** IPO orders: the applications (type 0) or the sales of allotted shares (type 1). */
export function ipoOrders(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.ipoOrders>,
): Promise<{ rows: OrderRow[] }> {
  const sales = input.type === 1;
  return newestOrders(deps, db, userId, 'ipo', (q) => q.where('side', '=', sales ? 'sell' : 'buy'));
}

/** The caller's orders of one kind that `narrow` keeps, newest first, at most RECORDS_MAX. */
async function newestOrders(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  kind: OrderKind,
  narrow: (q: OrdersQuery) => OrdersQuery,
): Promise<{ rows: OrderRow[] }> {
  const rows = await narrow(
    db.selectFrom('orders').selectAll().where('user_id', '=', userId).where('kind', '=', kind),
  )
    .orderBy('id', 'desc')
    .limit(RECORDS_MAX)
    .execute();
  return { rows: rows.map((r) => toOrderRow(r, deps.clock.now())) };
}

/**
 * Whether an order row is a trade that executed on an exchange: a filled stock order, a block/QIP
 * buy, a lot's sale. An IPO application is an allotment, not a trade: it has no contract note.
 */
function executed(o: OrderRecord): boolean {
  if (o.kind === 'stock') return o.status === STOCK_STATUS.success;
  if (o.side === 'sell') return o.status === (o.kind === 'ipo' ? IPO_STATUS.sold : BLOCK_STATUS.success);
  return o.kind !== 'ipo' && o.status === BLOCK_STATUS.success;
}

/**
 * The contract note of the caller's executed trade `no` (a stock order, a block/QIP buy, a lot's
 * sale): the figures its fill recorded. A block/QIP buy keeps value + charges in `price_all`
 * (order-rows.ts `amounts`); one bought before its charges were itemised (a flat fee,
 * no charge columns) has no note to give (`errors.noContractNote`) rather than a made-up breakdown.
 */
export async function contractNote(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  no: string,
): Promise<ContractNote> {
  const order = await db
    .selectFrom('orders')
    .selectAll()
    .where('no', '=', no)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!order) throw notFound();
  if (!executed(order)) throw invalid('errors.notExecuted');
  const charges = chargesOfRow(order);
  const lotBuy = order.kind !== 'stock' && order.side === 'buy';
  if (lotBuy && charges.total !== Number(order.fee)) throw invalid('errors.noContractNote');
  const value = lotBuy ? order.price_all - charges.total : order.price_all;
  const fill = order.side === 'sell' ? (order.sell_price ?? order.price) : order.price;
  const instrument = deps.market.instrument(order.symbol);
  return {
    order: toOrderRow(order, deps.clock.now()),
    price: ticksToPrice(fill),
    value: fromMinor(value),
    charges: toBreakdown(charges),
    net: fromMinor(order.side === 'sell' ? value - charges.total : value + charges.total),
    exchange: instrument?.exchange ?? order.market,
    currency: instrument?.currency ?? 'INR',
    rate: order.rate,
    executed_at: order.updated_at,
  };
}
