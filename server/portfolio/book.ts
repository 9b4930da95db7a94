import type { AccountHero } from '#shared/contract/portfolio';
import { fromMinor } from '#shared/money';
import { IPO_STATUS, STOCK_STATUS } from '#shared/status';
import type { OpenBuyRow, UserRow } from '../db/hot';
import type { Held } from './held';

/**
 * The account's hero (DESIGN rule 8): Total = available cash + reserved (pending buys, IPO
 * applications, withdrawals in progress) + holdings at market + funds − loans due, every line from
 * one snapshot and the total their sum, so the identity a user can check on screen holds by
 * construction. A pending order moves money from available to reserved and changes no total.
 */

/** The hero's lines, minor units. */
export interface Book {
  available: number;
  reservedOrders: number;
  reservedIpo: number;
  reservedWithdrawals: number;
  holdings: number;
  funds: number;
  loans: number;
  total: number;
}

/** What a pending buy holds: a stock order its value (`price_all`) and charges, an IPO application its amount. */
function reservedBy(o: OpenBuyRow): { orders: number; ipo: number } {
  if (o.kind === 'stock' && o.status === STOCK_STATUS.pending) return { orders: o.price_all + o.fee, ipo: 0 };
  if (o.kind === 'ipo' && o.status === IPO_STATUS.pending) return { orders: 0, ipo: o.price_all };
  return { orders: 0, ipo: 0 };
}

export function bookOf(
  user: Pick<UserRow, 'balance' | 'funds' | 'loan' | 'withdrawing'>,
  orders: OpenBuyRow[],
  held: Held[],
): Book {
  let reservedOrders = 0;
  let reservedIpo = 0;
  for (const o of orders) {
    const r = reservedBy(o);
    reservedOrders += r.orders;
    reservedIpo += r.ipo;
  }
  const holdings = held.reduce((sum, h) => sum + h.value, 0);
  // The fund line (hot read `funds`): units at each fund's latest published NAV plus purchases
  // awaiting theirs; server/funds/positions.ts `fundHoldings` gives the same figure by fund.
  const funds = user.funds;
  const total = user.balance + reservedOrders + reservedIpo + user.withdrawing + holdings + funds - user.loan;
  return {
    available: user.balance,
    reservedOrders,
    reservedIpo,
    reservedWithdrawals: user.withdrawing,
    holdings,
    funds,
    loans: user.loan,
    total,
  };
}

/** The hero as the app receives it. */
export function heroAnswer(b: Book): AccountHero {
  return {
    available: fromMinor(b.available),
    reserved: {
      orders: fromMinor(b.reservedOrders),
      ipo: fromMinor(b.reservedIpo),
      withdrawals: fromMinor(b.reservedWithdrawals),
      total: fromMinor(b.reservedOrders + b.reservedIpo + b.reservedWithdrawals),
    },
    holdings: fromMinor(b.holdings),
    funds: fromMinor(b.funds),
    loans: fromMinor(b.loans),
    total: fromMinor(b.total),
  };
}
