import { Type } from '@sinclair/typebox';
import type { Money } from '../money';
import { endpoint } from './define';
import type { MarketSession } from './market';
import { Paging, Quantity, RowId, SeenPrice, Ticker, TradeCode } from './schemas';

/** Favourites, holdings and orders (stocks, forex, futures, treasury; block/QIP buys share the deal calls). */

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

/** One open position, valued by the server at its current quote. */
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
   * Issue 30 (stock orders): `delivery` keeps the shares; `intraday` positions are squared off at
   * the session's close (a market sell at the close price, with charges). Other molds: delivery.
   */
  product: OrderProduct;
  /** Issue 30: `day` rests until the session's close; `ioc` fills at once or is cancelled. */
  validity: OrderValidity;
  /**
   * Issue 30: an after-market order — a market order placed while its market was closed. It rests
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
  /** Why a failed block/QIP buy was refused: an i18n key (`errors.…`); null otherwise. */
  reason: string | null;
  /**
   * Issue 13: stop orders sl (trigger + limit) and slm (trigger, then the market); gtt, good till
   * triggered (trigger + limit, valid up to a year); null for market and limit orders.
   */
  order_type: 'sl' | 'slm' | 'gtt' | 'oco' | null;
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

/** Issue 30: delivery (kept) or intraday (squared off at the session's close). */
export type OrderProduct = 'delivery' | 'intraday';
/** Issue 30: day (rests until the session's close) or IOC (immediate or cancel). */
export type OrderValidity = 'day' | 'ioc';

/**
 * Optional fields of every stock buy/sell (issue 30); absent, an order is delivery/day as SPEC's
 * calls send it. `order_type` market or limit says what the ticket placed (absent: a price within
 * PRICE_TOLERANCE_BPS of the quote is a market order, another a limit); a market order placed
 * while its market is closed is an AMO (OrderRow `amo`, `send_at`).
 */
const TicketFields = {
  product: Type.Optional(Type.Union([Type.Literal('delivery'), Type.Literal('intraday')])),
  validity: Type.Optional(Type.Union([Type.Literal('day'), Type.Literal('ioc')])),
};

/**
 * Optional fields of a stock buy/sell that make it a stop or GTT order (placeStop, placeOco in
 * server/trading/stops.ts). `valid_days`: a GTT's validity, 1 to 365 days (default 365). An OCO
 * GTT (sells only): `trigger` and `price` are its target and the target's limit, `stop_trigger`
 * and `stop_price` its stop and the stop's limit.
 */
const StopFields = {
  order_type: Type.Optional(
    Type.Union([
      Type.Literal('market'),
      Type.Literal('limit'),
      Type.Literal('sl'),
      Type.Literal('slm'),
      Type.Literal('gtt'),
      Type.Literal('oco'),
    ]),
  ),
  trigger: Type.Optional(SeenPrice),
  valid_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  stop_trigger: Type.Optional(SeenPrice),
  stop_price: Type.Optional(SeenPrice),
};

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
  /** A buy: value + charges (what is needed); a sell: value − charges (what arrives). */
  net: Money;
  /** The available balance. */
  available: Money;
  /** Units of this instrument free to sell. */
  held: number;
  /** The largest quantity the available balance pays for, value and charges (at most 10,000,000). */
  affordable: number;
  as_of: number;
  /** The instrument's session now, by the server's clock (a lot sells only in session). */
  session: MarketSession;
}

/** The contract note of an executed stock order: every figure the fill was made of. */
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

export const tradingContract = {
  favouriteAdd: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/collection/add',
    auth: true,
    req: Type.Object({ symbol: Ticker }, { additionalProperties: false }),
  }),
  favouriteRemove: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/collection/remove',
    auth: true,
    req: Type.Object({ symbol: Ticker }, { additionalProperties: false }),
  }),
  /** Delete-favourite by display code (suffix .NS/.BO optional). */
  favouriteDelete: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/collection/delete',
    auth: true,
    req: Type.Object({ code: Ticker }, { additionalProperties: false }),
  }),
  favouriteCheck: endpoint<{ collected: boolean }>()({
    method: 'GET',
    path: '/stock/success/collection/check',
    auth: true,
    req: Type.Object({ symbol: Ticker }),
  }),
  favouriteList: endpoint<{ list: WatchlistItem[]; total: number }>()({
    method: 'GET',
    path: '/stock/success/collection/list',
    auth: true,
    req: Type.Object({
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: 1 })),
      pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
    }),
  }),
  /** Holdings by type (SPEC `/v2/transaction`): the trade screen's table. */
  holdings: endpoint<{ rows: HoldingRow[]; count: number }>()({
    method: 'GET',
    path: '/stock/success/v2/transaction',
    auth: true,
    req: Type.Object({
      type: Type.Union([
        Type.Literal('stock'),
        Type.Literal('forex'),
        Type.Literal('futures'),
        Type.Literal('treasury'),
      ]),
      ...Paging,
    }),
  }),
  /**
   * Buy (SPEC "buy order helper" and `/deal/buy`): mold stock (any stock/forex/futures/treasury
   * symbol), bulk (block trading) or finalize (QIP) — those two name the block item `id` and need
   * the transaction password. The server fills at its own price; `price` is what the user saw.
   * A stock order whose quote moved more than PRICE_TOLERANCE_BPS against the user rests as a
   * pending limit order at `price` (status 0, money reserved) until the quote reaches it, the user
   * cancels it (`orderCancel`) or the session closes (status 3, `expires_at`).
   */
  dealBuy: endpoint<OrderRow>()({
    method: 'POST',
    path: '/stock/success/deal/buy',
    auth: true,
    money: true,
    req: Type.Object(
      {
        tag: Ticker,
        count: Quantity,
        price: SeenPrice,
        mold: Type.Union([Type.Literal('stock'), Type.Literal('bulk'), Type.Literal('finalize')]),
        ...StopFields,
        ...TicketFields,
        id: Type.Optional(RowId),
        url_count: Type.Optional(Type.Integer({ minimum: 0 })),
        stock_password: Type.Optional(TradeCode),
      },
      { additionalProperties: false },
    ),
  }),
  /**
   * Sell: a quantity of a stock position (`tag`, `count`), or a whole IPO/block holding by its
   * order number (`no`). `price`/`sell_price` are what the user saw.
   */
  dealSell: endpoint<OrderRow>()({
    method: 'POST',
    path: '/stock/success/deal/sell',
    auth: true,
    money: true,
    req: Type.Union([
      Type.Object(
        {
          tag: Ticker,
          count: Quantity,
          price: SeenPrice,
          mold: Type.Literal('stock'),
          ...StopFields,
          ...TicketFields,
        },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          no: Type.String({ minLength: 1, maxLength: 40 }),
          price: Type.Optional(SeenPrice),
          sell_price: Type.Optional(SeenPrice),
        },
        { additionalProperties: false },
      ),
    ]),
  }),
  /** Block/QIP orders: status 0 all, 1 success, 2 failed. */
  dealList: endpoint<{ rows: OrderRow[] }>()({
    method: 'POST',
    path: '/stock/success/deal/list',
    auth: true,
    req: Type.Object(
      {
        status: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
        mold: Type.Union([Type.Literal('bulk'), Type.Literal('finalize')]),
      },
      { additionalProperties: false },
    ),
  }),
  /** Stock records (SPEC "order list helper"): by status and mold or tag; newest first. */
  orderList: endpoint<{ rows: OrderRow[]; count: number }>()({
    method: 'GET',
    path: '/stock/success/order/list',
    auth: true,
    req: Type.Object({
      status: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
      mold: Type.Optional(
        Type.Union([
          Type.Literal('stock'),
          Type.Literal('ipo'),
          Type.Literal('bulk'),
          Type.Literal('finalize'),
        ]),
      ),
      tag: Type.Optional(Ticker),
      ...Paging,
    }),
  }),
  /**
   * What an order would cost (the review sheet): value, each charge and the total at `price` (a
   * limit) or at the server's quote, beside the available balance, the units free to sell and what
   * the balance affords. Moves nothing.
   */
  orderQuote: endpoint<OrderQuote>()({
    method: 'GET',
    path: '/stock/success/order/quote',
    auth: true,
    req: Type.Object({
      tag: Ticker,
      side: Type.Union([Type.Literal('buy'), Type.Literal('sell')]),
      count: Quantity,
      price: Type.Optional(SeenPrice),
    }),
  }),
  /** The contract note of an executed stock order, by its number. */
  orderContract: endpoint<ContractNote>()({
    method: 'GET',
    path: '/stock/success/order/contract',
    auth: true,
    req: Type.Object({ no: Type.String({ minLength: 1, maxLength: 40 }) }),
  }),
  /**
   * Modifies a pending stock order (issue 13): its quantity, its limit `price` (limit and stop-loss)
   * and its `trigger` (stops not yet triggered); an OCO not yet fired, its quantity only (its legs'
   * prices are refused, `errors.ocoModify`: cancel it and place another). The server re-reserves exactly the difference in
   * the same transaction — more money or shares when the order grows, the rest released when it
   * shrinks — and refuses what the balance or the free shares cannot cover, a filled, cancelled or
   * expired order, and anyone else's order. Answers the order as it now rests.
   */
  orderModify: endpoint<OrderRow>()({
    method: 'POST',
    path: '/stock/success/order/modify',
    auth: true,
    money: true,
    req: Type.Object(
      {
        no: Type.String({ minLength: 1, maxLength: 40 }),
        count: Type.Optional(Quantity),
        price: Type.Optional(SeenPrice),
        trigger: Type.Optional(SeenPrice),
      },
      { additionalProperties: false },
    ),
  }),
  /** Cancels a pending order and releases what it reserved. */
  orderCancel: endpoint<OrderRow>()({
    method: 'POST',
    path: '/stock/success/order/cancel',
    auth: true,
    money: true,
    req: Type.Object({ no: Type.String({ minLength: 1, maxLength: 40 }) }, { additionalProperties: false }),
  }),
};
