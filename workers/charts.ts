import { type CallResult, ERR } from '#shared/contract/define';
import type { Period, QuoteAnswer } from '#shared/contract/market';
import { aggregate, applyTick, type ChartMath, type Columns, computeChart, toColumns } from './chart';
import type { Device } from './device';
import { isUnreached } from './network';
import type { createPoller } from './poller';
import { extractQuotes, type QuoteHub } from './quotes';
import type { CandleChunk } from './store/schema';

/**
 * Live charts: one shared poll of `/v2/yahoo` per symbol and period, candles kept as columns,
 * moved between polls by live prices from any other answer, stored on the device as one chunk
 * per symbol and period, and handed to each screen as a ChartFrame whose arrays share one buffer
 * (the worker transfers it; nothing is copied).
 */
export interface ChartFrame extends ChartMath {
  symbol: string;
  period: Period;
  name: string;
  decimals: number;
  /** As-of of the newest price drawn. */
  asOf: number;
  source: 'network' | 'device';
  /** Week/month bars rolled up on the device from stored daily candles (offline). */
  derived: boolean;
  /** The instrument's latest price and day change, when known. */
  last: { price: number; change: number; percent: number } | null;
}

export type ChartUpdate = { frame: ChartFrame; error?: undefined } | { frame?: undefined; error: string };

/** How often each period is refetched (between polls live prices move the last bar). */
const CHART_POLL_MS: Record<Period, number> = {
  '1m': 5_000,
  '1d': 15_000,
  '1wk': 60_000,
  '1mo': 60_000,
};
/** A chart's chunk is written at most this often while it updates. */
const CHUNK_WRITE_EVERY_MS = 30_000;

interface ChartState {
  key: string;
  symbol: string;
  period: Period;
  cols: Columns | null;
  name: string;
  decimals: number;
  asOf: number;
  source: 'network' | 'device';
  derived: boolean;
  subs: Map<number, (u: ChartUpdate) => void>;
  pollId: number | null;
  lastWrite: number;
  /** The device was asked and holds none of it. */
  nothingKept: boolean;
}

/** Chart history per period in low-data mode; the server's defaults are 5 years daily, all weekly/monthly. */
const LOW_DATA_RANGE = { '1d': '6mo', '1wk': '2y', '1mo': '5y' } as const;

/** The chart call's input: in low-data mode a shorter history for every period but the minute one. */
export function chartQuery(symbol: string, period: Period, market: string | undefined, lowData: boolean) {
  return {
    symbol,
    mold: period,
    ...(market ? { market } : {}),
    ...(lowData && period !== '1m' ? { range: LOW_DATA_RANGE[period] } : {}),
  };
}

export interface ChartsOptions {
  poller: Pick<ReturnType<typeof createPoller>, 'subscribe' | 'unsubscribe'>;
  fetch: (symbol: string, period: Period, market?: string) => Promise<CallResult<QuoteAnswer>>;
  device: Device;
  hub: QuoteHub;
  /** The server answers (online or slow): a chart with nothing kept waits for it, else it is not loaded. */
  reachable?: () => boolean;
  now?: () => number;
}

export function createCharts(opts: ChartsOptions) {
  const { device, hub } = opts;
  const now = opts.now ?? Date.now;
  const charts = new Map<string, ChartState>();
  const byId = new Map<number, ChartState>();
  let nextId = 1;

  function frame(st: ChartState): ChartFrame {
    const math = computeChart(st.cols!);
    const q = hub.peek(st.symbol);
    return {
      ...math,
      symbol: st.symbol,
      period: st.period,
      name: st.name,
      decimals: st.decimals,
      asOf: st.asOf,
      source: st.source,
      derived: st.derived,
      last: q ? { price: q.price, change: q.change ?? 0, percent: q.percent ?? 0 } : null,
    };
  }

  /** Each subscriber gets its own frame: its buffer is transferred away. */
  function emit(st: ChartState): void {
    if (!st.cols) return;
    for (const cb of st.subs.values()) cb({ frame: frame(st) });
  }

  async function fromDevice(st: ChartState): Promise<void> {
    const chunk = await device.read((db) => db.candles.get(st.key), undefined);
    let cols: Columns | null = chunk ? chunk : null;
    let meta: CandleChunk | undefined = chunk;
    let derived = false;
    if (!chunk && (st.period === '1wk' || st.period === '1mo')) {
      const daily = await device.read((db) => db.candles.get(`${st.symbol}:1d`), undefined);
      if (daily) {
        cols = aggregate(daily, st.period);
        meta = daily;
        derived = true;
      }
    }
    // A network answer that arrived meanwhile wins.
    if (st.cols || !charts.has(st.key)) return;
    if (!cols || !meta) {
      st.nothingKept = true;
      if (opts.reachable && !opts.reachable()) notLoaded(st);
      return;
    }
    Object.assign(st, {
      cols,
      name: meta.name,
      decimals: meta.decimals,
      asOf: meta.asOf,
      source: 'device',
      derived,
    });
    emit(st);
  }

  async function store(st: ChartState): Promise<void> {
    const at = now();
    if (!st.cols || st.source !== 'network' || at - st.lastWrite < CHUNK_WRITE_EVERY_MS) return;
    st.lastWrite = at;
    const { t, o, h, l, c, v } = st.cols;
    await device.write(device.epoch(), (db) =>
      db.candles.put({
        key: st.key,
        symbol: st.symbol,
        period: st.period,
        t,
        o,
        h,
        l,
        c,
        v,
        name: st.name,
        decimals: st.decimals,
        asOf: st.asOf,
      }),
    );
  }

  /** Nothing to draw and the server cannot answer: say so rather than leave it loading. */
  function notLoaded(st: ChartState): void {
    if (st.cols) return;
    for (const cb of st.subs.values()) cb({ error: ERR.notLoaded });
  }

  function onAnswer(st: ChartState, result: CallResult<QuoteAnswer>, at: number): void {
    if (!result.ok) {
      if (!st.cols && isUnreached(result.status)) {
        if (st.nothingKept) notLoaded(st);
        return;
      }
      for (const cb of st.subs.values()) cb({ error: result.error });
      return;
    }
    const q = result.data;
    hub.ingest(extractQuotes('yahoo', q, at));
    Object.assign(st, {
      cols: toColumns(q.rows ?? []),
      name: q.name,
      decimals: q.decimals,
      asOf: q.as_of ?? at,
      source: 'network',
      derived: false,
    });
    emit(st);
    void store(st);
  }

  // Live prices from any answer move the last bar between polls.
  hub.subscribe((deltas) => {
    for (const d of deltas) {
      for (const st of charts.values()) {
        if (st.symbol !== d.symbol || !st.cols || st.source !== 'network' || d.asOf < st.asOf) continue;
        const next = applyTick(st.cols, { price: d.price, asOf: d.asOf }, st.period);
        st.asOf = d.asOf;
        if (next === st.cols) continue;
        st.cols = next;
        emit(st);
      }
    }
  });

  return {
    watch(symbol: string, period: Period, market: string | undefined, cb: (u: ChartUpdate) => void): number {
      const id = nextId++;
      const key = `${symbol}:${period}`;
      let st = charts.get(key);
      if (!st) {
        st = {
          key,
          symbol,
          period,
          cols: null,
          name: symbol,
          decimals: 2,
          asOf: 0,
          source: 'device',
          derived: false,
          subs: new Map(),
          pollId: null,
          lastWrite: 0,
          nothingKept: false,
        };
        charts.set(key, st);
        const state = st;
        state.pollId = opts.poller.subscribe(`chart:${key}`, () => opts.fetch(symbol, period, market), {
          intervalMs: CHART_POLL_MS[period],
          onUpdate: (result, at) => onAnswer(state, result, at),
        });
        void fromDevice(state);
      } else if (st.cols) {
        cb({ frame: frame(st) });
      } else if (st.nothingKept && opts.reachable && !opts.reachable()) {
        cb({ error: ERR.notLoaded });
      }
      st.subs.set(id, cb);
      byId.set(id, st);
      return id;
    },
    unwatch(id: number): ((u: ChartUpdate) => void) | undefined {
      const st = byId.get(id);
      if (!st) return undefined;
      byId.delete(id);
      const cb = st.subs.get(id);
      st.subs.delete(id);
      if (st.subs.size === 0) {
        // Keep the latest candles for the next visit, then stop polling.
        st.lastWrite = 0;
        void store(st);
        if (st.pollId !== null) opts.poller.unsubscribe(st.pollId);
        charts.delete(st.key);
      }
      return cb;
    },
    /** The server stopped answering: charts with nothing kept say they are not loaded. */
    unreachable(): void {
      for (const st of charts.values()) if (st.nothingKept) notLoaded(st);
    },
    /** Forgets in-memory candles (logout). */
    clear(): void {
      for (const st of charts.values()) {
        st.cols = null;
        st.lastWrite = Number.POSITIVE_INFINITY;
      }
    },
  };
}
