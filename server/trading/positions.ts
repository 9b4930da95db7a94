import { type Kysely, sql } from 'kysely';
import { divRoundHalfUp } from '#shared/money';
import { STOCK_STATUS } from '#shared/status';
import type { Dialect } from '../db/index';
import type { DB } from '../db/schema';
import { statement } from '../db/statement';
import { invalid } from '../lib/errors';

/**
 * What an order does to a position (`positions`): units added with their cost by a buy's fill,
 * taken out with their share of the cost by a sell's, and held back (`reserved_qty`) for a
 * resting sell. Always inside the caller's transaction.
 */

const ADD_TO_POSITION = statement(
  `insert into positions (user_id, symbol, qty, reserved_qty, cost, cost_native, updated_at)
   values (?, ?, ?, 0, ?, ?, ?)
   on conflict (user_id, symbol) do update set qty = positions.qty + excluded.qty,
     cost = positions.cost + excluded.cost, cost_native = positions.cost_native + excluded.cost_native,
     updated_at = excluded.updated_at`,
);

export async function addToPosition(
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
export async function takeFromPosition(
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
export const avgTicks = (native: number, count: number) =>
  Number(divRoundHalfUp(BigInt(native), BigInt(count)));

/** Holds back `count` free units of a position for a resting sell (refused when not held). */
export async function reserveShares(
  db: Kysely<DB>,
  userId: number,
  symbol: string,
  count: number,
  at: number,
) {
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
 * The units of a user's intraday position in `symbol` still open: what its executed
 * intraday buys added (those not yet squared off, `square_at` set) less what its intraday sells
 * took or hold (executed and not squared off, or pending). An intraday sell may only close these:
 * there is no short selling, and selling delivery units as intraday would pay intraday's lower STT
 * on them (README "Charges").
 */
export async function openIntradayUnits(db: Kysely<DB>, userId: number, symbol: string): Promise<number> {
  const rows = await db
    .selectFrom('orders')
    .select(['side', 'status', 'qty', 'square_at'])
    .where('user_id', '=', userId)
    .where('symbol', '=', symbol)
    .where('kind', '=', 'stock')
    .where('product', '=', 'intraday')
    .where((w) =>
      w.or([
        w('square_at', 'is not', null),
        w.and([w('side', '=', 'sell'), w('status', '=', STOCK_STATUS.pending)]),
      ]),
    )
    .execute();
  return rows.reduce((n, r) => n + (r.side === 'buy' ? Number(r.qty) : -Number(r.qty)), 0);
}

/**
 * Refuses an intraday sell of more units than the open intraday position (`openIntradayUnits`),
 * `beside` units of an order being modified that it already counts. Called after the position's
 * row is locked, so two sells cannot both pass on the same units.
 */
export async function assertIntradaySell(
  db: Kysely<DB>,
  userId: number,
  symbol: string,
  count: number,
  beside = 0,
): Promise<void> {
  if (count > (await openIntradayUnits(db, userId, symbol)) + beside)
    throw invalid('errors.noIntradayPosition');
}
