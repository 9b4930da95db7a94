import type { Kysely } from 'kysely';
import { PRICE_TOLERANCE_BPS, STOCK_QTY_MAX, STOCK_QTY_MIN } from '#shared/rules';
import { STOCK_STATUS } from '#shared/status';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, invalid, notFound } from '../lib/errors';
import { lockUser } from '../lib/ledger';
import type { Instrument, Quote } from '../market/provider';

/**
 * What the server checks before an order is placed: the instrument is tradable and quoted, the
 * quantity in range, the quote within tolerance of what the user saw, and a resting order inside
 * the limit band and the cap of open orders; and the currency of an instrument's catalogue row.
 */

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
    .where('kind', '=', 'stock')
    .where('status', '=', STOCK_STATUS.pending)
    .executeTakeFirstOrThrow();
  if (Number(open.n) >= maxOpen) throw new ApiError('errors.tooManyOpenOrders', 409, { max: maxOpen });
}
