import type { Kysely } from 'kysely';
import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import type { PortfolioSummary, PortfolioTotals } from '#shared/contract/portfolio';
import type { HoldingRow, HoldingType } from '#shared/contract/trading';
import { divRoundHalfUp, fromMinor, PRICE_SCALE, priceToTicks, tradeValueMinor } from '#shared/money';
import { HOLDING_TYPES } from '#shared/rules';
import { totalAssets } from '../account/assets';
import { hotReads } from '../db/hot';
import type { DB } from '../db/schema';
import type { Deps } from '../deps';
import { lastSession } from '../market/hours';
import { usdRate, valuationTicks } from '../trading/fx';
import { STOCK } from '../trading/orders';

/**
 * What a user's open positions are worth and what they made, in exact minor units. The market's
 * quote is the only price; a position without one is valued at cost (never at an invented price)
 * and makes nothing today.
 */

/** One position valued: every amount in account-currency minor units. */
export interface Valued {
  symbol: string;
  name: string;
  market: string;
  region: 'IN' | 'US';
  decimals: number;
  type: HoldingType;
  qty: number;
  available: number;
  /** Average cost per unit in the instrument's currency, ticks (HALF_UP). */
  avgTicks: number;
  invested: number;
  value: number;
  /** Last price, ticks; null without a quote. */
  lastTicks: number | null;
  todayPnl: number;
  /** What today's P&L is measured against: overnight units at the previous close, today's at cost. */
  todayBase: number;
  asOf: number;
  updatedAt: number;
}

/** Today's buys go back at most this far: the previous close of any market is within it. */
const LOOKBACK_MS = 5 * 86_400_000;

/** `part / whole` as a percent with two decimals (whole basis points, HALF_UP); 0 when whole is 0. */
export function percentOf(part: number, whole: number): number {
  if (whole === 0) return 0;
  return Number(divRoundHalfUp(BigInt(part) * 10_000n, BigInt(Math.abs(whole)))) / 100;
}

/** Every open position of a user, valued at the server's quotes now. */
async function valuePositions(deps: Deps, db: Kysely<DB>, userId: number): Promise<Valued[]> {
  const now = deps.clock.now();
  const positions = await db
    .selectFrom('positions')
    .select(['symbol', 'qty', 'reserved_qty', 'cost', 'cost_native', 'updated_at'])
    .where('user_id', '=', userId)
    .where('qty', '>', 0)
    .execute();
  if (positions.length === 0) return [];
  // USD positions at trading/fx.ts's rate (a stale one too: the figures carry their as-of).
  const usd = await usdRate(deps, db);
  const buys = await db
    .selectFrom('orders')
    .select(['symbol', 'count', 'price_all', 'updated_at'])
    .where('user_id', '=', userId)
    .where('mold', '=', 'stock')
    .where('state', '=', 'buy')
    .where('status', '=', STOCK.success)
    .where('updated_at', '>=', now - LOOKBACK_MS)
    .execute();

  return positions.map((p) => {
    const ins = deps.market.instrument(p.symbol);
    const quote = deps.market.quote(p.symbol);
    const rate = valuationTicks(usd, ins?.currency ?? 'INR');
    const base = {
      symbol: p.symbol,
      name: ins?.name ?? p.symbol,
      market: ins?.market ?? '',
      region: ins?.region ?? 'IN',
      decimals: ins?.decimals ?? 2,
      type: (ins?.kind ?? 'stock') as HoldingType,
      qty: p.qty,
      available: p.qty - p.reserved_qty,
      avgTicks: Number(divRoundHalfUp(BigInt(p.cost_native), BigInt(p.qty))),
      invested: p.cost,
      updatedAt: p.updated_at,
    };
    if (!ins || !quote || rate === null) {
      return { ...base, value: p.cost, lastTicks: null, todayPnl: 0, todayBase: p.cost, asOf: 0 };
    }
    const last = priceToTicks(quote.price);
    const value = tradeValueMinor(last, p.qty, rate);
    // Units bought after the previous session's close move from what they cost, the rest from that close.
    const current = lastSession(ins.schedule, now);
    const prevClose = lastSession(ins.schedule, current.open - 1).close;
    let bought = 0;
    let boughtCost = 0;
    for (const b of buys) {
      if (b.symbol === p.symbol && b.updated_at >= prevClose) {
        bought += b.count;
        boughtCost += b.price_all;
      }
    }
    const newQty = Math.min(p.qty, bought);
    const newCost =
      newQty === bought
        ? boughtCost
        : Number(divRoundHalfUp(BigInt(boughtCost) * BigInt(newQty), BigInt(bought)));
    const todayBase = tradeValueMinor(priceToTicks(quote.prevClose), p.qty - newQty, rate) + newCost;
    // A USD figure converted at a rate that is no longer fresh is as old as that rate.
    const asOf = ins.currency === 'USD' && !usd.fresh ? Math.min(quote.asOf, usd.asOf ?? 0) : quote.asOf;
    return { ...base, value, lastTicks: last, todayPnl: value - todayBase, todayBase, asOf };
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

/** A valued position as the holdings table's row. */
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
  };
}

/**
 * The holdings table (contract `holdings`): the positions of one type, most recently changed first,
 * a page at a time. Kind lives in the market, not the table, so the type filter runs here (a user
 * holds few symbols).
 */
export async function holdingsPage(
  deps: Deps,
  db: Kysely<DB>,
  userId: number,
  input: ReqOf<typeof contract.holdings>,
): Promise<{ rows: HoldingRow[]; count: number }> {
  const page = input.page ?? 1;
  const limit = input.limit ?? 10;
  const ofType = (await valuePositions(deps, db, userId))
    .filter((p) => p.type === input.type)
    .sort((a, b) => b.updatedAt - a.updatedAt || (a.symbol < b.symbol ? -1 : 1));
  return { rows: ofType.slice((page - 1) * limit, page * limit).map(toHoldingRow), count: ofType.length };
}

/**
 * The summary of Home, Account and the Trade tab: holdings per type and overall, and the account
 * total — the same total as user info (`totalAssets`), split into cash, holdings, other and funds.
 */
export async function portfolioSummary(deps: Deps, userId: number): Promise<PortfolioSummary> {
  const { db } = deps.database;
  const [valued, rows] = await Promise.all([
    valuePositions(deps, db, userId),
    hotReads(deps.database).userInfo(userId),
  ]);
  if (!rows) throw new Error(`user ${userId} is missing`);
  // totalAssets without its positions (valued here, at the same quotes as the rows): cash, open
  // IPO applications, pending buys, IPO/block lots and fund principal.
  const rest = totalAssets(deps, { ...rows, positions: [] }).total;
  const total = rest + valued.reduce((sum, r) => sum + r.value, 0);
  const todayPnl = valued.reduce((sum, r) => sum + r.todayPnl, 0);
  const byType = Object.fromEntries(
    HOLDING_TYPES.map((type) => [type, totalsOf(valued.filter((r) => r.type === type))]),
  ) as Record<HoldingType, PortfolioTotals>;
  return {
    overall: totalsOf(valued),
    by_type: byType,
    cash: fromMinor(rows.user.balance),
    // Whatever else the total counts: open IPO applications, pending buys, IPO/block lots.
    other: fromMinor(rest - rows.user.balance - rows.user.funds),
    funds: fromMinor(rows.user.funds),
    total: fromMinor(total),
    today: fromMinor(todayPnl),
    today_percent: percentOf(todayPnl, total - todayPnl),
    as_of: deps.clock.now(),
  };
}
