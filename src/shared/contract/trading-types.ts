import type { Money } from '../money';
import type { MarketSession } from './market';

/**
 * What the trading calls answer (src/shared/contract/trading.ts): favourites, holdings and their
 * lots, order rows, today's positions, an order's charges, its quote before sending and its
 * contract note.
 */

/** SPEC §3 Watchlist item. */
export interface WatchlistItem {
  stock_name: string;
  stock_code: string;
  stock_detail: {
    market: string;
    prasent: number;
    close_prices: number;
    percent_change: number;
    change: number;
    market_name: string;
    exchange_name: string;
    decimals: number;
    as_of: number;
  };
}

export type HoldingType = 'stock' | 'forex' | 'futures' | 'treasury';

/** A lot kept whole on its order row (a block/QIP buy, allotted IPO shares): sold by its number. */
export interface HoldingLot {
  no: string;
  mold: 'bulk' | 'finalize' | 'ipo';
  /** While locked in: when it becomes sellable (epoch ms); null once it is. */
  unlock_at: number | null;
}

/** One open position or lot, valued by the server at its current quote. */
export interface HoldingRow {
  stock: string;
  name: string;
  market: string;
  region: string;
  decimals: number;
  /** Quantity held (including any reserved by pending sells). */
  count: number;
  /** Quantity free to sell. */
  available: number;
  /** Average cost per unit, in the instrument's currency. */
  avg_price: number;
  /** Cost basis of the position, account currency. */
  cost: Money;
  prasent: number;
  /** Market value at `prasent`, account currency. */
  value: Money;
  /** Unrealised profit/loss, account currency. */
  profit: Money;
  profit_percent: number;
  /** Today's P&L of the position (see PortfolioTotals.today_pnl), account currency. */
  today_pnl: Money;
  today_percent: number;
  as_of: number;
  /** A lot (sold whole through `dealSell` with its `no`); null for a position. */
  lot: HoldingLot | null;
}

/**
 * An order row (SPEC §3 IPO/stock order row and Block order). Money fields are account-currency
 * decimal strings; `price`/`sell_price` are per-unit prices in the instrument's currency: on a buy
 * `price` is the fill (or, while pending, the limit) price; on a sell `price` is what the units
 * cost (average cost for stock, issue/block price for lots) and `sell_price` the fill price.
 * Stock statuses: 0 pending, 1 success, 2 cancelled, 3 expired, 4 failed (DESIGN.md).
 * IPO applications: 1 pending, 2 allotted, 3 refunded; IPO sales and block/QIP orders: 1 success.
 */
export interface OrderRow {
  id: number;
  no: string;
  tag: string;
  name: string;
  market: string;
  /** Market region, IN or US. */
  type: string;
  mold: 'stock' | 'ipo' | 'bulk' | 'finalize';
  state: 'buy' | 'sell';
  status: number;
  count: number;
  price: number;
  sell_price: number | null;
  /**
   * Charges: a stock order's issue-13 charges (a pending buy: those it reserved at its limit); a
   * block/QIP buy's 0.03 % fee.
   */
  fee: Money;
  /**
   * The order's total amount (SPEC's "total amount"), what moves: a buy's value + charges (what was
   * debited; a pending buy: what it reserves at its limit), a sell's value − charges (what was
   * credited; a pending sell: its value at the limit, charges due at the fill); block/QIP: value +
   * fee; an IPO application: its amount.
   */
  price_all: Money;
  /** Quantity × price in account currency, before charges (`price_all` is this ± `fee`). */
  value: Money;
  /**
   * `delivery` keeps the shares; `intraday` positions are squared off at
   * the session's close (a market sell at the close price, with charges). Other molds: delivery.
   */
  product: OrderProduct;
  /** `day` rests until the session's close; `ioc` fills at once or is cancelled. */
  validity: OrderValidity;
  /**
   * An after-market order — a market order placed while its market was closed. It rests
   * pending (money or shares reserved as for a pending order) until `send_at`, the next session's
   * open (epoch ms), and fills at the open's price; it can be cancelled until then.
   */
  amo: boolean;
  /** An AMO's send time (the next session's open, epoch ms); null for every other order. */
  send_at: number | null;
  /** Realised profit/loss of a sell: (sell price − price) × count, account currency. */
  profit: Money | null;
  created_at: number;
  updated_at: number;
  expires_at: number | null;
  /** The price the user saw (stock orders): the limit while the order is pending; null otherwise. */
  limit_price: number | null;
  /** An IPO allotment or block/QIP purchase that is still held and can be sold by its `no` now. */
  sellable: boolean;
  /** A held block/QIP lot still in its lock-in: when it may be sold (epoch ms); otherwise null. */
  unlock_at: number | null;
  /**
   * Why the order ended as it did when the user did not ask for it: a refused block/QIP buy, an IOC
   * cancelled because it could not fill at once (`errors.iocUnfilled`) or because its market was
   * closed (`errors.iocMarketClosed`). An i18n key (`errors.…`); null otherwise.
   */
  reason: string | null;
  /**
   * What the ticket placed: market or limit (an after-market order keeps its own); stop orders sl
   * (trigger + limit) and slm (trigger, then the market); gtt, good till triggered (trigger + limit,
   * valid up to a year); oco. Null for lots and IPO applications, and for stock orders placed
   * before the type was recorded.
   */
  order_type: 'market' | 'limit' | 'sl' | 'slm' | 'gtt' | 'oco' | null;
  /** A stop's trigger (instrument currency); an OCO's target; null otherwise. */
  trigger_price: number | null;
  /** When a stop's trigger was reached (it then rests at `limit_price`); null before, or not a stop. */
  triggered_at: number | null;
  /** A GTT's trigger fires on a rise to it (true) or a fall (false); null for other orders. */
  trigger_rises: boolean | null;
  /**
   * An OCO GTT sell (`order_type` oco): one order, two legs, one reservation of the units. The
   * target is `trigger_price` (a rise to it) with `target_limit`; the stop is `stop_trigger` (a fall
   * to it) with `stop_limit`. `fired_leg`: the leg that fired (the order then rests at its limit,
   * `limit_price`, and the other leg is gone); null before, and on every other order.
   */
  target_limit: number | null;
  stop_trigger: number | null;
  stop_limit: number | null;
  fired_leg: 'target' | 'stop' | null;
}

/**
 * One instrument's trades of the day in one product (the Positions screen): what the executed
 * stock orders since its market's latest session opened add up to. Prices are per unit in the
 * instrument's currency; money is account currency, exact.
 */
export interface DayPosition {
  stock: string;
  name: string;
  market: string;
  region: string;
  decimals: number;
  product: OrderProduct;
  /** Units bought less units sold in this product since the session opened (a delivery sell of older units: below 0). */
  net: number;
  buy_count: number;
  /** Average buy price (0 without buys). */
  buy_avg: number;
  sell_count: number;
  /** Average sell price (0 without sells). */
  sell_avg: number;
  /** The server's last price; 0 without a quote (then `pnl` counts only what was sold). */
  prasent: number;
  /** Sells' value − buys' value + `net` at `prasent`: realised and open together, before charges. */
  pnl: Money;
  /** The charges of these trades, already paid. */
  charges: Money;
  /**
   * Units Exit sells now with this product: an intraday position's open units not held by a
   * pending sell; a delivery position's units bought today (net) that are free. 0: nothing to exit.
   */
  exitable: number;
  /** An open intraday position's square-off time (its session's close, epoch ms); null otherwise. */
  square_at: number | null;
  as_of: number;
}

/** Today's positions: one row per instrument and product, intraday first; `pnl` their sum. */
export interface DayPositions {
  rows: DayPosition[];
  pnl: Money;
  as_of: number;
}

/** Delivery (kept) or intraday (squared off at the session's close). */
export type OrderProduct = 'delivery' | 'intraday';
/** Day (rests until the session's close) or IOC (immediate or cancel). */
export type OrderValidity = 'day' | 'ioc';

/**
 * The charges of an order (server/trading/charges.ts), account currency: brokerage, securities
 * transaction tax, the exchange's transaction charge, SEBI's turnover fee, stamp duty, GST.
 */
export interface ChargesBreakdown {
  brokerage: Money;
  stt: Money;
  exchange: Money;
  sebi: Money;
  stamp: Money;
  gst: Money;
  total: Money;
}

/** What an order would cost before it is sent (the review sheet): the server's figures only. */
export interface OrderQuote {
  tag: string;
  side: 'buy' | 'sell';
  count: number;
  /** The price the figures are at: the limit sent, or the server's quote. */
  price: number;
  /** Quantity × price in account currency. */
  value: Money;
  charges: ChargesBreakdown;
  /** A buy: value + charges; a sell: value − charges (what arrives). */
  net: Money;
  /**
   * An after-market market buy's protection — what it holds beyond value and charges at
   * `price` so that it can fill at an open up to `limit` (its value and charges there, less `net`);
   * what the fill does not use comes back. 0.00 for every other order.
   */
  protection: Money;
  /** The protection's limit price (the price seen moved 1 % against the user); null without one. */
  limit: number | null;
  /** A buy: what leaves Available when it is placed, `net` + `protection`; a sell: 0.00. */
  required: Money;
  /** The available balance. */
  available: Money;
  /** Money the user's pending stock buys already hold (value and charges at their limits), beside Available. */
  blocked: Money;
  /** Units of this instrument free to sell. */
  held: number;
  /** The largest quantity the available balance pays for, value and charges (at most 10,000,000). */
  affordable: number;
  as_of: number;
  /** The instrument's session now, by the server's clock (a lot sells only in session). */
  session: MarketSession;
}

/** The contract note of an executed trade: every figure the fill was made of. */
export interface ContractNote {
  order: OrderRow;
  /** Fill price per unit (instrument currency) and quantity × that price (account currency). */
  price: number;
  value: Money;
  charges: ChargesBreakdown;
  /** A buy: value + charges paid; a sell: value − charges received. */
  net: Money;
  exchange: string;
  currency: 'INR' | 'USD';
  /** Account-currency ticks per unit of the instrument's currency at the fill. */
  rate: number;
  executed_at: number;
}
