import * as Type from '@sinclair/typebox';
import { endpoint } from './define';
import type { MarketSession } from './market';
import { NoQuery, Quantity, RowId, SeenPrice, Strict, Ticker } from './schemas';
import type { OrderRow } from './trading';

/** IPO subscriptions and block trading / QIP items (SPEC §2, §3, §7); funds are in funds.ts. */

/** SPEC §3 IPO. Only `Forthcoming` offerings can be applied for. */
export interface Ipo {
  id: number;
  series: string;
  symbol: string;
  company_name: string;
  status: 'Forthcoming' | 'Closed' | 'Listed';
  issue_price: number;
  min: number;
  max: number;
  issue_start_date: number;
  issue_end_date: number;
  listing_date: number;
  /** Region of the price (IN → ₹, US → $). */
  region: string;
  /** The bidding window by its dates: open (today is inside it), upcoming, or closed. */
  window: 'open' | 'upcoming' | 'closed';
  /** Price band: `band_low` to the issue price; null when the issue has one fixed price. */
  band_low: number | null;
  /** Shares per lot (applications are whole lots). */
  lot: number;
  allotment_date: number | null;
}

/** SPEC §3 Block-trading item, with the live market price beside the block price. */
export interface BlockItem {
  id: number;
  tag: string;
  name: string;
  /** Block price. */
  price: number;
  /** Current market price. */
  market_price: number;
  /** Minimum quantity (default 100). */
  count: number;
  status: number;
  /** Market region, US or IN. */
  type: string;
  mold: 'bulk' | 'finalize';
  decimals: number;
  /** Quantity still on offer; below `count` the item is sold out. */
  remaining: number;
  /** Its market's session by the server's clock: a lot is bought only in it (null: not listed). */
  session: MarketSession | null;
}

/**
 * The USD rate in the account currency the server converts at now (server/trading/fx.ts): the
 * live USD quote while fresh, else the operator's configured rate while fresh; when neither is,
 * `fresh` is false, the rate is the best known (for a stale label only) and USD money is refused
 * with errors.rateNotUpdated (SPEC §8).
 */
export interface FxRate {
  /** Account currency, e.g. INR. */
  unit: string;
  /** Account-currency units per US dollar, at most 4 decimals; null when none is known. */
  rate: number | null;
  source: 'live' | 'configured' | null;
  /** The quote's time, or when the operator set the configured rate (epoch ms); null unknown. */
  as_of: number | null;
  fresh: boolean;
  /** The market pair of the live rate (e.g. USDINR=X) when the market lists one. */
  symbol: string | null;
}

export const investContract = {
  ipoList: endpoint<{ rows: Ipo[] }>()({
    method: 'GET',
    path: '/client/ipo',
    auth: false,
    req: NoQuery,
  }),
  /** Applies for `count` shares (min..max, steps of 100): the amount is frozen until allotment or refund. */
  ipoBuy: endpoint<OrderRow>()({
    method: 'POST',
    path: '/stock/success/ipo/buy',
    auth: true,
    money: true,
    req: Strict({ id: RowId, tag: Ticker, count: Quantity, price: SeenPrice }),
  }),
  /** IPO orders: type 0 application records (1 pending, 2 success, 3 failed), 1 sales records. */
  ipoOrders: endpoint<{ rows: OrderRow[] }>()({
    method: 'GET',
    path: '/stock/success/ipo/list',
    auth: true,
    req: Type.Object({ type: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])) }),
  }),
  /** Block-trading (mold bulk) or QIP (mold finalize) items, optionally searched by code. */
  blockList: endpoint<{ rows: BlockItem[] }>()({
    method: 'POST',
    path: '/stock/success/stock/list',
    auth: true,
    req: Strict({
      mold: Type.Union([Type.Literal('bulk'), Type.Literal('finalize')]),
      code: Type.Optional(Type.String({ maxLength: 32 })),
    }),
  }),
  /** The USD rate every conversion uses now (previews show it; the server never takes one from the app). */
  fxRate: endpoint<FxRate>()({
    method: 'GET',
    path: '/v2/fx/usd',
    auth: false,
    req: NoQuery,
  }),
};
