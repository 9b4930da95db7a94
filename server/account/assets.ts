import { priceToTicks, tradeValueMinor } from '#shared/money';
import type { OpenBuyRow, PositionRow, UserRow } from '../db/hot';
import type { Deps } from '../deps';
import { usdRateFrom, valuationTicks } from '../trading/fx';
import { IPO } from '../trading/orders';

/**
 * Total assets (SPEC "total"): available cash; open positions and held IPO/block lots valued at
 * the server's current quotes (at cost when the market has no quote: never at an invented price);
 * money frozen by IPO applications and reserved by pending buys; active fund principal. Loan
 * principal outstanding is reported beside it. USD amounts are converted at trading/fx.ts's rate
 * (stale or not: a valuation is labelled, never refused); with no rate known at all, at cost.
 * User info polls this every 3 s, so the rows come from `hotReads(...).userInfo` (one prepared
 * statement on indexed columns: one snapshot)
 * and the valuation here is pure.
 */
export function totalAssets(
  deps: Deps,
  rows: { user: UserRow; positions: PositionRow[]; orders: OpenBuyRow[] },
): { total: number; loan: number } {
  const { user, positions, orders } = rows;
  const usd = usdRateFrom(deps, user.fx);
  const atMarket = (symbol: string, qty: number, otherwise: number): number => {
    const instrument = deps.market.instrument(symbol);
    const quote = deps.market.quote(symbol);
    const rate = instrument && valuationTicks(usd, instrument.currency);
    if (!instrument || !quote || !rate) return otherwise;
    return tradeValueMinor(priceToTicks(quote.price), qty, rate);
  };

  let total = user.balance;
  for (const p of positions) total += atMarket(p.symbol, p.qty, p.cost);
  for (const o of orders) {
    const reserved = o.mold === 'stock' || (o.mold === 'ipo' && o.status === IPO.pending);
    total += reserved ? o.price_all : atMarket(o.symbol, o.count, tradeValueMinor(o.price, o.count, o.rate));
  }
  total += user.funds;
  return { total, loan: user.loan };
}
