import type { FastifyInstance } from 'fastify';
import { contract } from '#shared/contract/index';
import type {
  CandleRow,
  Category,
  CurrencyRow,
  IndexCard,
  MarketRow,
  Period,
  QuoteAnswer,
  Range,
  StockRow,
} from '#shared/contract/market';
import { displayCode, PAGE_SIZE } from '#shared/rules';
import { ApiError } from '../lib/errors';
import { createSnapshot, RawJson } from '../lib/snapshot';
import { DAY_MS, isMarketOpen, lastSession, nextSession } from '../market/hours';
import type { Candle, Instrument, MarketProvider, Quote } from '../market/provider';
import { CATEGORIES, MARKET_NAMES } from '../market/universe';

/**
 * The market calls of SPEC §7. Every answer is the same for every user and comes from the
 * market provider alone (no database), through the per-tick snapshot (server/lib/snapshot.ts).
 */

const UNKNOWN_SYMBOL = 'errors.unknownSymbol';
const UNKNOWN_MARKET = 'errors.unknownMarket';
const QUOTE_UNAVAILABLE = 'errors.quoteUnavailable';

/** Calendar days each range covers, counted back from the last bar. */
const RANGE_DAYS: Record<Range, number> = {
  '1d': 1,
  '5d': 5,
  '1mo': 31,
  '3mo': 92,
  '6mo': 183,
  '1y': 366,
  '2y': 731,
  '5y': 1827,
  '10y': 3653,
  max: Number.POSITIVE_INFINITY,
};
const DEFAULT_RANGE: Record<Exclude<Period, '1m'>, Range> = { '1d': '5y', '1wk': 'max', '1mo': 'max' };
/** Points of an index card's sparkline. */
const SPARK_POINTS = 48;

function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/** Search text compared without case, spaces or punctuation ("usd/inr" finds USDINR=X). */
function normalise(text: string): string {
  return text.toUpperCase().replace(/[^A-Z0-9]/g, '');
}

/** Instruments matching a trimmed, case-insensitive search by code or name; best matches first. */
function search<T extends Instrument>(list: readonly T[], text: string | undefined): T[] {
  const term = normalise(text?.trim() ?? '');
  if (!term) return [...list];
  const scored: Array<[number, T]> = [];
  for (const ins of list) {
    const code = normalise(displayCode(ins.symbol));
    const symbol = normalise(ins.symbol);
    const name = normalise(ins.name);
    const score =
      code === term || symbol === term
        ? 0
        : code.startsWith(term) || symbol.startsWith(term)
          ? 1
          : code.includes(term) || symbol.includes(term)
            ? 2
            : name.includes(term)
              ? 3
              : -1;
    if (score >= 0) scored.push([score, ins]);
  }
  // Array.prototype.sort is stable: equal scores keep the catalogue's order.
  return scored.sort((a, b) => a[0] - b[0]).map(([, ins]) => ins);
}

function page<T>(rows: readonly T[], pageNo = 1, limit = PAGE_SIZE): T[] {
  return rows.slice((pageNo - 1) * limit, pageNo * limit);
}

/** Candles as rows with their change from the close before (the bar before, or `before`). */
function candleRows(candles: readonly Candle[], from: number, before: number, decimals: number): CandleRow[] {
  const rows: CandleRow[] = [];
  let prev = from > 0 ? candles[from - 1]!.c : before;
  for (let i = from; i < candles.length; i++) {
    const c = candles[i]!;
    rows.push({
      timestamp: c.t,
      open: c.o,
      high: c.h,
      low: c.l,
      close: c.c,
      volume: c.v,
      change: roundTo(c.c - prev, decimals),
    });
    prev = c.c;
  }
  return rows;
}

/**
 * The serialised rows of a chart but its live last bar, kept between ticks: a simulated history
 * never changes once made, so only the last bar is serialised again each tick (five years of
 * daily rows are ~150 KiB of JSON, which is most of the cost of an answer).
 */
class RowsText {
  private cache = new Map<string, { check: string; text: string }>();
  constructor(private readonly max: number) {}

  rows(key: string, candles: readonly Candle[], from: number, before: number, decimals: number): string {
    const n = candles.length;
    if (n - from < 2) return JSON.stringify(candleRows(candles, from, before, decimals));
    const done = candles[n - 2]!;
    const check = `${n}:${from}:${before}:${candles[from]!.t}:${done.t}:${done.c}:${done.v}`;
    let hit = this.cache.get(key);
    if (hit?.check === check) {
      // Most recently used last: the first entry is the one to drop.
      this.cache.delete(key);
    } else {
      const text = JSON.stringify(candleRows(candles.slice(0, n - 1), from, before, decimals)).slice(1, -1);
      hit = { check, text };
      if (this.cache.size >= this.max) this.cache.delete(this.cache.keys().next().value!);
    }
    this.cache.set(key, hit);
    const last = candleRows(candles, n - 1, before, decimals)[0];
    return `[${hit.text},${JSON.stringify(last)}]`;
  }
}

function firstInRange(candles: readonly Candle[], range: Range): number {
  const last = candles.at(-1);
  if (!last || range === 'max') return 0;
  const since = last.t - RANGE_DAYS[range] * DAY_MS;
  let i = candles.length - 1;
  while (i > 0 && candles[i - 1]!.t > since) i--;
  return i;
}

export async function marketRoutes(app: FastifyInstance): Promise<void> {
  const market: MarketProvider = app.deps.market;
  const snapshot = createSnapshot(market);
  const rowsText = new RowsText(256);
  app.addHook('onClose', async () => snapshot.close());

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

  snapshot.route(app, contract.yahoo, async ({ symbol, market: marketCode, mold = '1d', range }) => {
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
  });

  snapshot.route(app, contract.quote, async ({ symbol }) => {
    await prepare(symbol, '1d');
    const { ins, q } = find(symbol);
    const daily = market.candles(ins.symbol, '1d');
    return {
      ...head(ins, q),
      rows: candleRows(daily, Math.max(0, daily.length - 1), q.prevClose, ins.decimals),
    };
  });

  snapshot.route(app, contract.stockList, ({ symbol, market: marketCode, category, page: pageNo, limit }) => {
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
  });

  // Across every market: stocks, indices, forex, futures and treasury debt alike.
  snapshot.route(app, contract.marketSearch, ({ q, limit }) => {
    const found = search(market.instruments(), q).slice(0, limit ?? 20);
    return { rows: priced(found).map(([ins, quote]) => stockRow(ins, quote)) };
  });

  snapshot.route(app, contract.depth, async ({ symbol }) => {
    await prepare(symbol, '1d');
    const { ins, q } = find(symbol);
    const at = app.deps.clock.now();
    const daily = market.candles(ins.symbol, '1d');
    const since = (daily.at(-1)?.t ?? at) - 365 * DAY_MS;
    let high = q.high;
    let low = q.low;
    for (let i = daily.length - 1; i >= 0 && daily[i]!.t > since; i--) {
      high = Math.max(high, daily[i]!.h);
      low = Math.min(low, daily[i]!.l);
    }
    const open = isMarketOpen(ins, at);
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
      high_52w: high,
      low_52w: low,
      session: {
        open,
        opens_at: open ? null : nextSession(ins.schedule, at).open,
        closes_at: lastSession(ins.schedule, at).close,
      },
      as_of: q.asOf,
    };
  });

  snapshot.route(app, contract.categoryList, () => {
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
  });

  snapshot.route(app, contract.indexList, ({ category }) => {
    const wanted = category?.trim() ? knownCategory(category) : null;
    const indices = market
      .instruments()
      .filter((i) => i.kind === 'index' && (!wanted || i.category === wanted));
    const rows: IndexCard[] = priced(indices).map(([ins, q]) => {
      const closes = market.candles(ins.symbol, '1m').map((c) => c.c);
      const step = Math.max(1, Math.ceil(closes.length / SPARK_POINTS));
      const spark: number[] = [];
      // Thinned from the end, so the last point is always the quote.
      for (let i = (closes.length - 1) % step; i < closes.length; i += step) spark.push(closes[i]!);
      return {
        symbol: ins.symbol,
        name: ins.name,
        category_code: ins.category ?? '',
        prasent: q.price,
        change: q.change,
        percent_change: q.changePercent,
        spark: spark.length ? spark : [q.price],
        as_of: q.asOf,
      };
    });
    return { rows };
  });

  snapshot.route(app, contract.currencyList, ({ code, page: pageNo, limit }) => {
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
  });

  snapshot.route(app, contract.marketList, ({ market: marketCode, code }) => {
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
  });
}
