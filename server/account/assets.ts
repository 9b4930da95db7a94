import type { UserInfo } from '#shared/contract/account';
import { fromMinor, priceToTicks, tradeValueMinor } from '#shared/money';
import { hotReads, type OpenBuyRow, type PositionRow, type UserRow } from '../db/hot';
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

/** User info (polled every 3 s): the account's row and its total assets, from one hot read. */
export async function userInfo(deps: Deps, userId: number): Promise<UserInfo> {
  const rows = await hotReads(deps.database).userInfo(userId);
  // The session was valid a moment ago; a user deleted since is a caller error, not an answer.
  if (!rows) throw new Error(`user ${userId} of a valid session is missing`);
  const assets = totalAssets(deps, rows);
  return {
    id: rows.user.id,
    user: rows.user.phone,
    no: rows.user.no,
    img: rows.user.img,
    total: fromMinor(assets.total),
    money: fromMinor(rows.user.balance),
    loan: fromMinor(assets.loan),
    has_fund_password: rows.user.has_fund_password,
  };
}
