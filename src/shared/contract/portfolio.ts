import * as Type from '@sinclair/typebox';
import type { Money } from '../money';
import { endpoint } from './define';
import type { HoldingType } from './trading';

/**
 * The user's portfolio: what they hold and what it is worth, what it was worth day by
 * day, and what they realised. The server computes every figure in exact money
 * (src/shared/money.ts); percentages are whole basis points sent as percent (two decimals, HALF_UP).
 */

/** Invested, current value, total and today's P&L of a set of positions. */
export interface PortfolioTotals {
  /** Cost basis of the open quantity. */
  invested: Money;
  /** Value at the server's quotes (at cost where the market has no quote). */
  value: Money;
  /** value − invested. */
  pnl: Money;
  /** pnl ÷ invested, percent (0 when nothing is invested). */
  pnl_percent: number;
  /**
   * Today's P&L: units held from before today's session move from the previous close, units
   * bought since then from what they cost.
   */
  today_pnl: Money;
  /** today_pnl ÷ (what those units were worth at the previous close or cost today), percent. */
  today_percent: number;
  /** Open positions counted. */
  positions: number;
  /** Epoch ms of the oldest quote the figures rest on (0: no quote, or nothing held). */
  as_of: number;
}

/**
 * The account's hero (DESIGN rule 8), every line the server's from one snapshot:
 * total = available + reserved.total + holdings + funds − loans, to the paisa.
 */
export interface AccountHero {
  /** Cash a buy or a withdrawal can use now. */
  available: Money;
  /** Money held for something not done yet, each on its own line; `total` is their sum. */
  reserved: {
    /** Pending stock buys: value and charges at their limit. */
    orders: Money;
    /** IPO applications awaiting allotment: blocked, not spent. */
    ipo: Money;
    /** Withdrawals in progress: left the balance, not yet paid out. */
    withdrawals: Money;
    total: Money;
  };
  /** Everything owned at the server's quotes: positions and lots (the same figure as `overall.value`). */
  holdings: Money;
  /** Fund positions. */
  funds: Money;
  /** Loans due: principal and what accrued on it. */
  loans: Money;
  total: Money;
}

export interface PortfolioSummary {
  /** Every holding: positions and block/QIP/IPO lots. */
  overall: PortfolioTotals;
  by_type: Record<HoldingType, PortfolioTotals>;
  hero: AccountHero;
  /** Today's change of the total: the holdings' today P&L (cash does not move with prices). */
  today: Money;
  /** today ÷ what the account held before today's move (total + loans − today), percent. */
  today_percent: number;
  /** When the server computed this. */
  as_of: number;
}

export type HistoryRange = '1W' | '1M' | '1Y' | 'ALL';

export interface PortfolioPoint {
  /** The valuation day (epoch ms of its midnight, IST) or, for the last point, now. */
  t: number;
  total: Money;
}

export interface PortfolioHistory {
  points: PortfolioPoint[];
  /** total now minus the first point's (0.00 with fewer than two points). */
  change: Money;
  change_percent: number;
  as_of: number;
}

/** One instrument's realised P&L in a financial year. */
export interface StatementRow {
  symbol: string;
  name: string;
  /** Units sold in the year. */
  sold: number;
  /** What the sold units cost. */
  cost: Money;
  /** What they were sold for. */
  proceeds: Money;
  /** proceeds − cost. */
  realised: Money;
  /** Charges posted in the year for this instrument's orders (ledger `transactionExpenses`). */
  charges: Money;
  /** realised − charges. */
  net: Money;
}

export interface Statement {
  /** Start year of the financial year (April `fy` to March `fy + 1`, India time). */
  fy: number;
  /** Financial years with any sale or charge, newest first (always includes the current one). */
  years: number[];
  /** Epoch ms bounds of the year: from ≤ t < to. */
  from: number;
  to: number;
  rows: StatementRow[];
  totals: Omit<StatementRow, 'symbol' | 'name'>;
  as_of: number;
}

export const portfolioContract = {
  portfolioSummary: endpoint<PortfolioSummary>()({
    method: 'GET',
    path: '/stock/success/v2/portfolio/summary',
    auth: true,
    req: Type.Object({}),
  }),
  portfolioHistory: endpoint<PortfolioHistory>()({
    method: 'GET',
    path: '/stock/success/v2/portfolio/history',
    auth: true,
    req: Type.Object({
      range: Type.Union([Type.Literal('1W'), Type.Literal('1M'), Type.Literal('1Y'), Type.Literal('ALL')]),
    }),
  }),
  portfolioStatement: endpoint<Statement>()({
    method: 'GET',
    path: '/stock/success/v2/portfolio/statement',
    auth: true,
    req: Type.Object({
      /** Start year of the financial year; the current one when left out. */
      fy: Type.Optional(Type.Integer({ minimum: 2000, maximum: 2100 })),
    }),
  }),
};
