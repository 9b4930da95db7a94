import type { Kysely } from 'kysely';
import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import type { PortfolioSummary, PortfolioTotals } from '#shared/contract/portfolio';
import type { HoldingRow, HoldingType } from '#shared/contract/trading';
import { divRoundHalfUp, fromMinor, PRICE_SCALE, tradeValueMinor } from '#shared/money';
import { HOLDING_TYPES } from '#shared/rules';
import { STOCK_STATUS } from '#shared/status';
import { hotReads } from '../db/hot';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { lastSession } from '../market/hours';
import { bookOf, heroAnswer } from './book';
import { type Held, heldOf } from './held';

/**
 * What a user holds (positions and lots, portfolio/held.ts) and what it made, in exact minor units.
 * The market's quote is the only price; a holding without one is valued at cost (never at an
 * invented price) and makes nothing today.
 */

/** One holding valued, with today's P&L. */
export interface Valued extends Held {
  todayPnl: number;
  /** What today's P&L is measured against: overnight units at the previous close, today's at cost. */
  todayBase: number;
}

/** Today's buys go back at most this far: the previous close of any market is within it. */
const LOOKBACK_MS = 5 * 86_400_000;

/** `part / whole` as a percent with two decimals (whole basis points, HALF_UP); 0 when whole is 0. */
export function percentOf(part: number, whole: number): number {
  if (whole === 0) return 0;
  return Number(divRoundHalfUp(BigInt(part) * 10_000n, BigInt(Math.abs(whole)))) / 100;
}

/** Everything the user holds, from one snapshot, and the hero's lines from the same one. */
async function snapshotOf(deps: Deps, userId: number) {
  const rows = await hotReads(deps.database).userInfo(userId);
  if (!rows) throw new Error(`user ${userId} is missing`);
  const held = heldOf(deps, rows);
  return { rows, held, book: bookOf(rows.user, rows.orders, held) };
}

/** Today's P&L of each holding: units bought since the previous close move from their cost, the rest from that close. */
async function withToday(deps: Deps, db: Kysely<DB>, userId: number, held: Held[]): Promise<Valued[]> {
  if (held.length === 0) return [];
  const now = deps.clock.now();
  const buys = held.some((h) => h.lot === null)
    ? await db
        .selectFrom('orders')
        .select(['symbol', 'qty', 'price_all', 'updated_at'])
        .where('user_id', '=', userId)
        .where('kind', '=', 'stock')
        .where('side', '=', 'buy')
        .where('status', '=', STOCK_STATUS.success)
        .where('updated_at', '>=', now - LOOKBACK_MS)
        .execute()
    : [];
  return held.map((h) => {
    const ins = deps.market.instrument(h.symbol);
    if (!ins || h.lastTicks === null || h.prevCloseTicks === null || h.rateTicks === null) {
      return { ...h, todayPnl: 0, todayBase: h.value };
    }
    const current = lastSession(ins.schedule, now);
    const prevClose = lastSession(ins.schedule, current.open - 1).close;
    let bought = 0;
    let boughtCost = 0;
    if (h.lot) {
      // A lot is one purchase: today's if it was bought after the previous close.
      if (h.lot.boughtAt >= prevClose) {
        bought = h.qty;
        boughtCost = h.invested;
      }
    } else {
      for (const b of buys) {
        if (b.symbol === h.symbol && b.updated_at >= prevClose) {
          bought += b.qty;
          boughtCost += b.price_all;
        }
      }
    }
    const newQty = Math.min(h.qty, bought);
    const newCost =
      newQty === bought
        ? boughtCost
        : Number(divRoundHalfUp(BigInt(boughtCost) * BigInt(newQty), BigInt(bought)));
    const todayBase = tradeValueMinor(h.prevCloseTicks, h.qty - newQty, h.rateTicks) + newCost;
    return { ...h, todayPnl: h.value - todayBase, todayBase };
  });
}

/** Totals of a set of valued positions. */
function totalsOf(rows: Valued[]): PortfolioTotals {
  let invested = 0;
  let value = 0;
  let todayPnl = 0;
  let todayBase = 0;
  let asOf = 0;
  for (const r of rows) {
    invested += r.invested;
    value += r.value;
    todayPnl += r.todayPnl;
    todayBase += r.todayBase;
    // The figures are as old as their oldest quote; a position without one makes the whole 0 (unknown).
    asOf = r === rows[0] ? r.asOf : Math.min(asOf, r.asOf);
  }
  return {
    invested: fromMinor(invested),
    value: fromMinor(value),
    pnl: fromMinor(value - invested),
    pnl_percent: percentOf(value - invested, invested),
    today_pnl: fromMinor(todayPnl),
    today_percent: percentOf(todayPnl, todayBase),
    positions: rows.length,
    as_of: asOf,
  };
}

/** A valued holding as the holdings table's row. */
function toHoldingRow(r: Valued): HoldingRow {
  return {
    stock: r.symbol,
    name: r.name,
    market: r.market,
    region: r.region,
    decimals: r.decimals,
    count: r.qty,
    available: r.available,
    avg_price: r.avgTicks / PRICE_SCALE,
    cost: fromMinor(r.invested),
    prasent: r.lastTicks === null ? 0 : r.lastTicks / PRICE_SCALE,
    value: fromMinor(r.value),
    profit: fromMinor(r.value - r.invested),
    profit_percent: percentOf(r.value - r.invested, r.invested),
    today_pnl: fromMinor(r.todayPnl),
    today_percent: percentOf(r.todayPnl, r.todayBase),
    as_of: r.asOf,
    lot: r.lot && { no: r.lot.no, mold: r.lot.mold, unlock_at: r.lot.unlock_at },
  };
}

/**
 * The holdings table (contract `holdings`): the positions and lots of one type, most recently
 * changed first, a page at a time. Kind lives in the market, not the table, so the type filter
 * runs here (a user holds few symbols).
 */
export async function holdingsPage(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.holdings>,
): Promise<{ rows: HoldingRow[]; count: number }> {
  const page = input.page ?? 1;
  const limit = input.limit ?? 10;
  const { held } = await snapshotOf(deps, userId);
  const ofType = held
    .filter((p) => p.type === input.type)
    .sort(
      (a, b) =>
        b.updatedAt - a.updatedAt ||
        (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0) ||
        ((a.lot?.no ?? '') < (b.lot?.no ?? '') ? -1 : 1),
    );
  const shown = await withToday(deps, db, userId, ofType.slice((page - 1) * limit, page * limit));
  return { rows: shown.map(toHoldingRow), count: ofType.length };
}

/**
 * The summary of Home, Account and the Trade tab: holdings per type and overall, and the hero's
 * lines (book.ts) from the same snapshot — its total is user info's.
 */
export async function portfolioSummary(deps: Deps, userId: number): Promise<PortfolioSummary> {
  const { db } = deps.database;
  const { held, book } = await snapshotOf(deps, userId);
  const valued = await withToday(deps, db, userId, held);
  const todayPnl = valued.reduce((sum, r) => sum + r.todayPnl, 0);
  const byType = Object.fromEntries(
    HOLDING_TYPES.map((type) => [type, totalsOf(valued.filter((r) => r.type === type))]),
  ) as Record<HoldingType, PortfolioTotals>;
  return {
    overall: totalsOf(valued),
    by_type: byType,
    hero: heroAnswer(book),
    today: fromMinor(todayPnl),
    today_percent: percentOf(todayPnl, book.total + book.loans - todayPnl),
    as_of: deps.clock.now(),
  };
}
