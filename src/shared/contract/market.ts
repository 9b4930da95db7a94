import * as Type from '@sinclair/typebox';
import { endpoint } from './define';
import { NoQuery, Paging, Ticker } from './schemas';

/**
 * Market data (SPEC §7): the same for every user, public, served from per-tick snapshots.
 * Prices here are display numbers (see money.ts); field names are SPEC §3's, `prasent` included.
 */
export type Period = '1m' | '1d' | '1wk' | '1mo';
const PERIOD = Type.Union([Type.Literal('1m'), Type.Literal('1d'), Type.Literal('1wk'), Type.Literal('1mo')]);

/**
 * The period a `/v2/yahoo` question asks for: `mold` (the app's name, SPEC's `/v2/yahoo` row), else
 * `interval` (Yahoo's name, which SPEC's quote call sends), else daily. When both are given `mold`
 * wins and `interval` is ignored.
 */
export function chartPeriod(q: { mold?: Period; interval?: Period }): Period {
  return q.mold ?? q.interval ?? '1d';
}

/**
 * How far back `/v2/yahoo` goes (Yahoo's names). Defaults: 1m → the current session, 1d → 5y,
 * 1wk and 1mo → max (the whole history, 2018 onwards). Ignored for 1m.
 */
const RANGES = ['1d', '5d', '1mo', '3mo', '6mo', '1y', '2y', '5y', '10y', 'max'] as const;
export type Range = (typeof RANGES)[number];

/** One candle of a chart (SPEC §3 Quote.rows). */
export interface CandleRow {
  /** Start of the bar, epoch ms. */
  timestamp: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  /** close − previous close. */
  change: number;
}

/** `/v2/yahoo`: a quote with the candles of one period. */
export interface QuoteAnswer {
  symbol: string;
  name: string;
  market: string;
  exchange_name: string;
  /** IN → ₹, US → $ (config symbol map). */
  region: string;
  decimals: number;
  price: number;
  change: number;
  changePercent: number;
  /** Same as changePercent, by SPEC's other name. */
  percent_change: number;
  open: number;
  high: number;
  low: number;
  prev_close: number;
  volume: number;
  /** Epoch ms of the price. */
  as_of: number;
  rows: CandleRow[];
}

/** SPEC §3 Stock row. */
export interface StockRow {
  id: number;
  stock: string;
  name: string;
  market: string;
  market_name: string;
  exchange_name: string;
  region: string;
  decimals: number;
  prasent: number;
  close_prices: number;
  percent_change: number;
  change: number;
}

export interface Category {
  category_id: number;
  category_code: string;
  category_name: string;
  /** The index shown on the category's card. */
  index_symbol: string;
  stocks: Array<{ id: number; stock_name: string; stock_code: string; category_code: string }>;
}

/** An index card: price, change and the closes of the session for its sparkline. */
export interface IndexCard {
  symbol: string;
  name: string;
  category_code: string;
  prasent: number;
  change: number;
  percent_change: number;
  spark: number[];
  as_of: number;
}

/** SPEC §3 Currency pair row. */
export interface CurrencyRow {
  stock: string;
  name: string;
  prasent: number;
  percent_change: number;
  price_change_percent: number;
  change: number;
  decimals: number;
}

/** SPEC §3 Futures/treasury row. */
export interface MarketRow {
  stock: string;
  name: string;
  prasent: number;
  current_price: number;
  percent_change: number;
  change: number;
  exchange_name: string;
  market: string;
  decimals: number;
}

/** One price level of the order book: its quantity and the running total from the best price. */
export interface DepthLevel {
  price: number;
  qty: number;
  /** Quantity at this level and every better one. */
  total: number;
}

/** When the instrument's market is in session, from its trading hours (the server's clock). */
export interface MarketSession {
  open: boolean;
  /** Next open (epoch ms) while closed; null while open. */
  opens_at: number | null;
  /** Close of the session in progress (or of the last one while closed). */
  closes_at: number;
}

/**
 * `/v2/depth`: five bid and ask levels around the quote (null when the provider has no order
 * book: the app says "depth not available"), with the instrument's ranges and session.
 */
export interface DepthAnswer {
  symbol: string;
  decimals: number;
  region: string;
  price: number;
  book: { bids: DepthLevel[]; asks: DepthLevel[]; spread: number } | null;
  open: number;
  high: number;
  low: number;
  prev_close: number;
  /** Highest and lowest daily close and extreme of the last 52 weeks, today included. */
  high_52w: number;
  low_52w: number;
  session: MarketSession;
  as_of: number;
}

export const marketContract = {
  /** A chart: the quote and the bars of a period (`chartPeriod`) over a range. */
  yahoo: endpoint<QuoteAnswer>()({
    method: 'GET',
    path: '/v2/yahoo',
    auth: false,
    shared: true,
    req: Type.Object({
      symbol: Ticker,
      market: Type.Optional(Type.String({ maxLength: 16 })),
      /** The period (`chartPeriod`); `interval` is its Yahoo name, for clients written from SPEC. */
      mold: Type.Optional(PERIOD),
      interval: Type.Optional(PERIOD),
      range: Type.Optional(Type.Union(RANGES.map((r) => Type.Literal(r)))),
    }),
  }),
  /** The quote call per symbol (interval 1d, range 1d): price and today's candles. */
  quote: endpoint<Omit<QuoteAnswer, 'rows'> & { rows: CandleRow[] }>()({
    method: 'GET',
    path: '/v2/quote',
    auth: false,
    shared: true,
    req: Type.Object({
      symbol: Ticker,
      interval: Type.Optional(Type.Literal('1d')),
      range: Type.Optional(Type.Literal('1d')),
    }),
  }),
  /** Paged stock list of a market; `symbol` searches name or code (case-insensitive, trimmed). */
  stockList: endpoint<{ rows: StockRow[]; count: number }>()({
    method: 'GET',
    path: '/v2/stock/list',
    auth: false,
    shared: true,
    req: Type.Object({
      symbol: Type.Optional(Type.String({ maxLength: 64 })),
      market: Type.Optional(Type.String({ maxLength: 16 })),
      category: Type.Optional(Type.String({ maxLength: 32 })),
      ...Paging,
    }),
  }),
  /** Search by name or code across every market (stocks, indices, forex, futures, treasury). */
  marketSearch: endpoint<{ rows: StockRow[] }>()({
    method: 'GET',
    path: '/v2/search',
    auth: false,
    shared: true,
    req: Type.Object({
      q: Type.String({ minLength: 1, maxLength: 64 }),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 30, default: 20 })),
    }),
  }),
  depth: endpoint<DepthAnswer>()({
    method: 'GET',
    path: '/v2/depth',
    auth: false,
    shared: true,
    req: Type.Object({ symbol: Ticker }),
  }),
  categoryList: endpoint<{ categories: Category[] }>()({
    method: 'GET',
    path: '/stock/category/list',
    auth: false,
    shared: true,
    req: NoQuery,
  }),
  indexList: endpoint<{ rows: IndexCard[] }>()({
    method: 'GET',
    path: '/v2/index/list',
    auth: false,
    shared: true,
    req: Type.Object({ category: Type.Optional(Type.String({ maxLength: 32 })) }),
  }),
  currencyList: endpoint<{ rows: CurrencyRow[]; count: number }>()({
    method: 'GET',
    path: '/v2/currency/list',
    auth: false,
    shared: true,
    req: Type.Object({ code: Type.Optional(Type.String({ maxLength: 32 })), ...Paging }),
  }),
  /** Futures (market FUTURE) and treasury debt (market CGI). */
  marketList: endpoint<{ rows: MarketRow[] }>()({
    method: 'GET',
    path: '/v2/market/list',
    auth: false,
    shared: true,
    req: Type.Object({
      market: Type.Union([Type.Literal('FUTURE'), Type.Literal('CGI')]),
      code: Type.Optional(Type.String({ maxLength: 32 })),
    }),
  }),
};
