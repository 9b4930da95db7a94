import * as Type from '@sinclair/typebox';
import { type FundCategory, NAV_RANGES, type NavRange } from '../funds';
import type { Money } from '../money';
import { endpoint } from './define';
import { NoQuery, RowId, Strict, WholeAmount } from './schemas';

/**
 * Mutual funds (SPEC §2; §3; §7): a NAV published each business day, units, and purchase
 * and redemption at the next NAV (server/funds/README.md). SPEC's three calls keep their shape;
 * the fields SPEC names keep their meaning where it can be kept honestly and say what they hold
 * where it cannot (no fund promises a return). NAVs are decimal strings of 4 places ("1734.0521"),
 * units of 3 ("12.345"), returns percents of 2 ("6.81"), dates the Indian calendar day
 * ("2026-11-25").
 */

/** SPEC §3 Fund, a mutual-fund scheme. */
export interface Fund {
  id: number;
  name: string;
  /**
   * SPEC's "return range": the worst and best return over any `investment_period` (365) days of
   * the NAV history — what a year in this fund has been, never a promise; null for a fund younger
   * than a year.
   */
  min_return: number | null;
  max_return: number | null;
  /** Days of the window `min_return`/`max_return` are measured over: 365. */
  investment_period: number;
  /** The minimum first purchase; SPEC's purchase amount (a purchase naming no amount buys this). */
  amount: Money;
  /** An open-ended scheme has no issue size and sells no share of one: both "0.00" (SPEC draws no bar). */
  issue_amount: Money;
  sold_amount: Money;
  /** 1 open for purchases; redemptions are open whatever it says. */
  status: number;
  /** The asset management company (AMC). */
  manager: string | null;
  /** The SEBI riskometer: 1 Low, 2 Low to moderate, 3 Moderate, 4 Moderately high, 5 High, 6 Very high. */
  risk: number | null;
  category: FundCategory;
  /** The latest published NAV and its day. */
  nav: string;
  nav_date: string;
  /** The NAV's change on the NAV before it, percent (2 places). */
  nav_change: string | null;
  /** Compound yearly growth of the NAV over 1 and 3 years and since launch; null when younger. */
  returns: { y1: string | null; y3: string | null; since_launch: string | null };
  /** Total expense ratio a year, percent ("0.20"), already taken out of the NAV. */
  expense_ratio: string;
  /** Charged on units redeemed fewer than `days` days after they were allotted; null: none. */
  exit_load: { percent: string; days: number } | null;
  launched_on: string;
  /** An order placed now: the NAV day it gets, its cut-off and when that NAV is published (epoch ms). */
  next_nav: { date: string; cutoff_at: number; published_by: number };
}

/** SPEC §3 Fund order: a purchase or a redemption (or a fixed-term order of before, `term`). */
export interface FundOrder {
  id: number;
  fund_id: number;
  side: 'buy' | 'redeem' | 'term';
  /**
   * A buy: the money paid. A redemption: what it paid into the balance, "0.00" until its NAV is
   * struck. A term order: the principal it paid back.
   */
  amount: Money;
  /** SPEC's expected return: nothing is promised (null), except what a term order was paid. */
  expected_return: number | null;
  /** active: waiting for its NAV; completed: allotted / paid (a term order: paid back); cancelled. */
  status: 'active' | 'completed' | 'cancelled';
  /** When its NAV is (or was) published and the order struck at it; a term order's maturity. */
  end_time: number;
  created_at: number;
  /** A term order's return. */
  profit: Money | null;
  /** A buy: units allotted (null until struck). A redemption: units redeemed. */
  units: string | null;
  /** The NAV it was struck at (null until then) and that NAV's day. */
  nav: string | null;
  nav_date: string;
  /** Units × NAV once struck: a buy's units' worth, a redemption's value before charges. */
  value: Money | null;
  stamp_duty: Money;
  exit_load: Money;
  stt: Money;
  /** A pending order can be cancelled until its cut-off (epoch ms); null: it cannot (any more). */
  cancel_until: number | null;
  project: { name: string; investment_period: number; min_return: number | null; max_return: number | null };
}

/** Units held in one fund, valued at its latest published NAV. */
export interface FundPosition {
  fund_id: number;
  name: string;
  category: FundCategory;
  units: string;
  /** Units free to redeem (held less those pending redemptions hold). */
  free_units: string;
  nav: string;
  nav_date: string;
  /** Units × NAV, HALF_UP. */
  value: Money;
  /** What the units held cost (average cost). */
  invested: Money;
  gain: Money;
  /** Purchases paid and waiting for their NAV. */
  pending: Money;
}

/** Every fund a user holds or is buying; `total` = `value` + `pending` (the hero's Funds line). */
export interface FundPositions {
  rows: FundPosition[];
  value: Money;
  invested: Money;
  gain: Money;
  pending: Money;
  total: Money;
}

/** A fund's NAV over a range, oldest first (daily up to a year, weekly beyond), and its change. */
export interface FundNav {
  id: number;
  range: NavRange;
  points: Array<{ date: string; nav: number }>;
  /** Percent from the first point to the last (2 places); null with fewer than two points. */
  change: string | null;
}

const Units = Type.String({ pattern: '^\\d{1,12}(\\.\\d{1,3})?$', maxLength: 16 });

export const fundsContract = {
  fundList: endpoint<{ rows: Fund[]; count: number }>()({
    method: 'GET',
    path: '/v2/fund/list',
    auth: false,
    req: NoQuery,
  }),
  /** A fund's NAV history for its chart. */
  fundNav: endpoint<FundNav>()({
    method: 'GET',
    path: '/v2/fund/nav',
    auth: false,
    req: Type.Object({
      id: RowId,
      range: Type.Optional(Type.Union(NAV_RANGES.map((r) => Type.Literal(r)))),
    }),
  }),
  /**
   * A purchase at the next NAV: the amount (whole rupees, at least the fund's minimum; SPEC's body
   * names none: the minimum) leaves the balance now and buys units when that NAV is published.
   */
  fundPurchase: endpoint<FundOrder>()({
    method: 'POST',
    path: '/stock/success/fund/purchase',
    auth: true,
    money: true,
    req: Strict({ project_id: RowId, amount: Type.Optional(WholeAmount) }),
  }),
  /** A redemption at the next NAV of `units`, or of every free unit (`all`): exactly one of them. */
  fundRedeem: endpoint<FundOrder>()({
    method: 'POST',
    path: '/v2/fund/redeem',
    auth: true,
    money: true,
    req: Strict({ project_id: RowId, units: Type.Optional(Units), all: Type.Optional(Type.Literal(true)) }),
  }),
  /** Cancels a pending order before its cut-off: a buy's money comes back, a redemption's units are free again. */
  fundCancel: endpoint<FundOrder>()({
    method: 'POST',
    path: '/v2/fund/cancel',
    auth: true,
    money: true,
    req: Strict({ id: RowId }),
  }),
  fundOrders: endpoint<{ rows: FundOrder[] }>()({
    method: 'GET',
    path: '/stock/success/fund/orders',
    auth: true,
    req: Type.Object({
      status: Type.Optional(
        Type.Union([Type.Literal('active'), Type.Literal('completed'), Type.Literal('cancelled')]),
      ),
    }),
  }),
  /** The caller's fund positions at the latest published NAVs, and purchases awaiting theirs. */
  fundPositions: endpoint<FundPositions>()({
    method: 'GET',
    path: '/v2/fund/positions',
    auth: true,
    req: NoQuery,
  }),
};
