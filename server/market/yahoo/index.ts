import fs from 'node:fs/promises';
import path from 'node:path';
import type { Candle, Instrument, Interval, MarketProvider, Quote } from '../provider';
import { type Spec, UNIVERSE } from '../universe';
import { type ChartData, ChartError, parseChart } from './parse';

/**
 * A real-data adapter over Yahoo-style chart JSON. The catalogue is the same as the simulator's
 * (its symbols are the source's symbols); IPO candidates are fictional and never listed here.
 * The provider interface is synchronous, so answers come from a cache: start() refreshes every
 * quote (the 1-minute chart of the day) on a timer, and prepare() fetches a period's bars before a
 * route reads them. A failed fetch keeps the last good data; nothing is ever invented.
 */

/** Fetches the raw chart JSON of a symbol for an interval and a range. */
export type ChartSource = (symbol: string, interval: Interval, range: string) => Promise<unknown>;

/** The range fetched for each interval. */
const RANGE: Record<Interval, string> = { '1m': '1d', '1d': '5y', '1wk': '10y', '1mo': 'max' };

/** How long fetched bars stay fresh. */
const TTL: Record<Interval, number> = {
  '1m': 15_000,
  '1d': 15 * 60_000,
  '1wk': 60 * 60_000,
  '1mo': 60 * 60_000,
};

/** Over HTTP: `${baseUrl}/v8/finance/chart/{symbol}?interval=…&range=…`. */
export function httpSource(baseUrl: string, timeoutMs = 10_000): ChartSource {
  return async (symbol, interval, range) => {
    const url = `${baseUrl.replace(/\/$/, '')}/v8/finance/chart/${encodeURIComponent(symbol)}?interval=${interval}&range=${range}`;
    const res = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
    // Error answers (404 for an unknown symbol) carry the chart error payload too.
    return res.json();
  };
}

/** From files `<dir>/<symbol>_<interval>_<range>.json`, as recorded; a missing file is "Not Found". */
export function fixtureSource(dir: string): ChartSource {
  return async (symbol, interval, range) => {
    const file = path.join(dir, `${symbol.replace(/[^A-Za-z0-9.=^_-]/g, '_')}_${interval}_${range}.json`);
    try {
      return JSON.parse(await fs.readFile(file, 'utf8'));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      return {
        chart: { result: null, error: { code: 'Not Found', description: `No data found for ${symbol}` } },
      };
    }
  };
}

export interface YahooOptions {
  source: ChartSource;
  now: () => number;
  /** How often start() refreshes the quotes. */
  refreshMs: number;
  universe?: readonly Spec[];
  /** Reports fetch failures (the server's logger). */
  onError?: (symbol: string, err: unknown) => void;
  /** Parallel requests of one refresh. */
  concurrency?: number;
}

interface Entry {
  at: number;
  candles: Candle[];
}

export interface YahooProvider extends MarketProvider {
  /** One refresh of every quote; resolves when done (start() runs it on a timer). */
  refresh(): Promise<void>;
}

export function createYahooProvider(opts: YahooOptions): YahooProvider {
  const catalogue = (opts.universe ?? UNIVERSE).filter((s) => !s.ipo);
  const bySymbol = new Map(catalogue.map((s) => [s.symbol.toUpperCase(), s as Instrument]));
  const quotes = new Map<string, Quote>();
  const bars = new Map<string, Entry>();
  const inflight = new Map<string, Promise<void>>();
  const listeners = new Set<(at: number) => void>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let refreshing: Promise<void> | null = null;

  const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

  function roundCandles(candles: Candle[], decimals: number): Candle[] {
    return candles.map((c) => ({
      t: c.t,
      o: round(c.o, decimals),
      h: round(c.h, decimals),
      l: round(c.l, decimals),
      c: round(c.c, decimals),
      v: c.v,
    }));
  }

  /** The quote of a day chart: the meta's price and day range, else what the bars say. */
  function quoteOf(ins: Instrument, data: ChartData, candles: Candle[]): Quote | undefined {
    const last = candles.at(-1);
    const price = data.meta.regularMarketPrice ?? last?.c;
    if (price === undefined) return undefined;
    const p = round(price, ins.decimals);
    const prev = round(
      data.meta.chartPreviousClose ?? data.meta.previousClose ?? candles[0]?.o ?? p,
      ins.decimals,
    );
    const high = Math.max(p, data.meta.regularMarketDayHigh ?? Math.max(...candles.map((c) => c.h), p));
    const low = Math.min(p, data.meta.regularMarketDayLow ?? Math.min(...candles.map((c) => c.l), p));
    const change = round(p - prev, ins.decimals);
    return {
      symbol: ins.symbol,
      price: p,
      open: candles[0]?.o ?? p,
      high: round(high, ins.decimals),
      low: round(low, ins.decimals),
      prevClose: prev,
      change,
      changePercent: prev ? Math.round((change / prev) * 1_000_000) / 10_000 : 0,
      volume: data.meta.regularMarketVolume ?? candles.reduce((sum, c) => sum + c.v, 0),
      asOf: data.meta.regularMarketTime ?? last?.t ?? opts.now(),
    };
  }

  async function load(ins: Instrument, interval: Interval): Promise<void> {
    const key = `${ins.symbol}:${interval}`;
    const running = inflight.get(key);
    if (running) return running;
    const job = (async () => {
      try {
        const data = parseChart(await opts.source(ins.symbol, interval, RANGE[interval]));
        const candles = roundCandles(data.candles, ins.decimals);
        bars.set(key, { at: opts.now(), candles });
        if (interval === '1m') {
          const q = quoteOf(ins, data, candles);
          if (q) quotes.set(ins.symbol, q);
        }
      } catch (err) {
        opts.onError?.(ins.symbol, err instanceof ChartError ? err.message : err);
      } finally {
        inflight.delete(key);
      }
    })();
    inflight.set(key, job);
    return job;
  }

  async function refresh(): Promise<void> {
    if (refreshing) return refreshing;
    refreshing = (async () => {
      const queue = [...catalogue];
      const worker = async () => {
        for (let ins = queue.shift(); ins; ins = queue.shift()) await load(ins, '1m');
      };
      await Promise.all(Array.from({ length: opts.concurrency ?? 4 }, worker));
      const at = opts.now();
      for (const l of listeners) l(at);
    })().finally(() => {
      refreshing = null;
    });
    return refreshing;
  }

  const instrument = (symbol: string) => bySymbol.get(symbol.toUpperCase());

  return {
    simulated: false,
    instruments: () => catalogue,
    instrument,
    quote: (symbol) => {
      const ins = instrument(symbol);
      return ins ? quotes.get(ins.symbol) : undefined;
    },
    candles(symbol, interval) {
      const ins = instrument(symbol);
      return ins ? (bars.get(`${ins.symbol}:${interval}`)?.candles ?? []) : [];
    },
    async prepare(symbol, interval) {
      const ins = instrument(symbol);
      if (!ins) return;
      const entry = bars.get(`${ins.symbol}:${interval}`);
      if (!entry || opts.now() - entry.at > TTL[interval]) await load(ins, interval);
    },
    // Data arrives asynchronously; there is nothing to catch up with synchronously.
    sync() {},
    onTick(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    // IPO candidates are fictional: a real source has no such listing.
    setListing() {},
    refresh,
    start() {
      if (timer) return;
      void refresh();
      timer = setInterval(() => void refresh(), opts.refreshMs);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
