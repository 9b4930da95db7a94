import type { Candle } from '../provider';

/**
 * The public chart JSON of a Yahoo-style source (`/v8/finance/chart/{symbol}`):
 * `{ chart: { result: [{ meta, timestamp, indicators: { quote: [{ open, high, low, close, volume }] } }], error } }`.
 * Timestamps are epoch seconds; any value of a bar may be null (no trade in that interval).
 * A failure is `{ chart: { result: null, error: { code, description } } }`.
 */
interface ChartMeta {
  symbol: string;
  currency: string | null;
  exchangeName: string | null;
  instrumentType: string | null;
  /** Seconds east of UTC of the exchange. */
  gmtoffset: number;
  regularMarketPrice: number | null;
  /** Epoch ms of regularMarketPrice. */
  regularMarketTime: number | null;
  /** Close before the first bar of the range (the previous session for range=1d). */
  chartPreviousClose: number | null;
  previousClose: number | null;
  regularMarketDayHigh: number | null;
  regularMarketDayLow: number | null;
  regularMarketVolume: number | null;
  name: string | null;
  dataGranularity: string | null;
}

export interface ChartData {
  meta: ChartMeta;
  candles: Candle[];
  /** Bars left out because a price was missing. */
  gaps: number;
}

export class ChartError extends Error {
  constructor(
    readonly code: string,
    readonly description: string,
  ) {
    super(`${code}: ${description}`);
  }
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function series(quote: Json, name: string, length: number): Array<unknown> {
  const values = quote[name];
  if (values === undefined) return new Array(length).fill(null);
  if (!Array.isArray(values) || values.length !== length) {
    throw new ChartError('Malformed', `indicators.quote.${name} does not match the timestamps`);
  }
  return values;
}

/** Parses one chart answer; throws ChartError for an error payload or a malformed one. */
export function parseChart(body: unknown): ChartData {
  if (!isObject(body) || !isObject(body.chart)) throw new ChartError('Malformed', 'no chart object');
  const { result, error } = body.chart;
  if (isObject(error)) {
    throw new ChartError(
      str(error.code) ?? 'Error',
      str(error.description) ?? 'the source reported an error',
    );
  }
  if (!Array.isArray(result) || !isObject(result[0]))
    throw new ChartError('NoResult', 'the chart has no result');
  const r = result[0];
  if (!isObject(r.meta) || typeof r.meta.symbol !== 'string')
    throw new ChartError('Malformed', 'no meta.symbol');
  const m = r.meta;
  const time = num(m.regularMarketTime);
  const meta: ChartMeta = {
    symbol: m.symbol as string,
    currency: str(m.currency),
    exchangeName: str(m.fullExchangeName) ?? str(m.exchangeName),
    instrumentType: str(m.instrumentType),
    gmtoffset: num(m.gmtoffset) ?? 0,
    regularMarketPrice: num(m.regularMarketPrice),
    regularMarketTime: time === null ? null : time * 1000,
    chartPreviousClose: num(m.chartPreviousClose),
    previousClose: num(m.previousClose),
    regularMarketDayHigh: num(m.regularMarketDayHigh),
    regularMarketDayLow: num(m.regularMarketDayLow),
    regularMarketVolume: num(m.regularMarketVolume),
    name: str(m.longName) ?? str(m.shortName),
    dataGranularity: str(m.dataGranularity),
  };

  // A range without trades has no timestamp array at all.
  const timestamps = r.timestamp ?? [];
  if (!Array.isArray(timestamps)) throw new ChartError('Malformed', 'timestamp is not an array');
  const n = timestamps.length;
  const indicators = isObject(r.indicators) ? r.indicators : {};
  const quotes = Array.isArray(indicators.quote) ? indicators.quote : [];
  const quote = isObject(quotes[0]) ? quotes[0] : null;
  if (!quote && n > 0) throw new ChartError('Malformed', 'timestamps without indicators.quote');
  const candles: Candle[] = [];
  let gaps = 0;
  if (quote) {
    const open = series(quote, 'open', n);
    const high = series(quote, 'high', n);
    const low = series(quote, 'low', n);
    const close = series(quote, 'close', n);
    const volume = series(quote, 'volume', n);
    let last = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < n; i++) {
      const t = num(timestamps[i]);
      const o = num(open[i]);
      const h = num(high[i]);
      const l = num(low[i]);
      const c = num(close[i]);
      if (t === null) throw new ChartError('Malformed', `timestamp ${i} is not a number`);
      if (o === null || h === null || l === null || c === null || t * 1000 <= last) {
        gaps++;
        continue;
      }
      last = t * 1000;
      // A source's high/low can disagree with its own open/close by a rounding step.
      candles.push({
        t: t * 1000,
        o,
        h: Math.max(h, o, c),
        l: Math.min(l, o, c),
        c,
        v: Math.max(0, Math.round(num(volume[i]) ?? 0)),
      });
    }
  }
  return { meta, candles, gaps };
}
