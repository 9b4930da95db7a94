import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { OrderRow } from '../../src/shared/contract/trading';
import type { LedgerReason } from '../../src/shared/contract/wallet';
import { fromMinor, ticksToPrice } from '../../src/shared/money';
import { PRICE_TOLERANCE_BPS, STOCK_QTY_MAX, STOCK_QTY_MIN, STOCK_STATUS } from '../../src/shared/rules';
import type { Dialect } from '../db/index';
import type { DB, OrdersTable } from '../db/schema';
import type { Deps } from '../deps';
import { ApiError, invalid, notFound } from '../lib/errors';
import type { Instrument, Quote } from '../market/provider';

/** Shared pieces of the order engine: statuses, numbers, row mapping, instrument checks. */

export type OrderRecord = Selectable<OrdersTable>;
export type Mold = OrderRow['mold'];

/** Stock orders (DESIGN.md): pending rests as a limit; cancelled by the user; expired at the close. */
export const STOCK = STOCK_STATUS;
/** IPO applications (SPEC §4): pending until the operator allots or refunds. Sales rows are 1. */
export const IPO = { pending: 1, allotted: 2, refunded: 3, sold: 1 } as const;
/** Block/QIP orders: filled at once, so every recorded order is a success (1); 2 is failed. */
export const BLOCK = { success: 1, failed: 2 } as const;

const PREFIX: Record<Mold, string> = { stock: 'S', ipo: 'I', bulk: 'B', finalize: 'Q' };

/** An order number users can read out: mold letter, time, random part (unique column backs it). */
export function orderNo(mold: Mold, at: number): string {
  return `${PREFIX[mold]}${at.toString(36).toUpperCase()}${randomBytes(4).toString('hex').toUpperCase()}`;
}

export function toOrderRow(r: OrderRecord): OrderRow {
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
    price_all: fromMinor(r.price_all),
    profit: r.profit === null ? null : fromMinor(r.profit),
    created_at: r.created_at,
    updated_at: r.updated_at,
    expires_at: r.expires_at,
    limit_price: r.limit_price === null ? null : ticksToPrice(r.limit_price),
    sellable: held,
  };
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
