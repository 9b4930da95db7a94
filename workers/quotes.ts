import type { EndpointName } from '#shared/contract/index';
import type { QuoteRecord } from './store/schema';

/**
 * Last known prices. Any answer that carries prices (a quote, a market list, the watchlist,
 * holdings) updates one in-memory map; what changed is pushed to the screens at once as a small
 * batch of deltas, and persisted to the device store shortly after (batched), so a cold start or
 * an offline screen shows the last known price with its as-of time.
 */
export interface QuoteDelta extends QuoteRecord {
  /** `network`: seen in this session; `device`: read from the device store (maybe old). */
  source: 'network' | 'device';
}

type Row = Record<string, unknown>;
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function record(symbol: unknown, fields: Row, at: number): QuoteRecord | null {
  const s = str(symbol);
  const price = num(fields.price);
  if (!s || price === undefined) return null;
  const q: QuoteRecord = { symbol: s, price, asOf: num(fields.asOf) ?? at };
  for (const key of ['change', 'percent', 'decimals'] as const) {
    const v = num(fields[key]);
    if (v !== undefined) q[key] = v;
  }
  for (const key of ['name', 'market'] as const) {
    const v = str(fields[key]);
    if (v !== undefined) q[key] = v;
  }
  return q;
}

/** Rows of a list answer that use SPEC's stock-row names (`stock`, `prasent`, `percent_change`). */
function stockRows(rows: unknown, at: number, symbolField = 'stock'): QuoteRecord[] {
  if (!Array.isArray(rows)) return [];
  return rows.flatMap((r: Row) => {
    const q = record(
      r[symbolField],
      {
        price: r.prasent,
        change: r.change,
        percent: r.percent_change,
        name: r.name,
        market: r.market,
        decimals: r.decimals,
        asOf: r.as_of,
      },
      at,
    );
    return q ? [q] : [];
  });
}

/** The prices an answer of `name` carries; `at` stands in for a missing as-of. */
export function extractQuotes(name: EndpointName | string, data: unknown, at: number): QuoteRecord[] {
  if (!data || typeof data !== 'object') return [];
  const d = data as Row;
  switch (name) {
    case 'yahoo':
    case 'quote': {
      const q = record(
        d.symbol,
        {
          price: d.price,
          change: d.change,
          percent: d.changePercent ?? d.percent_change,
          name: d.name,
          market: d.market,
          decimals: d.decimals,
          asOf: d.as_of,
        },
        at,
      );
      return q ? [q] : [];
    }
    case 'stockList':
    case 'currencyList':
    case 'marketList':
      return stockRows(d.rows, at);
    case 'holdings':
      // Holdings carry the price but not the day's change.
      return stockRows(d.rows, at);
    case 'indexList':
      return stockRows(d.rows, at, 'symbol');
    case 'favouriteList': {
      if (!Array.isArray(d.list)) return [];
      return d.list.flatMap((item: Row) => {
        const detail = (item.stock_detail ?? {}) as Row;
        const q = record(
          item.stock_code,
          {
            price: detail.prasent,
            change: detail.change,
            percent: detail.percent_change,
            name: item.stock_name,
            market: detail.market,
            decimals: detail.decimals,
            asOf: detail.as_of,
          },
          at,
        );
        return q ? [q] : [];
      });
    }
    default:
      return [];
  }
}

export interface QuoteHubOptions {
  load: (symbols: string[]) => Promise<QuoteRecord[]>;
  save: (records: QuoteRecord[]) => Promise<unknown>;
  /** How long changes gather before one batched write. */
  persistDelayMs?: number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
}

export function createQuoteHub(opts: QuoteHubOptions) {
  const known = new Map<string, QuoteDelta>();
  const listeners = new Set<(deltas: QuoteDelta[]) => void>();
  const dirty = new Map<string, QuoteRecord>();
  let persistTimer: unknown = null;
  const later = opts.setTimeout ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));

  function schedulePersist(): void {
    if (persistTimer !== null) return;
    persistTimer = later(() => {
      persistTimer = null;
      const batch = [...dirty.values()];
      dirty.clear();
      if (batch.length) void opts.save(batch);
    }, opts.persistDelayMs ?? 1000);
  }

  const emit = (deltas: QuoteDelta[]) => {
    if (deltas.length) for (const l of listeners) l(deltas);
  };

  return {
    /** Takes prices from an answer; pushes what changed and queues it for the device store. */
    ingest(records: QuoteRecord[]): QuoteDelta[] {
      const deltas: QuoteDelta[] = [];
      for (const r of records) {
        const prev = known.get(r.symbol);
        // An answer older than what is known (a slow request overtaken by a newer one) changes nothing.
        if (prev?.source === 'network' && r.asOf < prev.asOf) continue;
        const next: QuoteDelta = { ...prev, ...r, source: 'network' };
        const changed =
          prev?.source !== 'network' ||
          prev.price !== next.price ||
          prev.change !== next.change ||
          prev.percent !== next.percent ||
          prev.name !== next.name;
        known.set(r.symbol, next);
        if (prev?.asOf !== next.asOf || changed) {
          const { source: _source, ...stored } = next;
          dirty.set(r.symbol, stored);
        }
        if (changed) deltas.push(next);
      }
      if (dirty.size) schedulePersist();
      emit(deltas);
      return deltas;
    },
    /** Known prices of `symbols`: this session's, else the device store's (marked `device`). */
    async get(symbols: string[]): Promise<QuoteDelta[]> {
      const missing = symbols.filter((s) => !known.has(s));
      if (missing.length) {
        for (const r of await opts.load(missing)) {
          if (!known.has(r.symbol)) known.set(r.symbol, { ...r, source: 'device' });
        }
      }
      return symbols.flatMap((s) => {
        const q = known.get(s);
        return q ? [q] : [];
      });
    },
    peek: (symbol: string) => known.get(symbol),
    subscribe(listener: (deltas: QuoteDelta[]) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Forgets everything (logout); listeners stay. */
    clear(): void {
      known.clear();
      dirty.clear();
    },
  };
}

export type QuoteHub = ReturnType<typeof createQuoteHub>;
