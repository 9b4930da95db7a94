import type { HoldingLot, HoldingType } from '#shared/contract/trading';
import { divRoundHalfUp, priceToTicks, tradeValueMinor } from '#shared/money';
import { BLOCK_STATUS, IPO_STATUS } from '#shared/status';
import type { OpenBuyRow, PositionRow, UserRow } from '../db/hot';
import type { Deps } from '../deps';
import { type FxRate, usdRateFrom, valuationTicks } from '../trading/fx';

/**
 * Everything a user owns, valued at the server's quotes now: open positions and the lots kept on
 * their order rows (block/QIP purchases, allotted IPO shares), from one snapshot (db/hot.ts
 * `userInfo`). Pure: the hero (book.ts), Holdings and the summary (valuation.ts) and the daily
 * snapshots all value through here, so they agree to the paisa. A holding without a quote (or a
 * USD one without any rate) is valued at cost, never at an invented price.
 */

/** One holding valued: amounts in account-currency minor units. */
export interface Held {
  symbol: string;
  name: string;
  market: string;
  region: 'IN' | 'US';
  decimals: number;
  type: HoldingType;
  qty: number;
  /** Units free to sell now: a position's not held by pending sells; a lot's once its lock-in is over. */
  available: number;
  /** Average cost per unit in the instrument's currency, ticks (HALF_UP). */
  avgTicks: number;
  /** Cost basis, gross of charges (README "Charges"). */
  invested: number;
  value: number;
  /** Last price, ticks; null without a quote. */
  lastTicks: number | null;
  /** The previous session's close, ticks; null without a quote. */
  prevCloseTicks: number | null;
  /** The valuation's rate (account-currency ticks per unit of the instrument's currency). */
  rateTicks: number | null;
  asOf: number;
  updatedAt: number;
  /** A lot sold whole by its order number; null for a position. */
  lot: (HoldingLot & { boughtAt: number }) | null;
}

export interface HeldRows {
  user: Pick<UserRow, 'fx'>;
  positions: PositionRow[];
  orders: OpenBuyRow[];
}

/** Whether an open buy is a held lot (a successful block/QIP buy, allotted IPO shares) rather than money reserved. */
export function isLot(o: Pick<OpenBuyRow, 'kind' | 'status'>): boolean {
  if (o.kind === 'ipo') return o.status === IPO_STATUS.allotted;
  return (o.kind === 'bulk' || o.kind === 'finalize') && o.status === BLOCK_STATUS.success;
}

/** Every position and lot of `rows`, valued now. */
export function heldOf(deps: Deps, rows: HeldRows, given?: FxRate): Held[] {
  // Nothing held (most accounts polling user info): no rate to decide, no quote to read.
  if (rows.positions.length === 0 && !rows.orders.some(isLot)) return [];
  const usd = given ?? usdRateFrom(deps, rows.user.fx);
  const now = deps.clock.now();
  const value = (symbol: string, qty: number, cost: number, region: 'IN' | 'US') => {
    const ins = deps.market.instrument(symbol);
    const quote = deps.market.quote(symbol);
    const rate = valuationTicks(usd, ins?.currency ?? (region === 'US' ? 'USD' : 'INR'));
    const base = {
      name: ins?.name ?? symbol,
      market: ins?.market ?? '',
      region: ins?.region ?? region,
      decimals: ins?.decimals ?? 2,
      type: (ins?.kind ?? 'stock') as HoldingType,
      rateTicks: rate,
    };
    if (!ins || !quote || !(quote.price > 0) || rate === null) {
      return { ...base, value: cost, lastTicks: null, prevCloseTicks: null, asOf: 0 };
    }
    const last = priceToTicks(quote.price);
    // A USD figure converted at a rate that is no longer fresh is as old as that rate.
    const asOf = ins.currency === 'USD' && !usd.fresh ? Math.min(quote.asOf, usd.asOf ?? 0) : quote.asOf;
    return {
      ...base,
      value: tradeValueMinor(last, qty, rate),
      lastTicks: last,
      prevCloseTicks: priceToTicks(quote.prevClose),
      asOf,
    };
  };

  const positions = rows.positions
    .filter((p) => p.qty > 0)
    .map((p): Held => {
      const ins = deps.market.instrument(p.symbol);
      return {
        symbol: p.symbol,
        ...value(p.symbol, p.qty, p.cost, ins?.region ?? 'IN'),
        qty: p.qty,
        available: p.qty - p.reserved_qty,
        avgTicks: Number(divRoundHalfUp(BigInt(p.cost_native), BigInt(p.qty))),
        invested: p.cost,
        updatedAt: p.updated_at,
        lot: null,
      };
    });
  const lots = rows.orders.filter(isLot).map((o): Held => {
    // What the lot cost, gross of charges: its price × units at the rate it was bought at.
    const invested = tradeValueMinor(o.price, o.qty, o.rate);
    const region = o.region === 'US' ? 'US' : 'IN';
    const valued = value(o.symbol, o.qty, invested, region);
    const locked = o.unlock_at !== null && o.unlock_at > now;
    return {
      symbol: o.symbol,
      ...valued,
      name: deps.market.instrument(o.symbol)?.name ?? o.name,
      market: valued.market || o.market,
      qty: o.qty,
      available: locked ? 0 : o.qty,
      avgTicks: o.price,
      invested,
      updatedAt: o.created_at,
      lot: {
        no: o.no,
        mold: o.kind as HoldingLot['mold'],
        unlock_at: locked ? o.unlock_at : null,
        boughtAt: o.created_at,
      },
    };
  });
  return [...positions, ...lots];
}
