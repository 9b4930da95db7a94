import * as Type from '@sinclair/typebox';
import { endpoint } from './define';
import { NoQuery, Paging, Quantity, RowId, SeenPrice, Strict, Ticker, TradeCode } from './schemas';
import type {
  ContractNote,
  DayPositions,
  HoldingRow,
  OrderQuote,
  OrderRow,
  WatchlistItem,
} from './trading-types';

export type {
  ChargesBreakdown,
  ContractNote,
  DayPosition,
  DayPositions,
  HoldingLot,
  HoldingRow,
  HoldingType,
  OrderProduct,
  OrderQuote,
  OrderRow,
  OrderValidity,
  WatchlistItem,
} from './trading-types';

/*
 * The trading calls: favourites, holdings and orders (stocks, forex, futures, treasury; block/QIP
 * buys share the deal calls). What they answer is typed in trading-types.ts.
 */

/**
 * Optional fields of every stock buy/sell; absent, an order is delivery/day as SPEC's
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

export const tradingContract = {
  favouriteAdd: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/collection/add',
    auth: true,
    req: Strict({ symbol: Ticker }),
  }),
  favouriteRemove: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/collection/remove',
    auth: true,
    req: Strict({ symbol: Ticker }),
  }),
  /** Delete-favourite by display code (suffix .NS/.BO optional). */
  favouriteDelete: endpoint<null>()({
    method: 'POST',
    path: '/stock/success/collection/delete',
    auth: true,
    req: Strict({ code: Ticker }),
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
   * Today's positions (no SPEC call): the user's executed stock orders since each market's latest
   * session opened, per instrument and product, valued at the server's quotes. Reads only.
   */
  positions: endpoint<DayPositions>()({
    method: 'GET',
    path: '/stock/success/v2/positions',
    auth: true,
    req: NoQuery,
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
    req: Strict({
      tag: Ticker,
      count: Quantity,
      price: SeenPrice,
      mold: Type.Union([Type.Literal('stock'), Type.Literal('bulk'), Type.Literal('finalize')]),
      ...StopFields,
      ...TicketFields,
      id: Type.Optional(RowId),
      url_count: Type.Optional(Type.Integer({ minimum: 0 })),
      stock_password: Type.Optional(TradeCode),
    }),
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
      Strict({
        tag: Ticker,
        count: Quantity,
        price: SeenPrice,
        mold: Type.Literal('stock'),
        ...StopFields,
        ...TicketFields,
      }),
      Strict({
        no: Type.String({ minLength: 1, maxLength: 40 }),
        price: Type.Optional(SeenPrice),
        sell_price: Type.Optional(SeenPrice),
      }),
    ]),
  }),
  /** Block/QIP orders: status 0 all, 1 success, 2 failed. */
  dealList: endpoint<{ rows: OrderRow[] }>()({
    method: 'POST',
    path: '/stock/success/deal/list',
    auth: true,
    req: Strict({
      status: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
      mold: Type.Union([Type.Literal('bulk'), Type.Literal('finalize')]),
    }),
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
   * the balance affords. `product` (default delivery) decides the charges: intraday pays intraday
   * STT and stamp duty (README "Charges"). `order_type` market on a closed market is an after-market
   * order: its buy is priced with the protection it holds (`protection`, `limit`, `required`), as
   * dealBuy reserves. Moves nothing.
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
      product: TicketFields.product,
      order_type: Type.Optional(Type.Union([Type.Literal('market'), Type.Literal('limit')])),
    }),
  }),
  /** The contract note of an executed trade (a stock order, a block/QIP buy, a lot sale), by its number. */
  orderContract: endpoint<ContractNote>()({
    method: 'GET',
    path: '/stock/success/order/contract',
    auth: true,
    req: Type.Object({ no: Type.String({ minLength: 1, maxLength: 40 }) }),
  }),
  /**
   * Modifies a pending stock order: its quantity, its limit `price` (limit and stop-loss)
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
    req: Strict({
      no: Type.String({ minLength: 1, maxLength: 40 }),
      count: Type.Optional(Quantity),
      price: Type.Optional(SeenPrice),
      trigger: Type.Optional(SeenPrice),
    }),
  }),
  /** Cancels a pending order and releases what it reserved. */
  orderCancel: endpoint<OrderRow>()({
    method: 'POST',
    path: '/stock/success/order/cancel',
    auth: true,
    money: true,
    req: Strict({ no: Type.String({ minLength: 1, maxLength: 40 }) }),
  }),
};
