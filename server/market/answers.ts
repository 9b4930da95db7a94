import type { ReqOf } from '#shared/contract/define';
import type { contract } from '#shared/contract/index';
import {
  type Category,
  type CurrencyRow,
  chartPeriod,
  type IndexCard,
  type MarketRow,
  type Period,
  type QuoteAnswer,
  type StockRow,
} from '#shared/contract/market';
import type { Deps } from '../deps';
import { ApiError } from '../lib/errors';
import { RawJson } from '../lib/snapshot';
import { candleRows, DEFAULT_RANGE, firstInRange, RowsText, sparkline, yearHighLow } from './charts';
import { sessionAt } from './hours';
import type { Instrument, MarketProvider, Quote } from './provider';
import { page, search } from './search';
import { CATEGORIES, MARKET_NAMES } from './universe';

/**
 * The answers of the market calls (SPEC §7, `routes/market.ts`), one function per contract entry.
 * Every answer is the same for every user and comes from the market provider alone (no database);
 * the route serves it through the per-tick snapshot (server/lib/snapshot.ts).
 */

const UNKNOWN_SYMBOL = 'errors.unknownSymbol';
const UNKNOWN_MARKET = 'errors.unknownMarket';
const QUOTE_UNAVAILABLE = 'errors.quoteUnavailable';

type In<K extends keyof typeof contract> = ReqOf<(typeof contract)[K]>;

/**
 * One spelling of a chart question (the snapshot's key, what the answer reads): its period as
 * `mold`, whichever parameter named it (`chartPeriod`), without `interval` (ignored when `mold` is
 * given, the same question as its `mold` when not); its range, the period's default when none is
 * given, and none for 1m (ignored there: the session).
 */
export function chartQuestion({ interval, range, ...q }: In<'yahoo'>): In<'yahoo'> {
  const mold = chartPeriod({ mold: q.mold, interval });
  return mold === '1m' ? { ...q, mold } : { ...q, mold, range: range ?? DEFAULT_RANGE[mold] };
}

/** The market answers of one server (its charts' serialised rows are kept between ticks). */
export function marketAnswers(deps: Pick<Deps, 'market' | 'clock'>) {
  const market: MarketProvider = deps.market;
  const rowsText = new RowsText(256);

  function find(symbol: string): { ins: Instrument; q: Quote } {
    const ins = market.instrument(symbol.trim());
    if (!ins) throw new ApiError(UNKNOWN_SYMBOL, 404);
    const q = market.quote(ins.symbol);
    if (!q) throw new ApiError(QUOTE_UNAVAILABLE, 503);
    return { ins, q };
  }

  /** A remote provider fetches the quote and the period's bars first; the simulator has them. */
  async function prepare(symbol: string, interval: Period): Promise<void> {
    const ins = market.prepare && market.instrument(symbol.trim());
    if (!ins || !market.prepare) return;
    await Promise.all([market.prepare(ins.symbol, '1m'), market.prepare(ins.symbol, interval)]);
  }

  function knownMarket(code: string): string {
    const wanted = code.trim().toUpperCase();
    if (!market.instruments().some((i) => i.market === wanted)) throw new ApiError(UNKNOWN_MARKET, 400);
    return wanted;
  }

  function knownCategory(code: string): string {
    const wanted = code.trim().toUpperCase();
    if (!CATEGORIES.some((c) => c.code === wanted)) throw new ApiError(UNKNOWN_MARKET, 400);
    return wanted;
  }

  function head(ins: Instrument, q: Quote): Omit<QuoteAnswer, 'rows'> {
    return {
      symbol: ins.symbol,
      name: ins.name,
      market: ins.market,
      exchange_name: ins.exchange,
      region: ins.region,
      decimals: ins.decimals,
      price: q.price,
      change: q.change,
      changePercent: q.changePercent,
      percent_change: q.changePercent,
      open: q.open,
      high: q.high,
      low: q.low,
      prev_close: q.prevClose,
      volume: q.volume,
      as_of: q.asOf,
    };
  }

  /** Listed instruments with a price now, as [instrument, quote] pairs. */
  function priced(list: readonly Instrument[]): Array<[Instrument, Quote]> {
    const out: Array<[Instrument, Quote]> = [];
    for (const ins of list) {
      const q = market.quote(ins.symbol);
      if (q) out.push([ins, q]);
    }
    return out;
  }

  const stockRow = (ins: Instrument, q: Quote): StockRow => ({
    id: ins.id,
    stock: ins.symbol,
    name: ins.name,
    market: ins.market,
    market_name: MARKET_NAMES[ins.market] ?? ins.market,
    exchange_name: ins.exchange,
    region: ins.region,
    decimals: ins.decimals,
    prasent: q.price,
    close_prices: q.prevClose,
    percent_change: q.changePercent,
    change: q.change,
  });

  return {
    /** A chart: the quote and the bars of a period (`chartPeriod`) over a range (simulated histories: rows kept serialised). */
    async yahoo({ symbol, market: marketCode, range, ...period }: In<'yahoo'>) {
      const mold = chartPeriod(period);
      if (marketCode !== undefined && marketCode.trim() !== '') {
        const wanted = knownMarket(marketCode);
        const ins = market.instrument(symbol.trim());
        if (ins && ins.market !== wanted) throw new ApiError(UNKNOWN_SYMBOL, 404);
      }
      await prepare(symbol, mold);
      const { ins, q } = find(symbol);
      const candles = market.candles(ins.symbol, mold);
      const from = mold === '1m' ? 0 : firstInRange(candles, range ?? DEFAULT_RANGE[mold]);
      if (!market.simulated)
        return { ...head(ins, q), rows: candleRows(candles, from, q.prevClose, ins.decimals) };
      const rows = rowsText.rows(`${ins.symbol}|${mold}|${range}`, candles, from, q.prevClose, ins.decimals);
      return new RawJson(`${JSON.stringify(head(ins, q)).slice(0, -1)},"rows":${rows}}`);
    },

    /** The quote with today's daily bar. */
    async quote({ symbol }: In<'quote'>) {
      await prepare(symbol, '1d');
      const { ins, q } = find(symbol);
      const daily = market.candles(ins.symbol, '1d');
      return {
        ...head(ins, q),
        rows: candleRows(daily, Math.max(0, daily.length - 1), q.prevClose, ins.decimals),
      };
    },

    /** Stocks (or one market's instruments, or one category's stocks), searched and paged. */
    stockList({ symbol, market: marketCode, category, page: pageNo, limit }: In<'stockList'>) {
      let list = market.instruments();
      if (marketCode?.trim()) {
        const wanted = knownMarket(marketCode);
        list = list.filter((i) => i.market === wanted);
      } else list = list.filter((i) => i.kind === 'stock');
      if (category?.trim()) {
        const wanted = knownCategory(category);
        list = list.filter((i) => i.category === wanted && i.kind === 'stock');
      }
      const rows = priced(search(list, symbol));
      return { rows: page(rows, pageNo, limit).map(([ins, q]) => stockRow(ins, q)), count: rows.length };
    },

    /** Across every market: stocks, indices, forex, futures and treasury debt alike. */
    marketSearch({ q, limit }: In<'marketSearch'>) {
      const found = search(market.instruments(), q).slice(0, limit ?? 20);
      return { rows: priced(found).map(([ins, quote]) => stockRow(ins, quote)) };
    },

    /** The quote's day, its 52-week range, the order book when the provider has one, and the session. */
    async depth({ symbol }: In<'depth'>) {
      await prepare(symbol, '1d');
      const { ins, q } = find(symbol);
      const at = deps.clock.now();
      const daily = market.candles(ins.symbol, '1d');
      const year = yearHighLow(daily, q, at);
      const book = market.depth?.(ins.symbol) ?? null;
      return {
        symbol: ins.symbol,
        decimals: ins.decimals,
        region: ins.region,
        price: q.price,
        book,
        open: q.open,
        high: q.high,
        low: q.low,
        prev_close: q.prevClose,
        high_52w: year.high,
        low_52w: year.low,
        session: sessionAt(ins, at),
        as_of: q.asOf,
      };
    },

    /** The categories with their stocks. */
    categoryList() {
      const stocks = market.instruments().filter((i) => i.kind === 'stock' && i.category);
      const categories: Category[] = CATEGORIES.map((c) => ({
        category_id: c.id,
        category_code: c.code,
        category_name: c.name,
        index_symbol: c.indexSymbol,
        stocks: stocks
          .filter((s) => s.category === c.code)
          .map((s) => ({ id: s.id, stock_name: s.name, stock_code: s.symbol, category_code: c.code })),
      }));
      return { categories };
    },

    /** Index cards (of one category if asked), each with the session's sparkline. */
    indexList({ category }: In<'indexList'>) {
      const wanted = category?.trim() ? knownCategory(category) : null;
      const indices = market
        .instruments()
        .filter((i) => i.kind === 'index' && (!wanted || i.category === wanted));
      const rows: IndexCard[] = priced(indices).map(([ins, q]) => ({
        symbol: ins.symbol,
        name: ins.name,
        category_code: ins.category ?? '',
        prasent: q.price,
        change: q.change,
        percent_change: q.changePercent,
        spark: sparkline(
          market.candles(ins.symbol, '1m').map((c) => c.c),
          q.price,
        ),
        as_of: q.asOf,
      }));
      return { rows };
    },

    /** Forex pairs, searched and paged. */
    currencyList({ code, page: pageNo, limit }: In<'currencyList'>) {
      const forex = market.instruments().filter((i) => i.market === 'FOREX');
      const rows = priced(search(forex, code));
      return {
        rows: page(rows, pageNo, limit).map(
          ([ins, q]): CurrencyRow => ({
            stock: ins.symbol,
            name: ins.name,
            prasent: q.price,
            percent_change: q.changePercent,
            price_change_percent: q.changePercent,
            change: q.change,
            decimals: ins.decimals,
          }),
        ),
        count: rows.length,
      };
    },

    /** One market's instruments, searched. */
    marketList({ market: marketCode, code }: In<'marketList'>) {
      const list = market.instruments().filter((i) => i.market === marketCode);
      return {
        rows: priced(search(list, code)).map(
          ([ins, q]): MarketRow => ({
            stock: ins.symbol,
            name: ins.name,
            prasent: q.price,
            current_price: q.price,
            percent_change: q.changePercent,
            change: q.change,
            exchange_name: ins.exchange,
            market: ins.market,
            decimals: ins.decimals,
          }),
        ),
      };
    },
  };
}
